"""Declared action spaces: ids dense, ordered by class then field, round trips, refusal of bad declarations."""

from __future__ import annotations

import contextlib
from typing import Any, ClassVar

import attrs
import pytest

from tabletop_core import actions
from tabletop_core.actions import ActionSpace
from tabletop_core.errors import IllegalActionError

SYMBOLS = ("sword", "bow", "magic")


@attrs.frozen
class Pass:
    """No fields: one id."""


@attrs.frozen
class Act:
    """Reserves 6 ids for 4 verbs."""

    FIELD_RANGES: ClassVar = (("verb", range(6)),)
    verb: int = attrs.field(validator=attrs.validators.in_(range(4)))


@attrs.frozen
class Copy:
    """Declared in another order than the fields: the symbol is the most significant digit."""

    FIELD_RANGES: ClassVar = (("symbol", SYMBOLS), ("value", range(1, 5)))
    value: int
    symbol: str


@attrs.frozen
class Flip:
    FIELD_RANGES: ClassVar = (("target", range(3)), ("tactics", (False, True)))
    target: int
    tactics: bool


SPACE: ActionSpace[Any] = ActionSpace((Pass, Act, Copy, Flip), name="test decisions")


def _valid(space: ActionSpace[Any]) -> list[tuple[int, Any]]:
    out = []
    for i in range(space.size):
        with contextlib.suppress(IllegalActionError):
            out.append((i, space.from_id(i)))
    return out


def test_ids_are_dense_and_laid_out_class_by_class() -> None:
    assert SPACE.size == 1 + 6 + 12 + 6
    assert [SPACE.base(c) for c in SPACE.classes] == [0, 1, 7, 19]
    assert SPACE.ids(Copy) == range(7, 19)
    assert SPACE.id_of(Pass()) == 0
    assert SPACE.id_of(Act(3)) == 4
    assert SPACE.id_of(Copy(1, "sword")) == 7 and SPACE.id_of(Copy(4, "sword")) == 10
    assert SPACE.id_of(Copy(1, "bow")) == 11 and SPACE.id_of(Copy(4, "magic")) == 18
    assert SPACE.id_of(Flip(0, False)) == 19 and SPACE.id_of(Flip(2, True)) == 24


def test_every_id_round_trips_and_ids_follow_the_declared_order() -> None:
    valid = _valid(SPACE)
    # Only Act's two reserved ids are not actions.
    assert [i for i in range(SPACE.size) if i not in dict(valid)] == [5, 6]
    for i, action in valid:
        assert SPACE.id_of(action) == i
    # Ordered: by class in declaration order, then field positions lexicographically in FIELD_RANGES order.
    keys = [
        (
            SPACE.classes.index(type(a)),
            *(vals.index(getattr(a, n)) for n, vals in type(a).__dict__.get("FIELD_RANGES", ())),
        )
        for _, a in valid
    ]
    assert keys == sorted(keys)
    assert SPACE.sorted([Flip(0, True), Pass(), Copy(2, "bow")]) == (Pass(), Copy(2, "bow"), Flip(0, True))


def test_from_id_refuses_bad_and_reserved_ids() -> None:
    for bad in (-1, SPACE.size, 2.0, True, "3"):
        with pytest.raises(IllegalActionError, match="test decisions: no action with id"):
            SPACE.from_id(bad)  # type: ignore[arg-type]  # bad on purpose
    with pytest.raises(IllegalActionError, match="id 5 is reserved"):
        SPACE.from_id(5)


def test_id_of_refuses_foreign_actions_and_values_outside_the_ranges() -> None:
    with pytest.raises(IllegalActionError, match="not an action of this space"):
        SPACE.id_of("pass")
    with pytest.raises(IllegalActionError, match="symbol='axe'"):
        SPACE.id_of(Copy(1, "axe"))
    with pytest.raises(IllegalActionError, match="value=5"):
        SPACE.id_of(Copy(5, "bow"))


def test_adding_a_class_at_the_end_shifts_no_id() -> None:
    @attrs.frozen
    class Later:
        FIELD_RANGES: ClassVar = (("n", range(2)),)
        n: int

    bigger: ActionSpace[Any] = ActionSpace((Pass, Act, Copy, Flip, Later))
    assert all(bigger.id_of(a) == i for i, a in _valid(SPACE))
    assert bigger.size == SPACE.size + 2 and bigger.from_id(SPACE.size + 1) == Later(1)


def test_bad_declarations_are_refused() -> None:
    @attrs.frozen
    class Undeclared:
        n: int

    @attrs.frozen
    class Misnamed:
        FIELD_RANGES: ClassVar = (("m", range(2)),)
        n: int

    @attrs.frozen
    class Repeated:
        FIELD_RANGES: ClassVar = (("n", (1, 1)),)
        n: int

    @attrs.frozen
    class Empty:
        FIELD_RANGES: ClassVar = (("n", range(0)),)
        n: int

    class Plain:
        pass

    with pytest.raises(ValueError, match="declares no FIELD_RANGES"):
        ActionSpace((Undeclared,))
    with pytest.raises(ValueError, match="but its fields are"):
        ActionSpace((Misnamed,))
    for cls in (Repeated, Empty):
        with pytest.raises(ValueError, match="non-empty range or distinct values"):
            ActionSpace((cls,))
    with pytest.raises(ValueError, match="not an attrs class"):
        ActionSpace((Plain,))
    with pytest.raises(ValueError, match="distinct"):
        ActionSpace((Pass, Pass))
    assert "Copy@7+12" in repr(SPACE)


def test_ids_remembered_by_identity_are_the_computed_ids_and_the_memo_stays_bounded() -> None:
    # private: the memo of ids by identity and its bound are what this test is about
    space: ActionSpace[Any] = ActionSpace((Pass, Act, Copy), name="memo")
    # Objects made and dropped one after another: CPython hands a dropped object's address (its id) to the next
    # one, so a memo keyed by the address must keep its objects alive (each entry holds its action) or it would
    # answer with a dropped object's id.
    for k in range(3000):
        action: Any = (Pass(), Act(k % 4), Copy(1 + k % 4, SYMBOLS[k % 3]))[k % 3]
        assert space.id_of(action) == space._id_of(action)
        assert space.id_of(action) == space.id_of(attrs.evolve(action))  # an equal object, another identity
        del action
    assert len(space._known) <= actions.KNOWN_IDS
    kept = [Act(k % 4) for k in range(actions.KNOWN_IDS + 10)]
    assert [space.id_of(a) for a in kept] == [space._id_of(a) for a in kept]
    assert len(space._known) <= actions.KNOWN_IDS
    # A refused action is never remembered: it raises every time.
    for _ in range(2):
        with pytest.raises(IllegalActionError):
            space.id_of(Flip(0, True))  # not of this space
