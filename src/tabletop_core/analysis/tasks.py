"""The games of an analysis as JSON tasks, played in this process, on a local process pool or as Ray tasks.

A task is a plain dict: the game's name and options, the agent spec of every seat, the chance and agent seeds,
an optional restriction and the drama settings. :func:`run_tasks` plays them and returns one trace per task, in
the order given; the traces depend only on the tasks, never on the number of workers or the backend.

Tasks differ in cost by a hundredfold (a game between search agents, a game whose win chances are estimated by
rollouts), so progress is counted in work, not in tasks: :class:`WorkMeter` weighs every task by the seconds its
kind was measured to take (a prior from its agents and drama settings until one of its kind has finished), and a
rate read from that progress gives a fair ETA even though the costly tasks are played first.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.analysis.trace import trace_game
from tabletop_core.errors import OptionError
from tabletop_core.registry import load_game
from tabletop_core.restrict import Restriction
from tabletop_core.simulation.runner import map_batches

__all__ = ["BACKENDS", "WorkMeter", "play_tasks", "run_tasks"]

BACKENDS = ("local", "ray")
Progress = Callable[[int, int], None]


def play_tasks(tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play tasks in this process (what a worker runs); each result carries its task's ``id`` and the seconds it
    took (``task_seconds``, what :class:`WorkMeter` measures; :func:`run_tasks` takes both off)."""
    games: dict[str, Any] = {}
    out = []
    for task in tasks:
        start = time.perf_counter()
        name = task["game"]
        game = games.get(name) or games.setdefault(name, load_game(name))
        options = dict(task["options"])
        restriction = Restriction.from_json(task["restriction"]) if task.get("restriction") else None
        if restriction is not None:
            options.update(dict(restriction.options))
        first = game.initial_state(game.make_options(**options))
        allow = bool(task.get("allow_import", False))
        agents = [
            parse_agent_spec(s, allow_import=allow).build(game, first, seat) for seat, s in enumerate(task["seating"])
        ]
        line = trace_game(
            game,
            agents,
            chance_seed=task["chance_seed"],
            agent_seed=task["agent_seed"],
            options=options,
            restriction=restriction,
            drama_points=task.get("drama_points", 0),
            drama_rollouts=task.get("drama_rollouts", 8),
            specs=task["seating"],
            allow_import=allow,
        )
        line["id"] = task["id"]
        line["task_seconds"] = time.perf_counter() - start
        out.append(line)
    return out


class WorkMeter:
    """How much of the work of some tasks is done, as tasks of average cost: the ``done`` of ``progress(done,
    total)`` with ``total`` the number of tasks, so that ``done / total`` is the share of the work and not of the
    tasks, and the rate of ``done`` gives the time left.

    A task's cost is the mean seconds of the finished tasks of its kind (its agents, its drama settings and its
    ``kind``); a kind not measured yet is priced by its prior (:func:`_prior`), scaled by the measured seconds per
    prior unit of everything finished. A finished task counts its own seconds. ``done`` never goes back, and is
    ``total`` only once every task has finished.

    >>> meter = WorkMeter([{"seating": ["mcts:iterations=90"]}, {"seating": ["random"]}, {"seating": ["random"]}])
    >>> meter.finish(0, 9.0), meter.finish(1, 0.5), meter.finish(2, 0.5)
    (2, 2, 3)
    """

    def __init__(self, tasks: Sequence[dict[str, Any]]) -> None:
        self.kinds: list[Hashable] = [_kind(t) for t in tasks]
        self.priors = [_prior(t) for t in tasks]
        self.total = len(tasks)
        self.left = len(tasks)
        self.waiting: dict[Hashable, list[float]] = {}  # kind -> [tasks not finished, their priors]
        for kind, prior in zip(self.kinds, self.priors, strict=True):
            entry = self.waiting.setdefault(kind, [0.0, 0.0])
            entry[0] += 1
            entry[1] += prior
        self.measured: dict[Hashable, list[float]] = {}  # kind -> [tasks finished, their seconds]
        self.seconds = 0.0  # of every finished task
        self.prior_done = 0.0  # the priors of the finished tasks
        self.done = 0

    def finish(self, index: int, seconds: float) -> int:
        """Count task ``index`` finished after ``seconds``; the work done, as above."""
        kind, prior = self.kinds[index], self.priors[index]
        seconds = max(0.0, float(seconds))
        waiting = self.waiting[kind]
        waiting[0] -= 1
        waiting[1] -= prior
        entry = self.measured.setdefault(kind, [0.0, 0.0])
        entry[0] += 1
        entry[1] += seconds
        self.seconds += seconds
        self.prior_done += prior
        self.left -= 1
        if self.left == 0:
            self.done = self.total
            return self.done
        scale = self.seconds / self.prior_done if self.seconds > 0 else 1.0
        ahead = 0.0
        for key, (count, priors) in self.waiting.items():
            if count <= 0:
                continue
            seen = self.measured.get(key)
            ahead += count * seen[1] / seen[0] if seen and seen[1] > 0 else priors * scale
        spent = self.seconds if self.seconds > 0 else self.prior_done
        share = spent / (spent + ahead) if spent + ahead > 0 else 0.0
        self.done = max(self.done, min(self.total - 1, math.floor(self.total * share)))
        return self.done


