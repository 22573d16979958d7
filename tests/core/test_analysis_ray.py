"""The Ray backend of a study: the same numbers as this process and the process pool."""

from __future__ import annotations

import pytest

from tabletop_core.analysis import Study, analyze

ray = pytest.importorskip("ray", reason="the ray extra (make test installs it)")


@pytest.mark.slow  # most of it is starting Ray
def test_a_study_on_ray_gives_the_local_numbers() -> None:
    study = Study.build(
        "tabletop_core.testing.kuhn:GAME",
        ["random"],
        games=30,
        ladder_games=2,
        budgets=(2, 4, 8),
        drama_games=2,
        restrict_games=10,
        restrictions="tests.core.test_analysis_study:kuhn_hook",
    )
    local = analyze(study, workers=1)
    pool = analyze(study, workers=2)  # the process pool, with its own batching and finishing order
    assert not ray.is_initialized()
    remote = analyze(study, workers=2, backend="ray")
    assert not ray.is_initialized()  # the instance it started is shut down
    assert remote | {"seconds": 0} == pool | {"seconds": 0} == local | {"seconds": 0}
    assert (
        remote["restricted"]["items"] and remote["ladder"]["contests"] == 2 * 2
    )  # every section was played (2 deals, 2 replicates)
