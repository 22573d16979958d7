"""JSON serialization of states and actions through one private cattrs converter.

A document is ``{"format": "tabletop-rules", "version": 1, "type": TAG, "data": {...}}``, where ``TAG`` is the
value's class tag. Every attrs class that can be serialized as a state, or that is a member of a union, declares a
stable ``TAG: ClassVar[str]`` (never derived from ``__name__``, so renaming a class keeps old files readable).

Structuring is strict: wrong types, unknown keys or tags, non-finite or huge numbers, truncated text and values
that break a class's validators all raise :class:`~tabletop_core.errors.StateFormatError`; a state is returned only
when it was built whole and passed the game's ``validate_state``. Primitives are exact: ``bool`` is not ``int``
(``true`` is no ``1``), an ``int`` field takes no float (``1.0`` is refused), no string is coerced (``"1"``,
``"false"``, ``"nan"``), floats are finite and integers lie within +-2**53; enums load from their values.

Sizes are bounded before any work is done: a document is refused (``StateFormatError`` naming the place, as a path
like ``$.data.pending.frames[2]``) when it is longer than :data:`MAX_BYTES`, nests deeper than :data:`MAX_DEPTH`,
or holds a list longer than :data:`MAX_LIST`, an object with more than :data:`MAX_KEYS` keys or a string longer
than :data:`MAX_STRING`. The check is one pass over the parsed JSON, before anything is structured; each game's
``validate_state`` then checks every count and index against its content before expanding any of them.
"""

from __future__ import annotations

import enum
import json
import math
import operator
import re
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, Union, get_args, get_origin

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn

from tabletop_core.errors import StateFormatError

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_KEYS",
    "MAX_LIST",
    "MAX_STRING",
    "action_from_json",
    "check_sizes",
    "from_json",
    "parse_json",
    "state_from_json",
    "structure",
    "tag_of",
    "to_json",
    "unstructure",
]

FORMAT = "tabletop-rules"
FORMAT_VERSION = 1
TAG_KEY = "$type"
#: Integers beyond this magnitude are rejected as hostile (no game counts that high).
MAX_INT = 2**53
#: The longest document (in bytes of UTF-8, or characters of text) read at all.
MAX_BYTES = 4 * 2**20
#: The deepest nesting of lists and objects (a saved state nests about 10 deep).
MAX_DEPTH = 32
#: The longest list (a record of the longest Runebound game holds about 60,000 action ids).
MAX_LIST = 2**17
#: The most keys of one object.
MAX_KEYS = 256
#: The longest string (names, labels, paths).
MAX_STRING = 4096
MAX_TEXT = MAX_BYTES  # the former name
#: Records of each flat class kept built for reuse (:func:`_flat_fields`: a game's cards, positions, options).
FLAT_CACHE = 4096


S = TypeVar("S")
A = TypeVar("A")


def tag_of(cl: object) -> str | None:
    """The stable tag a class declares (``TAG`` in its own body), or ``None``."""
    origin = cl if isinstance(cl, type) else get_origin(cl)  # a plain class needs no typing lookup
    if not isinstance(origin, type):
        return None
    tag = origin.__dict__.get("TAG")
    return tag if isinstance(tag, str) else None


def _is_union(t: object) -> bool:
    return get_origin(t) in (Union, types.UnionType)


def _has_attrs(t: object) -> bool:
    origin = get_origin(t) or t
    return isinstance(origin, type) and attrs.has(origin)


_ONLY_INT = frozenset({int})
_WANTED = {
    int: f"int (an integer within +-2**{MAX_INT.bit_length() - 1})",
    float: "float (a finite number)",
    str: "str",
    bool: "bool (true or false)",
}


def _enum(t: type[enum.Enum], value: object) -> Any:
    if type(value) is t:  # already the member (unstructure leaves str- and int-based members as they are)
        return value
    if type(value) not in (int, str):
        raise TypeError(f"expected a {t.__name__} value, got {_short(value)}")
    return t(value)


