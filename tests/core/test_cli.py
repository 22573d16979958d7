"""The tabletop command line: every command, and every user error as one line with a non-zero exit."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop_core.cli import build_parser, main

KUHN = "tabletop_core.testing.kuhn:GAME"  # the framework's test game is not an installed title


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must fail: a non-zero exit, one line on stderr, no traceback."""
    try:
        code: object = main(list(argv), io.StringIO())
    except SystemExit as stop:  # argparse's own errors exit from the parser
        code = stop.code
    assert code not in (0, None)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_list_names_the_installed_games() -> None:
    listed = run("list")
    assert all(title in listed for title in ("unbroken", "runebound_coop", "unrest")) and "kuhn" not in listed


def test_demo_plays_and_prints_a_game() -> None:
    text = run("demo", KUHN, "--seed", "3")
    assert "Kuhn poker (seed 3)" in text and "chance: deal" in text and "returns:" in text
    assert "seat 0 (player 0): the bot" in text and "the game is over" in text


def test_the_demo_shows_every_level_of_unbroken_and_why_it_ended() -> None:
    text = run("demo", "unbroken")
    titles = [line for line in text.splitlines() if line.startswith("╭─ Level")]
    levels = [int(t.split()[2]) for t in titles]
    assert levels == sorted(levels) and set(levels) == {1, 2, 3, 4}
    assert "se " in text and "Small Effort" in text  # the key to the abbreviations
    assert any(line.startswith(("You win", "You lose")) for line in text.splitlines())


