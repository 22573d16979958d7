"""Every PNG the commands write shows something and carries its title; none is written with nothing to show."""

from __future__ import annotations

import io
from pathlib import Path

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


def test_a_co_op_game_of_one_agent_writes_no_ratings_plot_and_does_not_list_one(tmp_path: Path) -> None:
    assert main(["simulate", "runebound_coop", "--agent", "first", "--games", "12",
                 "--out", str(tmp_path), "--quiet"], io.StringIO()) == 0  # fmt: skip
    text = _report(tmp_path)
    assert not (tmp_path / "plots" / "ratings.png").exists() and "ratings.png" not in text
    for path in (tmp_path / "plots").glob("*.png"):
        check_png(path)
