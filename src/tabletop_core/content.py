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

import enum
import functools
import hashlib
import math
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Generic, Literal, Protocol, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ForbiddenExtraKeysError

from tabletop_core.errors import ContentError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "PACK_NAME",
    "SOURCES",
    "ContentReader",
    "PackRef",
    "PackStore",
    "Pinned",
    "Source",
    "check_pack_name",
    "content_digest",
    "pack_name",
    "package_file",
    "parse_toml",
    "read_text",
    "read_toml",
    "refuse",
]

T = TypeVar("T")

#: Where an entry's facts come from: stated in the rulebook, a public fact about the printed game, or authored
#: here because the published text is not available.
Source = Literal["rulebook", "public", "standin"]
#: The allowed values of an entry's ``source``.
SOURCES: tuple[str, ...] = get_args(Source)
#: The largest data file the reader opens (a content file is a few kilobytes; this bounds a hostile one).
MAX_BYTES = 4 * 1024 * 1024
#: The deepest nesting of arrays and inline tables a data file may have (content nests two or three deep; a
#: deeper file is refused before the TOML parser, which recurses, sees it).
MAX_DEPTH = 32

_TOML_TOKEN = re.compile(
    r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]', re.S
)


def _too_deep_at(text: str) -> int:
    """The line of the first bracket opening past :data:`MAX_DEPTH` (strings and comments skipped), or 0."""
    depth = 0
    for match in _TOML_TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, match.start()) + 1
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return 0


File = Path | Traversable


def package_file(package: str, name: str) -> Traversable:
    """The data file ``name`` shipped inside ``package`` (read with :func:`read_toml`)."""
    return resources.files(package).joinpath(name)


