"""Options and state values: small, frozen and hashable (search and the odds calculator hash them by the million).

Token pools are bitmasks: bit ``i`` of :attr:`Pool.sides` is the side token ``i`` landed on, bit ``i`` of
:attr:`Pool.spent` is set once it is spent and of :attr:`Pool.removed` once an effect removed it. The integer
concepts have names and helpers, so no call site packs bits by hand:

- :data:`Side`: ``HERO`` (0) or ``ENEMY`` (1); bit ``side`` of ``Fight.passed`` / ``Fight.charged``.
- :data:`TokenRef`: a token of either pool, the token's index for the hero and ``ENEMY_REF + index`` for the
  enemy (:func:`token_ref`, :func:`split_ref`).
- :data:`Link`: a double placed on a token, ``double * LINK_BASE + target`` (:func:`make_link`,
  :func:`link_double`, :func:`link_target`).
- :data:`UsedBit`: a bit of ``Fight.used``: hero ability ``a`` (:func:`hero_ability_bit`), enemy ability ``a``
  (:func:`enemy_ability_bit`), the hero's card ``c`` (:func:`card_bit`).

These are aliases over the same ints, so the JSON form of a state is the one the records were made with.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, TypeAlias

import attrs

from runebound_coop.actions import Action, Attack, Block, Choose, Exert, Respond
from runebound_coop.content.roster import Setup, build_setup
from runebound_coop.limits import MAX_ASSETS, MAX_CARDS, MAX_ENEMIES, MAX_HAND, MAX_HEROES, MAX_ROUNDS, MAX_TOKENS
from tabletop_core.content import PackRef
from tabletop_core.fastcopy import accelerate, replace, replacer
from tabletop_core.flow import Decision, Flow, FrameRegistry, Pending, Phase, Position
from tabletop_core.flow import Frame as CoreFrame
from tabletop_core.game import canonical_options

__all__ = [
    "CHOICE_MODES",
    "ENEMY",
    "ENEMY_REF",
    "FLOW",
    "HERO",
    "LINK_BASE",
    "SIDES",
    "AttackFrame",
    "BlockFrame",
    "CancelFrame",
    "ChoiceFrame",
    "ExertFrame",
    "Fight",
    "Frame",
    "Link",
    "Pool",
    "RuneboundOptions",
    "RuneboundState",
    "Side",
    "TokenRef",
    "UsedBit",
    "card_bit",
    "enemy_ability_bit",
    "fight_with_charged",
    "fight_with_enemy_pool",
    "fight_with_enemy_pool_casting",
    "fight_with_enemy_pool_used",
    "fight_with_hero_pool",
    "fight_with_hero_pool_casting",
    "fight_with_passed",
    "fight_with_turn",
    "fight_with_turn_passed",
    "fight_with_used",
    "hero_ability_bit",
    "link_double",
    "link_target",
    "make_link",
    "pool_with_removed",
    "pool_with_sides",
    "pool_with_spent",
    "pool_with_spent_links",
    "split_ref",
    "state_with_enemy_damage",
    "state_with_fight",
    "state_with_fight_pos",
    "state_with_hero_damage",
    "state_with_pending",
    "token_ref",
]

#: A combatant: ``HERO`` or ``ENEMY``.
Side: TypeAlias = int
HERO: Side = 0
ENEMY: Side = 1
#: Both sides, hero first.
SIDES: tuple[Side, Side] = (HERO, ENEMY)

#: A token of either pool: the hero's token ``i`` is ``i``, the enemy's is ``ENEMY_REF + i``.
TokenRef: TypeAlias = int
#: Token references of the enemy's tokens start here (above any hero token index).
ENEMY_REF = 16

#: A double placed on a token of the same pool: ``double * LINK_BASE + target``.
Link: TypeAlias = int
#: The radix of a link (above any token index).
LINK_BASE = 16

#: A bit of ``Fight.used``.
UsedBit: TypeAlias = int
_ENEMY_ABILITY_BITS = 8
_CARD_BITS = 16


def token_ref(side: Side, i: int) -> TokenRef:
    """The reference of ``side``'s token ``i``.

    >>> token_ref(HERO, 2), token_ref(ENEMY, 2), split_ref(token_ref(ENEMY, 2))
    (2, 18, (1, 2))
    """
    return ENEMY_REF + i if side == ENEMY else i


def split_ref(ref: TokenRef) -> tuple[Side, int]:
    """The side and the index of the token ``ref``."""
    return (ENEMY, ref - ENEMY_REF) if ref >= ENEMY_REF else (HERO, ref)


def make_link(double: int, target: int) -> Link:
    """The link of double ``double`` placed on token ``target``.

    >>> link = make_link(3, 1)
    >>> link_double(link), link_target(link)
    (3, 1)
    """
    return double * LINK_BASE + target


def link_double(link: Link) -> int:
    """The double token of ``link``."""
    return link // LINK_BASE


def link_target(link: Link) -> int:
    """The token ``link``'s double sits on."""
    return link % LINK_BASE