def test_play_writes_a_record_that_replay_lists_move_by_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played = run("play", "unrest", "--bots", "--seed", "4", "--random", "--record", str(path))
    replayed = run("replay", str(path), "--reveal")
    record = json.loads(path.read_text())["record"]
    moves = [line for line in replayed.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert len(moves) == len(record["actions"])
    assert moves[0].strip().startswith("1. ") and moves[0].strip().endswith("is laid in the row")
    reason = [line for line in played.splitlines() if "wins" in line and line.startswith("The ")]
    assert reason and reason[-1] in replayed


def test_replay_at_shows_the_table_after_that_move(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", "unrest", "--bots", "--seed", "4", "--record", str(path))
    text = run("replay", str(path), "--at", "14", "--reveal")
    assert "after move 14 of" in text and "14. " in text and "Missions:" in text
    assert "Unrest, setup" in run("replay", str(path), "--at", "0", "--reveal")


def test_replay_as_one_seat_hides_what_that_seat_did_not_see(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    run("play", "unrest", "--bots", "--seed", "4", "--record", str(path))
    truth = run("replay", str(path), "--at", "30", "--reveal")
    empire = run("replay", str(path), "--at", "30", "--seat", "1")
    assert "Deck (unordered)" in truth and "Deck (unordered)" not in empire and "as Empire saw it" in empire
    listing = run("replay", str(path), "--reveal").split("after move")[0]
    seen = run("replay", str(path), "--seat", "1")
    hidden_plans = [line for line in listing.splitlines() if "plans" in line and "hidden" in line]
    assert hidden_plans and all("plans a hidden card" not in line for line in hidden_plans)  # the truth names each
    seen_plans = [line for line in seen.split("after move")[0].splitlines() if "plans" in line and "hidden" in line]
    assert len(seen_plans) == len(hidden_plans) and all("plans a hidden card" in line for line in seen_plans)


def test_replay_step_walks_forward_and_back(tmp_path: Path) -> None:
    from tabletop_core.cli import replay as replay_command

    path = tmp_path / "game.json"
    run("play", KUHN, "--bots", "--seed", "2", "--record", str(path))
    typed = iter(["", "", "b", "x", "e", "q"])
    seen: list[str] = []

    def read(prompt: str) -> str:
        seen.append(prompt)
        return next(typed)

    out = io.StringIO()
    args = argparse.Namespace(file=str(path), at=None, step=True, seat=None, game=KUHN, reveal=True)
    assert replay_command.run(args, out, read) == 0
    total = len(json.loads(path.read_text())["record"]["actions"])
    assert seen[:4] == [f"move 0/{total}> ", f"move 1/{total}> ", f"move 2/{total}> ", f"move 1/{total}> "]
    assert seen[-1] == f"move {total}/{total}> " and "b: back" in out.getvalue()


def test_check_runs_the_conformance_suite() -> None:
    text = run("check", KUHN, "--games", "5")
    assert "conformance passed: 5 games," in text and "ConformanceReport" not in text


def test_options_lists_type_default_and_allowed_values() -> None:
    text = run("options", "unrest")
    row = next(line for line in text.splitlines() if "variant" in line)
    assert "text" in row and "standard, capitol" in row and "variant=capitol" in row
    import runebound_coop
    from tabletop_core.cli.options import describe_options

    rows = {row[0]: row for row in describe_options(runebound_coop.GAME)}
    assert rows["enemy_choices"][1:5] == ("text", "evaluate", "evaluate, damage, player", "enemy_choices=damage")
    assert rows["act"][3] == "1, 2" and rows["max_rounds"][2] == "10" and "``" not in rows["enemy_choices"][5]
    assert all(name in run("options", "runebound_coop") for name in rows)


def test_version() -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        sys.stdout, saved = out, sys.stdout
        try:
            main(["--version"], out)
        finally:
            sys.stdout = saved
    assert stop.value.code == 0 and out.getvalue().startswith("tabletop-rules ")


def test_every_argument_has_help_text() -> None:
    # private: argparse lists its subcommands and arguments only through its private fields
    parser = build_parser()
    subs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {"list", "options", "demo", "play", "resume", "replay", "check"} <= set(subs.choices)
    for name, command in subs.choices.items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, f"tabletop {name} {action.dest}: no help text"


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no game named 'no_such_game'" in fails(capsys, "play", "no_such_game")
    assert "unknown option 'ante'" in fails(capsys, "play", KUHN, "--option", "ante=2")


def test_a_bad_seat_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert "no seat 5 in unrest" in fails(capsys, "play", "unrest", "--seat", "5")
    assert "no seat -1" in fails(capsys, "play", "unrest", "--human", "-1")
    assert "names no seat" in fails(capsys, "play", "unrest", "--seat", "dragon")
    assert "agent spec 'genius': not an installed agent" in fails(
        capsys, "play", "unrest", "--seat", "0", "--vs", "genius"
    )
    assert "cannot play seat 0" in fails(capsys, "play", "unrest", "--seat", "1", "--vs", "unrest.bots:EmpireBot")


def test_negative_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "--games: must be a positive whole number, not -3" in fails(capsys, "check", "unrest", "--games", "-3")
    assert "--games: must be a positive whole number, not 0" in fails(capsys, "check", "unrest", "--games", "0")
    assert "--seed" in fails(capsys, "play", "unrest", "--seed", "-1")
    assert "--at" in fails(capsys, "replay", "x.json", "--at", "-2")


def test_missing_and_corrupt_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nothing.json")
    assert "no such file" in fails(capsys, "replay", missing)
    assert "no such file" in fails(capsys, "resume", missing)
    assert "not a regular file (a folder)" in fails(capsys, "replay", str(tmp_path))
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "tabletop-rules/session", "version": 1, "game": "unrest", "seats": ["human"', "utf-8")
    assert "not valid JSON" in fails(capsys, "resume", str(broken))
    broken.write_text('{"format": "something else"}', "utf-8")
    assert "not a saved game or record" in fails(capsys, "replay", str(broken))
    broken.write_bytes(b"\xff\xfe\x00garbage")
    assert "not UTF-8" in fails(capsys, "replay", str(broken))
    record = tmp_path / "record.json"
    run("play", KUHN, "--bots", "--seed", "1", "--record", str(record))
    doc = json.loads(record.read_text())
    doc["record"]["actions"] = [7, 7, 7]
    record.write_text(json.dumps(doc), "utf-8")
    assert "does not apply" in fails(capsys, "replay", str(record), "--game", KUHN)
    session = {"format": "tabletop-rules/session", "version": 1, "game": "unrest", "seats": ["human", "heuristic"]}
    session["record"] = {**doc, "record": {**doc["record"], "game": "unrest", "actions": [99999]}}
    record.write_text(json.dumps(session), "utf-8")
    assert "does not apply" in fails(capsys, "resume", str(record))


def test_replay_at_beyond_the_end_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    run("play", KUHN, "--bots", "--seed", "1", "--record", str(path))
    assert "--at 99: the game has" in fails(capsys, "replay", str(path), "--at", "99", "--game", KUHN, "--reveal")


def test_a_broken_pipe_ends_quietly() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tabletop_core.cli", "demo", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(200)
    proc.stdout.close()  # the reader goes away, as `tabletop demo | head` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert err == ""  # the reader has what it wanted: the command ends quietly


def test_run_game_prints_what_happened_inside_a_step() -> None:
    from tabletop_core.cli import run_game
    from tabletop_core.testing.kuhn import Deal, Kuhn, KuhnState, Move

    class Narrated(Kuhn):
        def describe_transition(self, before: KuhnState, action: Move | Deal, after: KuhnState) -> tuple[str, ...]:
            return (f"history is now {len(after.history)} long",) if isinstance(action, Move) else ()

    out = io.StringIO()
    run_game(Narrated(), None, 1, {}, out)
    assert "-> history is now 1 long" in out.getvalue()
    assert "-> history is now" not in out.getvalue().split("player 0:")[0]  # nothing narrated for the deal
