"""Responses and Passives: mandatory vs optional, once per trigger, player order, Passives after Responses."""

from __future__ import annotations

from pathlib import Path

import attrs

from tests.unbroken.helpers import REFERENCE, REFERENCE_TOML, at_battle, cond, do, texts, with_res
from unbroken.rules import flow
from unbroken.rules.chance import DieRoll
from unbroken.rules.effects import EffectRoll
from unbroken.rules.triggers import Trig
from unbroken.state import FOOD, SE


def test_condition_and_monster_responses_are_mandatory() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter", conditions=cond("poisoned", tokens=2), advance=False)
    s = flow.run(with_res(s, se=10))
    # Poisoned fired at the start of the turn without asking: 1 Small Effort lost, a token removed.
    assert s.amount(SE) == 9 and [(c.id, c.tokens) for c in s.conditions] == [("poisoned", 1)]


def test_skill_and_character_responses_are_optional() -> None:
    s = at_battle("kobold", 2, pack=REFERENCE, character="hunter", skills=("daring",))
    assert texts(s) == ["pass", "respond 0 daring"]
    declined = do(s, "pass")
    assert declined.amount(SE) == 13
    used = do(s, "respond 0 daring")
    assert used.amount(SE) == 15


def test_responses_activate_once_per_trigger() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="brawler"), se=10)
    s = do(s, "attack punch")
    assert texts(s) == ["pass", "respond 0 Power Through"]
    s = do(s, "respond 0 Power Through")
    # Power Through was used for this attack: the attack lands (1 + 2 Wounds) without offering it again.
    assert s.combat is not None and s.combat.health == 2 and s.uses == 0


_BLUNTING_KOBOLD = (
    'extends = "default"\n[[monster]]\nid = "kobold"\nname = "Blunt Kobold"\nlevel = 1\nnumber = 1\narmor = 0\n'
    'health = 9\nsource = "standin"\n'
    'abilities = [{ name = "Blunting Hide", kind = "passive", trigger = "attack", '
    'effects = [{ op = "power", n = -3 }] }]\n'
    "table = [" + ", ".join(['{ kind = "defend", effects = [{ op = "defend" }] }'] * 6) + "]\n"
)


def test_player_orders_passives_when_the_order_matters(tmp_path: Path) -> None:
    # "If several Passive effects are in play, the player chooses the order in which these are applied."
    pack = tmp_path / "blunt.toml"
    pack.write_text(_BLUNTING_KOBOLD, encoding="utf-8")
    s = at_battle("kobold", 1, skills=("bloodlust",), pack=pack, advance=False)
    s = flow.run(with_res(s, se=12))
    s = do(s, "attack punch")  # power 1; Passives: Bloodlust +1 and the hide's -3 (never below 0)
    top = s.pending.top
    assert isinstance(top, Trig) and top.stage == 1
    assert texts(s) == ["respond 0 bloodlust", "respond 1 Blunting Hide"]
    hide_first = do(s, "respond 1 Blunting Hide")
    assert hide_first.combat is not None and hide_first.combat.health == 9 - 1  # max(0, 1 - 3) + 1
    bonus_first = do(s, "respond 0 bloodlust")
    assert bonus_first.combat is not None and bonus_first.combat.health == 9  # max(0, 1 + 1 - 3)


def test_passives_resolve_after_responses() -> None:
    s = at_battle("basilisk", 4, character="brawler", advance=False)
    s = flow.run(with_res(s, metal=1, le=1, se=12))
    s = do(s, "pick 1 spend 1 metal")
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, armor=0), weapons=("bare_hands", "knife", "sword"))
    s = do(s, "attack cleave")
    assert texts(s) == ["pass", "respond 0 Power Through"]  # the Response first; the cap waits
    s = do(s, "respond 0 Power Through")  # 5 + 2 = 7, then the Passive cap: 4
    assert s.combat is not None and s.combat.health == 8


def test_orders_that_cannot_matter_are_not_offered() -> None:
    s = at_battle("basilisk", 4, character="hunter", conditions=cond("paranoid"), advance=False)
    s = flow.run(with_res(s, metal=0))
    # Two mandatory Responses (Paralyzed from the Basilisk, +2 Health from Paranoid) resolved without a choice;
    # play went on to the Paralyzed roll at the start of the player's turn.
    assert s.combat is not None and s.combat.health == 14
    assert any(c.id == "paralyzed" for c in s.conditions)
    assert isinstance(s.pending.top, EffectRoll)


