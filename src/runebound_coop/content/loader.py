"""Loading and validating content packs from TOML.

The built-in pack lives in this package (``token_sets.toml``, ``boards.toml``, ``heroes.toml``, ``enemies.toml``,
``assets.toml``, ``cards.toml``). A custom pack is a directory holding any of the same files; its entries are
validated by the same code and added to (or replace, by name) the built-in ones. Every problem raises
:class:`~tabletop_core.errors.ContentError` naming the file, the entry and the field.

>>> pack = builtin_content()
>>> pack.heroes["Elian"].health, len(pack.token_sets["mystic"].tokens)
(9, 6)
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from runebound_coop.content.schema import (
    Ability,
    Asset,
    Board,
    CardDef,
    Content,
    Effect,
    EnemyDef,
    Face,
    HeroDef,
    Space,
    Sym,
    TitleAbility,
    Token,
    TokenSet,
    parse_face,
)
from runebound_coop.limits import (
    MAX_CARDS,
    MAX_ENEMY_ABILITIES,
    MAX_HERO_ABILITIES,
    MAX_HERO_TOKENS,
    MAX_TOKENS,
)
from tabletop_core.components import TwoSidedToken
from tabletop_core.content import SOURCES, package_file, read_text
from tabletop_core.errors import ContentError

__all__ = ["FILES", "SOURCES", "TRAITS", "builtin_content", "load_content", "parse_pack"]

#: The four enemy traits, each with a token set and a combat board.
TRAITS = ("warrior", "mystic", "savage", "trickster")
#: The files of a pack and the array-of-tables key each one holds.
FILES = {
    "token_sets.toml": "token_set",
    "boards.toml": "board",
    "heroes.toml": "hero",
    "enemies.toml": "enemy",
    "assets.toml": "asset",
    "cards.toml": "card",
}
_EFFECT_KINDS = ("deal", "heal", "remove", "recast_spent", "prevent_flip")
_TRIGGERS = ("surge", "agility", "passive")
_SPACE_SYMBOLS = (Sym.AGILITY, Sym.DOUBLE, Sym.SURGE, Sym.TACTICS, Sym.SKULL)
#: Symbols an enemy token may show: enemies never spend physical, magic or charge damage.
_ENEMY_SYMBOLS = frozenset(Sym) - {Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE}
_ENEMY_DEAL = (Sym.SKULL,)
_HERO_DEAL = (Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE)

T = TypeVar("T")


class _Entry:
    """Typed access to one TOML table, raising ContentError that names file, entry and field."""

    def __init__(self, file: str, entry: str, data: Mapping[str, Any], prefix: str = "") -> None:
        self.file, self.entry, self.data, self.prefix = file, entry, data, prefix

    def error(self, field: str, problem: str) -> ContentError:
        return ContentError(self.file, self.entry, f"{self.prefix}{field}", problem)

    def get(self, field: str, kind: type[T], default: T | None = None) -> T:
        if field not in self.data:
            if default is not None:
                return default
            raise self.error(field, "missing")
        value = self.data[field]
        if kind is int and (type(value) is not int):
            raise self.error(field, f"expected an integer, got {value!r}")
        if kind is not int and not isinstance(value, kind):
            raise self.error(field, f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
        return value  # type: ignore[no-any-return]  # checked with isinstance above

    def check_keys(self, allowed: set[str]) -> None:
        extra = sorted(set(self.data) - allowed)
        if extra:
            raise self.error(extra[0], f"unknown field (allowed: {sorted(allowed)})")

    def sub(self, field: str, data: Any, index: int | None = None) -> _Entry:
        where = f"{field}[{index}]" if index is not None else field
        if not isinstance(data, Mapping):
            raise self.error(where, f"expected a table, got {data!r}")
        return _Entry(self.file, self.entry, data, f"{self.prefix}{where}.")

    def source(self) -> str:
        src = self.get("source", str)
        if src not in SOURCES:
            raise self.error("source", f"{src!r} is not one of {SOURCES}")
        return src

    def positive(self, field: str, low: int = 1, high: int = 99, default: int | None = None) -> int:
        value = self.get(field, int, default)
        if not low <= value <= high:
            raise self.error(field, f"{value} is not in {low}..{high}")
        return value

    def sym(self, field: str, value: Any, allowed: tuple[Sym, ...] | frozenset[Sym] | None = None) -> Sym:
        try:
            sym = Sym(value)
        except ValueError:
            raise self.error(field, f"{value!r} is not a symbol ({[s.value for s in Sym]})") from None
        if allowed is not None and sym not in allowed:
            raise self.error(field, f"{sym.value!r} is not allowed here")
        return sym


def _face(e: _Entry, field: str, text: Any) -> Face:
    if not isinstance(text, str):
        raise e.error(field, f"expected a face like '2P*', got {text!r}")
    try:
        return parse_face(text)
    except ValueError as exc:
        raise e.error(field, str(exc)) from None


def _token(e: _Entry, field: str, name: str, text: Any) -> Token:
    """A token written ``"A/B"`` (two faces)."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise e.error(field, f"expected a token like '2P/U', got {text!r}")
    a, b = text.split("/")
    return TwoSidedToken(name, _face(e, field, a), _face(e, field, b))


