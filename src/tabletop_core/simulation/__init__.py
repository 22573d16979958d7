"""Simulation at scale: seat-aware matches and leagues on a process pool or a Ray cluster, with statistics.

A first tournament:

>>> from tabletop_core.simulation import Simulation, run
>>> sim = Simulation.build("tabletop_core.testing.kuhn:GAME", pool=["mcts:iterations=30", "random"], games=20)
>>> results = run(sim)  # add out="results/", workers=2, backend="ray" as needed
>>> best = max(results.summary()["agents"], key=lambda row: row["mean_return"])
>>> best["agent"], best["games"]
('mcts:iterations=30', 40)

See ``docs/simulation.md`` for the command line (``tabletop simulate``, ``tabletop report``), Ray and the plots.
"""

from tabletop_core.outcomes import seat_outcomes, win_rule, won
from tabletop_core.simulation.plan import Simulation, game_seed
from tabletop_core.simulation.runner import BACKENDS, Results, load_results, play_game, run, write_summary

__all__ = [
    "BACKENDS",
    "Results",
    "Simulation",
    "game_seed",
    "load_results",
    "play_game",
    "run",
    "seat_outcomes",
    "win_rule",
    "won",
    "write_summary",
]
