"""``tabletop play``: one game with the default bots, or with a human seat."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from tabletop_core.agents import RandomAgent
from tabletop_core.cli.common import HumanAgent, parse_options, run_game
from tabletop_core.registry import load_game


def add_parser(sub: Any) -> None:
    """Register the command."""
    play = sub.add_parser("play", help="play one game with the default bots (or as a human)")
    play.add_argument("game")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    play.add_argument("--random", action="store_true", help="seat random agents instead of the game's bots")
    play.add_argument("--human", type=int, metavar="SEAT", help="take this seat yourself (type ? for moves)")
    play.add_argument("--record", metavar="FILE", help="write the game record here")
    play.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play one game, printed; optionally write its record."""
    game = load_game(args.game)
    options = parse_options(args.option or [])
    agents: list[Any] | None = None
    if args.random:
        agents = [RandomAgent() for _ in range(game.num_players(game.initial_state(game.make_options(**options))))]
    human = HumanAgent(game, [None], sys.stdin, out) if args.human is not None else None
    _state, record = run_game(game, agents, args.seed, options, out, human=human, human_seat=args.human)
    if args.record:
        Path(args.record).write_text(record.to_json(), encoding="utf-8")
        out.write(f"record written to {args.record}\n")
    return 0
