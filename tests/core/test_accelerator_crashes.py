"""What once crashed the compiled accelerator, each run in a child process on both paths.

A child that dies (a segfault, with ``-X faulthandler`` printing where) fails its test instead of ending the suite;
a child that answers must answer as the pure-Python path answers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROBE = Path(__file__).with_name("accelerator_probe.py")
GAMES = ["unrest", "unbroken", "runebound_coop"]


def _probe(mode: str, arg: str, *, pure: bool) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PURE_PYTHON"}
    if pure:
        env["TABLETOP_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", str(PROBE), mode, arg],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"the probe died ({done.returncode}):\n{done.stderr[-4000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if pure:
        assert report["compiled"] is False  # the variable really turned the accelerator off
    else:
        from tabletop_core.fastcopy import COMPILED

        assert report["compiled"] is COMPILED  # a stale build would put both sides on the pure path
    return report["result"]


@pytest.mark.parametrize("name", GAMES)
def test_an_action_whose_eq_reenters_the_game_is_refused_on_both_paths(name: str) -> None:
    assert _probe("hostile_eq", name, pure=False) == _probe("hostile_eq", name, pure=True) == "IllegalActionError"


def test_hashing_and_comparing_deep_nesting_raises_recursion_error_on_both_paths() -> None:
    expected = ["RecursionError", "RecursionError"]
    assert _probe("deep", "", pure=False) == _probe("deep", "", pure=True) == expected


def test_a_field_whose_eq_rebinds_the_compared_fields_is_compared_safely_on_both_paths() -> None:
    assert _probe("rebind", "", pure=False) == _probe("rebind", "", pure=True) == [True, None, None]


@pytest.mark.parametrize("name", GAMES)
def test_rollout_draws_outside_the_unit_interval_pick_the_same_moves_on_both_paths(name: str) -> None:
    compiled = _probe("bad_draws", name, pure=False)
    assert compiled == _probe("bad_draws", name, pure=True)
    assert not any(move.endswith("Error") for move in compiled)


@pytest.mark.parametrize("name", GAMES)
def test_eight_threads_sharing_one_game_play_as_one_thread_on_both_paths(name: str) -> None:
    for pure in (False, True):
        assert _probe("threads", name, pure=pure) == {"same_as_one_thread": True, "errors": []}


def test_eight_gymnasium_environments_in_threads_play_as_one_thread_on_both_paths() -> None:
    pytest.importorskip("gymnasium")
    for pure in (False, True):
        assert _probe("gym_threads", "unbroken", pure=pure) == {"same_as_one_thread": True, "errors": []}
