"""The tabletop command line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tabletop_core.cli import main


def run(*argv: str) -> str:
    out = io.StringIO()
    assert main(list(argv), out) == 0
    return out.getvalue()


KUHN = "tabletop_core.testing.kuhn:GAME"  # the framework's test game is not an installed title


def test_list_names_the_installed_games() -> None:
    listed = run("list")
    assert all(title in listed for title in ("unbroken", "runebound_coop", "unrest")) and "kuhn" not in listed


def test_demo_plays_and_prints_a_game() -> None:
    text = run("demo", KUHN, "--seed", "3")
    assert "=== Kuhn poker (seed 3) ===" in text and "chance: deal" in text and "returns:" in text


def test_play_writes_a_record_that_replay_reads(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    played = run("play", "unrest", "--seed", "4", "--random", "--record", str(path))
    replayed = run("replay", str(path))
    assert played.splitlines()[-2].split("  ")[0] in replayed


def test_check_runs_the_conformance_suite() -> None:
    assert "conformance passed" in run("check", KUHN, "--games", "5")


def test_library_errors_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "no_such_game"], io.StringIO()) == 2
    assert "no game named 'no_such_game'" in capsys.readouterr().err
    assert main(["play", KUHN, "--option", "ante=2"], io.StringIO()) == 2


def test_human_seat_reads_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nraise\nbet\nbet\nbet\n"))
    text = run("play", KUHN, "--seed", "1", "--human", "0")
    assert "pass, bet" in text and "cannot read 'raise'" in text and "returns:" in text


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


def test_a_human_seat_sees_no_hidden_card_in_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playing Kuhn as player 1, the log must not show the deal or player 0's card before the end."""
    from tabletop_core.testing.kuhn import GAME

    monkeypatch.setattr("sys.stdin", io.StringIO("bet\nbet\nbet\n"))
    text = run("play", KUHN, "--seed", "1", "--human", "1")
    before_end = text.split("hands:")[0]  # the final table (whole truth) starts with "hands:"
    assert "deal" not in before_end and "chance: acts" in before_end
    state = GAME.new_game(seed=1)
    assert f"holds {'JQK'[state.hands[1]]}" in before_end  # the human's own card is shown
    assert f"holds {'JQK'[state.hands[0]]}" not in before_end  # player 0's card is not
