"""The HTML pages and the docs pictures: what a replay page holds for each seat, that record text cannot become
markup, that output files are not overwritten by surprise, the results page's data, and the docs build's hook."""

from __future__ import annotations

import importlib.util
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

import unrest
from tabletop_core.cli import main
from tabletop_core.render import check_svg
from tabletop_core.render.pages import json_block, replay_page
from tabletop_core.render.replays import TRUTH, build_replay
from unrest.picture import VIEW_BOX

ROOT = Path(__file__).resolve().parents[2]


def _tabletop(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        code = main(list(args), out=out)
    except SystemExit as exc:  # argparse and refusals
        code = int(exc.code or 0)
    return code, out.getvalue()


def _data(html: str) -> Any:
    block = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert block is not None
    return json.loads(block.group(1))


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "unrest.json"
    assert _tabletop("play", "unrest", "--bots", "--seed", "3", "--record", str(path))[0] == 0
    return path


def test_a_replay_page_without_reveal_holds_only_the_chosen_seats_pictures(record: Path, tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    assert _tabletop("replay", str(record), "--html", str(html), "--seat", "Empire")[0] == 0
    data = _data(html.read_text())
    assert [v["name"] for v in data["views"]] == ["Empire"]
    assert not any(v["truth"] for v in data["views"])
    assert "the whole truth" not in html.read_text()
    pictures = data["views"][0]["pictures"]
    assert len(pictures) == data["moves"] + 1 == len(data["views"][0]["lines"]) + 1
    for svg in pictures:
        check_svg(svg, view_box=VIEW_BOX)


def test_a_replay_page_with_reveal_holds_the_whole_truth_and_every_seat_and_says_so(
    record: Path, tmp_path: Path
) -> None:
    html = tmp_path / "r.html"
    assert _tabletop("replay", str(record), "--html", str(html), "--reveal")[0] == 0
    text = html.read_text()
    data = _data(text)
    assert [v["name"] for v in data["views"]] == ["the whole truth", "a spectator", "Rebellion", "Empire"]
    assert data["views"][0]["truth"] and "Made with --reveal" in text
    assert data["views"][1]["pictures"] != data["views"][0]["pictures"]
    assert "<script src" not in text and "http://" not in text.replace("http://www.w3.org/2000/svg", "")


def test_replay_html_refuses_to_overwrite_a_file_without_force(record: Path, tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    html.write_text("keep me")
    code, _ = _tabletop("replay", str(record), "--html", str(html), "--seat", "0")
    assert code != 0 and html.read_text() == "keep me"
    assert _tabletop("replay", str(record), "--html", str(html), "--seat", "0", "--force")[0] == 0
    assert html.read_text().startswith("<!DOCTYPE html>")


def test_record_text_cannot_close_the_data_block() -> None:
    block = json_block("d", {"line": "</script><script>alert(1)</script>"})
    assert block.count("</script>") == 1
    inner = block.removeprefix('<script type="application/json" id="d">').removesuffix("</script>")
    assert json.loads(inner) == {"line": "</script><script>alert(1)</script>"}


def test_a_built_replay_page_pictures_each_position_for_its_seat() -> None:
    game = unrest.GAME
    state = game.new_game(seed=1)
    states, ids = [state], []
    for _ in range(4):
        a = game.legal_actions(states[-1])[0]
        ids.append(game.action_id(a))
        states.append(game.step(states[-1], a))
    data = build_replay(game, states, ids, seats=[TRUTH, 0], default=0, source="x")
    assert data.default_view == 1 and data.moves == 4
    assert data.views[1].pictures[2] == game.observe(states[2], 0).svg()
    assert data.views[0].pictures[2] == states[2].svg(reveal=True)
    assert "<!DOCTYPE html>" in replay_page(data)


def test_a_results_page_lists_every_game_with_its_filters_and_replay_links(tmp_path: Path) -> None:
    out = tmp_path / "sim"
    code, _ = _tabletop("simulate", "unbroken", "--games", "2", "--records", "--workers", "1", "--out", str(out))
    assert code == 0
    html = tmp_path / "res.html"
    code, said = _tabletop("report", str(out), "--html", str(html), "--no-plots")
    assert code == 0 and "2 replay pages" in said
    text = html.read_text()
    assert text.count("<tr data-game=") == 2
    assert 'data-key="character"' in text and 'data-key="difficulty"' in text and 'data-key="agent"' in text
    links = re.findall(r'href="(res-replays/[^"]+\.html)"', text)
    assert len(links) == 2 and all((tmp_path / link).is_file() for link in links)


def test_the_docs_hook_draws_each_picture_comment_as_a_valid_inline_svg() -> None:
    spec = importlib.util.spec_from_file_location("pictures_hook", ROOT / "docs" / "_ext" / "pictures.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = 'x\n\n<!-- picture game=unrest seed=5 at=20 seat=truth caption="the truth" -->\n\ny\n'
    html = hook.on_page_markdown(page)
    assert "<!-- picture" not in html and "the truth (drawn by the docs build: seed 5, after 20 actions)" in html
    svg = re.search(r"<svg.*</svg>", html, re.S)
    assert svg is not None and "\n" not in svg.group(0)
    check_svg(svg.group(0), view_box=VIEW_BOX)
    for name in ("unbroken", "runebound_coop", "unrest"):
        assert "<!-- picture game=" + name in (ROOT / "docs" / "how-to-play" / f"{name}.md").read_text()


def _bots_record(tmp_path: Path, seed: int = 3) -> Path:
    from tabletop_core.records import play

    game = unrest.GAME
    _, rec = play(game, game.default_agents(game.new_game(seed=seed)), seed=seed)
    path = tmp_path / "bots.json"
    path.write_text(rec.to_json())
    return path


def test_a_replay_page_of_a_record_of_bots_only_shows_a_spectators_view_and_no_hidden_card(tmp_path: Path) -> None:
    from tabletop_core.records import Record, replay
    from unrest.rules.cards import KINDS
    from unrest.view import card_words

    record = _bots_record(tmp_path)
    html = tmp_path / "r.html"
    assert _tabletop("replay", str(record), "--html", str(html))[0] == 0
    data = _data(html.read_text())
    assert [v["name"] for v in data["views"]] == ["a spectator"]
    assert not data["views"][0]["truth"] and "only what every seat knows" in data["views"][0]["note"]
    game = unrest.GAME
    rec = Record.from_json(record.read_text())
    states = replay(rec, game, states=True)
    actions = [game.action_from_id(states[i], a) for i, a in enumerate(rec.actions)]
    pictures, lines = data["views"][0]["pictures"], data["views"][0]["lines"]
    assert pictures == [game.public_observation(s).svg() for s in states]
    words = [card_words(k) for k in range(KINDS)]
    secrets = 0
    for i, action in enumerate(actions):
        rebels, empire = (game.describe(states[i], action, states[i + 1], p) for p in (0, 1))
        hidden = {w for w in words if any(w in line for line in rebels) and not any(w in line for line in empire)}
        secrets += bool(hidden)
        assert not any(w in line for w in hidden for line in lines[i]), (i, lines[i])
        assert len(lines[i]) == len(empire) and not any(line.startswith("you ") for line in lines[i])
    assert secrets > 10  # the Rebellion drew and planned cards the spectator was not shown


def test_a_terminal_replay_of_a_record_of_bots_only_shows_the_spectators_view_as_the_page_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _tabletop("replay", str(_bots_record(tmp_path)))
    assert code == 0 and capsys.readouterr().err == ""
    assert text.splitlines()[0].startswith("a record of bots only: as a spectator saw it, only what every seat knows")
    assert "--seat N|ROLE" in text.splitlines()[0] and "the whole truth" not in text.splitlines()[1]
