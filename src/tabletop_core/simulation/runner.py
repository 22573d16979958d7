"""Playing a simulation: in this process, on a local process pool, or as Ray tasks; results as JSON Lines.

Every finished game is one line of ``DIR/games.jsonl`` (written and flushed as it arrives), with the seating, the
deal and its seed, each seat's agent and name, the returns and outcomes, the game's length in actions and in
decisions, its wall time and, with ``records=True``, the file of its replayable record under ``DIR/records/``.
``DIR/run.json`` holds the plan; ``DIR/summary.json`` the statistics (with the ``sim`` extra). A run stopped by
Ctrl-C keeps every finished game; running the same plan into the same directory again plays only the games that
are missing. The games a worker plays depend only on the plan, so the results are the same for any number of
workers and either backend (only the wall times differ).

**Workers start fresh.** A local worker is a new interpreter (``spawn``; never a ``fork`` of this process, which
is unsafe once a thread runs, such as a progress bar's), so it holds nothing of this process but what travels
with its work: the plan (the game by its registry name, the agent specs, the options), and a content pack given
to :func:`run` as ``pack``, handed to each worker's game before its first game. A script that calls :func:`run`
with several workers needs the ``if __name__ == "__main__":`` guard.

**One writer at a time.** A run holds a lock on ``DIR/writer.lock`` (an ``fcntl`` lock, released by the system
when the process ends however it ends) with the holder's process id and host written in it; a second run into
the same folder is refused with a message naming the holder. **Readers never change the folder.**
:func:`load_results` reads every line it can, skips each damaged line (and names it in
:attr:`Results.problems`), counts a game once however often its line appears, and ignores games outside the plan;
only a resuming run may repair the folder, and only by cutting a last line left unfinished by a hard stop, kept in
``DIR/games.jsonl.cut``.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import multiprocessing
import os
import queue
import signal
import socket
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs
import numpy as np

from tabletop_core.agent import Agent, SearchAgent
from tabletop_core.agents.specs import parse_agent_spec, seat_names
from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.files import AppendLog, atomic_write_text, open_regular, read_regular
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.records import play
from tabletop_core.registry import installed_game, is_installed_game, load_game
from tabletop_core.serialize import parse_json
from tabletop_core.simulation.plan import Simulation

if TYPE_CHECKING:
    import multiprocessing.pool

    from tabletop_core.game import Game

__all__ = [
    "BACKENDS",
    "GAMES_FILE",
    "LOCK_FILE",
    "MAX_LINE_BYTES",
    "MAX_PLANNED_GAMES",
    "MAX_PLAN_BYTES",
    "MAX_RESULTS_BYTES",
    "PLAN_FILE",
    "FolderLockedError",
    "Results",
    "load_results",
    "play_game",
    "run",
    "usable_workers",
]

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
PLAN_FILE = "run.json"
GAMES_FILE = "games.jsonl"
SUMMARY_FILE = "summary.json"
RECORDS_DIR = "records"
LOCK_FILE = "writer.lock"
CUT_FILE = "games.jsonl.cut"
#: The largest ``run.json`` read (a plan is a few hundred bytes).
MAX_PLAN_BYTES = 1 << 20
#: The largest ``games.jsonl`` read (about ten million games of a few hundred bytes each).
MAX_RESULTS_BYTES = 4 << 30
#: The longest result line read (a line is a few hundred bytes; records are files of their own).
MAX_LINE_BYTES = 1 << 16
#: The most games one plan may hold (seatings x games): ``games.jsonl`` is read up to :data:`MAX_RESULTS_BYTES`,
#: about ten million lines of a few hundred bytes.
MAX_PLANNED_GAMES = 10_000_000


class FolderLockedError(OptionError):
    """A results folder another run is writing (its holder named in the message)."""


Progress = Callable[[int, int], None]


class _Counted:
    """An agent whose decisions are counted (it stays an Agent, as the one it wraps)."""

    def __init__(self, agent: Agent, counter: list[int]) -> None:
        self.agent, self.counter = agent, counter

    def act(self, view: object, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        self.counter[0] += 1
        return self.agent.act(view, legal_actions, rng)


class _CountedSearch:
    """A search agent whose decisions are counted (it stays a SearchAgent, as the one it wraps)."""

    def __init__(self, agent: SearchAgent, counter: list[int]) -> None:
        self.agent, self.counter = agent, counter

    def act_in(self, game: Game[Any, Any, Any], state: object, player: int, rng: np.random.Generator) -> Any:
        self.counter[0] += 1
        return self.agent.act_in(game, state, player, rng)


def play_game(
    game: Game[Any, Any, Any],
    agents: Sequence[Agent | SearchAgent],
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    record: bool = False,
) -> dict[str, Any]:
    """Play one game with :func:`~tabletop_core.records.play` and describe it as a result line.

    Returns:
        ``returns`` (``None`` if the game hit ``max_game_length``), ``outcomes`` (per seat: win, tie or loss),
        ``length`` (actions, chance included), ``decisions``, ``seconds`` and, with ``record``, ``record`` (its
        JSON).
    """
    counter = [0]
    wrapped: list[Agent | SearchAgent] = [
        _CountedSearch(a, counter) if isinstance(a, SearchAgent) else _Counted(a, counter) for a in agents
    ]
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


def _play_batch(
    plan: str, tasks: Sequence[Sequence[int]], records: bool, allow_import: bool = False
) -> list[dict[str, Any]]:
    """Play some games of a plan (what a worker process or a Ray task runs)."""
    sim = Simulation.from_json(plan)
    game = load_game(sim.game)
    options = dict(sim.options)
    state = game.initial_state(game.make_options(**options))
    names = list(seat_names(game, state))
    specs = {text: parse_agent_spec(text, allow_import=allow_import) for seating in sim.seatings for text in seating}
    lines = []
    for seating, deal in tasks:
        agents = [specs[text].build(game, state, seat) for seat, text in enumerate(sim.seatings[seating])]
        seed = sim.seed_of(deal)
        line = {"seating": seating, "deal": deal, "seed": seed, "agents": list(sim.seatings[seating]), "seats": names}
        line.update(play_game(game, agents, seed, options, record=records))
        lines.append(line)
    return lines


def _play_batch_args(args: tuple[str, Sequence[Sequence[int]], bool, bool]) -> list[dict[str, Any]]:
    return _play_batch(*args)


def bind_pack(game_name: str, options: dict[str, Any], pack: object) -> None:
    """Hand ``pack`` to the game in this process, then check that the plan's ``options`` name it.

    ``pack`` is what the game's ``make_options(pack=...)`` takes (a pack object, or the ``pathlib.Path`` of a
    pack file): giving it there makes the pack available to the process. A worker runs this before its first game,
    so a fresh interpreter plays the pack the plan names by reference (name and SHA-256), whatever this process held.

    Raises:
        OptionError: the pack cannot be read, or is not the one the options name (a file changed since the plan).
    """
    from tabletop_core.errors import ContentError

    game = load_game(game_name)
    try:
        given = game.make_options(**{**options, "pack": pack})
        named = game.make_options(**options)
    except ContentError as exc:
        raise OptionError(f"the content pack of the plan: {exc}") from exc
    if given != named:
        shown = pack if isinstance(pack, os.PathLike) else getattr(pack, "name", type(pack).__name__)
        raise OptionError(
            f"the content pack {shown} is not the one the plan names ({_options_text(options)}): the file changed "
            "since, or it is another pack"
        )


def _options_text(options: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(options.items()) if str(k).startswith("pack"))
    return shown if len(shown) <= 120 else shown[:117] + "..."


#: How local worker processes start: spawned, each a new interpreter, on every platform. Never forked from this
#: process: a fork copies whatever this process holds (so a worker could play what only this process was given),
#: and forking once a thread runs, such as the progress bar's, may deadlock the child (Python 3.12 warns). Not the
#: fork server either: it is started once per process with the ``sys.path`` of that moment, so a ``module:Class``
#: agent importable later would not be in a worker; it saves only about 0.1 s of a run's start.
#: The script that calls :func:`run` with several workers needs the ``if __name__ == "__main__"`` guard.
_START = "spawn"
#: A worker's setup failure, raised by its first batch (an initializer that raises would only be restarted).
_SETUP_FAILED: list[BaseException] = []


def _quiet_worker(setup: Callable[[], object] | None = None) -> None:
    # Ctrl-C in a terminal reaches the whole process group: leave it to the parent, which stops the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        try:
            setup()
        except Exception as exc:
            _SETUP_FAILED.append(exc)


def _in_worker(fn: Callable[[T], list[R]], batch: T) -> list[R]:
    """Run ``fn`` on one batch in a pool worker, first raising the failure of the worker's setup, if any."""
    if _SETUP_FAILED:
        raise _SETUP_FAILED[0]
    return fn(batch)


