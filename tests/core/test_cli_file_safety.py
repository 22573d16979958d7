"""The files the ``tabletop`` command reads and writes, attacked as a hostile file or a bad day would: the real
command in a subprocess, real files, real signals and a real file-size limit.

A file never makes the command import or run anything (agents and games it names resolve only against the
installed registries), a failed write never costs the old file, a new game never overwrites one the user did not
name, a stop signal saves the game, readers never change a results folder, one writer holds a folder at a time,
and every refusal is one line on standard error with a non-zero exit, never a traceback or a hang.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pexpect
import pytest

import runebound_coop
import unbroken
import unrest
from tabletop_core.errors import ContentError, OptionError, StateFormatError
from tabletop_core.serialize import from_json, to_json
from tests.playouts import random_moves

KUHN = "tabletop_core.testing.kuhn:GAME"
#: Every command gets this long at most: a hang fails the test instead of stalling the run.
TIMEOUT = 180
#: A refusal comes this fast on a loaded 2-core machine (the interpreter's start is most of it).
QUICK = 30.0

#: A module that leaves a file behind when anything imports it: the proof that nothing did.
PWN = """
import pathlib
pathlib.Path(__file__).with_name("PWNED").write_text("imported")
from tabletop_core.agents import RandomAgent


class Bot(RandomAgent):
    pass


GAME = None


def restrictions(game, options):
    return []
"""

_WARNING = re.compile(r"^\S.*:\d+: \w*Warning: ")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), **extra}


def tabletop(
    *argv: str,
    cwd: Path,
    limit: int | None = None,
    timeout: float = TIMEOUT,
    **env: str,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m tabletop_core.cli ARGV`` in ``cwd`` with no input; ``limit`` caps every file it writes at
    that many bytes (``ulimit -f``; SIGXFSZ ignored, so a write past it fails with EFBIG as on a full disk)."""

    def no_bigger() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "tabletop_core.cli", *argv],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=_env(**env),
        preexec_fn=no_bigger,
    )


def said(stderr: str) -> list[str]:
    """The lines of ``stderr`` without Python's warnings (a stale build of the accelerator warns, for one)."""
    out: list[str] = []
    in_warning = False
    for line in stderr.splitlines():
        if _WARNING.match(line):
            in_warning = True
            continue
        if in_warning and line.startswith("  "):
            continue
        in_warning = False
        if line.strip():
            out.append(line)
    return out


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command said (after a non-zero exit, with no traceback)."""
    assert done.returncode not in (0, None), done.stdout[-2000:]
    lines = said(done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tabletop"), lines
    return lines[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (hidden ones too) with the digest of its bytes."""
    return {str(p.relative_to(folder)): digest(p) for p in sorted(folder.rglob("*")) if p.is_file()}


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _save(cwd: Path, name: str = "save.json", game: str = "unrest", seed: int = 1) -> Path:
    """A game saved at the table: play with no input, and the end of input saves it."""
    done = tabletop("play", game, "--seat", "0", "--seed", str(seed), "--save-to", name, cwd=cwd)
    assert done.returncode == 1 and "input ended: game saved to" in done.stdout, done.stderr
    return cwd / name


def _edit(path: Path, change: Callable[[dict[str, Any]], object], to: Path | None = None) -> Path:
    doc = json.loads(path.read_text())
    change(doc)
    target = to or path
    target.write_text(json.dumps(doc, indent=1))
    return target


