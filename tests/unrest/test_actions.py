"""Actions: a fixed id space, readable strings, both round-tripping; illegal actions are refused."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unrest
from tabletop_core import CHANCE, IllegalActionError, from_json, to_json
from tests.playouts import random_moves
from tests.unrest.helpers import act, strings, table
from unrest.actions import DECISIONS, NUM_ACTIONS, NUM_OUTCOMES, Place, Plan, Reroute, Surveil, Target


def test_actions_fixed_id_space_covers_every_decision_once() -> None:
    assert len(DECISIONS) == NUM_ACTIONS == unrest.GAME.spec.num_distinct_actions
    assert [unrest.action_id(a) for a in DECISIONS] == list(range(NUM_ACTIONS))
    assert unrest.GAME.spec.max_chance_outcomes == NUM_OUTCOMES == 21


def test_actions_readable_strings() -> None:
    state = table(hand="5D 2I 3S 6U 2U")
    # A target names both marked Districts; its left District alone is read too.
    assert unrest.action_to_str(state, Target(1)) == "target Peace and Capitol"
    assert unrest.parse_action(state, "target peace") == unrest.parse_action(state, "Target Peace and Capitol")
    state = act(state, "target Peace")
    assert "plan 5D hidden" in strings(state) and "plan 3S revealed" in strings(state)
    state = act(state, "plan 5D hidden", "plan 2I hidden", "plan 3S revealed")
    assert unrest.action_to_str(state, Surveil(1)) == "surveil card 2"
    assert unrest.action_to_str(state, Reroute(2, 4)) == "reroute card 3 to Truth"
    state = act(state, "surveil card 2", "blockade Plenty")
    assert unrest.action_to_str(state, Place(0, 2)) == "place 5D in Capitol"
    assert unrest.parse_action(state, "  PLACE 5d IN capitol ") == Place(0, 2)


def test_actions_unknown_text_or_id_is_refused() -> None:
    state = table(hand="5D 2I 3S 6U 2U")
    with pytest.raises(IllegalActionError):
        unrest.parse_action(state, "target Narnia")
    with pytest.raises(IllegalActionError):
        unrest.parse_action(state, "plan 5D hidden")  # not the planning step
    with pytest.raises(IllegalActionError):
        unrest.action_from_id(state, NUM_ACTIONS)
    with pytest.raises(IllegalActionError):
        unrest.step(state, Plan(0, True))
    assert not unrest.is_legal(state, object())  # type: ignore[arg-type]  # a non-action on purpose


@given(seed=st.integers(0, 100_000))
def test_actions_round_trip_along_random_games(seed: int) -> None:
    state = unrest.new_game(seed=seed)
    for before, action, after in random_moves(unrest.GAME, state, np.random.default_rng(seed), chance="settle"):
        legal = unrest.legal_actions(before)
        for a in legal:
            assert unrest.action_from_id(before, unrest.action_id(a)) == a
            assert unrest.parse_action(before, unrest.action_to_str(before, a)) == a
            assert unrest.is_legal(before, a)
        assert len({unrest.action_to_str(before, a) for a in legal}) == len(legal)
        assert from_json(unrest.GAME, to_json(action)) == action
        if unrest.current_player(after) == CHANCE:
            raise AssertionError("step with rng settles chance")
        state = after
    assert from_json(unrest.GAME, to_json(state)) == state


def test_actions_declared_space_keeps_the_recorded_ids() -> None:
    # Records store ids: the declared space must give each class the base it had when they were written.
    from unrest.actions import DECISION_SPACE, Blockade, Destroy, Reveal

    bases = [DECISION_SPACE.base(c) for c in (Target, Plan, Surveil, Destroy, Reroute, Blockade, Place, Reveal)]
    assert bases == [0, 5, 47, 50, 53, 68, 73, 88] and NUM_ACTIONS == 112
    assert unrest.action_id(Plan(13, True)) == 5 + 2 * 13 + 1
    assert unrest.action_id(Reroute(2, 4)) == 53 + 5 * 2 + 4 and unrest.action_id(Place(1, 3)) == 73 + 5 + 3