def hero_ability_bit(a: int) -> UsedBit:
    """The ``Fight.used`` bit of the hero's surge ability ``a``."""
    return a


def enemy_ability_bit(a: int) -> UsedBit:
    """The ``Fight.used`` bit of the enemy's ability ``a``."""
    return _ENEMY_ABILITY_BITS + a


def card_bit(c: int) -> UsedBit:
    """The ``Fight.used`` bit of the hero's skill card ``c``."""
    return _CARD_BITS + c


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


def _check_pack(_inst: object, _attr: object, value: object) -> None:
    if type(value) is not str:
        raise ValueError(f"pack must be a string, not {value!r:.40}")
    if value:
        PackRef.parse(value)


@attrs.frozen(cache_hash=True)
class RuneboundOptions:
    """The options of a co-op encounter (names are checked against the content pack where options are made,
    :meth:`RuneboundCoop.make_options`, and where a game starts, :func:`runebound_coop.setup.initial_state`).

    A custom pack is given to ``new_game``/``make_options`` as the pack itself (``load_content(path)``) or its
    directory's ``pathlib.Path``: it is added to :data:`runebound_coop.content.loader.PACKS` and ``pack`` holds its
    reference, ``name@sha256``; a string is a pack's name or reference only, never read as a path.

    Attributes:
        heroes: the heroes in the party, one per player: 1 to 4 names from the pack, comma separated, each once
            (default: Elian and Corbin).
        enemies: the enemies to fight, in this order: 1 to 8 names from the pack, comma separated, repeats allowed
            (default: the rulebook's Sorcerer, then its Orc Brigand).
        assets: the assets each hero brings, whose combat tokens join that hero's: one list per hero, in the order of
            the heroes (default: none).
        cards: the skill cards in each hero's hand: one list per hero (default, null: each hero's own starting
            cards).
        enemy_choices: who decides when an enemy ability leaves a choice: evaluate (the enemy takes the choice
            worst for the hero), damage (the rulebook's alternative: 2 damage to the hero instead of the effect)
            or player (the enemy is an extra, last player who decides).
        act: the act being played, 1 or 2 (from act 2 on, Warrior enemies cast a sixth token).
        retreat: whether the hero fighting may withdraw from the fight at the end of each round.
        hand: how many skill cards each hero holds to exert (each exert discards one) for its cards' combat
            actions.
        max_rounds: the rounds after which a fight still undecided ends with the hero withdrawing.
        pack: the content pack played: empty for the built-in one (tabletop compare --pack FOLDER plays another).

    The content the options name is resolved once and read as :attr:`setup`.
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
    pack: str = attrs.field(default="", validator=_check_pack)
    #: The content these options play (:attr:`setup`): derived from the options, no option itself, so outside
    #: equality, hashing, repr and JSON.
    _setup: Setup | None = attrs.field(init=False, default=None, eq=False, hash=False, repr=False)

    @heroes.validator
    def _check_heroes(self, _a: object, heroes: tuple[str, ...]) -> None:
        if not 1 <= len(heroes) <= MAX_HEROES:
            raise ValueError(f"1 to {MAX_HEROES} heroes, not {len(heroes)}")
        if len(set(heroes)) != len(heroes):
            raise ValueError(f"each hero plays once: {heroes}")

    @enemies.validator
    def _check_enemies(self, _a: object, enemies: tuple[str, ...]) -> None:
        if not 1 <= len(enemies) <= MAX_ENEMIES:
            raise ValueError(f"1 to {MAX_ENEMIES} enemies, not {len(enemies)}")

    @assets.validator
    def _check_assets(self, _a: object, assets: tuple[tuple[str, ...], ...]) -> None:
        if len(assets) > len(self.heroes) or any(len(a) > MAX_ASSETS for a in assets):
            raise ValueError(f"assets: one list (up to {MAX_ASSETS} assets) per hero")

    @cards.validator
    def _check_cards(self, _a: object, cards: tuple[tuple[str, ...], ...] | None) -> None:
        if cards is not None and (len(cards) != len(self.heroes) or any(len(c) > MAX_CARDS for c in cards)):
            raise ValueError(f"cards: one list (up to {MAX_CARDS} cards) per hero")

    @hand.validator
    def _check_hand(self, _a: object, value: int) -> None:
        if type(value) is not int or not 0 <= value <= MAX_HAND:
            raise ValueError(f"hand must be an integer in 0..{MAX_HAND}, not {value!r}")

    @max_rounds.validator
    def _check_rounds(self, _a: object, value: int) -> None:
        if type(value) is not int or not 1 <= value <= MAX_ROUNDS:
            raise ValueError(f"max_rounds must be an integer in 1..{MAX_ROUNDS}, not {value!r}")

    @property
    def setup(self) -> Setup:
        """The content the encounter plays (heroes, enemies, their tokens and boards): resolved from the pack once,
        the first time it is read (:meth:`RuneboundCoop.make_options <runebound_coop.game.RuneboundCoop.make_options>`
        reads it as it makes the options), and shared by every options object equal to these; what the rules read
        at every step.

        Raises:
            ValueError: the options name a hero, enemy, asset or card the pack lacks (``ContentError``: a pack
                this process was not given); nothing is kept, so it raises every time.
        """
        setup = self._setup
        if setup is None:
            first = canonical_options(self)
            setup = build_setup(self) if first is self else first.setup
            object.__setattr__(self, "_setup", setup)
        return setup

    @property
    def num_players(self) -> int:
        """The heroes, plus the enemy when it decides its own choices."""
        return len(self.heroes) + (self.enemy_choices == "player")


@accelerate
@attrs.frozen(cache_hash=True)
class Pool:
    """One combatant's cast tokens as bitmasks, plus the doubles placed on other tokens.

    Attributes:
        sides: bit ``i``: the side token ``i`` shows.
        spent: bit ``i``: token ``i`` has been spent this round.
        removed: bit ``i``: token ``i`` was removed by an effect this round.
        links: a :data:`Link` for each double placed on a token of this pool.
    """

    TAG: ClassVar[str] = "runebound_coop.pool"
    sides: int = 0
    spent: int = 0
    removed: int = 0
    links: tuple[int, ...] = ()

    def side(self, i: int) -> int:
        """The side token ``i`` shows."""
        return (self.sides >> i) & 1

    def is_live(self, i: int) -> bool:
        """Whether token ``i`` is still in the pool (neither spent nor removed)."""
        return not ((self.spent | self.removed) >> i) & 1

    def doubled(self, i: int) -> bool:
        """Whether a double sits on token ``i``."""
        for link in self.links:  # noqa: SIM110  # a loop, no generator: asked of every token valued
            if link_target(link) == i:
                return True
        return False


@accelerate
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
        used: what was used this round, one :data:`UsedBit` per hero ability, enemy ability and hero card.
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

    def pool(self, side: Side) -> Pool:
        """The pool of ``side``."""
        return self.hero_pool if side == HERO else self.enemy_pool

    def has_passed(self, side: Side) -> bool:
        """Whether ``side`` passed this round."""
        return bool((self.passed >> side) & 1)

    def has_charged(self, side: Side) -> bool:
        """Whether ``side`` spent charge this round (it cannot block)."""
        return bool((self.charged >> side) & 1)

    def has_used(self, bit: UsedBit) -> bool:
        """Whether the ability or card of ``bit`` was used this round."""
        return bool((self.used >> bit) & 1)

    def with_passed(self, side: Side) -> Fight:
        """The fight after ``side`` passed."""
        return _with_passed(self, self.passed | (1 << side))

    def with_charged(self, side: Side) -> Fight:
        """The fight after ``side`` spent charge."""
        return _with_charged(self, self.charged | (1 << side))

    def with_used(self, bit: UsedBit) -> Fight:
        """The fight after the ability or card of ``bit`` was used."""
        return _with_used(self, self.used | (1 << bit))

    def with_pool(self, side: Side, pool: Pool) -> Fight:
        """The fight with ``side``'s pool replaced."""
        if side == HERO:
            return _with_hero_pool(self, pool)
        return _with_enemy_pool(self, pool)


