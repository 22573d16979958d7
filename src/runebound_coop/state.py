"""Options and state values: small, frozen and hashable (search and the odds calculator hash them by the million).

Token pools are bitmasks: bit ``i`` of :attr:`Pool.sides` is the side token ``i`` landed on, bit ``i`` of
:attr:`Pool.spent` is set once it is spent and of :attr:`Pool.removed` once an effect removed it. A token reference
(``ref``) is the token's index for the hero and ``ENEMY_REF + index`` for the enemy.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop_core.flow import Flow, Pending, Phase, Position

__all__ = [
    "CHOICE_MODES",
    "ENEMY",
    "ENEMY_REF",
    "FLOW",
    "HERO",
    "CancelFrame",
    "ChoiceFrame",
    "Fight",
    "Frame",
    "Pool",
    "RuneboundOptions",
    "RuneboundState",
]

HERO, ENEMY = 0, 1
#: Token references of the enemy's tokens start here.
ENEMY_REF = 16
#: The values of the ``enemy_choices`` option.
CHOICE_MODES = ("evaluate", "damage", "player")

#: The turn structure as data: choose who engages, then combat rounds (cast, actions, round end), then the result.
FLOW = Flow(
    (
        Phase("encounter", ("engage",)),
        Phase("combat", ("cast", "actions", "round_end")),
        Phase("over", ("result",)),
    )
)


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    return tuple(value)  # type: ignore[arg-type]  # any iterable of names; validators check the items


def _nested(value: object) -> tuple[tuple[str, ...], ...]:
    return tuple(_names(v) for v in value)  # type: ignore[attr-defined]  # an iterable of name lists


def _nested_or_none(value: object) -> tuple[tuple[str, ...], ...] | None:
    return None if value is None else _nested(value)


@attrs.frozen(cache_hash=True)
class RuneboundOptions:
    """The options of a co-op encounter (validated against the content pack by the game).

    Attributes:
        heroes: 1 to 4 hero names, one per player (default: Elian and Corbin, a two-hero party).
        enemies: the encounter, fought in this order (1 to 8 enemy names; repeats allowed; default: the
            rulebook's Sorcerer, then its Orc Brigand).
        assets: per hero, the assets whose tokens join that hero's pool.
        cards: per hero, the skill cards in hand (``None``: each hero's own starting cards).
        enemy_choices: ``evaluate`` (the enemy takes the choice most detrimental to the hero by the documented
            evaluation), ``damage`` (the rulebook's alternative: 2 damage to the hero instead of the effect) or
            ``player`` (the enemy is an extra, last player who decides).
        act: 1 or 2 (the Warrior set's sixth token joins in act II).
        retreat: whether the engaged hero may withdraw from a fight at the end of each round.
        hand: skill cards each hero holds to exert (each exert discards one) for its cards' combat actions.
        max_rounds: rounds after which an undecided fight ends with the hero withdrawing.
        pack: a directory with a custom content pack ('' for the built-in pack only).
    """

    heroes: tuple[str, ...] = attrs.field(default=("Elian", "Corbin"), converter=_names)
    enemies: tuple[str, ...] = attrs.field(default=("Sorcerer", "Orc Brigand"), converter=_names)
    assets: tuple[tuple[str, ...], ...] = attrs.field(default=(), converter=_nested)
    cards: tuple[tuple[str, ...], ...] | None = attrs.field(default=None, converter=_nested_or_none)
    enemy_choices: str = attrs.field(default="evaluate", validator=attrs.validators.in_(CHOICE_MODES))
    act: int = attrs.field(default=1, validator=attrs.validators.in_((1, 2)))
    retreat: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))
    hand: int = attrs.field(default=2)
    max_rounds: int = attrs.field(default=10)
    pack: str = attrs.field(default="", validator=attrs.validators.instance_of(str))

    @heroes.validator
    def _check_heroes(self, _a: object, heroes: tuple[str, ...]) -> None:
        if not 1 <= len(heroes) <= 4:
            raise ValueError(f"1 to 4 heroes, not {len(heroes)}")
        if len(set(heroes)) != len(heroes):
            raise ValueError(f"each hero plays once: {heroes}")

    @enemies.validator
    def _check_enemies(self, _a: object, enemies: tuple[str, ...]) -> None:
        if not 1 <= len(enemies) <= 8:
            raise ValueError(f"1 to 8 enemies, not {len(enemies)}")

    @assets.validator
    def _check_assets(self, _a: object, assets: tuple[tuple[str, ...], ...]) -> None:
        if len(assets) > len(self.heroes) or any(len(a) > 4 for a in assets):
            raise ValueError("assets: one list (up to 4 assets) per hero")

    @cards.validator
    def _check_cards(self, _a: object, cards: tuple[tuple[str, ...], ...] | None) -> None:
        if cards is not None and (len(cards) != len(self.heroes) or any(len(c) > 4 for c in cards)):
            raise ValueError("cards: one list (up to 4 cards) per hero")

    @hand.validator
    def _check_hand(self, _a: object, value: int) -> None:
        if type(value) is not int or not 0 <= value <= 10:
            raise ValueError(f"hand must be an integer in 0..10, not {value!r}")

    @max_rounds.validator
    def _check_rounds(self, _a: object, value: int) -> None:
        if type(value) is not int or not 1 <= value <= 50:
            raise ValueError(f"max_rounds must be an integer in 1..50, not {value!r}")

    def __attrs_post_init__(self) -> None:
        from runebound_coop.rules.setup import build_setup

        build_setup(self)  # unknown names raise ValueError (new_game turns it into OptionError)

    @property
    def num_players(self) -> int:
        """The heroes, plus the enemy when it decides its own choices."""
        return len(self.heroes) + (self.enemy_choices == "player")


@attrs.frozen(cache_hash=True)
class Pool:
    """One combatant's cast tokens as bitmasks, plus the doubles placed on other tokens.

    Attributes:
        sides: bit ``i``: the side token ``i`` shows.
        spent: bit ``i``: token ``i`` has been spent this round.
        removed: bit ``i``: token ``i`` was removed by an effect this round.
        links: ``double * 16 + target`` for each double placed on a token of this pool.
    """

    TAG: ClassVar[str] = "runebound_coop.pool"
    sides: int = 0
    spent: int = 0
    removed: int = 0
    links: tuple[int, ...] = ()

    def but(
        self,
        *,
        sides: int | None = None,
        spent: int | None = None,
        removed: int | None = None,
        links: tuple[int, ...] | None = None,
    ) -> Pool:
        """A copy with the given fields replaced (a fast ``attrs.evolve``)."""
        return Pool(
            self.sides if sides is None else sides,
            self.spent if spent is None else spent,
            self.removed if removed is None else removed,
            self.links if links is None else links,
        )

    def side(self, i: int) -> int:
        """The side token ``i`` shows."""
        return (self.sides >> i) & 1

    def is_live(self, i: int) -> bool:
        """Whether token ``i`` is still in the pool (neither spent nor removed)."""
        return not ((self.spent | self.removed) >> i) & 1

    def doubled(self, i: int) -> bool:
        """Whether a double sits on token ``i``."""
        return any(link & 15 == i for link in self.links)


@attrs.frozen(cache_hash=True)
class Fight:
    """One hero fighting one enemy.

    Attributes:
        hero: the engaged hero's index. enemy: the enemy's index in the encounter.
        hero_pool, enemy_pool: the two pools.
        casting: token refs still to be cast (each is one chance node), first first.
        turn: the side to act next (``HERO`` or ``ENEMY``).
        passed: bit per side that has passed this round.
        charged: bit per side that spent charge this round (it cannot block).
        used: what was used this round: bit ``a`` for hero ability ``a``, bit ``8 + a`` for enemy ability ``a``,
            bit ``16 + c`` for the hero's card ``c``.
    """

    TAG: ClassVar[str] = "runebound_coop.fight"
    hero: int
    enemy: int
    hero_pool: Pool = Pool()
    enemy_pool: Pool = Pool()
    casting: tuple[int, ...] = ()
    turn: int = HERO
    passed: int = 0
    charged: int = 0
    used: int = 0

    def pool(self, side: int) -> Pool:
        """The pool of ``side``."""
        return self.hero_pool if side == HERO else self.enemy_pool

    def with_pool(self, side: int, pool: Pool) -> Fight:
        """The fight with ``side``'s pool replaced."""
        if side == HERO:
            return self.but(hero_pool=pool)
        return self.but(enemy_pool=pool)

    def but(
        self,
        *,
        hero_pool: Pool | None = None,
        enemy_pool: Pool | None = None,
        casting: tuple[int, ...] | None = None,
        turn: int | None = None,
        passed: int | None = None,
        charged: int | None = None,
        used: int | None = None,
    ) -> Fight:
        """A copy with the given fields replaced (a fast ``attrs.evolve``)."""
        return Fight(
            self.hero,
            self.enemy,
            self.hero_pool if hero_pool is None else hero_pool,
            self.enemy_pool if enemy_pool is None else enemy_pool,
            self.casting if casting is None else casting,
            self.turn if turn is None else turn,
            self.passed if passed is None else passed,
            self.charged if charged is None else charged,
            self.used if used is None else used,
        )


@attrs.frozen
class CancelFrame:
    """The hero may spend 1 tactics to cancel enemy ability ``ability`` (its surge already paid)."""

    TAG: ClassVar[str] = "runebound_coop.cancel"
    ability: int


@attrs.frozen
class ChoiceFrame:
    """The enemy player picks one of ``candidates`` (token refs) for effect ``kind``.

    ``source`` is the enemy token spent by the choice (or -1 when already paid); ``rest`` the further sources of
    the same space still to resolve; ``symbol`` the symbol a ``remove`` effect removes.
    """

    TAG: ClassVar[str] = "runebound_coop.choice"
    kind: str
    source: int
    candidates: tuple[int, ...]
    rest: tuple[int, ...] = ()
    symbol: str = ""


Frame = CancelFrame | ChoiceFrame


class _Keep:
    """The type of :data:`KEEP`: "leave this field as it is"."""


KEEP = _Keep()


@attrs.frozen(cache_hash=True)
class RuneboundState:
    """The whole truth of an encounter (perfect information).

    Attributes:
        options: the options (heroes, enemies, ...).
        pos: the flow position; ``pos.round`` is the round of the current fight.
        pending: sub-decisions that interrupt the flow (the hero's cancel, the enemy player's choices).
        hero_damage, enemy_damage: damage on each hero and enemy (persists between fights).
        out: bit per hero that has been defeated.
        withdrawn: bit per hero that withdrew from a fight (it engages no more).
        hand: per hero, the skill cards left in hand to exert (discard) for card combat actions.
        fight: the fight in progress, if any.
    """

    TAG: ClassVar[str] = "runebound_coop.state"
    options: RuneboundOptions
    pos: Position
    pending: Pending[Frame]
    hero_damage: tuple[int, ...]
    enemy_damage: tuple[int, ...]
    out: int = 0
    withdrawn: int = 0
    hand: tuple[int, ...] = ()
    fight: Fight | None = None

    def but(
        self,
        *,
        pos: Position | None = None,
        pending: Pending[Frame] | None = None,
        hero_damage: tuple[int, ...] | None = None,
        enemy_damage: tuple[int, ...] | None = None,
        out: int | None = None,
        withdrawn: int | None = None,
        hand: tuple[int, ...] | None = None,
        fight: Fight | _Keep | None = KEEP,
    ) -> RuneboundState:
        """A copy with the given fields replaced (a fast ``attrs.evolve``; ``fight=None`` ends the fight)."""
        return RuneboundState(
            self.options,
            self.pos if pos is None else pos,
            self.pending if pending is None else pending,
            self.hero_damage if hero_damage is None else hero_damage,
            self.enemy_damage if enemy_damage is None else enemy_damage,
            self.out if out is None else out,
            self.withdrawn if withdrawn is None else withdrawn,
            self.hand if hand is None else hand,
            self.fight if isinstance(fight, _Keep) else fight,
        )
