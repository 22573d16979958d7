"""Playing a simulation: in this process, on a local process pool, or as Ray tasks; results as JSON Lines.

Every finished game is one line of ``DIR/games.jsonl`` (written and flushed as it arrives), with the seating, the
deal and its seed, each seat's agent and name, the returns and outcomes, the game's length in actions and in
decisions, its wall time and, with ``records=True``, the file of its replayable record under ``DIR/records/``.
``DIR/run.json`` holds the plan; ``DIR/summary.json`` the statistics (with the ``sim`` extra). A run stopped by
Ctrl-C keeps every finished game; running the same plan into the same directory again plays only the games that
are missing. The games a worker plays depend only on the plan, so the results are the same for any number of
workers and either backend (only the wall times differ).
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core.agents.base import SearchAgent
from tabletop_core.agents.specs import parse_agent_spec, seat_names
from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.records import play
from tabletop_core.registry import ENTRY_POINT_GROUP, load_game
from tabletop_core.simulation.outcomes import seat_outcomes
from tabletop_core.simulation.plan import Simulation

__all__ = ["BACKENDS", "GAMES_FILE", "PLAN_FILE", "Results", "load_results", "play_game", "run"]

BACKENDS = ("local", "ray")
PLAN_FILE = "run.json"
GAMES_FILE = "games.jsonl"
SUMMARY_FILE = "summary.json"
RECORDS_DIR = "records"

Progress = Callable[[int, int], None]


class _Counted:
    """An agent whose decisions are counted (it stays an Agent, or a SearchAgent, as the one it wraps)."""

    def __init__(self, agent: Any, counter: list[int]) -> None:
        self.agent, self.counter = agent, counter

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        self.counter[0] += 1
        return self.agent.act(view, legal_actions, rng)


class _CountedSearch(_Counted):
    def act_in(self, game: Any, state: Any, player: int, rng: np.random.Generator) -> Any:
        self.counter[0] += 1
        return self.agent.act_in(game, state, player, rng)


def play_game(
    game: Any, agents: Sequence[Any], seed: int, options: dict[str, Any] | None = None, *, record: bool = False
) -> dict[str, Any]:
    """Play one game with :func:`~tabletop_core.records.play` and describe it as a result line.

    Returns:
        ``returns`` (``None`` if the game hit ``max_game_length``), ``outcomes`` (per seat: win, tie or loss),
        ``length`` (actions, chance included), ``decisions``, ``seconds`` and, with ``record``, ``record`` (its
        JSON).
    """
    counter = [0]
    wrapped = [(_CountedSearch if isinstance(a, SearchAgent) else _Counted)(a, counter) for a in agents]
    start = time.perf_counter()
    _, rec = play(game, wrapped, seed=seed, options=options)
    seconds = time.perf_counter() - start
    line: dict[str, Any] = {
        "returns": list(rec.returns) if rec.returns is not None else None,
        "outcomes": list(seat_outcomes(game.spec, rec.returns)) if rec.returns is not None else None,
        "length": len(rec.actions),
        "decisions": counter[0],
        "seconds": round(seconds, 6),
    }
    if record:
        line["record"] = rec.to_json()
    return line


def _play_batch(plan: str, tasks: Sequence[Sequence[int]], records: bool) -> list[dict[str, Any]]:
    """Play some games of a plan (what a worker process or a Ray task runs)."""
    sim = Simulation.from_json(plan)
    game = load_game(sim.game)
    options = dict(sim.options)
    state = game.initial_state(game.make_options(**options))
    names = list(seat_names(game, state))
    specs = {text: parse_agent_spec(text) for seating in sim.seatings for text in seating}
    lines = []
    for seating, deal in tasks:
        agents = [specs[text].build(game, state, seat) for seat, text in enumerate(sim.seatings[seating])]
        seed = sim.seed_of(deal)
        line = {"seating": seating, "deal": deal, "seed": seed, "agents": list(sim.seatings[seating]), "seats": names}
        line.update(play_game(game, agents, seed, options, record=records))
        lines.append(line)
    return lines


def _play_batch_args(args: tuple[str, Sequence[Sequence[int]], bool]) -> list[dict[str, Any]]:
    return _play_batch(*args)


#: How worker processes start: never by a plain fork of this process, which may hold other threads (the command
#: line's progress display) whose locks a forked child would inherit held. A fork server (a fresh single-threaded
#: process that forks the workers) where the platform has one, spawned processes elsewhere; either way the script
#: that calls ``run`` needs the ``if __name__ == "__main__"`` guard.
_START = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _pool_context(fn: Callable[[Any], list[Any]]) -> Any:
    context = multiprocessing.get_context(_START)
    if _START == "forkserver":
        # The fork server imports the work's module and the installed games once, so each worker starts with them
        # (about as fast as a fork) instead of importing them again; names come from the installed entry points.
        games = [ep.module for ep in entry_points(group=ENTRY_POINT_GROUP)]
        context.set_forkserver_preload([fn.__module__, *games])
    return context


def _quiet_worker() -> None:
    # Ctrl-C in a terminal reaches the whole process group: leave it to the parent, which stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _batches(tasks: Sequence[tuple[int, int]], size: int) -> list[list[tuple[int, int]]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def map_batches(
    fn: Callable[[Any], list[Any]], batches: Sequence[Any], *, workers: int, backend: str, address: str | None
) -> Iterator[list[Any]]:
    """Run ``fn`` on every batch, yielding each result as it finishes (in any order).

    The one place where work meets a backend, shared by the simulation and the analysis: in this process when
    ``workers`` is 1, else on a local process pool (``local``), or as Ray tasks of one CPU each (``ray``: on a local
    instance started with ``workers`` CPUs and shut down after, or on the cluster at ``address``). ``fn`` must be a
    module-level function so that workers can import it.

    Raises:
        OptionError: for the ray backend when Ray is not installed.
    """
    if backend == "ray":
        yield from _ray(fn, batches, workers, address)
    elif workers == 1:
        for batch in batches:
            yield fn(batch)
    else:
        pool = _pool_context(fn).Pool(workers, initializer=_quiet_worker)
        try:
            yield from pool.imap_unordered(fn, batches)
            pool.close()
        finally:
            pool.terminate()
            pool.join()


def _ray(fn: Callable[[Any], list[Any]], batches: Sequence[Any], workers: int, address: str | None) -> Any:
    try:
        import ray
    except ImportError as exc:
        raise OptionError("the ray backend needs Ray: pip install 'tabletop-rules[ray]'") from exc
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    task = ray.remote(num_cpus=1)(fn)
    pending = [task.remote(batch) for batch in batches]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


@attrs.frozen
class Results:
    """The finished games of a simulation.

    Attributes:
        simulation: the plan.
        lines: one result line per finished game, sorted by seating and deal.
        out: the directory they were written to (``None`` when nothing was written).
    """

    simulation: Simulation
    lines: tuple[dict[str, Any], ...]
    out: Path | None = None

    @property
    def complete(self) -> bool:
        """Whether every game of the plan is here."""
        return len(self.lines) == len(self.simulation.tasks())

    def summary(self) -> dict[str, Any]:
        """The statistics of these games (needs the ``sim`` extra: see :mod:`tabletop_core.simulation.stats`)."""
        from tabletop_core.simulation.stats import summarize

        return summarize(self.simulation, self.lines)


def _read_lines(path: Path) -> list[dict[str, Any]]:
    """The result lines of ``path``; a last line cut short by a hard stop is dropped from the file."""
    if not path.exists():
        return []
    data = path.read_bytes()
    lines, good = [], 0
    for raw in data.splitlines(keepends=True):
        try:
            if not raw.endswith(b"\n"):
                raise ValueError("unterminated line")
            lines.append(json.loads(raw))
        except ValueError:
            break
        good += len(raw)
    if good < len(data):
        with path.open("r+b") as fh:
            fh.truncate(good)
    return lines


def load_results(out: str | os.PathLike[str]) -> Results:
    """The plan and the finished games in a results directory.

    Raises:
        StateFormatError: when ``out`` holds no simulation.
    """
    folder = Path(out)
    try:
        sim = Simulation.from_json((folder / PLAN_FILE).read_text(encoding="utf-8"))
    except (OSError, OptionError) as exc:
        raise StateFormatError(f"{folder}: not a simulation results directory ({exc})") from exc
    lines = sorted(_read_lines(folder / GAMES_FILE), key=lambda ln: (ln["seating"], ln["deal"]))
    return Results(sim, tuple(lines), folder)


def _prepare(sim: Simulation, folder: Path) -> list[dict[str, Any]]:
    folder.mkdir(parents=True, exist_ok=True)
    plan_path = folder / PLAN_FILE
    if plan_path.exists():
        old = load_results(folder)
        if not old.simulation.same_work(sim):
            raise OptionError(
                f"{folder} holds results of another simulation ({old.simulation.to_json()}); use another --out"
            )
    plan_path.write_text(sim.to_json() + "\n", encoding="utf-8")
    return [ln for ln in _read_lines(folder / GAMES_FILE) if ln["deal"] < sim.games]


def run(
    sim: Simulation,
    out: str | os.PathLike[str] | None = None,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    records: bool = False,
    progress: Progress | None = None,
    batch_size: int | None = None,
) -> Results:
    """Play every game of ``sim`` that ``out`` does not already hold, writing each as it finishes.

    Args:
        sim: the plan.
        out: the results directory (``None``: keep the results in memory only).
        workers: processes (``local``) or CPUs of a local Ray instance (``ray`` without ``address``).
        backend: ``local`` (this process for one worker, else a process pool) or ``ray``.
        address: the Ray cluster to join (``ray`` only; default: start a local instance).
        records: keep each game's replayable record (``out/records/``).
        progress: called as ``progress(done, total)`` after each batch of games (and once at the start).
        batch_size: games per task (default: 1 locally; on Ray eight tasks per worker, at most 64 games each).

    Raises:
        KeyboardInterrupt: after Ctrl-C, once every finished game is written and the workers are stopped.
    """
    if backend not in BACKENDS:
        raise OptionError(f"backend must be one of {BACKENDS}, not {backend!r}")
    if workers < 1:
        raise OptionError(f"workers must be >= 1, not {workers}")
    if address and backend != "ray":
        raise OptionError("--address needs the ray backend")
    folder = Path(out) if out is not None else None
    kept = _prepare(sim, folder) if folder is not None else []
    done = {(ln["seating"], ln["deal"]) for ln in kept}
    todo = [t for t in sim.tasks() if t not in done]
    total = len(sim.tasks())
    lines = list(kept)
    if progress:
        progress(len(lines), total)
    # A local worker takes one game at a time (the pool's overhead is far below a game's), so progress and Ctrl-C
    # lose nothing; a Ray task takes a batch, to keep the per-task overhead small.
    size = batch_size or (max(1, min(64, math.ceil(len(todo) / (workers * 8)))) if backend == "ray" else 1)
    plan = sim.to_json()
    batches = _batches(todo, size)
    args = [(plan, b, records) for b in batches]
    stream = map_batches(_play_batch_args, args, workers=workers, backend=backend, address=address)
    fh = (folder / GAMES_FILE).open("a", encoding="utf-8") if folder is not None else None
    try:
        for batch in stream:
            for line in batch:
                if folder is not None and "record" in line:
                    path = folder / RECORDS_DIR / f"s{line['seating']}-d{line['deal']}.json"
                    path.parent.mkdir(exist_ok=True)
                    path.write_text(line.pop("record"), encoding="utf-8")
                    line["record"] = str(path.relative_to(folder))
                if fh is not None:
                    fh.write(json.dumps(line, sort_keys=True) + "\n")
                lines.append(line)
            if fh is not None:
                fh.flush()
            if progress:
                progress(len(lines), total)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # stop the pool or the Ray tasks now, not when the generator is collected
        if fh is not None:
            fh.close()
        results = Results(sim, tuple(sorted(lines, key=lambda ln: (ln["seating"], ln["deal"]))), folder)
        if folder is not None:
            write_summary(results)
    return results


def write_summary(results: Results) -> bool:
    """Write ``summary.json`` beside the games; ``False`` (nothing written) without the ``sim`` extra."""
    if results.out is None:
        return False
    try:
        summary = results.summary()
    except ImportError:
        return False
    (results.out / SUMMARY_FILE).write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return True
