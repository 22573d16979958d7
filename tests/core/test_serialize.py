"""JSON serialization: round trips, and malformed or hostile input rejected whole."""

from __future__ import annotations

import json
from enum import Enum, IntEnum, StrEnum
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_core import RandomAgent, Record, StateFormatError, from_json, play, replay, to_json
from tabletop_core.components import Pile
from tabletop_core.serialize import action_from_json, state_from_json, structure, unstructure
from tabletop_core.testing.kuhn import GAME, Deal, KuhnState, Move
from tests.core.flowgame import GAME as FLOW_GAME
from tests.playouts import final_state


def _doc(state: KuhnState) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(to_json(state))
    return loaded


def _kuhn_state(seed: int, steps: int) -> KuhnState:
    return final_state(GAME, GAME.new_game(), np.random.default_rng(seed), chance="uniform", limit=steps)  # type: ignore[no-any-return]  # a Kuhn state


@given(st.integers(0, 10_000), st.integers(0, 6))
def test_state_round_trip_on_generated_states(seed: int, steps: int) -> None:
    state = _kuhn_state(seed, steps)
    assert from_json(GAME, to_json(state)) == state


@given(st.integers(0, 10_000), st.integers(0, 12))
def test_flow_game_state_round_trip_with_pending_frames(seed: int, steps: int) -> None:
    state = final_state(FLOW_GAME, FLOW_GAME.new_game(), np.random.default_rng(seed), chance="uniform", limit=steps)
    assert from_json(FLOW_GAME, to_json(state)) == state


def test_actions_round_trip() -> None:
    for action in (Move(0), Move(1), Deal(2)):
        assert from_json(GAME, to_json(action)) == action


def test_the_document_carries_format_version_and_stable_tag() -> None:
    doc = _doc(GAME.new_game(seed=1))
    assert doc["format"] == "tabletop-rules" and doc["version"] == 1 and doc["type"] == "kuhn.state"