def test_level_start_trigger_survivor() -> None:
    from tests.unbroken.helpers import at_prep
    from unbroken.state import FLOW

    s = at_prep(1, skills=("survivor",))
    s = with_res(attrs.evolve(s, pos=FLOW.at("combat", "hunger", 1), monster="kobold"), food=1, se=5)
    s = do(s, "eat 1")
    assert s.level == 2 and texts(s) == ["pass", "respond 0 survivor"]
    assert do(s, "respond 0 survivor").amount(SE) == 8


def test_resolve_trigger_mandatory_cursed_and_optional_scavenger() -> None:
    from tests.unbroken.helpers import at_prep, draw

    s = with_res(at_prep(1, conditions=cond("cursed"), skills=("scavenger",)), time=7)
    s = draw(draw(do(s, "explore"), "lichen_wall"), "rotten_cart")
    s = do(s, "pick 1 Rotten Cart", "resolve")
    # Cursed's Time loss and Scavenger's Wood touch different tracks: their order cannot matter, so it is not
    # offered. Cursed (mandatory) resolves; Scavenger (optional) is still the player's choice.
    assert texts(s) == ["pass", "respond 0 scavenger"]
    assert s.amount(8) == 7 - 1
    s = do(s, "respond 0 scavenger")
    assert s.amount(5) == 3 and s.amount(8) == 7 - 1 - 2  # Wood 2 + 1; Time: Cursed 1, then the Time Value 2


def test_two_wound_bonuses_resolve_without_an_order() -> None:
    """Bloodlust and Old Habits both add 1 to the attack: no order is offered (it cannot change the result)."""
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter", skills=("bloodlust", "old_habits"))
    s = do(with_res(s, se=10), "attack punch")
    assert s.combat is not None and s.combat.health == 5 - 3 and isinstance(s.pending.top, DieRoll | type(None))


def test_a_loss_and_a_gain_of_effort_are_ordered_by_the_player() -> None:
    """Exhausted (lose 2 Small Effort) and Daring (+Level Small Effort) at the start of the battle: with 1 Small
    Effort the order decides whether Exhausted can be paid in Effort, so the player chooses it."""
    s = at_battle(
        "kobold", 2, pack=REFERENCE, character="hunter", skills=("daring",), conditions=cond("exhausted"), advance=False
    )
    s = flow.run(with_res(s, se=1, food=1))
    assert texts(s) == ["respond 0 daring", "respond 1 exhausted"]
    daring_first = do(s, "respond 0 daring")  # Exhausted, alone and mandatory, then resolves by itself
    assert daring_first.amount(SE) == 1 + 2 - 2 and daring_first.amount(FOOD) == 1
    exhausted_first = do(s, "respond 1 exhausted", "respond 0 daring")
    assert exhausted_first.amount(FOOD) == 0  # no Effort to pay: the bracketed alternative, 1 Food
    assert exhausted_first.amount(SE) == 1 + 2


def test_optional_responses_whose_order_cannot_matter_are_offered_one_at_a_time(tmp_path: Path) -> None:
    """Two optional gains at the start of the battle: use or pass each, in card order; no order is offered."""
    pack = tmp_path / "pack.toml"
    pack.write_text(
        REFERENCE_TOML + '[[skill]]\nid = "steady_breath"\nname = "Steady Breath"\nsource = "standin"\n'
        '[[skill.abilities]]\nkind = "response"\ntrigger = "battle_start"\n'
        'effects = [{ op = "gain", res = "food", n = 1 }]\n',
        encoding="utf-8",
    )
    s = at_battle("kobold", 2, character="hunter", pack=pack, skills=("daring", "steady_breath"))
    assert texts(s) == ["pass", "respond 0 daring"]
    declined = do(s, "pass")  # declines Daring only: Steady Breath is asked next
    assert texts(declined) == ["pass", "respond 0 steady breath"]
    both = do(s, "respond 0 daring", "respond 0 steady breath")
    assert both.amount(SE) == 13 + 2 and both.amount(FOOD) == 1
    neither = do(declined, "pass")
    assert neither.amount(SE) == 13 and neither.amount(FOOD) == 0 and "attack punch" in texts(neither)
