"""Every PNG the commands write shows something and carries its title; none is written with nothing to show."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tabletop_core.cli import main

pytest.importorskip("matplotlib")
from PIL import Image


def check_png(path: Path) -> str:
    """The PNG's title (its ``Title`` text chunk), after checking the picture is not blank."""
    with Image.open(path) as image:
        title = str(image.text.get("Title", ""))  # type: ignore[attr-defined]  # PngImageFile has text
        pixels = np.asarray(image.convert("L"), dtype=float)
    assert pixels.var() > 50.0, f"{path.name} is blank"
    assert title.strip(), f"{path.name} has no title"
    return title


def _report(folder: Path) -> str:
    out = io.StringIO()
    assert main(["report", str(folder)], out) == 0
    return out.getvalue()


def test_the_report_plots_of_a_self_play_match_show_something(tmp_path: Path) -> None:
    assert main(["simulate", "unrest", "--agent", "0=heuristic", "--agent", "1=heuristic", "--games", "12",
                 "--out", str(tmp_path), "--quiet"], io.StringIO()) == 0  # fmt: skip
    text = _report(tmp_path)
    written = sorted(p.name for p in (tmp_path / "plots").glob("*.png"))
    assert written == ["ratings.png", "returns.png", "win_rates.png"]
    titles = {name: check_png(tmp_path / "plots" / name) for name in written}
    assert all(str(tmp_path / "plots" / name) in text for name in written)
    assert "12 games" in titles["returns.png"] and "comparisons" in titles["ratings.png"]
    seat_rows = re.findall(r"heuristic\W+(Rebellion|Empire)\W+12\W", text)  # the agents-by-seat rows of 12 games
    assert sorted(seat_rows) == ["Empire", "Rebellion"], "a self-play match shows both seats, not seat 0 alone"
    assert re.search(r"heuristic \(12 self-play\)\W+24\W", text)  # the agent's row counts a game once per seat


def test_a_co_op_game_of_one_agent_writes_no_ratings_plot_and_does_not_list_one(tmp_path: Path) -> None:
    assert main(["simulate", "runebound_coop", "--agent", "first", "--games", "12",
                 "--out", str(tmp_path), "--quiet"], io.StringIO()) == 0  # fmt: skip
    text = _report(tmp_path)
    assert not (tmp_path / "plots" / "ratings.png").exists() and "ratings.png" not in text
    for path in (tmp_path / "plots").glob("*.png"):
        check_png(path)


def test_every_plot_an_analysis_writes_shows_something_and_names_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletop_core.analysis.report import PLOTS
    from tabletop_core.simulation import plots

    panels: dict[str, list[str]] = {}
    save_png = plots.save_png

    def keep_panels(fig: Any, path: Path, *, dpi: int = 100) -> None:
        panels[path.name] = [ax.get_title() for ax in fig.axes]
        save_png(fig, path, dpi=dpi)

    monkeypatch.setattr(plots, "save_png", keep_panels)

    argv = ["analyze", "unrest", "--agents", "random", "--ladder", "random", "first", "--games=12",
            "--ladder-games=10", "--luck-replicates=2", "--drama-games=2", "--drama-points=3", "--drama-rollouts=2",
            "--restrict-games=2", "--seed=3", "--no-traces", "--quiet", "--out", str(tmp_path)]  # fmt: skip
    assert main(argv, io.StringIO()) == 0
    written = sorted(p.name for p in tmp_path.glob("*.png"))
    assert written == sorted(PLOTS.values())  # every section has something to show at these sizes
    report = (tmp_path / "report.md").read_text()
    for name in written:
        title = check_png(tmp_path / name)
        assert "n = " in title, f"{name}: the title {title!r} does not give its games"
        assert f"]({name})" in report
    with Image.open(tmp_path / "restricted.png") as image:
        assert "paired games per item" in str(image.text.get("Title", ""))  # type: ignore[attr-defined]  # PngImageFile has text
    assert panels["restricted.png"] == ["Rebellion", "Empire"]  # each side's items in a panel of its own
