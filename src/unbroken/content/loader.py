"""Load and validate content packs (TOML) into the frozen schema classes.

Every mistake raises :class:`~tabletop_core.errors.ContentError` naming the file, the entry and the (dotted)
field. A user pack may stand alone or, with ``extends = "default"`` at its top, be merged over the default pack
(entries with the same id replace the default's).

>>> pack = default_pack()
>>> len(pack.monsters), pack.monster_for(4, 6).name
(24, 'Basilisk')
"""

from __future__ import annotations

import functools
import hashlib
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from tabletop_core.content import package_file, read_text
from tabletop_core.errors import ContentError
from unbroken.content.schema import (
    ABILITY_KINDS,
    COMBAT_KINDS,
    OPS,
    RESOURCES,
    SOURCES,
    STATIC_OPS,
    TRIGGERS,
    Ability,
    Attack,
    Character,
    Condition,
    Encounter,
    Monster,
    Op,
    Row,
    Skill,
    Upgrade,
    Weapon,
)

__all__ = [
    "MAX_CONDITIONS",
    "MAX_ENCOUNTERS",
    "MAX_MONSTERS",
    "MAX_SKILLS",
    "MAX_WEAPONS",
    "Pack",
    "default_pack",
    "get_pack",
    "load_pack",
    "pack_digest",
    "parse_pack",
]

SECTIONS = ("character", "weapon", "monster", "condition", "skill", "encounter")
DATA_FILES = ("characters.toml", "weapons.toml", "monsters.toml", "conditions.toml", "skills.toml", "encounters.toml")
#: Limits that keep the chance-outcome space and the observation tensor fixed (``unbroken.view.LAYOUT`` holds
#: one slot per card up to these): a pack with more is refused, never folded onto shared slots.
MAX_ENCOUNTERS = 160
MAX_SKILLS = 80
MAX_WEAPONS = 12
MAX_CONDITIONS = 24
MAX_MONSTERS = 24
_FIELDS = frozenset(attrs.fields_dict(Op)) - {"op"}


@attrs.frozen
class Pack:
    """A validated content pack: every card of the game, with lookups by id."""

    characters: tuple[Character, ...]
    weapons: tuple[Weapon, ...]
    monsters: tuple[Monster, ...]
    conditions: tuple[Condition, ...]
    skills: tuple[Skill, ...]
    encounters: tuple[Encounter, ...]
    name: str = "default"

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


class _Ctx:
    def __init__(self, file: str, entry: str) -> None:
        self.file, self.entry = file, entry

    def err(self, field: str, problem: str) -> ContentError:
        """The error for ``field`` of this entry."""
        return ContentError(self.file, self.entry, field, problem)


def _get(  # noqa: PLR0917  # a private reader called positionally at every field
    ctx: _Ctx, d: Mapping[str, Any], key: str, kind: type, field: str, default: Any = ...
) -> Any:
    if key not in d:
        if default is ...:
            raise ctx.err(f"{field}{key}", "missing")
        return default
    v = d[key]
    ok = type(v) is kind if kind in (int, bool) else isinstance(v, kind)
    if not ok:
        raise ctx.err(f"{field}{key}", f"expected {kind.__name__}, got {type(v).__name__} {v!r}")
    return v


def _only(ctx: _Ctx, d: Mapping[str, Any], allowed: set[str] | frozenset[str], field: str) -> None:
    extra = sorted(set(d) - set(allowed))
    if extra:
        raise ctx.err(f"{field}{extra[0]}", f"unknown field (allowed: {sorted(allowed)})")


def _ops(ctx: _Ctx, value: Any, field: str) -> tuple[Op, ...]:
    if not isinstance(value, list):
        raise ctx.err(field, f"expected a list of effects, got {type(value).__name__}")
    return tuple(_op(ctx, v, f"{field}[{i}]") for i, v in enumerate(value))