def _ray_call(setup: Callable[[], object], fn: Callable[[T], list[R]], batch: T) -> list[R]:
    """A Ray task with a setup: ``setup()`` (cheap next to a batch), then ``fn(batch)``."""
    setup()
    return fn(batch)


def _batches(tasks: Iterable[tuple[int, int]], size: int) -> Iterator[list[tuple[int, int]]]:
    it = iter(tasks)
    while batch := list(islice(it, size)):
        yield batch


def usable_workers(workers: int, tasks: int, *, backend: str = "local", address: str | None = None) -> int:
    """The workers a run can use: no more than its tasks, nor (on this machine) than its CPUs.

    >>> usable_workers(1000, 2) == min(2, os.cpu_count() or 1)
    True
    """
    cap = max(1, tasks)
    if backend == "local" or not address:
        cap = min(cap, os.cpu_count() or 1)
    return max(1, min(workers, cap))


def map_batches(
    fn: Callable[[Any], list[Any]],
    batches: Iterable[Any],
    *,
    workers: int,
    backend: str,
    address: str | None,
    setup: Callable[[], object] | None = None,
) -> Iterator[list[Any]]:
    """Run ``fn`` on every batch, yielding each result as it finishes (in any order).

    The one place where work meets a backend, shared by the simulation and the analysis: in this process when
    ``workers`` is 1, else on a local process pool (``local``), or as Ray tasks of one CPU each (``ray``: on a local
    instance started with ``workers`` CPUs and shut down after, or on the cluster at ``address``). ``fn`` must be a
    module-level function so that workers can import it: local workers are fresh processes (see :data:`_START`)
    that share nothing with this one but the batches. ``batches`` is read as work is handed out (a few per worker
    ahead), so it may be a generator of any length. ``setup`` (picklable: a module-level function or a
    ``functools.partial`` of one) runs once in every local worker before its first batch, before every Ray task,
    and once here when this process plays the batches; a failure of it is raised as the first batch's.

    Raises:
        OptionError: for the ray backend when Ray is not installed.
    """
    if backend == "ray":
        yield from _ray(fn, batches, workers, address, setup)
    elif workers == 1:
        if setup is not None:
            setup()
        for batch in batches:
            yield fn(batch)
    else:
        if _importing_main():  # a worker running an unguarded script again: tell the parent, which stops
            _report_unguarded()
        import tempfile

        with tempfile.NamedTemporaryFile(prefix="tabletop-workers-", suffix=".txt") as marker:
            before = os.environ.get(_UNGUARDED_ENV)
            os.environ[_UNGUARDED_ENV] = marker.name  # read by every worker the pool spawns, respawns included
            try:
                pool = multiprocessing.get_context(_START).Pool(workers, initializer=_quiet_worker, initargs=(setup,))
            finally:
                if before is None:
                    os.environ.pop(_UNGUARDED_ENV, None)
                else:
                    os.environ[_UNGUARDED_ENV] = before
            try:
                yield from _bounded_pool(pool, fn, batches, 2 * workers, Path(marker.name))
                pool.close()
            finally:
                pool.terminate()
                pool.join()