def read_text(file: File | str, *, max_bytes: int = MAX_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    A path is opened without blocking (a named pipe or a device never stalls the read) and checked to be a regular
    file on the open descriptor itself, so nothing can be swapped in between the check and the read.

    Raises:
        ContentError: when the file is missing, not a regular file, too large or not UTF-8 (entry and field ``-``).
    """
    path = Path(file) if isinstance(file, str) else file
    label = str(path)
    if isinstance(path, Path):
        data = _read_regular(path, label, max_bytes)
    else:
        if not path.is_file():
            raise ContentError(label, "-", "-", "not a regular file")
        try:
            with path.open("rb") as handle:
                data = handle.read(max_bytes + 1)
        except OSError as exc:
            raise ContentError(label, "-", "-", f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise ContentError(label, "-", "-", f"larger than {max_bytes} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(label, "-", "-", f"not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    line = _too_deep_at(text)
    if line:
        raise ContentError(label, "-", "-", f"arrays or inline tables nested deeper than {MAX_DEPTH} (line {line})")
    return text


def _read_regular(path: Path, label: str, max_bytes: int) -> bytes:
    def refused(_path: str, problem: str) -> Exception:
        if problem.startswith("not a regular file"):
            problem = "not a regular file"
        return ContentError(label, "-", "-", problem)

    # Read one byte past the bound so that read_text names the size; the core's bounded reader does the rest.
    from tabletop_core.files import read_regular

    try:
        return read_regular(path, max_bytes=max_bytes + 1, error=refused)
    except ContentError as exc:
        if "larger than" in str(exc):
            raise ContentError(label, "-", "-", f"larger than {max_bytes} bytes") from None
        raise


def read_toml(file: File | str, *, max_bytes: int = MAX_BYTES) -> dict[str, Any]:
    """The TOML document in ``file`` (see :func:`read_text` for what is refused).

    Raises:
        ContentError: as :func:`read_text`, or for a TOML syntax error (its line and column in the problem).
    """
    return parse_toml(read_text(file, max_bytes=max_bytes), str(file))


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """The TOML document ``text`` (from ``file``), nested at most :data:`MAX_DEPTH` deep.

    >>> parse_toml("a = " + "[" * 5000 + "]" * 5000, "pack.toml")
    Traceback (most recent call last):
    ...
    tabletop_core.errors.ContentError: pack.toml: entry '-', field '-': arrays or inline tables nested deeper ...

    Raises:
        ContentError: for a TOML syntax error (its line and column in the problem) or nesting past the bound.
    """
    line = _too_deep_at(text)
    if line:
        raise ContentError(file, "-", "-", f"arrays or inline tables nested deeper than {MAX_DEPTH} (line {line})")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "-", "-", f"bad TOML: {exc}") from None
    except RecursionError:
        raise ContentError(file, "-", "-", "nested too deeply") from None


# ----- strict primitives ------------------------------------------------------------------------------------------


def _member(value: object, kind: type[enum.Enum]) -> Any:
    """An ``IntEnum``/``StrEnum`` field (dispatched here by its ``int``/``str`` base): a member by its value."""
    if type(value) not in (int, str):
        raise TypeError(f"expected a {kind.__name__} value, got {value!r}")
    return kind(value)


def _int(value: object, _type: object) -> int:
    if _type is not int and isinstance(_type, type) and issubclass(_type, enum.Enum):
        number: int = _member(value, _type)
        return number
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _float(value: object, _type: object) -> float:
    if (type(value) is not int and type(value) is not float) or not math.isfinite(value):
        raise TypeError(f"expected a finite number, got {value!r}")
    return float(value)


def _str(value: object, _type: object) -> str:
    if _type is not str and isinstance(_type, type) and issubclass(_type, enum.Enum):
        member: str = _member(value, _type)
        return member
    if type(value) is not str:
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _bool(value: object, _type: object) -> bool:
    if type(value) is not bool:
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _source(value: object, _type: object) -> str:
    if value not in SOURCES or type(value) is not str:
        raise ValueError(f"{value!r} is not one of {SOURCES}")
    return str(value)


def _is_hom_tuple(t: object) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _list_hook(conv: cattrs.Converter, t: Any) -> Callable[[Any, Any], Any]:  # Any: tuple[X, ...], a type form
    """A ``tuple[X, ...]`` field takes a TOML array only (a string or a table is not iterated), item by item with
    the index of each bad item."""
    item = get_args(t)[0]

    def hook(value: object, _t: object) -> tuple[Any, ...]:
        if type(value) is not list:
            raise TypeError(f"expected an array, got {type(value).__name__} {value!r}"[:120])
        out: list[Any] = []
        errors: list[Exception] = []
        for i, v in enumerate(value):
            try:
                out.append(conv.structure(v, item))
            except Exception as exc:  # every item's problem is collected and located by index
                exc.add_note(cattrs.IterableValidationNote(f"Structuring {t} @ index {i}", i, item))
                errors.append(exc)
        if errors:
            raise cattrs.IterableValidationError(f"While structuring {t!r}", errors, t)
        return tuple(out)

    return hook


# ----- errors, located ----------------------------------------------------------------------------------------------


def _problems(
    exc: BaseException, path: str, cls: type | None = None, located: bool = False
) -> Iterator[tuple[str, str]]:
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


def _validated_field(exc: BaseException, cls: type | None) -> str | None:
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


def refuse(field: str, problem: str, cls: type = object) -> cattrs.ClassValidationError:
    """The error a structure hook raises to refuse ``field`` (dotted) of the value it builds; the reader locates it
    under the hook's own position (``gain[0]`` + ``.n``).

    >>> @attrs.frozen
    ... class Die:
    ...     sides: int
    >>> def die(value: object, _t: object) -> Die:
    ...     if value.get("sides") not in (4, 6, 8):
    ...         raise refuse("sides", "a die has 4, 6 or 8 sides")
    ...     return Die(value["sides"])
    >>> ContentReader({Die: die}).structure({"sides": 5}, Die, file="dice.toml", entry="d5")
    Traceback (most recent call last):
    ...
    tabletop_core.errors.ContentError: dice.toml: entry 'd5', field 'sides': a die has 4, 6 or 8 sides
    """
    exc = ValueError(problem)
    exc.add_note(cattrs.AttributeValidationNote(f"Structuring {cls.__name__} @ attribute {field}", field, Any))
    return cattrs.ClassValidationError(f"while structuring {cls.__name__}", [exc], cls)


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
        conv.register_structure_hook_factory(_is_hom_tuple, lambda t: _list_hook(conv, t))
        for kind, hook in (hooks or {}).items():
            conv.register_structure_hook(kind, hook)
        self.converter = conv

    def structure(self, data: object, cls: type[T], *, file: str, entry: str) -> T:
        """One entry of ``file`` as ``cls``.

        Raises:
            ContentError: naming ``file``, ``entry`` and the (first) offending field.
        """
        if not isinstance(data, Mapping):
            raise ContentError(file, entry, "-", f"expected a table, got {type(data).__name__} {data!r}")
        try:
            return self.converter.structure(data, cls)
        except RecursionError:
            raise ContentError(file, entry, "-", "nested too deeply") from None
        except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as exc:
            found = list(_problems(exc, "", cls if attrs.has(cls) else None))
            field, problem = found[0] if found else ("-", str(exc))
            more = f" (and {len(found) - 1} more problem(s))" if len(found) > 1 else ""
            raise ContentError(file, entry, field or "-", problem + more) from exc

    def entries(
        self, doc: Mapping[str, Any], key: str, cls: type[T], *, file: str, id_field: str = "name", unique: bool = True
    ) -> tuple[T, ...]:
        """The array of tables ``doc[key]`` (``[[key]]`` in TOML), each entry as ``cls``.

        Entries are named in errors by their ``id_field`` (when it is a non-blank string) or as ``key[i]``. With
        ``unique``, two entries with the same id are refused. A missing ``key`` gives no entries.

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
            entry = ident if isinstance(ident, str) and ident.strip() else f"{key}[{i}]"
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


# ----- packs: named by name and SHA-256, never by a path a document gives ----------------------------------------

#: What a custom pack's name may be: a short word (letters, digits, ``_``, ``.``, ``-``), so a name in a saved game
#: can never be mistaken for a path.
PACK_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_SHA256 = re.compile(r"[0-9a-f]{64}")


def content_digest(texts: Mapping[str, str]) -> str:
    """The SHA-256 that pins a pack: over its files' roles (``heroes.toml``) and UTF-8 texts, in role order.

    The digest does not depend on where the files were read from, only on what they hold.

    >>> content_digest({"a.toml": "x = 1"}) == content_digest({"a.toml": "x = 1"})
    True
    >>> content_digest({"a.toml": "x = 1"}) == content_digest({"a.toml": "x = 2"})
    False
    """
    h = hashlib.sha256()
    for role in sorted(texts):
        for part in (role.encode("utf-8"), texts[role].encode("utf-8")):
            h.update(len(part).to_bytes(8, "big"))
            h.update(part)
    return h.hexdigest()


def pack_name(text: str) -> str:
    """``text`` made into a pack name (a file's stem, say): characters outside :data:`PACK_NAME` become ``_``.

    >>> pack_name("my pack (v2)")
    'my_pack__v2_'
    """
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "_", text)[:64]
    return cleaned or "pack"