def _bad(mutate: Any) -> str:
    doc = _doc(_kuhn_state(3, 4))
    mutate(doc)
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "not valid JSON"),
        ('{"format": "tabletop-rules", "version": 1, "type": "kuhn.st', "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ("NaN", "not valid JSON"),
        ('{"format": "other", "version": 1}', "not a tabletop-rules document"),
        (_bad(lambda d: d.update(version=99)), "version 99 is not supported"),
        (_bad(lambda d: d.update(type="unrest.state")), "not a state or action of kuhn"),
        (_bad(lambda d: d.update(extra=1)), "keys must be"),
        (_bad(lambda d: d["data"].update(hands=[0, "1"])), "hands"),
        (_bad(lambda d: d["data"].update(hands="01")), "hands"),
        (_bad(lambda d: d["data"].update(history=[0, 7])), "inconsistent state"),
        (_bad(lambda d: d["data"].update(hands=[0, 10**400])), "hands"),
        ('{"format": ' + "1" * 5000 + "}", "not valid JSON"),
        (_bad(lambda d: d["data"].update(hands=[0, 2**70])), "hands"),
        (_bad(lambda d: d["data"].update(hands=[0, 1.5])), "hands"),
        (_bad(lambda d: d["data"].update(hands=[0, True])), "hands"),
        (_bad(lambda d: d["data"].update(surprise=1)), "surprise"),
        (_bad(lambda d: d["data"].pop("deck")), "deck"),
        (_bad(lambda d: d["data"]["deck"].update(counts=[[2, 1], [1, 1]])), "sorted"),
        (_bad(lambda d: d["data"]["deck"].update(counts=[[2, -1]])), "positive"),
        (_bad(lambda d: d["data"].update({"$type": "kuhn.move"})), "tag"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_malformed_input_raises_state_format_error(text: str, needle: str) -> None:
    with pytest.raises(StateFormatError, match=needle):
        from_json(GAME, text)


def test_bytes_input_must_be_utf8() -> None:
    with pytest.raises(StateFormatError, match="UTF-8"):
        from_json(GAME, b"\xff\xfe")


def test_an_inconsistent_state_is_rejected_not_half_loaded() -> None:
    """Three cards dealt out of a three-card deck that still holds them: the game's own check rejects it."""
    doc = _doc(_kuhn_state(1, 2))
    doc["data"]["hands"] = [0, 1, 2, 0]
    with pytest.raises(StateFormatError):
        from_json(GAME, json.dumps(doc))


def test_hostile_input_never_yields_a_state() -> None:
    base = to_json(_kuhn_state(5, 5))
    for cut in range(0, len(base), 7):
        with pytest.raises(StateFormatError):
            from_json(GAME, base[:cut])


class Color(Enum):
    RED = "red"
    BLUE = "blue"


@attrs.frozen
class Leaf:
    TAG: ClassVar[str] = "test.leaf"
    color: Color
    weights: frozenset[int]


@attrs.frozen
class Other:
    TAG: ClassVar[str] = "test.other"
    note: str | None


@attrs.frozen
class Tree:
    TAG: ClassVar[str] = "test.tree"
    children: tuple[Leaf | Other, ...]
    pile: Pile[str]
    ratio: float


leaves = st.builds(Leaf, st.sampled_from(Color), st.frozensets(st.integers(-5, 5), max_size=4))
others = st.builds(Other, st.none() | st.text(max_size=5))
trees = st.builds(
    Tree,
    st.lists(leaves | others, max_size=5).map(tuple),
    st.lists(st.sampled_from("abc"), max_size=6).map(Pile.of),
    st.floats(-1e6, 1e6, allow_nan=False),
)


@given(trees)
def test_tagged_unions_enums_frozensets_and_generics_round_trip(tree: Tree) -> None:
    data = unstructure(tree)
    assert json.loads(json.dumps(data)) == data
    assert structure(json.loads(json.dumps(data)), Tree) == tree


def test_frozensets_serialize_in_a_canonical_order() -> None:
    a, b = Leaf(Color.RED, frozenset({3, 1, 2})), Leaf(Color.RED, frozenset({2, 3, 1}))
    assert unstructure(a) == unstructure(b) and unstructure(a)["weights"] == [1, 2, 3]


def test_unknown_union_tag_and_bad_enum_are_rejected() -> None:
    data = unstructure(Tree((Leaf(Color.RED, frozenset()),), Pile.of([]), 0.5))
    data["children"][0]["$type"] = "test.unknown"
    with pytest.raises(StateFormatError, match="unknown tag"):
        structure(data, Tree)
    data["children"][0]["$type"] = "test.leaf"
    data["children"][0]["color"] = "green"
    with pytest.raises(StateFormatError, match="color"):
        structure(data, Tree)


def test_play_output_round_trips() -> None:
    state, _ = play(GAME, [RandomAgent(), RandomAgent()], seed=9)
    assert from_json(GAME, to_json(state)) == state


def test_to_json_requires_a_tag() -> None:
    with pytest.raises(TypeError, match="declares no TAG"):
        to_json(Color.RED)


class Suit(StrEnum):
    HEARTS = "hearts"
    SPADES = "spades"


class Rank(IntEnum):
    LOW = 1
    HIGH = 2


@attrs.frozen
class Hand:
    TAG: ClassVar[str] = "test.hand"
    suit: Suit = attrs.field(validator=attrs.validators.instance_of(Suit))
    rank: Rank = attrs.field(validator=attrs.validators.instance_of(Rank))


def test_str_and_int_enums_come_back_as_enums() -> None:
    hand = structure(unstructure(Hand(Suit.SPADES, Rank.HIGH)), Hand)
    assert type(hand.suit) is Suit and type(hand.rank) is Rank
    with pytest.raises(StateFormatError, match="suit"):
        structure({"$type": "test.hand", "suit": "clubs", "rank": 1}, Hand)


def test_typed_readers_take_only_their_kind() -> None:
    state = GAME.new_game(seed=2)
    assert state_from_json(GAME, to_json(state)) == state
    assert action_from_json(GAME, to_json(Move(1))) == Move(1)
    with pytest.raises(StateFormatError, match="not a state"):
        state_from_json(GAME, to_json(Move(1)))
    with pytest.raises(StateFormatError, match="not an action"):
        action_from_json(GAME, to_json(state))


# ----- strict primitives: values that would still be valid after a coercion must be refused -------------------------


def _kuhn_after_a_pass() -> KuhnState:
    state = GAME.new_game(seed=5)
    return GAME.step(state, Move(0))


def _mutated(state: Any, **data: Any) -> str:
    doc = json.loads(to_json(state))
    doc["data"].update(data)
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("history", [True]),  # would coerce to [1]: the valid line "bet"
        ("history", [0.0]),  # would coerce to [0]: the pass actually played
        ("history", ["0"]),  # string coercion
        ("hands", "coerced"),  # replaced below with the dealt hands as floats
    ],
)
def test_no_primitive_is_coerced_even_when_the_result_would_be_valid(field: str, value: Any) -> None:
    state = _kuhn_after_a_pass()
    if value == "coerced":
        value = [float(c) for c in state.hands]
    good = from_json(GAME, _mutated(state, **{field: list(getattr(state, field))}))
    assert good == state  # the same document with exact values loads
    with pytest.raises(StateFormatError, match=field):
        from_json(GAME, _mutated(state, **{field: value}))


