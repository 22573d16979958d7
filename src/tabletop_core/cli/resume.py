"""``tabletop resume``: go on with a game saved at the table (by save, quit, the end of input or Ctrl-C)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from tabletop_core.cli.common import HUMAN, make_console
from tabletop_core.cli.session import Session, read_text
from tabletop_core.cli.table import HumanTable
from tabletop_core.errors import StateFormatError
from tabletop_core.registry import load_game


def add_parser(sub: Any) -> None:
    """Register the command."""
    resume = sub.add_parser("resume", help="go on with a saved game", description=__doc__)
    resume.add_argument("file", help="the saved game (written by save, quit or Ctrl-C in tabletop play)")
    resume.add_argument("--save-to", metavar="FILE", help="where to save from now on (default: the same file)")
    resume.add_argument("--record", metavar="FILE", help="write the game record here when the game ends")
    resume.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Load the saved game, replay it to where it stopped, and go on at the table."""
    session = Session.from_json(read_text(args.file), args.file)
    if HUMAN not in session.seats:
        raise StateFormatError(f"{args.file}: a record of bots only, not a saved game; see it with tabletop replay")
    game = load_game(session.game)
    if game.spec.short_name != session.record.game:
        raise StateFormatError(f"{args.file}: the record is of {session.record.game!r}, not {session.game!r}")
    console = make_console(out)
    table = HumanTable(
        game,
        session.game,
        session.record,
        session.seats,
        console,
        save_to=args.save_to or args.file,
        record_to=args.record,
    )
    return table.run()
