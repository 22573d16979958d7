"""One fast copy for frozen attrs values: :func:`replace`, ``attrs.evolve`` without re-running the class's checks.

Rule code makes a copy of its state at almost every verb, so the copy is on every game's hot path. ``attrs.evolve``
builds its keyword arguments and calls ``__init__`` (running validators and converters) each time; :func:`replace`
copies the field values straight into a new instance instead.

Where one field of one class is replaced again and again (a pool's sides at every cast), :func:`replacer` makes
that copy once into a function of the object and the new value: the same copy as :func:`replace`, without building,
reading and matching keyword arguments at every call.

Semantics: the same as ``attrs.evolve(obj, **changes)`` for slotted classes whose ``__init__`` only stores its
arguments (a cached hash, ``cache_hash=True``, starts empty in the copy as it does after ``__init__``),
except that **validators and converters do not run** on the new values (a changed field holds exactly the object
given). Changes are named as ``attrs.evolve`` names them (a private ``_x`` field by its alias ``x``; the attribute
name is accepted too). Classes that derive values in ``__init__`` (``init=False`` fields, ``__attrs_post_init__``)
and unslotted classes are handed to ``attrs.evolve`` itself: correct there, though not fast and with their checks.

>>> @attrs.frozen
... class Point:
...     x: int
...     y: int = attrs.field(validator=attrs.validators.ge(0))
>>> p = Point(1, 2)
>>> replace(p, y=5), p
(Point(x=1, y=5), Point(x=1, y=2))
>>> replace(p, y=-1)  # no validator runs: the caller guarantees the value
Point(x=1, y=-1)
>>> with_y = replacer(Point, "y")
>>> with_y(p, 7), with_y(p, 7) == replace(p, y=7)
(Point(x=1, y=7), True)
>>> replace(p, z=0)
Traceback (most recent call last):
...
TypeError: Point has no field 'z' (fields: x, y)
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

import attrs

__all__ = ["replace", "replacer"]

T = TypeVar("T")

_set = object.__setattr__
_new = object.__new__


_HASH_CACHE = "_attrs_cached_hash"  # where attrs keeps the hash of a ``cache_hash=True`` instance


class _Plan(NamedTuple):
    """How to copy one class: its attribute names, change names mapped to positions, and the fastest sound way.

    ``positional``: the class's ``__init__`` only stores its positional arguments (no validator, converter or
    keyword-only field), so ``cls(*values)`` is the copy, run by attrs' generated code. Otherwise the values are
    set one by one on a new instance, which skips the validators (and a cached hash slot is emptied).
    """

    values: Callable[[Any], tuple[Any, ...]]
    positions: dict[str, int]
    positional: bool
    names: tuple[str, ...]
    cached_hash: bool


#: The plan of each class copied so far (``None``: only its ``__init__`` can copy it). A cache of a pure function
#: of the class, read on every copy: one dict lookup, cheaper than a ``functools.cache`` call.
_PLANS: dict[type, _Plan | None] = {}


def _plan(cls: type) -> _Plan | None:
    """The copy plan of ``cls``; ``None`` for a class only its ``__init__`` can copy (see the module)."""
    if not attrs.has(cls):
        raise TypeError(f"replace: {cls.__name__} is not an attrs class")
    fields = attrs.fields(cls)
    if any(not f.init for f in fields) or hasattr(cls, "__attrs_post_init__") or "__slots__" not in cls.__dict__:
        return None
    names = tuple(f.name for f in fields)
    index = {f.name: i for i, f in enumerate(fields)} | {f.alias: i for i, f in enumerate(fields)}
    getter = attrgetter(*names) if len(names) > 1 else (lambda obj: tuple(getattr(obj, n) for n in names))
    positional = all(f.validator is None and f.converter is None and not f.kw_only for f in fields)
    cached = any(_HASH_CACHE in getattr(k, "__slots__", ()) for k in cls.__mro__)
    return _Plan(getter, index, positional, names, cached)


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the attrs instance ``obj`` with ``changes`` applied; validators and converters do not run.

    Args:
        obj: an attrs instance (fast for slotted value classes; see the module docstring).
        **changes: new field values, by ``attrs.evolve``'s names.

    Raises:
        TypeError: when a change names no field, or ``obj`` is not an attrs instance.
    """
    cls: type = type(obj)
    try:
        plan = _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
    if plan is None:
        return attrs.evolve(obj, **changes)  # type: ignore[misc]  # attrs.has(cls) was checked by _plan
    values = list(plan[0](obj))
    index = plan[1]
    try:
        for name, value in changes.items():
            values[index[name]] = value
    except KeyError:
        raise TypeError(f"{cls.__name__} has no field {name!r} (fields: {', '.join(plan.names)})") from None
    if plan[2]:
        copy: T = cls(*values)
        return copy
    new: T = _new(cls)
    for field, value in zip(plan.names, values, strict=True):
        _set(new, field, value)
    if plan.cached_hash:
        _set(new, _HASH_CACHE, None)
    return new