# The rules' most frequent copies of a fight and a pool, each made once by ``fastcopy.replacer``: with the compiled
# accelerator a copy is one C call (about 90 ns for the state, against about 260 ns for a Python function calling
# the class with every other field read by name). tests/runebound_coop/test_speed_memos.py checks each against
# ``attrs.evolve``.

#: ``pool_with_sides(p, sides)``: ``p`` with ``sides`` replaced.
pool_with_sides: Callable[[Pool, int], Pool] = replacer(Pool, "sides")
#: ``pool_with_spent(p, spent)``: ``p`` with ``spent`` replaced.
pool_with_spent: Callable[[Pool, int], Pool] = replacer(Pool, "spent")
#: ``pool_with_removed(p, removed)``: ``p`` with ``removed`` replaced.
pool_with_removed: Callable[[Pool, int], Pool] = replacer(Pool, "removed")
#: ``pool_with_spent_links(p, spent, links)``: ``p`` with ``spent`` and ``links`` replaced.
pool_with_spent_links: Callable[[Pool, int, tuple[int, ...]], Pool] = replacer(Pool, "spent", "links")
#: ``fight_with_hero_pool(f, pool)``: ``f`` with ``hero_pool`` replaced.
fight_with_hero_pool: Callable[[Fight, Pool], Fight] = replacer(Fight, "hero_pool")
#: ``fight_with_enemy_pool(f, pool)``: ``f`` with ``enemy_pool`` replaced.
fight_with_enemy_pool: Callable[[Fight, Pool], Fight] = replacer(Fight, "enemy_pool")
#: ``fight_with_hero_pool_casting(f, pool, casting)``: ``f`` with ``hero_pool`` and ``casting`` replaced.
fight_with_hero_pool_casting: Callable[[Fight, Pool, tuple[int, ...]], Fight] = replacer(Fight, "hero_pool", "casting")
#: ``fight_with_enemy_pool_casting(f, pool, casting)``: ``f`` with ``enemy_pool`` and ``casting`` replaced.
fight_with_enemy_pool_casting: Callable[[Fight, Pool, tuple[int, ...]], Fight] = replacer(
    Fight, "enemy_pool", "casting"
)
#: ``fight_with_enemy_pool_used(f, pool, used)``: ``f`` with ``enemy_pool`` and ``used`` replaced.
fight_with_enemy_pool_used: Callable[[Fight, Pool, int], Fight] = replacer(Fight, "enemy_pool", "used")
#: ``fight_with_turn(f, turn)``: ``f`` with ``turn`` replaced.
fight_with_turn: Callable[[Fight, int], Fight] = replacer(Fight, "turn")
#: ``fight_with_turn_passed(f, turn, passed)``: ``f`` with ``turn`` and ``passed`` replaced.
fight_with_turn_passed: Callable[[Fight, int, int], Fight] = replacer(Fight, "turn", "passed")
#: ``fight_with_passed(f, passed)``: ``f`` with ``passed`` replaced (:meth:`Fight.with_passed` sets one side's bit).
fight_with_passed: Callable[[Fight, int], Fight] = replacer(Fight, "passed")
#: ``fight_with_charged(f, charged)``: ``f`` with ``charged`` replaced.
fight_with_charged: Callable[[Fight, int], Fight] = replacer(Fight, "charged")
#: ``fight_with_used(f, used)``: ``f`` with ``used`` replaced (:meth:`Fight.with_used` sets one bit).
fight_with_used: Callable[[Fight, int], Fight] = replacer(Fight, "used")
_with_passed = fight_with_passed
_with_charged = fight_with_charged
_with_used = fight_with_used
_with_hero_pool = fight_with_hero_pool
_with_enemy_pool = fight_with_enemy_pool


