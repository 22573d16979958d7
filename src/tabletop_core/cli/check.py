"""``tabletop check``: the conformance suite on one game."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from tabletop_core.cli.common import non_negative, parse_options, positive, terminal_progress
from tabletop_core.registry import available_games, load_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    check = sub.add_parser("check", help="run the conformance suite on a game")
    check.add_argument("game", help=f"the game to check ({', '.join(available_games())}, or module:ATTR)")
    check.add_argument("--games", type=positive, default=50, help="how many seeded random games to play (default 50)")
    check.add_argument("--seed", type=non_negative, default=0, help="the first game's seed (default 0)")
    check.add_argument(
        "--deep-every",
        type=positive,
        default=1,
        help="run the slow checks (JSON round trip, every legal action stepped, illegal actions refused) "
        "on every Nth state (default 1: every state)",
    )
    check.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    check.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run the suite and print what it covered."""
    from tabletop_core.conformance import check_game

    game = load_game(args.game)
    options = parse_options(args.option or [])
    with terminal_progress(out, f"checking {args.game}", "games") as progress:
        report = check_game(
            game, games=args.games, seed=args.seed, options=options, deep_every=args.deep_every, progress=progress
        )
    out.write(
        f"{args.game}: conformance passed: {report.games} games, {report.states} states, "
        f"{report.decisions} decisions, {report.chance_nodes} chance nodes, {report.terminal} finished\n"
    )
    return 0
