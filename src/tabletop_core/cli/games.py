"""``tabletop list``: the installed games."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from tabletop_core.registry import available_games, load_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    sub.add_parser("list", help="list the installed games", description=__doc__).set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print each installed game with its players and information."""
    for name in available_games():
        try:
            game = load_game(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            out.write(f"{name:16} (cannot load: {type(exc).__name__}: {exc})\n")
            continue
        spec = game.spec
        low, high = spec.min_num_players, spec.max_num_players
        players = f"{low} player{'s' * (high != 1)}" if low == high else f"{low}-{high} players"
        information = spec.information.value.replace("_", " ")
        out.write(f"{name:16} {spec.long_name} ({players}, {information})\n")
    return 0
