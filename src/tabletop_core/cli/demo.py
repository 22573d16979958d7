"""``tabletop demo``: bots play a seeded game of every installed title, printed as the whole truth."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import non_negative, run_game
from tabletop_core.registry import available_games, load_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    demo = sub.add_parser("demo", help="bots play a seeded game of every title, printed", description=__doc__)
    demo.add_argument("--seed", type=non_negative, default=2026, help="the seed of every game (default 2026)")
    demo.add_argument("--quiet", action="store_true", help="print only the final tables and why each game ended")
    demo.add_argument("games", nargs="*", help=f"titles to play (default: all of {', '.join(available_games())})")
    demo.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play and print one game of each title, with the game's own bots in every seat."""
    for name in args.games or available_games():
        game = load_game(name)
        start = time.perf_counter()
        run_game(game, None, args.seed, {}, out, verbose=not args.quiet)
        out.write(f"({name}: {time.perf_counter() - start:.2f} s)\n\n")
    return 0
