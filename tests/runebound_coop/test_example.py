"""The example script plays a seeded fight to its end and prints the result and the odds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import runebound_coop as rb

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "runebound_fight.py"


def test_example_prints_a_seeded_fight(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("runebound_fight_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(3)
    first = capsys.readouterr().out
    module.main(3)
    assert capsys.readouterr().out == first  # seeded: the same fight again
    assert "Elian vs the Sorcerer" in first and "result: the hero" in first
    win = rb.odds("Corbin", "Undead Horde", max_rounds=1).win
    assert f"exact odds, Corbin vs Undead Horde within one round, optimal play: win {win:.4f}" in first
