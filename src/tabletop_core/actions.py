"""Declared action spaces: stable integer ids computed from the action classes, never typed in by hand.

Each action class declares the values each of its fields may take, in id order, as a ClassVar ``FIELD_RANGES``
(``(name, values)`` pairs; ``values`` a ``range`` or a tuple such as ``(False, True)`` or a tuple of symbols). An
:class:`ActionSpace` lays the classes out one after another: a class's ids start where the previous class's end,
and within a class the id is a mixed-radix number of the field positions (the first field most significant). So
adding a class at the end, or widening the last one, shifts no id; a game whose records store ids keeps them by
keeping its classes and ranges in order.

A range may reserve more values than the class accepts (ids kept free for later verbs): ``from_id`` of a reserved
id raises :class:`~tabletop_core.errors.IllegalActionError`, as the class's own validator refuses the value.

>>> @attrs.frozen
... class Pass:
...     FIELD_RANGES: ClassVar = ()
>>> @attrs.frozen
... class Flip:
...     FIELD_RANGES: ClassVar = (("target", range(3)), ("tactics", (False, True)))
...     target: int
...     tactics: bool
>>> space = ActionSpace((Pass, Flip))
>>> space.size, space.base(Flip), space.id_of(Flip(2, True)), space.from_id(4)
(7, 1, 6, Flip(target=1, tactics=True))
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from tabletop_core.errors import IllegalActionError

__all__ = ["KNOWN_IDS", "MAX_ACTION_TEXT", "ActionSpace", "action_text"]

A = TypeVar("A")

#: The longest text :func:`action_text` accepts (no action's notation comes near it).
MAX_ACTION_TEXT = 1000
#: How many action objects an :class:`ActionSpace` remembers the ids of (emptied when full).
KNOWN_IDS = 4096


def action_text(game: str, text: object) -> str:
    """``text`` itself when it can be an action's notation: what every ``parse_action`` checks first.

    >>> action_text("kuhn", "Bet")
    'Bet'
    >>> action_text("kuhn", None)
    Traceback (most recent call last):
    ...
    tabletop_core.errors.IllegalActionError: kuhn: an action is read from a str, not NoneType None

    Raises:
        IllegalActionError: when ``text`` is not a ``str`` (``None``, bytes, a number) or is longer than
            :data:`MAX_ACTION_TEXT` characters.
    """
    if type(text) is not str:
        raise IllegalActionError(f"{game}: an action is read from a str, not {type(text).__name__} {text!r:.40}")
    if len(text) > MAX_ACTION_TEXT:
        raise IllegalActionError(f"{game}: {len(text)} characters is no action (at most {MAX_ACTION_TEXT})")
    return text


@attrs.frozen
class _Layout:
    cls: type
    base: int
    size: int
    names: tuple[str, ...]
    values: tuple[Sequence[Any], ...]
    strides: tuple[int, ...]


def _layout(cls: type, base: int) -> _Layout:
    declared = getattr(cls, "FIELD_RANGES", None)
    fields = tuple(f.name for f in attrs.fields(cls)) if attrs.has(cls) else None
    if fields is None:
        raise ValueError(f"action space: {cls.__name__} is not an attrs class")
    if declared is None:
        if fields:
            raise ValueError(f"action space: {cls.__name__} declares no FIELD_RANGES for its fields {fields}")
        declared = ()
    names = tuple(name for name, _ in declared)
    if sorted(names) != sorted(fields):
        raise ValueError(f"action space: {cls.__name__}.FIELD_RANGES names {names}, but its fields are {fields}")
    values = tuple(tuple(v) if not isinstance(v, range) else v for _, v in declared)
    for name, vals in zip(names, values, strict=True):
        if not vals or len(set(vals)) != len(vals) or (isinstance(vals, range) and vals.step != 1):
            raise ValueError(f"action space: {cls.__name__}.{name} needs a non-empty range or distinct values")
    strides = []
    stride = 1
    for vals in reversed(values):
        strides.append(stride)
        stride *= len(vals)
    return _Layout(cls, base, stride, names, values, tuple(reversed(strides)))


class ActionSpace(Generic[A]):
    """Ids for every instance of the given action classes, dense in ``range(size)`` and ordered by class, then field.

    Args:
        classes: the action classes in id order; each declares ``FIELD_RANGES`` (a class without fields may omit it).
        name: what the errors call this space (e.g. ``"unrest decisions"``).

    Raises:
        ValueError: when a class is not attrs, repeats, or declares ranges that do not match its fields.
    """

    __slots__ = ("_bases", "_by_class", "_known", "_layouts", "name", "size")

    def __init__(self, classes: Iterable[type[Any]], *, name: str = "actions") -> None:
        classes = tuple(classes)
        if not classes or len(set(classes)) != len(classes):
            raise ValueError(f"{name}: the action classes must be non-empty and distinct")
        layouts = []
        base = 0
        for cls in classes:
            layout = _layout(cls, base)
            layouts.append(layout)
            base += layout.size
        self.name = name
        self.size = base
        self._layouts = tuple(layouts)
        self._bases = tuple(layout.base for layout in layouts)
        self._by_class = {layout.cls: layout for layout in layouts}
        # The ids of the action objects asked about lately, by identity: a game hands out the same action objects
        # again and again (its listed actions are built once), and a search asks the id of each one it expands.
        # Each entry holds its action, so the identity it is keyed by cannot be reused while it is kept; bounded.
        self._known: dict[int, tuple[A, int]] = {}

    def __repr__(self) -> str:
        parts = ", ".join(f"{lay.cls.__name__}@{lay.base}+{lay.size}" for lay in self._layouts)
        return f"ActionSpace({self.name!r}: {parts}; size {self.size})"

    @property
    def classes(self) -> tuple[type[Any], ...]:
        """The action classes, in id order."""
        return tuple(layout.cls for layout in self._layouts)

    def base(self, cls: type[Any]) -> int:
        """The first id of ``cls``."""
        return self._by_class[cls].base

    def ids(self, cls: type[Any]) -> range:
        """Every id of ``cls``."""
        layout = self._by_class[cls]
        return range(layout.base, layout.base + layout.size)

    def id_of(self, action: A) -> int:
        """The id of ``action`` (remembered by the object's identity, a bounded memo of a pure function).

        Raises:
            IllegalActionError: when ``action`` is not of a class of this space or a field is outside its range.
        """
        known = self._known.get(id(action))
        if known is not None and known[0] is action:
            return known[1]
        i = self._id_of(action)
        if len(self._known) >= KNOWN_IDS:
            self._known.clear()
        self._known[id(action)] = (action, i)
        return i

    def _id_of(self, action: A) -> int:
        """The id of ``action``, computed from its fields (see :meth:`id_of`)."""
        layout = self._by_class.get(type(action))
        if layout is None:
            raise IllegalActionError(f"{self.name}: {action!r} is not an action of this space")
        i = layout.base
        for name, vals, stride in zip(layout.names, layout.values, layout.strides, strict=True):
            value = getattr(action, name)
            try:
                i += vals.index(value) * stride
            except ValueError:
                raise IllegalActionError(f"{self.name}: {action!r} has {name}={value!r} outside {vals!r}") from None
        return i

    def from_id(self, action_id: int) -> A:
        """The action with id ``action_id``.

        Raises:
            IllegalActionError: when the id is not an int in ``range(size)`` or names a reserved, invalid value.
        """
        if type(action_id) is not int or not 0 <= action_id < self.size:
            raise IllegalActionError(f"{self.name}: no action with id {action_id!r} (ids 0..{self.size - 1})")
        layout = self._layouts[bisect.bisect_right(self._bases, action_id) - 1]
        rest = action_id - layout.base
        kwargs = {}
        for name, vals, stride in zip(layout.names, layout.values, layout.strides, strict=True):
            kwargs[name], rest = vals[rest // stride], rest % stride
        try:
            action: A = layout.cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"{self.name}: id {action_id} is reserved ({layout.cls.__name__}: {exc})") from exc
        return action

    def sorted(self, actions: Iterable[A]) -> tuple[A, ...]:
        """``actions`` sorted by id (what ``legal_actions`` returns)."""
        return tuple(sorted(actions, key=self.id_of))
