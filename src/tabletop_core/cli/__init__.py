"""The ``tabletop`` command line: one module per command, each with ``add_parser(sub)`` and ``run(args, out)``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from tabletop_core.cli import check, demo, games, play, replay, report, simulate
from tabletop_core.cli.common import HumanAgent, run_game
from tabletop_core.errors import TabletopError

__all__ = ["HumanAgent", "build_parser", "main", "run_game"]

#: The command modules, in the order ``tabletop --help`` lists them.
COMMANDS = (games, demo, play, replay, check, simulate, report)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tabletop``."""
    parser = argparse.ArgumentParser(prog="tabletop", description="Play, replay and check tabletop-rules games.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; errors of the library are printed as one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        code: int = args.func(args, stream)
    except TabletopError as exc:
        sys.stderr.write(f"tabletop: {exc}\n")
        return 2
    return code
