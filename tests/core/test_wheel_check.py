"""The smoke subset ``make dist`` runs against each installed wheel is complete on its own: copied out of the
source tree, it collects without an import error (a helper module left behind would fail only at release time)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests import wheel_check


def test_every_smoke_entry_exists() -> None:
    missing = [entry for entry in wheel_check.SMOKE if not (wheel_check.TESTS / entry).exists()]
    assert not missing


def test_the_copied_smoke_tests_collect_outside_the_source_tree(tmp_path: Path) -> None:
    copied = wheel_check.copy_smoke_tests(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "tests"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    collected = [line for line in done.stdout.splitlines() if "::" in line]
    assert all(line.startswith("tests/") for line in collected)
    assert {line.split("::", 1)[0] for line in collected} >= {
        f"tests/{entry}" for entry in wheel_check.SMOKE if entry.endswith(".py") and "/test_" in f"/{entry}"
    }
    assert copied == tmp_path / "tests"