def check_pack_name(name: object) -> str:
    """``name`` if it is a pack name (:data:`PACK_NAME`).

    Raises:
        ValueError: it is not (a path, an empty or an overlong string); the message shows at most 40 characters.
    """
    if type(name) is not str or not PACK_NAME.fullmatch(name):
        shown = repr(name) if len(repr(name)) <= 40 else repr(name)[:37] + "..."
        raise ValueError(f"{shown} is not a pack name (1-64 letters, digits, '_', '.', '-'; never a path)")
    return name


@attrs.frozen
class PackRef:
    """How a saved game names the pack it was made with: the pack's name and the SHA-256 of its content.

    Written as ``name@sha256`` where one string holds both (see :meth:`parse`).
    """

    name: str
    sha256: str

    def __str__(self) -> str:
        return f"{self.name}@{self.sha256}"

    @classmethod
    def parse(cls, text: str) -> PackRef:
        """Read ``name@sha256``.

        Raises:
            ValueError: ``text`` is not a pack name and a SHA-256 (64 lowercase hex digits) joined by ``@``.
        """
        name, at, digest = text.partition("@") if type(text) is str else ("", "", "")
        if not at or not _SHA256.fullmatch(digest):
            shown = repr(text) if len(repr(text)) <= 40 else repr(text)[:37] + "..."
            raise ValueError(f"{shown} is not a pack reference (name@sha256)")
        return cls(check_pack_name(name), digest)