def _op(ctx: _Ctx, d: Any, field: str) -> Op:
    if not isinstance(d, dict):
        raise ctx.err(field, f"expected an effect table, got {type(d).__name__}")
    name = _get(ctx, d, "op", str, f"{field}.")
    if name not in OPS:
        raise ctx.err(f"{field}.op", f"unknown op {name!r} (known: {sorted(OPS)})")
    required, optional = OPS[name]
    _only(ctx, d, {"op", *required, *optional}, f"{field}.")
    for key in required:
        if key not in d:
            raise ctx.err(f"{field}.{key}", f"op {name!r} requires it")
    kw: dict[str, Any] = {}
    for key in set(d) - {"op"}:
        f = f"{field}.{key}"
        if key in ("then", "alt"):
            kw[key] = _ops(ctx, d[key], f)
        elif key == "options":
            opts = d[key]
            if not isinstance(opts, list) or len(opts) < 2:
                raise ctx.err(f, "expected a list of at least 2 branches")
            kw[key] = tuple(_ops(ctx, o, f"{f}[{i}]") for i, o in enumerate(opts))
        elif key in ("n", "m"):
            kw[key] = _get(ctx, d, key, int, f"{field}.")
        elif key in ("pierce", "perm"):
            kw[key] = _get(ctx, d, key, bool, f"{field}.")
        else:
            kw[key] = _get(ctx, d, key, str, f"{field}.")
    op = Op(name, **kw)
    _check_op(ctx, op, field)
    return op


def _check_op(ctx: _Ctx, op: Op, field: str) -> None:
    if op.res and op.op == "monster_gain":
        if op.res not in ("armor", "health"):
            raise ctx.err(f"{field}.res", "monster_gain takes armor or health")
    elif op.res and op.res not in RESOURCES:
        raise ctx.err(f"{field}.res", f"unknown resource {op.res!r} (known: {list(RESOURCES)})")
    if op.to and op.to not in RESOURCES:
        raise ctx.err(f"{field}.to", f"unknown resource {op.to!r}")
    if op.op in ("gain", "spend", "lose", "steal", "reduce", "wound", "break_armor", "heal", "monster_gain") and (
        op.n <= 0
    ):
        raise ctx.err(f"{field}.n", f"{op.op} needs a positive amount, got {op.n}")
    if op.op == "time" and op.n <= 0:
        raise ctx.err(f"{field}.n", "time loss must be positive")
    if op.op == "condition" and op.when not in ("now", "next"):
        raise ctx.err(f"{field}.when", f"expected 'now' or 'next', got {op.when!r}")
    if op.op == "condition" and op.n < 0:
        raise ctx.err(f"{field}.n", "tokens must be >= 0")
    if op.op == "roll" and not 1 <= op.n <= 6:
        raise ctx.err(f"{field}.n", "a roll threshold must be 1..6")
    if op.op == "ignore" and op.id not in COMBAT_KINDS:
        raise ctx.err(f"{field}.id", f"unknown Combat Action type {op.id!r} (known: {list(COMBAT_KINDS)})")
    if op.op == "power" and op.id not in ("", "basic", "advanced"):
        raise ctx.err(f"{field}.id", f"a power bonus may depend on the weapon tier basic/advanced, not {op.id!r}")
    if op.scale not in ("", "level"):
        raise ctx.err(f"{field}.scale", "scale must be 'level'")
    if op.op == "skill" and not 1 <= op.n <= 4:
        raise ctx.err(f"{field}.n", "draw 1..4 skills")


def _ability(ctx: _Ctx, d: Any, field: str) -> Ability:
    if not isinstance(d, dict):
        raise ctx.err(field, "expected an ability table")
    _only(ctx, d, {"name", "kind", "trigger", "cost", "effects", "phase", "text"}, f"{field}.")
    kind = _get(ctx, d, "kind", str, f"{field}.")
    if kind not in ABILITY_KINDS:
        raise ctx.err(f"{field}.kind", f"unknown ability kind {kind!r} (known: {list(ABILITY_KINDS)})")
    trigger = _get(ctx, d, "trigger", str, f"{field}.", "")
    if kind in ("response", "passive") and trigger not in TRIGGERS:
        raise ctx.err(f"{field}.trigger", f"unknown trigger {trigger!r} (known: {list(TRIGGERS)})")
    if kind in ("static", "action") and trigger:
        raise ctx.err(f"{field}.trigger", f"a {kind} ability has no trigger")
    phase = _get(ctx, d, "phase", str, f"{field}.", "any")
    if phase not in ("travel", "combat", "any"):
        raise ctx.err(f"{field}.phase", "expected travel, combat or any")
    cost = _ops(ctx, d.get("cost", []), f"{field}.cost")
    for i, c in enumerate(cost):
        if c.op != "spend":
            raise ctx.err(f"{field}.cost[{i}].op", "a cost holds only spend ops")
    effects = _ops(ctx, _get(ctx, d, "effects", list, f"{field}."), f"{field}.effects")
    for i, e in enumerate(effects):
        if (e.op in STATIC_OPS) != (kind == "static") and not (e.op == "reveal" and kind != "static"):
            raise ctx.err(f"{field}.effects[{i}].op", f"op {e.op!r} does not fit a {kind} ability")
    name = _get(ctx, d, "name", str, f"{field}.", "")
    return Ability(name, kind, trigger, cost, effects, phase, _get(ctx, d, "text", str, f"{field}.", ""))