# ----- the pending frames: sub-decisions that interrupt the flow -----------------------------------------------------
#
# Each is a core decision frame whose data are its fields and whose rule is its methods. The rules they run sit in
# ``runebound_coop.rules``, above this module (they read the state): the methods reach them through ``_rules()``.

#: Every kind of frame of the game, each registered where it is defined and frozen by the driver
#: (:data:`runebound_coop.rules.flow.DRIVER`): the pending questions below and the steps' frames. A pending kind's
#: slot is its place in the observation tensor's one-hot of the question on top.
FRAMES: FrameRegistry[RuneboundState] = FrameRegistry("runebound_coop")


class _Rules(NamedTuple):
    """The modules whose rules the frames run."""

    tokens: ModuleType
    enemy: ModuleType
    hero: ModuleType
    flow: ModuleType


_TOKENS, _ENEMY, _HERO, _FLOW = (f"runebound_coop.rules.{name}" for name in ("tokens", "enemy", "hero", "flow"))


def _rules() -> _Rules:
    """The rules the frames run. They sit above this module (they read the state) and are imported with the package
    (its driver imports them all), so they are read from the imported modules: an import inside each method cost
    some microseconds a call, and a module-level cache is state of its own."""
    found = sys.modules
    try:
        return _Rules(found[_TOKENS], found[_ENEMY], found[_HERO], found[_FLOW])
    except KeyError:  # a frame used before the package finished importing its rules
        importlib.import_module(_FLOW)
        return _Rules(found[_TOKENS], found[_ENEMY], found[_HERO], found[_FLOW])


