"""``tabletop simulate``: many seeded games on a process pool or a Ray cluster, saved as they finish."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop_core.cli.common import ALLOW_IMPORT_HELP, non_negative, parse_options, positive
from tabletop_core.errors import OptionError, TabletopError

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.progress import Task

    from tabletop_core.cli.common import Subparsers
    from tabletop_core.simulation.plan import Simulation

#: The share of a run's work done before an ETA is shown: the first games finish in a burst once the workers
#: have started (or slowly, the costly ones first), and a rate read from them says little.
ETA_AFTER = 0.05

HELP_AGENT = (
    "SEAT=SPEC fixes an agent to a seat (an index, player N or a seat name, e.g. 1=heuristic); a bare SPEC joins the "
    "pool that rotates through the other seats (more agents than seats: a league). SPEC: random, first, heuristic, "
    "mcts, ismcts, with parameters as mcts:iterations=400,seconds=1, an installed agent (unrest-empire, ...), or "
    "module:Class with --allow-import-agent. Default: heuristic everywhere"
)


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    sim = sub.add_parser("simulate", help="play many seeded games (process pool or Ray) and save the results")
    sim.add_argument("game", help="an installed game, or module:ATTR")
    sim.add_argument("--agent", action="append", default=[], metavar="[SEAT=]SPEC", help=HELP_AGENT)
    sim.add_argument("--allow-import-agent", action="store_true", help=ALLOW_IMPORT_HELP)
    sim.add_argument("--games", type=positive, default=100, help="games per seating (default 100)")
    sim.add_argument("--seed", type=non_negative, default=0, help="the seed every game's seed is derived from")
    sim.add_argument(
        "--workers",
        type=positive,
        default=1,
        help="worker processes, or Ray CPUs (default 1; more than the planned games is refused; on this machine no "
        "more are started than the CPUs or the games left can use)",
    )
    sim.add_argument("--backend", choices=("local", "ray"), default="local", help="local process pool, or Ray")
    sim.add_argument("--address", help="the Ray cluster to join (default: start a local Ray instance)")
    sim.add_argument(
        "--out",
        metavar="DIR",
        help="results directory (rerun to resume; default: tabletop-results-GAME-SEED here, or the first "
        "tabletop-results-GAME-SEED-N that is free or holds this plan)",
    )
    sim.add_argument("--records", action="store_true", help="keep each game's replayable record in DIR/records")
    sim.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    sim.add_argument(
        "--pack",
        metavar="FILE",
        help="play this content pack file (the game's pack option; the plan names it by name and SHA-256, so a "
        "changed file is another plan)",
    )
    sim.add_argument("--batch-size", type=positive, help="games per task (default: automatic)")
    sim.add_argument("--quiet", action="store_true", help="no progress and no tables")
    sim.set_defaults(func=run)


def split_agents(items: list[str]) -> tuple[dict[str, str], list[str]]:
    """``SEAT=SPEC`` items as fixed seats, bare specs as the pool.

    >>> split_agents(["empire=heuristic", "mcts:iterations=50", "random"])
    ({'empire': 'heuristic'}, ['mcts:iterations=50', 'random'])
    """
    seats: dict[str, str] = {}
    pool: list[str] = []
    for item in items:
        key, sep, spec = item.partition("=")
        if sep and ":" not in key:
            if not spec:
                raise OptionError(f"--agent {item!r}: no agent after {key}=")
            if key in seats:
                raise OptionError(f"--agent: seat {key!r} given twice")
            seats[key] = spec
        else:
            pool.append(item)
    return seats, pool


class _Plain:
    """Progress as plain lines (when the output is not a terminal): at most one every two seconds.

    The rate is this run's (games already in the folder do not count), measured from its start; the ETA is shown
    once :data:`ETA_AFTER` of this run's work is done, and is the work left at that rate. A caller whose tasks
    differ in cost reports ``done`` in units of work (see :func:`tabletop_core.analysis.tasks.run_tasks`).
    """

    def __init__(self, out: TextIO, clock: Callable[[], float] = time.perf_counter) -> None:
        self.out = out
        self.clock = clock
        self.start = clock()
        self.first: int | None = None
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.first is None:
            self.first = done
        if done < total and now - self.last < 2.0 and done != self.first:
            return
        self.last = now
        if done == self.first:  # no game played yet: no rate to tell
            self.out.write(f"{done}/{total} games\n")
            self.out.flush()
            return
        rate = (done - self.first) / (now - self.start) if now > self.start else 0.0
        line = f"{done}/{total} games, {rate:.2f} games/s"
        if done < total and rate > 0 and done - self.first >= ETA_AFTER * (total - self.first):
            line += f", ETA {(total - done) / rate:.0f} s"
        self.out.write(line + "\n")
        self.out.flush()


def _rich_progress(out: TextIO) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from tabletop_core.cli.report import console

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.speed
            return Text(f"{speed:.2f} games/s" if speed else "- games/s")

    class Eta(TimeRemainingColumn):
        """rich's estimate (over its speed window), shown once ``ETA_AFTER`` of the run's work is done."""

        def render(self, task: Task) -> Text:
            begun = task.fields.get("begun", 0)
            left = (task.total or 0) - begun
            if task.finished or task.completed - begun >= ETA_AFTER * left:
                return super().render(task)
            return Text("-:--:--", style="progress.remaining")

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        Eta(),
        console=console(out),
        # A longer window than rich's 30 s: the rate of the last few seconds swings with each batch.
        speed_estimate_period=120.0,
    )


def _pack_options(game_name: str, options: dict[str, Any], path: Path) -> dict[str, Any]:
    """The options that name the pack file ``path`` (by name and SHA-256, as the game binds it): what the plan
    keeps, so that ``run.json`` reads nothing and a changed file is another plan.

    Raises:
        OptionError: no such file, or the game refuses it (not a pack, invalid, no ``pack`` option).
    """
    from tabletop_core.records import options_json
    from tabletop_core.registry import load_game

    if not path.is_file():
        raise OptionError(f"--pack {path}: no such file")
    game = load_game(game_name)
    try:
        bound = options_json(game.make_options(**{**options, "pack": path}))
    except TypeError as exc:
        raise OptionError(f"--pack: {game_name} takes no content pack ({exc})") from None
    named = {k: v for k, v in bound.items() if k == "pack" or k.startswith("pack_")}
    if "pack" not in named:
        raise OptionError(f"--pack: {game_name} takes no content pack")
    return named


def games_kept(sim: Simulation, out: str) -> int:
    """How many of the plan's games the folder ``out`` already holds (0 for a new folder or another plan)."""
    from tabletop_core.simulation import load_results
    from tabletop_core.simulation.runner import PLAN_FILE, read_plan

    folder = Path(out)
    if not (folder / PLAN_FILE).is_file():
        return 0
    try:
        if not read_plan(folder).same_work(sim):
            return 0  # refused by the run, with what differs
        return len(load_results(folder, plan=sim).lines)
    except (TabletopError, OSError):  # a damaged folder: the run says what is wrong with it
        return 0