# ----- shared inputs, made once -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a saved game (``save.json``), a bots' record (``record.json``) and the results of 200 games
    (``results/``), each made by the command itself."""
    folder = tmp_path_factory.mktemp("made")
    _save(folder)
    done = tabletop("play", "unrest", "--seed", "2", "--random", "--record", "record.json", cwd=folder)
    assert done.returncode == 0, done.stderr
    done = tabletop("simulate", "unbroken", "--agent", "random", "--games", "200", "--out", "results", cwd=folder)
    assert done.returncode == 0, done.stderr
    assert len(lines_of(folder / "results" / "games.jsonl")) == 200
    return folder


def _copy(made: Path, name: str, tmp_path: Path) -> Path:
    source = made / name
    target = tmp_path / name
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        shutil.copyfile(source, target)
    return target


# ----- 1. agents named in a file ----------------------------------------------------------------------------------


def test_resume_never_imports_an_agent_a_save_names(made: Path, tmp_path: Path) -> None:
    (tmp_path / "pwn.py").write_text(PWN)  # importable: `python -m` puts the working folder on sys.path
    pwned = tmp_path / "PWNED"
    save = _copy(made, "save.json", tmp_path)
    for spec in ("os:system:command=id > PWNED", "pwn:Bot", "pwn:Bot:x=1"):

        def seat(doc: dict[str, Any], spec: str = spec) -> None:
            doc["seats"][1] = spec

        _edit(save, seat)
        before = digest(save)
        line = one_line(tabletop("resume", str(save), cwd=tmp_path))
        assert "names no installed agent" in line and "never from a file" in line, line
        assert not pwned.exists(), f"resume imported or ran {spec!r}"
        assert digest(save) == before  # the refused file is left exactly as it was

    # A results folder: a plan naming a module path is read (report) and refused for playing (a rerun).
    results = _copy(made, "results", tmp_path)
    _edit(results / "run.json", lambda doc: doc["simulation"].update(seatings=[["pwn:Bot"]]))
    done = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert done.returncode == 0 and "are not seating 0's ['pwn:Bot']" in done.stderr, done.stderr
    again = tabletop("simulate", "unbroken", "--agent", "random", "--games", "200", "--out", str(results), cwd=tmp_path)
    assert "holds results of another simulation" in one_line(again)
    assert not pwned.exists()

    # An analysis folder's options (analysis.json): its game, agents and restriction hook stay unimported.
    from tabletop_core.analysis.study import Study

    analysis = tmp_path / "analysis"
    analysis.mkdir()
    (analysis / "games.jsonl").write_text("")
    hostile = [
        Study("pwn:GAME", ("random",)),
        Study("unbroken", ("pwn:Bot",), allow_import=True),
        Study("unbroken", ("random",), restrictions="pwn:restrictions"),
    ]
    for study in hostile:
        (analysis / "analysis.json").write_text(json.dumps({"study": study.to_json(), "seconds": 1.0}))
        line = one_line(tabletop("analyze", "unbroken", "--rewrite", "--out", str(analysis), cwd=tmp_path))
        assert "installed" in line or "only when the command line gives it" in line, line
        assert not pwned.exists(), f"analyze --rewrite imported what {study} names"

    # The one way in: a spec typed on the command line, behind the explicit flag.
    refused = tabletop("simulate", "unbroken", "--agent", "pwn:Bot", "--games", "1", "--out", "x", cwd=tmp_path)
    assert "--allow-import-agent" in one_line(refused) and not pwned.exists()
    flagged = tabletop(
        "simulate", "unbroken", "--agent", "pwn:Bot", "--allow-import-agent", "--games", "1", "--out", "y", "--quiet",
        cwd=tmp_path,
    )  # fmt: skip
    assert flagged.returncode == 0, flagged.stderr
    assert pwned.exists()


# ----- 2. games named in a file -----------------------------------------------------------------------------------


def test_replay_never_imports_the_game_a_record_names(made: Path, tmp_path: Path) -> None:
    (tmp_path / "pwn.py").write_text(PWN)
    pwned = tmp_path / "PWNED"
    record = _copy(made, "record.json", tmp_path)
    save = _copy(made, "save.json", tmp_path)
    for name in ("this:GAME", "pwn:GAME", "pwn"):

        def record_game(doc: Any, name: str = name) -> None:
            doc["record"].update(game=name)

        def save_game(doc: Any, name: str = name) -> None:
            doc.update(game=name)

        _edit(record, record_game)
        done = tabletop("replay", str(record), "--reveal", cwd=tmp_path)
        assert f"no installed game named {name!r}" in one_line(done)
        assert "Beautiful is better than ugly" not in done.stdout + done.stderr  # `import this` prints the Zen
        _edit(save, save_game)
        for command in ("replay", "resume"):
            assert f"no installed game named {name!r}" in one_line(tabletop(command, str(save), cwd=tmp_path))
        assert not pwned.exists(), f"a file naming the game {name!r} imported it"
    results = _copy(made, "results", tmp_path)
    _edit(results / "run.json", lambda doc: doc["simulation"].update(game="pwn:GAME"))
    assert "no installed game named 'pwn:GAME'" in one_line(tabletop("report", str(results), cwd=tmp_path))
    assert not pwned.exists()
    # Typed on the command line, a module path is the person's to give (and here it is not a game at all).
    typed = tabletop("replay", str(record), "--game", "pwn:GAME", cwd=tmp_path)
    assert "not a tabletop_core Game" in one_line(typed) and pwned.exists()


# ----- 3. a full disk ---------------------------------------------------------------------------------------------


def test_a_failed_write_on_a_full_disk_leaves_every_old_file_whole(made: Path, tmp_path: Path) -> None:
    spare = tmp_path / "spare"  # the temporary folder a rescue tries last
    spare.mkdir()

    def full(*argv: str, limit: int = 0) -> subprocess.CompletedProcess[str]:
        return tabletop(*argv, cwd=tmp_path, limit=limit, TMPDIR=str(spare))

    # A save: resume with no input saves on the end of input; nothing can be written anywhere.
    save = _copy(made, "save.json", tmp_path)
    before = snapshot(tmp_path)
    done = full("resume", str(save))
    assert done.returncode == 1 and "File too large" in done.stdout, done.stdout[-800:]
    assert "could not be written anywhere" in done.stdout and "the game was not saved" in done.stdout
    assert snapshot(tmp_path) == before  # the old save whole, and no temporary file left anywhere

    # A record, overwritten on purpose (--force), when the game ends.
    record = _copy(made, "record.json", tmp_path)
    before = snapshot(tmp_path)
    done = full("play", "unrest", "--seed", "3", "--random", "--record", str(record), "--force")
    assert done.returncode == 1 and "cannot write the record" in done.stdout, done.stdout[-800:]
    assert snapshot(tmp_path) == before

    # A results folder: run.json (a resumed run rewrites its plan; the lock's holder line still fits), then
    # summary.json (report).
    results = _copy(made, "results", tmp_path)
    holder = len(f"pid {2**22} on {socket.gethostname()} since 2000-01-01 00:00:00\n")
    assert holder < (results / "run.json").stat().st_size
    argv: tuple[str, ...]
    for argv, limit in (
        (("simulate", "unbroken", "--agent", "random", "--games", "201", "--out", str(results), "--quiet"), holder),
        (("report", str(results), "--no-plots"), 0),
    ):
        before = snapshot(tmp_path)
        assert "File too large" in one_line(full(*argv, limit=limit))
        assert snapshot(tmp_path) == before, argv

    # games.jsonl: a game that cannot be appended leaves every line that was there whole.
    games = results / "games.jsonl"
    kept = games.read_bytes()
    done = full(
        "simulate", "unbroken", "--agent", "random", "--games", "201", "--out", str(results), "--quiet",
        limit=len(kept),
    )  # fmt: skip
    assert "File too large" in one_line(done)
    assert games.read_bytes() == kept

    # Plots: summary.json fits under the limit, a PNG does not; the old plots stay.
    assert tabletop("report", str(results), cwd=tmp_path).returncode == 0
    pngs = sorted((results / "plots").glob("*.png"))
    summary = (results / "summary.json").stat().st_size
    limit = 2 * summary + 1024
    assert pngs and all(p.stat().st_size > limit for p in pngs)
    before = snapshot(tmp_path)
    assert "File too large" in one_line(full("report", str(results), limit=limit))
    assert snapshot(tmp_path) == before

    # A replay page, an analysis report and a comparison's export.
    page = tmp_path / "page.html"
    assert tabletop("replay", str(record), "--html", str(page), "--seat", "0", cwd=tmp_path).returncode == 0
    analysis = tmp_path / "analysis"
    study = ("--agents", "random", "--games", "4", "--sections", "seats", "length", "--quiet")
    assert tabletop("analyze", "unbroken", *study, "--out", str(analysis), cwd=tmp_path).returncode == 0
    export = tmp_path / "compare.json"
    variant = ("compare", "unbroken", "--set", "difficulty=hard", "--games", "2")
    assert tabletop(*variant, "--json", str(export), cwd=tmp_path).returncode == 0
    for argv in (
        ("replay", str(record), "--html", str(page), "--seat", "0", "--force"),
        ("analyze", "unbroken", "--rewrite", "--out", str(analysis)),
        (*variant, "--json", str(export), "--force"),
    ):
        before = snapshot(tmp_path)
        assert "File too large" in one_line(full(*argv)), argv
        assert snapshot(tmp_path) == before, argv
    assert not list(spare.iterdir())


# ----- 4. earlier games -------------------------------------------------------------------------------------------


def test_a_new_game_never_overwrites_an_earlier_save_or_record_it_was_not_given(made: Path, tmp_path: Path) -> None:
    earlier = _copy(made, "save.json", tmp_path).rename(tmp_path / "tabletop-unrest-1.json")
    _edit(earlier, lambda doc: doc["seats"].__setitem__(1, "random"))  # an earlier game, not this one's twin
    kept = digest(earlier)
    done = tabletop("play", "unrest", "--seat", "0", "--seed", "1", cwd=tmp_path)
    assert "tabletop-unrest-1.json holds an earlier game: this one saves to tabletop-unrest-1-2.json" in done.stdout
    assert "game saved to tabletop-unrest-1-2.json" in done.stdout
    assert digest(earlier) == kept and (tmp_path / "tabletop-unrest-1-2.json").exists()

    record = _copy(made, "record.json", tmp_path)
    kept_record = digest(record)
    for option in ("--record", "--save-to"):
        done = tabletop("play", "unrest", "--seat", "0", "--seed", "4", option, str(record), cwd=tmp_path)
        assert "the file exists; give --force" in one_line(done) and done.stdout == ""  # refused before play
        assert digest(record) == kept_record
    done = tabletop("play", "unrest", "--seed", "4", "--random", "--record", str(record), cwd=tmp_path)
    assert "the file exists" in one_line(done) and digest(record) == kept_record

    # --force overwrites on purpose: the record, and the default save.
    done = tabletop("play", "unrest", "--seed", "4", "--random", "--record", str(record), "--force", cwd=tmp_path)
    assert done.returncode == 0 and digest(record) != kept_record
    assert json.loads(record.read_text())["record"]["seed"] == 4
    done = tabletop("play", "unrest", "--seat", "0", "--seed", "1", "--force", cwd=tmp_path)
    assert "game saved to tabletop-unrest-1.json" in done.stdout and digest(earlier) != kept


# ----- 5. unwritable outputs ----------------------------------------------------------------------------------------


def spawn(*argv: str, cwd: Path) -> pexpect.spawn[str]:
    env = {**_env(), "TERM": "dumb", "COLUMNS": "120", "NO_COLOR": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "tabletop_core.cli", *argv],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 120),
    )


def plain(text: str | None) -> str:
    """Terminal output as words: no colour codes, lines rejoined (a long line may wrap on the terminal)."""
    return " ".join(_ANSI.sub("", text or "").split())


def _answer_to_the_end(child: pexpect.spawn[str], prompt: str) -> str:
    seen = []
    while child.expect([prompt, pexpect.EOF]) == 0:
        seen.append(child.before or "")
        child.sendline("1")
    seen.append(child.before or "")
    child.close()
    return plain("".join(seen))


def test_an_unwritable_record_is_refused_before_play_and_a_late_failure_saves_to_a_free_name(
    tmp_path: Path,
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    for path, why in (
        ("missing/game.json", "the folder missing does not exist"),
        ("a-file/game.json", "the folder a-file does not exist"),
        (".", "is a folder; name a file"),
    ):
        done = tabletop("play", "unrest", "--seed", "1", "--random", "--record", path, cwd=tmp_path)
        assert why in one_line(done) and done.stdout == ""  # refused before the first move
    if os.geteuid() != 0:  # root writes into a read-only folder anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        done = tabletop("play", "unrest", "--seed", "1", "--random", "--record", "locked/game.json", cwd=tmp_path)
        assert "is not writable" in one_line(done)

    # The folder goes away during the game: the record, and a save, go to a free name here, and it says where.
    (tmp_path / "rec.json").write_text("an earlier record")
    (tmp_path / "sub").mkdir()
    child = spawn("play", KUHN, "--seat", "0", "--seed", "1", "--record", "sub/rec.json", cwd=tmp_path)
    child.expect("player 0> ")
    (tmp_path / "sub").rmdir()
    here = tmp_path.resolve()
    child.sendline("1")
    out = _answer_to_the_end(child, "player 0> ")
    assert child.exitstatus == 0 and "Traceback" not in out
    assert "cannot write the record to sub/rec.json" in out
    assert f"the record written to {here / 'rec-2.json'} instead" in out
    assert (tmp_path / "rec.json").read_text() == "an earlier record"
    assert json.loads((tmp_path / "rec-2.json").read_text())["format"] == "tabletop-rules/record"

    (tmp_path / "sub").mkdir()
    child = spawn("play", "unrest", "--seat", "0", "--seed", "1", "--save-to", "sub/save.json", cwd=tmp_path)
    child.expect("Rebellion> ")
    (tmp_path / "sub").rmdir()
    child.sendeof()
    child.expect(pexpect.EOF)
    out = plain(child.before)
    child.close()
    assert f"the game written to {here / 'save.json'} instead" in out
    assert f"input ended: game saved to {here / 'save.json'}" in out
    done = tabletop("replay", "save.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


# ----- 6. stop signals ----------------------------------------------------------------------------------------------


@pytest.mark.usefixtures("sigint_for_children")
def test_sigterm_and_sighup_during_play_save_the_game_as_ctrl_c_does(tmp_path: Path) -> None:
    saves: dict[str, bytes] = {}
    for sig, said_line, status in (
        (signal.SIGINT, "interrupted: game saved to", 130),
        (signal.SIGTERM, "stopped by SIGTERM: game saved to", 128 + signal.SIGTERM),
        (signal.SIGHUP, "stopped by SIGHUP: game saved to", 128 + signal.SIGHUP),
    ):
        name = f"{sig.name}.json"
        child = spawn("play", "unrest", "--seat", "0", "--seed", "5", "--save-to", name, cwd=tmp_path)
        child.expect("Rebellion> ")
        child.sendline("1")  # one decision made, so the save holds the person's move too
        child.expect("Rebellion> ")
        child.kill(sig)
        child.expect(pexpect.EOF)
        out = plain(child.before)
        child.close()
        assert f"{said_line} {name}; go on with: tabletop resume {name}" in out, out[-600:]
        assert child.exitstatus == status and "Traceback" not in out
        saves[sig.name] = (tmp_path / name).read_bytes()
    assert saves["SIGTERM"] == saves["SIGINT"] == saves["SIGHUP"]  # the very save Ctrl-C writes
    resumed = spawn("resume", "SIGTERM.json", cwd=tmp_path)
    resumed.expect("Rebellion> ")
    assert "resumed Unrest after" in plain(resumed.before)
    resumed.kill(signal.SIGTERM)
    resumed.expect(pexpect.EOF)
    resumed.close()
    assert (tmp_path / "SIGTERM.json").read_bytes() == saves["SIGINT"]  # saved again, to the same game


# ----- 7. readers never change a results folder ---------------------------------------------------------------------


def test_report_never_changes_games_jsonl_and_counts_around_a_damaged_line(made: Path, tmp_path: Path) -> None:
    results = _copy(made, "results", tmp_path)
    games = results / "games.jsonl"
    rows = games.read_text().splitlines(keepends=True)
    rows[49] = rows[49][: len(rows[49]) // 2] + "\n"  # line 50 of 200: half a line
    games.write_text("".join(rows))
    kept = games.read_bytes()
    done = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    notes = said(done.stderr)
    assert sum(f"{games}: line 50: " in n for n in notes) == 1 and not any("line 51" in n for n in notes), notes
    assert "1 damaged line(s) skipped; 199 games read around them" in done.stderr
    assert json.loads((results / "summary.json").read_text())["games"] == 199
    assert games.read_bytes() == kept and not (results / "games.jsonl.cut").exists()

    # A last line cut short by a hard stop: report names it and leaves it; only a resumed run cuts it, keeping it.
    tail = rows[-1][:-10]
    games.write_text("".join(rows[:-1]) + tail)
    kept = games.read_bytes()
    done = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert "line 200: cut short" in done.stderr and games.read_bytes() == kept
    assert not (results / "games.jsonl.cut").exists()
    done = tabletop("simulate", "unbroken", "--agent", "random", "--games", "200", "--out", str(results), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (results / "games.jsonl.cut").read_text() == tail + "\n"
    repaired = games.read_bytes()
    assert repaired.startswith(kept[: -len(tail)]) and repaired.endswith(b"\n")
    read = [json.loads(line) for line in repaired.decode().splitlines() if line != rows[49].strip()]
    assert sorted(ln["deal"] for ln in read) == list(range(200))  # the cut game and the damaged one played again


# ----- 8. one writer at a time ----------------------------------------------------------------------------------------


def test_a_second_writer_is_refused_naming_the_holder_and_no_game_counts_twice(made: Path, tmp_path: Path) -> None:
    out = tmp_path / "busy"
    slow = ["simulate", KUHN, "--agent", "mcts:iterations=3000", "--agent", "random", "--out", str(out), "--quiet"]
    first = subprocess.Popen(
        [sys.executable, "-m", "tabletop_core.cli", *slow, "--games", "200"],
        cwd=tmp_path,
        env=_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        lock = out / "writer.lock"
        while not (lock.exists() and lock.read_text().strip()) and time.monotonic() < deadline:
            assert first.poll() is None
            time.sleep(0.05)
        second = tabletop(*slow, "--games", "200", cwd=tmp_path)
        line = one_line(second)
        assert f"is being written by another run (pid {first.pid} on {socket.gethostname()}" in line, line
    finally:
        first.kill()
        first.wait(timeout=60)
    after = tabletop(*slow, "--games", "1", cwd=tmp_path)  # the lock died with its holder, however it ended
    assert after.returncode == 0, after.stderr

    # A game line copied by hand counts once, for report and for a resumed run alike.
    results = _copy(made, "results", tmp_path)
    games = results / "games.jsonl"
    rows = games.read_text().splitlines(keepends=True)
    games.write_text("".join([*rows, rows[3], rows[3]]))
    done = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert "2 repeated line(s) of games already read were not counted again" in done.stderr
    assert json.loads((results / "summary.json").read_text())["games"] == 200
    rerun = ["simulate", "unbroken", "--agent", "random", "--out", str(results)]
    done = tabletop(*rerun, "--games", "200", "--quiet", cwd=tmp_path)
    assert done.returncode == 0 and len(games.read_text().splitlines()) == 202  # nothing played again
    assert json.loads((results / "summary.json").read_text())["games"] == 200

    # A rerun with fewer games, and report, agree on what the folder holds.
    done = tabletop(*rerun, "--games", "150", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    by_simulate = json.loads((results / "summary.json").read_text())
    report = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert json.loads((results / "summary.json").read_text()) == by_simulate
    assert by_simulate["games"] == by_simulate["planned"] == 150
    assert "unbroken: 150 of 150 games" in done.stdout and "unbroken: 150 of 150 games" in report.stdout
    for run in (done, report):
        assert "50 game(s) outside the plan (run.json) kept in the file, not counted" in run.stderr


# ----- 9. pipes, devices, deep nesting --------------------------------------------------------------------------------


def test_pipes_devices_and_deep_nesting_are_refused_quickly_in_one_line(made: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    inner = tmp_path / "inner.json"  # a whole record whose actions nest 100,000 deep
    doc = json.loads((made / "record.json").read_text())
    doc["record"]["actions"] = "DEEP"
    inner.write_text(json.dumps(doc).replace('"DEEP"', "[" * 100_000 + "]" * 100_000))
    cases = [
        (str(fifo), "not a regular file (a named pipe)"),
        ("/dev/zero", "not a regular file (a device)"),
        (str(deep), "nested too deeply"),
        (str(inner), "nested too deeply"),
    ]
    for path, why in cases:
        for command in ("replay", "resume"):
            start = time.monotonic()
            done = tabletop(command, path, cwd=tmp_path, timeout=QUICK * 2)
            took = time.monotonic() - start
            assert why in one_line(done), (command, path)
            assert "RecursionError" not in done.stderr and took < QUICK, (command, path, took)


# ----- 10. numbers ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (("--batch-size", "-3"), "--batch-size: must be a positive whole number, not -3"),
        (("--games", str(10**12)), "more than one results folder holds"),
        (("--workers", "1000", "--games", "2"), "--workers 1000: more workers than the 2 games planned"),
        (("--seed", "-1"), "--seed: must be a whole number of 0 or more, not -1"),
        (("--games", "1" + "0" * 400), "--games: must be a positive whole number, not"),
    ],
)
def test_bad_simulate_numbers_are_refused_up_front(tmp_path: Path, argv: tuple[str, ...], why: str) -> None:
    start = time.monotonic()
    done = tabletop("simulate", "unbroken", "--agent", "random", *argv, "--out", "out", cwd=tmp_path, timeout=QUICK * 2)
    assert why in one_line(done)
    assert time.monotonic() - start < QUICK
    assert not (tmp_path / "out").exists()  # nothing written


class _Hostile:
    """An action whose comparisons raise."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def __eq__(self, other: object) -> bool:
        raise self.error("comparison refused")

    def __hash__(self) -> int:
        raise self.error("hashing refused")


