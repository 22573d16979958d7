"""``docs/files.md`` ("Files and safety") cannot go stale: the bounds it quotes are the code's, the errors it names
exist, the entry-point groups, the import flag and the file names are the code's, the refusals it quotes are the
ones the code gives, and every ``tabletop`` command it shows parses (nothing is run)."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import fcntl
import functools
import io
import os
import re
import shlex
from importlib import import_module
from pathlib import Path

import pytest

from tabletop_core import errors
from tabletop_core.agents import specs
from tabletop_core.cli import build_parser
from tabletop_core.errors import StateFormatError, TabletopError
from tabletop_core.registry import ENTRY_POINT_GROUP, installed_game
from tabletop_core.serialize import MAX_DEPTH
from tabletop_core.simulation import Simulation, run, runner
from tabletop_core.simulation.runner import FolderLockedError

PAGE = Path(__file__).resolve().parents[2] / "docs" / "files.md"
TEXT = PAGE.read_text(encoding="utf-8")

#: A row of the bounds table: | what | `module.CONSTANT` | value |
BOUND_ROW = re.compile(
    r"^\|[^|\n]*\|\s*`(?P<module>tabletop_core(?:\.\w+)+)\.(?P<name>[A-Z][A-Z0-9_]*)`\s*\|\s*(?P<value>[\d,]+)"
)
#: A row of the errors table: | `Name` (`module`...) | ... |
ERROR_ROW = re.compile(r"^\|\s*`(?P<name>\w+Error)`\s*\(`(?P<module>tabletop_core(?:\.\w+)*)`", re.M)
#: What separates simple commands in a shell line.
SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")"}
REDIRECTS = {">", ">>", "<", "2>", "&>"}


def _bounds() -> list[tuple[str, str, int]]:
    found = []
    for line in TEXT.splitlines():
        m = BOUND_ROW.match(line)
        if m:
            found.append((m["module"], m["name"], int(m["value"].replace(",", ""))))
    return found


def test_the_page_is_in_the_nav() -> None:
    nav = (PAGE.parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s+- Files and safety: files\.md$", nav, re.M)


@pytest.mark.parametrize(("module", "name", "value"), _bounds(), ids=str)
def test_each_bound_quoted_is_the_codes(module: str, name: str, value: int) -> None:
    assert getattr(import_module(module), name) == value, f"docs/files.md quotes {module}.{name} = {value}"


def test_the_bounds_table_is_whole() -> None:
    quoted = {name for _, name, _ in _bounds()}
    assert len(_bounds()) >= 15
    named = set(re.findall(r"\b(MAX_[A-Z_]+)\b", TEXT))
    assert named <= quoted, f"bounds named on the page but not in its table: {sorted(named - quoted)}"


def test_the_sizes_in_quoted_messages_are_the_bounds() -> None:
    values = {value for _, _, value in _bounds()}
    sizes = {int(n) for n in re.findall(r"larger than (\d+) bytes", TEXT)}
    assert sizes, "the page quotes a refusal of a file too large"
    assert sizes <= values
    assert f"past {MAX_DEPTH} at character" in TEXT


def test_each_error_in_the_table_exists_where_the_page_says() -> None:
    rows = {m["name"]: m["module"] for m in ERROR_ROW.finditer(TEXT)}
    assert {"StateFormatError", "ContentError", "OptionError", "FileReadError", "FolderLockedError"} <= set(rows)
    for name, module in rows.items():
        cls = getattr(import_module(module), name, None)
        assert isinstance(cls, type), f"{module} has no {name}"
        assert issubclass(cls, TabletopError), f"{name} is not a TabletopError"
    assert issubclass(TabletopError, ValueError)


def test_each_error_named_exists() -> None:
    tabled = {m["name"] for m in ERROR_ROW.finditer(TEXT)}
    for name in set(re.findall(r"`(\w+Error)`", TEXT)):
        assert name in tabled or hasattr(errors, name) or hasattr(builtins, name), f"no error class {name}"


def test_the_entry_point_groups_are_the_codes() -> None:
    assert f"`{specs.AGENT_ENTRY_POINT_GROUP}`" in TEXT
    assert f"`{ENTRY_POINT_GROUP}`" in TEXT
    groups = set(re.findall(r"`(tabletop\.[a-z_]+)`", TEXT))
    assert groups == {specs.AGENT_ENTRY_POINT_GROUP, ENTRY_POINT_GROUP}


def test_the_agents_named_are_the_installed_ones() -> None:
    for name in specs.BUILTIN_AGENTS:
        assert f"`{name}`" in TEXT
    for name in ("unrest-rebellion", "unrest-empire", "unbroken-heuristic"):
        assert name in specs.installed_agents()


@functools.cache
def _parser() -> argparse.ArgumentParser:
    return build_parser()


def _parses(argv: list[str]) -> str:
    """``""`` when ``tabletop argv`` parses (nothing is run), else what the parser said."""
    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            _parser().parse_args(argv)
    except SystemExit as exc:
        return said.getvalue().strip() or f"exit {exc.code}"
    return ""


def test_the_import_flag_is_honoured_and_refused_where_the_page_says() -> None:
    flag = specs.IMPORT_FLAG
    assert f"`{flag}`" in TEXT
    for argv in (["play", "unrest"], ["simulate", "unrest"], ["analyze", "unrest", "--out", "d"]):
        assert _parses([*argv, flag]) == "", f"tabletop {argv[0]} should take {flag}"
    for argv in (["resume", "save.json"], ["replay", "game.json"]):
        assert "unrecognized arguments" in _parses([*argv, flag]), f"tabletop {argv[0]} should refuse {flag}"


def test_the_refusals_quoted_are_the_codes() -> None:
    with pytest.raises(errors.OptionError) as agent:
        specs.parse_agent_spec("os:system:command=true")
    assert str(agent.value) in TEXT
    with pytest.raises(StateFormatError) as game:
        installed_game("os:system")
    assert str(game.value) in TEXT


def test_the_lock_refusal_quoted_is_the_codes(tmp_path: Path) -> None:
    holder = "pid 31789 on vm since 2026-12-07 05:00:44"
    fd = os.open(tmp_path / runner.LOCK_FILE, os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, f"{holder}\n".encode())
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        sim = Simulation("tabletop_core.testing.kuhn:GAME", (("random", "random"),), 1)
        with pytest.raises(FolderLockedError) as locked:
            run(sim, tmp_path)
    finally:
        os.close(fd)
    said = str(locked.value).replace(str(tmp_path), "slow")
    assert said in TEXT
    assert not (tmp_path / runner.PLAN_FILE).exists(), "a refused run touches nothing"


def test_the_file_names_are_the_codes() -> None:
    for name in (runner.PLAN_FILE, runner.GAMES_FILE, runner.SUMMARY_FILE, runner.LOCK_FILE, runner.CUT_FILE):
        assert f"`DIR/{name}`" in TEXT, name
    assert f"`DIR/{runner.RECORDS_DIR}/`" in TEXT


def _fenced(languages: set[str]) -> list[str]:
    """The lines of the page's fenced blocks in ``languages``."""
    out: list[str] = []
    lang: str | None = None
    for line in TEXT.splitlines():
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            lang = fence[1] if lang is None else None
            continue
        if lang in languages:
            out.append(line)
    return out


