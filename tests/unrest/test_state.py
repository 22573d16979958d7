"""States: JSON round trips, invariants checked on load, immutability."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import unrest
from tabletop_core import StateFormatError, from_json, to_json
from tests.unrest.helpers import act, stack, table
from unrest.rules.cards import MISDIRECTION
from unrest.state import Destroyed


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
    rng = np.random.default_rng(seed)
    state = unrest.new_game(seed=seed, variant=variant)
    while not unrest.is_terminal(state):
        unrest.GAME.validate_state(state)
        legal = unrest.legal_actions(state)
        state = unrest.step(state, legal[int(rng.integers(len(legal)))], rng=rng)
    unrest.GAME.validate_state(state)
    assert len(state.liberated) >= 3 or state.final or (variant == "capitol" and 2 in state.liberated)


def test_state_load_rejects_rounds_beyond_the_game() -> None:
    # 24 cards: 5 in the opening hand, then 3 a round leave one for round 7's draw; round 8 is the last.
    state = table(hand="5D 2I 3S 6U 2U", rnd=8)
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