#: The file a worker writes to when it finds itself running an unguarded script (see :func:`_importing_main`).
_UNGUARDED_ENV = "TABLETOP_WORKER_UNGUARDED"
_UNGUARDED = (
    "the worker processes cannot start: each worker is a new interpreter that imports the main script again, and "
    "this script starts its workers when imported; put the code that runs the games under "
    '`if __name__ == "__main__":`'
)


def _importing_main() -> bool:
    """Whether this process is a worker still importing the main script: a script without the ``__main__`` guard
    that starts workers again as it is imported (multiprocessing refuses that, and the pool would only respawn)."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))  # what multiprocessing checks


def _report_unguarded() -> None:
    marker = os.environ.get(_UNGUARDED_ENV)
    if marker:
        with open(marker, "a", encoding="utf-8") as fh:
            fh.write(_UNGUARDED + "\n")
    raise OptionError(_UNGUARDED)


def _bounded_pool(
    pool: multiprocessing.pool.Pool,
    fn: Callable[[T], list[R]],
    batches: Iterable[T],
    window: int,
    marker: Path | None = None,
) -> Iterator[list[R]]:
    """``pool.imap_unordered`` with at most ``window`` batches handed out and not yet returned; raises
    :class:`OptionError` when a worker writes to ``marker`` that it cannot start (an unguarded script)."""
    done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    it = iter(batches)
    pending = 0

    def submit() -> bool:
        batch = next(it, _END)
        if batch is _END:
            return False
        pool.apply_async(
            _in_worker,
            (fn, batch),
            callback=lambda r: done.put((True, r)),
            error_callback=lambda e: done.put((False, e)),
        )
        return True

    while pending < window and submit():
        pending += 1
    while pending:
        try:
            ok, value = done.get(timeout=0.25)
        except queue.Empty:
            if marker is not None and marker.stat().st_size:
                raise OptionError(_UNGUARDED) from None
            continue
        pending -= 1
        if not ok:
            raise value
        if submit():
            pending += 1
        yield value


_END = object()


def _ray(
    fn: Callable[[Any], list[Any]],
    batches: Iterable[Any],
    workers: int,
    address: str | None,
    setup: Callable[[], object] | None = None,
) -> Any:
    try:
        import ray
    except ImportError as exc:
        raise OptionError("the ray backend needs Ray: pip install -e '.[ray]' in a clone") from exc
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
    if setup is None:
        submit = ray.remote(num_cpus=1)(fn).remote
    else:
        submit = functools.partial(ray.remote(num_cpus=1)(_ray_call).remote, setup, fn)
    it = iter(batches)
    window = 4 * workers
    pending = [submit(batch) for batch in islice(it, window)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
            pending.extend(submit(batch) for batch in islice(it, window - len(pending)))
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
        lines: one result line per finished game of the plan, sorted by seating and deal (each game once).
        out: the directory they were written to (``None`` when nothing was written).
        problems: one line per damaged result line skipped (naming the file and the line number).
        duplicates: lines skipped because their game was already read (two writers, a copy by hand).
        beyond: lines skipped because their game lies outside the plan (a rerun with fewer ``--games``).
    """

    simulation: Simulation
    lines: tuple[dict[str, Any], ...]
    out: Path | None = None
    problems: tuple[str, ...] = ()
    duplicates: int = 0
    beyond: int = 0

    @property
    def complete(self) -> bool:
        """Whether every game of the plan is here."""
        return len(self.lines) == len(self.simulation.tasks())

    def summary(self) -> dict[str, Any]:
        """The statistics of these games (needs the ``sim`` extra: see :mod:`tabletop_core.simulation.stats`)."""
        from tabletop_core.simulation.stats import summarize

        return summarize(self.simulation, self.lines)

    def notes(self) -> list[str]:
        """What reading skipped, in words: each damaged line, then the counts around them."""
        out = list(self.problems)
        if self.problems:
            out.append(
                f"{GAMES_FILE}: {len(self.problems)} damaged line(s) skipped; {len(self.lines)} games read around them"
            )
        if self.duplicates:
            out.append(f"{GAMES_FILE}: {self.duplicates} repeated line(s) of games already read were not counted again")
        if self.beyond:
            out.append(
                f"{GAMES_FILE}: {self.beyond} game(s) outside the plan ({PLAN_FILE}) kept in the file, not counted"
            )
        return out


