"""These fast paths give what the long way gives (see ``docs/performance.md``, "Unrest").

Each shortcut is checked against the plain computation on the states of seeded random playouts.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core.flow import Pending
from tabletop_core.spec import CHANCE
from tests.playouts import random_moves
from tests.unrest.helpers import random_states, stack
from unrest import actions, setup
from unrest.actions import DRAWS, Action, DealMission, Draw, SetDistrict
from unrest.knowledge import ProofWorlds
from unrest.rules import liberation, missions, round
from unrest.rules.cards import DECK, DISRUPTION, KINDS, MISDIRECTION, UPHEAVAL, kinds_of
from unrest.rules.missions import Mission, Tally, unseen_pool
from unrest.state import CAPITOL, FLOW, MISSIONS_DEALT, N_DISTRICTS, StackCard, UnrestState

_NAMES = tuple(f.name for f in attrs.fields(UnrestState))


def _stored_one_by_one(values: tuple[object, ...]) -> UnrestState:
    """A state made the long way: a bare instance, each field stored by name through ``object.__setattr__``."""
    state: UnrestState = object.__new__(UnrestState)
    for name, value in zip(_NAMES, values, strict=True):
        object.__setattr__(state, name, value)
    return state


def test_the_states_constructor_stores_every_field_as_attrs_would() -> None:
    # The state's constructor (compiled by tabletop_core.fastcopy.accelerate where the accelerator is built, attrs'
    # own otherwise) takes attrs' fields in attrs' order, with attrs' defaults.
    params = inspect.signature(UnrestState.__init__).parameters
    assert tuple(params)[1:] == _NAMES
    for f in attrs.fields(UnrestState):
        p = params[f.name]
        assert f.validator is None and f.converter is None and f.init and not f.kw_only
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.name == "pending":
            assert f.default == attrs.Factory(Pending) and p.default is not inspect.Parameter.empty
        elif f.default is attrs.NOTHING:
            assert p.default is inspect.Parameter.empty
        else:
            assert p.default == f.default and type(p.default) is type(f.default)
    states = random_states(6, 71)
    for state in states:
        values = tuple(getattr(state, n) for n in _NAMES)
        made = UnrestState(*values)
        assert made == _stored_one_by_one(values)
        assert all(getattr(made, n) is v for n, v in zip(_NAMES, values, strict=True))
        assert UnrestState(**dict(zip(_NAMES, values, strict=True))) == made
        assert attrs.evolve(state, moves=()) == _stored_one_by_one((*values[:-3], (), *values[-2:]))
    # The defaults: a new empty pending stack each time, as attrs' factory gave.
    first = states[0]
    bare = UnrestState(*(getattr(first, n) for n in _NAMES[:9]))
    assert (
        bare.pending == Pending() and bare.pending is not UnrestState(*(getattr(first, n) for n in _NAMES[:9])).pending
    )
    assert bare == _stored_one_by_one((*(getattr(first, n) for n in _NAMES[:9]), (), (), -1, (), (), 0, False,
                                       Pending(), -1, (), (), ()))  # fmt: skip


# ----- the Missions' worst cases, against the plain sums they replace -----------------------------------------------


def _count_plainly(pool: list[int], kinds: Iterable[int]) -> int:
    return sum(max(pool[k], 0) for k in kinds)


def _coup_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    total = _count_plainly(pool, range(KINDS))
    return all(t.counts[s] or total - _count_plainly(pool, kinds_of(s)) < hidden for s in range(4))


def _plot_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    # private: the plain form reads the Mission's own tables
    if max(t.values) >= 3:
        return True
    room = max(pool[MISDIRECTION], 0)
    for i, seen in enumerate(t.values):
        room += min(_count_plainly(pool, missions._OF_VALUE[i]), max(0, 3 - 1 - seen))
    return room < hidden


def _sleeper_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    # private: the plain form reads the Mission's own tables
    if missions.SLEEPER_CELL.holds(t):
        return True
    total = _count_plainly(pool, range(KINDS))
    for absent in missions._BREAKERS:
        if any(t.values[i] for i in absent):
            continue
        if total - sum(_count_plainly(pool, missions._OF_VALUE[i]) for i in absent) >= hidden:
            return False
    return True


def _civil_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    # private: the plain form reads the Mission's own tables
    if t.counts[DISRUPTION] or (hidden and _count_plainly(pool, kinds_of(DISRUPTION))):
        return False
    return t.sums[UPHEAVAL] + missions._least(pool, hidden, missions._IN_SUIT[UPHEAVAL]) >= 8


def test_the_missions_worst_cases_are_the_plain_sums() -> None:
    # Random seen sets and pools (a table's, and pools with entries below 0, which the sums count as 0).
    # private: the fast counts are compared with plain sums
    rng = np.random.default_rng(72)
    deck = [k for k in range(KINDS) for _ in range(DECK[k])]
    plain = {
        missions.COUP: _coup_plainly,
        missions.COORDINATED_PLOT: _plot_plainly,
        missions.SLEEPER_CELL: _sleeper_plainly,
        missions.CIVIL_DISOBEDIENCE: _civil_plainly,
    }
    answers: dict[Mission, set[bool]] = {m: set() for m in plain}
    for trial in range(6000):
        cards = rng.permutation(deck)
        n = int(rng.integers(0, 10))
        seen = [StackCard(int(k), bool(rng.random() < 0.5), 1) for k in cards[:n]]
        t = Tally(seen)
        pool = unseen_pool(int(k) for k in cards[n : n + int(rng.integers(0, 12))])
        for c in seen:
            pool[c.card] -= 1
        if trial % 3 == 0:
            for k in rng.choice(KINDS, size=int(rng.integers(1, 6))):
                pool[int(k)] -= int(rng.integers(1, 3))
        hidden = int(rng.integers(0, 8))
        assert missions._total(pool) == _count_plainly(pool, range(KINDS))
        for s in range(4):
            assert missions._of_suit(pool, s) == _count_plainly(pool, kinds_of(s))
        for i in range(len(missions._OF_VALUE)):
            assert missions._of_value(pool, i) == _count_plainly(pool, missions._OF_VALUE[i])
        for m, definition in plain.items():
            got = m.certain(t, hidden, pool)
            assert got == definition(t, hidden, pool), (m, seen, hidden, pool)
            answers[m].add(got)
    assert all(a == {True, False} for a in answers.values())  # each Mission answered both ways


# ----- the draw's outcomes, remembered by deck ----------------------------------------------------------------------


def _outcomes_plainly(deck: tuple[int, ...]) -> tuple[tuple[Draw, float], ...]:
    size = sum(deck)
    return tuple((DRAWS[k], n / size) for k, n in enumerate(deck) if n)


def test_the_draws_outcomes_are_copies_over_cards_left_asked_once_or_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # private: the draws' memo is what this test is about
    monkeypatch.setattr(setup, "_OUTCOMES", {})
    rng = np.random.default_rng(73)
    decks = [s.deck for s in random_states(8, 73)]
    decks += [tuple(int(n) for n in rng.integers(0, c + 1)) for c in (np.array(DECK),) for _ in range(500)]
    decks += [DECK, tuple(0 for _ in DECK), (5, *DECK[1:]), (-1, *DECK[1:]), (*DECK[:-1], 9)]
    for deck in decks:
        plain = _outcomes_plainly(deck) if sum(deck) else ()
        first = setup.draw_outcomes(deck)
        assert first == plain
        again = setup.draw_outcomes(tuple(list(deck)))  # an equal deck in another tuple: the same answer
        assert again == plain
        assert all(a is b for (a, _), (b, _) in zip(again, plain, strict=True))  # the shared Draw values
    assert setup._OUTCOMES  # the memo was used
    for deck, outcomes in setup._OUTCOMES.items():
        assert outcomes == (_outcomes_plainly(deck) if sum(deck) else ())
    # Hand-made decks (not of this game) are divided out and not kept.
    assert (5, *DECK[1:]) not in setup._OUTCOMES and (-1, *DECK[1:]) not in setup._OUTCOMES


def test_the_draws_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # private: the draws' memo and its bound are what this test is about
    monkeypatch.setattr(setup, "_OUTCOMES", {})
    monkeypatch.setattr(setup, "_OUTCOMES_SIZE", 64)
    rng = np.random.default_rng(74)
    for _ in range(500):
        deck = tuple(int(n) for n in rng.integers(0, np.array(DECK) + 1))
        assert setup.draw_outcomes(deck) == (_outcomes_plainly(deck) if sum(deck) else ())
        assert len(setup._OUTCOMES) <= 64


# ----- the liberation check's loop and the setup's copies -----------------------------------------------------------


def _resolve_plainly(state: UnrestState) -> UnrestState:
    """``LiberateStep.resolve`` with the District found by :func:`liberation.met_missions` (no memo)."""
    # private: the plain resolution reuses the rule's own liberation step
    for district in state.row:
        if liberation.met_missions(state, district):
            break
    else:
        return liberation.end_round(state)
    proofs = liberation.minimal_proofs(
        state.stacks[district], liberation.missions_for(state, district), worlds=ProofWorlds(state, district)
    )
    if () in proofs:
        freed, row, winner = liberation._freed(state, district)
        return attrs.evolve(state, freed=freed, row=row, winner=winner)
    return attrs.evolve(state, pending=state.pending.push(liberation.Proof(district, (), proofs)))


def test_the_liberation_check_finds_the_district_the_missions_name(monkeypatch: pytest.MonkeyPatch) -> None:
    step = liberation.LiberateStep()
    outcomes = set()
    for fresh in (True, False):  # the memo empty, then holding the answers of the first pass
        if fresh:
            monkeypatch.setattr(liberation, "_MET", {})
        for state in random_states(10, 75):
            if state.winner >= 0:
                continue
            tables = [state]
            if state.options.variant == "capitol" and CAPITOL in state.row:
                # The Capitol's stack at 22: the Revolution's 21 met, the Capitol's 25 not.
                capitol = stack("6I (6U) 6D (4S)")
                tables.append(
                    attrs.evolve(state, stacks=(*state.stacks[:CAPITOL], capitol, *state.stacks[CAPITOL + 1 :]))
                )
            for table in tables:
                after = step.resolve(table)
                assert after == _resolve_plainly(table)
                outcomes.add(
                    "end" if after.pos != table.pos else "proof" if after.pending != table.pending else "freed"
                )
    assert outcomes == {"end", "proof", "freed"}


def test_the_setups_copies_are_the_rule_by_evolve() -> None:
    names = [f.name for f in attrs.fields(UnrestState)]
    seen: set[type] = set()
    for state in random_states(12, 76):
        if state.pos.round != 0 or unrest.current_player(state) != CHANCE:
            continue
        for outcome, _ in unrest.chance_outcomes(state):
            assert isinstance(outcome, SetDistrict | DealMission | Draw)
            after = setup.apply_setup(state, outcome)
            if isinstance(outcome, SetDistrict):
                row = (*state.row, outcome.district)
                if state.options.variant == "capitol" and len(row) == 2:
                    row = (*row, CAPITOL)
                pos = FLOW.next(state.pos) if len(row) == N_DISTRICTS else state.pos
                plain = attrs.evolve(state, row=row, laid=row, pos=pos)
            elif isinstance(outcome, DealMission):
                missions = (*state.missions, outcome.mission)
                plain = attrs.evolve(state, missions=missions)
                if len(missions) == 1 + MISSIONS_DEALT:
                    plain = attrs.evolve(plain, pos=FLOW.at("rebellion", "target", 1))
            else:
                continue
            assert after == plain and type(after) is UnrestState
            changed = {n for n in names if getattr(after, n) is not getattr(state, n)}
            assert changed <= {"row", "laid", "pos", "missions"}, changed
            seen.add(type(outcome))
    assert seen == {SetDistrict, DealMission}


def test_the_research_setups_last_mission_starts_the_final_encounter() -> None:
    state = unrest.new_game(variant="capitol", research=True)
    in_setup = random_moves(
        unrest.GAME, state, np.random.default_rng(77), chance="uniform", until=lambda s: s.pos.round
    )
    for before, outcome, stepped in in_setup:
        assert isinstance(outcome, SetDistrict | DealMission | Draw)
        after = setup.apply_setup(before, outcome)
        if isinstance(outcome, DealMission) and len(after.missions) == 1 + MISSIONS_DEALT:
            assert after == attrs.evolve(
                before, missions=after.missions, final=True, pos=FLOW.at("rebellion", "plan", 1)
            )
        state = stepped
    assert state.final and state.pos.step == "plan"


# ----- action ids by identity ---------------------------------------------------------------------------------------


def _action_id_plainly(action: Action) -> int:
    if isinstance(action, Draw | SetDistrict | DealMission):
        return actions.outcome_id(action)
    return actions.DECISION_SPACE.id_of(action)


def test_an_actions_id_by_identity_is_its_id_by_value() -> None:
    # private: the table of ids by identity is what this test is about
    handed_out: list[Action] = [*actions.DECISIONS, *actions.DRAWS, *actions.SET_DISTRICTS, *actions.DEAL_MISSIONS]
    handed_out += [
        a for s in random_states(6, 78) for a in (*unrest.legal_actions(s), *(o for o, _ in unrest.chance_outcomes(s)))
    ]
    for action in handed_out:
        assert actions.action_id(action) == _action_id_plainly(action)
        fresh = attrs.evolve(action)  # an equal value the rules did not hand out: identified by its fields
        assert fresh is not action and actions.action_id(fresh) == _action_id_plainly(action)
        assert unrest.GAME.action_id(action) == _action_id_plainly(action)
    assert {actions.action_id(a) for a in actions.DECISIONS} == set(range(actions.NUM_ACTIONS))
    assert len(actions._ACTION_IDS) > actions.NUM_ACTIONS  # the shared values and DECISIONS' own


# ----- the plan step ------------------------------------------------------------------------------------------------


def _plan_states() -> list[UnrestState]:
    return [s for s in random_states(16, 79) if s.pos.step == "plan" and not s.pending and s.winner < 0]


def test_a_plan_completes_when_nothing_is_left_to_plan() -> None:
    # Every legal plan of random games, and hand-made hands and plans (any card, any facing): the step moves on
    # exactly when the plain count says nothing is left.
    # private: the plan's shortcut tables are compared with the plain count
    rng = np.random.default_rng(80)
    cases = [(s, a) for s in _plan_states() for a in round.plan_actions(s)]
    for state in _plan_states()[:200]:
        for _ in range(3):
            hand = tuple(sorted(int(k) for k in rng.choice(KINDS, size=int(rng.integers(1, 7)))))
            planned = tuple(
                round._PLANNED[int(k)][bool(rng.random() < 0.5)]
                for k in rng.choice(KINDS, size=int(rng.integers(0, 3)))
            )
            made = attrs.evolve(state, hand=hand, plan=planned)
            cases += [(made, actions.PLANS[k][hidden]) for k in set(hand) for hidden in (0, 1)]
    moved = 0
    for state, action in cases:
        after = round.apply_plan(state, action, state.moves)
        done = round._needs(after.hand, after.plan) == (0, 0)
        assert after.pos == (FLOW.next(state.pos) if done else state.pos)
        moved += done
    assert 0 < moved < len(cases)
