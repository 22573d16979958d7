"""The round structure and the co-op frame, driven by the core's :class:`~tabletop_core.flow.Flow`.

``encounter/engage``: the party sends a hero against the next undefeated enemy (automatic with one hero left).
``combat/cast``: every token of both combatants is cast, one chance node per token. Initiative: the side showing
more initiative marks acts first; "If there is a tie for initiative, the hero takes the first combat action."
``combat/actions``: the sides alternate combat actions; a side that passed acts no more this round (after the
hero's action the enemy acts next unless it has passed, :func:`hand_off`); the enemy acts automatically from its
board. When both have passed the board's title ability resolves and the round ends.
``combat/round_end``: with the ``retreat`` option the hero may withdraw; otherwise a new round is cast.
A fight ends as soon as the hero or the enemy is defeated (damage reaches health); the encounter ends when every
enemy is defeated (the party wins) or no hero can engage (the party loses if every hero was defeated).
"""

from __future__ import annotations

from runebound_coop.actions import Action, Choose, Engage, Land, Respond, Withdraw, action_id
from runebound_coop.content.roster import Setup
from runebound_coop.rules.enemy import choose, enemy_act, respond, title_ability
from runebound_coop.rules.hero import hero_actions, hero_apply
from runebound_coop.rules.tokens import faces_of, fight_of, with_fight
from runebound_coop.state import (
    ENEMY,
    FLOW,
    HERO,
    SIDES,
    CancelFrame,
    ChoiceFrame,
    Fight,
    Pool,
    RuneboundState,
    split_ref,
    token_ref,
)
from tabletop_core.components import Cast, TwoSidedToken
from tabletop_core.flow import Pending
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = [
    "CAST",
    "Trace",
    "actor",
    "advance",
    "apply",
    "available_heroes",
    "hand_off",
    "initiative",
    "land",
    "legal",
    "next_enemy",
    "next_round",
    "returns",
    "start_fight",
    "withdraw",
]

#: The outcomes of one token's cast: either face, even odds.
CAST = tuple((Land(side), p) for side, p in TwoSidedToken.cast_outcomes())


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
    return _new_round(state.but(fight=fight), setup, 1)


def _new_round(state: RuneboundState, setup: Setup, round_: int) -> RuneboundState:
    fight = fight_of(state)
    nh = len(faces_of(setup, fight, HERO))
    ne = len(faces_of(setup, fight, ENEMY))
    casting = (*(token_ref(HERO, i) for i in range(nh)), *(token_ref(ENEMY, i) for i in range(ne)))
    fight = Fight(fight.hero, fight.enemy, Pool(), Pool(), casting)
    return state.but(fight=fight, pos=FLOW.at("combat", "cast", round_))


def land(state: RuneboundState, side: int) -> RuneboundState:
    """The next token being cast lands on ``side`` (one chance node per token)."""
    fight = fight_of(state)
    ref = fight.casting[0]
    who, i = split_ref(ref)
    pool = fight.pool(who)
    sides = (pool.sides & ~(1 << i)) | (side << i)
    fight = fight.with_pool(who, pool.but(sides=sides)).but(casting=fight.casting[1:])
    return with_fight(state, fight)


def initiative(setup: Setup, fight: Fight) -> int:
    """The side that takes the first combat action: more initiative marks; the hero wins ties."""
    marks = []
    for side in SIDES:
        pool = fight.pool(side)
        tokens = setup.heroes[fight.hero].tokens if side == HERO else setup.enemies[fight.enemy].tokens
        cast = Cast(tokens, tuple(pool.side(i) for i in range(len(tokens))))
        marks.append(sum(face.initiative for face in cast.faces()))
    return ENEMY if marks[ENEMY] > marks[HERO] else HERO


def _end_fight(state: RuneboundState, setup: Setup) -> RuneboundState | None:
    """End the fight if a combatant is defeated (``None`` otherwise)."""
    fight = fight_of(state)
    if state.hero_damage[fight.hero] >= setup.heroes[fight.hero].health:
        state = state.but(out=state.out | (1 << fight.hero))
    elif state.enemy_damage[fight.enemy] < setup.enemies[fight.enemy].health:
        return None
    return state.but(fight=None, pending=Pending(), pos=FLOW.at("encounter"))


def withdraw(state: RuneboundState) -> RuneboundState:
    """The engaged hero leaves the fight (and engages no more this encounter); the enemy keeps its damage."""
    fight = fight_of(state)
    return state.but(withdrawn=state.withdrawn | (1 << fight.hero), fight=None, pos=FLOW.at("encounter"))


def next_round(state: RuneboundState, setup: Setup) -> RuneboundState:
    """Recast for a new round, or end an undecided fight after ``max_rounds`` (the hero withdraws)."""
    if state.pos.round >= state.options.max_rounds:
        return withdraw(state)
    return _new_round(state, setup, state.pos.round + 1)


#: What :func:`advance` records when asked: each automatic step's name and the state after it.
Trace = list[tuple[str, RuneboundState]]


