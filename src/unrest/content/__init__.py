"""Unrest content: District tokens and Mission cards, as data (``unrest.toml``), validated at load.

The entries are structured by the core's content reader (:class:`tabletop_core.content.ContentReader`, on
cattrs) into :class:`DistrictInfo` and :class:`MissionInfo`; unknown keys and wrong types are refused there, and
the rules the types cannot say (ids in order, 5 Districts, names that notation can read back) are checked after.
Unrest ships one pack and takes no custom ones, so no option names a pack.

>>> CONTENT.districts[2].name, CONTENT.missions[0].name
('The Capitol', 'Revolution')
"""

from __future__ import annotations

import tomllib
from typing import Any

import attrs

from tabletop_core.content import SOURCES, ContentReader, Source, package_file, read_text
from tabletop_core.errors import ContentError

__all__ = ["CONTENT", "SOURCES", "Content", "DistrictInfo", "MissionInfo", "load_content", "parse_content"]

FILE = "unrest.toml"


@attrs.frozen
class DistrictInfo:
    """A District token: its id (its index), full name and the short name used in action strings."""

    id: int
    name: str
    short: str
    source: Source


@attrs.frozen
class MissionInfo:
    """A Mission card: its id, the condition ``key`` in :mod:`unrest.rules.missions`, its name and a summary."""

    id: int
    key: str
    name: str
    text: str
    source: Source


@attrs.frozen
class Content:
    """All the content of one pack."""

    districts: tuple[DistrictInfo, ...]
    missions: tuple[MissionInfo, ...]


#: The reader of Unrest's content (the core's strict cattrs reader).
READER = ContentReader()


def _entries(file: str, doc: dict[str, Any], section: str, cls: type) -> tuple[Any, ...]:
    raw = doc.get(section)
    if not isinstance(raw, list) or not raw:
        raise ContentError(file, section, section, "expected a non-empty array of tables")
    # Entries are named by position (``district[1]``): their ids are their positions.
    rows: tuple[Any, ...] = READER.entries(doc, section, cls, file=file, id_field="-")
    readable: dict[str, str] = {}
    for i, row in enumerate(rows):
        entry = f"{section}[{i}]"
        if row.id != i:
            raise ContentError(file, entry, "id", f"ids must run 0, 1, 2, ... in order; expected {i}")
        for field in ("name", "short") if section == "district" else ("name",):
            text = getattr(row, field)
            key = f"{field}:{' '.join(text.lower().split())}"
            if not text.strip():
                raise ContentError(file, entry, field, "must not be empty")
            if key in readable:
                raise ContentError(file, entry, field, f"{text!r} is also {readable[key]}'s {field}")
            readable[key] = entry
    return rows


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
    extra = sorted(set(doc) - {"district", "mission"})
    if extra:
        raise ContentError(file, extra[0], "-", "unknown section")
    districts: tuple[DistrictInfo, ...] = _entries(file, doc, "district", DistrictInfo)
    if len(districts) != 5:
        raise ContentError(file, "district", "id", f"Unrest has 5 Districts, got {len(districts)}")
    missions: tuple[MissionInfo, ...] = _entries(file, doc, "mission", MissionInfo)
    for m in missions:
        if known_keys is not None and m.key not in known_keys:
            raise ContentError(file, f"mission[{m.id}]", "key", f"unknown condition {m.key!r} (known: {known_keys})")
    if missions[0].key != "revolution":
        raise ContentError(file, "mission[0]", "key", "mission 0 must be the Revolution")
    if len({m.key for m in missions}) != len(missions):
        raise ContentError(file, "mission", "key", "each condition key may appear once")
    return Content(districts, missions)


def load_content() -> Content:
    """Load the packaged content (``unrest.toml``)."""
    return parse_content(read_text(package_file(__package__, FILE)))


#: The packaged content.
CONTENT = load_content()
