"""OpenSpiel's own ISMCTS bot plays the Empire at Unrest, searching worlds drawn by the game's ``determinize``."""

from __future__ import annotations

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from tabletop_core.adapters import openspiel
from unrest import GAME

EMPIRE = 1


def main(games: int = 3, simulations: int = 12, variant: str = "standard") -> list[float]:
    """Play ``games`` seeded games, ISMCTS Empire against a random Rebellion; return the Empire's returns."""
    game = openspiel.load(GAME, variant=variant)  # registers "python_unrest"
    results = []
    for seed in range(games):
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed + 100))
        bot.set_resampler(openspiel.make_resampler(seed))  # hidden Rebel cards drawn by unrest's determinize
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            elif state.current_player() == EMPIRE:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        results.append(float(state.returns()[EMPIRE]))
    return results


if __name__ == "__main__":
    returns = main()
    wins = sum(r > 0 for r in returns)
    print(f"python_unrest: ISMCTS Empire vs random Rebellion won {wins} of {len(returns)} games: {returns}")
