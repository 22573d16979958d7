"""Design by simulation: paired comparisons of variants, pack writing, targets and certification."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import unbroken
from tabletop_core.design.certify import certify, decide, verdicts
from tabletop_core.design.compare import Variant, compare, pack_variant
from tabletop_core.design.packs import free_fields, pack_text
from tabletop_core.design.paired import paired_difference
from tabletop_core.design.targets import parse_targets
from tabletop_core.errors import OptionError

MEASURES = ["level", "length", "lethality:level:1"]


def _tougher_hyena(tmp_path: Path) -> Path:
    path = tmp_path / "tough-hyena.toml"
    path.write_text(pack_text(unbroken.GAME, {"monster.hyena.health": 7}))
    return path


def test_a_planted_health_change_is_detected_by_pairing_and_missed_unpaired(tmp_path: Path) -> None:
    pack = _tougher_hyena(tmp_path)
    for seed in (5, 6):
        paired = compare(
            "unbroken",
            [Variant("default"), pack_variant(pack)],
            games=100,
            seed=seed,
            measures=MEASURES,
            resamples=1000,
        )
        assert min(r.p_holm for r in paired.rows if r.p_holm is not None) < 0.05
    # The same number of games, the variant on other deals: unpaired, the change hides in the noise.
    from scipy.stats import fisher_exact, ttest_ind

    from tabletop_core.design.compare import play_deals

    def tallies(variant: Variant, seed: int) -> list[dict[str, tuple[float, float]]]:
        plan = json.dumps({"variants": [variant.to_json()], "options": [], "seed": seed})
        games = [row[0] for _, row in play_deals(("unbroken", plan, range(100)))]
        assert all(g is not None for g in games)  # no game of Unbroken reaches the length limit
        return [g for g in games if g is not None]

    ta, tb = tallies(Variant("default"), 5), tallies(pack_variant(pack), 1005)
    lost = [sum(t["lethality:level:1"][0] for t in ts) for ts in (ta, tb)]
    p_lethality = fisher_exact([[lost[0], 100 - lost[0]], [lost[1], 100 - lost[1]]]).pvalue
    p_level = ttest_ind([t["level"][0] for t in ta], [t["level"][0] for t in tb], equal_var=False).pvalue
    p_length = ttest_ind([t["length"][0] for t in ta], [t["length"][0] for t in tb], equal_var=False).pvalue
    assert min(p_lethality, p_level, p_length) * 3 > 0.05  # Bonferroni over the same three measures


def test_identical_variants_differ_in_nothing() -> None:
    result = compare("unbroken", [Variant("a"), Variant("b")], games=20, seed=2, resamples=200)
    assert all(r.diff in (0.0, None) and r.p in (1.0, None) for r in result.rows)


def test_mcnemar_on_a_win_rate_and_permutation_on_a_mean() -> None:
    a = np.array([0.0] * 30 + [1.0] * 10)
    b = np.array([1.0] * 20 + [0.0] * 10 + [1.0] * 10)
    one = np.ones(40)
    row = paired_difference("win", a, one, b, one, resamples=500)
    assert row.test == "McNemar exact" and row.p is not None and row.p < 1e-4
    assert row.low is not None and row.high is not None and row.diff is not None and row.low <= row.diff <= row.high
    row = paired_difference("score", a * 3, one, b * 3 + 0.5, one, resamples=500)
    assert row.test == "paired permutation" and row.p is not None and row.p < 0.01


def test_a_comparison_refuses_a_single_variant() -> None:
    with pytest.raises(OptionError, match="at least two"):
        compare("unbroken", [Variant("a")], games=10)


def test_fields_the_rulebook_prints_stay_fixed(tmp_path: Path) -> None:
    assert "monster.hyena.health" in free_fields(unbroken.GAME)
    with pytest.raises(OptionError, match="rulebook"):
        pack_text(unbroken.GAME, {"monster.basilisk.health": 3})
    pack = unbroken.load_pack(_tougher_hyena(tmp_path))
    assert pack.monster_for_id("hyena").health == 7


TARGETS = {
    "game": "unbroken",
    "grid": {"difficulty": ["easy", "hard"]},
    "target": [
        {"name": "easy is easier", "measure": "win", "where": {"difficulty": "easy"}, "at_least": 0.0},
        {"name": "Level 1 kills rarely", "measure": "lethality:level:1", "at_most": 0.9},
        {"name": "difficulties close", "measure": "level", "spread": "difficulty", "at_most": 1.01},
    ],
}


def test_certify_decides_each_target_by_a_bound() -> None:
    targets = parse_targets(TARGETS)
    verdict = {v.target: v.verdict for v in certify(targets, range(5000, 5120), resamples=500)}
    assert verdict["Level 1 kills rarely"] == "pass"
    assert verdict["difficulties close"] == "fail"  # easy and hard reach different Levels
    assert decide(0.1, 0.2, None, 0.25) == "pass" and decide(0.3, 0.4, None, 0.25) == "fail"
    assert decide(0.2, 0.3, None, 0.25) == "undecided"


def test_certify_refuses_the_deals_a_pack_was_tuned_on(tmp_path: Path) -> None:
    pack = tmp_path / "tuned.toml"
    pack.write_text(pack_text(unbroken.GAME, {"monster.hyena.health": 5}, note="tabletop-tune: seeds=0:300"))
    with pytest.raises(OptionError, match="tuned on"):
        certify(parse_targets(TARGETS), range(200, 400), pack=pack)


def test_targets_files_name_their_mistakes() -> None:
    bad = {**TARGETS, "target": [{"measure": "win", "spread": "colour", "at_most": 2}]}
    with pytest.raises(OptionError, match="colour"):
        parse_targets(bad)
    with pytest.raises(OptionError, match="unknown key"):
        parse_targets({**TARGETS, "seed": 3})


def test_compare_command_prints_paired_tables(tmp_path: Path) -> None:
    pack = _tougher_hyena(tmp_path)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tabletop_core.cli",
            "compare",
            "unbroken",
            "--pack",
            str(pack),
            "--games",
            "40",
            "--measure",
            "win",
            "--measure",
            "level",
            "--json",
            str(tmp_path / "c.json"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "tough-hyena.toml against unchanged" in out.stdout and "Holm" in out.stdout
    data = json.loads((tmp_path / "c.json").read_text())
    assert [r["measure"] for r in data["variants"][0]["rows"]] == ["level", "win"]


def test_verdicts_hold_jointly_by_bonferroni() -> None:
    targets = parse_targets(TARGETS)
    cells = targets.cells()
    rng = np.random.default_rng(0)
    data = np.zeros((len(cells), 50, 1, 2))
    data[..., 0, 0] = rng.integers(0, 2, size=(len(cells), 50))
    data[..., 0, 1] = 1
    one = verdicts(targets, cells, data, ["win"], confidence=0.95, resamples=400, seed=1)
    assert one[0].low <= one[0].estimate <= one[0].high


def test_a_number_nested_in_an_entry_is_a_field_by_its_path(tmp_path: Path) -> None:
    assert free_fields(unbroken.GAME)["monster.kobold.ambush.0.n"] == 2
    path = tmp_path / "nested.toml"
    path.write_text(pack_text(unbroken.GAME, {"monster.kobold.ambush.0.n": 3}))
    kobold = unbroken.load_pack(path).monster_for_id("kobold")
    assert kobold.ambush is not None and kobold.ambush[0].n == 3
    assert unbroken.default_pack().monster_for_id("kobold").health == kobold.health  # the rest of the entry kept
    with pytest.raises(OptionError, match="has no number"):
        pack_text(unbroken.GAME, {"monster.kobold.ambush.9.n": 3})
    with pytest.raises(OptionError, match="rulebook"):
        pack_text(unbroken.GAME, {"monster.basilisk.ambush.0.n": 3})
