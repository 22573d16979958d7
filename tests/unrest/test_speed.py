"""The fast paths of the rules give what the plain definitions give (see ``docs/performance.md``, "Unrest").

Each shortcut taken for speed (tables of shared values, caches of pure functions, a worst case summed kind by kind,
a deal drawn by hand) is checked here against the definition it replaces, written out plainly.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

import unrest
from tabletop_core.spec import TERMINAL
from tests.playouts import final_state
from tests.unrest.helpers import random_states
from unrest.actions import DECISIONS, DRAWS, Blockade, Destroy, Plan, Reroute, Surveil, Target, public_code
from unrest.rules import frames, liberation, missions, round
from unrest.rules.cards import DECK, KINDS, MISDIRECTION
from unrest.setup import draw_outcomes
from unrest.state import EMPIRE, FLOW, LAST_ROUND, PLAN_SIZE, StackCard, UnrestState, next_phase, next_step, position


def _plan_actions_plainly(state: UnrestState) -> tuple[object, ...]:
    """Each (card, facing) after which the plan can still be completed, by the definition: the plan holds
    ``min(3, cards)`` cards, exactly one revealed when a numbered card is among them, Misdirection never revealed."""
    hand = state.hand
    planned = [p for p in state.plan if p is not None]
    size = min(PLAN_SIZE, len(hand) + len(state.plan))
    numbered = any(k != MISDIRECTION for k in hand) or any(p.card != MISDIRECTION for p in planned)
    out = []
    for action in DECISIONS:
        if not isinstance(action, Plan) or action.card not in hand:
            continue
        if not action.hidden and action.card == MISDIRECTION:
            continue
        rest = list(hand)
        rest.remove(action.card)
        revealed = sum(p.revealed for p in planned) + (not action.hidden)
        left = size - len(state.plan) - 1  # cards still to plan after this one
        # The rest of the plan: `left` cards of `rest`, revealing exactly what a complete plan still needs.
        need = (1 if numbered else 0) - revealed
        rest_numbered = sum(k != MISDIRECTION for k in rest)
        if need < 0 or left < 0 or need > left or need > rest_numbered or left > len(rest):
            continue
        out.append(action)
    return tuple(out)


def test_plan_actions_are_the_plain_definition() -> None:
    for state in random_states(30, 1):
        if unrest.current_player(state) != TERMINAL and state.step == "plan" and not state.pending:
            assert round.plan_actions(state) == _plan_actions_plainly(state), state
            for action in DECISIONS:
                if isinstance(action, Plan):
                    assert round.plan_legal(state, action) == (action in round.plan_actions(state))


def test_defend_and_place_actions_are_their_checks() -> None:
    for state in random_states(30, 2):
        if unrest.current_player(state) == TERMINAL or state.pending:
            continue
        if state.step == "defend":
            legal = round.defend_actions(state)
            powers = (Surveil, Destroy, Reroute, Blockade)
            assert legal == tuple(a for a in DECISIONS if isinstance(a, powers) and round.power_legal(state, a))
        if state.step == "place":
            legal_places = round.place_actions(state)
            assert legal_places == tuple(a for a in DECISIONS if round.PlaceStep().is_legal(state, a))


def test_the_worst_case_sum_is_the_sum_of_the_lightest_cards() -> None:
    # private: the Missions' weight tables are fed to the worst-case sum they serve
    rng = np.random.default_rng(3)
    weights = (missions._VALUES, *missions._IN_SUIT, missions._D_OVER_S, missions._I_OVER_U, tuple(range(KINDS, 0, -1)))
    for _ in range(2000):
        pool = [int(n) for n in rng.integers(-1, 5, size=KINDS)]
        hidden = int(rng.integers(0, 8))
        for weight in weights:
            cards = sorted(w for w, n in zip(weight, pool, strict=True) for _ in range(max(n, 0)))
            assert missions._least(pool, hidden, weight) == (sum(cards[:hidden]) if hidden > 0 else 0)


def test_draw_outcomes_are_copies_over_cards_left() -> None:
    rng = np.random.default_rng(4)
    decks = [DECK, tuple(0 for _ in DECK), (5, *DECK[1:]), (-1, *DECK[1:])]
    decks += [tuple(int(n) for n in rng.integers(0, c + 1)) for c in (np.array(DECK),) for _ in range(300)]
    for deck in decks:
        size = sum(deck)
        plain = tuple((DRAWS[k], n / size) for k, n in enumerate(deck) if n)
        assert draw_outcomes(deck) == plain


def test_position_tables_are_the_flow() -> None:
    for r in range(LAST_ROUND + 2):
        for phase, step in FLOW.steps():
            pos = FLOW.at(phase, step, r)
            assert position(r, step) == pos
            assert next_step(pos) == FLOW.next(pos)
            assert next_phase(pos) == FLOW.next_phase(pos)


def test_no_stack_smaller_than_the_fewest_meets_a_mission() -> None:
    # private: the shortcut's bound is checked against every Mission
    assert liberation._FEWEST == 2
    for k in range(KINDS):
        tally = missions.Tally([StackCard(k, True, 1)])
        assert not any(m.holds(tally) for m in (*missions.MISSIONS, missions.REVOLUTION_CAPITOL))


def test_a_decisions_log_code_is_its_public_code() -> None:
    # private: the table of codes by identity is what this test is about
    assert len(frames._CODES) == len(frames._HANDED_OUT)
    for action in frames._HANDED_OUT:
        assert frames._CODES[id(action)] == public_code(action)
    # A decision built by a caller (not a shared value) is coded the same way.
    state = unrest.new_game(seed=3)
    shared = unrest.legal_actions(state)[0]
    assert isinstance(shared, Target)
    built = Target(shared.district)
    assert built is not shared
    assert unrest.step(state, built).moves == unrest.step(state, shared).moves == (public_code(shared),)


@pytest.mark.parametrize("variant", ["standard", "capitol"])
def test_the_deal_is_uniform_over_the_unseen_cards(variant: str) -> None:
    # Round 1, the plan laid (two hidden cards), the Empire to act: every unseen card is equally likely in each
    # hidden plan slot (no stack constrains the deal yet), and the two slots never hold the same physical card.
    rng = np.random.default_rng(11)
    state = unrest.new_game(seed=5, variant=variant)
    state = final_state(unrest.GAME, state, rng, chance="settle", until=lambda s: unrest.current_player(s) == EMPIRE)
    hidden = [s for s, p in enumerate(state.plan) if p is not None and not p.revealed]
    pool = missions.unseen_pool(c.card for c in state.plan if c is not None and c.revealed)
    unseen = {k: n for k, n in enumerate(pool) if n > 0}
    total = sum(unseen.values())
    n = 6000
    counts: Counter[int] = Counter()
    for _ in range(n):
        world = unrest.determinize(state, EMPIRE, rng)
        cards = [world.plan[s].card for s in hidden]  # type: ignore[union-attr]  # hidden slots hold cards
        counts.update(cards)
        assert all(cards.count(k) <= DECK[k] for k in cards)
    for k, copies in unseen.items():
        assert abs(counts[k] / (n * len(hidden)) - copies / total) < 0.012, (k, counts[k], copies, total)


def test_every_pair_of_unseen_cards_is_dealt_to_the_two_hidden_slots() -> None:
    rng = np.random.default_rng(12)
    state = unrest.new_game(seed=9)
    state = final_state(unrest.GAME, state, rng, chance="settle", until=lambda s: unrest.current_player(s) == EMPIRE)
    hidden = [s for s, p in enumerate(state.plan) if p is not None and not p.revealed]
    assert len(hidden) == 2
    pairs: set[tuple[int, ...]] = set()
    for _ in range(20000):
        world = unrest.determinize(state, EMPIRE, rng)
        pairs.add(tuple(world.plan[s].card for s in hidden))  # type: ignore[union-attr]  # hidden slots hold cards
    kinds = [k for k in range(KINDS) if missions.unseen_pool(p.card for p in state.plan if p and p.revealed)[k] > 0]
    expected = {(a, b) for a, b in itertools.product(kinds, repeat=2) if a != b or a == MISDIRECTION}
    assert pairs == expected
