"""What the command writes never costs a file the user kept: ``save FILE`` at the table writes over only a saved
game, ``tabletop analyze --out`` replaces an earlier study only with ``--force``, a log is never written through a
symbolic link or into a pipe, and a failed write or load names its file. The advice printed after a save is a
command that works.
"""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path

import pytest
from rich.console import Console

from tabletop_core.cli import main, os_error_line
from tabletop_core.cli.table import HumanTable
from tabletop_core.errors import StateFormatError
from tabletop_core.files import AppendLog, FileWriteError, atomic_write_text
from tabletop_core.records import Record
from tabletop_core.testing.kuhn import GAME as KUHN_GAME

KUHN = "tabletop_core.testing.kuhn:GAME"
#: A bot named by its module path: it plays only with --allow-import-agent on the command line.
IMPORTED_BOT = "tabletop_core.agents:RandomAgent"


def _play(monkeypatch: pytest.MonkeyPatch, lines: str, *argv: str) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    out = io.StringIO()
    code = main(list(argv), out)
    return code, out.getvalue()


def _unrest(monkeypatch: pytest.MonkeyPatch, lines: str, *extra: str) -> tuple[int, str]:
    """A game of Unrest in seat 0, saving to ``game.json``, the person typing ``lines``."""
    return _play(monkeypatch, lines, "play", "unrest", "--seed", "2", "--seat", "0", "--save-to", "game.json", *extra)


# ----- save FILE at the table -----------------------------------------------------------------------------------


def test_save_refuses_to_write_over_a_file_that_is_not_a_saved_game_and_play_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    readme = tmp_path / "README.md"
    readme.write_text("# my notes\n")
    code, text = _unrest(monkeypatch, "save README.md\n1\nquit\n")
    assert readme.read_text() == "# my notes\n"
    assert "cannot save to README.md: a file is there that is not a saved game" in text
    assert "game saved to README.md" not in text
    assert code == 0 and "stopped: game saved to game.json" in text  # the game went on, and quit saved it
    saved = json.loads((tmp_path / "game.json").read_text())
    assert len(saved["record"]["record"]["actions"]) > 0


def test_save_refuses_to_write_over_a_game_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert _play(monkeypatch, "", "play", KUHN, "--bots", "--record", "kept.json")[0] == 0
    before = (tmp_path / "kept.json").read_bytes()
    _code, text = _unrest(monkeypatch, "save kept.json\nquit\n")
    assert "cannot save to kept.json: a game record is there, not a saved game" in text
    assert (tmp_path / "kept.json").read_bytes() == before


