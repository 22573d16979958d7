"""Combat Phase: Ambush, Trickery, Battle, Rewards."""

from __future__ import annotations

from pathlib import Path

import attrs

from tests.unbroken.helpers import GAME, REFERENCE, REFERENCE_TOML, at_battle, at_prep, cond, do, roll, texts, with_res
from unbroken.content.schema import Op
from unbroken.rules import flow
from unbroken.rules.chance import DieRoll
from unbroken.rules.combat import CombatRoll
from unbroken.rules.effects import run_op
from unbroken.rules.skills import DrawSkills
from unbroken.state import CUNNING, FLOW, FOOD, LE, METAL, SE, TIME, TREASURE, WOOD, State


def _trickery(monster: str, level: int = 1, **res: int) -> State:
    s = with_res(at_prep(level, pack=REFERENCE), **res)
    s = attrs.evolve(s, pos=FLOW.at("combat", "trickery", level), monster=monster)
    return flow.run(s)


def test_ambush_reveals_resets_time_and_applies_the_ambush_effect() -> None:
    s = flow.run(attrs.evolve(with_res(at_prep(1, pack=REFERENCE), time=0, se=10), pos=FLOW.at("combat", "ambush", 1)))
    assert isinstance(s.pending.top, DieRoll)
    s = roll(s, 1)  # Kobold: Ambush lose 2 Small Effort
    assert s.amount(SE) == 8 and s.amount(TIME) == 9 and s.pos.step == "battle" and not s.tricked


def test_monster_without_ambush_effect_cannot_ambush() -> None:
    s = flow.run(attrs.evolve(with_res(at_prep(1, pack=REFERENCE), time=0, se=10), pos=FLOW.at("combat", "ambush", 1)))
    s = roll(s, 3)  # Giant Spider has no Ambush Effect
    assert s.amount(SE) == 10 and s.pos.step == "battle"


def test_trickery_pays_the_cost_and_skips_rewards_and_skill() -> None:
    s = _trickery("kobold", cunning=2, food=1)
    assert texts(s) == ["fight", "trick"]
    s = do(s, "trick")
    assert s.amount(CUNNING) == 0 and s.tricked and s.pos.step == "hunger"
    s = do(s, "eat 1")
    assert s.skills == () and s.amount(WOOD) == 0 and s.level == 2


def test_trickery_not_offered_without_a_cost_or_resources() -> None:
    s = _trickery("cave_rat_swarm")  # no Trickery Cost: cannot be tricked
    assert s.pos.step == "battle"
    s = _trickery("kobold", cunning=1)
    assert s.pos.step == "battle"


def test_armor_breaking_only_while_armor_remains() -> None:
    assert "attack shove" not in texts(at_battle("kobold", 1, pack=REFERENCE))
    s = at_battle("giant_spider", 1, pack=REFERENCE)
    assert "attack shove" in texts(s)


def test_wounds_only_once_armor_is_zero() -> None:
    s = at_battle("giant_spider", 1, pack=REFERENCE, character="hunter")
    assert "attack punch" not in texts(s)
    s = do(s, "attack shove")
    assert s.combat is not None and s.combat.armor == 0
    s = roll(s, 1)
    assert "attack punch" in texts(s)


def test_pierce_wounds_through_armor() -> None:
    s = at_battle("giant_spider", 1, pack=REFERENCE, character="hunter", weapons=("bare_hands", "knife", "spear"))
    s = do(s, "attack skewer")
    assert s.combat is not None and s.combat.armor == 1 and s.combat.health == 2


def test_defend_ignores_the_next_weapon_attack_only() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter")
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, defend=True))
    s = do(s, "attack punch")
    assert s.combat is not None and s.combat.health == 5 and not s.combat.defend and s.amount(SE) == 12
    s = roll(s, 1)  # DEFEND again
    assert s.combat is not None and s.combat.defend
    s = do(s, "use Aimed Shot")  # an action: DEFEND does not apply
    assert s.combat is not None and s.combat.health == 3 and s.combat.defend


def test_defend_does_not_stack() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter")
    s = run_op(run_op(s, Op("defend"), "monster:kobold"), Op("defend"), "monster:kobold")
    s = do(s, "attack punch")
    s = roll(s, 2)
    s = do(s, "attack punch")
    assert s.combat is not None and s.combat.health == 4


def test_reduce_and_its_bracketed_alternative() -> None:
    s = with_res(at_battle("cave_bear", 2, character="hunter"), le=1, se=10)
    s = roll(do(s, "skip"), 4)  # Reduce 1 Large Effort to 3 Small Effort
    assert s.amount(LE) == 0 and s.amount(SE) == 13
    s = roll(do(s, "skip"), 4)  # no Large Effort: the alternative, lose 2 Small Effort
    assert s.amount(SE) == 11


def test_steal_is_returned_with_the_rewards() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), food=1, se=10)
    s = roll(do(s, "skip"), 4)  # STEAL 1 Food
    assert s.amount(FOOD) == 0 and s.combat is not None and s.combat.stolen[FOOD] == 1
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, health=1))
    s = do(s, "attack punch")
    assert s.pos.step == "rewards" and s.amount(FOOD) == 2  # reward 1 Food + the stolen 1


def test_condition_already_gained_for_next_level_rerolls() -> None:
    s = at_battle("dark_elf", 2, character="hunter", next_conditions=cond("paranoid"))
    s = roll(do(s, "skip"), 3)
    assert isinstance(s.pending.top, CombatRoll) and s.pending.top.reroll
    s = roll(s, 2)
    assert s.amount(SE) == 12 and len(s.next_conditions) == 1


