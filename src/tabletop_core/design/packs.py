"""Content packs as numbers to change: the free fields of a game's TOML content, and packs written from changes.

A game whose content is TOML publishes its default pack's files through ``content_texts() -> {file: text}``
(Unbroken does). A field is named ``SECTION.ID.FIELD`` (``monster.kobold.health``): the entry of that section with
that ``id``, and one of its top-level numbers. A field may be changed only if it is a number (not a flag) and its
entry's ``source`` is not ``"rulebook"``: a number the rulebook prints is fixed. A pack written from changes is one
TOML file that extends the default pack and repeats each changed entry whole, with its new numbers, so the game's
own loader validates it like any pack a user writes.

>>> import unbroken
>>> fields = free_fields(unbroken.GAME)
>>> fields["monster.kobold.health"]
5
>>> "monster.basilisk.health" in fields  # the rulebook prints the Basilisk's Health
False
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tabletop_core.errors import OptionError

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["FIXED_KEYS", "content_of", "free_fields", "pack_text"]

#: Entry keys that are never tuned: what identifies or places an entry.
FIXED_KEYS = frozenset({"id", "name", "source", "level", "number"})


def content_of(game: Game[Any, Any, Any]) -> dict[str, list[dict[str, Any]]]:
    """The default pack's entries by section (``monster`` -> its tables), from the game's ``content_texts``."""
    texts = getattr(game, "content_texts", None)
    if texts is None:
        raise OptionError(f"{game.spec.short_name if hasattr(game, 'spec') else game!r} has no TOML content to tune")
    out: dict[str, list[dict[str, Any]]] = {}
    for _file, text in sorted(texts().items()):
        for section, entries in tomllib.loads(text).items():
            if isinstance(entries, list):
                out.setdefault(section, []).extend(e for e in entries if isinstance(e, dict))
    return out


def _entry(content: Mapping[str, list[dict[str, Any]]], section: str, eid: str) -> dict[str, Any] | None:
    return next((e for e in content.get(section, ()) if e.get("id") == eid), None)


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def free_fields(game: Game[Any, Any, Any]) -> dict[str, int | float]:
    """Every field that may be changed, with its default value (see the module)."""
    out: dict[str, int | float] = {}
    for section, entries in content_of(game).items():
        for e in entries:
            if e.get("source") == "rulebook":
                continue
            for key, value in e.items():
                if key not in FIXED_KEYS and _number(value):
                    out[f"{section}.{e['id']}.{key}"] = value
    return out


def check_field(
    game: Game[Any, Any, Any], name: str, content: Mapping[str, list[dict[str, Any]]] | None = None
) -> None:
    """Refuse a field that does not exist or is fixed, naming why."""
    content = content if content is not None else content_of(game)
    parts = name.split(".")
    if len(parts) != 3:
        raise OptionError(f"field {name!r}: write SECTION.ID.FIELD (e.g. monster.kobold.health)")
    section, eid, key = parts
    entry = _entry(content, section, eid)
    if entry is None:
        raise OptionError(f"field {name!r}: no {section} with id {eid!r} in the default pack")
    if key not in entry or not _number(entry[key]):
        raise OptionError(f"field {name!r}: {section} {eid!r} has no number {key!r}")
    if entry.get("source") == "rulebook":
        raise OptionError(f'field {name!r} is printed by the rulebook (source = "rulebook") and stays fixed')
    if key in FIXED_KEYS:
        raise OptionError(f"field {name!r}: {key!r} places the entry and stays fixed")


def pack_text(game: Game[Any, Any, Any], changes: Mapping[str, int | float], *, note: str = "") -> str:
    """A pack file that extends the default pack with these field values (see the module)."""
    import tomli_w  # the `design` extra

    content = content_of(game)
    touched: dict[tuple[str, str], dict[str, Any]] = {}
    for name, value in sorted(changes.items()):
        check_field(game, name, content)
        section, eid, key = name.split(".")
        if not _number(value):
            raise OptionError(f"field {name!r}: {value!r} is not a number")
        entry = touched.setdefault((section, eid), dict(_entry(content, section, eid) or {}))
        entry[key] = type(entry[key])(value) if isinstance(entry[key], int) and float(value).is_integer() else value
    doc: dict[str, Any] = {"extends": "default"}
    for (section, _eid), entry in sorted(touched.items()):
        doc.setdefault(section, []).append(entry)
    head = "".join(f"# {line}\n" for line in note.splitlines())
    return head + tomli_w.dumps(doc)
