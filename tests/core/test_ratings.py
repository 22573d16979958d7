"""Batch ratings: a Bradley-Terry fit by maximum likelihood that does not depend on the order of the games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tabletop_core.simulation import Simulation, run
from tabletop_core.simulation.stats import ratings, summarize

KUHN_NAME = "tabletop_core.testing.kuhn:GAME"


def _elos(summary: dict[str, Any]) -> dict[str, float]:
    return {r["entry"]: r["elo"] for r in summary["ratings"]["entries"]}


def test_ratings_do_not_depend_on_the_order_of_the_comparisons() -> None:
    rng = random.Random(4)
    comps = [("a", "b", rng.choice([1.0, 0.0, 0.5]), 0, 1) for _ in range(40)]
    comps += [("b", "c", rng.choice([1.0, 1.0, 0.0]), 1, 0) for _ in range(40)]
    first = ratings(comps, seats=2)
    shuffled = list(comps)
    rng.shuffle(shuffled)
    again = ratings(shuffled, seats=2)
    assert first["entries"] == again["entries"] and first["seat_terms"] == again["seat_terms"]


def test_relabelling_the_deals_leaves_the_ratings_unchanged() -> None:
    """The same games, written with their deals numbered in another order, rate the same."""
    sim = Simulation.build(KUHN_NAME, pool=["mcts:iterations=20", "random", "first"], games=12, seed=2)
    lines = [dict(ln) for ln in run(sim).lines]
    before = _elos(summarize(sim, lines))
    order = list(range(12))
    random.Random(1).shuffle(order)
    moved = [{**ln, "deal": order[ln["deal"]]} for ln in lines]
    random.Random(2).shuffle(moved)
    assert _elos(summarize(sim, moved)) == pytest.approx(before, abs=1e-6)


def test_a_fit_recovers_a_known_strength_and_the_seat_term() -> None:
    # a beats b 3 times in 4 from either seat; seat 1 has no advantage
    comps = [("a", "b", 1.0, 0, 1)] * 30 + [("a", "b", 0.0, 0, 1)] * 10
    comps += [("b", "a", 0.0, 0, 1)] * 30 + [("b", "a", 1.0, 0, 1)] * 10
    out = ratings(comps, seats=2, seat_names=["first", "second"])
    elo = {r["entry"]: r["elo"] for r in out["entries"]}
    assert elo["a"] - elo["b"] == pytest.approx(400 * 0.4771, abs=8)  # log10(3) per 400 points
    assert abs(out["seat_terms"][0]["elo"]) < 5
    low, high = out["entries"][0]["interval"]
    assert low < elo["a"] < high


def test_the_rebellion_and_the_empire_heuristic_are_separate_entries() -> None:
    sim = Simulation.build("unrest", pool=["heuristic", "random"], games=6, seed=1)
    summary = run(sim).summary()
    entries = {r["entry"] for r in summary["ratings"]["entries"]}
    assert {"heuristic @ Rebellion", "heuristic @ Empire"} <= entries and "heuristic" not in entries
    assert "random" in entries  # one bot at either seat: one entry, and the seat term
    assert summary["ratings"]["seat_terms"][0]["seat_name"] == "Empire"
