"""The default pack's balance targets (the content guide's), guarded at a small, fast sample.

The claim is ``make balance``: ``tabletop certify`` of the pack against ``src/unbroken/content/targets.toml`` on
held-out deals, written into ``docs/balance/unbroken.md`` with 1,000 of those deals per character and difficulty
described by ``python -m benchmarks.balance``. Here the targets file itself is checked (what it frees and what it
asks), the targets that the pack's numbers alone decide are checked exactly, and those that need play are checked on
a small seeded sample where the sample can show them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import unbroken
from benchmarks.balance import BOT, PRINTED, RANGES, aggregate, collect, targets, tuning_lines, write_report
from tabletop_core.content import package_file
from tabletop_core.design.targets import Targets, load_targets
from unbroken.bots import value
from unbroken.measures import TITLE_NAMES

#: Monsters whose Armor and Health are public facts about the printed game (fixed like the rulebook's numbers).
PUBLIC_NUMBERS = {"hyena": (0, 4)}


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


def test_the_report_writes_its_tables_plots_and_checks(tmp_path: Path) -> None:
    agg = aggregate(_sample())
    path = write_report(agg, {"games": 12, "seed": 14, "commit": "test"}, tmp_path)
    text = path.read_text(encoding="utf-8")
    for heading in (
        "## Other checks",
        "## Win rate",
        "## Score and title",
        "## Monsters",
        "## Encounters",
        "## Skills",
    ):
        assert heading in text
    assert "## Certificate" not in text
    assert "game_seed(14, d)" in text and "12 per character and difficulty" in text
    assert {p.name for p in tmp_path.glob("*.png")} == {
        f"unbroken-{n}.png" for n in ("win-rates", "monsters", "encounters", "cards", "titles")
    }
    assert len(targets(agg)) == 1 + 1 + 4 * 2 + 1 + 1 + 1


def _shipped() -> Targets:
    return load_targets(Path(str(package_file("unbroken.content", "targets.toml"))))


def test_the_shipped_targets_free_only_authored_health_inside_the_guides_ranges() -> None:
    shipped = _shipped()
    assert shipped.game == "unbroken" and shipped.agents == ("heuristic",)
    monsters = {m.id: m for m in unbroken.default_pack().monsters}
    assert shipped.free
    for field, (lo, hi) in shipped.free:
        section, eid, key = field.split(".")
        assert (section, key) == ("monster", "health"), field
        m = monsters[eid]
        assert m.source != "rulebook" and eid not in PRINTED and eid not in PUBLIC_NUMBERS, field
        (_armor, (hlo, hhi)) = RANGES[m.level]
        assert hlo <= lo <= m.health <= hi <= hhi, field
    for eid, numbers in PUBLIC_NUMBERS.items():
        assert (monsters[eid].armor, monsters[eid].health) == numbers


def test_the_shipped_targets_ask_what_the_content_guide_asks() -> None:
    """Characters within 1.5x on every difficulty, each Level's six monsters within 2x of each other, no title
    over half of the wins and three titles at 5% or more, and every skill, weapon and condition held in 1% of games."""
    shipped = _shipped()
    grid = dict(shipped.grid)
    assert set(grid["difficulty"]) == {"easy", "normal", "hard"}
    assert set(grid["character"]) == {c.id for c in unbroken.default_pack().characters}
    by_measure = {(t.measure, t.measures): t for t in shipped.targets}
    spread = by_measure[("win", ())]
    assert (spread.spread, spread.per, spread.at_most) == ("character", "difficulty", 1.5)
    pack = unbroken.default_pack()
    for level in (1, 2, 3, 4):
        ids = tuple(f"lethality:{m.id}" for m in pack.monsters if m.level == level)
        (lethal,) = [t for t in shipped.targets if t.measures and set(t.measures) == set(ids)]
        assert len(ids) == 6 and lethal.at_most == 2.0
    ceilings = {t.measure: t.at_most for t in shipped.targets if t.measure.startswith("title:") and t.at_most}
    assert ceilings == {f"title:{name}": 0.5 for name in TITLE_NAMES}
    floors = [t for t in shipped.targets if t.measure.startswith("title:") and t.at_least is not None]
    assert len(floors) >= 3 and all(t.at_least == 0.05 for t in floors)
    held = {t.measure for t in shipped.targets if t.measure.startswith("held:") and t.at_least == 0.01}
    cards = {*(s.id for s in pack.skills), *(w.id for w in pack.weapons), *(c.id for c in pack.conditions)}
    assert held == {f"held:{card}" for card in cards}


SMALL_TARGETS = """
game = "unbroken"
agents = ["heuristic"]
[grid]
difficulty = ["easy"]
character = ["hunter", "brawler"]
[[target]]
name = "characters within 1.5x"
measure = "win"
spread = "character"
per = "difficulty"
at_most = 1.5
[[target]]
name = "Nemesis at most half of the wins"
measure = "title:Nemesis"
at_most = 0.5
"""


def test_the_report_opens_with_the_certificate_and_describes_its_deals(tmp_path: Path) -> None:
    """The report's claims are a certify run's: its verdicts, held-out deals, games, bot and confidence; the tables
    describe the certified deals themselves."""
    (tmp_path / "targets.toml").write_text(SMALL_TARGETS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "tabletop_core.cli", "certify", "unbroken", "--targets", "targets.toml",
         "--seeds", "700:712", "--resamples", "200", "--json", "cert.json"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    assert "characters within 1.5x [difficulty=easy]" in done.stdout  # the label printed as text, not markup
    cert = json.loads((tmp_path / "cert.json").read_text(encoding="utf-8"))
    assert cert["games"] == 24 and cert["agents"] == ["heuristic"] and len(cert["cells"]) == 2
    lines = collect(12, 0, difficulties=["easy"], characters=["hunter", "brawler"], first=700, paired=True)
    wins = {c: sum(g["won"] for g in lines if g["character"] == c) for c in ("hunter", "brawler")}
    rates = sorted(wins.values())
    if rates[0]:  # the certified estimate is the max/min of these very games' win rates
        assert cert["verdicts"][0]["estimate"] == pytest.approx(rates[1] / rates[0])
    tuning = {
        "seeds": [0, 240],
        "trials": 6,
        "best_trial": 3,
        "loss": {"default": 1.9, "tuned": 0.7},
        "changes": [{"field": "monster.kobold.health", "default": 5, "tuned": 4}],
    }
    meta = {"games": 12, "seed": 0, "first": 700, "paired": True, "tuning": tuning, "commit": "test"}
    text = write_report(aggregate(lines), meta, tmp_path, plots=False, certificate=cert).read_text(encoding="utf-8")
    head = text[: text.index("## The games of the tables")]
    assert "## Certificate" in head and "--seeds 700:712" in head and "12 held-out deals" in head
    assert "24 games" in head and BOT in head and "jointly at 95%" in head
    assert "on deals 0:240: 6 trials" in head and "`monster.kobold.health` 5 to 4" in head
    for v in cert["verdicts"]:
        assert f"| {v['target']} | {v['bounds']} |" in head
    assert "Certified" in head if cert["certified"] else "Not certified" in head
    assert "`game_seed(0, d)` and chance `game_seed(1, d)`" in text and "d = 700...711" in text


def test_a_tuning_that_beat_no_authored_number_says_the_pack_keeps_them() -> None:
    tuning = {"seeds": [0, 240], "trials": 6, "best_trial": 0, "loss": {"default": 1.9, "tuned": 1.9}, "changes": []}
    (line,) = tuning_lines(tuning, "docs/balance/unbroken-tune.json")
    assert "no trial beat the authored numbers" in line and "[unbroken-tune.json](unbroken-tune.json)" in line
