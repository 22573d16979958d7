"""The server's cost per move, in process: what ``make load``'s bots ask for each move, without HTTP.

Plays Unrest matches of two open seats through :class:`~tabletop_core.server.matches.Matches` on an SQLite file in
a temporary folder, each move as a remote bot makes it (both seats' views, then the move), for ``--moves`` moves;
prints the milliseconds per move and, from a profile of the same run, the share of that time spent in
``registry.installed_game`` (resolving a game's name through the installed entry points). Not part of the tests::

    python -m tests.server.bench_moves --moves 300
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path

from tabletop_core.server.matches import Matches
from tabletop_core.server.store import Store


def _play(matches: Matches, moves: int, seed: int) -> int:
    """Play ``moves`` moves (new matches as they end); the number played."""
    pick = random.Random(seed)
    played = 0
    while played < moves:
        row = matches.create("unrest", {}, ["open", "open"], seed=seed + played)
        tokens = [s["token"] for s in row.seats]
        while played < moves:
            row = matches.get(row.id)
            views = [matches.view(row, seat) for seat in range(len(tokens))]
            if views[0]["finished"]:
                break
            seat = next(p for p, v in enumerate(views) if v["legal"])
            row, _ = matches.move(row.id, tokens[seat], views[seat]["move"], pick.choice(views[seat]["legal"])["id"])
            played += 1
    return played


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.server.bench_moves", description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=300, help="moves to time (default 300)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.db'}")
        try:
            _play(Matches(store), 20, 1)  # warm up: imports, content, caches
            began = time.perf_counter()
            played = _play(Matches(store), args.moves, 2)
            took = time.perf_counter() - began
            profile = cProfile.Profile()
            profile.runcall(_play, Matches(store), args.moves, 2)
        finally:
            store.engine.dispose()
    stats = pstats.Stats(profile)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]  # pstats.Stats sets total_tt; typeshed omits it
    resolving = sum(
        cumulative
        for (file, _, name), (_, _, _, cumulative, _) in stats.stats.items()  # type: ignore[attr-defined]  # as above
        if name == "installed_game" and file.endswith("registry.py")
    )
    print(
        f"{played} moves in {took:.2f} s: {took / played * 1000:.2f} ms a move; "
        f"registry.installed_game: {resolving / total:.0%} of the profiled time",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
