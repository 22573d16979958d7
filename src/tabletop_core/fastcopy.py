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

**The compiled accelerator.** Where the package was built with a C compiler, ``tabletop_core._speedups`` does the
same work in C: :func:`replace` and :func:`replacer` copy the slots of the old instance into a new one directly, and
:func:`accelerate` gives a class a compiled ``__init__`` that does what attrs' generated one does (the same
arguments, defaults, validators and errors' types) without a Python frame. :data:`COMPILED` says whether it is in
use; setting the environment variable ``TABLETOP_PURE_PYTHON`` to a non-empty value before the first import turns
it off, and without a compiler the package runs on the pure-Python path alone, with the same results.

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

import hashlib
import os
import warnings
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

import attrs

__all__ = ["COMPILED", "accelerate", "replace", "replacer"]


def _load_speedups() -> ModuleType | None:
    if os.environ.get("TABLETOP_PURE_PYTHON"):
        return None
    try:
        from tabletop_core import _speedups
    except ImportError:  # built without a C compiler: the pure-Python path
        return None
    module: ModuleType = _speedups
    source = Path(__file__).with_name("_speedups.c")
    if source.is_file():  # an editable or source install: the module must be built from this very source
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if getattr(module, "SOURCE_DIGEST", "") != digest:
            warnings.warn(
                f"tabletop_core._speedups was built from another version of {source.name} (rebuild it, e.g. "
                "`pip install -e .`); running on the pure-Python path",
                RuntimeWarning,
                stacklevel=2,
            )
            return None
    return module


_speedups = _load_speedups()
#: Whether the compiled accelerator is in use (see the module docstring).
COMPILED: bool = _speedups is not None

T = TypeVar("T")

_set = object.__setattr__
_new = object.__new__


_HASH_CACHE = "_attrs_cached_hash"  # where attrs keeps the hash of a ``cache_hash=True`` instance


class _Plan(NamedTuple):
    """How to copy one class: its attribute names, change names mapped to positions, and the fastest sound way.

    ``positional``: the class's ``__init__`` only stores its positional arguments (no validator, converter or
    keyword-only field), so ``cls(*values)`` is the copy, run by attrs' generated code. Otherwise the values are
    set one by one on a new instance, which skips the validators (and a cached hash slot is emptied).
    ``slots``: each field's member descriptor, and ``hash_slot`` the hash cache's (or ``None``), where the compiled
    copy writes; ``slots`` is ``None`` when instances also keep a ``__dict__`` (a base class without slots).
    """

    values: Callable[[Any], tuple[Any, ...]]
    positions: dict[str, int]
    positional: bool
    names: tuple[str, ...]
    cached_hash: bool
    slots: tuple[Any, ...] | None
    hash_slot: Any


#: The plan of each class copied so far (``None``: only its ``__init__`` can copy it). A cache of a pure function
#: of the class, read on every copy: one dict lookup, cheaper than a ``functools.cache`` call.
_PLANS: dict[type, _Plan | None] = {}


def _slot(cls: type, name: str) -> Any:
    """The member descriptor of the slot ``name`` of ``cls`` (from the class that declares it), or ``None``."""
    for klass in cls.__mro__:
        found = klass.__dict__.get(name)
        if found is not None:
            return found if type(found).__name__ == "member_descriptor" else None
    return None


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
    slots = tuple(_slot(cls, name) for name in names)
    writable = not cls.__dictoffset__ and all(slot is not None for slot in slots)
    hash_slot = _slot(cls, _HASH_CACHE) if cached else None
    return _Plan(getter, index, positional, names, cached, slots if writable else None, hash_slot)


def _plan_of(cls: type) -> _Plan | None:
    try:
        return _PLANS[cls]
    except KeyError:
        plan = _PLANS[cls] = _plan(cls)
        return plan


#: The copy made for each ``(class, changed names)`` that :func:`replace` was asked for (compiled path only).
_REPLACERS: dict[tuple[type, tuple[str, ...]], Callable[..., Any]] = {}


def replace(obj: T, /, **changes: object) -> T:
    """A copy of the attrs instance ``obj`` with ``changes`` applied; validators and converters do not run.

    Args:
        obj: an attrs instance (fast for slotted value classes; see the module docstring).
        **changes: new field values, by ``attrs.evolve``'s names.

    Raises:
        TypeError: when a change names no field, or ``obj`` is not an attrs instance.
    """
    return _replace_python(obj, changes)  # with the accelerator, a compiled replace takes this name (below)


