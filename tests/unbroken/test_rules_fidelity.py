"""Rules fidelity: each test quotes the clause it holds the code to."""

from __future__ import annotations

import attrs

from tabletop_core.flow import Pending
from tests.unbroken.helpers import GAME, at_battle, at_prep, do, draw, enc_index, texts, with_res
from unbroken.actions import Pick
from unbroken.content.loader import default_pack
from unbroken.content.schema import Op
from unbroken.invariants import validate_state
from unbroken.rules import flow
from unbroken.rules.combat import end_of_combat
from unbroken.rules.effects import run_op
from unbroken.rules.payment import PayChoice
from unbroken.state import CUNNING, FLOW, LE, ME, SE, State


def _down(state: State) -> State:
    return flow.run(run_op(state, Op("weapon_down", perm=False), "monster:stone_golem"))


def test_temporary_downgrades_return_in_order_and_never_two_sheets_of_a_weapon() -> None:
    # "If an effect is temporary, set the Weapon Sheet aside for the noted duration ... your previous Weapon
    # becomes your new current Weapon"; "lay the new Weapon Sheet on top of the old sheet"; "You can never ...
    # have 2 Weapons at the same time".
    s = at_battle("stone_golem", 3, weapons=("bare_hands", "knife", "sword"))
    s = _down(_down(s))  # the Stone Golem's row twice: the Sword, then the Knife, set aside
    assert s.weapons == ("bare_hands",) and s.aside == ("sword", "knife")
    after = end_of_combat(attrs.evolve(s, pos=FLOW.at("combat", "hunger", 3), pending=Pending()))
    assert after.weapons == ("bare_hands", "knife", "sword")  # the Sword is equipped again at Level 4
    assert not any(t.startswith("craft sword") for t in texts(flow.run(after)))
    validate_state(after)


def test_crafting_a_weapon_whose_sheet_is_set_aside_takes_that_sheet_back() -> None:
    s = at_battle("stone_golem", 3, weapons=("bare_hands", "knife"))
    s = with_res(_down(s), metal=5, wood=5, se=10)
    assert s.weapons == ("bare_hands",) and s.aside == ("knife",)
    s = do(s, "craft knife")
    assert s.weapons == ("bare_hands", "knife") and s.aside == ()
    after = end_of_combat(attrs.evolve(s, pos=FLOW.at("combat", "hunger", 3), pending=Pending()))
    assert after.weapons == ("bare_hands", "knife")  # one Knife sheet, not two
    validate_state(after)


def test_weapon_stack_invariant_refuses_a_stack_that_is_not_a_path_of_the_upgrade_tree() -> None:
    bad = attrs.evolve(at_prep(2), weapons=("bare_hands", "sword", "knife"))
    try:
        validate_state(bad)
    except ValueError as exc:
        assert "sword" in str(exc) and "knife" in str(exc)
    else:
        raise AssertionError("a stack that is not a path of the upgrade tree was accepted")
    twice = attrs.evolve(at_prep(2), weapons=("bare_hands", "knife"), aside=("knife",))
    try:
        validate_state(twice)
    except ValueError as exc:
        assert "knife" in str(exc)
    else:
        raise AssertionError("two sheets of one weapon were accepted")


def test_wound_only_actions_are_not_offered_while_the_monster_has_armor() -> None:
    # "Until the Armor resource bar reaches 0 — you may not inflict Wounds through Weapon Attacks and Actions,
    # unless specifically noted otherwise."
    s = with_res(at_battle("stone_golem", 3, character="hunter", skills=("sling",)), se=10, wood=2)
    assert s.combat is not None and s.combat.armor > 0
    assert "use Aimed Shot" not in texts(s) and not any(t.startswith("use sling") for t in texts(s))
    bare = attrs.evolve(s, combat=attrs.evolve(s.combat, armor=0))
    assert "use Aimed Shot" in texts(bare) and any(t.startswith("use sling") for t in texts(bare))


