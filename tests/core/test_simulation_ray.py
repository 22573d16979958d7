"""The Ray backend: a small simulation on a local Ray instance gives the process pool's results."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop_core.simulation import Simulation, run

ray = pytest.importorskip("ray", reason="the ray extra (make test installs it)")


def test_ray_results_equal_the_process_pools(tmp_path: Path) -> None:
    sim = Simulation.build("unrest", {"1": "heuristic"}, ["random", "mcts:iterations=5"], games=6, seed=11)
    local = run(sim, tmp_path / "local", workers=2)
    assert not ray.is_initialized()
    remote = run(sim, tmp_path / "ray", workers=2, backend="ray", batch_size=3)
    assert not ray.is_initialized()  # the instance it started is shut down
    strip = [{k: v for k, v in ln.items() if k != "seconds"} for ln in remote.lines]
    assert remote.complete and strip == [{k: v for k, v in ln.items() if k != "seconds"} for ln in local.lines]
    assert (tmp_path / "ray" / "summary.json").exists()
