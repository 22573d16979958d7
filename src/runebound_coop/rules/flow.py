"""The round structure and the co-op frame, declared as steps and frames that the core's driver runs.

``encounter/engage``: the party sends a hero against the next undefeated enemy (automatic with one hero left).
``combat/cast``: every token of both combatants is cast, one chance node per token. Initiative: the side showing
more initiative marks acts first; "If there is a tie for initiative, the hero takes the first combat action."
``combat/actions``: the sides alternate combat actions; a side that passed acts no more this round (after the
hero's action the enemy acts next unless it has passed, :func:`hand_off`); the enemy acts automatically from its
board. When both have passed the board's title ability resolves and the round ends.
``combat/round_end``: with the ``retreat`` option the hero may withdraw; otherwise a new round is cast.
A fight ends as soon as the hero or the enemy is defeated (damage reaches health: the end check
:func:`defeat`, run before every frame); the encounter ends when every enemy is defeated (the party wins) or no
hero can engage (the party loses if every hero was defeated).

Who acts is the frame's business (:data:`DRIVER`): a pending question (the hero's cancel, the enemy player's
choice), else a token being cast (a chance frame, wherever in the round a cast or recast happens), else the step's
frame. The pending questions are frames of :mod:`runebound_coop.state` (their data their fields, their rules their
methods); every kind, the steps' and the cast's here too, is registered in :data:`runebound_coop.state.FRAMES`,
which the driver freezes (a state's JSON names the pending ones by tag).
"""

from __future__ import annotations

from typing import Any

from runebound_coop.actions import Action, Attack, Engage, Exert, Land, Pass, Withdraw
from runebound_coop.content.roster import Setup
from runebound_coop.content.schema import Sym
from runebound_coop.limits import MAX_HEROES, MAX_ROUNDS, MEMO_LIMIT
from runebound_coop.rules.enemy import enemy_act, title_ability
from runebound_coop.rules.hero import hero_apply, listed_actions
from runebound_coop.rules.tokens import faces_of, fight_of, showing, symbol_of, with_fight
from runebound_coop.state import (
    ENEMY,
    ENEMY_REF,
    FLOW,
    FRAMES,
    HERO,
    SIDES,
    AttackFrame,
    ExertFrame,
    Fight,
    Pool,
    RuneboundState,
    fight_with_enemy_pool_casting,
    fight_with_hero_pool_casting,
    fight_with_turn,
    fight_with_turn_passed,
    pool_with_sides,
    split_ref,
    state_with_fight_pos,
    state_with_pending,
    token_ref,
)
from runebound_coop.state import Frame as Question
from tabletop_core.components import TwoSidedToken
from tabletop_core.fastcopy import replace
from tabletop_core.flow import Automatic, Chance, Decision, Driver, Frame, Pending

__all__ = [
    "CAST",
    "DRIVER",
    "CastToken",
    "CombatActions",
    "Engagement",
    "Initiative",
    "RoundEnd",
    "available_heroes",
    "defeat",
    "end_round",
    "hand_off",
    "initiative",
    "land",
    "landed",
    "next_enemy",
    "next_round",
    "removable",
    "returns",
    "round_fight",
    "start_fight",
    "withdraw",
]

#: The outcomes of one token's cast: either face, even odds.
CAST = tuple((Land(side), p) for side, p in TwoSidedToken.cast_outcomes())
# The other decisions' actions, made once (immutable values; the lists below are the same every time).
_ENGAGES = tuple(Engage(h) for h in range(MAX_HEROES))
_WITHDRAWS = (Withdraw(False), Withdraw(True))


# The copies the rules make most, written out once (runebound_coop.state).
_with_sides = pool_with_sides
_with_turn = fight_with_turn
_with_turn_passed = fight_with_turn_passed
_with_fight_pos = state_with_fight_pos
_landed = (fight_with_hero_pool_casting, fight_with_enemy_pool_casting)

