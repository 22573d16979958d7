"""A heuristic hero bot (one-ply lookahead on a damage-based score) and the default seating.

>>> import numpy as np
>>> from runebound_coop import GAME
>>> state = GAME.new_game(seed=1, heroes=("Corbin",), enemies=("Ogre",))
>>> bot = HeuristicHero(GAME)
>>> GAME.is_legal(state, bot.act(GAME.observe(state, 0), GAME.legal_actions(state), np.random.default_rng(0)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from runebound_coop.actions import Action, Engage, Respond, Withdraw
from runebound_coop.rules.choices import worth
from runebound_coop.rules.tokens import faces_showing
from runebound_coop.state import HERO, RuneboundState
from runebound_coop.view import RuneboundView
from tabletop_core.agents import RandomAgent
from tabletop_core.spec import CHANCE

if TYPE_CHECKING:
    from runebound_coop.game import RuneboundCoop

__all__ = ["HeuristicHero", "default_agents", "evaluate"]


def evaluate(game: RuneboundCoop, state: RuneboundState) -> float:
    """The party's score of a state: twice the enemy damage dealt minus 1.5 times the hero damage taken, plus half
    the worth of the live tokens the engaged hero still holds and minus half of the enemy's (a win or a loss
    dominates)."""
    if game.is_terminal(state):
        return 100.0 * game.returns(state)[0]
    setup = state.options.setup
    score = 2.0 * sum(state.enemy_damage) - 1.5 * sum(state.hero_damage)
    fight = state.fight
    if fight is not None:
        for side, i, face in faces_showing(setup, fight):
            score += (0.5 if side == HERO else -0.5) * worth(face, fight.pool(side).doubled(i))
    return score


def _lookahead(game: RuneboundCoop, state: RuneboundState, hero_moves: int, chance_depth: int) -> float:
    """The score at the end of the current round (or fight), the hero making up to ``hero_moves`` more choices
    (best by this same lookahead) and then passing; cancels are taken, fights are stayed in; recasts are averaged
    over their outcomes (``chance_depth`` deep), the next round's casts are not looked into."""
    while True:
        if game.is_terminal(state) or state.fight is None:
            return evaluate(game, state)
        player = game.current_player(state)
        if player == CHANCE:
            if state.pos.step == "cast" or chance_depth == 0:
                return evaluate(game, state)
            return sum(
                p * _lookahead(game, game.apply_unchecked(state, a), hero_moves, chance_depth - 1)
                for a, p in game.chance_outcomes(state)
            )
        legal = game.legal_actions(state)
        if Respond(True) in legal:
            state = game.apply_unchecked(state, Respond(True))
        elif Withdraw(False) in legal:
            state = game.apply_unchecked(state, Withdraw(False))
        elif player >= len(state.options.heroes) or hero_moves == 0:
            state = game.apply_unchecked(state, legal[0])  # pass (or the enemy player's first candidate)
        else:
            return max(_lookahead(game, game.apply_unchecked(state, a), hero_moves - 1, chance_depth) for a in legal)


class HeuristicHero:
    """Picks the action whose lookahead (:func:`evaluate` at the end of the round, up to three own actions deep)
    is best; ties go to the lowest action id. A cancel is always taken; it stays in fights. When the party chooses
    who engages, it sends the hero with the most health left (ties: the lowest index).
    """

    def __init__(self, game: RuneboundCoop, hero_moves: int = 3, chance_depth: int = 3) -> None:
        self.game = game
        self.hero_moves = hero_moves
        self.chance_depth = chance_depth

    def act(self, view: RuneboundView, legal_actions: Sequence[Action], rng: np.random.Generator) -> Action:
        """Choose one of ``legal_actions``."""
        game = self.game
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
            heroes = state.options.setup.heroes
            return max(engages, key=lambda a: (heroes[a.hero].health - state.hero_damage[a.hero], -a.hero))
        best: Action = legal_actions[0]
        best_score = -1e18
        for action in legal_actions:
            score = _lookahead(game, game.apply_unchecked(state, action), self.hero_moves - 1, self.chance_depth)
            if score > best_score + 1e-9:
                best, best_score = action, score
        return best

    def __repr__(self) -> str:
        return f"HeuristicHero(hero_moves={self.hero_moves}, chance_depth={self.chance_depth})"


def default_agents(game: RuneboundCoop, state: RuneboundState) -> list[Any]:
    """One heuristic bot per hero of ``game`` (and a random enemy player when the enemy decides its choices)."""
    bots: list[Any] = [HeuristicHero(game) for _ in state.options.heroes]
    if state.options.enemy_choices == "player":
        bots.append(RandomAgent())
    return bots
