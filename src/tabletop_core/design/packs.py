"""Content packs as numbers to change: the free fields of a game's TOML content, and packs written from changes.

A game whose content is TOML publishes its default pack's files through ``content_texts() -> {file: text}``
(Unbroken does). A field is named ``SECTION.ID.FIELD`` (``monster.kobold.health``): the entry of that section with
that ``id``, and one of its numbers. FIELD is a top-level key, or a path of keys and list positions (from 0) to a
number nested in the entry (``character.sage.abilities.1.effects.1.n``: the second effect of the second ability).
A field may be changed only if it is a number (not a flag) and its entry's ``source`` is not ``"rulebook"``: a
number the rulebook prints is fixed. A pack written from changes is one TOML file that extends the default pack and
repeats each changed entry whole, with its new numbers, so the game's own loader validates it like any pack a user
writes.

>>> import unbroken
>>> fields = free_fields(unbroken.GAME)
>>> fields["monster.kobold.health"]
5
>>> "monster.basilisk.health" in fields  # the rulebook prints the Basilisk's Health
False
>>> fields["monster.kobold.ambush.0.n"]  # a number inside the entry: the Small Effort its Ambush takes
2
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Iterator, Mapping
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


def _nested(value: object, path: str) -> Iterator[tuple[str, int | float]]:
    """Every number inside ``value`` (tables and lists), with its dotted path below ``path``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _nested(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nested(item, f"{path}.{i}")


def free_fields(game: Game[Any, Any, Any]) -> dict[str, int | float]:
    """Every field that may be changed, with its default value (see the module)."""
    out: dict[str, int | float] = {}
    for section, entries in content_of(game).items():
        for e in entries:
            if e.get("source") == "rulebook":
                continue
            for key, value in e.items():
                if key not in FIXED_KEYS:
                    out.update(_nested(value, f"{section}.{e['id']}.{key}"))
    return out


def _locate(entry: dict[str, Any], path: list[str]) -> tuple[Any, str | int] | None:
    """The table or list holding the value at ``path`` inside ``entry``, and its key there (``None``: no such
    value)."""
    holder: Any = entry
    for step in path[:-1]:
        holder = _child(holder, step)
        if holder is None:
            return None
    last = path[-1]
    if isinstance(holder, list):
        return (holder, int(last)) if last.isdigit() and int(last) < len(holder) else None
    return (holder, last) if isinstance(holder, dict) and last in holder else None


def _child(holder: object, step: str) -> object:
    if isinstance(holder, list):
        return holder[int(step)] if step.isdigit() and int(step) < len(holder) else None
    return holder.get(step) if isinstance(holder, dict) else None


def check_field(
    game: Game[Any, Any, Any], name: str, content: Mapping[str, list[dict[str, Any]]] | None = None
) -> None:
    """Refuse a field that does not exist or is fixed, naming why."""
    content = content if content is not None else content_of(game)
    parts = name.split(".")
    if len(parts) < 3 or not all(parts):
        raise OptionError(f"field {name!r}: write SECTION.ID.FIELD (e.g. monster.kobold.health)")
    section, eid, *path = parts
    key = path[0]
    entry = _entry(content, section, eid)
    if entry is None:
        raise OptionError(f"field {name!r}: no {section} with id {eid!r} in the default pack")
    found = _locate(entry, path)
    if found is None or not _number(found[0][found[1]]):
        raise OptionError(f"field {name!r}: {section} {eid!r} has no number {'.'.join(path)!r}")
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
        section, eid, *path = name.split(".")
        if not _number(value):
            raise OptionError(f"field {name!r}: {value!r} is not a number")
        entry = touched.setdefault((section, eid), copy.deepcopy(_entry(content, section, eid) or {}))
        found = _locate(entry, path)
        if found is None:  # check_field found it in the same content
            raise OptionError(f"field {name!r}: not found")
        holder, key = found
        old = holder[key]
        holder[key] = type(old)(value) if isinstance(old, int) and float(value).is_integer() else value
    doc: dict[str, Any] = {"extends": "default"}
    for (section, _eid), entry in sorted(touched.items()):
        doc.setdefault(section, []).append(entry)
    head = "".join(f"# {line}\n" for line in note.splitlines())
    return head + tomli_w.dumps(doc)
