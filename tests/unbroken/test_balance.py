"""The default pack's balance targets (the content guide's), guarded at a small, fast sample.

The full measurement is ``make balance`` (``python -m benchmarks.balance``: 1,000 bot games per character and
difficulty, ``docs/balance/unbroken.md``). Here the targets that the pack's numbers alone decide are checked
exactly, and those that need play are checked on a small seeded sample where the sample can show them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import unbroken
from benchmarks.balance import PRINTED, RANGES, aggregate, collect, targets, write_report
from unbroken.bots import value


@cache
def _sample() -> tuple[dict[str, Any], ...]:
    """12 seeded bot games per character and difficulty (144 games, a few seconds)."""
    return tuple(collect(12, seed=14))


def test_monsters_are_inside_the_guides_stat_ranges_unless_the_rulebook_prints_them() -> None:
    for m in unbroken.default_pack().monsters:
        if m.id in PRINTED:
            assert (m.armor, m.health) == PRINTED[m.id]
            continue
        (alo, ahi), (hlo, hhi) = RANGES[m.level]
        assert alo <= m.armor <= ahi and hlo <= m.health <= hhi, m.id


def test_every_encounter_gains_at_least_one_and_a_half_times_its_time_value() -> None:
    """The guide: "an encounter's net gain ~1.5-2x its Time Value so resolving beats resting" (Rest gains the
    Time Value in Small Effort), at the guide's Small-Effort prices."""
    state = unbroken.new_game(seed=0)
    for e in state.pack.encounters:
        assert value(e.gain + e.spend, state) >= 1.5 * e.time, e.id


def test_the_last_monsters_rewards_hold_no_treasure() -> None:
    """Level 4's Rewards are scored at once: a Treasure there is 10 points for nothing, so none is given."""
    for m in unbroken.default_pack().monsters:
        if m.level == 4:
            assert all(o.res != "treasure" for o in m.rewards), m.id


def test_a_small_sample_keeps_hard_below_easy_and_normal_and_spreads_the_titles() -> None:
    """At 144 games the intervals are wide: only Hard's gap and the spread of the titles are meaningful here."""
    agg = aggregate(_sample())
    rate = {d: agg["difficulty"][d]["rate"] for d in ("easy", "normal", "hard")}
    assert rate["easy"] > rate["hard"] and rate["normal"] > rate["hard"]
    held = [r["k"] for r in agg["titles"].values() if r["k"]]
    assert len(held) >= 3


def test_a_small_sample_resolves_every_encounter_the_bot_keeps_and_can_pay() -> None:
    """Before the pack was balanced the bot never resolved ten encounters: each is now worth resolving."""
    agg = aggregate(_sample())
    often = [e for e in agg["encounters"].values() if e["resolve"]["n"] >= 10]  # kept and payable 10 times or more
    assert len(often) >= 30
    assert [e["name"] for e in often if not e["resolve"]["k"]] == []


def test_the_report_writes_its_tables_plots_and_targets(tmp_path: Path) -> None:
    agg = aggregate(_sample())
    path = write_report(agg, {"games": 12, "seed": 14, "commit": "test"}, tmp_path)
    text = path.read_text(encoding="utf-8")
    for heading in ("## Targets", "## Win rate", "## Score and title", "## Monsters", "## Encounters", "## Skills"):
        assert heading in text
    assert "game_seed(14, d)" in text and "12 per character and difficulty" in text
    assert {p.name for p in tmp_path.glob("*.png")} == {
        f"unbroken-{n}.png" for n in ("win-rates", "monsters", "encounters", "cards", "titles")
    }
    assert len(targets(agg)) == 1 + 1 + 4 * 2 + 1 + 1 + 1
