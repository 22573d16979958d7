"""Loading and validating content packs from TOML.

The built-in pack lives in this package (``token_sets.toml``, ``boards.toml``, ``heroes.toml``, ``enemies.toml``,
``assets.toml``, ``cards.toml``). A custom pack is a directory holding any of the same files; its entries are
validated by the same code and added to (or replace, by name) the built-in ones. Each file's entries are
structured by :data:`READER` (the core's cattrs reader) into the ``*Entry`` schema classes of
:mod:`runebound_coop.content.schema`, then checked and built into the game's classes. Every problem raises
:class:`~tabletop_core.errors.ContentError` naming the file, the entry and the field.

A game's options name their pack as ``name@sha256`` (:class:`~tabletop_core.content.PackRef`), resolved in
:data:`PACKS` without reading anything: a saved game or a record plays the pack it was made with or none.

>>> pack = builtin_content()
>>> pack.heroes["Elian"].health, len(pack.token_sets["mystic"].tokens)
(9, 6)
"""

from __future__ import annotations

import functools
import os
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runebound_coop.content.schema import (
    Ability,
    AbilityEntry,
    Asset,
    AssetEntry,
    Board,
    BoardEntry,
    CardDef,
    CardEntry,
    Content,
    Effect,
    EnemyDef,
    EnemyEntry,
    Face,
    HeroDef,
    HeroEntry,
    Sym,
    Token,
    TokenSet,
    TokenSetEntry,
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
from tabletop_core.content import (
    PACK_NAME,
    SOURCES,
    ContentReader,
    PackRef,
    PackStore,
    content_digest,
    pack_name,
    package_file,
    read_text,
)
from tabletop_core.errors import ContentError

__all__ = [
    "BUILTIN",
    "FILES",
    "PACKS",
    "READER",
    "SOURCES",
    "TRAITS",
    "builtin_content",
    "content_from_texts",
    "content_of",
    "load_content",
    "pack_option",
    "parse_pack",
]

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
#: The built-in pack's name in options (a custom pack is ``name@sha256``).
BUILTIN = ""
_EFFECT_KINDS = ("deal", "heal", "remove", "recast_spent", "prevent_flip")
_TRIGGERS = ("surge", "agility", "passive")
_SPACE_SYMBOLS = (Sym.AGILITY, Sym.DOUBLE, Sym.SURGE, Sym.TACTICS, Sym.SKULL)
#: Symbols an enemy token may show: enemies never spend physical, magic or charge damage.
_ENEMY_SYMBOLS = frozenset(Sym) - {Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE}
_ENEMY_DEAL = (Sym.SKULL,)
_HERO_DEAL = (Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE)

#: The reader of Runebound's content (the core's strict cattrs reader).
READER = ContentReader()


class _Entry:
    """Where one entry came from, for errors that name the file, the entry and the (dotted) field."""

    def __init__(self, file: str, entry: str, prefix: str = "") -> None:
        self.file, self.entry, self.prefix = file, entry, prefix

    def error(self, field: str, problem: str) -> ContentError:
        return ContentError(self.file, self.entry, f"{self.prefix}{field}", problem)

    def sub(self, where: str) -> _Entry:
        return _Entry(self.file, self.entry, f"{self.prefix}{where}.")

    def within(self, field: str, value: int, low: int, high: int) -> int:
        if not low <= value <= high:
            raise self.error(field, f"{value} is not in {low}..{high}")
        return value

    def allowed(self, field: str, sym: Sym, allowed: tuple[Sym, ...] | frozenset[Sym]) -> Sym:
        if sym not in allowed:
            raise self.error(field, f"{sym.value!r} is not allowed here")
        return sym

    def trait(self, trait: str) -> str:
        if trait not in TRAITS:
            raise self.error("trait", f"{trait!r} is not one of {TRAITS}")
        return trait

    def named(self, field: str, text: str) -> str:
        if not text.strip():
            raise self.error(field, "must not be empty")
        return text


def _face(e: _Entry, field: str, text: str) -> Face:
    try:
        return parse_face(text)
    except ValueError as exc:
        raise e.error(field, str(exc)) from None


def _token(e: _Entry, field: str, name: str, text: str) -> Token:
    """A token written ``"A/B"`` (two faces)."""
    if text.count("/") != 1:
        raise e.error(field, f"expected a token like '2P/U', got {text!r}")
    a, b = text.split("/")
    return TwoSidedToken(name, _face(e, field, a), _face(e, field, b))


def _ability(e: _Entry, field: str, i: int, raw: AbilityEntry, hero: bool) -> Ability:
    a = e.sub(f"{field}[{i}]")
    if raw.trigger not in _TRIGGERS:
        raise a.error("trigger", f"{raw.trigger!r} is not one of {_TRIGGERS}")
    if hero and raw.trigger != "surge":
        raise a.error("trigger", "hero abilities are surge abilities")
    if raw.trigger == "surge":
        if raw.cost is None:
            raise a.error("cost", "missing")
        cost = a.within("cost", raw.cost, 1, 6)
    else:
        cost = a.within("cost", 0 if raw.cost is None else raw.cost, 0, 6)
    if not raw.effects:
        raise a.error("effects", "an ability needs at least one effect")
    effects = tuple(_effect(a, "effects", j, eff, hero) for j, eff in enumerate(raw.effects))
    for j, eff in enumerate(effects[:-1]):
        if eff.is_choice:
            raise a.error(f"effects[{j}]", "an effect with a choice must be the ability's last effect")
    if any(eff.kind == "prevent_flip" for eff in effects) and raw.trigger != "passive":
        raise a.error("trigger", "prevent_flip is a passive ability")
    if raw.trigger == "passive" and any(eff.kind != "prevent_flip" for eff in effects):
        raise a.error("effects", "passive abilities support only prevent_flip")
    return Ability(a.named("name", raw.name), raw.trigger, cost, effects, raw.cancel_by_tactics, raw.text)


def _effect(a: _Entry, field: str, j: int, eff: Effect, hero: bool) -> Effect:
    f = a.sub(f"{field}[{j}]")
    if eff.kind not in _EFFECT_KINDS:
        raise f.error("kind", f"{eff.kind!r} is not one of {_EFFECT_KINDS}")
    f.within("amount", eff.amount, 0, 9)
    if eff.kind == "deal":
        if eff.amount < 1:
            raise f.error("amount", "deal needs an amount of at least 1")
        allowed = _HERO_DEAL if hero else _ENEMY_DEAL
        if eff.symbol not in allowed:
            raise f.error("symbol", f"a {'hero' if hero else 'enemy'} deals one of {[s.value for s in allowed]}")
    elif eff.kind == "heal" and eff.amount < 1:
        raise f.error("amount", "heal needs an amount of at least 1")
    elif eff.kind == "remove" and eff.symbol is None:
        raise f.error("symbol", "remove names the symbol of the foe's tokens it removes")
    if (hero and eff.kind in ("recast_spent", "prevent_flip")) or (hero and eff.kind == "remove" and eff.amount > 0):
        raise f.error("kind", "hero abilities cannot leave a choice to the rules engine")
    return eff


def _load_token_set(e: _Entry, raw: TokenSetEntry) -> TokenSet:
    trait = e.trait(raw.trait)
    if not 1 <= len(raw.tokens) <= MAX_TOKENS:
        raise e.error("tokens", f"a token set holds 1 to {MAX_TOKENS} tokens")
    tokens, acts = [], []
    for i, t in enumerate(raw.tokens):
        te = e.sub(f"tokens[{i}]")
        token = _token(te, "faces", te.named("id", t.id), t.faces)
        for face in (token.a, token.b):
            if face.symbol not in _ENEMY_SYMBOLS:
                raise te.error("faces", f"enemy tokens never show {face.symbol.value} (only heroes spend it)")
        acts.append(te.within("act", t.act, 1, 2))
        tokens.append(token)
    return TokenSet(trait, tuple(tokens), tuple(acts), raw.source)


def _load_board(e: _Entry, raw: BoardEntry) -> Board:
    trait = e.trait(raw.trait)
    t = e.sub("title")
    if raw.title.effect not in ("deal", "heal"):
        raise t.error("effect", "a title ability deals skull or heals")
    t.within("amount", raw.title.amount, 1, 5)
    seen: set[Sym] = set()
    for i, space in enumerate(raw.spaces):
        s = e.sub(f"spaces[{i}]")
        sym = s.allowed("symbol", space.symbol, _SPACE_SYMBOLS)
        if sym in seen:
            raise s.error("symbol", f"the board already has a {sym.value} space")
        seen.add(sym)
        if sym == Sym.AGILITY and space.mode not in ("recast_foe", "flip_own"):
            raise s.error("mode", "an agility space is recast_foe or flip_own")
        if sym != Sym.AGILITY and space.mode:
            raise s.error("mode", "only agility spaces have a mode")
        prio = space.priority
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
        s.within("plus", space.plus, 0, 3)
        if space.plus and sym != Sym.SKULL:
            raise s.error("plus", "only the skull space carries a + symbol here")
    if seen != set(_SPACE_SYMBOLS):
        raise e.error("spaces", f"a board has one space of each of {[s.value for s in _SPACE_SYMBOLS]}")
    return Board(trait, raw.title, raw.spaces, raw.source)


def _load_hero(e: _Entry, raw: HeroEntry) -> HeroDef:
    name = e.named("name", raw.name)
    if not 1 <= len(raw.tokens) <= MAX_HERO_TOKENS:
        raise e.error("tokens", f"a hero has 1 to {MAX_HERO_TOKENS} tokens")
    tokens = tuple(_token(e, f"tokens[{i}]", f"{name} {i + 1}", t) for i, t in enumerate(raw.tokens))
    for i, t in enumerate(tokens):
        if Sym.SKULL in (t.a.symbol, t.b.symbol):
            raise e.error(f"tokens[{i}]", "heroes never show skulls (only enemies spend them)")
    abilities = tuple(_ability(e, "abilities", i, a, hero=True) for i, a in enumerate(raw.abilities))
    if len(abilities) > MAX_HERO_ABILITIES:
        raise e.error("abilities", f"at most {MAX_HERO_ABILITIES} surge abilities")
    if len(raw.cards) > MAX_CARDS:
        raise e.error("cards", f"up to {MAX_CARDS} card names")
    return HeroDef(name, e.within("health", raw.health, 1, 30), tokens, abilities, raw.cards, raw.source)


def _load_enemy(e: _Entry, raw: EnemyEntry) -> EnemyDef:
    trait = e.trait(raw.trait)
    abilities = tuple(_ability(e, "abilities", i, a, hero=False) for i, a in enumerate(raw.abilities))
    if sum(a.trigger == "agility" for a in abilities) > 1:
        raise e.error("abilities", "at most one agility ability")
    if len(abilities) > MAX_ENEMY_ABILITIES:
        raise e.error("abilities", f"at most {MAX_ENEMY_ABILITIES} abilities")
    name = e.named("name", raw.name)
    return EnemyDef(name, trait, e.within("health", raw.health, 1, 30), abilities, raw.source)


def _load_asset(e: _Entry, raw: AssetEntry) -> Asset:
    name = e.named("name", raw.name)
    token = _token(e, "token", name, raw.token)
    if Sym.SKULL in (token.a.symbol, token.b.symbol):
        raise e.error("token", "asset tokens never show skulls")
    return Asset(name, token, raw.source)


def _load_card(e: _Entry, raw: CardEntry) -> CardDef:
    remove = e.within("remove", raw.remove, 0, 3)
    symbols = tuple(e.allowed("symbols", s, _HERO_DEAL) for s in raw.symbols)
    deal = e.within("deal", raw.deal, 0, 9)
    heal = e.within("heal", raw.heal, 0, 9)
    if deal and not symbols:
        raise e.error("symbols", "a card that deals damage names the damage symbols it removes and deals")
    if not deal and not heal:
        raise e.error("deal", "a combat card deals damage or heals")
    name = e.named("name", raw.name)
    return CardDef(name, remove, symbols, deal, heal, raw.unblockable, raw.text, raw.source)


#: Per array-of-tables key: the entry's schema class, the field naming it, and the builder of the game's class.
_KINDS: dict[str, tuple[type, str, Callable[[_Entry, Any], Any]]] = {
    "token_set": (TokenSetEntry, "trait", _load_token_set),
    "board": (BoardEntry, "trait", _load_board),
    "hero": (HeroEntry, "name", _load_hero),
    "enemy": (EnemyEntry, "name", _load_enemy),
    "asset": (AssetEntry, "name", _load_asset),
    "card": (CardEntry, "name", _load_card),
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
        if not isinstance(doc.get(key, []), list):
            raise ContentError(file, "-", key, "expected an array of tables")
        cls, id_field, build = _KINDS[key]
        entries: tuple[Any, ...] = READER.entries(doc, key, cls, file=file, id_field=id_field)
        for i, raw in enumerate(entries):
            ident = getattr(raw, id_field)
            value = build(_Entry(file, ident if ident.strip() else f"{key}[{i}]"), raw)
            out[key][getattr(raw, id_field)] = value
    return out


def _assemble(entries: dict[str, dict[str, Any]], where: str, name: str, sha256: str) -> Content:
    content = Content(
        token_sets=entries["token_set"],
        boards=entries["board"],
        heroes=entries["hero"],
        enemies=entries["enemy"],
        assets=entries["asset"],
        cards=entries["card"],
        name=name,
        sha256=sha256,
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
    texts = _builtin_texts()
    return _assemble(parse_pack(texts), "runebound_coop/content", BUILTIN, content_digest(texts))


#: The packs Runebound can play: the built-in pack (named ``""``), and the custom packs callers have passed to
#: ``new_game`` (or added with ``PACKS.add``), by name and SHA-256. A saved game is resolved here, never read.
PACKS: PackStore[Content] = PackStore("runebound_coop", BUILTIN, builtin_content)


def load_content(path: str | os.PathLike[str] | None = None, *, name: str | None = None) -> Content:
    """The built-in pack, plus the entries of the custom pack directory ``path`` the caller chose (same files,
    same validation). Pass the pack to ``new_game(pack=...)`` to play it.

    Args:
        path: the pack's directory; its ``*.toml`` files are read when regular UTF-8 files of bounded size.
        name: the pack's name in saved games (default: the directory's name, made a pack name).

    Raises:
        ContentError: naming the file, the entry and the field of the first problem.
    """
    if path is None or str(path) == "":
        return builtin_content()
    folder = Path(path)
    if not folder.is_dir():
        raise ContentError(str(folder), "-", "-", "a custom pack is a directory of TOML files")
    # The core's reader: regular files only, bounded in size, UTF-8 problems reported as ContentError.
    custom = {p.name: read_text(p) for p in sorted(folder.glob("*.toml"))[: len(FILES) + 1]}
    return content_from_texts(custom, name=name if name is not None else pack_name(folder.name), where=str(folder))


def content_from_texts(custom: Mapping[str, str], *, name: str, where: str = "<memory>") -> Content:
    """The built-in pack plus the custom pack files ``custom`` (file name -> TOML text), validated whole.

    Args:
        custom: the custom pack's files, by their names in :data:`FILES`.
        name: the pack's name.
        where: where the files came from, in error messages (``where/heroes.toml``).

    Raises:
        ContentError: naming the file, the entry and the field of the first problem.
    """
    try:
        extra = parse_pack(custom)
    except ContentError as exc:
        raise ContentError(f"{where}/{exc.file}", exc.entry, exc.field, exc.problem) from None
    merged = parse_pack(_builtin_texts())
    for key, values in extra.items():
        merged[key].update(values)
    sha256 = content_digest({**custom, "<extends>": builtin_content().sha256})
    return _assemble(merged, where, name, sha256)


def content_of(pack: str) -> Content:
    """The pack a game's options name: ``""`` (the built-in pack) or ``name@sha256`` (:class:`PackRef`).

    Raises:
        ContentError: the reference is malformed, or names a pack this process was not given.
    """
    if pack == BUILTIN:
        return builtin_content()
    try:
        ref = PackRef.parse(pack)
    except ValueError as exc:
        raise ContentError("<options>", "-", "pack", str(exc)) from None
    return PACKS.get(ref.name, ref.sha256)


def pack_option(pack: Any) -> Any:
    """What a caller's ``pack`` option becomes in the options: a pack object or a ``pathlib.Path`` (read here,
    the caller chose it) is added to :data:`PACKS` and named ``name@sha256``; a bare name means the pack last
    given under it; anything else is left for the options' validator.

    Raises:
        ContentError: the file cannot be read or is invalid, or no pack of that name was given.
    """
    if isinstance(pack, os.PathLike):
        pack = load_content(pack)
    if isinstance(pack, Content):
        return BUILTIN if pack is builtin_content() else str(PACKS.add(pack))
    if isinstance(pack, str) and pack and "@" not in pack and PACK_NAME.fullmatch(pack):
        return str(PACKS.named(pack))
    return pack
