"""The committed analysis reports under docs/analysis/ match their schema, their data and their plots.

Each report folder holds what ``tabletop analyze`` wrote (``analysis.json``, ``report.md``, the PNGs) and the
reading written for it (``reading.md``). These tests hold a reading to its numbers: every number the reading states
must be a number of its ``analysis.json`` (rounded as the reading writes it), so a regenerated report whose figures
moved fails here until its reading is rewritten. Each ``analysis.json`` must also match its schema and every
interval in it hold its figure inside the possible range; every plot must show something, carry its title and be
shown by the report.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the test extras install no stubs for jsonschema
import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
REPORTS = sorted(p.parent for p in (DOCS / "analysis").glob("*/analysis.json"))
#: Numbers a reading may state that are conventions of the report, not its data: the interval level and the
#: significance level the p-values are judged at (5%, 0.05) and the floor below which a p is not printed (0.001).
CONVENTIONS = frozenset({"95%", "5%", "0.05", "0.001"})
#: A number in prose: digits with thousands commas and decimals, an optional percent sign or "points"/"pp" after
#: it; not part of a word, a commit hash, an agent spec (inside backticks) or a link.
NUMBER = re.compile(r"(?<![\w.=/-])(-|\u2212)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(%| points?\b| pp\b)?(?![\w])")


#: A range whose unit is written once, after its upper end.
RANGE = re.compile(r"(\d[\d.,]*\d|\d)\s+to\s+(-?\d[\d.,]*\d|-?\d)(%| points?\b| pp\b)")


def _ids() -> list[str]:
    return [p.name for p in REPORTS]


def _leaves(node: Any) -> Iterator[float]:
    if isinstance(node, bool):
        return
    if isinstance(node, int | float):
        yield float(node)
    elif isinstance(node, dict):
        for value in node.values():
            yield from _leaves(value)
    elif isinstance(node, list):
        for value in node:
            yield from _leaves(value)


def _prose(reading: str) -> str:
    """The reading without code spans and links, whose digits are names, not figures."""
    text = re.sub(r"`[^`]*`", " ", reading)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return RANGE.sub(r"\1\3 to \2\3", text)  # "9.4 to 16.9%": both ends in percent


def _matches(token: re.Match[str], leaves: list[float]) -> bool:
    whole, decimals, unit = token.group(2).replace(",", ""), token.group(3) or "", token.group(4) or ""
    value = float(whole + decimals)
    places = len(decimals) - 1 if decimals else 0
    scales = (100.0,) if unit.strip() in {"%", "points", "point", "pp"} else (1.0,)
    for leaf in leaves:
        for scale in scales:
            shown = abs(leaf) * scale
            if places == 0 and scale == 1.0 and not decimals:
                if shown == value:  # a bare whole number is a count: it must be one exactly
                    return True
            elif round(shown, places) == value:
                return True
    return False


def unmatched_numbers(reading: str, data: Any) -> list[str]:
    """The numbers of ``reading`` that are no number of ``data`` as the reading rounds them."""
    leaves = list(_leaves(data))
    missing = []
    for token in NUMBER.finditer(_prose(reading)):
        text = token.group(0).strip()
        if text in CONVENTIONS or _matches(token, leaves):
            continue
        missing.append(text)
    return missing


def test_there_is_a_committed_report_of_every_game() -> None:
    assert [p.name for p in REPORTS] == ["runebound_coop", "unbroken", "unrest"]


@pytest.mark.parametrize("folder", REPORTS, ids=_ids())
def test_the_committed_analysis_json_matches_its_schema(folder: Path) -> None:
    schema = json.loads((DOCS / "formats" / "analysis.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    document = json.loads((folder / "analysis.json").read_text())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]
    assert not errors, f"{folder.name}/analysis.json: {errors[:5]}"


@pytest.mark.parametrize("folder", REPORTS, ids=_ids())
def test_the_report_holds_its_reading_word_for_word(folder: Path) -> None:
    reading = (folder / "reading.md").read_text().strip()
    assert reading and f"## Reading\n\n{reading}\n" in (folder / "report.md").read_text()


@pytest.mark.parametrize("folder", REPORTS, ids=_ids())
def test_every_number_of_the_reading_is_a_number_of_its_analysis(folder: Path) -> None:
    data = json.loads((folder / "analysis.json").read_text())
    assert unmatched_numbers((folder / "reading.md").read_text(), data) == []


@pytest.mark.parametrize("folder", REPORTS, ids=_ids())
def test_every_committed_plot_shows_something_has_a_title_and_is_linked(folder: Path) -> None:
    pytest.importorskip("matplotlib")
    from tests.core.test_plots import check_png

    report = (folder / "report.md").read_text()
    plots = sorted(folder.glob("*.png"))
    assert plots
    for path in plots:
        check_png(path)
        assert f"]({path.name})" in report, f"{path.name} is not shown by {folder.name}/report.md"
    linked = set(re.findall(r"\]\(([^)]+\.png)\)", report))
    assert linked == {p.name for p in plots}


def test_a_reading_whose_figure_moved_is_caught() -> None:
    data = {"seat_advantage": {"rows": [{"win_rate": 0.8333, "wins": 250, "games": 300}]}}
    text = "The Empire wins 83% of games (250 of 300); `ismcts:iterations=90` at 4d3f3d4."
    assert unmatched_numbers(text, data) == []
    assert unmatched_numbers("The Empire wins 85% of games (250 of 300).", data) == ["85%"]
    assert unmatched_numbers("It wins 0.83 of them, 251 in all.", data) == ["251"]
    assert unmatched_numbers("It wins 83 to 84% of games.", data) == ["84%"]


def test_a_p_value_below_a_thousandth_is_printed_as_such_not_as_zero() -> None:
    from tabletop_core.analysis.report import markdown

    result = json.loads((DOCS / "analysis" / "runebound_coop" / "analysis.json").read_text())
    assert result["luck"]["terms"]["agent"]["p_value"] < 1e-6
    luck = markdown(result).split("## Luck against skill")[1].split("## Drama")[0]
    agent = next(line for line in luck.splitlines() if line.startswith("| agent (skill)"))
    assert agent.endswith("| < 0.001 |") and "0.000 |" not in luck


def test_drama_from_few_rollouts_carries_a_warning_and_the_noise_taken_out() -> None:
    from tabletop_core.analysis.report import markdown

    result = json.loads((DOCS / "analysis" / "unrest" / "analysis.json").read_text())
    assert result["drama"]["rollouts"] < 32 and result["drama"]["too_few_rollouts"]
    drama = markdown(result).split("## Drama")[1].split("## Restricted play")[0]
    assert "**Warning: 8 rollouts per estimate are too few" in drama
    assert "| total swing, noise taken out |" in drama and "| swing expected from noise alone |" in drama


def test_restricted_play_says_what_it_measures_and_how_many_findings_survive() -> None:
    from tabletop_core.analysis.report import markdown

    result = json.loads((DOCS / "analysis" / "unbroken" / "analysis.json").read_text())
    restricted = markdown(result).split("## Restricted play")[1]
    assert "not the item's strength in the hands of a good player" in restricted
    counts = result["restricted"]["significant"][0]
    assert (counts["nominal"], counts["holm"], counts["bh"]) == (7, 0, 0)  # the committed reading's claim
    assert "7 items with p < 0.05 before adjustment; 0 survive Holm and 0 survive Benjamini-Hochberg" in restricted


def _intervals(node: Any, path: str = "") -> Iterator[tuple[str, str, list[float], dict[str, Any]]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key.endswith("interval") and isinstance(value, list) and len(value) == 2 and None not in value:
                yield f"{path}.{key}", key, value, node
            yield from _intervals(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _intervals(value, f"{path}[{i}]")


#: The figure an interval belongs to, by the interval's key (else the first of FIGURES in the same object).
PAIRED = {"win_interval": "win_rate", "return_interval": "mean_return"}
FIGURES = ("mean", "value", "share", "change", "elo", "per_doubling")


@pytest.mark.parametrize("folder", REPORTS, ids=_ids())
def test_every_committed_interval_holds_its_figure_within_the_possible_range(folder: Path) -> None:
    from tabletop_core import load_game

    spec = load_game(folder.name).spec
    data = json.loads((folder / "analysis.json").read_text())
    found = 0
    for path, key, (low, high), node in _intervals(data):
        found += 1
        name = PAIRED.get(key) or next((f for f in FIGURES if f in node), None)
        figure = node.get(name) if name else None
        assert low <= high, path
        if isinstance(figure, int | float) and not isinstance(figure, bool):
            assert low - 1e-9 <= figure <= high + 1e-9, f"{path}: {figure} outside [{low}, {high}]"
        if key == "win_interval" or ".luck.terms." in path:
            assert low >= 0.0 and high <= 1.0, path
        if key == "return_interval":
            assert spec.min_utility <= low and high <= spec.max_utility, path
    assert found > 50
