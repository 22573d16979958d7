"""The Ray backend of a study: the same numbers as this process and the process pool."""

from __future__ import annotations

import pytest

from tabletop_core.analysis import Study, analyze

ray = pytest.importorskip("ray", reason="the ray extra (make test installs it)")


@pytest.mark.slow  # most of it is starting Ray
def test_a_study_on_ray_gives_the_local_numbers() -> None:
    study = Study.build(
        "tabletop_core.testing.kuhn:GAME", ["random"], games=30, ladder_games=2, budgets=(2, 4, 8), drama_games=2
    )
    local = analyze(study, workers=1)
    assert not ray.is_initialized()
    remote = analyze(study, workers=2, backend="ray")
    assert not ray.is_initialized()  # the instance it started is shut down
    assert remote | {"seconds": 0} == local | {"seconds": 0}