def test_tricking_the_level_four_monster_is_not_offered_tricking_on_level_three_is() -> None:
    # "You defeat the final monster in Level 4 and do not die of starvation — you win!"; "If you pay the Trickery
    # Cost, proceed to the Hunger Step. You do not receive any Rewards."
    def at_trickery(monster: str, level: int) -> State:
        s = attrs.evolve(with_res(at_prep(level), cunning=8, treasure=2, se=10), monster=monster)
        return flow.run(attrs.evolve(s, pos=FLOW.at("combat", "trickery", level)))

    level4 = at_trickery("basilisk", 4)
    assert level4.pos.step == "battle" and "trick" not in texts(level4)
    level3 = at_trickery("wraith", 3)
    assert level3.pos.step == "trickery" and "trick" in texts(level3)
    tricked = do(level3, "trick")  # the Hunger Step, then Level 4: not the end of the game
    assert tricked.outcome == 0 and tricked.amount(CUNNING) == 8 - 4


def test_a_killing_blow_keeps_responses_that_had_already_triggered() -> None:
    # "If the token reaches 0 — you have defeated the monster! Check for any Response effects that would be
    # triggered and then proceed to the Rewards Step."
    s = at_battle("stone_golem", 3, skills=("wrecker", "opportunist"), weapons=("bare_hands", "knife", "sword"))
    s = with_res(s, se=12, le=2)
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, armor=1, health=3))
    s = do(s, "attack sunder")  # breaks the last Armor: Wrecker and Opportunist both trigger
    assert {"respond 0 wrecker", "respond 1 opportunist"} <= set(texts(s))
    s = do(s, "respond 0 wrecker")
    killed = do(s, "attack slash")  # the extra attack kills (3 Wounds) while Opportunist still waits
    assert killed.combat is not None and killed.combat.health == 0 and killed.pos.step == "rewards"
    assert texts(killed) == ["pass", "respond 0 opportunist"]  # still offered, before the Rewards
    got = do(killed, "respond 0 opportunist")
    assert got.amount(SE) == killed.amount(SE) + 2


def test_the_basilisk_cap_bounds_the_final_wounds_whatever_the_order() -> None:
    # "the Basilisk's Passive effect prevents it from suffering more than 4 Wounds"; "If several Passive effects
    # are in play, the player chooses the order".
    s = at_battle("basilisk", 4, character="hunter", skills=("bloodlust",), advance=False)
    s = flow.run(with_res(s, metal=1, le=1, se=12))
    assert s.combat is not None
    s = attrs.evolve(s, combat=attrs.evolve(s.combat, armor=0), weapons=("bare_hands", "knife", "sword"))
    s = do(s, "pick 1 spend 1 metal")  # avoid the paralysis roll
    s = do(s, "attack cleave")  # 5 Wounds, Bloodlust +1: the cap still bounds the blow at 4
    assert s.combat is not None and s.combat.health == 12 - 4
    assert not any(t.startswith("respond") for t in texts(s))  # no order left to choose


def test_a_committed_encounters_cost_lets_the_player_choose_the_effort() -> None:
    # "you can spend Effort of a higher category in place of Effort of a lower category" (the player's choice).
    s = draw(draw(do(at_prep(1), "explore"), "rope_descent"), "lichen_wall")
    s = do(s, "pick 0 Rope Descent", "resolve")
    s = do(with_res(s, se=0, me=2, le=1), "explore")
    s = draw(s, "ore_vein")  # spend 2 Small Effort, with none
    assert isinstance(s.pending.top, PayChoice)
    assert texts(s) == ["pick 0 medium effort first", "pick 1 large effort first"]
    large = do(s, "pick 1 large effort first")
    assert (large.amount(SE), large.amount(ME), large.amount(LE)) == (0, 1, 0)
    medium = do(s, "pick 0 medium effort first")
    assert (medium.amount(SE), medium.amount(ME), medium.amount(LE)) == (0, 0, 1)


