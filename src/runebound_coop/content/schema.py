"""The content schema: symbols, token faces, tokens, boards, heroes, enemies, assets and skill cards.

Every entry is a frozen attrs value built by :mod:`runebound_coop.content.loader` from TOML: the core's content
reader structures each file's entries into the ``*Entry`` classes below (their shape is the file's), the loader
checks the rules the types cannot say and builds the game's classes (errors name the file, the entry and the
field). Faces are written in the reference's notation: an optional value, one symbol letter and ``*`` for the
initiative mark, e.g. ``"2P*"`` (2 physical with initiative) or ``"B"``.

>>> parse_face("2P*")
Face(symbol=<Sym.PHYSICAL: 'physical'>, value=2, initiative=True)
>>> str(parse_face("K"))
'K'
"""

from __future__ import annotations

import re
from enum import StrEnum

import attrs

from runebound_coop.limits import MAX_FACE_VALUE
from tabletop_core.components import TwoSidedToken
from tabletop_core.content import Source

__all__ = [
    "AGILITY",
    "BLANK",
    "CHARGE",
    "DAMAGE",
    "DOUBLE",
    "SHIELD",
    "SKULL",
    "SURGE",
    "TACTICS",
    "Ability",
    "AbilityEntry",
    "Asset",
    "AssetEntry",
    "Board",
    "BoardEntry",
    "CardDef",
    "CardEntry",
    "Content",
    "Effect",
    "EnemyDef",
    "EnemyEntry",
    "Face",
    "HeroDef",
    "HeroEntry",
    "Space",
    "Sym",
    "TitleAbility",
    "Token",
    "TokenEntry",
    "TokenSet",
    "TokenSetEntry",
    "parse_face",
]


class Sym(StrEnum):
    """A combat symbol."""

    PHYSICAL = "physical"
    MAGIC = "magic"
    SKULL = "skull"
    SHIELD = "shield"
    AGILITY = "agility"
    DOUBLE = "double"
    SURGE = "surge"
    BLANK = "blank"
    TACTICS = "tactics"
    CHARGE = "charge"

    @property
    def letter(self) -> str:
        """The one-letter code of the reference's notation."""
        return _LETTER_OF[self]


# Each symbol as a module constant, for the rules' hot paths: an enum member looked up on its class (``Sym.SKULL``)
# goes through the enum's metaclass, about 0.2 us a lookup in Python 3.11, several times a step.
AGILITY = Sym.AGILITY
BLANK = Sym.BLANK
CHARGE = Sym.CHARGE
DOUBLE = Sym.DOUBLE
SHIELD = Sym.SHIELD
SKULL = Sym.SKULL
SURGE = Sym.SURGE
TACTICS = Sym.TACTICS

_LETTER_OF = {
    Sym.PHYSICAL: "P",
    Sym.MAGIC: "M",
    Sym.SKULL: "K",
    Sym.SHIELD: "S",
    Sym.AGILITY: "A",
    Sym.DOUBLE: "D",
    Sym.SURGE: "U",
    Sym.BLANK: "B",
    Sym.TACTICS: "T",
    Sym.CHARGE: "C",
}
_SYM_OF = {v: k for k, v in _LETTER_OF.items()}
#: The hero damage symbols (the hero spends one type per action).
DAMAGE = (Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE)
_FACE_RE = re.compile(rf"^([1-{MAX_FACE_VALUE}]?)([PMKSADUBTC])(\*?)$")


@attrs.frozen
class Face:
    """One face of a combat token: a symbol, its value and whether it carries the initiative mark."""

    symbol: Sym
    value: int = 1
    initiative: bool = False

    def __str__(self) -> str:
        number = str(self.value) if self.value != 1 else ""
        return f"{number}{self.symbol.letter}{'*' if self.initiative else ''}"


