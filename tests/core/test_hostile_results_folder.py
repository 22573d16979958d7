"""Files that someone else made, read as hostile: a results folder behind ``tabletop report DIR --html``, a
targets file, a study's folder behind ``tabletop analyze --rewrite``, a record behind ``tabletop replay``.

Every path a file names is read only inside its folder (no ``..``, no absolute path, no symbolic link leading
out), only when it is a regular file (a named pipe never stalls the command) and only up to a size bound; a bad
record or plot is skipped with a note that names it, and the page is still written. Every refusal names its file.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tabletop_core.cli import main
from tabletop_core.cli.session import MAX_FILE_BYTES
from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.render.results_page import write_results_page
from tabletop_core.simulation import load_results

#: A simulated game's record is replayed in well under this; a blocked read never returns.
PROMPT = 60.0


def _tabletop(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    try:
        code = main(list(args), out=out)
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, out.getvalue()


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results folder of two recorded games of Unbroken (``records/s0-d0.json``, ``records/s0-d1.json``)."""
    out = tmp_path_factory.mktemp("sim") / "results"
    code, _ = _tabletop("simulate", "unbroken", "--games", "2", "--records", "--workers", "1", "--out", str(out))
    assert code == 0
    return out


@pytest.fixture
def folder(simulated: Path, tmp_path: Path) -> Path:
    """A fresh copy of the results folder, inside ``tmp_path/sent``, for one test to tamper with."""
    copy = tmp_path / "sent" / "results"
    shutil.copytree(simulated, copy, symlinks=True)
    return copy


def _set_records(folder: Path, *records: object) -> None:
    """Point the games' ``"record"`` at ``records`` (one per game, in order)."""
    path = folder / "games.jsonl"
    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    for line, record in zip(lines, records, strict=False):
        line["record"] = record
    path.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))


def _page(folder: Path, out: Path, plots: list[Path] | None = None) -> tuple[list[Path], list[str], str]:
    """Write the results page of ``folder``: the files written, the notes said, the page's text."""
    results = load_results(folder)
    notes: list[str] = []
    written = write_results_page(folder, results.summary(), results.lines, plots or [], out, note=notes.append)
    return written, notes, out.read_text()


def _promptly(work: Callable[[], Any], fifo: Path) -> Any:
    """Run ``work``; if it has not returned within :data:`PROMPT` seconds (blocked opening ``fifo``), free it by
    opening the pipe's other end, and fail."""
    done: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(PROMPT)
    if thread.is_alive():
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        thread.join(PROMPT)
        pytest.fail(f"blocked on the named pipe {fifo}")
    if failed:
        raise failed[0]
    return done[0]


# ----- tabletop report DIR --html -------------------------------------------------------------------------------


def test_a_record_named_with_dotdot_outside_the_results_folder_is_not_read(folder: Path, tmp_path: Path) -> None:
    outside = folder.parent / "outside.json"
    shutil.copy(folder / "records" / "s0-d0.json", outside)
    _set_records(folder, "../outside.json", "records/s0-d1.json")
    written, notes, text = _page(folder, tmp_path / "page.html")
    # the game inside still gets its replay page; the one outside is skipped, and said so
    assert [p.name for p in written[1:]] == ["s0-d1.html"]
    assert "outside.html" not in text and "s0-d1.html" in text
    assert len(notes) == 1 and "../outside.json" in notes[0] and "leads out of" in notes[0]
    assert "could not be read safely" in text and "../outside.json" in text


