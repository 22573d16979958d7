"""The one content reader: TOML data files structured by cattrs into each game's attrs schema classes.

A game declares its card data as frozen attrs classes (the schema) and reads its files through a
:class:`ContentReader`. The reader refuses unknown keys, takes primitives strictly (an integer field wants a TOML
integer, never the string ``"5"`` or ``true``), and turns every cattrs structuring error, and every ``ValueError``
or ``TypeError`` raised by a schema validator or a game's own hook, into a
:class:`~tabletop_core.errors.ContentError` naming the file, the entry and the field (dotted, with list indices).
Files come from the game's package (:func:`package_file`, through ``importlib.resources``) or from a caller-given
path; only regular files of at most :data:`MAX_BYTES` are read, as UTF-8.

>>> @attrs.frozen
... class Card:
...     name: str
...     cost: int = attrs.field(validator=attrs.validators.ge(0))
...     source: Source = "standin"
>>> reader = ContentReader()
>>> doc = {"card": [{"name": "Spark", "cost": 2}, {"name": "Ember", "cost": "3"}]}
>>> reader.entries(doc, "card", Card, file="cards.toml")
Traceback (most recent call last):
...
tabletop_core.errors.ContentError: cards.toml: entry 'Ember', field 'cost': expected an integer, got '3'
>>> reader.entries({"card": [{"name": "Spark", "cost": 2}]}, "card", Card, file="cards.toml")
(Card(name='Spark', cost=2, source='standin'),)
"""

from __future__ import annotations

import math
import os
import stat
import tomllib
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError

from tabletop_core.errors import ContentError

__all__ = [
    "MAX_BYTES",
    "SOURCES",
    "ContentReader",
    "Source",
    "package_file",
    "read_text",
    "read_toml",
]

T = TypeVar("T")

#: Where an entry's facts come from: stated in the rulebook, a public fact about the printed game, or authored
#: here because the published text is not available.
Source = Literal["rulebook", "public", "standin"]
#: The allowed values of an entry's ``source``.
SOURCES: tuple[str, ...] = get_args(Source)
#: The largest data file the reader opens (a content file is a few kilobytes; this bounds a hostile one).
MAX_BYTES = 4 * 1024 * 1024

File = Path | Traversable


def package_file(package: str, name: str) -> Traversable:
    """The data file ``name`` shipped inside ``package`` (read with :func:`read_toml`)."""
    return resources.files(package).joinpath(name)