GAMES = {"unbroken": unbroken, "runebound_coop": runebound_coop, "unrest": unrest}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_new_game_refuses_bad_seeds_with_a_typed_error_and_is_legal_never_raises(name: str) -> None:
    game: Any = GAMES[name]
    for bad in ({"seed": -1}, {"seed": 1.5}, {"rng": 5}, {"seed": True}, {"seed": "7"}, {"rng": "x"}):
        with pytest.raises(OptionError, match=r"seed|rng"):
            game.new_game(**bad)
    for state, _, _ in random_moves(game, game.new_game(seed=3), np.random.default_rng(0), chance="settle", limit=40):
        for odd in (_Hostile(TypeError), _Hostile(ValueError), None, 5, "x", object()):
            assert game.is_legal(state, odd) is False


@pytest.mark.parametrize("name", ["runebound_coop", "unbroken", "unrest"])
def test_is_legal_never_raises_whatever_an_action_raises(name: str) -> None:
    game: Any = GAMES[name]
    for state, _, _ in random_moves(game, game.new_game(seed=3), np.random.default_rng(1), chance="settle", limit=40):
        assert game.is_legal(state, _Hostile(RuntimeError)) is False


# ----- 11. results lines of the wrong shape --------------------------------------------------------------------------


def test_report_names_the_file_and_line_of_a_results_line_of_the_wrong_shape(made: Path, tmp_path: Path) -> None:
    results = _copy(made, "results", tmp_path)
    games = results / "games.jsonl"
    rows = games.read_text().splitlines()
    good = json.loads(rows[0])
    bad = {
        10: ({}, "seating must be a seating number"),
        20: ([], "must be a JSON object, not a list"),
        30: ({**good, "seating": 7}, "seating must be a seating number of the plan (0-0), not 7"),
        40: ({**good, "agents": ["random"] * 7, "seats": ["you"] * 7}, "agents ['random', 'random'"),
        50: ({**good, "deal": "12"}, "deal must be a whole number >= 0, not '12'"),
        60: ("a string", "must be a JSON object, not str"),
        70: ({**good, "returns": [1.0] * 7}, "returns must be 1 numbers or null"),
    }
    for number, (line, _) in bad.items():
        rows[number - 1] = json.dumps(line)
    games.write_text("\n".join(rows) + "\n")
    kept = games.read_bytes()
    done = tabletop("report", str(results), "--no-plots", cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    notes = said(done.stderr)
    for number, (_, why) in bad.items():
        named = [n for n in notes if f"{games}: line {number}: " in n]
        assert len(named) == 1 and why in named[0], (number, notes)
    assert f"{len(bad)} damaged line(s) skipped; {200 - len(bad)} games read around them" in done.stderr
    assert len(notes) == len(bad) + 1 and games.read_bytes() == kept


# ----- 12. content packs ----------------------------------------------------------------------------------------------


def test_a_pack_of_deeply_nested_inline_arrays_raises_only_content_error(tmp_path: Path) -> None:
    n = 5_000
    texts = {
        "inline": "x = " + "[" * n + "]" * n + "\n",
        "spread": "x = " + "[\n" * n + "]\n" * n,
        "tables": "x = " + "{ a = " * n + "1" + " }" * n + "\n",
        "mixed": "x = " + "[{ a = " * (n // 2) + "1" + "}]" * (n // 2) + "\n",
        "in an entry": 'extends = "default"\n\n[[monster]]\nid = "kobold"\nhealth = ' + "[" * n + "]" * n + "\n",
        "after strings": 'x = ["]]]", \'[[[\', """\n]]\n"""]\ny = ' + "[" * n + "]" * n + "\n",
    }
    for name, text in texts.items():
        pack = tmp_path / f"{name.replace(' ', '-')}.toml"
        pack.write_text(text)
        try:
            unbroken.load_pack(pack)
        except ContentError as exc:
            assert str(pack) in str(exc) and "nested deeper than" in str(exc), (name, exc)
        except BaseException as exc:  # the point: nothing else may escape
            pytest.fail(f"{name}: {type(exc).__name__} escaped load_pack: {str(exc)[:200]}")
        else:
            pytest.fail(f"{name}: a pack nested {n} deep loaded")
    done = tabletop("compare", "unbroken", "--pack", str(tmp_path / "inline.toml"), "--games", "2", cwd=tmp_path)
    assert "nested deeper than" in one_line(done)


# ----- 13. an Unrest saved state no play reaches ----------------------------------------------------------------------


def _round_three() -> Any:
    """The first decision of round 3 of a seeded game between Unrest's bots."""
    game = unrest.GAME
    from tabletop_core.records import playout

    state = game.new_game(seed=0)
    for step in playout(game, game.default_agents(state), state, seed=0):
        if step.after.round == 3 and step.after.step == "target":
            return step.after
    raise AssertionError("the seeded game ended before round 3")


def _table_passes(state: Any) -> bool:
    from unrest import invariants

    try:
        invariants.validate_state(state)
    except ValueError:
        return False
    return True


def test_an_unrest_save_with_a_changed_move_or_a_dropped_mission_is_refused_by_from_json() -> None:
    from unrest import worlds
    from unrest.actions import NUM_MOVE_CODES

    state = _round_three()
    text = to_json(state)
    assert from_json(unrest.GAME, text) == state

    def mutants() -> list[tuple[str, dict[str, Any], Any]]:
        """Edits of the saved JSON whose table passes every invariant (so only the replayed history can refuse
        them), each with the state it decodes to."""
        out = []
        for i, code in enumerate(state.moves):
            for other in range(NUM_MOVE_CODES):
                changed = attrs.evolve(state, moves=(*state.moves[:i], other, *state.moves[i + 1 :]))
                if other != code and _table_passes(changed):
                    edited = json.loads(text)
                    edited["data"]["moves"][i] = other
                    out.append(("move", edited, changed))
        for j in range(1, len(state.missions)):
            dropped = attrs.evolve(state, missions=state.missions[:j] + state.missions[j + 1 :])
            if _table_passes(dropped):
                edited = json.loads(text)
                del edited["data"]["missions"][j]
                out.append(("mission", edited, dropped))
        return out

    refused: set[str] = set()
    for kind, edited, decoded in mutants():
        assert json.loads(to_json(decoded)) == edited  # the edited file is exactly that state
        try:
            worlds.rebuild_history(unrest.GAME, decoded)
        except ValueError:
            refused.add(kind)
            with pytest.raises(StateFormatError):
                from_json(unrest.GAME, json.dumps(edited))
        else:  # an edit some play reaches is a state like any other
            assert from_json(unrest.GAME, json.dumps(edited)) == decoded
    # Both kinds exist: a changed id in the public log, and a Mission dropped in round 3.
    assert refused == {"move", "mission"}
