"""A heuristic hero bot (one-ply lookahead on a damage-based score) and the default seating.

>>> import numpy as np
>>> from runebound_coop import GAME
>>> state = GAME.new_game(seed=1, heroes=("Corbin",), enemies=("Ogre",))
>>> bot = HeuristicHero()
>>> GAME.is_legal(state, bot.act(GAME.observe(state, 0), GAME.legal_actions(state), np.random.default_rng(0)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from runebound_coop.actions import Action, Engage, Respond, Withdraw
from runebound_coop.rules.choices import worth
from runebound_coop.rules.setup import setup_of
from runebound_coop.rules.tokens import faces_of, live
from runebound_coop.state import ENEMY, HERO, RuneboundState
from runebound_coop.view import RuneboundView
from tabletop_core.agents import RandomAgent
from tabletop_core.spec import CHANCE

__all__ = ["HeuristicHero", "default_agents", "evaluate"]


def evaluate(state: RuneboundState) -> float:
    """The party's score of a state: twice the enemy damage dealt minus 1.5 times the hero damage taken, plus half
    the worth of the live tokens the engaged hero still holds and minus half of the enemy's (a win or a loss
    dominates)."""
    from runebound_coop.game import GAME

    if GAME.is_terminal(state):
        return 100.0 * GAME.returns(state)[0]
    setup = setup_of(state.options)
    score = 2.0 * sum(state.enemy_damage) - 1.5 * sum(state.hero_damage)
    fight = state.fight
    if fight is not None:
        for side, sign in ((HERO, 0.5), (ENEMY, -0.5)):
            faces = faces_of(setup, fight, side)
            pool = fight.pool(side)
            for i in live(setup, fight, side):
                score += sign * worth(faces[i][pool.side(i)], pool.doubled(i))
    return score


def _lookahead(state: RuneboundState, hero_moves: int, chance_depth: int) -> float:
    """The score at the end of the current round (or fight), the hero making up to ``hero_moves`` more choices
    (best by this same lookahead) and then passing; cancels are taken, fights are stayed in; recasts are averaged
    over their outcomes (``chance_depth`` deep), the next round's casts are not looked into."""
    from runebound_coop.game import GAME

    while True:
        if GAME.is_terminal(state) or state.fight is None:
            return evaluate(state)
        player = GAME.current_player(state)
        if player == CHANCE:
            if state.pos.step == "cast" or chance_depth == 0:
                return evaluate(state)
            return sum(
                p * _lookahead(GAME.apply_unchecked(state, a), hero_moves, chance_depth - 1)
                for a, p in GAME.chance_outcomes(state)
            )
        legal = GAME.legal_actions(state)
        if Respond(True) in legal:
            state = GAME.apply_unchecked(state, Respond(True))
        elif Withdraw(False) in legal:
            state = GAME.apply_unchecked(state, Withdraw(False))
        elif player >= len(state.options.heroes) or hero_moves == 0:
            state = GAME.apply_unchecked(state, legal[0])  # pass (or the enemy player's first candidate)
        else:
            return max(_lookahead(GAME.apply_unchecked(state, a), hero_moves - 1, chance_depth) for a in legal)


class HeuristicHero:
    """Picks the action whose lookahead (:func:`evaluate` at the end of the round, up to three own actions deep)
    is best; ties go to the lowest action id. A cancel is always taken; it stays in fights. When the party chooses
    who engages, it sends the hero with the most health left (ties: the lowest index).
    """

    def __init__(self, hero_moves: int = 3, chance_depth: int = 3) -> None:
        self.hero_moves = hero_moves
        self.chance_depth = chance_depth

    def act(self, view: RuneboundView, legal_actions: Sequence[Action], rng: np.random.Generator) -> Action:
        """Choose one of ``legal_actions``."""
        from runebound_coop.game import GAME

        state = view.state
        if Respond(True) in legal_actions:
            return Respond(True)
        if Withdraw(False) in legal_actions:
            return Withdraw(False)
        if len(legal_actions) == 1:
            return legal_actions[0]
        engages = [a for a in legal_actions if isinstance(a, Engage)]
        if len(engages) == len(legal_actions):
            # The casts that follow hide every difference from the lookahead: send the hero with the most health
            # left (ties: the lowest index), so a wounded hero is spared while a fresh one can fight.
            heroes = setup_of(state.options).heroes
            return max(engages, key=lambda a: (heroes[a.hero].health - state.hero_damage[a.hero], -a.hero))
        best: Action = legal_actions[0]
        best_score = -1e18
        for action in legal_actions:
            score = _lookahead(GAME.apply_unchecked(state, action), self.hero_moves - 1, self.chance_depth)
            if score > best_score + 1e-9:
                best, best_score = action, score
        return best

    def __repr__(self) -> str:
        return f"HeuristicHero(hero_moves={self.hero_moves}, chance_depth={self.chance_depth})"


def default_agents(state: RuneboundState) -> list[Any]:
    """One heuristic bot per hero (and a random enemy player when the enemy decides its choices)."""
    bots: list[Any] = [HeuristicHero() for _ in state.options.heroes]
    if state.options.enemy_choices == "player":
        bots.append(RandomAgent())
    return bots