def test_active_timed_condition_is_extended() -> None:
    s = at_battle("basilisk", 4, character="hunter", advance=False)
    s = flow.run(with_res(s, metal=0, se=12))
    s = roll(s, 6)  # Paralyzed roll: no skip
    s = do(s, "skip")
    s = roll(s, 6)  # WOUND and 1 more Paralyzed token
    assert [(c.id, c.tokens) for c in s.conditions] == [("paralyzed", 2)]


def test_rolls_are_clamped_to_one_to_six() -> None:
    from unbroken.content.schema import Op
    from unbroken.rules.effects import run_op

    s = at_battle("kobold", 1, pack=REFERENCE, character="sneak")
    s = roll(do(s, "skip"), 2)
    assert s.combat is not None
    assert [run_op(s, Op("shift_roll", n=k), "x").combat.roll for k in (-3, 9)] == [1, 6]  # type: ignore[union-attr]  # combat is set in battle


def test_a_roll_shift_that_cannot_change_the_roll_is_not_offered() -> None:
    """Dodge at a 1 (it would stay 1) would only cost Small Effort and an Ability Use: not a real choice."""
    s = at_battle("kobold", 1, pack=REFERENCE, character="sneak")
    assert "respond 0 Dodge" not in texts(roll(do(s, "skip"), 1))
    assert "respond 0 Dodge" in texts(roll(do(s, "skip"), 2))


def test_time_lost_in_combat_counts_against_the_next_level() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), time=9)
    s = roll(do(s, "skip"), 5)
    assert s.amount(TIME) == 8


def test_time_lost_on_level_four_costs_small_effort() -> None:
    s = with_res(at_battle("wyvern", 4, character="hunter"), time=0, se=10)
    s = roll(do(s, "skip"), 4)  # lose 2 Time -> 2 Small Effort
    assert s.amount(SE) == 8 and s.amount(TIME) == 0


def test_weapon_attack_surcharge_does_not_apply_to_actions() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter", conditions=cond("frightened")), se=10)
    s = do(s, "attack punch")
    assert s.amount(SE) == 8
    s = roll(s, 1)
    s = do(s, "use Aimed Shot")
    assert s.amount(SE) == 6


def test_monster_gains_raise_current_and_maximum_heals_stop_at_maximum() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE)
    s = run_op(s, Op("monster_gain", res="health", n=2), "x")
    assert s.combat is not None and (s.combat.health, s.combat.max_health) == (7, 7)
    s = run_op(s, Op("monster_gain", res="armor", n=1), "x")
    assert s.combat is not None and (s.combat.armor, s.combat.max_armor) == (1, 1)
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, health=5))
    s = run_op(s, Op("heal", n=5), "x")
    assert s.combat is not None and s.combat.health == 7


def test_ignore_a_combat_action_type() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter", skills=("thick_skin",)), food=1)
    s = roll(do(s, "skip"), 4)  # STEAL, ignored
    assert s.amount(FOOD) == 1


def test_defeat_at_zero_health_then_rewards_and_skill_draw() -> None:
    s = at_battle("hyena", 1, pack=REFERENCE, character="hunter")
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, health=1))
    s = do(s, "attack punch")
    assert s.pos.step == "rewards" and s.amount(FOOD) == 2
    assert isinstance(s.pending.top, DrawSkills) and s.pending.top.n == 2


def test_no_skill_after_the_level_four_monster() -> None:
    s = with_res(at_battle("troll", 4, character="hunter"), food=0, se=20)
    assert s.combat is not None
    s = flow.run(attrs.evolve(s, combat=attrs.evolve(s.combat, health=0)))
    assert s.amount(FOOD) == 1 and s.amount(TREASURE) == 0 and s.pos.step == "hunger"  # its Reward: 1 Food


def test_skip_turn_and_general_actions_in_battle() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), se=10)
    assert "skip" in texts(s) and "focus" in texts(s)
    s = do(s, "focus")
    assert isinstance(s.pending.top, CombatRoll) and not s.pending.top.reroll
    _ = (GAME, METAL)


def test_level_four_removes_the_time_token() -> None:
    s = _trickery("troll", 4, time=6)
    assert s.pos.step == "battle" and s.amount(TIME) == 0  # the Troll cannot be tricked: straight to battle
    s = _trickery("kobold", 1, time=3, cunning=0)
    assert s.amount(TIME) == 9  # Level 2 starts with 9 Time


def test_a_killing_effect_still_resolves_its_remaining_effects(tmp_path: Path) -> None:
    """A card effect that defeats the monster part-way ("wound 3, then gain 2 Metal") is applied whole before the
    Rewards Step; the defeat itself is immediate (no monster turn follows)."""
    pack = tmp_path / "pack.toml"
    pack.write_text(
        REFERENCE_TOML + '[[skill]]\nid = "spoils"\nname = "Spoils"\nsource = "standin"\n'
        '[[skill.abilities]]\nkind = "action"\nphase = "combat"\n'
        'effects = [{ op = "wound", n = 3 }, { op = "gain", res = "metal", n = 2 }]\n',
        encoding="utf-8",
    )
    s = at_battle("kobold", 1, character="hunter", pack=pack, skills=("spoils",))
    assert s.combat is not None
    s = with_res(attrs.evolve(s, combat=attrs.evolve(s.combat, health=2)), metal=0, wood=0)
    s = do(s, "use spoils")
    assert s.pos.step == "rewards" and s.amount(METAL) == 2 and s.amount(WOOD) == 1  # its 2 Metal, the Kobold's Wood
