"""External-sampling MCCFR (OpenSpiel's) on Unrest's research game, with the average policy's NashConv measured
along the way: the small game (``research=True``, not the published game) that tabular algorithms can solve.

Run ``python examples/openspiel_mccfr_unrest_research.py`` (the docs' table: ``--iterations 1000``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from open_spiel.python.algorithms import exploitability, external_sampling_mccfr

from tabletop_core.adapters import openspiel
from unrest import GAME

#: The research game's options (a Capitol game: its liberation is the research game's only win).
OPTIONS = {"variant": "capitol", "research": True}


def main(
    iterations: int = 200, checkpoints: tuple[int, ...] = (1, 10, 50, 200), *, seed: int = 0, measure: bool = True
) -> list[tuple[int, float, float | None, int]]:
    """Run ``iterations`` of external-sampling MCCFR.

    Returns, at each checkpoint (iterations done): the iterations, the seconds the iterations took so far, the
    average policy's NashConv (``None`` without ``measure``) and the information states in the solver's table.
    """
    game = openspiel.load(GAME, **OPTIONS)
    np.random.seed(seed)  # OpenSpiel's MCCFR samples with numpy's global generator
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    rows: list[tuple[int, float, float | None, int]] = []
    spent = 0.0
    for i in range(1, iterations + 1):
        start = time.perf_counter()
        solver.iteration()
        spent += time.perf_counter() - start
        if i in checkpoints or i == iterations:
            gap = float(exploitability.nash_conv(game, solver.average_policy())) if measure else None
            rows.append((i, spent, gap, len(solver._infostates)))  # the table's size: no public accessor
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--checkpoints", type=int, nargs="*", default=[1, 10, 50, 200, 1000])
    args = parser.parse_args()
    print("iterations  seconds  NashConv  information states")
    for done, seconds, gap, states in main(args.iterations, tuple(args.checkpoints)):
        print(f"{done:10d}  {seconds:7.1f}  {gap:8.4f}  {states:18d}")