class _HeroAnswers(Decision["RuneboundState", Any]):
    """A question the engaged hero answers."""

    __slots__ = ()

    def actor(self, state: RuneboundState) -> int:
        """The engaged hero."""
        fight = state.fight
        assert fight is not None  # a question is asked only during a fight
        return fight.hero


@FRAMES.register("runebound_coop.cancel", slot=0)
@attrs.frozen
class CancelFrame(_HeroAnswers):
    """The hero may spend 1 tactics to cancel enemy ability ``ability`` (its surge already paid)."""

    ability: int

    def legal_actions(self, state: RuneboundState) -> tuple[Respond, ...]:
        """Cancel, or let the ability resolve."""
        return _RESPONDS

    def apply(self, state: RuneboundState, action: Respond) -> RuneboundState:
        """See :func:`runebound_coop.rules.enemy.respond`."""
        rules = _rules()
        after: RuneboundState = rules.enemy.respond(state, state.options.setup, action.cancel)
        return after


@FRAMES.register("runebound_coop.choice", slot=1)
@attrs.frozen
class ChoiceFrame(Decision["RuneboundState", "Choose"]):
    """The enemy player picks one of ``candidates`` (token refs) for effect ``kind``.

    ``source`` is the enemy token spent by the choice (or -1 when already paid); ``rest`` the further sources of
    the same space still to resolve; ``symbol`` the symbol a ``remove`` effect removes; ``ability`` the enemy's
    agility ability that each of ``rest`` fires again (-1: the space's own choice of ``kind``).
    """

    kind: str
    source: int
    candidates: tuple[int, ...]
    rest: tuple[int, ...] = ()
    symbol: str = ""
    ability: int = -1

    def actor(self, state: RuneboundState) -> int:
        """The enemy player (the last seat)."""
        return len(state.options.heroes)

    def legal_actions(self, state: RuneboundState) -> tuple[Choose, ...]:
        """A ``Choose`` of each candidate."""
        return tuple(Choose(k) for k in range(len(self.candidates)))

    def apply(self, state: RuneboundState, action: Choose) -> RuneboundState:
        """See :func:`runebound_coop.rules.enemy.choose`."""
        rules = _rules()
        after: RuneboundState = rules.enemy.choose(state, state.options.setup, action.option)
        return after


