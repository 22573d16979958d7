"""Payments, listings, trigger stages and costs on their fast paths (``docs/performance-unbroken.md``), each against
the plain computation.

States come from random games of every difficulty and character (``test_fast_paths.resting_states``); tracks are
also set to other values, so that the rarer cases (both Medium and Large Effort in hand) are met.
"""

from __future__ import annotations

import itertools
from typing import cast

import pytest

from tabletop_core.components import Pile
from tabletop_core.fastcopy import replace
from unbroken.actions import ORIENTEER, SCOUT, Action, action_id
from unbroken.content.schema import TRIGGERS, Op
from unbroken.rules import cards, combat, flow, listing, resources, travel, triggers
from unbroken.rules.payment import ACT, Decide, PayChoice
from unbroken.rules.resources import Res, _plan, affords_need, ambiguous, can_pay, may_choose, need_of
from unbroken.rules.tables import tables
from unbroken.rules.triggers import Cand
from unbroken.rules.verbs import MonsterReveal
from unbroken.state import EFFORT, LE, ME, N_RESOURCES, RES, SE, TRACKS, Combat, State, no_resources, track_at

from . import plain
from .test_fast_paths import resting_states


def _with_effort(state: State, se: int, me: int, le: int) -> State:
    """``state`` with its Small, Medium and Large Effort at these values."""
    res = list(state.res)
    for r, v in ((SE, se), (ME, me), (LE, le)):
        res[r] = track_at(res[r], r, min(v, res[r].high))
    return replace(state, res=tuple(res))


def _plain_apply(frame: Decide, state: State, action: Action) -> State:
    """``Decide.apply`` as it was written: the cost looked up and the choice of Effort checked on every decision."""
    cost = frame.cost(state, action)
    if cost is not None and ambiguous(state, *cost):
        lifted = state.pending.top is None
        state = state.push(cast("flow.Frame", frame)) if lifted else state
        return state.push(PayChoice(action_id(action), lifted))
    return frame.decide(state, action)


def test_without_medium_or_large_effort_no_payment_is_a_choice() -> None:
    states = resting_states()[::60]
    needs = [[se, me, le, *([0] * (N_RESOURCES - 3))] for se, me, le in itertools.product(range(7), range(3), range(2))]
    checked = 0
    for state in states:
        for se, me, le in itertools.product(range(6), range(4), range(3)):
            held = _with_effort(state, se, me, le)
            if may_choose(held):
                continue
            for need in needs:
                assert _plan(held, need, False) == _plan(held, need, True), (se, me, le, need)
                checked += 1
    assert checked > 10_000


def test_a_decision_applies_as_it_did_with_its_cost_always_looked_up() -> None:
    seen = choices = 0
    for k, sampled in enumerate(resting_states()):
        frame = flow.DRIVER.locate(sampled)
        if not isinstance(frame, Decide):
            continue
        # the state as sampled, and with Medium and Large Effort in hand (a Small Effort shortfall is then a choice)
        for state in (sampled, _with_effort(sampled, k % 3, 1 + k % 2, 1)):
            for action in frame.legal_actions(state):
                plain = _plain_apply(frame, state, action)
                assert frame.apply(state, action) == plain, (state, action)
                seen += 1
                choices += isinstance(plain.pending.top, PayChoice)
    assert seen > 2000 and choices > 10, (seen, choices)


def _plain_available(state: State, frame: triggers.Trig, combat: Combat | None = None) -> list[tuple[int, Cand]]:
    """``triggers.available`` as it was written: each candidate's ability found by its card's fields."""
    # private: the plain check reuses the rule's own idle test
    kind = "response" if frame.stage == 0 else "passive"
    out = []
    for i, c in enumerate(frame.cands):
        abilities = tables(state).abilities[c.src] if cards.is_in_play(state, c.src) else ()
        a = abilities[c.index] if c.index < len(abilities) else None
        if a is None or a.kind != kind:
            continue
        if c.src.startswith("character:") and state.uses <= 0:
            continue
        if not can_pay(state, a.cost) or triggers._idle_shift(state.combat if combat is None else combat, a):
            continue
        out.append((i, c))
    return out