def _number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]  # checked by type()


def line_problem(line: object, sim: Simulation) -> str | None:
    """What is wrong with one parsed result line for the plan ``sim`` (``None``: nothing).

    >>> sim = Simulation("kuhn", (("random", "first"),), 2)
    >>> line_problem([], sim), line_problem({"seating": 0, "deal": "x"}, sim)
    ('a result line must be a JSON object, not a list', "deal must be a whole number >= 0, not 'x'")
    """
    if not isinstance(line, dict):
        return f"a result line must be a JSON object, not {'a list' if isinstance(line, list) else type(line).__name__}"
    seating, deal = line.get("seating"), line.get("deal")
    if type(seating) is not int or not 0 <= seating < len(sim.seatings):
        return f"seating must be a seating number of the plan (0-{len(sim.seatings) - 1}), not {_short(seating)}"
    if type(deal) is not int or deal < 0:
        return f"deal must be a whole number >= 0, not {_short(deal)}"
    players = len(sim.seatings[seating])
    if line.get("agents") != list(sim.seatings[seating]):
        return f"agents {_short(line.get('agents'))} are not seating {seating}'s {list(sim.seatings[seating])}"
    seats = line.get("seats")
    if not isinstance(seats, list) or len(seats) != players or not all(isinstance(x, str) for x in seats):
        return f"seats must be {players} seat names, not {_short(seats)}"
    returns, outcomes = line.get("returns"), line.get("outcomes")
    if returns is None:
        if outcomes is not None:
            return "a game without returns has no outcomes"
    else:
        if not isinstance(returns, list) or len(returns) != players or not all(_number(r) for r in returns):
            return f"returns must be {players} numbers or null, not {_short(returns)}"
        if not isinstance(outcomes, list) or len(outcomes) != players:
            return f"outcomes must be {players} of win, tie, loss, not {_short(outcomes)}"
        if not all(o in ("win", "tie", "loss") for o in outcomes):
            return f"outcomes must be {players} of win, tie, loss, not {_short(outcomes)}"
    for key in ("length", "decisions"):
        if type(line.get(key)) is not int or line[key] < 0:
            return f"{key} must be a whole number >= 0, not {_short(line.get(key))}"
    if not _number(line.get("seconds")):
        return f"seconds must be a number, not {_short(line.get('seconds'))}"
    if type(line.get("seed")) is not int:
        return f"seed must be a whole number, not {_short(line.get('seed'))}"
    if "record" in line and not isinstance(line["record"], str):
        return f"record must be a file name, not {_short(line['record'])}"
    return None


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _read_lines(path: Path, sim: Simulation) -> tuple[list[dict[str, Any]], list[str], int, int]:
    """The result lines of ``path`` for ``sim``: (lines, problems, duplicates, beyond). Never changes the file."""
    try:
        opened = open_regular(path, max_bytes=MAX_RESULTS_BYTES, error=_state_error)
        fh = opened.__enter__()
    except StateFormatError:
        if not os.path.lexists(path):
            return [], [], 0, 0
        raise
    lines: list[dict[str, Any]] = []
    problems: list[str] = []
    seen: set[tuple[int, int]] = set()
    duplicates = beyond = 0
    try:
        number = 0
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            where = f"{path}: line {number}"
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                problems.append(f"{where}: longer than {MAX_LINE_BYTES} bytes")
                while raw and not raw.endswith(b"\n"):
                    raw = fh.readline(MAX_LINE_BYTES + 1)
                continue
            if not raw.endswith(b"\n"):
                problems.append(f"{where}: cut short (the last line of a run stopped hard; a resumed run repairs it)")
                break
            if not raw.strip():
                continue
            try:
                line = parse_json(raw, max_bytes=MAX_LINE_BYTES)
            except StateFormatError as exc:
                problems.append(f"{where}: {exc}")
                continue
            problem = line_problem(line, sim)
            if problem is not None:
                problems.append(f"{where}: {problem}")
                continue
            key = (line["seating"], line["deal"])
            if line["deal"] >= sim.games:
                beyond += 1
            elif key in seen:
                duplicates += 1
            else:
                seen.add(key)
                lines.append(line)
    except OSError as exc:
        raise StateFormatError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        opened.__exit__(None, None, None)
    return lines, problems, duplicates, beyond