def test_save_refuses_the_file_the_record_goes_to(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    _code, text = _unrest(monkeypatch, "save end.json\nquit\n", "--record", "end.json")
    assert "cannot save to end.json: the game's record is written there when the game ends" in text
    assert not (tmp_path / "end.json").exists()


def test_save_refuses_a_symbolic_link(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("kept\n")
    (tmp_path / "link.json").symlink_to("notes.txt")
    _code, text = _unrest(monkeypatch, "save link.json\nquit\n")
    assert "cannot save to link.json: it is a symbolic link" in text
    assert (tmp_path / "link.json").is_symlink() and (tmp_path / "notes.txt").read_text() == "kept\n"


def test_save_writes_over_an_earlier_saved_game_and_its_own_save_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    _play(monkeypatch, "quit\n", "play", "unrest", "--seed", "9", "--seat", "0", "--save-to", "earlier.json")
    code, text = _unrest(monkeypatch, "save earlier.json\nsave\nsave game.json\nquit\n")
    assert code == 0 and "cannot save" not in text
    assert "game saved to earlier.json; go on with: tabletop resume earlier.json" in text
    assert text.count("game saved to game.json; go on with: tabletop resume game.json") == 3
    assert json.loads((tmp_path / "earlier.json").read_text())["record"]["record"]["seed"] == 2


# ----- the advice after a save, and what resume does with the file -----------------------------------------------


def test_a_game_with_an_imported_bot_says_it_cannot_be_resumed_and_resume_agrees(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = ("play", KUHN, "--seat", "0", "--vs", IMPORTED_BOT, "--allow-import-agent", "--save-to", "k.json")
    code, text = _play(monkeypatch, "save\nquit\n", *argv)
    assert code == 0
    assert "go on with: tabletop resume" not in text
    assert (
        f"game saved to k.json; it cannot be resumed: its bots (player 1's '{IMPORTED_BOT}') were imported by module "
        "path with --allow-import-agent, which tabletop resume never does for what a file names" in text
    )
    # and indeed: resume refuses the file, which reaches no importer
    assert main(["resume", "k.json"], io.StringIO()) == 2
    said = capsys.readouterr().err
    assert "k.json" in said and "--allow-import-agent" in said and "never from a file" in said


def test_a_game_with_installed_bots_gives_the_resume_command(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    _code, text = _play(monkeypatch, "quit\n", "play", KUHN, "--seat", "0", "--vs", "random", "--save-to", "k.json")
    assert "stopped: game saved to k.json; go on with: tabletop resume k.json" in text


# ----- a saved game that does not load names its file -------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "seats", "actions", "problem"),
    [
        ({"nonsense": 1}, ("human", "random"), (), "the saved options are invalid"),
        ({}, ("human", "random", "random"), (), "3 seats saved for a game of 2 players"),
        ({}, ("human", "random"), (999,), "saved action 0 (id 999) does not apply"),
    ],
)
def test_a_saved_game_that_does_not_load_names_its_file(
    options: dict[str, object], seats: tuple[str, ...], actions: tuple[int, ...], problem: str
) -> None:
    record = Record("kuhn", options, 0, actions, None)
    console = Console(file=io.StringIO())
    with pytest.raises(StateFormatError) as refused:
        HumanTable(KUHN_GAME, KUHN, record, seats, console, save_to="new.json", source="old.json")
    assert str(refused.value).startswith(f"old.json: {problem}")


def _save_whose_move_does_not_apply(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``k.json`` in ``tmp_path`` (the working folder from now on): a saved game whose first move is no move."""
    monkeypatch.chdir(tmp_path)
    _play(monkeypatch, "quit\n", "play", KUHN, "--seat", "0", "--vs", "random", "--save-to", "k.json")
    doc = json.loads((tmp_path / "k.json").read_text())
    doc["record"]["record"]["actions"] = [999]
    (tmp_path / "k.json").write_text(json.dumps(doc))


def test_resume_of_a_saved_game_whose_moves_do_not_apply_names_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _save_whose_move_does_not_apply(monkeypatch, tmp_path)
    assert main(["resume", "k.json"], io.StringIO()) == 2
    assert capsys.readouterr().err.startswith("tabletop: k.json: saved action 0 (id 999) does not apply")


def test_resume_to_another_file_names_the_file_it_read_when_the_save_is_wrong(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _save_whose_move_does_not_apply(monkeypatch, tmp_path)
    assert main(["resume", "k.json", "--save-to", "elsewhere.json"], io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.startswith("tabletop: k.json: saved action 0 (id 999) does not apply"), err
    assert not (tmp_path / "elsewhere.json").exists()


# ----- tabletop analyze --out ------------------------------------------------------------------------------------


def test_analyze_refuses_to_replace_an_earlier_study_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "study"
    argv = ["analyze", KUHN, "--agents", "random", "--games=4", "--sections", "seats", f"--out={out}", "--quiet"]
    assert main(argv) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main([*argv, "--seed", "5"]) == 2
    err = capsys.readouterr().err
    assert f"--out {out}: holds an earlier study (analysis.json" in err and "--force" in err
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # not a byte of the earlier study lost
    assert main([*argv, "--seed", "5", "--force"]) == 0
    assert json.loads((out / "analysis.json").read_text())["study"]["seed"] == 5


def test_analyze_refuses_an_out_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "study").write_text("kept\n")
    assert main(["analyze", KUHN, "--agents", "random", "--games=4", f"--out={tmp_path / 'study'}"]) == 2
    assert "not a folder" in capsys.readouterr().err and (tmp_path / "study").read_text() == "kept\n"


# ----- the append log and failed writes ------------------------------------------------------------------------


def test_the_append_log_refuses_a_symbolic_link_and_leaves_its_target_alone(tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("kept\n")
    link = tmp_path / "games.jsonl"
    link.symlink_to(target)
    with pytest.raises(FileWriteError) as refused:
        AppendLog(link)
    assert str(refused.value).startswith(f"{link}: a symbolic link")
    assert target.read_text() == "kept\n"


def test_the_append_log_refuses_a_dangling_symbolic_link_and_creates_nothing(tmp_path: Path) -> None:
    link = tmp_path / "games.jsonl"
    link.symlink_to(tmp_path / "made-through-the-link.txt")
    with pytest.raises(FileWriteError, match="symbolic link"):
        AppendLog(link)
    assert not (tmp_path / "made-through-the-link.txt").exists()


def test_the_append_log_refuses_a_named_pipe_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "games.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(FileWriteError) as refused:
        AppendLog(pipe)  # no reader: without the check the open fails untyped, with one it would swallow lines
    assert str(refused.value) == f"{pipe}: not a regular file (a named pipe): a log is not written to it"
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with pytest.raises(FileWriteError, match="named pipe"):
            AppendLog(pipe)
    finally:
        os.close(reader)


def test_the_append_log_refuses_a_folder(tmp_path: Path) -> None:
    with pytest.raises(FileWriteError, match="a folder"):
        AppendLog(tmp_path)


def test_the_append_log_still_appends_to_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("one\n")
    with AppendLog(path) as log:
        log.write_line("two")
    assert path.read_text() == "one\ntwo\n"


def test_a_failed_append_names_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games.jsonl"

    def full(_fd: int, _data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with AppendLog(path) as log:
        monkeypatch.setattr(os, "write", full)
        with pytest.raises(OSError) as failed:
            log.write_line("x")
        monkeypatch.undo()
    assert failed.value.filename == str(path)


def test_a_failed_atomic_write_names_the_file_and_keeps_the_old_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "save.json"
    path.write_text("old\n")

    def too_large(_fd: int) -> None:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    monkeypatch.setattr(os, "fsync", too_large)
    with pytest.raises(OSError) as failed:
        atomic_write_text(path, "new\n")
    monkeypatch.undo()
    assert failed.value.filename == str(path)
    assert os_error_line(failed.value) == f"{path}: {os.strerror(errno.EFBIG)}"
    assert path.read_text() == "old\n" and os.listdir(tmp_path) == ["save.json"]


def test_the_command_lines_message_of_a_failed_rename_names_both_files() -> None:
    failed = OSError(errno.EXDEV, os.strerror(errno.EXDEV), "a.tmp", None, "b.json")
    assert os_error_line(failed) == f"a.tmp -> b.json: {os.strerror(errno.EXDEV)}"
    assert os_error_line(OSError(errno.EBADF, "Bad file descriptor", 3)) == "3: Bad file descriptor"
