"""Play one seeded game of Unbroken with the heuristic bot and print it.

Run: ``python examples/unbroken_play.py [seed] [difficulty] [character]``.
"""

from __future__ import annotations

import sys

import numpy as np

import unbroken
from tabletop_core import CHANCE, sample_chance


def main(seed: int = 0, difficulty: str = "normal", character: str = "brawler") -> None:
    """Play and print a whole game: every decision and chance outcome, then the result."""
    rng = np.random.default_rng(seed)
    state = unbroken.new_game(difficulty=difficulty, character=character)
    (bot,) = unbroken.GAME.default_agents(state)
    level = 0
    while not unbroken.is_terminal(state):
        if state.level != level:
            level = state.level
            print(f"\n=== Level {level} ===")
            print(unbroken.render(state))
        if unbroken.current_player(state) == CHANCE:
            action = sample_chance(unbroken.GAME, state, rng)
        else:
            action = bot.act(unbroken.observe(state, 0), unbroken.legal_actions(state), rng)
        print(f"  [{unbroken.GAME.describe_step(state)}] {unbroken.action_to_str(state, action)}")
        state = unbroken.step(state, action)
    print()
    print(unbroken.render(state))
    print(f"return: {unbroken.returns(state)[0]}")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 0, *(args[1:3]))
