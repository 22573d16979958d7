"""Endurance (`make soak`): a million random steps per game under the conformance checks, then a verdict.

For each game (the framework's test game and every installed title) seeded random playouts run through
:func:`tabletop_core.conformance.check_game`, one game (seed) at a time, until the game has taken ``--steps``
steps. Every state is checked as the conformance suite checks it (who acts, legal actions, the id and string
codecs, masks, tensors, views, determinization, ``validate_state``, replaying the record); the deep checks (JSON
round trips, stepping every legal action, illegal actions rejected) run at every ``--deep-every``-th state, and the
hidden-information checks (:mod:`tabletop_core.leakcheck`) on the first ``--leak-playouts`` of every
``--batch`` playouts.

A failure does not stop the run: it is printed (game, seed, step, check) and counted, and the next seed is played.
The run prints each game's steps, playouts, failures and rate as it goes, then a summary, and exits 1 if anything
failed. It is not part of ``make test`` (it takes most of an hour on a 2-core machine: see docs/performance.md).

Each game's steps are shared among ``--workers`` processes (default 2, one per core), each playing its own range
of seeds (worker ``k`` starts at ``seed + k * SEED_STRIDE``), so the run is the same for a given worker count and
no two workers play the same game. ``--workers 1`` runs everything in this process.

    python -m benchmarks.soak                                     # 1,000,000 steps per game on 2 processes
    python -m benchmarks.soak --steps 20000 --workers 1 unrest    # a short run of one game
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from tabletop_core import available_games, load_game
from tabletop_core.conformance import ConformanceError, check_game
from tabletop_core.leakcheck import LeakBudget

#: The framework's own test game, soaked first.
KUHN = "tabletop_core.testing.kuhn:GAME"
STEPS = 1_000_000
#: Seeds between the first seeds of two workers on the same game (far more playouts than any soak plays).
SEED_STRIDE = 100_000_000
#: The determinizer frequency test's significance and sample size in a soak. A soak runs tens of thousands of these
#: tests (two per batch of playouts, per sampler), so at the suite's 0.001 a sound determinizer fails about one in a
#: thousand by chance (the first full run failed four times in 200,000 Kuhn steps, every time at 179 to 181 of 300
#: worlds against 150 expected). A Bonferroni-style 1e-7 keeps the whole soak's false-alarm chance under a few in a
#: thousand, and 2,000 worlds per test keep its power (a 60/40 split of a fair two-way choice still fails at once).
SOAK_ALPHA = 1e-7
SOAK_SAMPLES = 2_000


def soak(
    name: str,
    steps: int,
    *,
    deep_every: int,
    leak_playouts: int,
    seed: int = 0,
    batch: int = 50,
    report_every: float = 60.0,
    label: str = "",
) -> tuple[int, int, int]:
    """Soak one game; returns (steps done, playouts, failures). Prints failures and progress as it goes.

    Playouts run in batches of ``batch`` seeds (one ``check_game`` call each, whose first ``leak_playouts`` get the
    hidden-information checks); a failure ends its batch, is counted, and the next batch starts after its seed.
    """
    game = load_game(name)
    short = game.spec.short_name + label
    done = playouts = failures = 0
    start = last = time.perf_counter()
    cpu = time.process_time()
    g = seed
    if leak_playouts:
        leaks = LeakBudget(playouts=leak_playouts, alpha=SOAK_ALPHA, samples=SOAK_SAMPLES)
    else:
        leaks = LeakBudget(states=0)
    while done < steps:
        try:
            report = check_game(game, games=batch, seed=g, deep_every=deep_every, leaks=leaks)
        except ConformanceError as exc:
            failures += 1
            print(f"FAIL {short}: {exc}", flush=True)
            done += max(exc.step, 1)  # a game that fails at its first state still moves the run on
            playouts += exc.seed - g + 1
            g = exc.seed + 1
        else:
            done += report.states - report.games  # the states after each playout's first are its steps
            playouts += batch
            g += batch
        now = time.perf_counter()
        if now - last >= report_every:
            last = now
            rate = done / (now - start)
            line = f"  {short}: {done:,} steps, {playouts:,} playouts, {failures} failures, {rate:,.0f} steps/s"
            print(line, flush=True)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(
        f"{short}: {done:,} steps in {playouts:,} playouts, {failures} failures, "
        f"{elapsed:,.0f} s ({done / elapsed:,.0f} steps/s; {cpu:,.0f} CPU s, {done / cpu:,.0f} steps per CPU s)",
        flush=True,
    )
    return done, playouts, failures


def _job(name: str, steps: int, worker: int, opts: dict[str, int]) -> tuple[str, int, int, int]:
    """One worker's share of a game's soak (run in a pool process); returns (name, steps, playouts, failures)."""
    seed = opts["seed"] + worker * SEED_STRIDE
    label = f" [worker {worker}]"
    done, playouts, failures = soak(
        name,
        steps,
        deep_every=opts["deep_every"],
        leak_playouts=opts["leak_playouts"],
        seed=seed,
        batch=opts["batch"],
        label=label,
    )
    return name, done, playouts, failures


def shares(steps: int, workers: int) -> list[int]:
    """Split ``steps`` among ``workers`` as evenly as possible (the first workers take the remainder)."""
    base, extra = divmod(steps, workers)
    return [base + (1 if k < extra else 0) for k in range(workers)]


def main(argv: list[str] | None = None) -> int:
    """Soak every game (or those named) and print the verdict; exit 1 on any failure."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=STEPS, help=f"steps per game (default {STEPS:,})")
    parser.add_argument("--deep-every", type=int, default=100, help="deep checks at every N-th state (default 100)")
    parser.add_argument("--leak-playouts", type=int, default=1, help="leak-checked playouts per batch (default 1)")
    parser.add_argument("--batch", type=int, default=50, help="playouts per conformance run (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes sharing each game's steps (default 2)")
    parser.add_argument("games", nargs="*", help="games to soak (default: the test game and every title)")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    names = args.games or [KUHN, *available_games()]
    start = time.perf_counter()
    opts = {"deep_every": args.deep_every, "leak_playouts": args.leak_playouts, "seed": args.seed, "batch": args.batch}
    jobs = [(n, share, k) for n in names for k, share in enumerate(shares(args.steps, args.workers)) if share]
    if args.workers == 1:
        results = [_job(n, share, k, opts) for n, share, k in jobs]
    else:
        with ProcessPoolExecutor(max_workers=args.workers, mp_context=get_context("spawn")) as pool:
            futures = [pool.submit(_job, n, share, k, opts) for n, share, k in jobs]
            results = [f.result() for f in futures]
    failures = 0
    for name in names:
        mine = [r for r in results if r[0] == name]
        steps = sum(r[1] for r in mine)
        playouts = sum(r[2] for r in mine)
        fails = sum(r[3] for r in mine)
        failures += fails
        print(f"{name}: {steps:,} steps in {playouts:,} playouts, {fails} failures")
    total = sum(r[1] for r in results)
    elapsed = time.perf_counter() - start
    print(
        f"soak: {total:,} steps over {len(names)} games, {failures} failures, "
        f"{elapsed:,.0f} s on {args.workers} processes"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