def _strict(kind: type, check: Callable[[Any], bool]) -> Callable[[Any, Any], Any]:
    """An exact hook for one primitive. cattrs dispatches a class to the hook registered for the nearest class in
    its MRO, so an ``IntEnum`` or ``(str, Enum)`` field arrives here too: it goes on to the enum's own lookup."""

    def hook(value: Any, t: object) -> Any:  # Any: a JSON number, its type checked before float() reads it
        if t is not kind:
            if isinstance(t, type) and issubclass(t, enum.Enum):
                return _enum(t, value)
            raise TypeError(f"cannot structure {t!r}, a subclass of {kind.__name__}")
        if not check(value):
            raise TypeError(f"expected {_WANTED[kind]}, got {type(value).__name__} {_short(value)}")
        return float(value) if kind is float else value

    # The commonest cases answered first, with no further call: an int, bool or str field given one in bounds.
    if kind is int:

        def int_hook(value: object, t: object) -> Any:
            if type(value) is int and t is int and -MAX_INT <= value <= MAX_INT:
                return value
            return hook(value, t)

        return int_hook
    if kind is bool or kind is str:

        def exact_hook(value: object, t: object) -> Any:
            if type(value) is kind and t is kind:
                return value
            return hook(value, t)

        return exact_hook
    return hook


#: The field types a flat record holds (:func:`_flat_fields`).
_FLAT = (int, bool, str)