def _state_error(path: str, problem: str) -> Exception:
    return StateFormatError(f"{path}: {problem}")


def read_plan(folder: Path) -> Simulation:
    """The plan of a results folder, read without importing anything it names.

    Its game is checked against the installed games (an entry point or a core test game: a plan naming a
    ``module:ATTR`` game of a script is refused, its module not imported); its agent specs are not resolved here
    (whoever builds the agents does, as a resuming run before it plays).

    Raises:
        StateFormatError: naming the file, when the folder is missing or holds no readable plan, the plan asks for
            more games than a results folder holds (:data:`MAX_PLANNED_GAMES`), or it names a game no installed
            package provides.
    """
    path = folder / PLAN_FILE
    if not folder.is_dir():
        raise StateFormatError(f"{folder}: not a simulation results directory (no such folder)")
    try:
        sim = Simulation.from_json(read_regular(path, max_bytes=MAX_PLAN_BYTES, error=_state_error).decode("utf-8"))
    except UnicodeDecodeError:
        raise StateFormatError(f"{path}: not UTF-8 text") from None
    except (OptionError, StateFormatError) as exc:
        raise StateFormatError(f"{folder}: not a simulation results directory ({exc})") from None
    planned = len(sim.tasks())
    if planned > MAX_PLANNED_GAMES:
        raise StateFormatError(
            f"{path}: plans {planned} games ({len(sim.seatings)} seating(s) x {sim.games}), more than a results "
            f"folder holds (at most {MAX_PLANNED_GAMES})"
        )
    if not is_installed_game(sim.game):
        try:
            installed_game(sim.game)
        except StateFormatError as exc:
            raise StateFormatError(f"{path}: {exc}") from None
    return sim


