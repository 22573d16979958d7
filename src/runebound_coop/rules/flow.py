"""The round structure and the co-op frame, driven by the core's :class:`~tabletop_core.flow.Flow`.

``encounter/engage``: the party sends a hero against the next undefeated enemy (automatic with one hero left).
``combat/cast``: every token of both combatants is cast, one chance node per token. Initiative: the side showing
more initiative marks acts first; "If there is a tie for initiative, the hero takes the first combat action."
``combat/actions``: the sides alternate combat actions; a side that passed acts no more this round; the enemy
acts automatically from its board. When both have passed the board's title ability resolves and the round ends.
``combat/round_end``: with the ``retreat`` option the hero may withdraw; otherwise a new round is cast.
A fight ends as soon as the hero or the enemy is defeated (damage reaches health); the encounter ends when every
enemy is defeated (the party wins) or no hero can engage (the party loses if every hero was defeated).
"""

from __future__ import annotations

from runebound_coop.rules.enemy import enemy_act, title_ability
from runebound_coop.rules.setup import Setup
from runebound_coop.rules.tokens import faces_of, fight_of, with_fight
from runebound_coop.state import ENEMY, ENEMY_REF, FLOW, HERO, Fight, Pool, RuneboundState
from tabletop_core.components import Cast
from tabletop_core.flow import Pending

__all__ = [
    "advance",
    "available_heroes",
    "initiative",
    "land",
    "next_enemy",
    "next_round",
    "start_fight",
    "withdraw",
]


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
    casting = (*range(nh), *range(ENEMY_REF, ENEMY_REF + ne))
    fight = Fight(fight.hero, fight.enemy, Pool(), Pool(), casting)
    return state.but(fight=fight, pos=FLOW.at("combat", "cast", round_))


def land(state: RuneboundState, side: int) -> RuneboundState:
    """The next token being cast lands on ``side`` (one chance node per token)."""
    fight = fight_of(state)
    ref = fight.casting[0]
    who, i = (ENEMY, ref - ENEMY_REF) if ref >= ENEMY_REF else (HERO, ref)
    pool = fight.pool(who)
    sides = (pool.sides & ~(1 << i)) | (side << i)
    fight = fight.with_pool(who, pool.but(sides=sides)).but(casting=fight.casting[1:])
    return with_fight(state, fight)


def initiative(setup: Setup, fight: Fight) -> int:
    """The side that takes the first combat action: more initiative marks; the hero wins ties."""
    marks = []
    for side in (HERO, ENEMY):
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


def advance(state: RuneboundState, setup: Setup) -> RuneboundState:
    """Run the automatic steps (enemy actions, initiative, round ends) until a decision, a chance node or the end."""
    while True:
        if state.fight is not None:
            # A defeat ends the fight at once, even in the middle of an enemy ability (pending frames are dropped).
            ended = _end_fight(state, setup)
            if ended is not None:
                state = ended
                continue
        if state.pending:
            return state
        if state.fight is None:
            if state.pos.phase == "over":
                return state
            heroes = available_heroes(state)
            if next_enemy(state, setup) < 0 or not heroes:
                return state.but(pos=FLOW.at("over"))
            if len(heroes) == 1:
                state = start_fight(state, setup, heroes[0])
                continue
            return state.but(pos=FLOW.at("encounter"))
        fight = fight_of(state)
        if fight.casting:
            return state
        step = state.pos.step
        if step == "cast":
            fight = fight.but(turn=initiative(setup, fight))
            state = state.but(fight=fight, pos=FLOW.next(state.pos))
            continue
        if step == "round_end":
            return state
        both = (1 << HERO) | (1 << ENEMY)
        if fight.passed & both == both:
            state = title_ability(state, setup)
            if _end_fight(state, setup) is not None:
                continue
            if state.options.retreat:
                state = state.but(pos=FLOW.next(state.pos))
                return state
            state = next_round(state, setup)
            continue
        if fight.turn == HERO:
            if not (fight.passed >> HERO) & 1:
                return state
            state = with_fight(state, fight.but(turn=ENEMY))
            continue
        if (fight.passed >> ENEMY) & 1:
            state = with_fight(state, fight.but(turn=HERO))
            continue
        # The enemy's combat action; then the hero acts next unless it has passed.
        nxt = HERO if not (fight.passed >> HERO) & 1 else ENEMY
        state = enemy_act(with_fight(state, fight.but(turn=nxt)), setup)