def _flat_fields(t: object) -> tuple[tuple[str, ...], tuple[type, ...]] | None:
    """The names and types of the fields of ``t`` when it is a plain frozen attrs class (compared by value) whose
    every field is an ``int``, ``bool`` or ``str`` that ``__init__`` takes by position (a card, a position, a
    token), else ``None``: such a record is structured in one step from its object, and equal records are one
    shared instance (see :func:`_make_converter`)."""
    if not isinstance(t, type) or not attrs.has(t):
        return None
    fields = attrs.fields(t)
    if any(isinstance(a.type, str) for a in fields):  # postponed annotations: resolved as cattrs resolves them
        attrs.resolve_types(t)
        fields = attrs.fields(t)
    if not fields or any(not a.init or a.kw_only or a.type not in _FLAT for a in fields):
        return None
    props = attrs.inspect(t)
    if not (props.is_frozen and props.added_eq):  # a record shared between states must be an immutable value
        return None
    return tuple(a.name for a in fields), tuple(a.type for a in fields)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _make_converter(detailed: bool) -> cattrs.Converter:
    """The converter; ``detailed`` collects every error with its place (slower), else the first error stops it
    and the sequence hooks are compiled per item type (the fast path :func:`structure` tries first)."""
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=detailed)
    # Exact primitives: bool is not int, no float where an int is declared, no string coercion, finite floats,
    # |int| <= MAX_INT. They must be class hooks (register_structure_hook): cattrs consults its class dispatch,
    # where its own int/float/str/bool handlers live, before any predicate hook, so predicate hooks never ran.
    primitives: dict[type, Callable[[Any], bool]] = {
        int: lambda v: type(v) is int and -MAX_INT <= v <= MAX_INT,
        float: lambda v: type(v) in (int, float) and math.isfinite(v) and abs(v) <= MAX_INT,
        str: lambda v: type(v) is str,
        bool: lambda v: type(v) is bool,
    }
    for kind, check in primitives.items():
        conv.register_structure_hook(kind, _strict(kind, check))

    def is_enum(t: object) -> bool:
        return isinstance(t, type) and issubclass(t, enum.Enum)

    def enum_hook(t: type[enum.Enum]) -> Callable[[Any, Any], Any]:
        def hook(value: object, _t: object) -> Any:
            return _enum(t, value)

        return hook

    # Plain Enum subclasses (no int/str base) are not in the class dispatch at all: this factory serves them.
    conv.register_structure_hook_factory(is_enum, enum_hook)

    def is_seq(t: object) -> bool:
        return get_origin(t) in (tuple, frozenset) or t in (tuple, frozenset)

    def item_hook(item: Any) -> Callable[[Any], Any]:  # Any: a type form (a union, a tuple), which is no ``type``
        """One item's structuring, compiled on first use (a factory may not ask for a hook it is building)."""
        check = primitives.get(item)
        if check is not None and not detailed:
            is_float = item is float

            def prim(v: Any) -> Any:  # Any: a JSON value, its type checked before float() reads it
                if not check(v):
                    raise TypeError(f"expected {_WANTED[item]}, got {type(v).__name__} {_short(v)}")
                return float(v) if is_float else v

            return prim
        if detailed:
            return lambda v: conv.structure(v, item)
        found: list[Callable[[Any, Any], Any]] = []

        def nested(v: object) -> Any:
            if not found:
                found.append(conv.get_structure_hook(item))
            return found[0](v, item)

        return nested

    def seq_hook(t: object) -> Callable[[Any, Any], Any]:
        origin = get_origin(t) or t
        args = get_args(t)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if item is int and not detailed:  # the commonest list: counts, ids, logs

                def ints(value: object, _t: object) -> Any:
                    if type(value) is not list:
                        raise TypeError(f"expected a list, got {_short(value)}")
                    # Checked at C speed: every item's exact type is int (no bool), then the bounds.
                    if value and (
                        not _ONLY_INT.issuperset(map(type, value)) or min(value) < -MAX_INT or max(value) > MAX_INT
                    ):
                        bad = next(v for v in value if type(v) is not int or not -MAX_INT <= v <= MAX_INT)
                        raise TypeError(f"expected {_WANTED[int]}, got {type(bad).__name__} {_short(bad)}")
                    return tuple(value)

                return ints
            if (item is bool or item is str) and not detailed:  # flags (a side's tokens), names
                only = frozenset({item})

                def exact_items(value: object, _t: object) -> Any:
                    if type(value) is not list:
                        raise TypeError(f"expected a list, got {_short(value)}")
                    if not only.issuperset(map(type, value)):  # at C speed: every item of exactly that type
                        bad = next(v for v in value if type(v) is not item)
                        raise TypeError(f"expected {_WANTED[item]}, got {type(bad).__name__} {_short(bad)}")
                    return tuple(value)

                return exact_items
            row = get_args(item) if get_origin(item) is tuple else ()
            if row and all(a is int for a in row) and not detailed:  # pairs of ints: a pile's (card, copies)
                width = len(row)

                def int_rows(value: object, _t: object) -> Any:
                    if type(value) is not list:
                        raise TypeError(f"expected a list, got {_short(value)}")
                    out = []
                    for r in value:
                        if type(r) is not list or len(r) != width:
                            raise TypeError(f"expected a list of {width} items, got {_short(r)}")
                        for v in r:
                            if type(v) is not int or not -MAX_INT <= v <= MAX_INT:
                                raise TypeError(f"expected {_WANTED[int]}, got {type(v).__name__} {_short(v)}")
                        out.append(tuple(r))
                    return tuple(out)

                return int_rows
            if detailed or item in primitives:
                one = item_hook(item)

                def hom(value: object, _t: object) -> Any:
                    if type(value) is not list:
                        raise TypeError(f"expected a list, got {_short(value)}")
                    return tuple([one(v) for v in value])

                return hom
            items: list[Callable[[Any, Any], Any]] = []  # the item's hook, found on first use

            def hom_items(value: object, _t: object) -> Any:
                if type(value) is not list:
                    raise TypeError(f"expected a list, got {_short(value)}")
                if not items:
                    items.append(conv.get_structure_hook(item))
                h = items[0]
                return tuple([h(v, item) for v in value])

            return hom_items
        if origin is tuple:
            if not args:
                raise TypeError("bare tuple annotations cannot be structured; give item types")
            each = [item_hook(a) for a in args]
            n = len(args)

            def het(value: object, _t: object) -> Any:
                if type(value) is not list or len(value) != n:
                    raise TypeError(f"expected a list of {n} items, got {_short(value)}")
                return tuple([h(v) for h, v in zip(each, value, strict=True)])

            return het
        one_item = item_hook(args[0] if args else Any)

        def fset(value: object, _t: object) -> Any:
            if type(value) is not list:
                raise TypeError(f"expected a list, got {_short(value)}")
            return frozenset([one_item(v) for v in value])

        return fset

    conv.register_structure_hook_factory(is_seq, seq_hook)

    def unstructure_frozenset(value: frozenset[Any]) -> list[Any]:
        items = [conv.unstructure(v) for v in value]
        return sorted(items, key=lambda x: json.dumps(x, sort_keys=True))

    def is_frozenset(t: object) -> bool:
        return t is frozenset or get_origin(t) is frozenset

    conv.register_unstructure_hook_factory(is_frozenset, lambda _t: unstructure_frozenset)

    def unstructure_tuple(value: tuple[Any, ...]) -> list[Any]:
        return [conv.unstructure(v) for v in value]

    def is_tuple(t: object) -> bool:
        return t is tuple or get_origin(t) is tuple

    def tuple_unstructure(t: object) -> Callable[[Any], Any]:
        args = get_args(t)
        if args and all(a in primitives or a is Ellipsis for a in args):
            return list  # ints, strings, bools and floats are their own JSON
        if len(args) == 2 and args[1] is Ellipsis and get_origin(args[0]) is tuple:
            inner = get_args(args[0])
            if inner and all(a in primitives or a is Ellipsis for a in inner):
                return lambda value: [list(r) for r in value]
        if len(args) == 2 and args[1] is Ellipsis and _has_attrs(args[0]):
            item = args[0]
            found: list[Callable[[Any], Any]] = []

            def attrs_items(value: tuple[Any, ...]) -> list[Any]:
                if not found:
                    found.append(conv.get_unstructure_hook(item))
                h = found[0]
                # A subclass of the declared class unstructures by its own class, as the generic path does.
                return [h(v) if type(v) is item else conv.unstructure(v) for v in value]

            return attrs_items
        if len(args) == 2 and args[1] is Ellipsis and is_tuple(args[0]) and get_args(args[0]):
            inner_type = args[0]  # rows of a declared kind (a stack per District): each by the rows' own hook
            rows: list[Callable[[Any], Any]] = []

            def tuple_rows(value: tuple[Any, ...]) -> list[Any]:
                if not rows:
                    rows.append(conv.get_unstructure_hook(inner_type))
                h = rows[0]
                return [h(v) if type(v) is tuple else conv.unstructure(v) for v in value]

            return tuple_rows
        return unstructure_tuple

    conv.register_unstructure_hook_factory(is_tuple, tuple_unstructure)

    def is_tagged(t: object) -> bool:
        return _has_attrs(t) and tag_of(t) is not None

    def tagged_unstructure(t: type) -> Callable[[Any], Any]:
        base: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(t, conv)
        tag = tag_of(t)

        def hook(value: object) -> Any:
            out = base(value)
            out[TAG_KEY] = tag
            return out

        return hook

    def flat_structure(t: type, tag: str | None, base: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any] | None:
        """A flat record's hook (:func:`_flat_fields`), or ``None`` for another class. An object holding every
        field once (and the tag, if the class has one), each of exactly its type (an int within bounds), is
        passed to the class by position, as the per-field hooks would pass it; anything else goes to ``base``
        (defaults, or the error).

        Built records are kept, keyed by their fields (at most :data:`FLAT_CACHE` of a class; then the store is
        emptied): a saved game holds the same few cards, positions and options again and again, and a frozen value
        built once serves every equal one. The key's types are checked to be the fields' own before it is looked
        up, so ``True`` and ``1`` never meet in one key; a record is stored only once built (its validators run),
        so an error is never kept.
        """
        flat = _flat_fields(t)
        if flat is None:
            return None
        names, kinds = flat
        built: dict[tuple[Any, ...], Any] = {}
        size = len(names) + (tag is not None)
        pick = operator.itemgetter(*names) if len(names) > 1 else lambda value: (value[names[0]],)
        ints = [i for i, k in enumerate(kinds) if k is int]

        def flat_hook(value: object, _t: object) -> Any:
            # Every field present and the object that size: no other key (the tag is checked when declared).
            if type(value) is dict and len(value) == size and (tag is None or value.get(TAG_KEY) == tag):
                try:
                    args = pick(value)
                except KeyError:
                    return base(value, t)
                if tuple(map(type, args)) == kinds:
                    made = built.get(args)
                    if made is not None:  # the same fields built before: in bounds then, so now
                        return made
                    for i in ints:
                        if not -MAX_INT <= args[i] <= MAX_INT:
                            return base(value, t)
                    made = t(*args)
                    if len(built) >= FLAT_CACHE:
                        built.clear()
                    built[args] = made
                    return made
            if type(value) is not dict or (tag is not None and value.get(TAG_KEY) != tag):
                raise TypeError(f"expected an object tagged {tag!r}, got {_short(value)}")
            return base(value, t)

        return flat_hook

    def tagged_structure(t: type) -> Callable[[Any, Any], Any]:
        tag = tag_of(t)
        if not detailed:
            # The keys are checked here, the tag among them, so the body needs no copy without its tag.
            fast: Callable[[Any, Any], Any] = make_dict_structure_fn(t, conv, _cattrs_forbid_extra_keys=False)
            origin = get_origin(t) or t
            keys = frozenset({a.name for a in attrs.fields(origin) if a.init} | {TAG_KEY})  # as cattrs names them

            def fast_hook(value: object, _t: object) -> Any:
                if type(value) is not dict or value.get(TAG_KEY) != tag or not keys.issuperset(value):
                    raise TypeError(f"expected an object tagged {tag!r} with fields of {sorted(keys)}")
                return fast(value, t)

            return flat_structure(t, tag, fast_hook) or fast_hook
        base: Callable[[Any, Any], Any] = make_dict_structure_fn(t, conv, _cattrs_forbid_extra_keys=True)

        def hook(value: object, _t: object) -> Any:
            if type(value) is not dict:
                raise TypeError(f"expected an object tagged {tag!r}, got {_short(value)}")
            if value.get(TAG_KEY) != tag:
                raise TypeError(f"expected tag {tag!r}, got {_short(value.get(TAG_KEY))}")
            body = {k: v for k, v in value.items() if k != TAG_KEY}
            return base(body, t)

        return hook

    conv.register_unstructure_hook_factory(is_tagged, tagged_unstructure)
    conv.register_structure_hook_factory(is_tagged, tagged_structure)

    def untagged_structure(t: type) -> Callable[[Any, Any], Any]:
        base: Callable[[Any, Any], Any] = make_dict_structure_fn(t, conv, _cattrs_forbid_extra_keys=True)

        def hook(value: object, _t: object) -> Any:
            if type(value) is not dict:
                raise TypeError(f"expected an object, got {_short(value)}")
            return base(value, t)

        return (None if detailed else flat_structure(t, None, hook)) or hook

    conv.register_structure_hook_factory(lambda t: _has_attrs(t) and tag_of(t) is None, untagged_structure)

    def union_structure(t: object) -> Callable[[Any, Any], Any]:
        members = get_args(t)
        optional = type(None) in members
        rest = [m for m in members if m is not type(None)]
        if len(rest) == 1:
            only = rest[0]
            if detailed:

                def opt(value: object, _t: object) -> Any:
                    return None if value is None else conv.structure(value, only)

                return opt
            found: list[Callable[[Any, Any], Any]] = []  # the member's hook, found on first use

            def opt_fast(value: object, _t: object) -> Any:
                if value is None:
                    return None
                if not found:
                    found.append(conv.get_structure_hook(only))
                return found[0](value, only)

            return opt_fast
        if all(_has_attrs(m) for m in rest):
            table: dict[str, Any] = {}
            for m in rest:
                tag = tag_of(m)
                if tag is None or tag in table:
                    raise TypeError(f"union member {m!r} needs its own unique TAG class variable")
                table[tag] = m

            def by_tag(value: object, _t: object) -> Any:
                if value is None and optional:
                    return None
                if type(value) is not dict:
                    raise TypeError(f"expected a tagged object, got {_short(value)}")
                tag = value.get(TAG_KEY)
                if tag not in table:
                    raise TypeError(f"unknown tag {_short(tag)} (known: {sorted(table)})")
                return conv.structure(value, table[tag])

            return by_tag
        if all(m in (int, str, float, bool) for m in rest):

            def prim(value: object, _t: object) -> Any:
                if value is None and optional:
                    return None
                for m in rest:
                    if type(value) is m or (m is float and type(value) is int):
                        return conv.structure(value, m)
                raise TypeError(f"expected one of {[m.__name__ for m in rest]}, got {_short(value)}")

            return prim
        raise TypeError(f"cannot structure union {t!r}: mix attrs classes and primitives in separate fields")

    conv.register_structure_hook_factory(_is_union, union_structure)
    return conv


