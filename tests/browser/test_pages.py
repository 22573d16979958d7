"""The HTML pages in a real browser: a replay page and a results page open, draw something, step forward and back
with the buttons and the keyboard, and log no console error."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from tabletop_core.cli import main

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _tabletop(*args: str) -> str:
    out = io.StringIO()
    assert main(list(args), out=out) == 0, out.getvalue()
    return out.getvalue()


def _not_blank(png: bytes) -> float:
    """The pixel standard deviation of a screenshot (a blank page is 0)."""
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    return float(pixels.std())


def _open(browser: Any, path: Path) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 800, "height": 900})
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    return page, errors


def test_a_replay_page_steps_through_the_game_with_buttons_keys_and_the_seat_switch(
    browser: Any, tmp_path: Path
) -> None:
    record = tmp_path / "unrest.json"
    _tabletop("play", "unrest", "--bots", "--seed", "3", "--record", str(record))
    html = tmp_path / "replay.html"
    _tabletop("replay", str(record), "--html", str(html), "--reveal")
    page, errors = _open(browser, html)
    shot = page.screenshot(full_page=False)
    assert _not_blank(shot) > 10
    board = page.locator("#board")
    current = page.locator("#moves li.current")
    assert page.locator("#where").text_content() == "start of " + page.locator("#slider").get_attribute("max")
    start_svg = board.inner_html()
    assert start_svg.startswith("<svg") and current.get_attribute("data-i") == "0"

    page.click("#forward")
    page.click("#forward")
    assert current.get_attribute("data-i") == "2"
    assert page.locator("#where").text_content().startswith("after move 2 ")
    assert board.inner_html() != start_svg
    page.keyboard.press("ArrowLeft")
    assert current.get_attribute("data-i") == "1"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert current.get_attribute("data-i") == "3"
    page.click("#back")
    assert current.get_attribute("data-i") == "2"
    page.keyboard.press("End")
    last = page.locator("#slider").get_attribute("max")
    assert current.get_attribute("data-i") == last
    assert page.locator("#end").text_content()
    page.keyboard.press("Home")
    assert board.inner_html() == start_svg

    truth_lines = page.locator("#moves").inner_text()
    assert "whole truth" in page.locator("#seat-note").text_content()
    page.select_option("#seat", index=1)
    assert "saw it" in page.locator("#seat-note").text_content()
    assert page.locator("#moves").inner_text() != truth_lines
    assert board.inner_html() != start_svg  # the seat's own view hides what the whole truth shows
    assert _not_blank(page.screenshot()) > 10
    assert errors == []
    page.close()


def test_a_results_page_shows_tables_plots_filters_and_links_to_replays_that_step(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "sim"
    _tabletop("simulate", "unbroken", "--games", "3", "--records", "--workers", "1", "--out", str(out))
    html = tmp_path / "results.html"
    said = _tabletop("report", str(out), "--html", str(html))
    assert "3 replay pages" in said
    page, errors = _open(browser, html)
    assert _not_blank(page.screenshot()) > 10
    assert page.locator("img[src^='data:image/png;base64,']").count() >= 1
    games = page.locator("tr[data-game]")
    assert games.count() == 3
    assert page.locator("#shown").text_content() == "3 of 3 games shown"
    character = page.locator("select.filter[data-key=character]")
    assert character.count() == 1
    page.select_option("select.filter[data-key=agent]", "heuristic")
    assert page.locator("#shown").text_content() == "3 of 3 games shown"
    links = page.locator("a[href$='.html']")
    assert links.count() == 3
    links.first.click()
    page.wait_for_selector("#board svg")
    assert page.locator("#moves li.current").get_attribute("data-i") == "0"
    page.keyboard.press("ArrowRight")
    assert page.locator("#moves li.current").get_attribute("data-i") == "1"
    assert errors == []
    page.close()


def test_the_results_page_filters_hide_the_rows_of_other_agents_and_seats(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "sim"
    _tabletop(
        "simulate",
        "unrest",
        "--games",
        "2",
        "--agent",
        "0=random",
        "--agent",
        "1=heuristic",
        "--workers",
        "1",
        "--out",
        str(out),
    )
    html = tmp_path / "results.html"
    _tabletop("report", str(out), "--html", str(html), "--no-plots")
    page, errors = _open(browser, html)
    visible = page.locator("tr[data-seatrow]:not(.hidden)")
    assert visible.count() == 2
    page.select_option("select.filter[data-key=agent]", "random")
    assert visible.count() == 1 and "Rebellion" in visible.first.inner_text()
    page.select_option("select.filter[data-key=agent]", "")
    page.select_option("select.filter[data-key=seat]", "Empire")
    assert visible.count() == 1 and "heuristic" in visible.first.inner_text()
    assert page.locator("#shown").text_content() == "2 of 2 games shown"
    assert errors == []
    page.close()