def load_results(out: str | os.PathLike[str], *, plan: Simulation | None = None) -> Results:
    """The plan and the finished games in a results directory, read without changing anything in it.

    A damaged line is skipped and named in :attr:`Results.problems`; a game whose line appears twice counts once;
    a game outside the plan is not counted (:attr:`Results.beyond`).

    Args:
        out: the folder.
        plan: read the games against this plan instead of the folder's ``run.json`` (a run resuming with its
            own, checked plan).

    Raises:
        StateFormatError: when ``out`` holds no simulation, or a plan that :func:`read_plan` refuses (without
            ``plan``), or ``games.jsonl`` is not a regular file or is too large.
    """
    folder = Path(out)
    sim = plan if plan is not None else read_plan(folder)
    lines, problems, duplicates, beyond = _read_lines(folder / GAMES_FILE, sim)
    lines.sort(key=lambda ln: (ln["seating"], ln["deal"]))
    return Results(sim, tuple(lines), folder, tuple(problems), duplicates, beyond)


def _repair_last_line(path: Path) -> int:
    """Cut a last line left unfinished by a hard stop, appending what was cut to ``games.jsonl.cut``; the bytes cut.

    Raises:
        StateFormatError: naming the file, when it is a link (never followed: the cut is written back) or not a
            regular file (a pipe, a folder, a device: opened without blocking and refused unread) or cannot be read.
    """
    if not os.path.lexists(path):
        return 0
    if os.path.islink(path):
        raise _state_error(str(path), "a link; a results log is read and mended only as a regular file of the folder")
    with open_regular(path, max_bytes=MAX_RESULTS_BYTES, error=_state_error) as fh:
        size = fh.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        back = min(size, MAX_LINE_BYTES + 1)
        fh.seek(size - back)
        tail = fh.read(back)
    if tail.endswith(b"\n"):
        return 0
    keep = tail.rfind(b"\n") + 1  # 0 when the whole tail is one unfinished line
    cut = tail[keep:]
    good = size - len(cut)
    with AppendLog(path.parent / CUT_FILE, sync_every=0) as side:
        side.write_line(cut.decode("utf-8", errors="replace"))
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.ftruncate(fd, good)
        os.fsync(fd)
    finally:
        os.close(fd)
    return len(cut)