# The memos below (at most MEMO_LIMIT entries each, see runebound_coop.limits) are, with the hero's actions'
# (rules.hero), the rules' only global mutable state.
# A round's fight before its casts, by the two combatants and their numbers of tokens: one value for every round
# of the pairing.
_ROUND_FIGHTS: dict[tuple[int, int, int, int], Fight] = {}
# Who takes the first combat action, by the two combatants' content (held by the key, compared by identity) and
# the sides their tokens landed on: a pure function of these, asked once a round.
_INITIATIVE: dict[tuple[object, object, int, int], int] = {}
# The positions the rules move to, made once (positions are immutable values): a round's cast and its combat
# actions, by round, and the encounter's two steps outside a fight.
_CAST_AT = tuple(FLOW.at("combat", "cast", r) for r in range(MAX_ROUNDS + 2))
_ACTIONS_AT = tuple(FLOW.next(pos) for pos in _CAST_AT)
_ENCOUNTER = FLOW.at("encounter")
_OVER = FLOW.at("over")
_NO_PENDING: Pending[Question] = Pending()
# The bits of ``Fight.passed``: the hero passed, the enemy passed, both.
_HERO_PASSED = 1 << HERO
_ENEMY_PASSED = 1 << ENEMY
_BOTH_PASSED = _HERO_PASSED | _ENEMY_PASSED
# A symbol's text, looked up in a dict: ``Sym.X.value`` is a Python-level enum property (the attack-pick frame keeps
# its symbol as text).
_TEXT_OF = {sym: sym.value for sym in Sym}
_symbol = symbol_of


def available_heroes(state: RuneboundState) -> list[int]:
    """Heroes that may still engage (neither defeated nor withdrawn)."""
    gone = state.out | state.withdrawn
    return [h for h in range(len(state.hero_damage)) if not (gone >> h) & 1]


def next_enemy(state: RuneboundState, setup: Setup) -> int:
    """The next undefeated enemy of the encounter, or -1."""
    for e, dmg in enumerate(state.enemy_damage):
        if dmg < setup.enemies[e].health:
            return e
    return -1


def start_fight(state: RuneboundState, setup: Setup, hero: int) -> RuneboundState:
    """Hero ``hero`` engages the next enemy: round 1 begins with the casts."""
    fight = Fight(hero, next_enemy(state, setup))
    return _new_round(replace(state, fight=fight), setup, 1)


def _new_round(state: RuneboundState, setup: Setup, round_: int) -> RuneboundState:
    fight = fight_of(state)
    key = (fight.hero, fight.enemy, len(faces_of(setup, fight, HERO)), len(faces_of(setup, fight, ENEMY)))
    fresh = _ROUND_FIGHTS.get(key)
    if fresh is None:
        fresh = round_fight(*key)
        if len(_ROUND_FIGHTS) >= MEMO_LIMIT:
            _ROUND_FIGHTS.clear()
        _ROUND_FIGHTS[key] = fresh
    pos = _CAST_AT[round_] if 0 <= round_ < len(_CAST_AT) else FLOW.at("combat", "cast", round_)
    return _with_fight_pos(state, fresh, pos)


def round_fight(hero: int, enemy: int, nh: int, ne: int) -> Fight:
    """A round's fight before its casts: hero ``hero`` (``nh`` tokens) against enemy ``enemy`` (``ne`` tokens),
    every token to be cast, hero's first."""
    casting = (*(token_ref(HERO, i) for i in range(nh)), *(token_ref(ENEMY, i) for i in range(ne)))
    return Fight(hero, enemy, Pool(), Pool(), casting)


def land(state: RuneboundState, side: int) -> RuneboundState:
    """The next token being cast lands on ``side`` (one chance node per token)."""
    fight = state.fight
    assert fight is not None  # a token is cast only during a fight
    casting = fight.casting
    ref = casting[0]
    if ref >= ENEMY_REF:
        i = ref - ENEMY_REF
        pool = fight.enemy_pool
        pool = _with_sides(pool, (pool.sides & ~(1 << i)) | (side << i))
        return with_fight(state, _landed[ENEMY](fight, pool, casting[1:]))
    pool = fight.hero_pool
    pool = _with_sides(pool, (pool.sides & ~(1 << ref)) | (side << ref))
    return with_fight(state, _landed[HERO](fight, pool, casting[1:]))