def _abilities(ctx: _Ctx, d: Mapping[str, Any]) -> tuple[Ability, ...]:
    raw = _get(ctx, d, "abilities", list, "", [])
    return tuple(_ability(ctx, a, f"abilities[{i}]") for i, a in enumerate(raw))


def _common(ctx: _Ctx, d: Mapping[str, Any], allowed: set[str]) -> tuple[str, str, str]:
    _only(ctx, d, {"id", "name", "source", "text", *allowed}, "")
    source = _get(ctx, d, "source", str, "")
    if source not in SOURCES:
        raise ctx.err("source", f"expected one of {list(SOURCES)}, got {source!r}")
    return _get(ctx, d, "id", str, ""), _get(ctx, d, "name", str, ""), source


def _character(ctx: _Ctx, d: Mapping[str, Any]) -> Character:
    cid, name, src = _common(ctx, d, {"abilities"})
    return Character(cid, name, _abilities(ctx, d), src, d.get("text", ""))


def _weapon(ctx: _Ctx, d: Mapping[str, Any]) -> Weapon:
    wid, name, src = _common(ctx, d, {"tier", "attacks", "upgrades"})
    tier = _get(ctx, d, "tier", str, "")
    if tier not in ("basic", "advanced"):
        raise ctx.err("tier", "expected basic or advanced")
    attacks = []
    for i, a in enumerate(_get(ctx, d, "attacks", list, "")):
        f = f"attacks[{i}]."
        _only(ctx, a, {"name", "kind", "cost", "power", "pierce"}, f)
        kind = _get(ctx, a, "kind", str, f)
        if kind not in ("break", "wound"):
            raise ctx.err(f"{f}kind", "expected break or wound")
        power = _get(ctx, a, "power", int, f)
        if power <= 0:
            raise ctx.err(f"{f}power", "must be positive")
        cost = _ops(ctx, _get(ctx, a, "cost", list, f), f"{f}cost")
        if not cost or any(c.op != "spend" for c in cost):
            raise ctx.err(f"{f}cost", "an attack costs one or more spend ops")
        attacks.append(Attack(_get(ctx, a, "name", str, f), kind, cost, power, _get(ctx, a, "pierce", bool, f, False)))
    if not attacks:
        raise ctx.err("attacks", "a weapon needs at least one attack")
    ups = []
    for i, u in enumerate(_get(ctx, d, "upgrades", list, "", [])):
        f = f"upgrades[{i}]."
        _only(ctx, u, {"to", "cost", "time"}, f)
        cost = _ops(ctx, _get(ctx, u, "cost", list, f), f"{f}cost")
        if any(c.op != "spend" for c in cost):
            raise ctx.err(f"{f}cost", "a Craft cost holds only spend ops")
        time = _get(ctx, u, "time", int, f)
        if time < 0:
            raise ctx.err(f"{f}time", "must be >= 0")
        ups.append(Upgrade(_get(ctx, u, "to", str, f), cost, time))
    return Weapon(wid, name, tier, tuple(attacks), tuple(ups), src)


