"""The per-file summary ``make test`` prints: one line per file once its tests are done, dots replaced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(folder: Path, *extra: str) -> str:
    (folder / "test_good.py").write_text("def test_a():\n    pass\n\ndef test_b():\n    pass\n")
    (folder / "test_mixed.py").write_text(
        "import pytest\n\ndef test_ok():\n    pass\n\ndef test_bad():\n    assert False\n\n"
        "@pytest.mark.skip(reason='x')\ndef test_skipped():\n    pass\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.file_summary", "-p", "no:cacheprovider", *extra],
        cwd=folder,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout


@pytest.mark.parametrize("extra", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_each_file_gets_one_line_with_its_counts_and_no_dots(tmp_path: Path, extra: tuple[str, ...]) -> None:
    out = _run(tmp_path, "-o", "addopts=", *extra)
    lines = out.splitlines()
    good = [line for line in lines if line.startswith("test_good.py  ")]
    mixed = [line for line in lines if line.startswith("test_mixed.py  ")]
    assert len(good) == 1 and good[0].startswith("test_good.py  2 passed  ")
    assert len(mixed) == 1 and mixed[0].startswith("test_mixed.py  1 passed, 1 failed, 1 skipped  ")
    assert not any(set(line.strip()) <= set(".Fs") and line.strip() for line in lines), out
    assert "1 failed, 3 passed, 1 skipped" in out


def test_make_test_runs_the_suite_with_the_file_summary() -> None:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    target = text.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    suite = [line for line in target.splitlines() if "-m pytest -n 2" in line and "PURE_SUBSET" not in line]
    assert suite and all("-p tests.file_summary" in line for line in suite), target