def parse_face(text: str) -> Face:
    """Read a face written as ``[value]LETTER[*]``.

    Raises:
        ValueError: when ``text`` is not a face.
    """
    m = _FACE_RE.match(text.strip())
    if not m:
        raise ValueError(f"{text!r} is not a face (value 1-{MAX_FACE_VALUE}, a letter of PMKSADUBTC, optional '*')")
    value = int(m.group(1)) if m.group(1) else 1
    return Face(_SYM_OF[m.group(2)], value, m.group(3) == "*")


#: A combat token: a two-sided token whose faces are :class:`Face` values.
Token = TwoSidedToken[Face]


@attrs.frozen
class Effect:
    """One effect of an ability.

    Kinds: ``deal`` (deal ``amount`` of ``symbol`` damage to the foe, blockable unless ``unblockable``),
    ``heal`` (remove ``amount`` damage from yourself), ``remove`` (remove the foe's unspent tokens showing
    ``symbol``: all of them, or ``amount`` of them when ``amount`` > 0, a choice), ``recast_spent`` (recast any
    spent token of either combatant, a choice), ``prevent_flip`` (passive: spend ``amount`` surge to stop the
    foe's flip).
    """

    kind: str
    amount: int = 0
    symbol: Sym | None = None
    unblockable: bool = False

    @property
    def is_choice(self) -> bool:
        """Whether resolving this effect leaves a choice to make."""
        return self.kind == "recast_spent" or (self.kind == "remove" and self.amount > 0)


@attrs.frozen
class Ability:
    """A surge, agility or passive ability on a hero or enemy card.

    Attributes:
        name: the ability's name.
        trigger: ``surge`` (pay ``cost`` surge), ``agility`` (spend an agility token; replaces the board's
            agility space) or ``passive`` (fires on its own, e.g. Orc Brigand's flip prevention).
        cost: surge cost (surge abilities).
        effects: what it does, in order.
        cancel_by_tactics: the foe may spend 1 tactics to cancel it (Sorcerer's Blast).
        text: original wording.
    """

    name: str
    trigger: str
    cost: int
    effects: tuple[Effect, ...]
    cancel_by_tactics: bool = False
    text: str = ""


@attrs.frozen
class CardDef:
    """A skill card with a combat action, used by exerting (discarding a skill card from hand), once per round.

    The action removes ``remove`` of your unspent tokens showing one symbol of ``symbols`` (the same symbol),
    then deals ``deal`` damage of that symbol (unblockable if ``unblockable``) and heals ``heal``.
    """

    name: str
    remove: int
    symbols: tuple[Sym, ...]
    deal: int
    heal: int
    unblockable: bool
    text: str
    source: str


@attrs.frozen
class Space:
    """A space of a combat board.

    Attributes:
        symbol: the symbol whose tokens sit here (agility, double, surge, tactics or skull).
        mode: agility spaces: ``recast_foe`` or ``flip_own``.
        priority: double spaces: the symbols to double, first first; tactics spaces: the symbols to copy.
        plus: the "+N" of the space (added only when at least one token is resolved).
    """

    symbol: Sym
    mode: str = ""
    priority: tuple[Sym, ...] = ()
    plus: int = 0


@attrs.frozen
class TitleAbility:
    """A board's title ability: at the end of each round, if a ``symbol`` is unspent in the enemy's pool, the
    enemy deals ``amount`` skull (``effect = "deal"``) or heals ``amount`` (``effect = "heal"``)."""

    symbol: Sym
    effect: str
    amount: int
    text: str


@attrs.frozen
class Board:
    """A combat board: the trait it plays, its title ability and its spaces top to bottom."""

    trait: str
    title: TitleAbility
    spaces: tuple[Space, ...]
    source: str


@attrs.frozen
class TokenSet:
    """The enemy tokens of one trait (the Warrior set is the base game's enemy tokens)."""

    trait: str
    tokens: tuple[Token, ...]
    acts: tuple[int, ...]
    source: str

    def for_act(self, act: int) -> tuple[Token, ...]:
        """The tokens cast in ``act`` (a token of act II joins the set in act II)."""
        return tuple(t for t, a in zip(self.tokens, self.acts, strict=True) if a <= act)