def _monster(ctx: _Ctx, d: Mapping[str, Any]) -> Monster:
    mid, name, src = _common(
        ctx, d, {"level", "number", "armor", "health", "ambush", "trickery", "table", "rewards", "abilities"}
    )
    level, number = _get(ctx, d, "level", int, ""), _get(ctx, d, "number", int, "")
    if not 1 <= level <= 4:
        raise ctx.err("level", f"expected 1..4, got {level}")
    if not 1 <= number <= 6:
        raise ctx.err("number", f"expected 1..6, got {number}")
    armor, health = _get(ctx, d, "armor", int, ""), _get(ctx, d, "health", int, "")
    if armor < 0 or health <= 0:
        raise ctx.err("health" if health <= 0 else "armor", "armor must be >= 0 and health > 0")
    ambush = _ops(ctx, d["ambush"], "ambush") if "ambush" in d else None
    trick = _ops(ctx, d["trickery"], "trickery") if "trickery" in d else None
    if trick is not None and (not trick or any(o.op != "spend" for o in trick)):
        raise ctx.err("trickery", "a Trickery Cost holds one or more spend ops")
    rows = []
    table = _get(ctx, d, "table", list, "")
    if len(table) != 6:
        raise ctx.err("table", f"a Combat Actions table has 6 rows, got {len(table)}")
    for i, r in enumerate(table):
        f = f"table[{i}]."
        if not isinstance(r, dict):
            raise ctx.err(f"table[{i}]", "expected a row table")
        _only(ctx, r, {"kind", "effects", "text"}, f)
        kind = _get(ctx, r, "kind", str, f)
        if kind not in COMBAT_KINDS:
            raise ctx.err(f"{f}kind", f"unknown Combat Action type {kind!r} (known: {list(COMBAT_KINDS)})")
        rows.append(Row(kind, _ops(ctx, _get(ctx, r, "effects", list, f), f"{f}effects"), r.get("text", "")))
    rewards = _ops(ctx, _get(ctx, d, "rewards", list, "", []), "rewards")
    return Monster(
        mid, name, level, number, armor, health, ambush, trick, tuple(rows), rewards, _abilities(ctx, d), src
    )


def _condition(ctx: _Ctx, d: Mapping[str, Any]) -> Condition:
    cid, name, src = _common(ctx, d, {"permanent", "abilities"})
    return Condition(cid, name, _get(ctx, d, "permanent", bool, "", False), _abilities(ctx, d), src, d.get("text", ""))


def _skill(ctx: _Ctx, d: Mapping[str, Any]) -> Skill:
    sid, name, src = _common(ctx, d, {"abilities"})
    return Skill(sid, name, _abilities(ctx, d), src, d.get("text", ""))


def _encounter(ctx: _Ctx, d: Mapping[str, Any]) -> Encounter:
    eid, name, src = _common(ctx, d, {"kind", "time", "spend", "gain", "count"})
    time = _get(ctx, d, "time", int, "")
    if time < 1:
        raise ctx.err("time", f"a Time Value is at least 1, got {time}")
    spend = _ops(ctx, _get(ctx, d, "spend", list, "", []), "spend")
    if any(o.op != "spend" for o in spend):
        raise ctx.err("spend", "the Spend field holds only spend ops")
    count = _get(ctx, d, "count", int, "", 1)
    if not 1 <= count <= 8:
        raise ctx.err("count", "expected 1..8 copies")
    gain = _ops(ctx, _get(ctx, d, "gain", list, ""), "gain")
    return Encounter(eid, name, _get(ctx, d, "kind", str, ""), time, spend, gain, src, count, d.get("text", ""))


_BUILDERS: dict[str, Any] = {
    "character": _character,
    "weapon": _weapon,
    "monster": _monster,
    "condition": _condition,
    "skill": _skill,
    "encounter": _encounter,
}


