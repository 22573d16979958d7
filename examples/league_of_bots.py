"""A league of the built-in bots at Unrest: every pair meets from both seats; a Bradley-Terry fit rates them all.

Run: python examples/league_of_bots.py [OUT_DIR]   (then: tabletop report OUT_DIR for the tables and plots)
"""

from __future__ import annotations

import sys
import tempfile

from tabletop_core.simulation import Simulation, run


def main() -> None:
    """Plan the league, play it on two worker processes, print the ratings and the win rates by seat."""
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="league-")
    bots = ["random", "first", "heuristic", "ismcts:iterations=8"]
    league = Simulation.build("unrest", pool=bots, games=3, seed=1)  # "heuristic": each seat's own bot
    results = run(league, out, workers=2)
    summary = results.summary()
    print(f"{len(league.seatings)} seatings, {summary['games']} games, results in {out}")
    for row in summary["ratings"]["entries"]:
        low, high = row["interval"]
        span = "" if low is None else f" ({low:.0f} to {high:.0f})"
        print(f"  {row['entry']:<32} Elo {row['elo']:6.0f}{span}")
    for row in summary["seats"]:
        low, high = row["win_interval"]
        print(f"  {row['agent']:<22} as {row['seat_name']}: won {row['wins']}/{row['games']} ({low:.2f}-{high:.2f})")


if __name__ == "__main__":
    main()