def run_tasks(
    tasks: Sequence[dict[str, Any]],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Play every task and return the traces in task order.

    Args:
        workers: processes (``local``) or CPUs of a local Ray instance (``ray`` without ``address``).
        backend: ``local`` or ``ray``.
        address: a Ray cluster to join.
        progress: called as ``progress(done, total)`` after each batch (and once at the start): ``total`` is the
            number of tasks and ``done`` the work finished in tasks of average cost (see :class:`WorkMeter`).

    Raises:
        OptionError: for an unknown backend or fewer than one worker.
    """
    if backend not in BACKENDS:
        raise OptionError(f"backend must be one of {BACKENDS}, not {backend!r}")
    if workers < 1:
        raise OptionError(f"workers must be >= 1, not {workers}")
    if address and backend != "ray":
        raise OptionError("an address needs the ray backend")
    numbered = [{**t, "id": i} for i, t in enumerate(tasks)]
    # Slow tasks (search agents, drama) first, so the last batches are short ones and the workers finish together.
    # Each slow task is a batch of its own; the fast ones go in batches small enough to balance the workers.
    numbered.sort(key=lambda t: -_weight(t))
    heavy = [t for t in numbered if _weight(t) > 0]
    light = numbered[len(heavy) :]
    size = max(1, min(32, math.ceil(len(light) / (workers * 8))))
    batches = [[t] for t in heavy] + [light[i : i + size] for i in range(0, len(light), size)]
    stream = map_batches(play_tasks, batches, workers=workers, backend=backend, address=address)
    results: list[dict[str, Any] | None] = [None] * len(numbered)
    meter = WorkMeter(tasks)
    if progress:
        progress(0, len(numbered))
    try:
        for batch in stream:
            done = meter.done
            for line in batch:
                index = line.pop("id")
                done = meter.finish(index, line.pop("task_seconds", 0.0))
                results[index] = line
            if progress:
                progress(done, len(numbered))
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    return [r for r in results if r is not None]


def _weight(task: dict[str, Any]) -> float:
    search = sum(1 for s in task["seating"] if s.split(":")[0] in ("mcts", "ismcts"))
    return search * 10.0 + float(task.get("drama_points", 0) * task.get("drama_rollouts", 8)) / 10.0


def _kind(task: dict[str, Any]) -> Hashable:
    """The tasks that cost alike: the same agents, drama settings and ``kind`` (base, ladder, restricted)."""
    return (
        str(task.get("kind", "")),
        tuple(task["seating"]),
        int(task.get("drama_points", 0)),
        int(task.get("drama_rollouts", 8)),
    )


#: The iterations per decision a search spec without ``iterations=`` is priced at.
_SEARCH_ITERATIONS = 100


def _prior(task: dict[str, Any]) -> float:
    """A task's cost before its kind is measured, in games of cheap agents: a search seat adds a quarter of a game
    per iteration (Unbroken's MCTS at 90 iterations measured 6 games, Unrest's ISMCTS 45 to 90), and win-chance
    estimates multiply the game by their rollouts (each about half a game; 12 points of 8 rollouts measured 11).

    >>> _prior({"seating": ["random", "mcts:iterations=40"]}), _prior({"seating": ["heuristic"], "drama_points": 2})
    (11.0, 3.0)
    """
    game = 1.0
    for spec in task["seating"]:
        name, _, params = str(spec).partition(":")
        if name in ("mcts", "ismcts"):
            iterations = _SEARCH_ITERATIONS
            for param in params.split(","):
                key, _, value = param.partition("=")
                if key.strip() == "iterations" and value.strip().isdigit():
                    iterations = int(value)
            game += iterations / 4
    drama = float(task.get("drama_points", 0)) * float(task.get("drama_rollouts", 8))
    return game * (1 + drama / 8)