def test_orienteer_is_not_offered_while_committed() -> None:
    # "reveal only 1 Encounter Card — regardless of effects or modifiers": Orienteer could only waste.
    s = draw(draw(do(with_res(at_prep(1), se=6), "explore"), "rope_descent"), "lichen_wall")
    s = do(s, "pick 0 Rope Descent", "resolve")
    assert s.committed and "orienteer" not in texts(s)


def test_two_revealed_copies_of_one_encounter_give_one_pick() -> None:
    s = do(with_res(at_prep(1), se=6), "orienteer", "explore")
    s = draw(draw(draw(draw(s, "mushroom_grove"), "mushroom_grove"), "lichen_wall"), "bat_roost")
    assert texts(s) == ["pick 0 Mushroom Grove", "pick 2 Lichen Wall", "pick 3 Bat Roost"]
    kept = GAME.step(s, Pick(0))
    assert kept.encounters.discards.count(enc_index(s, "mushroom_grove")) == 1


def _dominated(a: object, b: object) -> bool:
    """Whether attack ``b`` is at least as good as ``a`` in every way and better in one (same kind)."""
    from unbroken.content.schema import Attack as WeaponAttack
    from unbroken.rules.resources import needs

    assert isinstance(a, WeaponAttack) and isinstance(b, WeaponAttack)
    if a.kind != b.kind or (a.pierce and not b.pierce) or b.power < a.power:
        return False
    na, nb = needs(a.cost), needs(b.cost)
    # Higher Effort pays for lower: b is payable whenever a is iff its Effort demand is no larger from the top down.
    tops = [(nb[LE], na[LE]), (nb[LE] + nb[ME], na[LE] + na[ME]), (nb[LE] + nb[ME] + nb[SE], na[LE] + na[ME] + na[SE])]
    others = all(nb[r] <= na[r] for r in range(3, len(na)))
    return all(x <= y for x, y in tops) and others and (na != nb or b.power > a.power)


def test_no_weapon_attack_is_never_worth_using() -> None:
    # Content that cannot matter: the rulebook's Sword attack (1 Large + 2 Small Effort, 5 Wounds) must not be
    # strictly worse than an authored one.
    pack = default_pack()
    sword = pack.weapon("sword")
    cleave = next(a for a in sword.attacks if a.name == "cleave")
    assert cleave.power == 5 and needs_of(cleave) == {"le": 1, "se": 2}  # the rulebook's numbers kept
    for w in pack.weapons:
        for a in w.attacks:
            for b in w.attacks:
                assert a is b or not _dominated(a, b), f"{w.id}: {a.name} is never better than {b.name}"


def needs_of(attack: object) -> dict[str, int]:
    """The attack's cost by resource name."""
    from unbroken.content.schema import Attack as WeaponAttack

    assert isinstance(attack, WeaponAttack)
    return {o.res: o.n for o in attack.cost}


def test_every_condition_is_inflicted_by_some_card() -> None:
    # Content that cannot matter: no card inflicted the Starving condition.
    from unbroken.content.loader import _all_ops

    pack = default_pack()
    inflicted = {o.id for _, _, o, _ in _all_ops(pack) if o.op == "condition"}
    assert "starving" in inflicted
    assert {c.id for c in pack.conditions} <= inflicted


def test_the_dark_elf_is_a_level_three_monster() -> None:
    # "Combat with a Dark Elf on the previous Level left the Sneak with a Paranoid Condition, so the Basilisk's
    # Health is immediately increased to 14" (the Basilisk is the Level 4 monster).
    pack = default_pack()
    elf = next(m for m in pack.monsters if m.id == "dark_elf")
    assert elf.level == 3 and pack.monster_for(3, elf.number) is elf
    assert any(o.op == "condition" and o.id == "paranoid" and o.when == "next" for r in elf.table for o in r.effects)
