"""External-sampling MCCFR (OpenSpiel's) on Unrest's research game, with the average policy's NashConv measured
along the way: the small game (``research=True``, not the published game) that tabular algorithms can solve.

Run ``python examples/openspiel_mccfr_unrest_research.py`` (the docs' table: its defaults, 100 iterations).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from open_spiel.python.algorithms import exploitability, external_sampling_mccfr

from tabletop_core.adapters import openspiel
from unrest import GAME

#: The research game's options (a Capitol game: its liberation is the research game's only win).
OPTIONS = {"variant": "capitol", "research": True}


Row = tuple[int, float, float | None, int]


def main(
    iterations: int = 100,
    checkpoints: tuple[int, ...] = (1, 10, 100),
    *,
    seed: int = 0,
    measure: bool = True,
    show: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Run ``iterations`` of external-sampling MCCFR.

    Returns, at each checkpoint (iterations done): the iterations, the CPU seconds they took so far
    (``time.process_time``, steady on a loaded machine), the average policy's NashConv (``None`` without
    ``measure``) and the information states in the solver's table; ``show`` sees each row as it is measured.
    """
    game = openspiel.load(GAME, **OPTIONS)
    np.random.seed(seed)  # OpenSpiel's MCCFR samples with numpy's global generator
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    rows: list[Row] = []
    spent = 0.0
    for i in range(1, iterations + 1):
        start = time.process_time()
        solver.iteration()
        spent += time.process_time() - start
        if i in checkpoints or i == iterations:
            gap = float(exploitability.nash_conv(game, solver.average_policy())) if measure else None
            rows.append((i, spent, gap, len(solver._infostates)))  # the table's size: no public accessor
            if show is not None:
                show(rows[-1])
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--checkpoints", type=int, nargs="*", default=[1, 10, 100])
    args = parser.parse_args()
    print("iterations  MCCFR CPU s  NashConv  information states", flush=True)

    def show(row: Row) -> None:
        done, seconds, gap, states = row
        print(f"{done:10d}  {seconds:11.1f}  {gap:8.4f}  {states:18d}", flush=True)

    main(args.iterations, tuple(args.checkpoints), show=show)