def test_a_record_named_by_an_absolute_path_is_not_read(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    shutil.copy(folder / "records" / "s0-d0.json", outside)
    _set_records(folder, str(outside), "records/s0-d1.json")
    written, notes, _text = _page(folder, tmp_path / "page.html")
    assert [p.name for p in written[1:]] == ["s0-d1.html"]
    assert len(notes) == 1 and str(outside) in notes[0] and "an absolute path" in notes[0]


def test_a_record_that_is_a_symbolic_link_out_of_the_folder_is_not_read(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.json"
    shutil.move(folder / "records" / "s0-d0.json", outside)
    (folder / "records" / "s0-d0.json").symlink_to(outside)
    written, notes, _text = _page(folder, tmp_path / "page.html")
    assert [p.name for p in written[1:]] == ["s0-d1.html"]
    assert len(notes) == 1 and "s0-d0.json" in notes[0] and "symbolic link leading out" in notes[0]


def test_a_symbolic_link_that_stays_inside_the_folder_is_read(folder: Path, tmp_path: Path) -> None:
    (folder / "records" / "again.json").symlink_to("s0-d0.json")
    _set_records(folder, "records/again.json", "records/s0-d1.json")
    written, notes, _text = _page(folder, tmp_path / "page.html")
    assert notes == [] and [p.name for p in written[1:]] == ["again.html", "s0-d1.html"]


def test_a_record_that_is_a_named_pipe_is_skipped_at_once(folder: Path, tmp_path: Path) -> None:
    pipe = folder / "records" / "s0-d0.json"
    pipe.unlink()
    os.mkfifo(pipe)
    written, notes, _text = _promptly(lambda: _page(folder, tmp_path / "page.html"), pipe)
    assert [p.name for p in written[1:]] == ["s0-d1.html"]
    assert len(notes) == 1 and "s0-d0.json" in notes[0] and "named pipe" in notes[0]


def test_a_record_past_the_size_bound_is_skipped_with_a_note(folder: Path, tmp_path: Path) -> None:
    big = folder / "records" / "s0-d0.json"
    with big.open("r+b") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    written, notes, _text = _page(folder, tmp_path / "page.html")
    assert [p.name for p in written[1:]] == ["s0-d1.html"]
    assert len(notes) == 1 and "s0-d0.json" in notes[0] and f"larger than {MAX_FILE_BYTES} bytes" in notes[0]


def test_a_record_that_does_not_replay_is_skipped_with_a_note_and_the_page_is_written(
    folder: Path, tmp_path: Path
) -> None:
    doc = json.loads((folder / "records" / "s0-d0.json").read_text())
    doc["record"]["actions"] = [10**6]
    (folder / "records" / "s0-d0.json").write_text(json.dumps(doc))
    written, notes, text = _page(folder, tmp_path / "page.html")
    assert [p.name for p in written[1:]] == ["s0-d1.html"] and text.count("<tr data-game=") == 2
    assert len(notes) == 1 and "s0-d0.json" in notes[0] and "does not replay" in notes[0]


def test_the_command_says_each_skipped_record_in_one_line_and_succeeds(
    folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _set_records(folder, "../../../../../../../../etc/passwd", "records/s0-d1.json")
    code, said = _tabletop("report", str(folder), "--html", str(tmp_path / "page.html"), "--no-plots")
    err = capsys.readouterr().err
    assert code == 0 and "and 1 replay pages" in said
    assert "tabletop: record skipped: ../../../../../../../../etc/passwd: leads out of" in err
    assert "Traceback" not in err


def test_a_plot_that_is_a_symbolic_link_out_of_its_folder_is_not_embedded(folder: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG\r\n\x1a\n" + b"the key to the house")
    plots = folder / "plots"
    plots.mkdir()
    (plots / "wins.png").symlink_to(secret)
    _written, notes, text = _page(folder, tmp_path / "page.html", [plots / "wins.png"])
    assert base64.b64encode(secret.read_bytes()).decode() not in text and "data:image/png" not in text
    assert len(notes) == 1 and "wins.png" in notes[0] and "symbolic link leading out" in notes[0]


def test_a_plot_that_is_not_a_png_is_not_embedded(folder: Path, tmp_path: Path) -> None:
    plots = folder / "plots"
    plots.mkdir()
    (plots / "wins.png").write_text("not a picture at all")
    (plots / "good.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 16)
    _written, notes, text = _page(folder, tmp_path / "page.html", [plots / "good.png", plots / "wins.png"])
    assert text.count("data:image/png;base64,") == 1
    assert base64.b64encode(b"not a picture at all").decode() not in text
    assert len(notes) == 1 and "wins.png: not a PNG image" in notes[0]


def test_a_plot_that_is_a_named_pipe_is_skipped_at_once(folder: Path, tmp_path: Path) -> None:
    plots = folder / "plots"
    plots.mkdir()
    os.mkfifo(plots / "wins.png")
    _written, notes, text = _promptly(
        lambda: _page(folder, tmp_path / "page.html", [plots / "wins.png"]), plots / "wins.png"
    )
    assert "data:image/png" not in text
    assert len(notes) == 1 and "wins.png" in notes[0] and "named pipe" in notes[0]


def test_run_json_that_is_a_symbolic_link_out_of_the_folder_is_not_read_by_the_page(
    folder: Path, tmp_path: Path
) -> None:
    results = load_results(folder)  # the plan as the folder held it, before the link
    outside = tmp_path / "run.json"
    run = json.loads((folder / "run.json").read_text())
    run["simulation"]["options"] = {"difficulty": "read-from-outside"}
    outside.write_text(json.dumps(run))
    (folder / "run.json").unlink()
    (folder / "run.json").symlink_to(outside)
    notes: list[str] = []
    out = tmp_path / "page.html"
    write_results_page(folder, results.summary(), results.lines, [], out, note=notes.append)
    assert "read-from-outside" not in out.read_text()
    assert len(notes) == 1 and "run.json" in notes[0] and "symbolic link leading out" in notes[0]


# ----- a targets file, a study's folder, a record to replay ----------------------------------------------------


def test_a_deeply_nested_targets_file_is_a_format_error_naming_the_file(tmp_path: Path) -> None:
    from tabletop_core.design.targets import load_targets

    path = tmp_path / "targets.toml"
    path.write_text('game = "unbroken"\nx = ' + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(OptionError) as refused:
        load_targets(path)
    assert str(path) in str(refused.value) and "nested too deeply" in str(refused.value)


def test_a_targets_file_nested_past_the_bound_is_refused_before_its_values_are_used(tmp_path: Path) -> None:
    from tabletop_core.design.targets import MAX_TARGETS_DEPTH, load_targets

    deep = "[" * (MAX_TARGETS_DEPTH + 1) + "1" + "]" * (MAX_TARGETS_DEPTH + 1)
    path = tmp_path / "targets.toml"
    path.write_text(f'game = "unbroken"\n[grid]\ncharacter = [{deep}]\n')
    with pytest.raises(OptionError) as refused:
        load_targets(path)
    assert str(path) in str(refused.value) and "nested too deeply" in str(refused.value)


def _study_folder(tmp_path: Path) -> Path:
    """A study's folder with a small but real analysis.json and games.jsonl of Kuhn poker."""
    out = tmp_path / "study"
    sizes = ["--games=4", "--sections", "seats", "length"]
    code, _ = _tabletop("analyze", "tabletop_core.testing.kuhn:GAME", "--agents", "random", *sizes, f"--out={out}")
    assert code == 0
    return out


def test_a_study_whose_agents_need_an_import_is_refused_naming_its_analysis_json(tmp_path: Path) -> None:
    from tabletop_core.analysis.report import rewrite_report

    out = _study_folder(tmp_path)
    doc = json.loads((out / "analysis.json").read_text())
    doc["study"]["agents"] = ["os:system"]
    (out / "analysis.json").write_text(json.dumps(doc))
    with pytest.raises(OptionError) as refused:
        rewrite_report(out, game="tabletop_core.testing.kuhn:GAME")
    assert str(refused.value).startswith(f"{out / 'analysis.json'}: ")


def test_a_study_whose_analysis_json_is_not_json_is_refused_naming_it(tmp_path: Path) -> None:
    from tabletop_core.analysis.report import rewrite_report

    out = _study_folder(tmp_path)
    (out / "analysis.json").write_text("{not json")
    with pytest.raises(StateFormatError) as refused:
        rewrite_report(out, game="tabletop_core.testing.kuhn:GAME")
    assert str(refused.value).startswith(f"{out / 'analysis.json'}: ")


def test_a_record_whose_moves_do_not_replay_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert _tabletop("play", "unbroken", "--bots", "--seed", "1", "--record", str(path))[0] == 0
    doc = json.loads(path.read_text())
    doc["record"]["actions"] = [*doc["record"]["actions"][:3], 10**6]
    path.write_text(json.dumps(doc))
    code, said = _tabletop("replay", str(path))
    err = capsys.readouterr().err.strip()
    assert code == 2 and said == ""
    assert err.startswith(f"tabletop: {path}: ") and "\n" not in err
