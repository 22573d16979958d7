"""Simulation throughput: games per second on 1 and 2 local workers and on a local Ray instance.

Run with ``make bench-sim`` (or as part of ``make bench``); not part of ``make test``. Every configuration plays
the same games (the same plan and seeds), and the results are checked to be identical, so only the speed differs.
Wall time includes starting the worker processes or the Ray instance, as a user's run would. The machine's load
average is printed before and after, because the speed-up of a second worker is only measurable when a second
core is free.

    python -m benchmarks.simulation --games 60 --agent ismcts:iterations=40
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tabletop_core.simulation import Simulation, run


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print one line per configuration."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="unrest")
    parser.add_argument("--agent", default="ismcts:iterations=40", help="the Rebellion's agent (vs the Empire bot)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray measurement")
    args = parser.parse_args(argv)
    sim = Simulation.build(args.game, {"1": "heuristic"}, [args.agent], games=args.games, seed=args.seed)
    configs = [("local", 1), ("local", 2)] + ([] if args.no_ray else [("ray", 2)])
    print(f"{args.game}: {args.agent} vs heuristic, {args.games} games; before: {_load()}")
    rates: dict[tuple[str, int], float] = {}
    baseline = None
    with tempfile.TemporaryDirectory() as tmp:
        for backend, workers in configs:
            start = time.perf_counter()
            results = run(sim, Path(tmp) / f"{backend}{workers}", workers=workers, backend=backend)
            wall = time.perf_counter() - start
            games = [{k: v for k, v in ln.items() if k != "seconds"} for ln in results.lines]
            baseline = games if baseline is None else baseline
            if games != baseline:
                raise SystemExit(f"{backend} x{workers}: results differ from the first configuration")
            rates[backend, workers] = len(games) / wall
            speedup = rates[backend, workers] / rates["local", 1]
            print(
                f"{backend:>5} x{workers}: {rates[backend, workers]:7.2f} games/s ({wall:6.1f} s, "
                f"{speedup:.2f}x one worker); {_load()}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