def advance(state: RuneboundState, setup: Setup, trace: Trace | None = None) -> RuneboundState:
    """Run the automatic steps (enemy actions, initiative, round ends) until a decision, a chance node or the end.

    With ``trace``, each automatic step that changes the table is appended to it as ``(name, state after)``:
    ``fight_over``, ``over``, ``engage``, ``initiative``, ``title``, ``round`` or ``enemy`` (the per-seat
    descriptions read it; the result is the same with or without).
    """
    while True:
        if state.fight is not None:
            # A defeat ends the fight at once, even in the middle of an enemy ability (pending frames are dropped).
            ended = _end_fight(state, setup)
            if ended is not None:
                state = ended
                _record(trace, "fight_over", state)
                continue
        if state.pending:
            return state
        if state.fight is None:
            if state.pos.phase == "over":
                return state
            heroes = available_heroes(state)
            if next_enemy(state, setup) < 0 or not heroes:
                state = state.but(pos=FLOW.at("over"))
                _record(trace, "over", state)
                return state
            if len(heroes) == 1:
                state = start_fight(state, setup, heroes[0])
                _record(trace, "engage", state)
                continue
            return state.but(pos=FLOW.at("encounter"))
        fight = fight_of(state)
        if fight.casting:
            return state
        step = state.pos.step
        if step == "cast":
            fight = fight.but(turn=initiative(setup, fight))
            state = state.but(fight=fight, pos=FLOW.next(state.pos))
            _record(trace, "initiative", state)
            continue
        if step == "round_end":
            return state
        if fight.has_passed(HERO) and fight.has_passed(ENEMY):
            titled = title_ability(state, setup)
            if titled is not state:
                _record(trace, "title", titled)
            state = titled
            if _end_fight(state, setup) is not None:
                continue
            if state.options.retreat:
                state = state.but(pos=FLOW.next(state.pos))
                return state
            state = next_round(state, setup)
            _record(trace, "round", state)
            continue
        if fight.turn == HERO:
            if not fight.has_passed(HERO):
                return state
            state = with_fight(state, fight.but(turn=ENEMY))
            continue
        if fight.has_passed(ENEMY):
            state = with_fight(state, fight.but(turn=HERO))
            continue
        # The enemy's combat action; then the hero acts next unless it has passed.
        nxt = ENEMY if fight.has_passed(HERO) else HERO
        state = enemy_act(with_fight(state, fight.but(turn=nxt)), setup)
        _record(trace, "enemy", state)


def _record(trace: Trace | None, name: str, state: RuneboundState) -> None:
    if trace is not None:
        trace.append((name, state))


def hand_off(state: RuneboundState) -> RuneboundState:
    """After the hero's combat action the enemy acts next, unless it has passed ("the sides alternate combat
    actions; a side that passed acts no more")."""
    fight = fight_of(state)
    return with_fight(state, fight.but(turn=HERO if fight.has_passed(ENEMY) else ENEMY))


def actor(state: RuneboundState) -> int:
    """Who acts: the enemy player at its choices, chance while tokens are cast, else the engaged hero (or the
    party's lowest available hero when choosing who engages); ``TERMINAL`` once the encounter is over."""
    if state.pos.phase == "over":
        return TERMINAL
    top = state.pending.top
    if isinstance(top, ChoiceFrame):
        return len(state.options.heroes)
    fight = state.fight
    if fight is None:
        return available_heroes(state)[0]
    if top is None and fight.casting:
        return CHANCE
    return fight.hero


def legal(state: RuneboundState, setup: Setup) -> tuple[Action, ...]:
    """The legal decisions (sorted by id) or, at a chance node, the cast outcomes; empty once over."""
    player = actor(state)
    if player == TERMINAL:
        return ()
    if player == CHANCE:
        return tuple(a for a, _ in CAST)
    top = state.pending.top
    if isinstance(top, CancelFrame):
        return (Respond(False), Respond(True))
    if isinstance(top, ChoiceFrame):
        return tuple(Choose(k) for k in range(len(top.candidates)))
    if state.fight is None:
        return tuple(Engage(h) for h in available_heroes(state))
    if state.pos.step == "round_end":
        return (Withdraw(False), Withdraw(True))
    return tuple(sorted(hero_actions(state, setup), key=action_id))


def apply(state: RuneboundState, setup: Setup, action: Action, trace: Trace | None = None) -> RuneboundState:
    """Apply one legal decision or cast outcome, then run the automatic steps (:func:`advance`; with ``trace``,
    the state right after the action itself is recorded first, as ``action``)."""
    if isinstance(action, Land):
        state = land(state, action.side)
        if fight_of(state).casting:
            return state  # more tokens to cast: still a chance node, nothing else can happen yet
    elif isinstance(action, Respond):
        state = respond(state, setup, action.cancel)
    elif isinstance(action, Choose):
        state = choose(state, setup, action.option)
    elif isinstance(action, Engage):
        state = start_fight(state, setup, action.hero)
    elif isinstance(action, Withdraw):
        state = withdraw(state) if action.leave else next_round(state, setup)
    else:
        state = hand_off(hero_apply(state, setup, action))
    _record(trace, "action", state)
    return advance(state, setup, trace)


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
