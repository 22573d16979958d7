"""Every effect-language feature, exercised through a card of the default pack that uses it."""

from __future__ import annotations

import attrs

from tests.unbroken.helpers import REFERENCE, at_battle, at_prep, cond, do, draw, roll, texts, with_res
from unbroken.content.loader import _all_ops, default_pack
from unbroken.rules import flow
from unbroken.rules.chance import DieRoll
from unbroken.rules.combat import CombatRoll
from unbroken.rules.effects import OPS
from unbroken.rules.skills import DrawSkills
from unbroken.rules.travel import DrawEncounters
from unbroken.state import CUNNING, FOOD, METAL, SE, TIME, TREASURE


def test_every_op_of_the_language_is_used_by_some_card() -> None:
    used = {o.op for _, _, o, _ in _all_ops(default_pack())}
    assert used == set(OPS)


def test_every_optional_field_of_the_language_is_used_by_some_card() -> None:
    """Not just every verb: every optional field (a scaled cost, a roll's other branch, ...) appears on a card."""
    used = {(o.op, f) for _, _, o, _ in _all_ops(default_pack()) for f in OPS[o.op].optional if getattr(o, f)}
    assert used == {(op, f) for op, d in OPS.items() for f in d.optional}


def test_scaled_cost_and_gain_second_wind() -> None:
    s = with_res(at_prep(2, skills=("second_wind",)), food=2, se=5, time=7)
    assert "use second wind" in texts(s)
    s = do(s, "use Second Wind")  # Level 2: spend 2 Food, gain 6 Small Effort
    assert s.amount(FOOD) == 0 and s.amount(SE) == 11
    assert "use second wind" not in texts(with_res(s, food=1))


def test_scaled_loss_bleeding() -> None:
    s = with_res(at_prep(3, conditions=cond("bleeding")), se=5, time=9)
    s = draw(draw(do(s, "explore"), "quiet_alcove"), "lichen_wall")
    s = do(s, "pick 0 Quiet Alcove", "rest")
    assert s.amount(SE) == 5 + 3 - 3  # rest: the Time Value 3; Bleeding on Level 3: lose 3


def test_roll_alternative_branch_shaken() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter", conditions=cond("shaken", tokens=2), advance=False)
    s = flow.run(with_res(s, cunning=2))
    assert texts(s)[5] == "roll 6: Shaken: lose 1 Cunning"
    s = roll(s, 6)  # 3-6: not skipped, but lose 1 Cunning
    assert s.amount(CUNNING) == 1 and "attack punch" in texts(s)
    assert [(c.id, c.tokens) for c in s.conditions] == [("shaken", 1)]


def test_heal_mire_leech() -> None:
    s = at_battle("mire_leech", 1, pack=REFERENCE, character="hunter")
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, health=2))
    s = roll(do(s, "skip"), 2)
    assert s.combat is not None and s.combat.health == 3


def test_cure_antidote_vial_and_healing_moss_choice() -> None:
    s = with_res(at_prep(1, conditions=cond("poisoned", "frightened")), time=7)
    s = draw(draw(do(s, "explore"), "antidote_vial"), "lichen_wall")
    s = do(s, "pick 0 Antidote Vial", "resolve")
    assert [c.id for c in s.conditions] == ["frightened"]
    s = with_res(at_prep(1, conditions=cond("poisoned", "frightened")), time=7)
    s = draw(draw(do(s, "explore"), "healing_moss"), "lichen_wall")
    s = do(s, "pick 0 Healing Moss", "resolve")
    assert texts(s) == ["pick 0 Poisoned", "pick 1 Frightened"]
    assert [c.id for c in do(s, "pick 1 Frightened").conditions] == ["poisoned"]


def test_weapon_up_forge_ruins_lets_the_player_choose() -> None:
    s = with_res(at_prep(1), wood=1, metal=1, time=7)
    s = draw(draw(do(s, "explore"), "forge_ruins"), "lichen_wall")
    s = do(s, "pick 0 Forge Ruins", "resolve")
    assert texts(s) == ["pick 0 Club", "pick 1 Knife"]
    assert do(s, "pick 1 Knife").weapons == ("bare_hands", "knife")


def test_reroll_sage_foresight() -> None:
    s = at_battle("hyena", 1, pack=REFERENCE, character="sage")
    s = roll(do(s, "skip"), 6)
    s = do(s, "respond 0 Foresight")
    assert isinstance(s.pending.top, CombatRoll) and s.pending.top.reroll
    s = roll(s, 1)
    assert s.amount(SE) == 13 - 1 + 1 and s.uses == 0  # Foresight gains 1 Small Effort; the re-rolled 1 takes 1


