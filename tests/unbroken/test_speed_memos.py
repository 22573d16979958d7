"""One-copy events, the cards-in-play memo and one-pass cost checks (``docs/performance-unbroken.md``): each
shortcut against the long way it stands for.

States come from random games of every difficulty and character (``test_fast_paths.resting_states``); where a
shortcut depends on content (a weapon's Crafts), every card of the pack is tried on them.
"""

from __future__ import annotations

import cProfile
import itertools
import pstats

import numpy as np
import pytest

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Pending
from unbroken.actions import FIGHT, Attack, Craft, Die
from unbroken.content.schema import TRIGGERS, Op
from unbroken.rules import cards, flow, travel, triggers
from unbroken.rules.combat import (
    AttackLands,
    CombatRoll,
    MonsterAct,
    MonsterTurn,
    PlayerTurn,
    TurnStart,
    attack_cost,
    monster,
    set_tracker,
    surcharge,
)
from unbroken.rules.effects import combat_after, run_op, run_ops
from unbroken.rules.listing import _craft_affordable, craft_options
from unbroken.rules.payment import ACT, CRAFT, one
from unbroken.rules.resources import _plan, affordable, affords_need, ambiguous, can_pay, need_of, paid
from unbroken.rules.tables import tables
from unbroken.rules.travel import ExploreEnd, ExploreMode
from unbroken.rules.verbs import MonsterReveal, weapon
from unbroken.state import EFFORT, LAST_LEVEL, LE, ME, N_RESOURCES, NON_EFFORT, SE, TRACKS, State

from .helpers import GAME, random_steps
from .test_fast_paths import resting_states

FIGHT_ACT = ACT[FIGHT]


def _plan_by_definition(state: State, need: list[int], large_first: bool) -> list[int] | None:
    """What is left after paying ``need``: each category pays for itself, then a higher one covers a lower one's
    shortfall, cheapest category first (Large before Medium for a Small shortfall when ``large_first``)."""
    have = [t.value for t in state.res]
    for r in NON_EFFORT:
        if need[r] > have[r]:
            return None
        have[r] -= need[r]
    for r in (LE, ME, SE):
        short = need[r]
        order = (SE, LE, ME) if large_first and r == SE else EFFORT
        for c in order:
            if c < r or short == 0:
                continue
            take = min(short, have[c])
            have[c] -= take
            short -= take
        if short:
            return None
    return have


def _needs() -> list[list[int]]:
    """Per-slot needs: every mix of 0-5 Small, 0-3 Medium and 0-2 Large Effort, with and without a non-Effort."""
    out = []
    for se, me, le, other in itertools.product(range(6), range(4), range(3), (None, *NON_EFFORT)):
        need = [0] * N_RESOURCES
        need[SE], need[ME], need[LE] = se, me, le
        if other is not None:
            need[other] = 1 + se % 2
        out.append(need)
    return out


def test_an_effort_plan_is_the_plan_by_definition() -> None:
    needs = _needs()
    for k, state in enumerate(resting_states()[::40]):
        for need in needs[k % 3 :: 3]:
            for large_first in (False, True):
                assert _plan(state, need, large_first) == _plan_by_definition(state, need, large_first), need


def test_the_affordable_options_are_those_each_need_affords() -> None:
    options = tuple((i, need_of(need)) for i, need in enumerate(_needs()[::7]))
    for state in resting_states()[::25]:
        assert affordable(state, options) == [i for i, need in options if affords_need(state, need)]


