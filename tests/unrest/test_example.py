"""The example script plays a seeded game between the heuristic bots and prints it."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "unrest_play.py"


@pytest.mark.parametrize("variant", ["standard", "capitol"])
def test_example_unrest_play_prints_a_whole_game(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE), run_name="unrest_play")
    module["main"](7, variant)
    out = capsys.readouterr().out
    assert "Rebellion: target" in out
    assert "Rebellion: plan" in out and "Empire:" in out
    assert out.strip().splitlines()[-1].split()[0] in ("Rebellion", "Empire")


def test_example_unrest_play_announces_each_liberation(capsys: pytest.CaptureFixture[str]) -> None:
    module = runpy.run_path(str(EXAMPLE), run_name="unrest_play")
    module["main"](1, "standard")  # the Rebellion liberates three Districts
    out = capsys.readouterr().out
    announced = [line for line in out.splitlines() if line.startswith("  >> ")]
    assert len(announced) == 3
    assert all(" is liberated (" in line for line in announced)
    assert "liberated: Ministry of Plenty, Police Headquarters, Ministry of Truth" in out