def read_text(file: File | str, *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    Raises:
        ContentError: when the file is missing, not a regular file, too large or not UTF-8 (entry and field ``-``).
    """
    path = Path(file) if isinstance(file, str) else file
    label = str(path)
    if isinstance(path, Path):
        try:
            mode = os.stat(path).st_mode
        except OSError as exc:
            raise ContentError(label, "-", "-", f"cannot read: {exc.strerror or exc}") from None
        if not stat.S_ISREG(mode):
            raise ContentError(label, "-", "-", "not a regular file")
    elif not path.is_file():
        raise ContentError(label, "-", "-", "not a regular file")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ContentError(label, "-", "-", f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise ContentError(label, "-", "-", f"larger than {max_bytes} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(label, "-", "-", f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None


def read_toml(file: File | str, *, max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """The TOML document in ``file`` (see :func:`read_text` for what is refused).

    Raises:
        ContentError: as :func:`read_text`, or for a TOML syntax error (its line and column in the problem).
    """
    text = read_text(file, max_bytes=max_bytes)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(str(file), "-", "-", f"bad TOML: {exc}") from None


# ----- strict primitives ------------------------------------------------------------------------------------------


def _int(value: Any, _type: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _float(value: Any, _type: Any) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise TypeError(f"expected a finite number, got {value!r}")
    return float(value)


def _str(value: Any, _type: Any) -> str:
    if type(value) is not str:
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _bool(value: Any, _type: Any) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _source(value: Any, _type: Any) -> str:
    if value not in SOURCES or type(value) is not str:
        raise ValueError(f"{value!r} is not one of {SOURCES}")
    return str(value)


# ----- errors, located ----------------------------------------------------------------------------------------------


def _problems(exc: BaseException, path: str, cls: Any = None, located: bool = False) -> Iterator[tuple[str, str]]:
    """Every leaf problem of a (nested) cattrs error, with the dotted path to the field it is about.

    ``cls`` is the attrs class being built where ``exc`` arose; ``located`` says a cattrs note already named the
    field (the path ends with it).
    """
    if isinstance(exc, ForbiddenExtraKeysError):
        allowed = sorted(f.alias for f in attrs.fields(exc.cl)) if attrs.has(exc.cl) else []
        for key in sorted(exc.extra_fields):
            yield _join(path, key), f"unknown field (allowed: {allowed})"
        return
    if isinstance(exc, cattrs.BaseValidationError):
        inner = getattr(exc, "cl", None)
        built = inner if isinstance(inner, type) and attrs.has(inner) else None
        for sub in exc.exceptions:
            step = _step(sub, path)
            yield from _problems(sub, step, built, step != path)
        return
    message = str(exc.args[0]) if len(exc.args) == 1 else str(exc)
    if isinstance(exc, AttributeError) and "keys" in message:  # a table was wanted: cattrs called .keys()
        yield path, f"expected a table, got {message.split(chr(39))[1] if chr(39) in message else 'a value'}"
        return
    if located:
        yield path, "missing" if isinstance(exc, KeyError) else message
        return
    if isinstance(exc, KeyError) and exc.args:
        yield _join(path, str(exc.args[0])), "missing"
        return
    field = _validated_field(exc, cls)
    if field is not None:
        yield _join(path, field), message if len(exc.args) < 2 else str(exc.args[0])
        return
    yield path, message


def _validated_field(exc: BaseException, cls: Any) -> str | None:
    """The field an attrs validator refused, from its arguments (``(message, attribute, ...)``) or from the
    ``'name' must ...`` form of attrs' own messages; ``None`` when neither names a field of ``cls``."""
    if len(exc.args) > 1 and isinstance(exc.args[1], attrs.Attribute):
        return str(exc.args[1].alias or exc.args[1].name)
    text = str(exc.args[0]) if exc.args else ""
    if cls is not None and text.startswith("'") and "'" in text[1:]:
        name = text[1 : text.index("'", 1)]
        for f in attrs.fields(cls):
            if name in (f.name, f.alias):
                return str(f.alias or f.name)
    return None


def _step(exc: BaseException, path: str) -> str:
    for note in getattr(exc, "__notes__", ()):
        if isinstance(note, cattrs.AttributeValidationNote):
            return _join(path, note.name)
        if isinstance(note, cattrs.IterableValidationNote):
            return f"{path}[{note.index}]"
    return path


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


# ----- the reader ---------------------------------------------------------------------------------------------------


class ContentReader:
    """Structures content documents into attrs schema classes with located errors.

    Args:
        hooks: extra structure hooks ``{type: fn(value, type) -> object}`` for a game's own value types (a face
            written ``"2P*"``, a token ``"A/B"``); a hook raises ``ValueError``/``TypeError`` to refuse a value and
            the reader locates it. Schema validators are located when they are attrs' own or raise
    ``ValueError(message, attribute, ...)`` as attrs' do (or start their message with the quoted field name).

    The converter refuses unknown keys, reports the first problem of an entry (and how many more it found), and
    reads ``int``, ``float``, ``str`` and ``bool`` strictly (a float field accepts a TOML integer; nothing else is
    coerced). ``converter`` is the underlying ``cattrs.Converter``, for hooks registered later.
    """

    __slots__ = ("converter",)

    def __init__(self, hooks: Mapping[Any, Callable[[Any, Any], Any]] | None = None) -> None:
        conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
        conv.register_structure_hook(int, _int)
        conv.register_structure_hook(float, _float)
        conv.register_structure_hook(str, _str)
        conv.register_structure_hook(bool, _bool)
        conv.register_structure_hook_func(lambda t: t == Source, _source)  # Literal: no class to dispatch on
        for kind, hook in (hooks or {}).items():
            conv.register_structure_hook(kind, hook)
        self.converter = conv

    def structure(self, data: Any, cls: type[T], *, file: str, entry: str) -> T:
        """One entry of ``file`` as ``cls``.

        Raises:
            ContentError: naming ``file``, ``entry`` and the (first) offending field.
        """
        if not isinstance(data, Mapping):
            raise ContentError(file, entry, "-", f"expected a table, got {type(data).__name__} {data!r}")
        try:
            return self.converter.structure(data, cls)
        except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
            found = list(_problems(exc, "", cls if attrs.has(cls) else None))
            field, problem = found[0] if found else ("-", str(exc))
            more = f" (and {len(found) - 1} more problem(s))" if len(found) > 1 else ""
            raise ContentError(file, entry, field or "-", problem + more) from exc

    def entries(
        self, doc: Mapping[str, Any], key: str, cls: type[T], *, file: str, id_field: str = "name", unique: bool = True
    ) -> tuple[T, ...]:
        """The array of tables ``doc[key]`` (``[[key]]`` in TOML), each entry as ``cls``.

        Entries are named in errors by their ``id_field`` (when it is a string) or as ``key[i]``. With ``unique``,
        two entries with the same id are refused. A missing ``key`` gives no entries.

        Raises:
            ContentError: for a bad entry, a repeated id, or a ``key`` that is not an array of tables.
        """
        rows = doc.get(key, [])
        if not isinstance(rows, list):
            raise ContentError(file, key, "-", f"expected an array of [[{key}]] tables, got {type(rows).__name__}")
        out: list[T] = []
        seen: set[str] = set()
        for i, row in enumerate(rows):
            ident = row.get(id_field) if isinstance(row, Mapping) else None
            entry = ident if isinstance(ident, str) else f"{key}[{i}]"
            if unique and isinstance(ident, str):
                if ident in seen:
                    raise ContentError(file, entry, id_field, "appears twice")
                seen.add(ident)
            out.append(self.structure(row, cls, file=file, entry=entry))
        return tuple(out)

    def check_keys(self, doc: Mapping[str, Any], allowed: tuple[str, ...], *, file: str) -> None:
        """Refuse top-level keys of ``doc`` outside ``allowed`` (a file holds only its declared tables).

        Raises:
            ContentError: naming the first unknown key.
        """
        extra = sorted(set(doc) - set(allowed))
        if extra:
            raise ContentError(file, extra[0], "-", f"unknown table (allowed: {list(allowed)})")
