"""Ctrl-C keeps every finished game, and rerunning the same command resumes (a real process and SIGINT)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Games long enough (about 75 ms each with the compiled accelerator) that the run cannot finish before the test
# has seen its first games and sent SIGINT, even on a loaded machine: at 400 iterations all 80 games took under a
# second and the signal could come too late.
ARGS = ["simulate", "tabletop_core.testing.kuhn:GAME", "--agent", "mcts:iterations=2000", "--agent", "random"]


def _command(out: Path) -> list[str]:
    return [sys.executable, "-m", "tabletop_core.cli", *ARGS, "--games", "40", "--batch-size", "1", "--out", str(out)]


def _lines(out: Path) -> list[dict[str, object]]:
    path = out / "games.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.usefixtures("sigint_for_children")
def test_ctrl_c_keeps_finished_games_and_a_rerun_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([*_command(out), "--workers", "2"], stdout=subprocess.PIPE, text=True, env=env)
    deadline = time.monotonic() + 60
    while len(_lines(out)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=30)
    kept = _lines(out)
    assert proc.returncode == 130, stdout
    assert "interrupted" in stdout and "run the same command to resume" in stdout
    assert 3 <= len(kept) < 80  # stopped early, every finished game written whole
    rerun = subprocess.run(
        [*_command(out), "--quiet"], check=False, capture_output=True, text=True, env=env, timeout=120
    )
    assert rerun.returncode == 0, rerun.stderr
    done = _lines(out)
    assert len(done) == 80 and done[: len(kept)] == kept  # the kept games were not played again
    fresh = tmp_path / "fresh"
    subprocess.run([*_command(fresh), "--quiet"], check=True, env=env, timeout=120)

    def key(ln: dict[str, object]) -> tuple[object, object]:
        return (ln["seating"], ln["deal"])

    strip = [{k: v for k, v in ln.items() if k != "seconds"} for ln in sorted(done, key=key)]
    assert strip == [{k: v for k, v in ln.items() if k != "seconds"} for ln in sorted(_lines(fresh), key=key)]
