"""The phase/step machine and the pending stack, alone and driving a test game."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_core.conformance import check_game
from tabletop_core.flow import Flow, Pending, Phase, Position
from tests.core.flowgame import GAME, Choose, Pick, ResolveOrRest


def test_flow_walks_steps_then_phases_then_rounds() -> None:
    flow = Flow((Phase("a", ("x", "y")), Phase("b", ("z",))))
    pos = flow.start()
    seen = []
    for _ in range(4):
        seen.append((pos.round, pos.phase, pos.step))
        pos = flow.next(pos)
    assert seen == [(1, "a", "x"), (1, "a", "y"), (1, "b", "z"), (2, "a", "x")]
    assert flow.next_phase(flow.start()) == Position(1, "b", "z")
    assert flow.next_phase(Position(1, "b", "z")) == Position(2, "a", "x")


def test_flow_rejects_unknown_names_and_bad_declarations() -> None:
    flow = Flow((Phase("a", ("x",)),))
    with pytest.raises(ValueError, match="no phase"):
        flow.at("nope")
    with pytest.raises(ValueError, match="no step"):
        flow.at("a", "nope")
    with pytest.raises(ValueError, match="no step"):
        flow.next(Position(1, "a", "nope"))
    with pytest.raises(ValueError):
        Phase("a", ())
    with pytest.raises(ValueError):
        Flow((Phase("a", ("x",)), Phase("a", ("y",))))


def test_pending_stack_top_owns_the_next_decision() -> None:
    stack: Pending[str] = Pending()
    assert stack.top is None and not stack
    stack = stack.push("choose").push("respond")
    assert stack.top == "respond" and len(stack) == 2
    assert stack.replace_top("order").top == "order"
    assert stack.pop().pop().top is None
    with pytest.raises(ValueError):
        Pending[str]().pop()


def test_flow_game_reveal_two_choose_one_then_resolve_or_rest() -> None:
    state = GAME.new_game(seed=4)
    assert isinstance(state.pending.top, Choose) and len(state.revealed) == 2
    assert (state.position.phase, state.position.step) == ("choose", "keep")
    keep = GAME.legal_actions(state)[-1]
    assert isinstance(keep, Pick)
    state = GAME.step(state, keep)
    assert isinstance(state.pending.top, ResolveOrRest) and state.position.step == "resolve"
    state = GAME.step(state, GAME.parse_action(state, "resolve"), rng=np.random.default_rng(0))
    assert state.score == keep.value and state.position.round == 2


def test_flow_game_passes_the_conformance_suite() -> None:
    report = check_game(GAME, games=40, seed=0)
    assert report.terminal == 40 and report.chance_nodes == 40 * 6