@FRAMES.register("runebound_coop.block", slot=2)
@attrs.frozen
class BlockFrame(_HeroAnswers):
    """The hero is about to take ``amount`` blockable damage and may spend a tactics as a copy of a shield.

    What the enemy was doing continues after the answer: the effects of its ability ``ability`` from effect
    ``effect`` on (``source``: the token paying for it, -1 when paid; ``rest``: further agility tokens firing it),
    or, with ``round_end``, the end of the round after the board's title ability.
    """

    amount: int
    ability: int = -1
    effect: int = 0
    source: int = -1
    rest: tuple[int, ...] = ()
    round_end: bool = False

    def legal_actions(self, state: RuneboundState) -> tuple[Block, ...]:
        """Spend a tactics as a shield, or keep it."""
        return _BLOCKS

    def apply(self, state: RuneboundState, action: Block) -> RuneboundState:
        """See :func:`runebound_coop.rules.enemy.block`; with ``round_end`` the round then ends."""
        rules = _rules()
        setup = state.options.setup
        state = rules.enemy.block(state, setup, action.tactics)
        return rules.flow.end_round(state, setup) if self.round_end else state


@FRAMES.register("runebound_coop.attack_pick", slot=3)
@attrs.frozen
class AttackFrame(_HeroAnswers):
    """The hero attacks with ``symbol`` and picks which of its tokens showing it to spend (``chosen``: a bit per
    token index); the attack strikes when the hero says so, or by itself once every such token is chosen.

    The hero adds a token showing the attack's symbol (``Choose(i)``: token ``i``) or strikes with those chosen
    (``Attack(symbol)``, once one is chosen). "One action: spend damage symbols of ONE type (physical or magic,
    values summed)": which of them is the hero's choice, and a split can deal more (against a shield each attack
    meets anew).
    """

    symbol: str
    chosen: int = 0

    def auto(self, state: RuneboundState) -> RuneboundState | None:
        """With every such token chosen, the attack strikes."""
        if self._left(state, _rules()):
            return None
        return self._strike(state)

    def legal_actions(self, state: RuneboundState) -> tuple[Action, ...]:
        """The strike (once a token is chosen), then a ``Choose`` of each token left."""
        rules = _rules()
        picks: list[Action] = [Choose(i) for i in self._left(state, rules)]
        return (Attack(rules.tokens.symbol_of(self.symbol)), *picks) if self.chosen else tuple(picks)

    def apply(self, state: RuneboundState, action: Action) -> RuneboundState:
        """Choose a token, or strike."""
        if isinstance(action, Choose):
            chosen = replace(self, chosen=self.chosen | (1 << action.option))
            return state_with_pending(state, state.pending.replace_top(chosen))
        return self._strike(state)

    def _left(self, state: RuneboundState, rules: _Rules) -> list[int]:
        assert state.fight is not None  # a question is asked only during a fight
        setup = state.options.setup
        tokens = rules.tokens.showing(setup, state.fight, HERO, rules.tokens.symbol_of(self.symbol))
        return [i for i in tokens if not (self.chosen >> i) & 1]

    def _strike(self, state: RuneboundState) -> RuneboundState:
        rules = _rules()
        state = state_with_pending(state, state.pending.pop())
        tokens = [i for i in range(self.chosen.bit_length()) if (self.chosen >> i) & 1]
        setup = state.options.setup
        after: RuneboundState = rules.flow.hand_off(
            rules.hero.attack(state, setup, rules.tokens.symbol_of(self.symbol), tokens)
        )
        return after