@attrs.frozen
class HeroDef:
    """A hero: health, three combat tokens, surge abilities and the skill cards it starts with."""

    name: str
    health: int
    tokens: tuple[Token, ...]
    abilities: tuple[Ability, ...]
    cards: tuple[str, ...]
    source: str


@attrs.frozen
class EnemyDef:
    """An enemy: its trait (token set and board), health and abilities (surge ones in card order, top first)."""

    name: str
    trait: str
    health: int
    abilities: tuple[Ability, ...]
    source: str

    @property
    def surge_abilities(self) -> tuple[Ability, ...]:
        """The surge abilities, top of the card first."""
        return tuple(a for a in self.abilities if a.trigger == "surge")

    @property
    def agility_ability(self) -> Ability | None:
        """The agility ability that replaces the board's agility space, if any."""
        return next((a for a in self.abilities if a.trigger == "agility"), None)

    @property
    def flip_prevention(self) -> int:
        """The surge cost of the passive flip prevention (0 when the enemy has none)."""
        for a in self.abilities:
            for e in a.effects:
                if a.trigger == "passive" and e.kind == "prevent_flip":
                    return max(1, e.amount)
        return 0


@attrs.frozen
class Asset:
    """An asset that adds one combat token to its hero's pool."""

    name: str
    token: Token
    source: str


@attrs.frozen(eq=False)
class Content:
    """A whole content pack, keyed by name (trait for boards and token sets).

    Attributes:
        name: ``""`` for the built-in pack; a custom pack's name (a word, never a path).
        sha256: the SHA-256 of the pack's content, which a game's options record with the name.
    """

    token_sets: dict[str, TokenSet]
    boards: dict[str, Board]
    heroes: dict[str, HeroDef]
    enemies: dict[str, EnemyDef]
    assets: dict[str, Asset]
    cards: dict[str, CardDef]
    name: str = ""
    sha256: str = ""


# ----- the entries as the TOML files write them (structured by the core's reader, then checked and built) ---------


@attrs.frozen
class TokenEntry:
    """A token of a ``[[token_set]]``: its id, its faces written ``"A/B"`` and the act it joins in."""

    id: str
    faces: str
    act: int = 1


@attrs.frozen
class TokenSetEntry:
    """A ``[[token_set]]`` entry of ``token_sets.toml``."""

    trait: str
    source: Source
    tokens: tuple[TokenEntry, ...]


@attrs.frozen
class AbilityEntry:
    """An ability as a hero or enemy entry writes it (``cost`` defaults by trigger)."""

    name: str
    trigger: str
    source: Source
    effects: tuple[Effect, ...]
    cost: int | None = None
    cancel_by_tactics: bool = False
    text: str = ""


@attrs.frozen
class BoardEntry:
    """A ``[[board]]`` entry of ``boards.toml``."""

    trait: str
    source: Source
    title: TitleAbility
    spaces: tuple[Space, ...]


@attrs.frozen
class HeroEntry:
    """A ``[[hero]]`` entry of ``heroes.toml`` (tokens written ``"A/B"``, cards by name)."""

    name: str
    health: int
    tokens: tuple[str, ...]
    source: Source
    abilities: tuple[AbilityEntry, ...] = ()
    cards: tuple[str, ...] = ()


@attrs.frozen
class EnemyEntry:
    """An ``[[enemy]]`` entry of ``enemies.toml``."""

    name: str
    trait: str
    health: int
    source: Source
    abilities: tuple[AbilityEntry, ...] = ()


@attrs.frozen
class AssetEntry:
    """An ``[[asset]]`` entry of ``assets.toml`` (its token written ``"A/B"``)."""

    name: str
    token: str
    source: Source


@attrs.frozen
class CardEntry:
    """A ``[[card]]`` entry of ``cards.toml``."""

    name: str
    source: Source
    remove: int = 0
    symbols: tuple[Sym, ...] = ()
    deal: int = 0
    heal: int = 0
    unblockable: bool = False
    text: str = ""