def landed(fight: Fight, side: int) -> Fight:
    """The fight after its next token being cast landed on ``side`` (what :func:`land` puts in the state).

    Worked out at every cast, not kept in a memo: with compiled copies the two copies cost less than hashing the
    fight to look the landing up (a memo of landings cost 5% more instructions a playout step).
    """
    casting = fight.casting
    who, i = split_ref(casting[0])
    pool = fight.hero_pool if who == HERO else fight.enemy_pool
    pool = _with_sides(pool, (pool.sides & ~(1 << i)) | (side << i))
    return _landed[who](fight, pool, casting[1:])


def initiative(setup: Setup, fight: Fight) -> int:
    """The side that takes the first combat action: more initiative marks; the hero wins ties.

    Counted on the faces the tokens show (``faces_of``: each token's two faces, as its cast lands them), once per
    round: no cast value is built for it.
    """
    key = (setup.heroes[fight.hero], setup.enemies[fight.enemy], fight.hero_pool.sides, fight.enemy_pool.sides)
    first = _INITIATIVE.get(key)
    if first is None:
        first = _initiative(setup, fight)
        if len(_INITIATIVE) >= MEMO_LIMIT:
            _INITIATIVE.clear()
        _INITIATIVE[key] = first
    return first


def _initiative(setup: Setup, fight: Fight) -> int:
    marks = [0, 0]
    for side in SIDES:
        pool = fight.pool(side)
        sides = pool.sides
        marks[side] = sum(
            1 for i, faces in enumerate(faces_of(setup, fight, side)) if faces[(sides >> i) & 1].initiative
        )
    return ENEMY if marks[ENEMY] > marks[HERO] else HERO


def withdraw(state: RuneboundState) -> RuneboundState:
    """The engaged hero leaves the fight (and engages no more this encounter); the enemy keeps its damage."""
    fight = fight_of(state)
    return replace(state, withdrawn=state.withdrawn | (1 << fight.hero), fight=None, pos=_ENCOUNTER)


def next_round(state: RuneboundState, setup: Setup) -> RuneboundState:
    """Recast for a new round, or end an undecided fight after ``max_rounds`` (the hero withdraws)."""
    if state.pos.round >= state.options.max_rounds:
        return withdraw(state)
    return _new_round(state, setup, state.pos.round + 1)


def hand_off(state: RuneboundState) -> RuneboundState:
    """After the hero's combat action the enemy acts next, unless it has passed ("the sides alternate combat
    actions; a side that passed acts no more")."""
    fight = fight_of(state)
    return with_fight(state, _with_turn(fight, HERO if fight.passed & _ENEMY_PASSED else ENEMY))


def defeat(state: RuneboundState) -> RuneboundState | None:
    """The end check: a defeated combatant ends the fight at once, even in the middle of an enemy ability (pending
    questions are dropped); a defeated hero is out of the encounter. ``None`` while both stand."""
    fight = state.fight
    if fight is None:
        return None
    hurt = state.hero_damage[fight.hero]
    if not (hurt or state.enemy_damage[fight.enemy]):
        return None  # no damage on either combatant: both stand (health is at least 1)
    setup = state.options.setup
    if hurt >= setup.heroes[fight.hero].health:
        state = replace(state, out=state.out | (1 << fight.hero))
    elif state.enemy_damage[fight.enemy] < setup.enemies[fight.enemy].health:
        return None
    return replace(state, fight=None, pending=_NO_PENDING, pos=_ENCOUNTER)


@FRAMES.register("runebound_coop.engagement", pending=False)
class Engagement(Decision[RuneboundState, Engage]):
    """``encounter/engage``: the party's lowest available hero sends one available hero against the next enemy;
    by itself when one hero is left, and the encounter is over when no enemy or no hero is left."""

    def auto(self, state: RuneboundState) -> RuneboundState | None:
        heroes = available_heroes(state)
        if next_enemy(state, state.options.setup) < 0 or not heroes:
            return replace(state, pos=_OVER)
        if len(heroes) == 1:
            return start_fight(state, state.options.setup, heroes[0])
        return None

    def actor(self, state: RuneboundState) -> int:
        return available_heroes(state)[0]

    def legal_actions(self, state: RuneboundState) -> tuple[Engage, ...]:
        return tuple(_ENGAGES[h] for h in available_heroes(state))

    def apply(self, state: RuneboundState, action: Engage) -> RuneboundState:
        return start_fight(state, state.options.setup, action.hero)


