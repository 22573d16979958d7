"""What the simulation runner reads and reports: a results folder's files as found, and progress in work.

A resumed run refuses a ``games.jsonl`` that is not a regular file instead of blocking on it, a plan file is held
to the games a results folder can hold as the command line is, and the progress of tasks of unequal cost is
counted in work, with an ETA only once enough of it is done.
"""

from __future__ import annotations

import io
import math
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from tabletop_core import OptionError, StateFormatError
from tabletop_core.analysis import tasks as analysis_tasks
from tabletop_core.analysis.tasks import run_tasks
from tabletop_core.cli.simulate import ETA_AFTER, _Plain
from tabletop_core.simulation import Simulation, load_results, run, runner
from tabletop_core.simulation.runner import PLAN_FILE, read_plan

KUHN_NAME = "tabletop_core.testing.kuhn:GAME"


def _kuhn(games: int) -> Simulation:
    return Simulation.build(KUHN_NAME, pool=["random", "first"], games=games)


# ----- the results folder as found ----------------------------------------------------------------------------


def test_a_resumed_run_refuses_a_games_file_that_is_a_named_pipe_at_once(tmp_path: Path) -> None:
    sim = _kuhn(2)
    run(sim, tmp_path)
    games = tmp_path / "games.jsonl"
    games.unlink()
    os.mkfifo(games)
    failure: list[BaseException] = []

    def resume() -> None:
        try:
            run(sim, tmp_path)
        except BaseException as exc:
            failure.append(exc)

    worker = threading.Thread(target=resume, daemon=True)
    worker.start()
    worker.join(20)
    if worker.is_alive():  # blocked opening the pipe: a writer lets it go, and the test fails
        fd = os.open(games, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(20)
        pytest.fail("resuming blocked on a games.jsonl that is a named pipe")
    assert len(failure) == 1 and isinstance(failure[0], StateFormatError), failure
    assert str(games) in str(failure[0]) and "named pipe" in str(failure[0])


def test_a_resumed_run_refuses_a_games_file_that_is_a_link_and_leaves_its_target_alone(tmp_path: Path) -> None:
    sim = _kuhn(2)
    folder = tmp_path / "results"
    run(sim, folder)
    target = tmp_path / "elsewhere.txt"
    target.write_bytes(b"a line of someone else's\nand an unfinished one")
    games = folder / "games.jsonl"
    games.unlink()
    games.symlink_to(target)
    with pytest.raises(StateFormatError) as caught:
        run(sim, folder)
    assert str(games) in str(caught.value) and "a link" in str(caught.value)
    assert target.read_bytes() == b"a line of someone else's\nand an unfinished one"
    assert not (folder / "games.jsonl.cut").exists()


def test_a_plan_file_asking_for_more_games_than_a_folder_holds_is_refused(tmp_path: Path) -> None:
    too_many = Simulation(KUHN_NAME, (("random", "first"), ("first", "random")), runner.MAX_PLANNED_GAMES // 2 + 1)
    (tmp_path / PLAN_FILE).write_text(too_many.to_json() + "\n")
    with pytest.raises(StateFormatError, match=f"{tmp_path / PLAN_FILE}: plans {runner.MAX_PLANNED_GAMES + 2} games"):
        read_plan(tmp_path)
    with pytest.raises(StateFormatError, match="more than a results folder holds"):
        load_results(tmp_path)
    at_the_limit = Simulation(KUHN_NAME, (("random", "first"), ("first", "random")), runner.MAX_PLANNED_GAMES // 2)
    (tmp_path / PLAN_FILE).write_text(at_the_limit.to_json() + "\n")
    assert read_plan(tmp_path) == at_the_limit


def test_a_run_into_a_folder_refuses_a_plan_larger_than_the_folder_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "MAX_PLANNED_GAMES", 5)
    with pytest.raises(OptionError, match="at most 5"):
        run(_kuhn(3), tmp_path / "out")  # two seatings of three games
    assert not (tmp_path / "out").exists()
    assert len(run(_kuhn(3)).lines) == 6  # in memory nothing is written: no folder to hold them


# ----- progress in work ---------------------------------------------------------------------------------------


def test_analysis_progress_counts_work_not_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two costly search games and eighteen cheap ones: the two, played first, are two thirds of the work."""
    heavy = {"game": KUHN_NAME, "options": {}, "seating": ["mcts:iterations=90", "random"]}
    light = {"game": KUHN_NAME, "options": {}, "seating": ["random", "random"]}
    tasks = [dict(heavy, chance_seed=i, agent_seed=i) for i in range(2)]
    tasks += [dict(light, chance_seed=i, agent_seed=i) for i in range(18)]
    cost = {"mcts:iterations=90": 9.0, "random": 0.5}  # the seconds each took: 18 + 9 = 27 s of work in all

    def fake_play(batch: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"id": t["id"], "task_seconds": cost[t["seating"][0]], "seed": t["chance_seed"]} for t in batch]

    monkeypatch.setattr(analysis_tasks, "play_tasks", fake_play)
    seen: list[tuple[int, int]] = []
    traces = run_tasks(tasks, progress=lambda done, total: seen.append((done, total)))
    assert [t["seed"] for t in traces] == [t["chance_seed"] for t in tasks]  # in task order, the id taken off
    assert {total for _, total in seen} == {20} and seen[0] == (0, 20) and seen[-1] == (20, 20)
    done = [d for d, _ in seen]
    assert done == sorted(done) and len(done) == 1 + 2 + 6  # the start, a batch per heavy task, light ones by 3
    # After the two heavy tasks: two thirds of the work, priced before any light task was measured.
    assert done[2] >= math.floor(20 * 18 / 27)
    # Once a light task is measured, every report is the share of the seconds done, in tasks of average cost.
    assert done[3:-1] == [math.floor(20 * (18 + 1.5 * k) / 27) for k in range(1, 6)]


def test_plain_progress_shows_an_eta_only_once_enough_work_is_done() -> None:
    now = [0.0]
    out = io.StringIO()
    show = _Plain(out, clock=lambda: now[0])
    show(0, 1000)
    now[0] = 10.0
    show(10, 1000)  # 1%: a burst of the first finished, or the slowest first; no rate tells the time left yet
    now[0] = 20.0
    show(int(ETA_AFTER * 1000), 1000)
    now[0] = 40.0
    show(1000, 1000)
    lines = out.getvalue().splitlines()
    assert lines[0] == "0/1000 games"
    assert lines[1] == "10/1000 games, 1.00 games/s"
    assert lines[2] == "50/1000 games, 2.50 games/s, ETA 380 s"
    assert lines[3] == "1000/1000 games, 25.00 games/s"