def test_the_abilities_and_ignored_actions_kept_with_the_cards_in_play_are_the_plain_ones() -> None:
    # private: the one-entry memo is emptied so the memo behind it is asked
    states = resting_states()[::3]
    sources = sorted(tables(states[0]).abilities)
    for k, state in enumerate(states):
        if k % 2:
            cards._IN_PLAY[0] = None
        for src in sources[k % 4 :: 4]:
            plain = tables(state).abilities[src] if cards.is_in_play(state, src) else ()
            assert cards.abilities_of(state, src) == plain
            assert cards.abilities_of(state, src) == plain  # kept
        assert cards.ignored(state) == {o.id for o in cards.statics(state, "ignore")}


def test_both_stages_of_a_trigger_are_the_candidates_available_at_each() -> None:
    seen = usable = 0
    for k, sampled in enumerate(resting_states()):
        for state in (sampled, _with_effort(sampled, 0, 0, 0), replace(sampled, uses=0)):
            for trigger in TRIGGERS[k % 3 :: 3]:
                frame = triggers.fire(state, trigger)
                if frame is None:
                    continue
                # every candidate, and each one left out, as a resolved or declined candidate leaves the frame
                frames = [frame, *(replace(frame, cands=frame.cands[:i] + frame.cands[i + 1 :]) for i in range(2))]
                for f in frames:
                    responses, passives = triggers.stages(state, f)
                    assert responses == _plain_available(state, f) == triggers.available(state, f)
                    stage1 = replace(f, stage=1)
                    assert passives == _plain_available(state, stage1) == triggers.available(state, stage1)
                    if state.combat is not None:
                        for roll in (1, 6):
                            c = replace(state.combat, roll=roll)
                            assert triggers.stages(state, f, c) == (
                                _plain_available(state, f, c),
                                _plain_available(state, stage1, c),
                            )
                    seen += 1
                    usable += bool(responses or passives)
    assert seen > 1000 and usable > 300, (seen, usable)