class _FolderLock:
    """The write lock of a results folder (``fcntl.flock`` on ``writer.lock``), naming its holder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_FILE
        self.fd: int | None = None

    def __enter__(self) -> _FolderLock:
        import fcntl

        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 512, 0).decode("utf-8", errors="replace").strip() or "another process"
            os.close(fd)
            raise FolderLockedError(
                f"{self.path.parent} is being written by another run ({holder}); wait for it to finish, or use "
                "another --out"
            ) from None
        os.ftruncate(fd, 0)
        since = time.strftime("%Y-%m-%d %H:%M:%S")
        os.pwrite(fd, f"pid {os.getpid()} on {socket.gethostname()} since {since}\n".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.close(self.fd)  # closing the descriptor releases the lock
            self.fd = None


def _differences(old: Simulation, new: Simulation) -> str:
    """What a folder's plan and a new one differ in, in a few words each.

    >>> old = Simulation("unrest", (("heuristic", "random"),), 4)
    >>> _differences(old, Simulation("unrest", (("random", "random"),), 4, 3))
    'seed 0 there, 3 here; agents heuristic, random there, random, random here'
    """

    def agents(sim: Simulation) -> str:
        shown = " / ".join(", ".join(seating) for seating in sim.seatings)
        return shown if len(shown) <= 80 else shown[:77] + "..."

    def options(sim: Simulation) -> str:
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in sim.options) or "none"
        return shown if len(shown) <= 80 else shown[:77] + "..."

    parts = [
        f"{what} {mine} there, {theirs} here"
        for what, mine, theirs in (
            ("game", old.game, new.game),
            ("seed", old.seed, new.seed),
            ("agents", agents(old), agents(new)),
            ("options", options(old), options(new)),
        )
        if mine != theirs
    ]
    return "; ".join(parts) or "a plan of another form"


def _prepare(sim: Simulation, folder: Path) -> Results:
    folder.mkdir(parents=True, exist_ok=True)
    plan_path = folder / PLAN_FILE
    if os.path.lexists(plan_path):
        old = read_plan(folder)
        if not old.same_work(sim):
            raise OptionError(
                f"{folder} holds results of another simulation ({_differences(old, sim)}); use another --out, "
                "or the same game, seed, agents and options to go on with it"
            )
    _repair_last_line(folder / GAMES_FILE)
    atomic_write_text(plan_path, sim.to_json() + "\n")
    return load_results(folder, plan=sim)


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
    allow_import: bool = False,
    pack: object = None,
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
        allow_import: let the plan's agent specs import classes by module path (as ``Simulation.build``); a worker
            imports them by the same module path.
        pack: the custom content pack the plan's options name (by name and SHA-256), as the game's
            ``make_options(pack=...)`` takes it: a pack object (sent to every worker, pickled) or the
            ``pathlib.Path`` of its file (read by every worker). Workers are fresh processes (see the module): a
            pack this process was given and the plan only names reaches them this way only.

    Workers beyond what the run can use (its games, this machine's CPUs) are not started: see
    :func:`usable_workers`.

    Raises:
        OptionError: for a bad backend, worker count or batch size, a plan larger than a results folder holds
            (:data:`MAX_PLANNED_GAMES`), a pack that is not the one the options name, a folder holding another plan,
            or a folder another run is writing (:class:`FolderLockedError`).
        KeyboardInterrupt: after Ctrl-C, once every finished game is written and the workers are stopped.
    """
    if backend not in BACKENDS:
        raise OptionError(f"backend must be one of {BACKENDS}, not {backend!r}")
    if type(workers) is not int or workers < 1:
        raise OptionError(f"workers must be a whole number >= 1, not {workers!r}")
    if batch_size is not None and (type(batch_size) is not int or batch_size < 1):
        raise OptionError(f"batch_size must be a whole number >= 1, not {batch_size!r}")
    if address and backend != "ray":
        raise OptionError("--address needs the ray backend")
    if out is not None and len(sim.tasks()) > MAX_PLANNED_GAMES:
        raise OptionError(
            f"the plan holds {len(sim.tasks())} games, more than a results folder holds (at most {MAX_PLANNED_GAMES})"
        )
    for seating in sim.seatings:  # every agent resolves before a game is played or a file is touched
        for text in seating:
            parse_agent_spec(text, allow_import=allow_import)
    setup = None
    if pack is not None:
        setup = functools.partial(bind_pack, sim.game, dict(sim.options), pack)
        setup()  # here first: a pack that is not the plan's is refused before a file is touched
    how: dict[str, Any] = {
        "workers": workers,
        "backend": backend,
        "address": address,
        "records": records,
        "progress": progress,
        "batch_size": batch_size,
        "allow_import": allow_import,
        "setup": setup,
    }
    folder = Path(out) if out is not None else None
    if folder is None:
        return _run_into(sim, None, Results(sim, ()), **how)
    folder.mkdir(parents=True, exist_ok=True)
    with _FolderLock(folder):
        kept = _prepare(sim, folder)
        return _run_into(sim, folder, kept, **how)


