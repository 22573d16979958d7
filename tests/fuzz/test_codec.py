"""Action codecs refuse what is not an id or a text with IllegalActionError, on every game and the core space."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_core.actions import ActionSpace, action_text
from tabletop_core.errors import IllegalActionError
from tests.fuzz.games import GAMES, examples, sample_states

#: Values an id or a text must never be taken for (a bool is no int, a float no id, None no text).
NOT_IDS: tuple[Any, ...] = (True, False, 3.0, 0.0, 1.5, float("nan"), None, "1", b"1", [1], -1, 2**70)
NOT_TEXTS: tuple[Any, ...] = (None, 3, 3.0, True, b"pass", ["pass"], ("pass",), {"a": 1})


@attrs.frozen
class _Flip:
    FIELD_RANGES = (("target", range(3)),)
    target: int


SPACE: ActionSpace[Any] = ActionSpace((_Flip,), name="flips")


def _states(name: str) -> list[Any]:
    return sample_states(GAMES[name], seed=4, count=6)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("bad", NOT_IDS, ids=repr)
def test_action_from_id_refuses_non_ids(name: str, bad: Any) -> None:
    game = GAMES[name]
    for state in _states(name):
        with pytest.raises(IllegalActionError):
            game.action_from_id(state, bad)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("bad", NOT_TEXTS, ids=repr)
def test_parse_action_refuses_non_text(name: str, bad: Any) -> None:
    game = GAMES[name]
    for state in _states(name):
        with pytest.raises(IllegalActionError):
            game.parse_action(state, bad)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("bad", [None, 3, "pass", 2.0], ids=repr)
def test_action_id_refuses_non_actions(name: str, bad: Any) -> None:
    with pytest.raises(IllegalActionError):
        GAMES[name].action_id(bad)


@pytest.mark.parametrize("bad", NOT_IDS, ids=repr)
def test_core_space_refuses_non_ids(bad: Any) -> None:
    with pytest.raises(IllegalActionError, match="no action with id"):
        SPACE.from_id(bad)
    assert SPACE.from_id(2) == _Flip(2)


def test_action_text_bounds_length() -> None:
    assert action_text("g", "x" * 1000) == "x" * 1000
    with pytest.raises(IllegalActionError, match="1001 characters"):
        action_text("g", "x" * 1001)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=examples(30))
@given(value=st.one_of(st.integers(), st.floats(), st.booleans(), st.none(), st.text(max_size=5)))
def test_action_from_id_takes_only_ids_of_its_space(name: str, value: Any) -> None:
    game = GAMES[name]
    state = _states(name)[2]
    try:
        action = game.action_from_id(state, value)
    except IllegalActionError:
        return
    assert type(value) is int
    assert game.action_id(action) == value


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=examples(30))
@given(text=st.text(max_size=40))
def test_parse_action_of_any_text_is_a_legal_action_or_refused(name: str, text: str) -> None:
    game = GAMES[name]
    state = _states(name)[2]
    try:
        action = game.parse_action(state, text)
    except IllegalActionError:
        return
    assert action in game.legal_actions(state)
