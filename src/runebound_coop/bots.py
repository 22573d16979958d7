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

from runebound_coop.actions import Action, Pass, Respond, Withdraw
from runebound_coop.rules.choices import worth
from runebound_coop.rules.setup import setup_of
from runebound_coop.rules.tokens import faces_of, live
from runebound_coop.state import ENEMY, HERO, RuneboundState
from runebound_coop.view import RuneboundView
from tabletop_core.agents import RandomAgent
from tabletop_core.spec import CHANCE

__all__ = ["HeuristicHero", "default_agents", "evaluate"]


def evaluate(state: RuneboundState) -> float:
    """The party's score of a state: enemy damage dealt minus hero damage taken, plus half the worth of the live
    tokens the engaged hero still holds and minus half of the enemy's (a win or a loss dominates)."""
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


def _expected(state: RuneboundState, depth: int = 4) -> float:
    """The score, averaged over the next few chance nodes (recasts)."""
    from runebound_coop.game import GAME

    if depth == 0 or GAME.current_player(state) != CHANCE:
        return evaluate(state)
    return sum(p * _expected(GAME.apply_unchecked(state, a), depth - 1) for a, p in GAME.chance_outcomes(state))


class HeuristicHero:
    """Picks the action whose resulting state scores best by :func:`evaluate` (ties: the lowest action id).

    Passing is preferred only when nothing improves the score; a cancel is always taken; it stays in fights.
    """

    def act(self, view: RuneboundView, legal_actions: Sequence[Action], rng: np.random.Generator) -> Action:
        """Choose one of ``legal_actions``."""
        from runebound_coop.game import GAME

        state = view.state
        if Respond(True) in legal_actions:
            return Respond(True)
        if Withdraw(False) in legal_actions:
            return Withdraw(False)
        best: Action = legal_actions[0]
        best_score = -1e18
        for action in legal_actions:
            score = _expected(GAME.apply_unchecked(state, action))
            if isinstance(action, Pass):
                score -= 0.25
            if score > best_score:
                best, best_score = action, score
        return best

    def __repr__(self) -> str:
        return "HeuristicHero()"


def default_agents(state: RuneboundState) -> list[Any]:
    """One heuristic bot per hero (and a random enemy player when the enemy decides its choices)."""
    bots: list[Any] = [HeuristicHero() for _ in state.options.heroes]
    if state.options.enemy_choices == "player":
        bots.append(RandomAgent())
    return bots
