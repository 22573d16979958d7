"""OpenSpiel's own MCTS bot plays Unbroken through the adapter, next to uniformly random play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from tabletop_core.adapters import openspiel
from unbroken import GAME


def play(game: Any, choose: Callable[[Any], int], rng: np.random.RandomState) -> tuple[float, int]:
    """One game: chance from ``rng``, decisions from ``choose(state)``; returns (return, decisions taken)."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(choose(state))
            decisions += 1
    return float(state.returns()[0]), decisions


def uniform(rng: np.random.RandomState) -> Callable[[Any], int]:
    """A policy that picks a uniformly random legal action."""
    return lambda state: int(rng.choice(state.legal_actions()))


def main(games: int = 2, simulations: int = 12, difficulty: str = "easy") -> dict[str, tuple[float, float]]:
    """Play ``games`` seeded games per player kind; return each kind's mean return and mean decisions survived."""
    game = openspiel.load(GAME, difficulty=difficulty)  # registers "python_unbroken"
    results: dict[str, tuple[float, float]] = {}
    for kind in ("mcts", "random"):
        scores, lengths = [], []
        for seed in range(games):
            rng = np.random.RandomState(seed)
            if kind == "mcts":
                evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
                bot = mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(seed + 1))
                score, length = play(game, bot.step, rng)
            else:
                score, length = play(game, uniform(rng), rng)
            scores.append(score)
            lengths.append(length)
        results[kind] = (float(np.mean(scores)), float(np.mean(lengths)))
    return results


if __name__ == "__main__":
    for kind, (score, length) in main().items():
        print(f"python_unbroken(difficulty=easy), {kind:>6}: mean return {score:+.2f}, {length:.0f} decisions survived")
