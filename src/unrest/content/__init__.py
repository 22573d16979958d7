"""Unrest content: District tokens and Mission cards, as data (``unrest.toml``), validated at load.

>>> CONTENT.districts[2].name, CONTENT.missions[0].name
('The Capitol', 'Revolution')
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import attrs

from tabletop_core.errors import ContentError

__all__ = ["CONTENT", "Content", "DistrictInfo", "MissionInfo", "load_content", "parse_content"]

FILE = "unrest.toml"
SOURCES = ("rulebook", "public", "standin")


@attrs.frozen
class DistrictInfo:
    """A District token: its id (its index), full name and the short name used in action strings."""

    id: int
    name: str
    short: str
    source: str


@attrs.frozen
class MissionInfo:
    """A Mission card: its id, the condition ``key`` in :mod:`unrest.rules.missions`, its name and a summary."""

    id: int
    key: str
    name: str
    text: str
    source: str


@attrs.frozen
class Content:
    """All the content of one pack."""

    districts: tuple[DistrictInfo, ...]
    missions: tuple[MissionInfo, ...]


def _field(file: str, entry: str, table: dict[str, Any], name: str, kind: type) -> Any:
    if name not in table:
        raise ContentError(file, entry, name, "missing")
    value = table[name]
    if type(value) is not kind:
        raise ContentError(file, entry, name, f"expected {kind.__name__}, got {type(value).__name__}")
    return value


def _entries(file: str, doc: dict[str, Any], section: str, fields: dict[str, type]) -> list[dict[str, Any]]:
    raw = doc.get(section)
    if not isinstance(raw, list) or not raw:
        raise ContentError(file, section, section, "expected a non-empty array of tables")
    out = []
    for i, table in enumerate(raw):
        entry = f"{section}[{i}]"
        if not isinstance(table, dict):
            raise ContentError(file, entry, "-", "expected a table")
        extra = sorted(set(table) - set(fields))
        if extra:
            raise ContentError(file, entry, extra[0], "unknown field")
        row = {name: _field(file, entry, table, name, kind) for name, kind in fields.items()}
        if row["id"] != i:
            raise ContentError(file, entry, "id", f"ids must run 0, 1, 2, ... in order; expected {i}")
        if row["source"] not in SOURCES:
            raise ContentError(file, entry, "source", f"must be one of {SOURCES}")
        out.append(row)
    return out


def parse_content(text: str, file: str = FILE, known_keys: tuple[str, ...] | None = None) -> Content:
    """Parse and validate a content document.

    Args:
        text: the TOML text.
        file: the file name used in error messages.
        known_keys: the mission condition keys the code implements (:data:`unrest.rules.missions.KEYS`); ``None``
            skips that check (:mod:`unrest.rules.missions` makes it when it binds the conditions).

    Raises:
        ContentError: naming the file, entry and field of the first defect.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "-", "-", f"not valid TOML: {exc}") from exc
    districts = tuple(
        DistrictInfo(**row)
        for row in _entries(file, doc, "district", {"id": int, "name": str, "short": str, "source": str})
    )
    if len(districts) != 5:
        raise ContentError(file, "district", "id", f"Unrest has 5 Districts, got {len(districts)}")
    missions = tuple(
        MissionInfo(**row)
        for row in _entries(file, doc, "mission", {"id": int, "key": str, "name": str, "text": str, "source": str})
    )
    for m in missions:
        if known_keys is not None and m.key not in known_keys:
            raise ContentError(file, f"mission[{m.id}]", "key", f"unknown condition {m.key!r} (known: {known_keys})")
    if missions[0].key != "revolution":
        raise ContentError(file, "mission[0]", "key", "mission 0 must be the Revolution")
    if len({m.key for m in missions}) != len(missions):
        raise ContentError(file, "mission", "key", "each condition key may appear once")
    extra = sorted(set(doc) - {"district", "mission"})
    if extra:
        raise ContentError(file, extra[0], "-", "unknown section")
    return Content(districts, missions)


def load_content() -> Content:
    """Load the packaged content (``unrest.toml``)."""
    text = resources.files(__package__).joinpath(FILE).read_text(encoding="utf-8")
    return parse_content(text)


#: The packaged content.
CONTENT = load_content()