def test_the_craft_options_are_the_upgrades_affordable_one_by_one() -> None:
    states = resting_states()[::20]
    weapons = [w.id for w in tables(states[0]).weapons.values() if w.upgrades]
    listed = refused = 0
    for k, state in enumerate(states):
        # the state's own tracks, and every track at half its cap (most Crafts affordable, some not)
        half = tuple(TRACKS[r][len(TRACKS[r]) // 2] for r in range(N_RESOURCES))
        for res in (state.res, half):
            for wid in weapons[k % 2 :: 2]:
                armed = replace(state, weapons=(*state.weapons[:-1], wid), res=res)
                ups = tables(armed).weapons[wid].upgrades
                for combat in (False, True):
                    plain = [one(CRAFT, Craft, i) for i, u in enumerate(ups) if _craft_affordable(armed, u, combat)]
                    assert craft_options(armed, combat=combat) == plain, (wid, combat)
                    listed += len(plain)
                    refused += len(ups) - len(plain)
    assert weapons and listed > 20 and refused > 20


def test_the_cards_in_play_and_what_they_derive_are_the_plain_definitions() -> None:
    # private: the listing behind the memo is compared with the memo
    states = list(resting_states()[::3])
    # Shuffled, so that the memo is asked both for the cards it holds and for others, in no particular order.
    np.random.default_rng(5).shuffle(states)  # shuffles the list in place
    for state in states:
        plain = cards._listed(state)
        assert tuple(cards.cards_in_play(state)) == plain
        t = tables(state)
        for op in ("ignore", "surcharge", "cap_wounds", "reveal", "rest_bonus", "food_req", "instead"):
            expected = [o for src in plain for o in t.statics.get(src, {}).get(op, ())]
            assert list(cards.static_ops(state, op)) == expected == cards.statics(state, op), op
        for trigger in TRIGGERS:
            cands = [triggers.Cand(s, i, opt) for s in plain for i, opt in t.responses[s].get(trigger, ())]
            assert triggers.fire(state, trigger) == (triggers.Trig(trigger, tuple(cands), 0) if cands else None)
            assert cards.activates(state, trigger) == bool(cands)


def test_the_cards_in_play_memo_follows_a_change_of_the_cards() -> None:
    state = next(s for s in resting_states() if s.combat is not None and s.skills)
    before = cards.cards_in_play(state)
    fewer = replace(state, skills=state.skills[1:])
    assert cards.cards_in_play(fewer) == [before[0], *before[2:]]
    assert cards.cards_in_play(replace(state, combat=None)) == before[:-1]
    # an equal tuple that is another object: a miss, and the same answer
    assert cards.cards_in_play(replace(state, skills=tuple(list(state.skills)))) == before


def test_a_combat_roll_takes_its_combat_action_as_the_driver_would() -> None:
    rolls = [s for s in resting_states() if type(s.pending.top) is CombatRoll]
    checked = waits = 0
    for state in rolls[::2]:
        frame = state.pending.top
        assert isinstance(frame, CombatRoll) and state.combat is not None
        for face in range(1, 7):
            # the long way: the roll popped with its face (and a Fire that resolves to nothing with it), then the
            # driver resolving the MonsterAct frame on top
            combat = replace(state.combat, roll=face)
            frames = state.pending.frames[:-1]
            under = frames[-1] if frames else None
            if isinstance(under, triggers.Fire):
                trig = triggers.fire(state, under.trigger)
                if trig is None or triggers.resolves_to_nothing(state, trig, combat):
                    frames = frames[:-1]
            long_way = flow.run(replace(state, pending=Pending(frames), combat=combat))
            assert flow.run(frame.apply(state, Die(face))) == long_way, (face, state)
            checked += bool(frames) and type(frames[-1]) is MonsterAct
            waits += type(long_way.pending.top) is triggers.Trig and isinstance(frames[-1], triggers.Fire)
    assert checked > 100 and waits > 10, (checked, waits)


def _playout_counts(steps: int, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int, int]:
    """(steps, State copies, Python calls) of the benchmark's random playout (seed 0) through the checked step."""
    made = [0]
    init = State.__init__

    def counted(self: State, *args: object, **kwargs: object) -> None:
        made[0] += 1
        init(self, *args, **kwargs)  # type: ignore[arg-type]  # the attrs __init__, passed through

    GAME.new_game()  # the starting state of the default options, made once
    profile = cProfile.Profile()
    profile.enable()
    done = random_steps(steps)
    profile.disable()
    calls = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]  # set by Stats, not declared
    monkeypatch.setattr(State, "__init__", counted)
    random_steps(steps)
    return done, made[0], calls


def test_a_random_step_makes_fewer_calls_and_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    steps, copies, calls = _playout_counts(3000, monkeypatch)
    # before these shortcuts (cfa938c): 2.11 copies and 96 Python calls a step on this playout (the benchmark's
    # loop included: sampling, the rng); now about 1.63 and 80. Counts, so the load cannot make it flake.
    assert copies / steps < 1.66, copies / steps
    assert calls / steps < 83, calls / steps


def test_an_effort_loss_that_cannot_be_paid_is_death_on_any_stack() -> None:
    # "If you ever must lose Effort but do not have enough — you lose the game"; a finished game keeps no frames.
    deaths = 0
    for state in [s for s in resting_states() if s.pending][::4]:
        for res in ("se", "me", "le"):
            op = Op("lose", res=res, n=40)
            for pending in (None, state.pending.pop()):
                after = run_op(state, op, "x:y", pending)
                assert after == replace(state, outcome=-1, pending=Pending()), (op, state)
                deaths += 1
    assert deaths > 100


def test_an_encounter_resolved_or_rested_ends_as_the_driver_would() -> None:
    modes = [s for s in resting_states() if isinstance(s.pending.top, ExploreMode)]
    card_ids = range(len(modes[0].pack.encounters))
    fused = 0
    for k, state in enumerate(modes[::2]):
        for card in card_ids[k % 5 :: 5]:
            at = state.replace_top(ExploreMode(card))
            enc = at.pack.encounters[card]
            # the long way: the card's end and the trigger's Fire frame stacked, the Exchange's gains run, the driver on
            t = at.res[SE]
            n = enc.time + sum(o.n for o in cards.statics(at, "rest_bonus"))
            gains = {"res": at.res_at(SE, min(t.high, t.value + n))} if n > 0 else {}
            rested = at.restack(ExploreEnd(card), triggers.Fire("rest"), **gains)
            assert flow.run(travel.rest(at, card)) == flow.run(rested), (card, at)
            if can_pay(at, enc.spend):
                paid_at = at.restack(
                    ExploreEnd(card), triggers.Fire("resolve"), res=paid(at, enc.spend), large_first=False
                )
                long_way = flow.run(run_ops(paid_at, enc.gain, f"encounter:{enc.id}"))
                assert flow.run(travel.resolve(at, card)) == long_way, (card, at)
                fused += all(o.op == "gain" for o in enc.gain)
    assert fused > 30


def _battle_turns() -> list[State]:
    return [
        s
        for s in resting_states()
        if isinstance(s.pending.top, PlayerTurn) and s.combat is not None and s.combat.started and not s.outcome
    ]


def test_an_attack_is_its_payment_then_its_frames_as_the_driver_would_run_them() -> None:
    checked = {"break": 0, "wound": 0}
    for state in _battle_turns():
        for action in GAME.legal_actions(state):
            if not isinstance(action, Attack):
                continue
            frame = state.pending.top
            assert isinstance(frame, PlayerTurn) and state.combat is not None
            if state.combat.defend or ambiguous(state, *attack_cost(state, action.i)):
                continue  # the DEFEND and payment-choice paths are unchanged
            # the long way: the payment and the turn's stack in one copy, then the attack's frames pushed on it
            a = weapon(state).attacks[action.i]
            pending = state.pending.pop() if frame.extra else state.pending.replace_top(MonsterTurn())
            paid_at = replace(state, pending=pending, res=paid(state, a.cost, surcharge(state)), large_first=False)
            if a.kind == "break":
                after = run_ops(paid_at, (Op("break_armor", n=a.power),), f"weapon:{state.weapon}")
            else:
                power = replace(state.combat, power=a.power)
                after = paid_at.push(AttackLands(a.pierce), triggers.Fire("attack"), combat=power)
            assert GAME.step(state, action) == flow.run(after), (action, state)
            checked[a.kind] += 1
    assert checked["break"] > 10 and checked["wound"] > 10, checked


def test_an_attack_landing_before_the_monster_turn_is_the_pop_then_the_driver() -> None:
    checked = 0
    for state in _battle_turns()[::2]:
        c = state.combat
        assert c is not None
        for pierce, power in itertools.product((False, True), (0, 2, 5, 40)):
            landing = state.replace_top(MonsterTurn()).push(AttackLands(pierce), combat=replace(c, power=power))
            # the long way: the frame popped with the blow (see ``attack_land``), then the driver
            blow = replace(c, power=power)
            hit = blow if c.armor > 0 and not pierce else replace(blow, health=max(0, c.health - power), power=0)
            if cards.statics(state, "cap_wounds"):
                continue  # a Wound cap: covered through the attacks above
            long_way = flow.run(replace(landing, pending=landing.pending.pop(), combat=hit))
            assert flow.run(AttackLands(pierce).resolve(landing)) == long_way, (pierce, power, state)
            checked += 1
    assert checked > 50


def _trickery_the_long_way(state: State) -> State:
    """The Trickery Step's frames as the driver ran them before: reveal, or set the trackers; with no payable
    Trickery Cost the Battle Step, its ``battle_start`` Fire frame stacked over the first turn."""
    if not state.monster:
        return state.push(MonsterReveal())
    if state.combat is None:
        state = set_tracker(state)
    trick = monster(state).trickery
    if trick is not None and can_pay(state, trick) and state.level < LAST_LEVEL:
        return state
    battle = state.at("combat", "battle")
    assert battle.combat is not None
    first = MonsterTurn() if state.options.difficulty == "hard" else TurnStart()
    return flow.run(battle.push(first, triggers.Fire("battle_start"), combat=replace(battle.combat, started=True)))


def test_a_fight_or_a_reveal_goes_through_the_trickery_step_as_the_driver_would() -> None:
    fights = reveals = 0
    for state in resting_states():
        top = state.pending.top
        if top is None and state.pos.phase == "travel" and FIGHT_ACT in GAME.legal_actions(state):
            assert GAME.step(state, FIGHT_ACT) == _trickery_the_long_way(state.at("combat", "trickery")), state
            fights += 1
        elif isinstance(top, MonsterReveal) and state.pos.step == "trickery":
            for face in range(1, 7):
                revealed = top.apply(state, Die(face))
                assert GAME.step(state, Die(face)) == _trickery_the_long_way(revealed), (face, state)
                reveals += 1
    assert fights > 30 and reveals > 30


def test_a_battle_starts_as_its_fire_frame_and_first_turn_would_run() -> None:
    checked = 0
    for state in _battle_turns()[::3]:
        c = state.combat
        assert c is not None
        # the battle not yet started, at its step with nothing pending (a monster of any Health, ordinary or dead)
        for health in (c.health, 0):
            fresh = replace(state, combat=replace(c, started=False, health=health), pending=Pending())
            first = MonsterTurn() if state.options.difficulty == "hard" else TurnStart()
            started = replace(c, started=True, health=health)
            long_way = flow.run(fresh.push(first, triggers.Fire("battle_start"), combat=started))
            assert flow.run(fresh) == long_way, state
            checked += 1
    assert checked > 50


def test_a_monster_act_on_the_battle_alone_is_its_op_run_after_its_pop() -> None:
    checked = begun = 0
    for state in _battle_turns()[::4]:
        c = state.combat
        assert c is not None
        for k, mid in enumerate(tables(state).monsters):
            for face in range(1, 7)[k % 2 :: 2]:
                # any monster's table, on the stack a monster turn leaves: the player's turn under the act
                for health in (c.health, 1):
                    fought = replace(c, monster=mid, roll=face, health=health)
                    rolled = state.restack(TurnStart(), MonsterAct(), combat=fought)
                    row = monster(rolled).table[face - 1]
                    if len(row.effects) != 1 or combat_after(rolled, fought, row.effects[0]) is None:
                        continue
                    if any(o.id == row.kind for o in cards.statics(rolled, "ignore")):
                        continue
                    long_way = flow.run(run_ops(rolled.pop(), row.effects, f"monster:{mid}"))
                    assert flow.run(MonsterAct().resolve(rolled)) == long_way, (mid, face, state)
                    checked += 1
                    begun += isinstance(long_way.pending.top, PlayerTurn)
    assert checked > 30 and begun > 10, (checked, begun)
