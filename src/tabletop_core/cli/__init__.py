"""The ``tabletop`` command line: one module per command, each with ``add_parser(sub)`` and ``run(args, out)``.

Every user error (an unknown game, a bad seat or option, a missing or broken file, Ctrl-C) ends in one line on
standard error and a non-zero exit status, never a traceback; a closed output pipe ends quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from tabletop_core.errors import TabletopError
from tabletop_core.records import library_version

try:
    from tabletop_core.cli import (
        analyze,
        certify,
        check,
        compare,
        completion,
        demo,
        games,
        helptext,
        options,
        play,
        replay,
        report,
        resume,
        serve,
        simulate,
        tune,
    )
    from tabletop_core.cli.common import run_game
except ModuleNotFoundError as exc:  # a dependency removed from the environment by hand
    if exc.name != "rich":
        raise
    sys.stderr.write("tabletop: the command line needs rich, a dependency of tabletop-rules: pip install rich\n")
    raise SystemExit(2) from None

__all__ = ["build_parser", "main", "os_error_line", "run_game"]

#: The command modules, in the order ``tabletop --help`` lists them.
COMMANDS = (games, options, demo, play, resume, replay, check, simulate, report, analyze, serve, compare, tune, certify)

#: Exit statuses: a user error, a closed output pipe (128 + SIGPIPE), Ctrl-C (128 + SIGINT).
USER_ERROR, BROKEN_PIPE, INTERRUPTED = 2, 141, 130


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (with where to find help), not usage plus the error."""

    def error(self, message: str) -> NoReturn:
        self.exit(USER_ERROR, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tabletop``."""
    parser = _Parser(
        prog="tabletop",
        description="Play, watch, replay, check and simulate tabletop-rules games.",
        epilog="examples:\n  tabletop list\n  tabletop play unbroken --seed 1\n  tabletop demo unrest\n"
        '  tabletop COMMAND --help\n\nshell completion (bash, zsh): eval "$(register-python-argcomplete tabletop)"',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tabletop-rules {library_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(sub)
    helptext.apply(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    stream = out if out is not None else sys.stdout
    try:
        parser = build_parser()
        if argv is None:
            completion.attach(parser)  # the shell asking for completions: answered here, and the process exits
        args = parser.parse_args(argv)
        code: int = args.func(args, stream)
        stream.flush()
    except TabletopError as exc:
        sys.stderr.write(f"tabletop: {exc}\n")
        return USER_ERROR
    except BrokenPipeError:
        # The reader went away (`tabletop replay game.json | head`): it has what it wanted, so end quietly, as
        # other commands at the head of a pipe do, and keep Python's exit flush quiet too.
        if out is None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except KeyboardInterrupt:
        sys.stderr.write("\ntabletop: interrupted\n")
        return INTERRUPTED
    except OSError as exc:
        sys.stderr.write(f"tabletop: {os_error_line(exc)}\n")
        return USER_ERROR
    return code


def os_error_line(exc: OSError) -> str:
    """The one line of a failed read or write: the file (both files of a failed rename or link), then why.

    >>> os_error_line(OSError(28, "No space left on device", "results/games.jsonl"))
    'results/games.jsonl: No space left on device'
    >>> os_error_line(OSError(18, "Invalid cross-device link", "a.tmp", None, "b.json"))
    'a.tmp -> b.json: Invalid cross-device link'
    >>> os_error_line(OSError(27, "File too large"))
    'a file could not be written or read (its name was not given by the system): File too large'
    """
    why = exc.strerror or str(exc)
    first, second = _file_name(exc.filename), _file_name(exc.filename2)
    if first and second:
        return f"{first} -> {second}: {why}"
    if first or second:
        return f"{first or second}: {why}"
    return f"a file could not be written or read (its name was not given by the system): {why}"


def _file_name(name: object) -> str:
    if name is None:
        return ""
    if isinstance(name, str | bytes | os.PathLike):
        return os.fsdecode(name)
    return str(name)  # a file descriptor's number
