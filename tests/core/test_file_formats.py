"""The JSON Schemas of docs/formats/ describe the files the command line really writes.

Every file checked here is made by the real code in a temporary folder: records and saved games by ``tabletop
play``, results folders (``run.json``, ``games.jsonl``, ``records/``, ``summary.json``) by ``tabletop simulate`` and
``analysis.json`` by ``tabletop analyze``, for each of the three games. Each schema is also shown to refuse a file
with a required key taken away or a version it does not describe, so a schema that accepts anything fails here.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # the test extras install no stubs for jsonschema
import pytest

from tabletop_core.cli import main
from tabletop_core.cli.session import Session
from tabletop_core.records import Record

FORMATS = Path(__file__).resolve().parents[2] / "docs" / "formats"
GAMES = ("unbroken", "runebound_coop", "unrest")
KUHN = "tabletop_core.testing.kuhn:GAME"
#: The schemas of the files this test makes (the bot protocol has its own test, tests/server).
NAMES = ("saved-game", "record", "results-line", "simulation-plan", "summary", "analysis")
#: A miniature study: every section, in a few seconds per game.
TINY_STUDY = [
    "--agents",
    "random",
    "--ladder",
    "random",
    "first",
    "--games=10",
    "--ladder-games=1",
    "--drama-games=1",
    "--drama-points=2",
    "--drama-rollouts=2",
    "--restrict-games=1",
    "--no-traces",
    "--quiet",
]


def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((FORMATS / f"{name}.schema.json").read_text())
    return schema


def _errors(name: str, document: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(_schema(name))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def _assert_valid(name: str, document: Any, where: object) -> None:
    errors = _errors(name, document)
    assert not errors, f"{where} does not match {name}.schema.json: {errors[:5]}"


def _read(path: Path) -> Any:
    return json.loads(path.read_text())


def _run(*argv: str) -> str:
    out = io.StringIO()
    code = main(list(argv), out)
    assert code == 0, out.getvalue()[-2000:]
    return out.getvalue()


def _play_at_the_table(monkeypatch: pytest.MonkeyPatch, lines: str, *argv: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    main(["play", *argv], io.StringIO())  # the end of input stops the game (status 1) after its last line


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A results folder with records of each game, and a league of Unrest that fills every table of summary.json."""
    base = tmp_path_factory.mktemp("results")
    folders = {}
    for game in GAMES:
        folders[game] = base / game
        _run("simulate", game, "--games=3", "--seed=1", "--records", f"--out={folders[game]}", "--quiet")
    folders["league"] = base / "league"
    _run(
        "simulate",
        "unrest",
        "--agent=0=heuristic",
        "--agent=heuristic",
        "--agent=random",
        "--games=10",
        "--seed=2",
        f"--out={folders['league']}",
        "--quiet",
    )
    return folders