def _ability(e: _Entry, field: str, i: int, data: Any, hero: bool) -> Ability:
    a = e.sub(field, data, i)
    a.check_keys({"name", "trigger", "cost", "effects", "cancel_by_tactics", "text", "source"})
    a.source()
    trigger = a.get("trigger", str)
    if trigger not in _TRIGGERS:
        raise a.error("trigger", f"{trigger!r} is not one of {_TRIGGERS}")
    if hero and trigger != "surge":
        raise a.error("trigger", "hero abilities are surge abilities")
    cost = a.positive("cost", 1, 6) if trigger == "surge" else a.positive("cost", 0, 6, default=0)
    raw = a.get("effects", list)
    if not raw:
        raise a.error("effects", "an ability needs at least one effect")
    effects = tuple(_effect(a, "effects", j, d, hero) for j, d in enumerate(raw))
    for j, eff in enumerate(effects[:-1]):
        if eff.is_choice:
            raise a.error(f"effects[{j}]", "an effect with a choice must be the ability's last effect")
    if any(eff.kind == "prevent_flip" for eff in effects) and trigger != "passive":
        raise a.error("trigger", "prevent_flip is a passive ability")
    if trigger == "passive" and any(eff.kind != "prevent_flip" for eff in effects):
        raise a.error("effects", "passive abilities support only prevent_flip")
    return Ability(
        a.get("name", str),
        trigger,
        cost,
        effects,
        a.get("cancel_by_tactics", bool, False),
        a.get("text", str, ""),
    )


def _effect(a: _Entry, field: str, j: int, data: Any, hero: bool) -> Effect:
    f = a.sub(field, data, j)
    f.check_keys({"kind", "amount", "symbol", "unblockable"})
    kind = f.get("kind", str)
    if kind not in _EFFECT_KINDS:
        raise f.error("kind", f"{kind!r} is not one of {_EFFECT_KINDS}")
    amount = f.positive("amount", 0, 9, default=0)
    symbol = f.sym("symbol", f.data["symbol"]) if "symbol" in f.data else None
    if kind == "deal":
        if amount < 1:
            raise f.error("amount", "deal needs an amount of at least 1")
        allowed = _HERO_DEAL if hero else _ENEMY_DEAL
        if symbol not in allowed:
            raise f.error("symbol", f"a {'hero' if hero else 'enemy'} deals one of {[s.value for s in allowed]}")
    elif kind == "heal" and amount < 1:
        raise f.error("amount", "heal needs an amount of at least 1")
    elif kind == "remove" and symbol is None:
        raise f.error("symbol", "remove names the symbol of the foe's tokens it removes")
    if (hero and kind in ("recast_spent", "prevent_flip")) or (hero and kind == "remove" and amount > 0):
        raise f.error("kind", "hero abilities cannot leave a choice to the rules engine")
    return Effect(kind, amount, symbol, f.get("unblockable", bool, False))


def _load_token_set(e: _Entry) -> TokenSet:
    e.check_keys({"trait", "source", "tokens"})
    e.source()
    trait = e.get("trait", str)
    if trait not in TRAITS:
        raise e.error("trait", f"{trait!r} is not one of {TRAITS}")
    raw = e.get("tokens", list)
    if not 1 <= len(raw) <= MAX_TOKENS:
        raise e.error("tokens", f"a token set holds 1 to {MAX_TOKENS} tokens")
    tokens, acts = [], []
    for i, d in enumerate(raw):
        t = e.sub("tokens", d, i)
        t.check_keys({"id", "faces", "act"})
        token = _token(t, "faces", t.get("id", str), t.get("faces", str))
        for face in (token.a, token.b):
            if face.symbol not in _ENEMY_SYMBOLS:
                raise t.error("faces", f"enemy tokens never show {face.symbol.value} (only heroes spend it)")
        acts.append(t.positive("act", 1, 2, default=1))
        tokens.append(token)
    return TokenSet(trait, tuple(tokens), tuple(acts), e.source())


