"""Solve the library's Kuhn poker with OpenSpiel's CFR through the adapter, and check it against the known value."""

from __future__ import annotations

from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

from tabletop_core.adapters import openspiel
from tabletop_core.testing.kuhn import GAME


def main(iterations: int = 300) -> tuple[float, float]:
    """Run ``iterations`` of CFR; return the average policy's exploitability and player 0's game value."""
    game = openspiel.load(GAME)  # registers "python_kuhn" with pyspiel and loads it
    solver = cfr.CFRSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [average, average])[0]
    return float(exploitability.exploitability(game, average)), float(value)


if __name__ == "__main__":
    gap, value = main()
    print(
        f"CFR on python_kuhn: exploitability {gap:.4f}, value for player 0 {value:+.4f} (Kuhn's value: -1/18 = -0.0556)"
    )
