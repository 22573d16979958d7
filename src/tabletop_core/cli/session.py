"""A saved game at the table: its record so far plus who sits where, as one JSON document.

>>> from tabletop_core.records import Record
>>> session = Session("unrest", Record("unrest", {"variant": "standard"}, 5, (1, 2), None), ("human", "heuristic"))
>>> Session.from_json(session.to_json()) == session
True
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from tabletop_core.errors import StateFormatError
from tabletop_core.files import read_regular
from tabletop_core.records import RECORD_FORMAT, Record
from tabletop_core.serialize import MAX_BYTES, parse_json

__all__ = ["MAX_FILE_BYTES", "SESSION_FORMAT", "Session", "read_text"]

SESSION_FORMAT = "tabletop-rules/session"
_VERSION = 1
#: The largest saved game or record read (the serializer's own bound: no game of ours comes near it).
MAX_FILE_BYTES = MAX_BYTES


def _refused(path: str, problem: str) -> Exception:
    return StateFormatError(f"{path}: {problem}, so not a saved game or record")


def read_text(path: str) -> str:
    """The text of a saved game or record the user named, read safely: a regular file only (never a pipe or a
    device, which are refused before anything is read) of at most :data:`MAX_FILE_BYTES`.

    Raises:
        StateFormatError: one clear line saying why the file cannot be read.
    """
    data = read_regular(path, max_bytes=MAX_FILE_BYTES, error=_refused)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise StateFormatError(f"{path}: not a text file (not UTF-8), so not a saved game or record") from None


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
    recorded_seat: int | None = None

    @property
    def viewer(self) -> int | None:
        """The seat whose view the file belongs to: the person's seat of a saved game, the seat a record was
        played from at the table, or ``None`` (a record of bots only)."""
        if "human" in self.seats:
            return self.seats.index("human")
        return self.recorded_seat

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
            doc: Any = parse_json(text, max_bytes=MAX_FILE_BYTES)
        except StateFormatError as exc:
            raise StateFormatError(f"{source}: not a saved game or record ({exc})") from None
        if not isinstance(doc, dict):
            raise StateFormatError(f"{source}: not a saved game (a JSON object was expected)")
        if doc.get("format") == RECORD_FORMAT:
            record = _record(doc, source)
            seat = doc.get("seat")
            return cls(record.game, record, (), seat if type(seat) is int else None)
        if doc.get("format") != SESSION_FORMAT:
            raise StateFormatError(f"{source}: not a saved game or record of tabletop-rules")
        if doc.get("version") != _VERSION:
            raise StateFormatError(f"{source}: saved game version {doc.get('version')!r}, this version reads 1")
        game, seats = doc.get("game"), doc.get("seats")
        if not isinstance(game, str) or not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise StateFormatError(f"{source}: a saved game needs a game name and a list of seats")
        return cls(game, _record(doc.get("record"), source), tuple(seats))


def _record(doc: object, source: str) -> Record:
    try:
        return Record.from_json(json.dumps(doc))
    except (StateFormatError, TypeError, ValueError) as exc:
        raise StateFormatError(f"{source}: broken game record: {exc}") from None
