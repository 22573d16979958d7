"""States: JSON round trips, invariants checked on load, immutability."""

from __future__ import annotations

import attrs
import pytest

import unrest
from tabletop_core import StateFormatError, from_json, to_json
from tests.unrest.helpers import act, table
from unrest.cards import MISDIRECTION
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