class Pinned(Protocol):
    """A content pack as a :class:`PackStore` holds it: it knows its name and the SHA-256 of its content."""

    @property
    def name(self) -> str:
        """The pack's name."""
        ...

    @property
    def sha256(self) -> str:
        """The SHA-256 of the pack's content (:func:`content_digest`)."""
        ...


P = TypeVar("P", bound=Pinned)


class PackStore(Generic[P]):
    """The content packs a game can play: its built-in pack, and the packs callers have handed over.

    A saved game or a record names its pack by name and SHA-256 (:class:`PackRef`); loading it looks the pair up
    here and never opens a file, so a document cannot make the library read anything. A caller adds a pack by
    passing the pack object (read from a file the caller chose) to ``new_game``/``make_options`` or to
    :meth:`add`. The store is content-addressed: a name with a SHA-256 always names the same immutable pack, so
    adding a pack never changes what an existing game plays; it only makes one more pack available. Asking for a
    name with a SHA-256 the store does not hold is refused with a :class:`~tabletop_core.errors.ContentError`
    saying whether the pack is unknown or has changed since the game began.

    Args:
        game: the game's short name (in messages).
        builtin_name: the built-in pack's name (a document naming it needs no SHA-256).
        builtin: returns the built-in pack (called once, on first use).
    """

    __slots__ = ("_builtin", "_by_ref", "_latest", "builtin_name", "game")

    def __init__(self, game: str, builtin_name: str, builtin: Callable[[], P]) -> None:
        self.game, self.builtin_name = game, builtin_name
        self._builtin = functools.cache(builtin)
        self._by_ref: dict[tuple[str, str], P] = {}
        self._latest: dict[str, str] = {}

    def builtin(self) -> P:
        """The built-in pack."""
        return self._builtin()

    def add(self, pack: P) -> PackRef:
        """Make ``pack`` available under its name and SHA-256; the reference a game's options then hold.

        Raises:
            ContentError: the pack's name is the built-in pack's, or not a pack name.
        """
        try:
            name = check_pack_name(pack.name)
        except ValueError as exc:
            raise ContentError(f"<{self.game} pack>", "-", "name", str(exc)) from None
        if name == self.builtin_name:
            raise ContentError(name, "-", "name", f"{name!r} is the built-in pack's name; give the pack another")
        if not _SHA256.fullmatch(pack.sha256):
            raise ContentError(name, "-", "sha256", "a pack carries the SHA-256 of its content")
        self._by_ref.setdefault((name, pack.sha256), pack)
        self._latest[name] = pack.sha256
        return PackRef(name, pack.sha256)

    def named(self, name: str) -> PackRef:
        """The reference of the pack last added under ``name``.

        Raises:
            ContentError: no pack of that name was added.
        """
        digest = self._latest.get(name)
        if digest is None:
            raise self._unknown(name, "")
        return PackRef(name, digest)

    def get(self, name: str, sha256: str = "") -> P:
        """The pack ``name`` with content ``sha256`` (the built-in pack by its name alone).

        Raises:
            ContentError: the store holds no such pack: unknown, or changed since the game that names it began.
        """
        if name == self.builtin_name:
            pack = self.builtin()
            if sha256 in ("", pack.sha256):
                return pack
            raise ContentError(
                name, "-", "sha256", f"the built-in {self.game} pack is not the one this game was made with"
            )
        found = self._by_ref.get((name, sha256))
        if found is not None:
            return found
        raise self._unknown(name, sha256)

    def _unknown(self, name: str, sha256: str) -> ContentError:
        shown = name if len(name) <= 40 else name[:37] + "..."
        latest = self._latest.get(name)
        if latest is not None and sha256:
            return ContentError(
                shown,
                "-",
                "sha256",
                f"the pack changed since this game began: it was made with SHA-256 {sha256[:12]}..., the pack "
                f"{shown!r} given to this process has {latest[:12]}...",
            )
        return ContentError(
            shown,
            "-",
            "-",
            f"unknown {self.game} pack (packs are never read from a path a document names: load the pack file "
            f"and pass the pack to new_game, or add it to the game's pack store)",
        )