@FRAMES.register("runebound_coop.exert_pick", slot=4)
@attrs.frozen
class ExertFrame(_HeroAnswers):
    """The hero exerts card ``card``, whose action removes tokens showing ``symbol``, and picks which of them
    (``chosen``: a bit per token index, picked in increasing index so each set is reached once); the card resolves by
    itself once it has as many as it removes. Asked only when more tokens show the symbol than the card removes.

    Twin Blades: "remove 2 of your tokens showing the same damage symbol": which two is the hero's choice, and it
    matters: a double on a removed token returns to its space to be spent again, and the tokens left attack later.
    """

    card: int
    symbol: str
    chosen: int = 0

    def legal_actions(self, state: RuneboundState) -> tuple[Choose, ...]:
        """A ``Choose`` of each token the hero may pick next (:func:`runebound_coop.rules.flow.removable`)."""
        return tuple(_CHOOSES[i] for i in _rules().flow.removable(state, self))

    def apply(self, state: RuneboundState, action: Choose) -> RuneboundState:
        """Pick the token; with as many as the card removes, the card resolves."""
        rules = _rules()
        setup = state.options.setup
        chosen = self.chosen | (1 << action.option)
        assert state.fight is not None  # a question is asked only during a fight
        card = setup.heroes[state.fight.hero].cards[self.card]
        if chosen.bit_count() < card.remove:
            return state_with_pending(state, state.pending.replace_top(replace(self, chosen=chosen)))
        state = state_with_pending(state, state.pending.pop())
        tokens = tuple(i for i in range(chosen.bit_length()) if (chosen >> i) & 1)
        exert = Exert(self.card, rules.tokens.symbol_of(self.symbol))
        after: RuneboundState = rules.flow.hand_off(rules.hero.exert(state, setup, exert, tokens))
        return after


_RESPONDS = (Respond(False), Respond(True))
_BLOCKS = (Block(False), Block(True))
_CHOOSES = tuple(Choose(i) for i in range(MAX_TOKENS))

if TYPE_CHECKING:
    #: A frame the pending stack may hold, for annotations (a state's JSON reads the registry's pending kinds).
    Frame: TypeAlias = CancelFrame | ChoiceFrame | BlockFrame | AttackFrame | ExertFrame
else:
    Frame = CoreFrame  # bound to the registry's union of pending kinds by ``runebound_coop.rules.flow``


@accelerate
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

    def svg(self, *, reveal: bool = False, width: int = 800) -> str:
        """The table as an SVG picture: the public view, which is the whole table (combat hides nothing); with
        ``reveal``, the whole truth. The picture says which it is.
        """
        from runebound_coop import picture

        return picture.truth(self, width=width) if reveal else picture.public(self, width=width)

    def _repr_svg_(self) -> str:
        """The public picture, for notebooks."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


# The state's most frequent copies, made once as the fight's are above.

#: ``state_with_fight(s, fight)``: ``s`` with ``fight`` replaced.
state_with_fight: Callable[[RuneboundState, Fight | None], RuneboundState] = replacer(RuneboundState, "fight")
#: ``state_with_fight_pos(s, fight, pos)``: ``s`` with ``fight`` and ``pos`` replaced.
state_with_fight_pos: Callable[[RuneboundState, Fight | None, Position], RuneboundState] = replacer(
    RuneboundState, "fight", "pos"
)
#: ``state_with_hero_damage(s, damage)``: ``s`` with ``hero_damage`` replaced.
state_with_hero_damage: Callable[[RuneboundState, tuple[int, ...]], RuneboundState] = replacer(
    RuneboundState, "hero_damage"
)
#: ``state_with_enemy_damage(s, damage)``: ``s`` with ``enemy_damage`` replaced.
state_with_enemy_damage: Callable[[RuneboundState, tuple[int, ...]], RuneboundState] = replacer(
    RuneboundState, "enemy_damage"
)
#: ``state_with_pending(s, pending)``: ``s`` with ``pending`` replaced.
state_with_pending: Callable[[RuneboundState, Pending[Frame]], RuneboundState] = replacer(RuneboundState, "pending")