@FRAMES.register("runebound_coop.cast_token", pending=False)
class CastToken(Chance[RuneboundState, Land]):
    """A token is being cast (the round's casts, or a recast mid-round): it lands on either face, even odds."""

    def chance_outcomes(self, state: RuneboundState) -> tuple[tuple[Land, float], ...]:
        return CAST

    def apply(self, state: RuneboundState, action: Land) -> RuneboundState:
        return land(state, action.side)


@FRAMES.register("runebound_coop.initiative", pending=False)
class Initiative(Automatic[RuneboundState]):
    """``combat/cast`` once every token has landed: the side with more initiative marks acts first."""

    def resolve(self, state: RuneboundState) -> RuneboundState:
        fight = fight_of(state)
        fight = _with_turn(fight, initiative(state.options.setup, fight))
        pos = state.pos  # combat/cast (this frame's step): the combat actions of the same round come next
        nxt = _ACTIONS_AT[pos.round] if pos.step == "cast" and 0 <= pos.round < len(_ACTIONS_AT) else FLOW.next(pos)
        return _with_fight_pos(state, fight, nxt)


@FRAMES.register("runebound_coop.combat_actions", pending=False)
class CombatActions(Decision[RuneboundState, Action]):
    """``combat/actions``: the hero's combat action when it is the hero's turn; otherwise, by itself, the enemy's
    action from its board, the turn passing over a side that passed, or the round's end once both passed."""

    def auto(self, state: RuneboundState) -> RuneboundState | None:
        fight = fight_of(state)
        passed = fight.passed  # the passes read as bits (``Fight.has_passed``): this runs at every hero decision
        if passed & _BOTH_PASSED == _BOTH_PASSED:
            setup = state.options.setup
            state = title_ability(state, setup)
            if state.pending:
                return state  # the hero decides on a tactics block first (its BlockFrame ends the round)
            return end_round(state, setup)
        if fight.turn == HERO:
            if not passed & _HERO_PASSED:
                return None
            return with_fight(state, _with_turn(fight, ENEMY))
        if passed & _ENEMY_PASSED:
            return with_fight(state, _with_turn(fight, HERO))
        # The enemy's combat action; then the hero acts next unless it has passed.
        nxt = ENEMY if passed & _HERO_PASSED else HERO
        return enemy_act(with_fight(state, _with_turn(fight, nxt)), state.options.setup)

    def actor(self, state: RuneboundState) -> int:
        return fight_of(state).hero

    def legal_actions(self, state: RuneboundState) -> tuple[Action, ...]:
        return listed_actions(state, state.options.setup)  # listed in id order

    def apply(self, state: RuneboundState, action: Action) -> RuneboundState:
        setup = state.options.setup
        kind = type(action)
        if kind is Pass:
            # The pass and the hand-over (:func:`hand_off`) in one copy: the enemy acts next unless it passed.
            fight = fight_of(state)
            passed = fight.passed | _HERO_PASSED
            return with_fight(state, _with_turn_passed(fight, HERO if passed & _ENEMY_PASSED else ENEMY, passed))
        if kind is Attack:
            assert isinstance(action, Attack)  # its class, just tested
            symbol = action.symbol
            if len(showing(setup, fight_of(state), HERO, symbol)) > 1:
                # Several tokens show the symbol: the hero picks which of them the attack spends.
                return state_with_pending(state, state.pending.push(AttackFrame(_TEXT_OF[symbol])))
        elif kind is Exert:
            assert isinstance(action, Exert)  # its class, just tested
            removes = action.symbol
            card = setup.heroes[fight_of(state).hero].cards[action.card]
            if removes is not None and len(showing(setup, fight_of(state), HERO, removes)) > card.remove > 0:
                # More tokens show the symbol than the card removes: the hero picks which.
                return state_with_pending(state, state.pending.push(ExertFrame(action.card, _TEXT_OF[removes])))
        return hand_off(hero_apply(state, setup, action))


