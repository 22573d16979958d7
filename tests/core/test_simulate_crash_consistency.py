"""A simulation killed hard (SIGKILL) at random moments and resumed each time ends with exactly the games of a run
never interrupted: every game once, each the same game, whatever moment the kill came at (seeded)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

#: Search games of a few tens of milliseconds each: long enough that a kill lands while games are written.
ARGS = ["simulate", "tabletop_core.testing.kuhn:GAME", "--agent", "mcts:iterations=300", "--agent", "random"]
GAMES = 20  # per seating: 40 games
KILLS = 4
TIMEOUT = 120


def _command(out: Path) -> list[str]:
    return [sys.executable, "-m", "tabletop_core.cli", *ARGS, "--games", str(GAMES), "--out", str(out), "--quiet"]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


def _whole_lines(out: Path) -> int:
    try:
        return (out / "games.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def _games(out: Path) -> dict[tuple[int, int], dict[str, Any]]:
    """The folder's games by (seating, deal), without their wall times; asserts that no game appears twice."""
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    keys = Counter((ln["seating"], ln["deal"]) for ln in lines)
    assert max(keys.values()) == 1, [k for k, n in keys.items() if n > 1]
    return {(ln["seating"], ln["deal"]): {k: v for k, v in ln.items() if k != "seconds"} for ln in lines}


def test_kill_9_at_random_moments_then_resume_gives_the_uninterrupted_runs_games(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    subprocess.run(_command(fresh), check=True, env=_env(), timeout=TIMEOUT, capture_output=True)
    expected = _games(fresh)
    assert len(expected) == 2 * GAMES

    chosen = random.Random(20240607)
    out = tmp_path / "killed"
    kills = during_play = 0
    for round_ in range(KILLS):
        proc = subprocess.Popen(_command(out), env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait for a random number of new games (none: the kill comes during start-up or the plan's write), then
        # a random fraction of a game more, and kill: no handler runs, no buffer is flushed.
        start = _whole_lines(out)
        wanted = start + chosen.randint(0, 4)
        deadline = time.monotonic() + TIMEOUT
        while _whole_lines(out) < wanted and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(chosen.uniform(0.0, 0.03))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
            during_play += _whole_lines(out) > start
        proc.wait(timeout=TIMEOUT)
        if round_ == 1:  # a kill in the middle of a write: the last line torn (a single write rarely shows it)
            with (out / "games.jsonl").open("ab") as fh:
                fh.write(b'{"agents": ["mcts:iterations=300", "random"], "deal": 9')
    assert kills >= KILLS - 1 and during_play >= 2  # the kills came while the run was going, most amid its games
    done = subprocess.run(_command(out), check=False, env=_env(), timeout=TIMEOUT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr

    assert _games(out) == expected  # game for game, and each once
    assert json.loads((out / "run.json").read_text()) == json.loads((fresh / "run.json").read_text())
    assert (out / "games.jsonl.cut").read_text().splitlines()[-1].endswith('"deal": 9')
    assert json.loads((out / "summary.json").read_text())["games"] == 2 * GAMES