@pytest.fixture(scope="module")
def analyses(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``analysis.json`` of a miniature study of each game, and of Kuhn poker (small enough for exact odds)."""
    base = tmp_path_factory.mktemp("analyses")
    out = {}
    for game in (*GAMES, KUHN):
        folder = base / game.split(".")[-1].replace(":", "-")
        _run("analyze", game, *TINY_STUDY, f"--out={folder}")
        out[game] = folder / "analysis.json"
    return out


def test_every_schema_is_a_draft_2020_12_schema_named_for_its_file() -> None:
    for path in sorted(FORMATS.glob("*.schema.json")):
        schema = json.loads(path.read_text())
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", path.name
        assert schema["$id"] == f"tabletop-rules/{path.name}"
    assert {f"{name}.schema.json" for name in NAMES} <= {p.name for p in FORMATS.glob("*.schema.json")}
    index = (FORMATS / "index.md").read_text()
    for path in FORMATS.glob("*.schema.json"):
        assert f"]({path.name})" in index, f"formats/index.md links no {path.name}"


def test_the_saved_game_schema_holds_the_record_schema_unchanged() -> None:
    saved, record = _schema("saved-game"), _schema("record")
    assert saved["$defs"]["record"] == record["$defs"]["record"]
    body = {k: v for k, v in record.items() if k not in ("$schema", "$id", "title", "description", "$defs")}
    assert saved["$defs"]["record_document"] == body


@pytest.mark.parametrize("game", GAMES)
def test_records_and_saved_games_of_every_game_match_their_schemas(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str
) -> None:
    monkeypatch.chdir(tmp_path)
    _run("play", game, "--bots", "--seed=1", "--record=bots.json")
    bots = _read(tmp_path / "bots.json")
    _assert_valid("record", bots, "a record of bots")
    assert "seat" not in bots and bots["record"]["returns"] is not None
    # A person at seat 0 makes two moves and saves: a game in the middle, with the person's seat named.
    _play_at_the_table(monkeypatch, "1\n1\nsave mid.json\n", game, "--seed=2", "--seat=0")
    saved = _read(tmp_path / "mid.json")
    _assert_valid("saved-game", saved, "a saved game")
    _assert_valid("record", saved["record"], "a saved game's record")
    assert saved["seats"][0] == "human" and saved["record"]["record"]["returns"] is None
    assert Session.from_json((tmp_path / "mid.json").read_text()).record.game == game
    # The same person plays to the end with --record: the record keeps the seat.
    _play_at_the_table(monkeypatch, "1\n" * 400, game, "--seed=2", "--seat=0", "--record=seat.json")
    played = _read(tmp_path / "seat.json")
    _assert_valid("record", played, "a record played at the table")
    assert played["seat"] == 0 and played["record"]["returns"] is not None
    assert Record.from_json((tmp_path / "seat.json").read_text()).actions == tuple(played["record"]["actions"])


def test_results_folders_of_every_game_match_their_schemas(results: dict[str, Path]) -> None:
    for name, folder in results.items():
        _assert_valid("simulation-plan", _read(folder / "run.json"), folder / "run.json")
        lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
        assert len(lines) == (20 if name == "league" else 3)
        for number, line in enumerate(lines, 1):
            _assert_valid("results-line", line, f"{folder}/games.jsonl line {number}")
            if name != "league":  # every line names its record, itself a record file
                _assert_valid("record", _read(folder / line["record"]), folder / line["record"])
        _assert_valid("summary", _read(folder / "summary.json"), folder / "summary.json")
    league = _read(results["league"] / "summary.json")
    assert league["head_to_head"] and league["paired"] and league["ratings"]["entries"]  # every table was checked


def test_analysis_json_of_every_game_matches_its_schema(analyses: dict[str, Path]) -> None:
    for game, path in analyses.items():
        result = _read(path)
        _assert_valid("analysis", result, path)
        sections = ("seat_advantage", "length", "branching", "ladder", "luck", "drama", "restricted")
        assert all(s in result for s in sections), game
    kuhn = _read(analyses[KUHN])
    assert kuhn["seat_advantage"]["exact_uniform"]["win_chances"]  # the exact odds' object was checked too


def _without(document: Any, *path: str | int) -> Any:
    broken = copy.deepcopy(document)
    where = broken
    for key in path[:-1]:
        where = where[key]
    del where[path[-1]]
    return broken


def _with(document: Any, value: Any, *path: str | int) -> Any:
    broken = copy.deepcopy(document)
    where = broken
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return broken


def test_each_schema_refuses_a_file_with_a_key_missing_or_a_value_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, results: dict[str, Path], analyses: dict[str, Path]
) -> None:
    monkeypatch.chdir(tmp_path)
    _play_at_the_table(monkeypatch, "1\nsave mid.json\n", "unrest", "--seed=5", "--seat=0")
    folder = results["unrest"]
    good: dict[str, Any] = {
        "saved-game": _read(tmp_path / "mid.json"),
        "record": _read(folder / "records" / "s0-d0.json"),
        "results-line": json.loads((folder / "games.jsonl").read_text().splitlines()[0]),
        "simulation-plan": _read(folder / "run.json"),
        "summary": _read(results["league"] / "summary.json"),
        "analysis": _read(analyses["unrest"]),
    }
    bad: dict[str, list[Any]] = {
        "saved-game": [
            _without(good["saved-game"], "seats"),
            _without(good["saved-game"], "record", "record", "actions"),
            _with(good["saved-game"], 2, "version"),
        ],
        "record": [
            _without(good["record"], "record", "actions"),
            _without(good["record"], "version"),
            _with(good["record"], "tabletop-rules/session", "format"),
            _with(good["record"], [1, -2], "record", "actions"),
            _with(good["record"], 1, "record", "surprise"),
        ],
        "results-line": [
            _without(good["results-line"], "returns"),
            _with(good["results-line"], ["draw", "win"], "outcomes"),
            _with(good["results-line"], None, "returns"),  # no returns, yet outcomes
        ],
        "simulation-plan": [
            _without(good["simulation-plan"], "simulation", "seatings"),
            _with(good["simulation-plan"], 0, "version"),
        ],
        "summary": [
            _without(good["summary"], "agents"),
            _without(good["summary"], "ratings", "entries", 0, "elo"),
            _with(good["summary"], "fair", "utility"),
        ],
        "analysis": [
            _without(good["analysis"], "study"),
            _without(good["analysis"], "ladder", "ratings"),
            _with(good["analysis"], 2, "version"),
            _with(good["analysis"], "guessed", "length", "actions", "method"),
        ],
    }
    assert set(good) == set(bad) == set(NAMES)
    for name, document in good.items():
        _assert_valid(name, document, f"the good {name}")
        for number, broken in enumerate(bad[name]):
            assert _errors(name, broken), f"{name}.schema.json accepts broken file {number}"
