"""The games of an analysis as JSON tasks, played in this process, on a local process pool or as Ray tasks.

A task is a plain dict: the game's name and options, the agent spec of every seat, the chance and agent seeds,
an optional restriction and the drama settings. :func:`run_tasks` plays them and returns one trace per task, in
the order given; the traces depend only on the tasks, never on the number of workers or the backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.analysis.trace import trace_game
from tabletop_core.errors import OptionError
from tabletop_core.registry import load_game
from tabletop_core.restrict import Restriction
from tabletop_core.simulation.runner import map_batches

__all__ = ["BACKENDS", "play_tasks", "run_tasks"]

BACKENDS = ("local", "ray")
Progress = Callable[[int, int], None]


def play_tasks(tasks: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Play tasks in this process (what a worker runs); each result carries its task's ``id``."""
    games: dict[str, Any] = {}
    out = []
    for task in tasks:
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
        out.append(line)
    return out


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
        progress: called as ``progress(done, total)`` after each batch (and once at the start).

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
    done = 0
    if progress:
        progress(0, len(numbered))
    try:
        for batch in stream:
            for line in batch:
                results[line.pop("id")] = line
            done += len(batch)
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
