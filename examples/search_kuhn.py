"""Pit the generic ISMCTS bot against a random player at Kuhn poker and print the average winnings."""

from __future__ import annotations

from tabletop_core import RandomAgent, play
from tabletop_core.agents import MCTSAgent
from tabletop_core.testing.kuhn import GAME


def main(games: int = 100) -> float:
    """Play ``games`` seeded games with ISMCTS as player 0 and return its mean return."""
    total = 0.0
    for seed in range(games):
        state, _ = play(GAME, [MCTSAgent(iterations=50), RandomAgent()], seed=seed)
        total += GAME.returns(state)[0]
    return total / games


if __name__ == "__main__":
    print(f"ISMCTS vs random at Kuhn poker: {main():+.3f} chips per game")
