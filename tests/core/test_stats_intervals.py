"""Intervals that fit their data: inside the possible range, none of zero width, none from too few games."""

from __future__ import annotations

import io

import pytest

from tabletop_core.cli import main
from tabletop_core.simulation import Simulation, run
from tabletop_core.simulation.stats import MIN_GAMES, mean_estimate, wilson_interval


def test_returns_of_minus_one_and_one_get_the_wilson_interval_inside_the_range() -> None:
    est = mean_estimate([1.0] * 12 + [-1.0] * 3, (-1.0, 1.0))
    low, high = wilson_interval(12, 15)
    assert est["method"] == "wilson" and est["interval"] == pytest.approx([2 * low - 1, 2 * high - 1])
    every = mean_estimate([1.0] * 12, (-1.0, 1.0))
    assert every["interval"][0] < 1.0 == every["interval"][1]  # all won: not a zero-width interval


def test_a_mean_of_two_values_is_too_few_games_not_a_number() -> None:
    est = mean_estimate([0.333, 1.0], (0.0, 1.0))
    assert est["mean"] is None and est["interval"] == [None, None] and est["method"] == "too few games"
    assert mean_estimate([0.5] * MIN_GAMES, (0.0, 1.0))["mean"] == 0.5


def test_values_without_spread_get_no_interval() -> None:
    est = mean_estimate([3.0] * 20, (0.0, 10.0))
    assert est["mean"] == 3.0 and est["interval"] == [None, None] and est["method"] == "no spread"


@pytest.mark.parametrize("n", [12, 40])
def test_an_interval_never_leaves_the_possible_range(n: int) -> None:
    values = [0.0] * (n - 2) + [90.0, 95.0]  # skewed: t would reach below 0
    est = mean_estimate(values, (-1.0, 95.0))
    assert -1.0 <= est["interval"][0] <= est["mean"] <= est["interval"][1] <= 95.0
    assert est["method"] == ("bootstrap" if n < 30 else "t")


def test_the_report_prints_no_zero_width_interval(tmp_path: object) -> None:
    sim = Simulation.build("tabletop_core.testing.kuhn:GAME", {"0": "first", "1": "first"}, games=12)
    out = str(tmp_path)
    run(sim, out)
    report = io.StringIO()
    assert main(["report", out, "--no-plots"], report) == 0
    text = report.getvalue()
    for bad in ("0.00 (0.00 to 0.00)", "(1 to 1", "(-1 to -1", "nan"):
        assert bad not in text