_CONVERTER = _make_converter(detailed=True)
_FAST = _make_converter(detailed=False)


def unstructure(value: object) -> Any:
    """A JSON-ready form of an attrs value (tagged classes carry their tag)."""
    return _FAST.unstructure(value)


def structure(data: object, cl: Any) -> Any:  # Any: a type form (a union, a tuple), which is no ``type``
    """Build a value of type ``cl`` from its JSON-ready form; any defect raises ``StateFormatError``.

    The fast converter (first error stops it) runs first; on any failure the detailed one runs again on the same
    data to name every defect and its place, so the errors are the same either way.
    """
    try:
        return _FAST.structure(data, cl)
    except Exception:  # the detailed converter below names the defect (or, should it accept, returns)
        pass
    try:
        return _CONVERTER.structure(data, cl)
    except RecursionError as exc:
        raise StateFormatError("input nested too deeply") from exc
    except Exception as exc:  # cattrs raises exception groups and hook errors; all mean malformed input
        raise StateFormatError(f"malformed {getattr(cl, '__name__', cl)}: {_describe(exc)}") from exc


def _describe(exc: BaseException) -> str:
    if isinstance(exc, cattrs.BaseValidationError):
        return "; ".join(cattrs.transform_error(exc, format_exception=_format_leaf))[:2000]
    return f"{type(exc).__name__}: {exc}"[:2000]


