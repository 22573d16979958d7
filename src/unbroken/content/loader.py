"""Load and validate content packs (TOML) into the frozen schema classes, through the core's content reader.

Each entry of a file is structured by :data:`READER` (:class:`tabletop_core.content.ContentReader` on cattrs) into
its schema class in :mod:`unbroken.content.schema`: unknown keys and wrong types are refused there, and a game rule
the types cannot say (an op's fields, a Combat Actions table of 6 rows, a known resource) is checked after. Every
mistake raises :class:`~tabletop_core.errors.ContentError` naming the file, the entry and the (dotted) field.
A user pack may stand alone or, with ``extends = "default"`` at its top, be merged over the default pack (entries
with the same id replace the default's).

A pack is named by its name and the SHA-256 of its content (:attr:`Pack.sha256`); saved games and records name
it so, and :data:`PACKS` resolves the pair without ever reading a file (see :class:`tabletop_core.content.PackStore`).

>>> pack = default_pack()
>>> len(pack.monsters), pack.monster_for(4, 6).name
(24, 'Basilisk')
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
from cattrs.gen import make_dict_structure_fn

from tabletop_core.content import (
    ContentReader,
    PackStore,
    content_digest,
    pack_name,
    package_file,
    read_text,
    refuse,
)
from tabletop_core.errors import ContentError
from unbroken.content.schema import (
    ABILITY_KINDS,
    COMBAT_KINDS,
    RESOURCES,
    TRIGGERS,
    Ability,
    Character,
    Condition,
    Encounter,
    Monster,
    Op,
    Skill,
    Weapon,
)
from unbroken.limits import MAX_CONDITIONS, MAX_DECK, MAX_ENCOUNTERS, MAX_MONSTERS, MAX_SKILLS, MAX_WEAPONS

if TYPE_CHECKING:
    from unbroken.rules.effects import OpDef

__all__ = [
    "PACKS",
    "READER",
    "Pack",
    "default_pack",
    "get_pack",
    "load_pack",
    "parse_pack",
]

SECTIONS = ("character", "weapon", "monster", "condition", "skill", "encounter")
DATA_FILES = ("characters.toml", "weapons.toml", "monsters.toml", "conditions.toml", "skills.toml", "encounters.toml")
#: The schema class of each section's entries.
SCHEMA: dict[str, type] = {
    "character": Character,
    "weapon": Weapon,
    "monster": Monster,
    "condition": Condition,
    "skill": Skill,
    "encounter": Encounter,
}
#: The name of the pack shipped with the library.
DEFAULT = "default"


@attrs.frozen
class Pack:
    """A validated content pack: every card of the game, with lookups by id.

    Attributes:
        name: ``default`` for the shipped pack; a custom pack's name (a word, never a path).
        sha256: the SHA-256 of the pack's content (:func:`tabletop_core.content.content_digest`), which saved
            games record beside the name.
    """

    characters: tuple[Character, ...]
    weapons: tuple[Weapon, ...]
    monsters: tuple[Monster, ...]
    conditions: tuple[Condition, ...]
    skills: tuple[Skill, ...]
    encounters: tuple[Encounter, ...]
    name: str = DEFAULT
    sha256: str = ""

    def character(self, cid: str) -> Character:
        """The character with id ``cid``."""
        found: Character = _index(self.characters)[cid]
        return found

    def weapon(self, wid: str) -> Weapon:
        """The weapon with id ``wid``."""
        found: Weapon = _index(self.weapons)[wid]
        return found

    def condition(self, cid: str) -> Condition:
        """The condition with id ``cid``."""
        found: Condition = _index(self.conditions)[cid]
        return found

    def monster_for_id(self, mid: str) -> Monster:
        """The monster with id ``mid``."""
        found: Monster = _index(self.monsters)[mid]
        return found

    def monster_for(self, level: int, number: int) -> Monster:
        """The monster of ``level`` numbered ``number``."""
        for m in self.monsters:
            if m.level == level and m.number == number:
                return m
        raise KeyError((level, number))

    def encounter_deck(self) -> tuple[int, ...]:
        """The encounter deck as card indices (``count`` copies each)."""
        return tuple(i for i, e in enumerate(self.encounters) for _ in range(e.count))


def _index(items: tuple[Any, ...]) -> dict[str, Any]:
    return {x.id: x for x in items}


# ----- the effect language: an op's fields depend on its verb -----------------------------------------------------


def _language() -> Mapping[str, OpDef]:
    """The effect language: :data:`unbroken.rules.effects.OPS`, every op's fields with its run and text.

    Read when a pack is read, not when this module is imported: the rules build on the states this loader's packs
    make (``unbroken.state`` imports this module), so the registry is imported once they are.
    """
    from unbroken.rules.effects import OPS  # at run time: the rules import the loader through the state

    return OPS


def _op_hook(value: Any, _t: Any) -> Op:
    """Structure one op: its verb known, exactly the fields its registry entry allows (see :func:`_language`),
    each typed, then its rules."""
    if not isinstance(value, Mapping):
        raise TypeError(f"expected an effect table, got {type(value).__name__} {value!r}"[:120])
    name = value.get("op")
    if "op" not in value:
        raise refuse("op", "missing", Op)
    if type(name) is not str:
        raise refuse("op", f"expected a string, got {name!r}"[:120], Op)
    ops = _language()
    if name not in ops:
        raise refuse("op", f"unknown op {name!r} (known: {sorted(ops)})", Op)
    required, optional = ops[name].fields
    allowed = {"op", *required, *optional}
    for key in sorted(set(value) - allowed):
        raise refuse(str(key), f"unknown field (allowed: {sorted(allowed)})", Op)
    for key in sorted(required - set(value)):
        raise refuse(key, f"op {name!r} requires it", Op)
    op: Op = _OP_FIELDS(value, Op)
    _check_op(op, set(value))
    return op


def _check_op(op: Op, given: set[str]) -> None:
    if "res" in given and op.op == "monster_gain":
        if op.res not in ("armor", "health"):
            raise refuse("res", "monster_gain takes armor or health", Op)
    elif "res" in given and op.res not in RESOURCES:
        raise refuse("res", f"unknown resource {op.res!r} (known: {list(RESOURCES)})", Op)
    if "to" in given and op.to not in RESOURCES:
        raise refuse("to", f"unknown resource {op.to!r}", Op)
    if _language()[op.op].positive and op.n <= 0:
        raise refuse("n", f"{op.op} needs a positive amount, got {op.n}", Op)
    if op.op == "time" and op.n <= 0:
        raise refuse("n", "time loss must be positive", Op)
    if op.op == "condition" and op.when not in ("now", "next"):
        raise refuse("when", f"expected 'now' or 'next', got {op.when!r}", Op)
    if op.op == "condition" and op.n < 0:
        raise refuse("n", "tokens must be >= 0", Op)
    if op.op == "roll" and not 1 <= op.n <= 6:
        raise refuse("n", "a roll threshold must be 1..6", Op)
    if op.op == "ignore" and op.id not in COMBAT_KINDS:
        raise refuse("id", f"unknown Combat Action type {op.id!r} (known: {list(COMBAT_KINDS)})", Op)
    if op.op == "power" and op.id not in ("", "basic", "advanced"):
        raise refuse("id", f"a power bonus may depend on the weapon tier basic/advanced, not {op.id!r}", Op)
    if op.scale not in ("", "level"):
        raise refuse("scale", "scale must be 'level'", Op)
    if op.op == "skill" and not 1 <= op.n <= 4:
        raise refuse("n", "draw 1..4 skills", Op)
    if "options" in given and len(op.options) < 2:
        raise refuse("options", "expected a list of at least 2 branches", Op)


#: The reader of Unbroken's content: the core's strict reader, with the effect language's own hook.
READER = ContentReader({Op: _op_hook})
_OP_FIELDS = make_dict_structure_fn(
    Op, READER.converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
)


# ----- the rules of each kind of entry, checked on the structured entry --------------------------------------------


class _Ctx:
    def __init__(self, file: str, entry: str) -> None:
        self.file, self.entry = file, entry

    def err(self, field: str, problem: str) -> ContentError:
        """The error for ``field`` of this entry."""
        return ContentError(self.file, self.entry, field, problem)


def _check_ability(ctx: _Ctx, a: Ability, field: str) -> None:
    if a.kind not in ABILITY_KINDS:
        raise ctx.err(f"{field}.kind", f"unknown ability kind {a.kind!r} (known: {list(ABILITY_KINDS)})")
    if a.kind in ("response", "passive") and a.trigger not in TRIGGERS:
        raise ctx.err(f"{field}.trigger", f"unknown trigger {a.trigger!r} (known: {list(TRIGGERS)})")
    if a.kind in ("static", "action") and a.trigger:
        raise ctx.err(f"{field}.trigger", f"a {a.kind} ability has no trigger")
    if a.phase not in ("travel", "combat", "any"):
        raise ctx.err(f"{field}.phase", "expected travel, combat or any")
    for i, c in enumerate(a.cost):
        if c.op != "spend":
            raise ctx.err(f"{field}.cost[{i}].op", "a cost holds only spend ops")
    ops = _language()
    for i, e in enumerate(a.effects):
        where = ops[e.op].where
        if where != "both" and (where == "static") != (a.kind == "static"):
            raise ctx.err(f"{field}.effects[{i}].op", f"op {e.op!r} does not fit a {a.kind} ability")


def _check_common(ctx: _Ctx, entry: Any) -> None:
    for field in ("id", "name"):
        if not getattr(entry, field).strip():
            raise ctx.err(field, "must not be empty")
    for i, a in enumerate(getattr(entry, "abilities", ())):
        _check_ability(ctx, a, f"abilities[{i}]")


def _check_weapon(ctx: _Ctx, w: Weapon) -> None:
    if w.tier not in ("basic", "advanced"):
        raise ctx.err("tier", "expected basic or advanced")
    for i, a in enumerate(w.attacks):
        f = f"attacks[{i}]."
        if not a.name.strip():
            raise ctx.err(f"{f}name", "must not be empty")
        if a.kind not in ("break", "wound"):
            raise ctx.err(f"{f}kind", "expected break or wound")
        if a.power <= 0:
            raise ctx.err(f"{f}power", "must be positive")
        if not a.cost or any(c.op != "spend" for c in a.cost):
            raise ctx.err(f"{f}cost", "an attack costs one or more spend ops")
    if not w.attacks:
        raise ctx.err("attacks", "a weapon needs at least one attack")
    for i, u in enumerate(w.upgrades):
        f = f"upgrades[{i}]."
        if any(c.op != "spend" for c in u.cost):
            raise ctx.err(f"{f}cost", "a Craft cost holds only spend ops")
        if u.time < 0:
            raise ctx.err(f"{f}time", "must be >= 0")


def _check_monster(ctx: _Ctx, m: Monster) -> None:
    if not 1 <= m.level <= 4:
        raise ctx.err("level", f"expected 1..4, got {m.level}")
    if not 1 <= m.number <= 6:
        raise ctx.err("number", f"expected 1..6, got {m.number}")
    if m.armor < 0 or m.health <= 0:
        raise ctx.err("health" if m.health <= 0 else "armor", "armor must be >= 0 and health > 0")
    if m.trickery is not None and (not m.trickery or any(o.op != "spend" for o in m.trickery)):
        raise ctx.err("trickery", "a Trickery Cost holds one or more spend ops")
    if m.trickery is not None and m.level == 4:
        # "You defeat the final monster in Level 4 and do not die of starvation — you win!": it cannot be tricked
        raise ctx.err("trickery", "a Level 4 monster cannot be tricked (the game is won only by defeating it)")
    if len(m.table) != 6:
        raise ctx.err("table", f"a Combat Actions table has 6 rows, got {len(m.table)}")
    for i, r in enumerate(m.table):
        if r.kind not in COMBAT_KINDS:
            raise ctx.err(f"table[{i}].kind", f"unknown Combat Action type {r.kind!r} (known: {list(COMBAT_KINDS)})")


def _check_encounter(ctx: _Ctx, e: Encounter) -> None:
    if e.time < 1:
        raise ctx.err("time", f"a Time Value is at least 1, got {e.time}")
    if any(o.op != "spend" for o in e.spend):
        raise ctx.err("spend", "the Spend field holds only spend ops")
    if not 1 <= e.count <= 8:
        raise ctx.err("count", "expected 1..8 copies")


def _no_more(_ctx: _Ctx, _entry: Any) -> None:
    """Nothing beyond the common checks (id, name and abilities)."""


_CHECKS: dict[str, Any] = {
    "character": _no_more,
    "weapon": _check_weapon,
    "monster": _check_monster,
    "condition": _no_more,
    "skill": _no_more,
    "encounter": _check_encounter,
}


def _parse_sections(text: str, file: str) -> tuple[dict[str, list[tuple[str, Any]]], str]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "<file>", "<toml>", f"not valid TOML: {exc}") from exc
    extends = doc.pop("extends", "")
    if extends not in ("", DEFAULT):
        raise ContentError(file, "<file>", "extends", "only 'default' can be extended")
    out: dict[str, list[tuple[str, Any]]] = {s: [] for s in SECTIONS}
    for key, value in doc.items():
        if key not in SECTIONS:
            raise ContentError(file, "<file>", key, f"unknown section (known: {list(SECTIONS)})")
        if not isinstance(value, list):
            raise ContentError(file, "<file>", key, "write entries as [[" + key + "]] tables")
        entries: tuple[Any, ...] = READER.entries(doc, key, SCHEMA[key], file=file, id_field="id")
        for i, entry in enumerate(entries):
            ctx = _Ctx(file, entry.id if entry.id.strip() else f"{key}[{i}]")
            _check_common(ctx, entry)
            _CHECKS[key](ctx, entry)
            out[key].append((file, entry))
    return out, str(extends)


def parse_pack(
    texts: Mapping[str, str], *, base: Pack | None = None, name: str = "custom", sha256: str | None = None
) -> Pack:
    """Build a pack from TOML texts keyed by file name, optionally merged over ``base``; validate it whole.

    ``sha256`` pins the pack (default: :func:`~tabletop_core.content.content_digest` of ``texts``, and of the
    default pack's when a text extends it).
    """
    merged: dict[str, dict[str, tuple[str, Any]]] = {s: {} for s in SECTIONS}
    if base is not None:
        for s, items in zip(SECTIONS, _sections(base), strict=True):
            merged[s] = {x.id: ("<default>", x) for x in items}
    extended = False
    for file, text in texts.items():
        sections, extends = _parse_sections(text, file)
        if extends and base is None:
            extended = True
            base_pack = default_pack()
            for s, items in zip(SECTIONS, _sections(base_pack), strict=True):
                for x in items:
                    merged[s].setdefault(x.id, ("<default>", x))
        for s, entries in sections.items():
            for f, x in entries:
                merged[s][x.id] = (f, x)
    by_section = {s: tuple(x for _, x in merged[s].values()) for s in SECTIONS}
    if sha256 is None:
        sha256 = _digest(texts, extended or base is not None, base)
    pack = Pack(
        characters=by_section["character"],
        weapons=by_section["weapon"],
        monsters=by_section["monster"],
        conditions=by_section["condition"],
        skills=by_section["skill"],
        encounters=by_section["encounter"],
        name=name,
        sha256=sha256,
    )
    _validate(pack, {s: {k: f for k, (f, _) in merged[s].items()} for s in SECTIONS})
    return pack


def _digest(texts: Mapping[str, str], extended: bool, base: Pack | None) -> str:
    """The pack's SHA-256: its texts, and the pack they extend (an edit of either is another pack)."""
    pinned = dict(texts)
    if extended:
        pinned["<extends>"] = (base or default_pack()).sha256
    return content_digest(pinned)


def _sections(pack: Pack) -> tuple[tuple[Any, ...], ...]:
    return (pack.characters, pack.weapons, pack.monsters, pack.conditions, pack.skills, pack.encounters)


def _walk(ops: tuple[Op, ...], field: str) -> list[tuple[Op, str]]:
    out: list[tuple[Op, str]] = []
    for i, o in enumerate(ops):
        f = f"{field}[{i}]"
        out.append((o, f))
        out += _walk(o.then, f"{f}.then") + _walk(o.alt, f"{f}.alt")
        for j, br in enumerate(o.options):
            out += _walk(br, f"{f}.options[{j}]")
    return out


def _all_ops(pack: Pack) -> list[tuple[str, str, Op, str]]:
    """Every op of the pack as (section, entry id, op, field)."""
    out: list[tuple[str, str, Op, str]] = []

    def abil(section: str, eid: str, abilities: tuple[Ability, ...]) -> None:
        """Collect the ops of ``abilities``."""
        for i, a in enumerate(abilities):
            for o, f in _walk(a.cost, f"abilities[{i}].cost") + _walk(a.effects, f"abilities[{i}].effects"):
                out.append((section, eid, o, f))

    for c in pack.characters:
        abil("character", c.id, c.abilities)
    for s in pack.skills:
        abil("skill", s.id, s.abilities)
    for cd in pack.conditions:
        abil("condition", cd.id, cd.abilities)
    for m in pack.monsters:
        abil("monster", m.id, m.abilities)
        for field, ops in (("ambush", m.ambush or ()), ("trickery", m.trickery or ()), ("rewards", m.rewards)):
            out += [("monster", m.id, o, f) for o, f in _walk(ops, field)]
        for i, r in enumerate(m.table):
            out += [("monster", m.id, o, f) for o, f in _walk(r.effects, f"table[{i}].effects")]
    for w in pack.weapons:
        for i, a in enumerate(w.attacks):
            out += [("weapon", w.id, o, f) for o, f in _walk(a.cost, f"attacks[{i}].cost")]
    for e in pack.encounters:
        out += [("encounter", e.id, o, f) for o, f in _walk(e.spend, "spend") + _walk(e.gain, "gain")]
    return out


def _validate(pack: Pack, files: dict[str, dict[str, str]]) -> None:
    def err(section: str, eid: str, field: str, problem: str) -> ContentError:
        """The error for ``field`` of entry ``eid``, in the file it came from."""
        return ContentError(files[section].get(eid, "<pack>"), eid, field, problem)

    weapons = {w.id for w in pack.weapons}
    conditions = {c.id for c in pack.conditions}
    if "bare_hands" not in weapons:
        raise ContentError("<pack>", "bare_hands", "weapon", "the pack needs the Bare Hands weapon (id bare_hands)")
    for w in pack.weapons:
        for i, u in enumerate(w.upgrades):
            if u.to not in weapons or u.to == w.id:
                raise err("weapon", w.id, f"upgrades[{i}].to", f"unknown weapon {u.to!r}")
    for section, eid, o, f in _all_ops(pack):
        if o.op == "condition" and o.id not in conditions:
            raise err(section, eid, f"{f}.id", f"unknown condition {o.id!r}")
        if o.op == "cure" and o.id and o.id not in conditions:
            raise err(section, eid, f"{f}.id", f"unknown condition {o.id!r}")
    for section, cards in (("encounter", pack.encounters), ("skill", pack.skills)):
        names: dict[str, str] = {}
        for card in cards:
            key = " ".join(card.name.lower().split())
            if key in names:
                raise err(section, card.id, "name", f"name {card.name!r} is also used by {names[key]!r}")
            names[key] = card.id
    slots = {(m.level, m.number): m.id for m in pack.monsters}
    for m in pack.monsters:
        if slots[(m.level, m.number)] != m.id:
            raise err("monster", m.id, "number", f"Level {m.level} number {m.number} is taken")
    for level in range(1, 5):
        for number in range(1, 7):
            if (level, number) not in slots:
                raise ContentError("<pack>", f"level {level}", "monster", f"no monster numbered {number}")
    if not pack.characters:
        raise ContentError("<pack>", "<pack>", "character", "the pack needs a character")
    if not pack.encounters:
        raise ContentError("<pack>", "<pack>", "encounter", f"1..{MAX_ENCOUNTERS} encounters")
    if len(pack.skills) < 2:
        raise ContentError("<pack>", "<pack>", "skill", f"2..{MAX_SKILLS} skills")
    caps: tuple[tuple[str, tuple[Any, ...], int], ...] = (
        ("weapon", pack.weapons, MAX_WEAPONS),
        ("condition", pack.conditions, MAX_CONDITIONS),
        ("monster", pack.monsters, MAX_MONSTERS),
        ("skill", pack.skills, MAX_SKILLS),
        ("encounter", pack.encounters, MAX_ENCOUNTERS),
    )
    for section, cards, cap in caps:
        if len(cards) > cap:
            first = cards[cap]
            raise err(
                section,
                first.id,
                "id",
                f"the pack has {len(cards)} {section} entries, more than the {cap} the game's tensors and chance "
                f"outcomes hold (this is entry {cap + 1})",
            )
    deck = 0
    for e in pack.encounters:
        deck += e.count
        if deck > MAX_DECK:
            raise err(
                "encounter",
                e.id,
                "count",
                f"the encounter deck holds more than the {MAX_DECK} cards the game's picks name (with this entry's "
                f"{e.count} copies, {deck})",
            )


@functools.cache
def default_pack() -> Pack:
    """The pack shipped with the library (loaded once)."""
    texts = {f: read_text(package_file("unbroken.content", f"data/{f}")) for f in DATA_FILES}
    located = {f"unbroken/content/data/{f}": text for f, text in texts.items()}
    return parse_pack(located, name=DEFAULT, sha256=content_digest(texts))


#: The packs Unbroken can play: the default pack, and the custom packs callers have passed to ``new_game`` (or
#: added with ``PACKS.add``), by name and SHA-256. A saved game is resolved here and never opens a file.
PACKS: PackStore[Pack] = PackStore("unbroken", DEFAULT, default_pack)


def load_pack(path: str | os.PathLike[str], *, name: str | None = None) -> Pack:
    """Load and validate the TOML pack file ``path`` that the caller chose (``extends = "default"`` merges it over
    the default pack). Pass the pack to ``new_game(pack=...)`` to play it.

    Args:
        path: the pack file (a regular UTF-8 file of bounded size; anything else is refused unread).
        name: the pack's name in saved games (default: the file's stem, made a pack name).

    Raises:
        ContentError: naming the file, entry and field of the first mistake.
    """
    p = Path(path)
    text = read_text(p)
    return parse_pack({str(p): text}, name=name if name is not None else pack_name(p.stem), sha256=_file_digest(text))


def _file_digest(text: str) -> str:
    """A one-file pack's SHA-256 (where the file lies plays no part; the default pack it extends does)."""
    try:
        extends = tomllib.loads(text).get("extends", "") == DEFAULT
    except tomllib.TOMLDecodeError:
        extends = False
    return _digest({"pack.toml": text}, extends, None)


@functools.lru_cache(maxsize=64)
def get_pack(name: str, digest: str = "") -> Pack:
    """The pack an options value names: ``"default"``, or a custom pack's name and SHA-256, from :data:`PACKS`.

    A memo of a content-addressed lookup: the same pair always means the same immutable pack. Nothing is read.

    Raises:
        ContentError: :data:`PACKS` holds no pack of that name and SHA-256 (unknown, or changed since).
    """
    return PACKS.get(name, digest)
