"""``tabletop replay``: replay a record file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from tabletop_core.records import Record, replay
from tabletop_core.registry import load_game


def add_parser(sub: Any) -> None:
    """Register the command."""
    rep = sub.add_parser("replay", help="replay a record file and print the final table")
    rep.add_argument("record")
    rep.set_defaults(func=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Replay the record and print the final table and returns."""
    record = Record.from_json(Path(args.record).read_text(encoding="utf-8"))
    game = load_game(record.game)
    state = replay(record, game)
    out.write(game.render(state) + "\n")
    out.write(f"replayed {len(record.actions)} actions of {record.game}; returns {game.returns(state)}\n")
    return 0
