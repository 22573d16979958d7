"""One definition of a win per game, the same for every tool."""

from __future__ import annotations

import inspect
from pathlib import Path

import runebound_coop
import unbroken
from tabletop_core.outcomes import seat_outcomes, win_rule

ROOT = Path(__file__).resolve().parents[2]


def test_an_unbroken_win_of_no_points_is_a_win() -> None:
    assert seat_outcomes(unbroken.GAME.spec, (0.0,)) == ("win",)  # the title "Prey"
    assert seat_outcomes(unbroken.GAME.spec, (unbroken.LOSS,)) == ("loss",)
    assert "tie" not in win_rule(unbroken.GAME.spec, 1)


def test_a_withdrawn_runebound_fight_stays_a_tie() -> None:
    assert seat_outcomes(runebound_coop.GAME.spec, (0.0,)) == ("tie",)
    assert seat_outcomes(runebound_coop.GAME.spec, (1.0,)) == ("win",)


def test_the_balance_benchmark_judges_wins_by_the_one_rule() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("balance_bench", ROOT / "benchmarks" / "balance.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = inspect.getsource(module)
    assert "state.outcome > 0" not in source and "seat_outcomes(" in source
