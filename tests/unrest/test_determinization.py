"""The determinizer's reasoning that a loaded state is held to gives what its plain definitions give.

Loading a saved game runs :func:`unrest.determinization.history_fits` and :func:`unrest.determinization.draws_fit`
(see ``docs/performance.md``, "Saved files"); both are written for speed, so each is checked here against the
definition it replaces, written out plainly, on every state of random games and on states broken on purpose.
"""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

from tests.unrest.helpers import random_states, snapshot_checks_plainly
from unrest import invariants, knowledge
from unrest.determinization import batch_of, consistent, draw_deadlines, draws_fit, history_fits
from unrest.knowledge import snapshot_checks
from unrest.rules.cards import KINDS, card_name
from unrest.rules.liberation import met_missions
from unrest.rules.missions import Tally
from unrest.rules.round import plan_actions
from unrest.setup import deck_for
from unrest.state import N_DISTRICTS, REBELLION, StackCard, UnrestState


def _swapped(state: UnrestState, rng: np.random.Generator) -> UnrestState:
    """``state`` with the kinds of its hidden stack cards and its hand shuffled among them: the cards are conserved
    and every facing kept, but the stacks as they stood at the ends of earlier rounds may now meet a Mission."""
    places = [(d, i) for d, stack in enumerate(state.stacks) for i, c in enumerate(stack) if not c.revealed]
    kinds = [state.stacks[d][i].card for d, i in places] + list(state.hand)
    rng.shuffle(kinds)
    stacks = [list(s) for s in state.stacks]
    for (d, i), k in zip(places, kinds, strict=False):
        stacks[d][i] = attrs.evolve(stacks[d][i], card=k)
    return attrs.evolve(state, stacks=tuple(tuple(s) for s in stacks), hand=tuple(sorted(kinds[len(places) :])))


def _history_fits_plainly(state: UnrestState) -> bool:
    """No checked snapshot meets a Mission; a Rebellion won by liberation had passed over the Districts left of
    the last one liberated, meeting none; a planning Rebellion can complete its plan."""
    for d, indices, missions in snapshot_checks_plainly(state):
        tally = Tally([state.stacks[d][i] for i in indices])
        if any(m.holds(tally) for m in missions):
            return False
    if state.winner == REBELLION:
        cur = state.pos.round
        last = max((state.laid.index(d) for d in range(N_DISTRICTS) if state.freed[d] == cur), default=-1)
        for d in state.row:
            if state.laid.index(d) > last:
                break
            if met_missions(state, d):
                return False
    return not (state.pos.step == "plan" and state.winner < 0 and not plan_actions(state))


def _draws_fit_plainly(state: UnrestState) -> str | None:
    """The draws are the cards gone from the deck, and per kind the soonest draw matches the soonest deadline."""
    deck = deck_for(state.options)
    drawn = [deck[k] - state.deck[k] for k in range(KINDS)]
    batches: list[list[int]] = [[] for _ in range(KINDS)]
    for i, k in enumerate(state.draws):
        if type(k) is not int or not 0 <= k < KINDS:
            return f"draws hold {k!r}, not a card kind"
        batches[k].append(batch_of(i))
    if [len(b) for b in batches] != drawn:
        return f"draws {list(state.draws)} are not the cards gone from the deck"
    deadlines: list[list[int]] = [[] for _ in range(KINDS)]
    for k, deadline in draw_deadlines(state):
        deadlines[k].append(deadline)
    for k in range(KINDS):
        for batch, deadline in zip(batches[k], sorted(deadlines[k]), strict=True):
            if batch > deadline:
                return (
                    f"no order of the draws has every {card_name(k)} in hand before it was planned "
                    f"(one was due by draw batch {deadline}: the opening hand is batch 0, round r's draw batch r)"
                )
    return None


STATES = random_states(16, 7)


def test_snapshot_checks_are_the_plain_definition() -> None:
    rng = np.random.default_rng(1)
    for state in STATES:
        for s in (state, _swapped(state, rng)):
            assert snapshot_checks(s) == snapshot_checks_plainly(s), s


def test_history_fits_is_consistent_less_the_proof_that_the_table_check_holds() -> None:
    rng = np.random.default_rng(2)
    broken = 0
    for state in STATES:
        assert history_fits(state), state
        for _ in range(3):
            s = _swapped(state, rng)
            fits = history_fits(s)
            assert fits == _history_fits_plainly(s), s
            if fits and consistent(s, s) is None:
                # Only the pending proof's frame was off: the table check refuses it first, as loading does.
                with pytest.raises(ValueError, match=r"proof (pending for|of) District"):
                    invariants.validate_table(s)
            elif not fits:
                assert consistent(s, s) is None
                broken += 1
    assert broken > 200  # the shuffles reach the check: enough of them contradict an earlier round's check


def test_draws_fit_is_the_plain_definition() -> None:
    rng = np.random.default_rng(3)
    refused = late = 0
    for state in STATES[::3]:
        assert draws_fit(state) is None
        draws = list(state.draws)
        variants: list[tuple[Any, ...]] = [tuple(rng.permutation(draws).tolist()) for _ in range(3)]
        if draws:
            variants += [(*draws[:-1], (draws[-1] + 1) % KINDS), (True, *draws[1:]), (*draws[:-1], KINDS)]
            variants += [(*draws[:-1], -1), (*draws, draws[0]), tuple(draws[1:])]
        for v in variants:
            s = attrs.evolve(state, draws=v)
            why = draws_fit(s)
            assert why == _draws_fit_plainly(s), (s, v)
            refused += why is not None
            late += why is not None and why.startswith("no order")
    assert refused > 1000 and late > 200  # both ways to fail are reached, drawing too late most of all


def test_only_finished_rounds_in_play_with_a_hidden_card_are_snapshot() -> None:
    rounds = knowledge.snapshot_rounds
    # Two cards face up in round 1, a hidden one in round 2: the round-1 snapshot is public (the truth passes it).
    stack = (StackCard(0, True, 1), StackCard(1, True, 1), StackCard(2, False, 2))
    assert rounds(stack, 0, 3) == [2]
    assert rounds(stack, 0, 1) == []  # round 2 not finished
    assert rounds(stack, 3, 3) == [2]  # liberated in round 3: its check saw rounds 1 and 2 only
    assert rounds(stack, 2, 3) == []  # liberated in round 2: round 2's check liberated it
    # A card revealed by the District's own proof was hidden at the ends of the rounds before.
    proved = (StackCard(0, True, 1, True), StackCard(1, True, 1), StackCard(2, True, 2))
    assert rounds(proved, 3, 3) == [1, 2]
    assert rounds(proved, 0, 3) == []  # not liberated: a proved card is being proven now, and face up
