"""``tabletop play``: a game at the table, you in one seat and bots in the others (or bots only, printed)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from tabletop_core.cli.common import (
    ALLOW_IMPORT_HELP,
    HUMAN,
    check_output,
    make_agent,
    make_console,
    non_negative,
    parse_options,
    run_game,
    seat_index,
    write_or_rescue,
)
from tabletop_core.cli.table import HumanTable
from tabletop_core.errors import OptionError
from tabletop_core.files import free_name
from tabletop_core.records import Record, options_json
from tabletop_core.registry import available_games, load_game

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers
    from tabletop_core.game import Game

S = TypeVar("S")


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    play = sub.add_parser("play", help="play a game: you in one seat, bots in the others")
    play.add_argument("game", help=f"the game to play ({', '.join(available_games())}, or module:ATTR)")
    play.add_argument(
        "--seat",
        metavar="N|ROLE",
        help="take this seat yourself: its number or its role (e.g. Rebellion, Elian; default: seat 0, the only "
        "seat of a one-player game)",
    )
    play.add_argument(
        "--bots",
        action="store_true",
        help="bots play every seat and the game is printed (what happens without a terminal to play from)",
    )
    play.add_argument("--human", dest="seat", metavar="N", help=argparse.SUPPRESS)  # the old spelling of --seat
    play.add_argument(
        "--vs",
        action="append",
        metavar="SPEC",
        help="the bots in the other seats: random, first, heuristic (the game's own bot; the default), "
        "mcts:iterations=400, ismcts:seconds=1, an installed agent (unrest-empire, ...) or, with "
        "--allow-import-agent, module:Class; once for every other seat, or once per other seat in seat order",
    )
    play.add_argument("--allow-import-agent", action="store_true", help=ALLOW_IMPORT_HELP)
    play.add_argument("--random", action="store_true", help="the same as --vs random")
    play.add_argument("--seed", type=non_negative, default=0, help="the seed of chance and the bots (default 0)")
    play.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable; see options)")
    play.add_argument(
        "--record", metavar="FILE", help="write the game record here when the game ends (a new file, or --force)"
    )
    play.add_argument(
        "--save-to",
        metavar="FILE",
        help="where save, quit, Ctrl-C and a stop signal save the game (a new file, or --force; default: "
        "tabletop-GAME-SEED.json here, or the first free tabletop-GAME-SEED-N.json)",
    )
    play.add_argument(
        "--force", action="store_true", help="overwrite the --record and --save-to files (or the default save)"
    )
    play.set_defaults(func=run)


def seat_specs(
    game: Game[S, Any, Any], state: S, seat: int | None, vs: list[str], *, allow_import: bool = False
) -> list[str]:
    """One spec per seat: ``human`` for ``seat``, the ``--vs`` specs (or ``heuristic``) for the others."""
    n = game.num_players(state)
    others = [p for p in range(n) if p != seat]
    if not vs:
        vs = ["heuristic"]
    if len(vs) == 1:
        vs = vs * len(others)
    if len(vs) != len(others):
        raise OptionError(f"--vs: give one bot for every other seat or one per seat ({len(others)}), not {len(vs)}")
    specs = [HUMAN] * n
    for p, spec in zip(others, vs, strict=True):
        make_agent(spec, game, state, p, allow_import=allow_import)  # an unknown spec fails here, before play
        specs[p] = spec
    return specs


def _seat(game: Game[S, Any, Any], state: S, args: argparse.Namespace, out: TextIO) -> int | None:
    """The person's seat: ``--seat``, else seat 0 when there is a terminal to play from; ``None`` for bots only.

    Without ``--seat``, standard input that is not a terminal (a pipe, a file, no input at all) means nobody is
    there to answer, so bots play every seat, as ``--bots`` asks.

    Raises:
        OptionError: ``--seat`` and ``--bots`` together, or a seat the game does not have.
    """
    if args.bots:
        if args.seat is not None:
            raise OptionError("--seat and --bots: give one (--bots means bots in every seat)")
        return None
    if args.seat is not None:
        return seat_index(game, state, args.seat)
    if not sys.stdin.isatty():
        return None
    n = game.num_players(state)
    if n > 1:
        names = ", ".join(f"{p} {game.seat_name(state, p)}" for p in range(n))
        out.write(f"you play seat 0 ({game.seat_name(state, 0)}); --seat picks another ({names})\n")
    return 0


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Play one game; with a seat, at the table; optionally write its record."""
    game = load_game(args.game)
    options = parse_options(args.option or [])
    opts = game.make_options(**options)
    state = game.initial_state(opts)
    seat = _seat(game, state, args, out)
    vs = list(args.vs or []) + (["random"] if args.random else [])
    allow = bool(args.allow_import_agent)
    specs = seat_specs(game, state, seat, vs, allow_import=allow)
    # Every output is checked before the first move: a game is never played into a path that cannot take it.
    if args.record:
        check_output(args.record, force=args.force, what="--record")
    if seat is None:
        agents = [make_agent(spec, game, state, p, allow_import=allow) for p, spec in enumerate(specs)]
        _final, record = run_game(game, agents, args.seed, options, out)
        if args.record:
            where = write_or_rescue(args.record, record.to_json(), lambda line: out.write(line + "\n"), "the record")
            if where == args.record:
                out.write(f"record written to {args.record}\n")
            elif not where:
                return 1
        return 0
    record = Record(game.spec.short_name, options_json(opts), args.seed, (), None)
    console = make_console(out)
    if args.save_to:
        save_to = str(check_output(args.save_to, force=args.force, what="--save-to"))
    else:
        default = f"tabletop-{game.spec.short_name}-{args.seed}.json"
        check_output(default, force=True, what="the save file")
        save_to = default if args.force else str(free_name(default))
        if save_to != default:
            console.print(f"{default} holds an earlier game: this one saves to {save_to}")
    if args.record and os.path.abspath(args.record) == os.path.abspath(save_to):
        raise OptionError(f"--record and the save file are the same file ({save_to}); name another")
    table = HumanTable(
        game, args.game, record, specs, console, save_to=save_to, record_to=args.record, allow_import=allow
    )
    return table.run()