def _load_board(e: _Entry) -> Board:
    e.check_keys({"trait", "source", "title", "spaces"})
    trait = e.get("trait", str)
    if trait not in TRAITS:
        raise e.error("trait", f"{trait!r} is not one of {TRAITS}")
    t = e.sub("title", e.get("title", dict))
    t.check_keys({"symbol", "effect", "amount", "text"})
    effect = t.get("effect", str)
    if effect not in ("deal", "heal"):
        raise t.error("effect", "a title ability deals skull or heals")
    title = TitleAbility(t.sym("symbol", t.get("symbol", str)), effect, t.positive("amount", 1, 5), t.get("text", str))
    spaces: list[Space] = []
    seen: set[Sym] = set()
    for i, d in enumerate(e.get("spaces", list)):
        s = e.sub("spaces", d, i)
        s.check_keys({"symbol", "mode", "priority", "plus"})
        sym = s.sym("symbol", s.get("symbol", str), _SPACE_SYMBOLS)
        if sym in seen:
            raise s.error("symbol", f"the board already has a {sym.value} space")
        seen.add(sym)
        mode = s.get("mode", str, "")
        if sym == Sym.AGILITY and mode not in ("recast_foe", "flip_own"):
            raise s.error("mode", "an agility space is recast_foe or flip_own")
        if sym != Sym.AGILITY and mode:
            raise s.error("mode", "only agility spaces have a mode")
        prio = tuple(s.sym("priority", p) for p in s.get("priority", list, []))
        if sym == Sym.DOUBLE:
            if not prio or any(p not in (Sym.SKULL, Sym.SHIELD, Sym.SURGE) for p in prio):
                raise s.error("priority", "a double space doubles skull, shield or surge, in a given order")
        elif sym == Sym.TACTICS:
            if not prio or any(p not in (Sym.SKULL, Sym.SURGE, Sym.AGILITY) for p in prio):
                raise s.error(
                    "priority",
                    "enemy tactics copy skull, surge or agility (never charge, physical or a double)",
                )
        elif prio:
            raise s.error("priority", "only double and tactics spaces have a priority")
        plus = s.positive("plus", 0, 3, default=0)
        if plus and sym != Sym.SKULL:
            raise s.error("plus", "only the skull space carries a + symbol here")
        spaces.append(Space(sym, mode, prio, plus))
    if seen != set(_SPACE_SYMBOLS):
        raise e.error("spaces", f"a board has one space of each of {[s.value for s in _SPACE_SYMBOLS]}")
    return Board(trait, title, tuple(spaces), e.source())


def _load_hero(e: _Entry) -> HeroDef:
    e.check_keys({"name", "health", "tokens", "abilities", "cards", "source"})
    name = e.get("name", str)
    raw = e.get("tokens", list)
    if not 1 <= len(raw) <= MAX_HERO_TOKENS:
        raise e.error("tokens", f"a hero has 1 to {MAX_HERO_TOKENS} tokens")
    tokens = tuple(_token(e, f"tokens[{i}]", f"{name} {i + 1}", t) for i, t in enumerate(raw))
    for i, t in enumerate(tokens):
        if Sym.SKULL in (t.a.symbol, t.b.symbol):
            raise e.error(f"tokens[{i}]", "heroes never show skulls (only enemies spend them)")
    abilities = tuple(_ability(e, "abilities", i, d, hero=True) for i, d in enumerate(e.get("abilities", list, [])))
    if len(abilities) > MAX_HERO_ABILITIES:
        raise e.error("abilities", f"at most {MAX_HERO_ABILITIES} surge abilities")
    cards = tuple(e.get("cards", list, []))
    if len(cards) > MAX_CARDS or not all(isinstance(c, str) for c in cards):
        raise e.error("cards", f"up to {MAX_CARDS} card names")
    return HeroDef(name, e.positive("health", 1, 30), tokens, abilities, cards, e.source())


def _load_enemy(e: _Entry) -> EnemyDef:
    e.check_keys({"name", "trait", "health", "abilities", "source"})
    trait = e.get("trait", str)
    if trait not in TRAITS:
        raise e.error("trait", f"{trait!r} is not one of {TRAITS}")
    abilities = tuple(_ability(e, "abilities", i, d, hero=False) for i, d in enumerate(e.get("abilities", list, [])))
    if sum(a.trigger == "agility" for a in abilities) > 1:
        raise e.error("abilities", "at most one agility ability")
    if len(abilities) > MAX_ENEMY_ABILITIES:
        raise e.error("abilities", f"at most {MAX_ENEMY_ABILITIES} abilities")
    return EnemyDef(e.get("name", str), trait, e.positive("health", 1, 30), abilities, e.source())


def _load_asset(e: _Entry) -> Asset:
    e.check_keys({"name", "token", "source"})
    name = e.get("name", str)
    token = _token(e, "token", name, e.get("token", str))
    if Sym.SKULL in (token.a.symbol, token.b.symbol):
        raise e.error("token", "asset tokens never show skulls")
    return Asset(name, token, e.source())