def default_out(sim: Simulation) -> str:
    """The results folder when ``--out`` is not given: ``tabletop-results-GAME-SEED``, or the first numbered
    one that is free or holds this same plan (so that running the same command again resumes it)."""
    from tabletop_core.simulation.runner import PLAN_FILE, read_plan

    base = f"tabletop-results-{sim.game.split(':')[-1].rsplit('.', 1)[-1]}-{sim.seed}"
    for n in range(1, 10_000):
        name = base if n == 1 else f"{base}-{n}"
        folder = Path(name)
        if not os.path.lexists(folder):
            return name
        try:
            if folder.is_dir() and read_plan(folder).same_work(sim):
                return name
        except (TabletopError, OSError):
            pass
        if folder.is_dir() and not (folder / PLAN_FILE).exists() and not any(folder.iterdir()):
            return name
    raise OptionError(f"no free results folder named {base}-N here; give --out")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Plan, play (or resume) and summarize."""
    from tabletop_core.simulation import Simulation
    from tabletop_core.simulation import run as simulate
    from tabletop_core.simulation.runner import MAX_PLANNED_GAMES, usable_workers

    seats, pool = split_agents(args.agent)
    if not seats and not pool:
        pool = ["heuristic"]
    allow = bool(args.allow_import_agent)
    options = parse_options(args.option or [])
    pack = None
    if getattr(args, "pack", None):
        pack = Path(args.pack)
        options.update(_pack_options(args.game, options, pack))
    sim = Simulation.build(
        args.game,
        seats,
        pool,
        games=args.games,
        seed=args.seed,
        options=options,
        allow_import=allow,
    )
    total = len(sim.tasks())
    # Plans no folder can hold, and workers with nothing to do, are refused before a file is touched.
    if total > MAX_PLANNED_GAMES:
        raise OptionError(
            f"--games {args.games}: {len(sim.seatings)} seating(s) x {args.games} = {total} games, more than one "
            f"results folder holds (at most {MAX_PLANNED_GAMES}); plan fewer games"
        )
    if args.workers > total:
        raise OptionError(
            f"--workers {args.workers}: more workers than the {total} games planned; give at most {total}"
        )
    if args.out is None:
        args.out = default_out(sim)
    kept = games_kept(sim, args.out)
    workers = usable_workers(args.workers, total, backend=args.backend, address=args.address)
    if workers < args.workers:
        sys.stderr.write(
            f"tabletop: --workers {args.workers}: using {workers}, as many as {total} games on "
            f"{'this machine' if args.backend == 'local' or not args.address else 'the cluster'} can use\n"
        )
    if not args.quiet:
        out.write(f"{args.game}: {len(sim.seatings)} seating(s) x {args.games} games = {total} games -> {args.out}\n")
        for i, seating in enumerate(sim.seatings):
            out.write(f"  seating {i}: {', '.join(seating)}\n")
        if kept >= total:
            out.write(f"all {total} games are already in {args.out}: nothing to play\n")
        elif kept:
            out.write(f"{kept} of {total} games are already in {args.out}: playing the other {total - kept}\n")
    tty = bool(getattr(out, "isatty", lambda: False)())
    kwargs: dict[str, Any] = {
        "workers": workers,
        "backend": args.backend,
        "address": args.address,
        "records": args.records,
        "batch_size": args.batch_size,
        "allow_import": allow,
        "pack": pack,
    }
    try:
        if args.quiet or kept >= total:
            results = simulate(sim, args.out, **kwargs)
        elif tty:
            with _rich_progress(out) as bar:
                task = bar.add_task(args.game.split(":")[0].rsplit(".", 1)[-1], total=total)
                started: list[int] = []

                def show(done: int, _total: int) -> None:
                    if not started:  # resumed games are not this run's speed
                        started.append(done)
                        bar.reset(task, total=total, completed=done, begun=done)
                    else:
                        bar.update(task, completed=done)

                results = simulate(sim, args.out, progress=show, **kwargs)
        else:
            results = simulate(sim, args.out, progress=_Plain(out), **kwargs)
    except KeyboardInterrupt:
        from tabletop_core.simulation import load_results

        kept = len(load_results(args.out).lines)
        out.write(f"\ninterrupted: {kept} of {total} games kept in {args.out}; run the same command to resume\n")
        return 130
    for note in results.notes():
        sys.stderr.write(f"tabletop: {note}\n")
    if not args.quiet:
        from tabletop_core.cli.report import print_tables

        print_tables(results.summary(), out)
        out.write(f"results: {args.out}/games.jsonl, {args.out}/summary.json (tabletop report {args.out})\n")
    return 0