def _format_leaf(exc: BaseException, _type: object) -> str:
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unknown fields {sorted(exc.extra_fields)}"
    return f"{type(exc).__name__}: {exc}"


def to_json(value: object) -> str:
    """Serialize a state or an action (any tagged attrs value) to a JSON document.

    >>> from tabletop_core.testing.kuhn import GAME
    >>> state = GAME.new_game(seed=3)
    >>> from_json(GAME, to_json(state)) == state
    True
    """
    tag = tag_of(type(value))
    if tag is None:
        raise TypeError(f"to_json: {type(value).__name__} declares no TAG; only tagged states and actions serialize")
    doc = {"format": FORMAT, "version": FORMAT_VERSION, "type": tag, "data": unstructure(value)}
    return _ENCODER.encode(doc)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-finite number {name} is not allowed")


# Built once: json.dumps and json.loads with options build a new encoder or decoder on every call. No circular
# check: an unstructured value is made of fresh lists and dicts from immutable attrs values, never cyclic.
_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, check_circular=False)
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str) -> int:
    """The offset of the first bracket that opens past :data:`MAX_DEPTH` (strings skipped), or -1."""
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif token in "]}":
            depth -= 1
    return -1


def check_sizes(value: object, where: str = "$", *, strings: bool = True) -> None:
    """Refuse parsed JSON that nests deeper than :data:`MAX_DEPTH` or holds a list, object or string past its
    bound, in one pass (an explicit stack: no recursion), before anything is structured from it.

    >>> check_sizes({"a": [[[]]]})
    >>> check_sizes({"a": ["x" * 5000]})
    Traceback (most recent call last):
    ...
    tabletop_core.errors.StateFormatError: $.a[0]: a string of 5000 characters (at most 4096)

    ``strings=False`` skips the string lengths, for JSON parsed from text no longer than :data:`MAX_STRING`
    (no string in it can be longer).

    Raises:
        StateFormatError: naming the first place (a path such as ``$.data.stacks[3]``) that breaks a bound.
    """
    # One pass without paths (most documents pass); only a document that breaks a bound is walked again, by
    # _locate, to name the place.
    if type(value) is str:
        if strings and len(value) > MAX_STRING:
            _locate(value, where)
        return
    level: list[Any] = [value] if type(value) in (list, dict) else []
    depth = 0
    while level:  # the containers at one depth, then those inside them
        if depth >= MAX_DEPTH:
            _locate(value, where)
        inner: list[Any] = []
        push = inner.append
        for item in level:
            if type(item) is list:
                if len(item) > MAX_LIST:
                    _locate(value, where)
                values: Any = item
            else:
                if len(item) > MAX_KEYS or (strings and any(len(k) > MAX_STRING for k in item)):
                    _locate(value, where)
                values = item.values()
            if len(values) > _SHORT:  # a long list holds numbers, mostly: its kinds are taken at C speed
                kinds = set(map(type, values))
                if strings and str in kinds and any(type(v) is str and len(v) > MAX_STRING for v in values):
                    _locate(value, where)
                if list in kinds or dict in kinds:
                    inner.extend([v for v in values if type(v) is list or type(v) is dict])
            elif strings:
                for v in values:
                    if type(v) is list or type(v) is dict:
                        push(v)
                    elif type(v) is str and len(v) > MAX_STRING:
                        _locate(value, where)
            else:  # a short one (a record's fields, a stack), looked at value by value: no set is built
                for v in values:
                    if type(v) is list or type(v) is dict:
                        push(v)
        level = inner
        depth += 1


