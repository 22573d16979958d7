"""Worker processes start safely while the parent runs other threads (the command line's progress display)."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path

import pytest

from tabletop_core.simulation import runner
from tabletop_core.simulation.plan import Simulation

#: Held by a thread of the parent while the pool starts, as a progress display's thread may hold its own lock.
_HELD = threading.Lock()


def _takes_the_lock(batch: list[int]) -> list[bool]:
    # A worker forked from the parent would inherit _HELD in its held state, with no thread left to release it.
    got = _HELD.acquire(timeout=3)
    if got:
        _HELD.release()
    return [got for _ in batch]


def test_workers_do_not_inherit_a_lock_another_thread_of_the_parent_holds() -> None:
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _HELD:
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold, daemon=True)
    holder.start()
    taken.wait(5)
    try:
        results = list(runner.map_batches(_takes_the_lock, [[0], [1]], workers=2, backend="local", address=None))
    finally:
        release.set()
        holder.join(5)
    assert sorted(x for batch in results for x in batch) == [True, True]


def test_the_pool_never_forks_the_parent_process() -> None:
    assert runner._START in ("forkserver", "spawn")


def test_a_simulation_on_two_workers_beside_a_running_thread_raises_no_fork_warning(tmp_path: Path) -> None:
    stop = threading.Event()
    ticker = threading.Thread(target=stop.wait, args=(30,), daemon=True)
    ticker.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)  # Python 3.12+ warns when a threaded process forks
            results = runner.run(Simulation.build("unrest", pool=["random"], games=2, seed=1), tmp_path, workers=2)
    finally:
        stop.set()
        ticker.join(5)
    assert results.complete


def test_our_own_deprecation_warnings_fail_the_tests() -> None:
    # pyproject.toml's filterwarnings: a DeprecationWarning raised from our packages is an error in the test suite.
    with pytest.raises(DeprecationWarning):
        warnings.warn_explicit("old name", DeprecationWarning, "flow.py", 1, module="tabletop_core.flow")
    with pytest.raises(DeprecationWarning):
        warnings.warn_explicit(
            "This process (pid=1) is multi-threaded, use of fork() may lead to deadlocks in the child.",
            DeprecationWarning,
            "popen_fork.py",
            66,
            module="multiprocessing.popen_fork",
        )