def _parse_sections(text: str, file: str) -> tuple[dict[str, list[tuple[str, Any]]], str]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(file, "<file>", "<toml>", f"not valid TOML: {exc}") from exc
    extends = doc.pop("extends", "")
    if extends not in ("", "default"):
        raise ContentError(file, "<file>", "extends", "only 'default' can be extended")
    out: dict[str, list[tuple[str, Any]]] = {s: [] for s in SECTIONS}
    for key, value in doc.items():
        if key not in SECTIONS:
            raise ContentError(file, "<file>", key, f"unknown section (known: {list(SECTIONS)})")
        if not isinstance(value, list):
            raise ContentError(file, "<file>", key, "write entries as [[" + key + "]] tables")
        for i, entry in enumerate(value):
            if not isinstance(entry, dict):
                raise ContentError(file, f"{key}[{i}]", "<entry>", "expected a table")
            label = entry.get("id") if isinstance(entry.get("id"), str) else f"{key}[{i}]"
            ctx = _Ctx(file, str(label))
            out[key].append((file, _BUILDERS[key](ctx, entry)))
    return out, extends


def parse_pack(texts: Mapping[str, str], *, base: Pack | None = None, name: str = "custom") -> Pack:
    """Build a pack from TOML texts keyed by file name, optionally merged over ``base``; validate it whole."""
    merged: dict[str, dict[str, tuple[str, Any]]] = {s: {} for s in SECTIONS}
    if base is not None:
        for s, items in zip(SECTIONS, _sections(base), strict=True):
            merged[s] = {x.id: ("<default>", x) for x in items}
    for file, text in texts.items():
        sections, extends = _parse_sections(text, file)
        if extends and base is None:
            base_pack = default_pack()
            for s, items in zip(SECTIONS, _sections(base_pack), strict=True):
                for x in items:
                    merged[s].setdefault(x.id, ("<default>", x))
        for s, entries in sections.items():
            seen: set[str] = set()
            for f, x in entries:
                if x.id in seen:
                    raise ContentError(f, x.id, "id", f"duplicate {s} id")
                seen.add(x.id)
                merged[s][x.id] = (f, x)
    by_section = {s: tuple(x for _, x in merged[s].values()) for s in SECTIONS}
    pack = Pack(
        characters=by_section["character"],
        weapons=by_section["weapon"],
        monsters=by_section["monster"],
        conditions=by_section["condition"],
        skills=by_section["skill"],
        encounters=by_section["encounter"],
        name=name,
    )
    _validate(pack, {s: {k: f for k, (f, _) in merged[s].items()} for s in SECTIONS})
    return pack


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


@functools.cache
def default_pack() -> Pack:
    """The pack shipped with the library (loaded once)."""
    texts = {f"unbroken/content/data/{f}": read_text(package_file("unbroken.content", f"data/{f}")) for f in DATA_FILES}
    return parse_pack(texts, name="default")


def load_pack(path: str | Path) -> Pack:
    """Load and validate a user's TOML pack (``extends = "default"`` merges it over the default pack).

    Raises:
        ContentError: naming the file, entry and field of the first mistake.
    """
    p = Path(path)
    return parse_pack({str(p): _read(p)}, name=str(p))


def _read(path: Path) -> str:
    """The pack file's text, through the core reader (a regular UTF-8 file of bounded size)."""
    return read_text(path)


def _sha256(text: str) -> str:
    """The SHA-256 of the file's bytes (UTF-8 text re-encodes to exactly the bytes read)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def pack_digest(name: str) -> str:
    """The SHA-256 of the pack file ``name`` as it is now (``""`` for the default pack)."""
    return "" if name == "default" else _sha256(_read(Path(name)))


@functools.lru_cache(maxsize=16)
def get_pack(name: str, digest: str = "") -> Pack:
    """The pack an options value names: ``"default"``, or a TOML pack's path and its file's SHA-256.

    A pure memo keyed by the content's digest (bounded): the same key always means the same immutable pack,
    so an edited file never reaches a game as a stale pack, and games share packs only through equal bytes.
    :class:`unbroken.Options` checks the file's digest whenever options are built (a new game, a loaded one).

    Raises:
        ContentError: the file cannot be read, is invalid, or no longer holds the bytes ``digest`` names.
    """
    if name == "default":
        return default_pack()
    text = _read(Path(name))
    if digest and _sha256(text) != digest:
        raise ContentError(name, "<file>", "<file>", changed_message(digest))
    return parse_pack({name: text}, name=name)


def changed_message(digest: str) -> str:
    """The problem text for a pack file that no longer holds the bytes a game began with."""
    return f"the pack file changed since this game began (it had SHA-256 {digest[:12]}...)"