#: Containers up to this long are looked at value by value in :func:`check_sizes`, longer ones by their set of kinds.
_SHORT = 32


def _locate(value: object, where: str) -> None:
    """Raise the :func:`check_sizes` error for the first place in ``value`` that breaks a bound, with its path."""
    stack: list[tuple[Any, str, int]] = [(value, where, 0)]
    while stack:
        item, path, depth = stack.pop()
        kind = type(item)
        if kind is str:
            if len(item) > MAX_STRING:
                raise StateFormatError(f"{path}: a string of {len(item)} characters (at most {MAX_STRING})")
            continue
        if kind is not list and kind is not dict:
            continue
        if depth >= MAX_DEPTH:
            raise StateFormatError(f"{path}: nested too deeply (past {MAX_DEPTH} lists and objects)")
        if kind is list:
            if len(item) > MAX_LIST:
                raise StateFormatError(f"{path}: a list of {len(item)} items (at most {MAX_LIST})")
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item))
            continue
        if len(item) > MAX_KEYS:
            raise StateFormatError(f"{path}: an object of {len(item)} keys (at most {MAX_KEYS})")
        for k, v in item.items():
            if len(k) > MAX_STRING:
                raise StateFormatError(f"{path}: a key of {len(k)} characters (at most {MAX_STRING})")
            stack.append((v, f"{path}.{k}" if k.isidentifier() else f"{path}[{_short(k)}]", depth + 1))
    raise AssertionError("check_sizes found a bound broken that _locate did not")  # pragma: no cover