def _variants(state: State, k: int, monsters: list[str], skills: list[str]) -> list[State]:
    """``state`` and copies with other tracks, weapons, skills, Ability Uses, flags and monsters (the fields a
    listing reads), so that every gate and every kind of cost is met open and shut."""
    t = tables(state)
    weapons = sorted(t.weapons)
    half = tuple(TRACKS[r][len(TRACKS[r]) // 2] for r in range(N_RESOURCES))
    rich = tuple(TRACKS[r][-1] for r in range(N_RESOURCES))
    out = [state, replace(state, res=half), replace(state, res=rich, uses=0), _with_effort(state, 0, 0, 0)]
    w = weapons[k % len(weapons)]
    out.append(replace(state, res=half, weapons=(*state.weapons, w), committed=not state.committed))
    out.append(replace(state, res=rich, skills=tuple(skills[k % 5 :: 5]), monster="", reveal_bonus=10))
    if state.combat is not None:
        m = t.monsters[monsters[k % len(monsters)]]
        for armor in (0, 2):
            combat = replace(state.combat, monster=m.id, armor=armor)
            out.append(replace(state, res=half, combat=combat, monster=m.id, weapons=(*state.weapons, w)))
    return out


def test_the_preparation_and_turn_listings_are_the_options_listed_one_kind_at_a_time() -> None:
    # private: the one-entry memos are emptied so the tables behind them are asked
    states = resting_states()
    t = tables(states[0])
    monsters, skills = sorted(t.monsters), sorted(t.skills)
    listings = (
        (travel.Preparation, travel.prep_actions, plain.prep_actions),
        (combat.PlayerTurn, combat.turn_actions, plain.turn_actions),
    )
    asked = {travel.Preparation: 0, combat.PlayerTurn: 0}
    options = 0
    for k, sampled in enumerate(states):
        if k % 3 == 0:  # the tables' one-entry memos emptied (the bounded memos behind them are asked)
            travel._last_prep[0] = (None, None, None, 0, ())
            combat._last_turn[0] = (None, None, None, 0, None, ())
        frame = flow.DRIVER.locate(sampled)
        for cls, fast, long_way in listings:
            if not isinstance(frame, cls):
                continue
            for state in _variants(sampled, k, monsters, skills):
                for level in (state.pos.round, 1 + k % 4):
                    moved = replace(state, pos=state.position(state.pos.phase, state.pos.step, level))
                    listed = fast(moved)
                    assert listed == long_way(moved), moved
                    assert frame.legal_actions(moved) == tuple(listed)
                    asked[cls] += 1
                    options += len(listed)
    assert min(asked.values()) > 1000 and options > 10_000, (asked, options)


def test_a_listing_tables_gates_and_idle_effects_are_the_plain_checks() -> None:
    # An entry's idle effects are the ability's own only when ``idle`` can be true of them: else it never is.
    state = resting_states()[0]
    for src, _, a in listing.action_abilities(replace(state, skills=tuple(sorted(tables(state).skills)))):
        e = listing.entry(ACT[0], listing.ALWAYS, None, a.effects)
        if e[-1] is None:
            assert not listing.idle(state, a.effects), src
            assert not listing.idle(replace(state, conditions=(), monster="x"), a.effects), src


def _plain_paid(state: State, ops: tuple[Op, ...], gains: int | None, extra: list[int] | None = None) -> Res | None:
    """``resources.paid`` as it was written (``None`` where it raises): every slot planned and moved."""
    # private: the plain payment is built from the planner's own steps
    have = _plan(state, resources._needs(state, ops, extra), state.large_first)
    if have is None:
        return None
    if gains is not None:
        have[gains] = min(state.res[gains].high, have[gains] + 1)
    return resources._moved(state, have)


def _plain_loss_ways(state: State, r: int, n: int) -> list[Res]:
    """``resources.loss_ways`` the long way: both plans of every slot, compared whole, then each split between them
    (every amount of Large Effort between the two plans')."""
    # private: the plain loss is built from the planner's own steps
    need = no_resources()
    need[r] = n
    low = _plan(state, need, False)
    if low is None:
        return []
    high = _plan(state, need, True) if r == SE else low
    ways = [resources._moved(state, low)]
    if high is not None and high != low:
        ways.append(resources._moved(state, high))
        for large in range(state.amount(LE) - low[LE] + 1, state.amount(LE) - high[LE]):
            split = _plan(state, need, large)
            assert split is not None
            ways.append(resources._moved(state, split))
    return ways


def _costs(state: State) -> list[tuple[Op, ...]]:
    """Every cost of the pack: the General Actions', Scout's, encounters', abilities', Crafts' and attacks'."""
    t = tables(state)
    costs = [cost for cost, _ in listing.GENERAL.values()] + list(travel.SCOUT_COST.values())
    costs += [e.spend for e in state.pack.encounters]
    costs += [a.cost for abilities in t.abilities.values() for a in abilities]
    costs += [u.cost for w in t.weapons.values() for u in w.upgrades]
    costs += [a.cost for w in t.weapons.values() for a in w.attacks]
    return [c for c in dict.fromkeys(costs) if c]


def test_a_payment_and_a_loss_of_effort_move_the_tracks_as_the_plan_of_every_slot() -> None:
    costs = _costs(resting_states()[0])
    paid = refused = ways2 = 0
    for k, sampled in enumerate(resting_states()[::9]):
        half = tuple(TRACKS[r][len(TRACKS[r]) // 2] for r in range(N_RESOURCES))
        for state in (sampled, replace(sampled, res=half), _with_effort(sampled, k % 5, k % 3, 1 + k % 2)):
            for large_first in (False, True, 1):
                held = replace(state, large_first=large_first)
                for ops in costs[k % 3 :: 3]:
                    for gains in (None, k % N_RESOURCES):
                        plain = _plain_paid(held, ops, gains)
                        if plain is None:
                            with pytest.raises(ValueError, match="cannot pay"):
                                resources.paid(held, ops, gains=gains)
                            refused += 1
                        else:
                            assert resources.paid(held, ops, gains=gains) == plain, (ops, gains, held.res)
                            paid += 1
                    # an extra amount of zeros (no surcharge) and a surcharge of one Small Effort
                    for extra in (no_resources(), [1, *([0] * (N_RESOURCES - 1))]):
                        plain = _plain_paid(held, ops, None, extra)
                        if plain is None:
                            with pytest.raises(ValueError, match="cannot pay"):
                                resources.paid(held, ops, list(extra))
                        else:
                            assert resources.paid(held, ops, list(extra)) == plain, (ops, extra, held.res)
            for r in EFFORT:
                for n in range(7):
                    ways = resources.loss_ways(state, r, n)
                    assert ways == _plain_loss_ways(state, r, n), (r, n, state.res)
                    ways2 += len(ways) >= 2
    assert paid > 5000 and refused > 1000 and ways2 > 20, (paid, refused, ways2)


def test_the_cards_revealed_are_counted_as_the_bound_by_the_whole_deck() -> None:
    checked = bounded = 0
    for k, sampled in enumerate(resting_states()[::5]):
        full = sampled.encounters
        ids = sorted(c for c, _ in full.counts)
        # the deck as sampled, nearly empty (its discards aside or reshuffled in), and with doubled cards
        piles = [
            full,
            Pile.of(ids[: k % 4], ids[k % 4 : k % 4 + k % 3]),
            Pile.of([], ids[: 1 + k % 5]),
            Pile.of([c for c in ids[: 2 + k % 3] for _ in range(3)]),
        ]
        for pile in piles:
            for bonus in (0, 2, 6, 11):
                for committed in (False, True):
                    state = replace(sampled, encounters=pile, reveal_bonus=bonus, committed=committed)
                    n = listing.REVEAL + bonus + sum(o.n for o in cards.statics(state, "reveal"))
                    plain = 1 if committed else max(1, min(n, pile.total))
                    assert listing.reveal_count(state) == plain, (pile, bonus, committed)
                    more = max(1, min(n + listing.ORIENTEER_BONUS, pile.total)) > plain
                    assert listing.orienteer_matters(state) == (not committed and more), (pile, bonus, committed)
                    checked += 1
                    bounded += not committed and pile.total < n
    assert checked > 1000 and bounded > 50, (checked, bounded)


def _long_prep(state: State, verb: int) -> State:
    """A General Action, Orienteer or Scout as ``apply_prep`` wrote them: each cost paid through ``paid``/``pay``."""
    if verb in listing.GENERAL:
        cost, gains = listing.GENERAL[verb]
        return replace(state, res=resources.paid(state, cost, gains=RES[gains]), large_first=False)
    if verb == ORIENTEER:
        return resources.pay(state, travel.ORIENTEER_COST, reveal_bonus=state.reveal_bonus + listing.ORIENTEER_BONUS)
    assert verb == SCOUT
    paid = resources.paid(state, travel.SCOUT_COST[state.level])
    return state.push(MonsterReveal(), res=paid, large_first=False)


def test_general_actions_orienteer_and_scout_pay_their_costs_as_the_long_way() -> None:
    paid = refused = 0
    for k, sampled in enumerate(resting_states()[::4]):
        half = tuple(TRACKS[r][len(TRACKS[r]) // 2] for r in range(N_RESOURCES))
        for state in (sampled, replace(sampled, res=half), _with_effort(sampled, k % 5, k % 3, k % 2)):
            for large_first in (False, True):
                held = replace(state, large_first=large_first)
                for verb in (*listing.GENERAL, ORIENTEER, SCOUT):
                    try:
                        expected = _long_prep(held, verb)
                    except ValueError:
                        with pytest.raises(ValueError, match="cannot pay"):
                            travel.apply_prep(held, ACT[verb])
                        refused += 1
                        continue
                    assert travel.apply_prep(held, ACT[verb]) == expected, (verb, held.res)
                    paid += 1
    assert paid > 500 and refused > 200, (paid, refused)


def test_a_listed_cost_is_affordable_by_its_thresholds_exactly_as_affords_need_plans_it() -> None:
    base = resting_states()[0]
    needs = [
        need_of([se, me, le, other, *([0] * (N_RESOURCES - 4))])
        for se, me, le, other in itertools.product(range(8), range(4), range(3), range(2))
    ]
    listed = refused = 0
    for se, me, le in itertools.product(range(9), range(5), range(4)):
        state = _with_effort(base, se, me, le)
        for need in needs:
            table = (listing.entry(ACT[1], listing.ALWAYS, need),)
            affords = affords_need(state, need)
            assert bool(listing.listed(state, table)) == affords, (se, me, le, need)
            listed += affords
            refused += not affords
        assert listing.listed(state, (listing.entry(ACT[1], listing.ALWAYS),)) == [ACT[1]]  # no cost to check
    assert listed > 5000 and refused > 5000, (listed, refused)
