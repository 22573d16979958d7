"""Weapons: the upgrade tree, Craft costs and Time, downgrades, Bare Hands, one weapon, tiers."""

from __future__ import annotations

from tests.unbroken.helpers import REFERENCE, at_battle, at_prep, do, roll, texts, with_res
from unbroken.content.schema import Op
from unbroken.rules.effects import run_op
from unbroken.state import LE, ME, METAL, SE, TIME, WOOD


def test_craft_in_travel_pays_resources_and_time() -> None:
    s = with_res(at_prep(1), wood=2, metal=1, time=7)
    assert "craft club" in texts(s) and "craft knife" in texts(s)
    s = do(s, "craft knife")
    assert s.weapons == ("bare_hands", "knife") and s.amount(WOOD) == 1 and s.amount(METAL) == 0
    assert s.amount(TIME) == 6


def test_craft_needs_its_time_in_travel() -> None:
    s = with_res(at_prep(1), wood=1, metal=3, time=1)
    s = do(s, "craft knife")  # Time Value 1: the last Time -> Ambush
    assert s.pos.step == "ambush"
    s2 = with_res(at_prep(1, weapons=("bare_hands", "knife")), wood=1, metal=3, time=1)
    assert "craft sword" not in texts(s2)  # 2 Time needed


def test_craft_during_battle_counts_time_against_the_next_level() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), wood=2, time=9)
    s = do(s, "craft club")
    assert s.weapon == "club" and s.amount(TIME) == 8


def test_craft_during_level_four_battle_costs_small_effort() -> None:
    s = with_res(at_battle("troll", 4, character="hunter"), wood=2, se=10, time=0)
    s = do(s, "craft club")
    assert s.weapon == "club" and s.amount(SE) == 9


def test_voluntary_downgrade_is_permanent_and_free() -> None:
    s = with_res(at_prep(1, weapons=("bare_hands", "knife")), se=5)
    s = do(s, "downgrade")
    assert s.weapons == ("bare_hands",) and s.aside == () and s.amount(SE) == 5


def test_bare_hands_is_never_lost() -> None:
    s = at_prep(1)
    assert "downgrade" not in texts(s)
    assert run_op(s, Op("weapon_down", perm=True), "x").weapons == ("bare_hands",)


def test_temporary_downgrade_returns_after_combat() -> None:
    s = with_res(at_battle("bandit_chief", 2, character="hunter", weapons=("bare_hands", "knife")), food=0)
    s = roll(do(s, "skip"), 6)  # temporary downgrade
    assert s.weapons == ("bare_hands",) and s.aside == ("knife",)
    from unbroken.rules.combat import end_of_combat

    assert end_of_combat(s).weapons == ("bare_hands", "knife")


def test_one_weapon_at_a_time_and_tiers() -> None:
    s = with_res(at_prep(1, weapons=("bare_hands", "knife")), metal=2, wood=1, time=7)
    s = do(s, "craft sword")
    assert s.weapon == "sword" and s.pack.weapon("sword").tier == "advanced"
    assert [w.tier for w in s.pack.weapons if w.id in ("bare_hands", "club", "knife")] == ["basic"] * 3
    assert "attack punch" not in texts(
        at_battle("kobold", 1, pack=REFERENCE, weapons=s.weapons)
    )  # only the Sword's attacks


def test_craft_time_paid_in_effort_on_level_four_lets_the_player_choose_the_category() -> None:
    s = with_res(at_battle("troll", 4, character="hunter"), wood=2, se=0, me=1, le=1, time=0)
    s = do(s, "craft club")  # its 1 Time costs 1 Small Effort: Medium or Large Effort must cover it
    assert texts(s) == ["pick 0 medium effort first", "pick 1 large effort first"]
    s = do(s, "pick 1 large effort first")
    assert s.weapon == "club" and (s.amount(SE), s.amount(ME), s.amount(LE)) == (0, 1, 0)