def end_round(state: RuneboundState, setup: Setup) -> RuneboundState:
    """After the title ability: the round ends (unless the end check ends the fight): the retreat question, or a
    new round."""
    if defeat(state) is not None:
        return state  # the end check ends the fight
    if state.options.retreat:
        return replace(state, pos=FLOW.next(state.pos))
    return next_round(state, setup)


@FRAMES.register("runebound_coop.round_end", pending=False)
class RoundEnd(Decision[RuneboundState, Withdraw]):
    """``combat/round_end`` (option ``retreat``): the hero withdraws from the fight or stays for another round."""

    def actor(self, state: RuneboundState) -> int:
        return fight_of(state).hero

    def legal_actions(self, state: RuneboundState) -> tuple[Withdraw, ...]:
        return _WITHDRAWS

    def apply(self, state: RuneboundState, action: Withdraw) -> RuneboundState:
        return withdraw(state) if action.leave else next_round(state, state.options.setup)


def removable(state: RuneboundState, frame: ExertFrame) -> list[int]:
    """The tokens the hero may pick next under ``frame``: showing its symbol, above every one already picked, and
    leaving enough such tokens above them to complete the card's count."""
    setup = state.options.setup
    fight = fight_of(state)
    tokens = showing(setup, fight, HERO, _symbol(frame.symbol))
    need = setup.heroes[fight.hero].cards[frame.card].remove - frame.chosen.bit_count()
    above = [i for i in tokens if i >= frame.chosen.bit_length()]
    return above[: len(above) - need + 1] if need >= 1 else []


_CAST_TOKEN = CastToken()


def _top(state: RuneboundState) -> Frame[RuneboundState, Any] | None:
    """The pending question on top, else the cast of a token while one is being cast (the fight's ``casting``),
    else the frame of the step (the driver's own step lookup, made here: one call fewer before every frame; ``None``
    for a step without a frame, which the driver's lookup then reports)."""
    frames = state.pending.frames  # the stack's tuple itself: this runs before every frame
    if frames:
        return frames[-1]
    fight = state.fight
    if fight is not None and fight.casting:
        return _CAST_TOKEN
    pos = state.pos
    return _STEP_FRAMES.get((pos.phase, pos.step))


# The frame of each step, as the driver is given them.
_STEP_FRAMES: dict[tuple[str, str], Frame[RuneboundState, Any]] = {
    ("encounter", "engage"): Engagement(),
    ("combat", "cast"): Initiative(),
    ("combat", "actions"): CombatActions(),
    ("combat", "round_end"): RoundEnd(),
}

#: The rules as the core's driver runs them: the steps with their frames, the pending questions, the end check.
DRIVER: Driver[RuneboundState, Action] = Driver(
    "runebound_coop",
    FLOW,
    _STEP_FRAMES,
    position=lambda s: s.pos,
    top=_top,
    over=lambda s: s.pos.phase == "over",
    end_checks=(defeat,),
    frames=FRAMES,
)
FRAMES.bind(RuneboundState)  # the pending stack's frames: the union of the pending kinds, by tag (the state's JSON)


def returns(state: RuneboundState, setup: Setup) -> tuple[float, ...]:
    """Every hero: +1 if every enemy is defeated, -1 if every hero is, else 0 (also while the encounter goes on);
    the enemy player, when there is one, the negation."""
    n = state.options.num_players
    if state.pos.phase != "over":
        return (0.0,) * n
    if all(d >= e.health for d, e in zip(state.enemy_damage, setup.enemies, strict=True)):
        party = 1.0
    elif state.out == (1 << len(setup.heroes)) - 1:
        party = -1.0
    else:
        party = 0.0
    heroes = (party,) * len(setup.heroes)
    return (*heroes, -party) if n > len(setup.heroes) else heroes