def _replace_python(obj: T, changes: dict[str, Any]) -> T:
    """:func:`replace` in Python: read every field, put the changes in their places, build the copy."""
    cls: type = type(obj)
    plan = _plan_of(cls)
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

    The copy plan is made once, here. With the compiled accelerator the function is a C object that copies the
    slots of ``obj`` into a new instance and stores the new values in theirs. In pure Python, a positional class
    (see :func:`replace`) is rebuilt by attrs' own ``__init__``: with one field, from the fields before and after
    it (two C-level getters) and the new value between them; with several, from every field read at once with the
    new values put in their places. Any other class goes through :func:`replace`. Hot rule verbs keep one such
    function per field (or fields) they change.

    Args:
        cls: the attrs class whose instances the function copies (an instance of a subclass goes through
            :func:`replace` and keeps its class).
        *names: the fields to replace (at least one, distinct), by ``attrs.evolve``'s names (a private ``_x`` by
            ``x``) or attribute names; the function takes their new values in this order.

    Raises:
        TypeError: when ``cls`` is not an attrs class, has no such field, or ``names`` is empty or repeats one.
    """
    if not names:
        raise TypeError(f"replacer: name each field of {cls.__name__} to replace once, not {names!r}")
    return _make_replacer(cls, names)


def _make_replacer(cls: type[T], names: tuple[str, ...]) -> Callable[..., T]:
    """:func:`replacer`, and the copy :func:`replace` keeps per class and names (``names`` may be empty here)."""
    plan = _plan_of(cls)
    fields = attrs.fields(cls)  # type: ignore[arg-type]  # _plan checked that cls is an attrs class
    known = {f.name: i for i, f in enumerate(fields)} | {f.alias: i for i, f in enumerate(fields)}
    for name in names:
        if name not in known:
            raise TypeError(f"{cls.__name__} has no field {name!r} (fields: {', '.join(f.name for f in fields)})")
    where = [known[name] for name in names]
    if len(set(where)) != len(where):
        raise TypeError(f"replacer: name each field of {cls.__name__} to replace once, not {names!r}")
    if plan is None:
        return lambda obj, *values: attrs.evolve(obj, **dict(zip(names, values, strict=True)))

    def other(obj: T, *values: object) -> T:  # an instance of a subclass keeps its class
        return replace(obj, **dict(zip(names, values, strict=True)))

    if _speedups is not None and plan.slots is not None:
        compiled: Callable[..., T] = _speedups.Replacer(
            cls, plan.slots, [plan.slots[k] for k in where], plan.hash_slot, other
        )
        return compiled
    return _python_replacer(cls, plan, where, other)


def _python_replacer(cls: type[T], plan: _Plan, where: list[int], other: Callable[..., T]) -> Callable[..., T]:
    """The pure-Python copy of :func:`replacer` (the fields at positions ``where`` replaced)."""
    if not plan.positional or not where:
        names = tuple(plan.names[k] for k in where)
        return lambda obj, *values: _replace_python(obj, dict(zip(names, values, strict=True)))
    make: Callable[..., T] = cls
    kind: type = cls
    every = plan.values
    if len(where) == 2:  # two fields, the other common case: no loop over the values
        first, second = where

        def two(obj: T, a: object, b: object) -> T:
            if type(obj) is not kind:
                return other(obj, a, b)
            current = list(every(obj))
            current[first] = a
            current[second] = b
            return make(*current)

        return two
    if len(where) > 1:

        def several(obj: T, *values: object) -> T:
            if type(obj) is not kind:
                return other(obj, *values)
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

        def last(obj: T, value: object) -> T:
            return make(*head(obj), value) if type(obj) is kind else other(obj, value)

        return last
    if not before:

        def first_field(obj: T, value: object) -> T:
            return make(value, *tail(obj)) if type(obj) is kind else other(obj, value)

        return first_field

    def middle(obj: T, value: object) -> T:
        return make(*head(obj), value, *tail(obj)) if type(obj) is kind else other(obj, value)

    return middle


def accelerate(cls: type[T]) -> type[T]:
    """Give the slotted attrs class ``cls`` a compiled ``__init__``, ``__eq__`` and ``__hash__`` (when
    :data:`COMPILED`) and return the class.

    The compiled ``__init__`` takes attrs' own arguments (positional and keyword, by the fields' aliases;
    keyword-only fields; constant and factory defaults) and does what attrs' generated one does: stores each field
    in order, empties a cached hash, runs the validators (unless ``attrs.validators.set_disabled(True)``) and then
    ``__attrs_post_init__``. A wrong call raises ``TypeError`` as attrs' does (the wording differs). Its
    ``__wrapped__`` is attrs' ``__init__``, so ``inspect.signature(cls)`` is unchanged.

    ``__eq__`` is compiled where attrs generated it and no field has an ``eq`` key function: the same fields
    compared in order with ``==`` (the first false result, else the last, as attrs' ``and`` chain). ``__hash__``
    is compiled on the same terms and only for ``cache_hash=True`` classes: a hash of the hashed fields, kept in
    the hash cache. The hash's value
    differs from attrs' own, which, like every ``str`` hash, differs from one process to the next anyway.

    Use it as a decorator above ``@attrs.frozen`` on the classes rule code builds most often; without the
    accelerator it checks the class and leaves it as it is.

    Raises:
        TypeError: when ``cls`` is not an attrs class with attrs' generated ``__init__``, keeps a ``__dict__``, or
            has a field with a converter, a field left out of ``__init__`` or an ``__attrs_pre_init__``.
    """
    fields, specs, hash_slot, validators = _init_spec(cls)
    if _speedups is None or isinstance(cls.__init__, _speedups.Init):
        return cls
    post_init = hasattr(cls, "__attrs_post_init__")
    init = _speedups.Init(
        cls, specs, hash_slot, validators or None, attrs.validators.get_disabled, post_init, cls.__init__
    )
    setattr(cls, "__init__", init)  # noqa: B010  # mypy refuses assigning to a method
    # A field compared through a key function keeps attrs' own methods (``eq_key`` is not in attrs' type stubs).
    if any(getattr(f, "eq_key", None) is not None for f in fields):
        return cls
    if _attrs_made(cls, "__eq__"):
        compared = [_slot(cls, f.name) for f in fields if f.eq]
        setattr(cls, "__eq__", _speedups.Eq(cls, compared, cls.__eq__))  # noqa: B010  # as above
    # The compiled hash pays only where a hash is cached (``cache_hash=True``: the values search memoizes on), over
    # 3x there and under 1.1x on the other classes, so those keep attrs' own (``make bench`` measures both).
    if _attrs_made(cls, "__hash__") and hash_slot is not None:
        hashed = [_slot(cls, f.name) for f in fields if f.hash is True or (f.hash is None and f.eq)]
        salt = hash(f"{cls.__module__}.{cls.__qualname__}")
        setattr(cls, "__hash__", _speedups.Hash(cls, hashed, hash_slot, salt, cls.__hash__))  # noqa: B010
    return cls


def _attrs_made(cls: type, name: str) -> bool:
    """Whether ``cls`` itself has the method ``name`` that attrs generated for it."""
    code = getattr(cls.__dict__.get(name), "__code__", None)
    return code is not None and code.co_filename.startswith("<attrs generated")


def _init_spec(
    cls: type,
) -> tuple[tuple[attrs.Attribute[Any], ...], list[tuple[Any, ...]], Any, tuple[tuple[int, Any, Any], ...]]:
    """The fields of ``cls`` and what its compiled ``__init__`` needs: each field's (slot, alias, kw_only,
    has_default, default, factory, takes_self), the hash cache's slot (or ``None``) and the validators as (index,
    validator, attribute)."""
    name = getattr(cls, "__qualname__", repr(cls))
    if not attrs.has(cls):
        raise TypeError(f"accelerate: {name} is not an attrs class")
    init = cls.__dict__.get("__init__", None)
    if _speedups is not None and isinstance(init, _speedups.Init):
        init = init.__wrapped__
    code = getattr(init, "__code__", None)
    if code is None or not code.co_filename.startswith("<attrs generated"):
        raise TypeError(f"accelerate: {name} must keep the __init__ attrs generates for it")
    if cls.__dictoffset__:
        raise TypeError(f"accelerate: {name} is not slotted (its instances keep a __dict__)")
    if hasattr(cls, "__attrs_pre_init__"):
        raise TypeError(f"accelerate: {name} has an __attrs_pre_init__")
    fields = attrs.fields(cls)
    specs: list[tuple[Any, ...]] = []
    validators: list[tuple[int, Any, Any]] = []
    for i, f in enumerate(fields):
        if not f.init or f.converter is not None:
            raise TypeError(f"accelerate: {name}.{f.name} has a converter or is left out of __init__")
        slot = _slot(cls, f.name)
        if slot is None:
            raise TypeError(f"accelerate: {name}.{f.name} is not a slot")
        default = f.default
        has_default = default is not attrs.NOTHING
        factory = default.factory if isinstance(default, attrs.Factory) else None  # type: ignore[arg-type]  # attrs.Factory is a class at run time
        takes_self = bool(factory is not None and default.takes_self)
        specs.append((slot, f.alias, f.kw_only, has_default, None if factory else default, factory, takes_self))
        if f.validator is not None:
            validators.append((i, f.validator, f))
    cached = any(_HASH_CACHE in getattr(k, "__slots__", ()) for k in cls.__mro__)
    return tuple(fields), specs, _slot(cls, _HASH_CACHE) if cached else None, tuple(validators)


def _tuple_getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    if not names:
        return lambda obj: ()
    (only,) = names
    return lambda obj: (getattr(obj, only),)


if _speedups is not None:
    # The compiled replace: the replacer of (class, names) from _REPLACERS, made by _make_replacer on a miss (which
    # raises TypeError for an unknown name, as the pure path does), called with the values as they arrived.
    replace = _speedups.Replace(_REPLACERS, _make_replacer)  # the same function, compiled
