"""``tabletop check``: the conformance suite on one game."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from tabletop_core.cli.common import parse_options
from tabletop_core.registry import load_game


def add_parser(sub: Any) -> None:
    """Register the command."""
    check = sub.add_parser("check", help="run the conformance suite on a game")
    check.add_argument("game")
    check.add_argument("--games", type=int, default=50)
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--deep-every", type=int, default=1)
    check.add_argument("--option", action="append", metavar="KEY=VALUE")
    check.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the suite and print its report."""
    from tabletop_core.conformance import check_game

    game = load_game(args.game)
    report = check_game(
        game, games=args.games, seed=args.seed, options=parse_options(args.option or []), deep_every=args.deep_every
    )
    out.write(f"{args.game}: conformance passed: {report}\n")
    return 0