def _run_into(
    sim: Simulation,
    folder: Path | None,
    kept: Results,
    *,
    workers: int,
    backend: str,
    address: str | None,
    records: bool,
    progress: Progress | None,
    batch_size: int | None,
    allow_import: bool,
    setup: Callable[[], object] | None,
) -> Results:
    done = {(ln["seating"], ln["deal"]) for ln in kept.lines}
    total = len(sim.tasks())
    remaining = total - len(done)
    todo = sim.tasks().after(done)
    lines = list(kept.lines)
    if progress:
        progress(len(lines), total)
    # A local worker takes one game at a time (the pool's overhead is far below a game's), so progress and Ctrl-C
    # lose nothing; a Ray task takes a batch, to keep the per-task overhead small.
    size = batch_size or (max(1, min(64, math.ceil(remaining / (workers * 8)))) if backend == "ray" else 1)
    workers = usable_workers(workers, math.ceil(remaining / size), backend=backend, address=address)
    plan = sim.to_json()
    args = ((plan, b, records, allow_import) for b in _batches(todo, size))
    if workers == 1 and backend == "local":
        setup = None  # this process plays the games: run() has handed the pack over here already
    stream = map_batches(_play_batch_args, args, workers=workers, backend=backend, address=address, setup=setup)
    log = AppendLog(folder / GAMES_FILE) if folder is not None else None
    try:
        for batch in stream:
            for line in batch:
                if folder is not None and "record" in line:
                    path = folder / RECORDS_DIR / f"s{line['seating']}-d{line['deal']}.json"
                    path.parent.mkdir(exist_ok=True)
                    atomic_write_text(path, line.pop("record"))
                    line["record"] = str(path.relative_to(folder))
                if log is not None:
                    log.write_line(json.dumps(line, sort_keys=True))
                lines.append(line)
            if progress:
                progress(len(lines), total)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # stop the pool or the Ray tasks now, not when the generator is collected
        if log is not None:
            log.close()
        results = attrs.evolve(kept, lines=tuple(sorted(lines, key=lambda ln: (ln["seating"], ln["deal"]))))
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
    atomic_write_text(results.out / SUMMARY_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
    return True
