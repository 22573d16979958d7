"""Paired comparisons: two agents in one seat on the same deals, compared deal by deal."""

from __future__ import annotations

import io

from scipy.stats import binomtest

from tabletop_core.cli import main
from tabletop_core.simulation import Simulation, run, seat_outcomes
from tabletop_core.testing.kuhn import GAME as KUHN

KUHN_NAME = "tabletop_core.testing.kuhn:GAME"


def test_the_report_pairs_two_agents_that_played_the_same_deals(tmp_path: object) -> None:
    sim = Simulation.build(KUHN_NAME, {"1": "random"}, ["mcts:iterations=20", "first"], games=40, seed=0)
    results = run(sim, str(tmp_path))
    rows = results.summary()["paired"]
    assert len(rows) == 1
    row = rows[0]
    assert {row["agent"], row["other"]} == {"first", "mcts:iterations=20"} and row["deals"] == 40
    # recomputed here: McNemar's exact test is the binomial test of the discordant deals
    won = {
        (tuple(ln["agents"]), ln["deal"]): seat_outcomes(KUHN.spec, ln["returns"])[0] == "win" for ln in results.lines
    }
    a, b = tuple(row["seating"]), tuple(row["other_seating"])
    only_a = sum(1 for d in range(40) if won[a, d] and not won[b, d])
    only_b = sum(1 for d in range(40) if won[b, d] and not won[a, d])
    assert (row["only_agent_won"], row["only_other_won"]) == (only_a, only_b)
    assert row["mcnemar_p"] == binomtest(only_a, only_a + only_b, 0.5).pvalue
    text = io.StringIO()
    assert main(["report", str(tmp_path), "--no-plots"], text) == 0
    assert "paired" in text.getvalue() and "McNemar" in text.getvalue()