def test_extra_turn_quick_hands() -> None:
    s0 = at_battle(
        "kobold", 1, pack=REFERENCE, character="hunter", skills=("quick_hands",), difficulty="hard", advance=False
    )
    s0 = flow.run(s0)
    s0 = do(s0, "respond 0 quick hands")
    assert "attack punch" in texts(s0)
    s0 = do(s0, "attack punch")
    assert isinstance(s0.pending.top, DieRoll) and s0.combat is not None and s0.combat.health == 4


def test_skip_turn_and_tick_paralyzed() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, character="hunter", conditions=cond("paralyzed", tokens=2))
    s = roll(s, 2)  # 1-3: the turn is skipped
    assert isinstance(s.pending.top, CombatRoll) and not s.pending.top.reroll
    assert [(c.id, c.tokens) for c in s.conditions] == [("paralyzed", 1)]
    s = roll(s, 1)  # DEFEND
    s = roll(s, 5)  # not paralyzed this turn; the last token goes
    assert s.conditions == () and "attack punch" in texts(s)


def test_choose_goblin_market() -> None:
    s = with_res(at_prep(1), food=1, time=7)
    s = draw(draw(do(s, "explore"), "goblin_market"), "lichen_wall")
    s = do(s, "pick 0 Goblin Market", "resolve")
    assert len(texts(s)) == 3
    s = do(s, texts(s)[0])
    assert s.amount(METAL) == 2 and s.amount(FOOD) == 0


def test_reveal_map_fragment_and_pathfinder() -> None:
    s = with_res(at_prep(1), time=7)
    s = draw(draw(do(s, "explore"), "map_fragment"), "lichen_wall")
    s = do(s, "pick 0 Map Fragment", "resolve", "explore")
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 4
    s = do(at_prep(1, skills=("pathfinder",)), "explore")
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 3
    s = do(at_prep(1, conditions=cond("lost")), "explore")
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 1


def test_skill_faded_mural() -> None:
    s = with_res(at_prep(1), cunning=1, time=7)
    s = draw(draw(do(s, "explore"), "faded_mural"), "lichen_wall")
    s = do(s, "pick 0 Faded Mural", "resolve")
    assert isinstance(s.pending.top, DrawSkills) and s.amount(CUNNING) == 0
    s = draw(draw(s, "sling", "skill"), "crowbar", "skill")
    s = do(s, "pick 1 Crowbar")
    assert s.skills == ("crowbar",)


def test_scout_spy_hole() -> None:
    s = draw(draw(do(at_prep(1), "explore"), "spy_hole"), "lichen_wall")
    s = do(s, "pick 0 Spy Hole", "resolve")
    assert isinstance(s.pending.top, DieRoll)
    assert roll(s, 4).monster == "cave_rat_swarm"


def test_rest_bonus_meditation_and_forager_passive() -> None:
    s = with_res(at_prep(1, skills=("meditation", "forager")), time=7)
    s = draw(draw(do(s, "explore"), "quiet_alcove"), "lichen_wall")
    s = do(s, "pick 0 Quiet Alcove", "rest")
    assert s.amount(SE) == 13 + 3 + 1 and s.amount(FOOD) == 1


def test_food_requirement_starving_and_hearty() -> None:
    from unbroken.rules.combat import food_requirement

    assert food_requirement(at_prep(2, conditions=cond("starving"))) == 3
    assert food_requirement(at_prep(2, skills=("hearty",))) == 1


def test_skill_action_bargainer_trades_treasure_for_cunning() -> None:
    s = with_res(at_prep(1, skills=("bargainer",)), treasure=1)
    s = do(s, "use bargainer")
    assert s.amount(TREASURE) == 0 and s.amount(CUNNING) == 2


def test_time_gain_secret_shortcut() -> None:
    s = with_res(at_prep(1), cunning=1, time=5)
    s = draw(draw(do(s, "explore"), "shortcut"), "lichen_wall")
    s = do(s, "pick 0 Secret Shortcut", "resolve")
    assert s.amount(TIME) == 5 + 3 - 1


def test_power_by_weapon_tier_old_habits() -> None:
    basic = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter", skills=("old_habits",)), se=10)
    basic = do(basic, "attack punch")
    assert basic.combat is not None and basic.combat.health == 5 - 2
    advanced = at_battle(
        "kobold",
        1,
        pack=REFERENCE,
        character="hunter",
        skills=("old_habits",),
        weapons=("bare_hands", "knife", "sword"),
    )
    advanced = do(with_res(advanced, se=10), "attack slash")
    assert advanced.combat is not None and advanced.combat.health == 5 - 3