def replacer(cls: type[T], *names: str) -> Callable[..., T]:
    """A function ``(obj, *values) -> replace(obj, **dict(zip(names, values)))`` for instances of exactly ``cls``.

    The copy plan is made once, here. A positional class (see :func:`replace`) is rebuilt by attrs' own
    ``__init__``: with one field, from the fields before and after it (two C-level getters) and the new value
    between them; with several, from every field read at once with the new values put in their places. Any other
    class goes through :func:`replace`. Hot rule verbs keep one such function per field (or fields) they change.

    Args:
        cls: the attrs class whose instances the function copies (an instance of a subclass goes through
            :func:`replace` and keeps its class).
        *names: the fields to replace (at least one, distinct), by ``attrs.evolve``'s names (a private ``_x`` by
            ``x``) or attribute names; the function takes their new values in this order.

    Raises:
        TypeError: when ``cls`` is not an attrs class, has no such field, or ``names`` is empty or repeats one.
    """
    plan = _PLANS[cls] if cls in _PLANS else _PLANS.setdefault(cls, _plan(cls))
    fields = attrs.fields(cls)  # type: ignore[arg-type]  # _plan checked that cls is an attrs class
    known = {f.name: i for i, f in enumerate(fields)} | {f.alias: i for i, f in enumerate(fields)}
    for name in names:
        if name not in known:
            raise TypeError(f"{cls.__name__} has no field {name!r} (fields: {', '.join(f.name for f in fields)})")
    where = [known[name] for name in names]
    if not names or len(set(where)) != len(where):
        raise TypeError(f"replacer: name each field of {cls.__name__} to replace once, not {names!r}")
    if plan is None or not plan.positional:
        return lambda obj, *values: replace(obj, **dict(zip(names, values, strict=True)))
    make: Callable[..., T] = cls
    kind: type = cls
    every = plan.values

    def other(obj: T, values: tuple[Any, ...]) -> T:  # an instance of a subclass keeps its class
        return replace(obj, **dict(zip(names, values, strict=True)))

    if len(where) == 2:  # two fields, the other common case: no loop over the values
        first, second = where

        def two(obj: T, a: Any, b: Any) -> T:
            if type(obj) is not kind:
                return other(obj, (a, b))
            current = list(every(obj))
            current[first] = a
            current[second] = b
            return make(*current)

        return two
    if len(where) > 1:

        def several(obj: T, *values: Any) -> T:
            if type(obj) is not kind:
                return other(obj, values)
            current = list(every(obj))
            for k, value in zip(where, values, strict=True):
                current[k] = value
            return make(*current)

        return several
    (k,) = where
    before, after = plan.names[:k], plan.names[k + 1 :]
    # attrgetter of one name returns the value, not a 1-tuple: fields read one by one get a tuple of their own.
    head = attrgetter(*before) if len(before) > 1 else _tuple_getter(before)
    tail = attrgetter(*after) if len(after) > 1 else _tuple_getter(after)
    if not after:

        def last(obj: T, value: Any) -> T:
            return make(*head(obj), value) if type(obj) is kind else other(obj, (value,))

        return last
    if not before:

        def first_field(obj: T, value: Any) -> T:
            return make(value, *tail(obj)) if type(obj) is kind else other(obj, (value,))

        return first_field

    def middle(obj: T, value: Any) -> T:
        return make(*head(obj), value, *tail(obj)) if type(obj) is kind else other(obj, (value,))

    return middle


def _tuple_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if not names:
        return lambda obj: ()
    (only,) = names
    return lambda obj: (getattr(obj, only),)