def _commands() -> list[str]:
    """Every shell line the page shows: its ``sh`` blocks, and the ``$ `` lines of its output blocks."""
    shown = [line for line in _fenced({"sh"}) if line.strip()]
    shown += [line[2:] for line in _fenced({"text"}) if line.startswith("$ ")]
    return shown


def _tabletop_argvs(line: str) -> list[list[str]]:
    """The arguments of each ``tabletop`` command in one shell line (pipes, lists, subshells, redirects)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    skip = False
    for token in lexer:
        if skip:
            skip = False
        elif token in SEPARATORS:
            commands.append([])
        elif token in REDIRECTS:
            skip = True
        else:
            commands[-1].append(token)
    argvs = []
    for words in commands:
        start = 0
        while start < len(words) and re.fullmatch(r"[A-Z_]+=\S*", words[start]):  # VAR=value before the command
            start += 1
        if words[start:] and words[start] == "tabletop":
            argvs.append(words[start + 1 :])
    return argvs


def test_the_page_shows_commands() -> None:
    argvs = [argv for line in _commands() for argv in _tabletop_argvs(line)]
    assert len(argvs) >= 30
    assert {argv[0] for argv in argvs} >= {"play", "resume", "replay", "simulate", "report", "analyze", "compare"}


@pytest.mark.parametrize("line", _commands())
def test_each_command_shown_parses(line: str) -> None:
    for argv in _tabletop_argvs(line):
        said = _parses(argv)
        assert not said, f"docs/files.md: `tabletop {shlex.join(argv)}` does not parse: {said}"
