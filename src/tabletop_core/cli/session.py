"""A saved game at the table: its record so far plus who sits where, as one JSON document.

>>> from tabletop_core.records import Record
>>> session = Session("unrest", Record("unrest", {"variant": "standard"}, 5, (1, 2), None), ("human", "heuristic"))
>>> Session.from_json(session.to_json()) == session
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from tabletop_core.errors import StateFormatError, TabletopError
from tabletop_core.records import RECORD_FORMAT, Record

__all__ = ["SESSION_FORMAT", "Session", "read_text"]

SESSION_FORMAT = "tabletop-rules/session"
_VERSION = 1
#: No saved game or record is anywhere near this size; a bigger file is not one of ours.
_MAX_BYTES = 8 * 1024 * 1024


def read_text(path: str) -> str:
    """The text of a file the user named, or one clear :class:`TabletopError` saying why it cannot be read."""
    file = Path(path)
    try:
        if file.is_dir():
            raise TabletopError(f"{path}: is a directory, not a saved game or record")
        if file.stat().st_size > _MAX_BYTES:
            raise TabletopError(f"{path}: too large ({file.stat().st_size} bytes) for a saved game or record")
        return file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TabletopError(f"{path}: no such file") from None
    except PermissionError:
        raise TabletopError(f"{path}: permission denied") from None
    except UnicodeDecodeError:
        raise TabletopError(f"{path}: not a text file (not UTF-8), so not a saved game or record") from None
    except OSError as exc:
        raise TabletopError(f"{path}: cannot read: {exc.strerror or exc}") from None


@attrs.frozen
class Session:
    """A game at the table, saved: the name it was loaded by, its record (options, seed, every action so far) and
    each seat's spec (``human`` or a bot spec such as ``heuristic``).

    Attributes:
        game: the name :func:`tabletop_core.registry.load_game` loads it by.
        record: the game so far (``returns`` is ``None`` until it ends).
        seats: one spec per seat.
    """

    game: str
    record: Record
    seats: tuple[str, ...]

    def to_json(self) -> str:
        """The session as a JSON document (format ``tabletop-rules/session``)."""
        doc = {
            "format": SESSION_FORMAT,
            "version": _VERSION,
            "game": self.game,
            "seats": list(self.seats),
            "record": json.loads(self.record.to_json()),
        }
        return json.dumps(doc, indent=1)

    @classmethod
    def from_json(cls, text: str, source: str = "the file") -> Session:
        """Read a session; a plain record (``tabletop play --record``) reads as a session of bots only.

        Raises:
            StateFormatError: anything else, named with ``source``.
        """
        try:
            doc: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateFormatError(f"{source}: not JSON ({exc.msg} at line {exc.lineno})") from None
        if not isinstance(doc, dict):
            raise StateFormatError(f"{source}: not a saved game (a JSON object was expected)")
        if doc.get("format") == RECORD_FORMAT:
            record = _record(doc, source)
            return cls(record.game, record, ())
        if doc.get("format") != SESSION_FORMAT:
            raise StateFormatError(f"{source}: not a saved game or record of tabletop-rules")
        if doc.get("version") != _VERSION:
            raise StateFormatError(f"{source}: saved game version {doc.get('version')!r}, this version reads 1")
        game, seats = doc.get("game"), doc.get("seats")
        if not isinstance(game, str) or not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise StateFormatError(f"{source}: a saved game needs a game name and a list of seats")
        return cls(game, _record(doc.get("record"), source), tuple(seats))


def _record(doc: Any, source: str) -> Record:
    try:
        return Record.from_json(json.dumps(doc))
    except (StateFormatError, TypeError, ValueError) as exc:
        raise StateFormatError(f"{source}: broken game record: {exc}") from None
