"""The one fast copy: attrs.evolve's result without its checks, refused where it would be wrong."""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_core.fastcopy import replace, replacer
from tabletop_core.flow import Pending, Position


@attrs.frozen
class _Value:
    a: int
    b: tuple[int, ...] = ()
    c: str = attrs.field(default="x", validator=attrs.validators.in_(("x", "y")))
    _secret: int = 0


@attrs.frozen(cache_hash=True)
class _Hashed:
    a: int
    b: int = 0


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "a": st.integers(),
            "b": st.tuples(st.integers()),
            "c": st.sampled_from(("x", "y")),
            "secret": st.integers(),
        },
    )
)
def test_replace_gives_what_attrs_evolve_gives(changes: dict[str, Any]) -> None:
    value = _Value(1, (2,), "y", 3)
    copy = replace(value, **changes)
    assert copy == attrs.evolve(value, **changes)
    assert type(copy) is _Value and copy is not value
    assert value == _Value(1, (2,), "y", 3)  # the original is untouched


def test_replace_runs_no_validator_and_accepts_private_names_both_ways() -> None:
    value = _Value(1)
    assert replace(value, c="z").c == "z"  # evolve would refuse: replace trusts its caller
    with pytest.raises(ValueError):
        attrs.evolve(value, c="z")
    assert replace(value, secret=5) == replace(value, _secret=5) == _Value(1, secret=5)


def test_replace_refuses_unknown_fields_and_leaves_derived_classes_to_evolve() -> None:
    with pytest.raises(TypeError, match=r"_Value has no field 'z' \(fields: a, b, c, _secret\)"):
        replace(_Value(1), z=0)
    with pytest.raises(TypeError, match="not an attrs class"):
        replace(object())

    @attrs.frozen
    class Derived:
        a: int
        twice: int = attrs.field(init=False)

        def __attrs_post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.a)

    # Derived values are recomputed as attrs.evolve recomputes them, never copied stale.
    assert replace(Derived(1), a=2).twice == 4

    @attrs.frozen(slots=False)
    class Loose:
        a: int

    assert replace(Loose(1), a=2) == Loose(2)
    with pytest.raises(TypeError):
        replace(Loose(1), b=2)


def test_replace_resets_a_cached_hash() -> None:
    value = _Hashed(1)
    hash(value)  # fills the cache
    copy = replace(value, b=5)
    assert hash(copy) == hash(_Hashed(1, 5)) and copy == _Hashed(1, 5)
    assert hash(replace(value)) == hash(value)


def test_replace_copies_core_values() -> None:
    pos = Position(1, "a", "x")
    assert replace(pos, round=3) == Position(3, "a", "x")
    assert replace(Pending[int]((1, 2)), frames=(3,)).top == 3


def test_replace_copies_keyword_only_and_validated_classes_without_their_checks() -> None:
    @attrs.frozen
    class Keyed:
        a: int
        b: int = attrs.field(kw_only=True, default=0, validator=attrs.validators.ge(0))

    assert replace(Keyed(1, b=2), a=5) == Keyed(5, b=2)
    assert replace(Keyed(1), b=-3).b == -3


@attrs.frozen(cache_hash=True)
class _Wide:
    a: int
    b: int = 0
    c: tuple[int, ...] = ()
    d: str = ""


@given(st.sampled_from(("a", "b", "c", "d")), st.integers())
def test_replacer_gives_what_replace_gives_for_every_field(name: str, n: int) -> None:
    value = _Wide(1, 2, (3,), "4")
    hash(value)  # a copy must not keep the cached hash
    new: Any = {"a": n, "b": n, "c": (n,), "d": str(n)}[name]
    copy = replacer(_Wide, name)(value, new)
    assert copy == replace(value, **{name: new}) == attrs.evolve(value, **{name: new})
    assert hash(copy) == hash(attrs.evolve(value, **{name: new}))
    assert value == _Wide(1, 2, (3,), "4")  # the original is untouched


def test_replacer_of_one_and_two_field_classes_and_of_checked_classes() -> None:
    assert replacer(_Hashed, "a")(_Hashed(1, 2), 5) == _Hashed(5, 2)
    assert replacer(_Hashed, "b")(_Hashed(1, 2), 5) == _Hashed(1, 5)
    assert replacer(Position, "step")(Position(1, "a", "x"), "y") == Position(1, "a", "y")
    assert replacer(Pending, "frames")(Pending[int]((1,)), (2, 3)).top == 3
    # A validated class is copied as replace copies it: no validator runs, private fields by either name.
    assert replacer(_Value, "c")(_Value(1), "z").c == "z"
    assert replacer(_Value, "secret")(_Value(1), 5) == replacer(_Value, "_secret")(_Value(1), 5) == _Value(1, secret=5)


@given(st.lists(st.sampled_from(("a", "b", "c", "d")), min_size=2, max_size=4, unique=True), st.integers())
def test_replacer_of_several_fields_gives_what_replace_gives(names: list[str], n: int) -> None:
    value = _Wide(1, 2, (3,), "4")
    new: dict[str, Any] = {"a": n, "b": n + 1, "c": (n,), "d": str(n)}
    changes = {name: new[name] for name in names}
    assert replacer(_Wide, *names)(value, *changes.values()) == replace(value, **changes)
    # A validated class, several fields at once: still no validator runs.
    assert replacer(_Value, "c", "secret")(_Value(1), "z", 7) == replace(_Value(1), c="z", secret=7)


@attrs.frozen(cache_hash=True)
class _WiderStill(_Wide):
    e: int = 9


@pytest.mark.parametrize("names", [("a",), ("b",), ("d",), ("a", "c"), ("a", "b", "d")])
def test_replacer_keeps_the_class_of_a_subclass_instance(names: tuple[str, ...]) -> None:
    # A game that subclasses another's state (a test's planted defect, an extension) must not get its states
    # turned back into the base class by the base's prepared copies: every field, the subclass's too, survives.
    value = _WiderStill(1, 2, (3,), "4", 5)
    new: dict[str, Any] = {"a": 7, "b": 8, "c": (9,), "d": "x"}
    copy = replacer(_Wide, *names)(value, *(new[n] for n in names))
    assert type(copy) is _WiderStill and copy == replace(value, **{n: new[n] for n in names}) and copy.e == 5


def test_replacer_refuses_unknown_fields_and_non_attrs_classes() -> None:
    with pytest.raises(TypeError, match=r"_Wide has no field 'z' \(fields: a, b, c, d\)"):
        replacer(_Wide, "z")
    with pytest.raises(TypeError, match="not an attrs class"):
        replacer(object, "a")
    with pytest.raises(TypeError, match="once"):
        replacer(_Wide, "a", "a")
    with pytest.raises(TypeError, match="once"):
        replacer(_Wide)