def test_flow_positions_and_scores_take_exact_ints_and_strings() -> None:
    state = FLOW_GAME.new_game(seed=4)
    doc = json.loads(to_json(state))
    pos = dict(doc["data"]["position"])
    for bad_pos in ({**pos, "round": 1.0}, {**pos, "round": True}, {**pos, "round": "1"}, {**pos, "phase": None}):
        bad = json.loads(json.dumps(doc))
        bad["data"]["position"] = bad_pos
        with pytest.raises(StateFormatError, match=r"round|phase"):
            from_json(FLOW_GAME, json.dumps(bad))
    for score in (0.0, False, "0"):
        with pytest.raises(StateFormatError, match="score"):
            from_json(FLOW_GAME, _mutated(state, score=score))


@attrs.frozen
class Prims:
    TAG: ClassVar[str] = "test.prims"
    flag: bool = False
    count: int = 0
    weight: float = 0.0
    name: str = ""
    maybe: int | None = None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("flag", "false"),
        ("flag", 0),
        ("flag", 1),
        ("count", True),
        ("count", 1.99),
        ("count", 2.0),
        ("count", "1"),
        ("count", 2**53 + 1),
        ("count", -(2**53) - 1),
        ("weight", "nan"),
        ("weight", "1.5"),
        ("weight", True),
        ("weight", 2.0**60),
        ("name", None),
        ("name", 5),
        ("maybe", "3"),
        ("maybe", 3.0),
        ("maybe", False),
    ],
)
def test_every_primitive_is_exact(field: str, value: Any) -> None:
    with pytest.raises(StateFormatError, match=field):
        structure({"$type": "test.prims", field: value}, Prims)


def test_exact_primitives_still_load() -> None:
    data = {"$type": "test.prims", "flag": True, "count": 2**53, "weight": 2, "name": "x", "maybe": -(2**53)}
    value = structure(data, Prims)
    assert value == Prims(True, 2**53, 2.0, "x", -(2**53)) and type(value.weight) is float
    assert structure({"$type": "test.prims", "maybe": None}, Prims).maybe is None


class Mixed(str, Enum):  # noqa: UP042  # the (str, Enum) mixin style on purpose, beside StrEnum
    UP = "up"


class Plain(Enum):
    ONE = 1


@attrs.frozen
class Enums:
    TAG: ClassVar[str] = "test.enums"
    suit: Suit
    rank: Rank
    mixed: Mixed
    plain: Plain


def test_enums_of_every_kind_survive_the_strict_primitives() -> None:
    value = Enums(Suit.HEARTS, Rank.LOW, Mixed.UP, Plain.ONE)
    back = structure(json.loads(json.dumps(unstructure(value))), Enums)
    assert back == value and type(back.rank) is Rank and type(back.mixed) is Mixed and type(back.plain) is Plain
    good = {"$type": "test.enums", "suit": "hearts", "rank": 1, "mixed": "up", "plain": 1}
    for field, bad in (("rank", True), ("rank", 1.0), ("rank", "1"), ("suit", None), ("plain", 1.0)):
        with pytest.raises(StateFormatError, match=field):
            structure({**good, field: bad}, Enums)


def test_a_record_whose_returns_are_nan_strings_does_not_replay() -> None:
    _, record = play(GAME, [RandomAgent(), RandomAgent()], seed=3)
    doc = json.loads(record.to_json())
    assert Record.from_json(json.dumps(doc)) == record
    for returns in (["nan", "nan"], ["1", "-1"], [True, False]):
        doc["record"]["returns"] = returns
        with pytest.raises(StateFormatError, match="returns"):
            replay(json.dumps(doc), GAME)
