"""States: JSON round trips, invariants checked on load, immutability."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unrest
from tabletop_core import StateFormatError, from_json, to_json
from tests.playouts import random_playout
from tests.unrest.helpers import act, game_states, stack, table
from unrest import determinization, invariants, knowledge
from unrest.actions import DECISIONS, PLAN_HIDDEN, Place, Target, decision_id
from unrest.rules.cards import MISDIRECTION
from unrest.rules.liberation import minimal_proofs
from unrest.rules.missions import Tally
from unrest.state import Destroyed, UnrestState


def test_state_json_round_trip_mid_round() -> None:
    state = act(table(hand="5D 2I 3S 6U 2U"), "target Peace", "plan 5D hidden", "plan 2I hidden")
    assert from_json(unrest.GAME, to_json(state)) == state


def test_state_load_rejects_a_broken_invariant() -> None:
    state = table(hand="5D 2I 3S 6U 2U")
    extra = attrs.evolve(state, hand=(*state.hand, 0))  # a card twice
    with pytest.raises(StateFormatError):
        from_json(unrest.GAME, to_json(attrs.evolve(extra, hand=tuple(sorted(extra.hand)))))
    hidden_m = attrs.evolve(state, destroyed=(Destroyed(MISDIRECTION, False, 1),))
    with pytest.raises(ValueError, match="Misdirection"):
        unrest.GAME.validate_state(hidden_m)


def test_state_step_never_mutates() -> None:
    state = table(hand="5D 2I 3S 6U 2U")
    before = to_json(state)
    act(state, "target Peace")
    assert to_json(state) == before


@given(seed=st.integers(0, 100_000), variant=st.sampled_from(["standard", "capitol"]))
def test_state_invariants_hold_along_random_games(seed: int, variant: str) -> None:
    start = unrest.new_game(seed=seed, variant=variant)
    for state in random_playout(unrest.GAME, start, np.random.default_rng(seed), chance="settle"):
        unrest.GAME.validate_state(state)
    assert len(state.liberated) >= 3 or state.final or (variant == "capitol" and 2 in state.liberated)


def test_state_load_rejects_rounds_beyond_the_game() -> None:
    # 24 cards: 5 in the opening hand, then 3 a round leave one for round 7's draw; round 8 is the last, the Final
    # Encounter (played to it: a round-8 table with an empty log is refused for its history).
    state = next(s for s in game_states(0) if s.round == 8)
    assert state.final
    unrest.GAME.validate_state(state)
    with pytest.raises(StateFormatError, match="round"):
        from_json(unrest.GAME, to_json(attrs.evolve(state, pos=attrs.evolve(state.pos, round=12))))
    future = table(hand="5D 2I 3S 6U 2U", rnd=2, stacks={1: stack("(3I)", rnd=5)})
    with pytest.raises(ValueError, match="round"):
        unrest.GAME.validate_state(future)


def test_state_load_rejects_a_placement_step_with_nothing_planned() -> None:
    # The Rebellion places only while a planned card remains; such a state used to crash is_legal.
    empty = table(hand="5D 2I 3S 6U 2U", step="place", aoi=(0, 1))
    with pytest.raises(ValueError, match="placement step"):
        unrest.GAME.validate_state(empty)
    with pytest.raises(StateFormatError):
        from_json(unrest.GAME, to_json(empty))


# ----- the table is held to its move log ------------------------------------------------------------------------


#: Where a log check names the place it breaks: a move, or the log's end.
WHERE = r"moves\[\d+\]|moves \(the log's end, \d+ moves\)"


def _played() -> UnrestState:
    """A valid saved game in round 3 (bots, so Districts are liberated and proofs revealed along the way)."""
    state = next(s for s in game_states(3, bots=True) if s.round == 3 and s.step == "defend")
    assert from_json(unrest.GAME, to_json(state)) == state
    return state


def _refused(state: UnrestState, where: str) -> str:
    with pytest.raises(StateFormatError, match=where) as info:
        from_json(unrest.GAME, to_json(state))
    return str(info.value)


def test_state_load_rejects_a_saved_game_with_its_move_log_emptied() -> None:
    state = _played()
    message = _refused(attrs.evolve(state, moves=()), re.escape("moves (the log's end, 0 moves)"))
    assert "0 rounds played, but the state is in round 3" in message
    # An empty log is the start of the game: round 1 before the Area of Interest is marked.
    start = table(hand="5D 2I 3S 6U 2U")
    assert start.moves == () and from_json(unrest.GAME, to_json(start)) == start
    planning = act(start, "target Peace", "plan 5D hidden")
    with pytest.raises(StateFormatError, match=re.escape("round 1 at the plan step has no move logged")):
        from_json(unrest.GAME, to_json(attrs.evolve(planning, moves=())))


@pytest.mark.parametrize("cut", [1, 2, 5, 12])
def test_state_load_rejects_a_saved_game_with_its_move_log_truncated(cut: int) -> None:
    state = _played()
    _refused(attrs.evolve(state, moves=state.moves[:-cut]), WHERE)


def _swapped(state: UnrestState, i: int) -> UnrestState:
    moves = list(state.moves)
    moves[i], moves[i + 1] = moves[i + 1], moves[i]
    return attrs.evolve(state, moves=tuple(moves))


def test_state_load_rejects_a_saved_game_with_one_entry_swapped() -> None:
    state = _played()
    target = next(
        i for i, m in enumerate(state.moves) if i > 0 and m != PLAN_HIDDEN and isinstance(DECISIONS[m], Target)
    )
    # The Area of Interest after the plan it comes before: named at the move that breaks the round's order.
    _refused(_swapped(state, target - 1), re.escape(f"moves[{target - 1}]") + "|" + re.escape(f"moves[{target}]"))
    # One placement sent to another District: the stacks no longer match where the log put the cards.
    place = next(i for i, m in enumerate(state.moves) if m != PLAN_HIDDEN and isinstance(DECISIONS[m], Place))
    action = DECISIONS[state.moves[place]]
    assert isinstance(action, Place)
    for d in range(5):
        if d != action.district:
            moves = (*state.moves[:place], decision_id(Place(action.slot, d)), *state.moves[place + 1 :])
            _refused(attrs.evolve(state, moves=moves), WHERE)


def test_state_load_refuses_a_pending_proof_the_table_does_not_give() -> None:
    # Loading checks the pending proof once, in the table check (invariants._check_proof); the history check no
    # longer derives the same proofs a second time (the determinizer's check of a deal does: a deal's frame is
    # recomputed). Each broken frame is still refused, named by its District.
    state = next(s for g in range(6) for s in game_states(g, bots=True) if s.pending.top and s.pending.top.chosen)
    frame = state.pending.top
    assert frame is not None and from_json(unrest.GAME, to_json(state)) == state
    other = next(d for d in state.row if d != frame.district)
    broken = (
        attrs.evolve(frame, proofs=()),  # no proof left open
        attrs.evolve(frame, proofs=(*frame.proofs, (*frame.chosen, 99))),  # one that is no minimal proof
        attrs.evolve(frame, proofs=(frame.chosen,)),  # the chosen cards already a whole proof
        attrs.evolve(frame, chosen=()),  # the revealed cards not the chosen ones
        attrs.evolve(frame, district=other),  # a District not being proven
    )
    for wrong in broken:
        bad = attrs.evolve(state, pending=state.pending.replace_top(wrong))
        with pytest.raises(StateFormatError, match=r"proof of District \d|District \d holds a card revealed to prove"):
            from_json(unrest.GAME, to_json(bad))


# ----- the work a load does (docs/performance.md, "Saved files") ------------------------------------------------


def _calls(fn: Callable[[], object]) -> int:
    """The Python and built-in function calls ``fn`` makes: a count of work that no load on the machine moves."""
    n = 0

    def count(_frame: object, event: str, _arg: object) -> None:
        nonlocal n
        if event in ("call", "c_call"):
            n += 1

    sys.setprofile(count)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return n


def test_a_load_makes_a_bounded_number_of_calls_linear_in_the_log() -> None:
    # Loading a saved game (parse, size check, structuring, every invariant, the history held to the log, the
    # first legal actions) makes about 300 calls plus 9 a logged move; the tree before this bound made 380 plus
    # 18 a move (per-field hooks, the determinizer's deal check, a closure per walk). The bound leaves a fifth
    # more than measured: a regression to per-field or per-move calls exceeds it, at any machine load. The load
    # then replays the state's history under the rules (every setup deal, decision and draw: at most 185 calls each
    # measured, the bound 220), which proves the state one the rules reach.
    states = [s for s in game_states(3, bots=True) if s.round >= 3][::7]
    assert len(states) >= 5
    for state in states:
        text = to_json(state)
        assert from_json(unrest.GAME, text) == state  # the first load fills the caches of content and records
        calls = _calls(lambda text=text: from_json(unrest.GAME, text))  # type: ignore[misc]  # bound at definition
        history = len(state.laid) + len(state.missions) + len(state.moves) + len(state.draws)
        bound = 350 + 11 * len(state.moves) + 220 * history
        assert calls <= bound, (calls, len(state.moves), state.round, state.step)


def test_a_load_derives_a_pending_proof_once_and_builds_no_candidate_world(monkeypatch: pytest.MonkeyPatch) -> None:
    # The determinizer's deal check (consistent) builds a world with its proof frame recomputed; a load holds the
    # truth to the same inferences without it (history_fits), and the proofs are derived once, by the table check.
    made = {"consistent": 0, "minimal_proofs": 0, "tallies": 0}

    def counted(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            made[name] += 1
            return fn(*args, **kwargs)

        return call

    deal_check = counted("consistent", determinization.consistent)
    monkeypatch.setattr(determinization, "consistent", deal_check)
    # Wherever the invariants would call it from (raising=False: they need not import it at all).
    monkeypatch.setattr(invariants, "consistent", deal_check, raising=False)
    monkeypatch.setattr(invariants, "minimal_proofs", counted("minimal_proofs", minimal_proofs))
    monkeypatch.setattr(determinization, "minimal_proofs", counted("minimal_proofs", minimal_proofs))
    monkeypatch.setattr(determinization, "Tally", counted("tallies", Tally))
    proving = [s for g in range(6) for s in game_states(g, bots=True) if s.pending.top is not None]
    assert len(proving) >= 10
    for state in proving:
        made.update(consistent=0, minimal_proofs=0, tallies=0)
        assert from_json(unrest.GAME, to_json(state)) == state
        # One tally a snapshot with a hidden card and two cards or more (one card meets no Mission).
        snapshots = sum(len(indices) >= 2 for _, indices, _ in knowledge.snapshot_checks(state))
        assert made == {"consistent": 0, "minimal_proofs": 1, "tallies": snapshots}, (made, state)