def parse_json(text: str | bytes, *, max_bytes: int = MAX_BYTES, strings: bool = False) -> Any:
    """Parse any JSON text within the bounds of :func:`check_sizes`: at most ``max_bytes``, nested at most
    :data:`MAX_DEPTH` deep, no ``NaN`` or ``Infinity``; every failure is a :class:`StateFormatError`.

    ``strings`` also bounds each string (:data:`MAX_STRING`); without it strings are bounded by ``max_bytes`` only.

    >>> parse_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> parse_json("[" * 100000)
    Traceback (most recent call last):
    ...
    tabletop_core.errors.StateFormatError: JSON nested too deeply (past 32 at character 32)
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > max_bytes:
            raise StateFormatError(f"JSON of {len(text)} bytes is too large (at most {max_bytes})")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateFormatError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    if len(text) > max_bytes:
        raise StateFormatError(f"JSON of {len(text)} characters is too large (at most {max_bytes})")
    where = _too_deep_at(text)
    if where >= 0:
        raise StateFormatError(f"JSON nested too deeply (past {MAX_DEPTH} at character {where})")
    try:
        doc = _DECODER.decode(text)
    except RecursionError:
        raise StateFormatError(f"JSON nested too deeply (past {MAX_DEPTH})") from None
    except ValueError as exc:  # JSONDecodeError, int digit limits, non-finite constants
        raise StateFormatError(f"not valid JSON: {exc}") from None
    check_sizes(doc, strings=strings)
    return doc


def parse_document(text: str | bytes, expected_format: str = FORMAT) -> dict[str, Any]:
    """Parse and check a document's size (see :func:`check_sizes`) and envelope (format, version).

    Raises:
        StateFormatError: for text that is not UTF-8 JSON, is too large or too deep, or has another envelope.
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_BYTES:
            raise StateFormatError(f"document of {len(text)} bytes is too large (at most {MAX_BYTES})")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateFormatError(f"document is not UTF-8: {exc}") from exc
    if not isinstance(text, str):
        raise StateFormatError(f"expected JSON text, got {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise StateFormatError(f"document of {len(text)} characters is too large (at most {MAX_BYTES})")
    try:
        doc = _DECODER.decode(text)
    except RecursionError as exc:
        where = _too_deep_at(text)
        raise StateFormatError(f"document nested too deeply (past {MAX_DEPTH} at character {where})") from exc
    except ValueError as exc:  # JSONDecodeError, int digit limits, non-finite constants
        raise StateFormatError(f"not valid JSON: {exc}") from exc
    check_sizes(doc, strings=len(text) > MAX_STRING)
    if type(doc) is not dict:
        raise StateFormatError("document must be a JSON object")
    if doc.get("format") != expected_format:
        raise StateFormatError(f"not a {expected_format} document (format {_short(doc.get('format'))})")
    if type(doc.get("version")) is not int or doc.get("version") != FORMAT_VERSION:  # true == 1 in Python
        raise StateFormatError(
            f"document version {_short(doc.get('version'))} is not supported (this library reads {FORMAT_VERSION})"
        )
    return doc


def from_json(game: Game[S, A, Any], text: str | bytes) -> Any:
    """Read a state or action of ``game`` written by :func:`to_json` (typed as ``Any``, since it may be either;
    :func:`state_from_json` and :func:`action_from_json` read one kind and are typed by the game).

    Raises:
        StateFormatError: for malformed, hostile, truncated or foreign input; nothing half-built is returned.
    """
    return _read(game, text)[1]


def state_from_json(game: Game[S, A, Any], text: str | bytes) -> S:
    """Read a state of ``game`` written by :func:`to_json`, checked by the game's invariants.

    Raises:
        StateFormatError: as :func:`from_json`, or when the document holds an action.
    """
    kind, value = _read(game, text)
    if kind != "state":
        raise StateFormatError(f"document holds an action of {game.spec.short_name}, not a state")
    state: S = value
    return state


def action_from_json(game: Game[S, A, Any], text: str | bytes) -> A:
    """Read an action of ``game`` written by :func:`to_json`.

    Raises:
        StateFormatError: as :func:`from_json`, or when the document holds a state.
    """
    kind, value = _read(game, text)
    if kind != "action":
        raise StateFormatError(f"document holds a state of {game.spec.short_name}, not an action")
    action: A = value
    return action


def _read(game: Game[Any, Any, Any], text: str | bytes) -> tuple[str, Any]:
    doc = parse_document(text)
    if set(doc) != {"format", "version", "type", "data"}:
        raise StateFormatError(f"document keys must be format, version, type, data; got {sorted(doc)}")
    tag = doc["type"]
    if tag == tag_of(game.state_type):
        state = structure(doc["data"], game.state_type)
        check_state(game, state)
        return "state", state
    action_types = get_args(game.action_type) if _is_union(game.action_type) else (game.action_type,)
    for cl in action_types:
        if tag == tag_of(cl):
            return "action", structure(doc["data"], cl)
    raise StateFormatError(f"document holds {_short(tag)}, which is not a state or action of {game.spec.short_name}")


def check_state(game: Game[S, Any, Any], state: S) -> None:
    """Run the game's checks of a loaded state (``validate_loaded``); any failure is a ``StateFormatError``."""
    try:
        game.validate_loaded(state)
        player = game.current_player(state)
        legal = game.legal_actions(state)
        if not legal and not game.is_terminal(state):
            raise ValueError(f"player {player} has no legal action in a non-terminal state")
    except StateFormatError:
        raise
    except Exception as exc:  # any failure of the rules on this input means the input is inconsistent
        raise StateFormatError(f"{game.spec.short_name}: inconsistent state: {type(exc).__name__}: {exc}") from exc
