"""Exact odds benchmark (`make odds-bench`): CPU seconds of ``runebound_coop.odds`` for a fight, and its answer.

Times ``odds(hero, enemy, max_rounds=R)`` (the fast :class:`~runebound_coop.exact_shift.ShiftSolver`) ``--repeat``
times and prints the median CPU time (``time.process_time``: a loaded machine does not count the waits for a core)
with every field of the answer (as ``float.hex``, the exact bits). ``--reference`` also runs the
:class:`~runebound_coop.exact.RoundSolver` once (about 170 s for the default fight) and checks that both answers are
equal to the last bit.

    python -m benchmarks.odds                                  # Elian vs the Sorcerer, 10 rounds
    python -m benchmarks.odds --rounds 1 --reference           # a quick side-by-side with the reference
    python -m benchmarks.odds --hero Corbin --enemy "Undead Horde" --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import runebound_coop as rb
from runebound_coop.exact import Odds, RoundSolver, fight_state


def _bits(result: Odds) -> str:
    fields = [f"win={result.win.hex()}", f"loss={result.loss.hex()}", f"undecided={result.undecided.hex()}"]
    fields.append("damage=(" + ", ".join(d.hex() for d in result.damage) + ")")
    fields.append(f"states={result.states}")
    return "\n  ".join(fields)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 if ``--reference`` finds a difference."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hero", default="Elian")
    parser.add_argument("--enemy", default="Sorcerer")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of the fast solver (median reported)")
    parser.add_argument("--reference", action="store_true", help="also time the RoundSolver and compare the bits")
    args = parser.parse_args(argv)
    times = []
    result = None
    for _ in range(args.repeat):
        t = time.process_time()
        result = rb.odds(args.hero, args.enemy, max_rounds=args.rounds)
        times.append(time.process_time() - t)
    assert result is not None  # --repeat is at least 1
    print(f"{args.hero} vs {args.enemy}, {args.rounds} rounds: {result}")
    print(f"odds (ShiftSolver): median {statistics.median(times):.2f} s CPU over {len(times)} runs {times}")
    print("  " + _bits(result))
    if not args.reference:
        return 0
    t = time.process_time()
    reference = RoundSolver(rb.GAME, fight_state(rb.GAME, args.hero, args.enemy, max_rounds=args.rounds)).odds()
    print(f"RoundSolver (reference): {time.process_time() - t:.2f} s CPU")
    print("  " + _bits(reference))
    same = reference == result
    print("same answer to the last bit:", same)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