def _load_card(e: _Entry) -> CardDef:
    e.check_keys({"name", "remove", "symbols", "deal", "heal", "unblockable", "text", "source"})
    remove = e.positive("remove", 0, 3, default=0)
    symbols = tuple(e.sym("symbols", s, _HERO_DEAL) for s in e.get("symbols", list, []))
    deal = e.positive("deal", 0, 9, default=0)
    heal = e.positive("heal", 0, 9, default=0)
    if deal and not symbols:
        raise e.error("symbols", "a card that deals damage names the damage symbols it removes and deals")
    if not deal and not heal:
        raise e.error("deal", "a combat card deals damage or heals")
    return CardDef(
        e.get("name", str),
        remove,
        symbols,
        deal,
        heal,
        e.get("unblockable", bool, False),
        e.get("text", str, ""),
        e.source(),
    )


_LOADERS: dict[str, Callable[[_Entry], Any]] = {
    "token_set": _load_token_set,
    "board": _load_board,
    "hero": _load_hero,
    "enemy": _load_enemy,
    "asset": _load_asset,
    "card": _load_card,
}


def parse_pack(texts: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Parse and validate the TOML ``texts`` (file name -> text) into entries keyed by kind, then name.

    Raises:
        ContentError: naming the file, the entry and the field of the first problem.
    """
    out: dict[str, dict[str, Any]] = {key: {} for key in FILES.values()}
    for file, text in texts.items():
        if file not in FILES:
            raise ContentError(file, "-", "-", f"unknown content file (expected one of {sorted(FILES)})")
        key = FILES[file]
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(file, "-", "-", f"not valid TOML: {exc}") from None
        extra = sorted(set(doc) - {key})
        if extra:
            raise ContentError(file, "-", extra[0], f"unknown table (this file holds [[{key}]] entries)")
        entries = doc.get(key, [])
        if not isinstance(entries, list):
            raise ContentError(file, "-", key, "expected an array of tables")
        for i, data in enumerate(entries):
            if not isinstance(data, dict):
                raise ContentError(file, f"#{i}", "-", "expected a table")
            label = data.get("name", data.get("trait", f"#{i}"))
            entry = _Entry(file, str(label), data)
            value = _LOADERS[key](entry)
            name = value.trait if key in ("token_set", "board") else value.name
            if name in out[key]:
                raise entry.error("name" if key not in ("token_set", "board") else "trait", "duplicate entry")
            out[key][name] = value
    return out


def _assemble(entries: dict[str, dict[str, Any]], where: str) -> Content:
    content = Content(
        token_sets=entries["token_set"],
        boards=entries["board"],
        heroes=entries["hero"],
        enemies=entries["enemy"],
        assets=entries["asset"],
        cards=entries["card"],
    )
    for trait in TRAITS:
        if trait not in content.boards:
            raise ContentError(f"{where}/boards.toml", trait, "trait", "missing combat board")
        if trait not in content.token_sets:
            raise ContentError(f"{where}/token_sets.toml", trait, "trait", "missing token set")
    for hero in content.heroes.values():
        for card in hero.cards:
            if card not in content.cards:
                raise ContentError(f"{where}/heroes.toml", hero.name, "cards", f"unknown card {card!r}")
    for enemy in content.enemies.values():
        if enemy.trait not in content.token_sets:
            raise ContentError(f"{where}/enemies.toml", enemy.name, "trait", f"no token set for {enemy.trait!r}")
    return content


def _builtin_texts() -> dict[str, str]:
    return {name: read_text(package_file("runebound_coop.content", name)) for name in FILES}


@functools.cache
def builtin_content() -> Content:
    """The built-in pack (loaded and validated once)."""
    return _assemble(parse_pack(_builtin_texts()), "runebound_coop/content")


def load_content(path: str | Path | None = None) -> Content:
    """The built-in pack, plus the entries of the custom pack directory ``path`` (same files, same validation).

    Raises:
        ContentError: naming the file, the entry and the field of the first problem.
    """
    if path is None or str(path) == "":
        return builtin_content()
    folder = Path(path)
    if not folder.is_dir():
        raise ContentError(str(folder), "-", "-", "a custom pack is a directory of TOML files")
    # The core's reader: regular files only, bounded in size, UTF-8 problems reported as ContentError.
    custom = {p.name: read_text(p) for p in sorted(folder.glob("*.toml"))}
    try:
        extra = parse_pack(custom)
    except ContentError as exc:
        raise ContentError(str(folder / exc.file), exc.entry, exc.field, exc.problem) from None
    merged = parse_pack(_builtin_texts())
    for key, values in extra.items():
        merged[key].update(values)
    return _assemble(merged, str(folder))
