"""Local workers start as fresh interpreters, never as forks: what they need travels with the work.

A fork copies the parent whole (and may deadlock once a thread runs, such as the progress bar's); a spawned worker
holds only what it is sent: the plan (the game by name, agent specs, options) and a content pack handed to the run.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import unbroken
from tabletop_core import OptionError
from tabletop_core.cli import main
from tabletop_core.design.packs import pack_text
from tabletop_core.simulation import Simulation, run
from tabletop_core.simulation.runner import map_batches

#: Set by a test in this process only: a worker that imports this module sees the value written here.
MARKER = "as imported"


def _marker(batch: list[int]) -> list[str]:
    return [MARKER for _ in batch]


def _fail_setup() -> None:
    raise OptionError("this setup fails")


def _lines(folder: Path) -> list[dict[str, Any]]:
    """A results folder's games, sorted, without their wall times."""
    lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    lines.sort(key=lambda ln: (ln["seating"], ln["deal"]))
    return [{k: v for k, v in ln.items() if k != "seconds"} for ln in lines]


@pytest.fixture
def tough_pack(tmp_path: Path) -> Path:
    """A pack file that extends the default pack with a tougher Hyena (the games it deals differ)."""
    path = tmp_path / "tough.toml"
    path.write_text(pack_text(unbroken.GAME, {"monster.hyena.health": 7}))
    return path


def test_local_workers_are_never_forked(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("os.fork called: a worker was forked from this process")

    monkeypatch.setattr(os, "fork", no_fork)
    got = sorted(
        x for batch in map_batches(_marker, [[1], [2], [3]], workers=2, backend="local", address=None) for x in batch
    )
    assert got == ["as imported"] * 3


def test_a_worker_holds_nothing_of_the_parent_but_its_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(f"{__name__}.MARKER", "changed in the parent")
    batches = map_batches(_marker, [[1], [2]], workers=2, backend="local", address=None)
    assert [x for batch in batches for x in batch] == ["as imported", "as imported"]


def test_a_failing_worker_setup_is_raised_not_retried_for_ever() -> None:
    with pytest.raises(OptionError, match="this setup fails"):
        list(map_batches(_marker, [[1], [2]], workers=2, backend="local", address=None, setup=_fail_setup))


def test_a_pack_file_plays_the_same_on_two_spawned_workers_as_on_one(tough_pack: Path, tmp_path: Path) -> None:
    base = ["simulate", "unbroken", "--games", "8", "--pack", str(tough_pack), "--quiet"]
    assert main([*base, "--workers", "1", "--out", str(tmp_path / "one")], io.StringIO()) == 0
    assert main([*base, "--workers", "2", "--out", str(tmp_path / "two")], io.StringIO()) == 0
    assert _lines(tmp_path / "one") == _lines(tmp_path / "two")
    plan = json.loads((tmp_path / "two" / "run.json").read_text())["simulation"]["options"]
    assert plan["pack"] == "tough" and len(plan["pack_sha256"]) == 64  # named, never a path
    default = ["simulate", "unbroken", "--games", "8", "--quiet", "--out", str(tmp_path / "default")]
    assert main(default, io.StringIO()) == 0
    assert [ln["returns"] for ln in _lines(tmp_path / "default")] != [ln["returns"] for ln in _lines(tmp_path / "one")]


def test_a_pack_object_reaches_spawned_workers_as_data(tough_pack: Path) -> None:
    pack = unbroken.load_pack(tough_pack, name="tough_object")
    options = unbroken.GAME.make_options(pack=pack)  # this process now holds the pack; workers do not
    sim = Simulation.build("unbroken", pool=["heuristic"], games=6, options={"pack": options.pack})
    one = run(sim, workers=1)
    two = run(sim, workers=2, pack=pack)
    strip = [{k: v for k, v in ln.items() if k != "seconds"} for ln in one.lines]
    assert strip == [{k: v for k, v in ln.items() if k != "seconds"} for ln in two.lines]
    with pytest.raises(OptionError, match="unknown unbroken pack"):  # named only: a fresh worker has never seen it
        run(sim, workers=2)


def test_a_pack_that_is_not_the_one_the_plan_names_is_refused_before_anything_is_written(
    tough_pack: Path, tmp_path: Path
) -> None:
    options = unbroken.GAME.make_options(pack=tough_pack)
    sim = Simulation.build(
        "unbroken", pool=["heuristic"], games=2, options={"pack": options.pack, "pack_sha256": options.pack_sha256}
    )
    tough_pack.write_text(pack_text(unbroken.GAME, {"monster.hyena.health": 8}))  # the file changed since
    with pytest.raises(OptionError, match="tough"):
        run(sim, tmp_path / "out", workers=2, pack=tough_pack)
    assert not (tmp_path / "out").exists()


def test_an_imported_agent_class_reaches_spawned_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "spawned_bots.py").write_text(
        textwrap.dedent(
            """
            class Last:
                def act(self, view, legal_actions, rng):
                    return legal_actions[-1]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    base = ["simulate", "unrest", "--games", "3", "--allow-import-agent", "--agent", "spawned_bots:Last", "--quiet"]
    base += ["--agent", "random"]
    assert main([*base, "--workers", "1", "--out", str(tmp_path / "one")], io.StringIO()) == 0
    assert main([*base, "--workers", "2", "--out", str(tmp_path / "two")], io.StringIO()) == 0
    assert _lines(tmp_path / "one") == _lines(tmp_path / "two")


def test_an_unguarded_script_that_starts_workers_fails_at_once_saying_why(tmp_path: Path) -> None:
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from tabletop_core.simulation import Simulation, run\n"
        "run(Simulation.build('tabletop_core.testing.kuhn:GAME', pool=['random', 'first'], games=4), workers=2)\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path
    )
    assert done.returncode != 0
    assert 'if __name__ == "__main__":' in done.stderr.splitlines()[-1]
    guarded = tmp_path / "guarded.py"
    body = script.read_text().splitlines()
    guarded.write_text(f'{body[0]}\nif __name__ == "__main__":\n    {body[1]}\n')
    ok = subprocess.run([sys.executable, str(guarded)], capture_output=True, text=True, timeout=120, check=False)
    assert ok.returncode == 0, ok.stderr
