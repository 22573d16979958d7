"""``tabletop resume``: go on with a game saved at the table (by save, quit, the end of input or Ctrl-C)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import HUMAN, check_output, make_console
from tabletop_core.cli.session import Session, read_text
from tabletop_core.cli.table import HumanTable
from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.registry import installed_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    resume = sub.add_parser("resume", help="go on with a saved game", description=__doc__)
    resume.add_argument("file", help="the saved game (written by save, quit or Ctrl-C in tabletop play)")
    resume.add_argument(
        "--save-to",
        metavar="FILE",
        help="where to save from now on (default: the same file; another file: a new one, or --force)",
    )
    resume.add_argument(
        "--record", metavar="FILE", help="write the game record here when the game ends (a new file, or --force)"
    )
    resume.add_argument("--force", action="store_true", help="overwrite the --record and --save-to files")
    resume.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Load the saved game, replay it to where it stopped, and go on at the table.

    Everything the file names resolves against what is installed: the game through the games' registry, each bot
    through the agents' registry (:mod:`tabletop_core.agents.specs`); nothing it says is imported or run. A file
    that fails any check is refused before play and is left exactly as it was.
    """
    session = Session.from_json(read_text(args.file), args.file)
    if HUMAN not in session.seats:
        raise StateFormatError(f"{args.file}: a record of bots only, not a saved game; see it with tabletop replay")
    try:
        game = installed_game(session.game)
    except StateFormatError as exc:
        raise StateFormatError(f"{args.file}: {exc}") from None
    if game.spec.short_name != session.record.game:
        raise StateFormatError(f"{args.file}: the record is of {session.record.game!r}, not {session.game!r}")
    save_to = args.file
    if args.save_to and os.path.abspath(args.save_to) != os.path.abspath(args.file):
        save_to = str(check_output(args.save_to, force=args.force, what="--save-to"))
    else:
        check_output(args.file, force=True, what="the save file")
    if args.record:
        check_output(args.record, force=args.force, what="--record")
        if os.path.abspath(args.record) == os.path.abspath(save_to):
            raise OptionError(f"--record and the save file are the same file ({save_to}); name another")
    console = make_console(out)
    try:
        table = HumanTable(
            game,
            session.game,
            session.record,
            session.seats,
            console,
            save_to=save_to,
            record_to=args.record,
            source=args.file,
        )
    except OptionError as exc:
        raise StateFormatError(f"{args.file}: {exc}") from None
    return table.run()
