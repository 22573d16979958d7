"""A person at the table (``tabletop play --seat``), driven in-process line by line (the pseudo-terminal tests in
``test_cli_terminal.py`` type the same way into a real terminal)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import unrest
from tabletop_core.cli import main
from tabletop_core.cli.moves import match_move
from tabletop_core.records import Record, replay
from tabletop_core.testing.kuhn import GAME as KUHN_GAME

KUHN = "tabletop_core.testing.kuhn:GAME"


def play(monkeypatch: pytest.MonkeyPatch, lines: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def test_moves_by_number_text_or_prefix_and_either_order_of_a_pair() -> None:
    legal = ["target Plenty and Peace", "target Peace and Capitol", "plan 5D hidden", "plan 5D revealed"]
    assert match_move("1", legal).index == 0
    assert match_move("  Target   PEACE and plenty ", legal).index == 0
    assert match_move("plan 5d r", legal).index == 3
    assert "begins 2 moves" in match_move("plan", legal).error
    assert "numbered 1-4" in match_move("9", legal).error
    assert "did you mean: plan 5D hidden" in match_move("plam 5D hiden", legal).error
    assert "did you mean: undo" in match_move("udno", legal, commands=("undo", "save")).error
    assert match_move("revealed", legal).index == 3 and match_move("5d hidden", legal).index == 2
    assert "no move reads 'peace'" in match_move("peace", legal).error  # two moves have it: no guess


def test_the_seat_reads_numbers_and_plays_to_the_end(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, text = play(monkeypatch, "?\nraise\n2\n2\n2\n", "play", KUHN, "--seed", "1", "--seat", "0")
    assert code == 0
    assert " 1 pass" in text and " 2 bet" in text and "no move reads 'raise'" in text
    assert "the end, as player 0 sees it" in text and "returns: player 0" in text
    assert "undo" in text and "rules" in text  # the help lists the commands


def test_a_human_seat_sees_no_hidden_card(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Playing Kuhn as player 1, nothing shows the deal or player 0's card, not even the final table."""
    monkeypatch.chdir(tmp_path)
    _code, text = play(
        monkeypatch, "bet\nbet\nbet\n", "play", KUHN, "--seed", "1", "--human", "1", "--record", "game.json"
    )
    saved = json.loads((tmp_path / "game.json").read_text())
    state = replay(Record.from_json(json.dumps(saved)), KUHN_GAME)
    assert "deal " not in text and "chance acts (2 times)" in text and "player 0 acts" in text
    assert f"holds {'JQK'[state.hands[1]]}" in text
    assert f"holds {'JQK'[state.hands[0]]}" not in text


def test_undo_goes_back_to_the_seats_previous_decision(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    play(monkeypatch, "quit\n", "play", "unrest", "--seed", "5", "--seat", "0", "--save-to", "fresh.json")
    code, text = play(monkeypatch, "undo\n1\nundo\nquit\n", "play", "unrest", "--seed", "5", "--seat", "0")
    assert code == 0 and "nothing to undo" in text
    assert "undone: back to your decision before 'target Plenty and Capitol' (1 move taken back)" in text
    fresh = json.loads((tmp_path / "fresh.json").read_text())["record"]["record"]["actions"]
    undone = json.loads((tmp_path / "tabletop-unrest-5.json").read_text())["record"]["record"]["actions"]
    assert undone == fresh  # back where the first decision was, with the same deal


def test_save_and_resume_go_on_as_the_game_would_have(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    record_a, record_b = tmp_path / "a.json", tmp_path / "b.json"
    moves = "1\n" * 200
    play(monkeypatch, moves, "play", "unrest", "--seed", "7", "--seat", "0", "--record", str(record_a))
    code, text = play(monkeypatch, "1\n1\nsave mid.json\n", "play", "unrest", "--seed", "7", "--seat", "0")
    assert code == 1 and "game saved to mid.json; go on with: tabletop resume mid.json" in text
    assert "input ended" in text
    code, text = play(monkeypatch, moves, "resume", "mid.json", "--record", str(record_b))
    assert code == 0 and "resumed Unrest after" in text
    a, b = json.loads(record_a.read_text())["record"], json.loads(record_b.read_text())["record"]
    assert a["actions"] == b["actions"] and a["returns"] == b["returns"]


def test_forced_moves_are_played_with_a_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    _code, text = play(monkeypatch, "1\n" * 200, "play", "unrest", "--seed", "5", "--seat", "0")
    assert "only one move, played for you: place" in text


def test_rules_show_the_step_and_every_card_in_view(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    _code, text = play(monkeypatch, "rules\nkey\nquit\n", "play", "unrest", "--seed", "5", "--seat", "0")
    assert "the rule now: Target: choose two neighbouring Districts" in text
    saved = json.loads((tmp_path / "tabletop-unrest-5.json").read_text())["record"]
    state = replay(Record.from_json(json.dumps(saved)), unrest.GAME)
    for title, body in unrest.GAME.card_texts(state, 0):
        assert f"{title}: {body}" in text
    assert text.count("[AoI]") >= 2  # the key is printed once at the start and again on request


def test_the_game_ends_saying_why(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for argv in (("unrest", "--seat", "1"), ("unbroken", "--seat", "0"), ("runebound_coop", "--seat", "0")):
        code, text = play(monkeypatch, "1\n" * 400, "play", *argv, "--seed", "2")
        assert code == 0, text[-500:]
        state_line = [line for line in text.splitlines() if line.startswith(("The ", "You "))]
        assert state_line and any(w in state_line[-1] for w in ("win", "lose", "draw")), text[-800:]


def test_the_empires_final_table_keeps_the_rebellions_secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    _code, text = play(monkeypatch, "1\n" * 400, "play", "unrest", "--seat", "1", "--seed", "3")
    final = text.split("the end, as")[1]
    assert "Deck (unordered)" not in text and "Hand:" in final and "cards; deck" in final


def test_a_seat_is_named_by_number_or_role() -> None:
    from tabletop_core.cli.common import seat_index
    from tabletop_core.errors import OptionError
    from tabletop_core.testing.kuhn import Kuhn, KuhnState

    class Roles(Kuhn):
        def seat_name(self, state: KuhnState, player: int) -> str:
            return ("the Dealer", "Elian")[player] if player >= 0 else "chance"

    game = Roles()
    state = game.new_game(seed=1)
    assert [seat_index(game, state, t) for t in ("0", "1", "dealer", "the dealer", "ELIAN", "el")] == [0, 1, 0, 0, 1, 1]
    with pytest.raises(OptionError, match="names no seat"):
        seat_index(game, state, "Corbin")
