"""The ``tabletop`` command line: list, demo, play, replay and check the installed games."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from tabletop_core.agents import Agent, RandomAgent, SearchAgent, choose_action
from tabletop_core.chance import sample_outcome
from tabletop_core.errors import TabletopError
from tabletop_core.records import Record, options_json, replay
from tabletop_core.registry import available_games, load_game
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = ["HumanAgent", "main", "run_game"]

DEMO_SKIP = ("kuhn",)


class HumanAgent:
    """Reads a move from a text stream, as ``action_to_str`` writes it; ``?`` lists the legal moves."""

    def __init__(self, game: Any, state_ref: list[Any], stdin: TextIO, stdout: TextIO) -> None:
        self.game, self.state_ref, self.stdin, self.stdout = game, state_ref, stdin, stdout

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """Prompt until a legal move is typed."""
        state = self.state_ref[0]
        player = self.game.current_player(state)
        self.stdout.write(self.game.render(state, player) + "\n")
        while True:
            self.stdout.write(f"player {player}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise TabletopError("input ended before the game did")
            text = line.strip()
            if text in ("?", "help", ""):
                self.stdout.write(", ".join(self.game.action_to_str(state, a) for a in legal_actions) + "\n")
                continue
            try:
                return self.game.parse_action(state, text)
            except TabletopError as exc:
                self.stdout.write(f"{exc}\n")


def run_game(
    game: Any,
    agents: Sequence[Agent | SearchAgent] | None,
    seed: int,
    options: dict[str, Any],
    out: TextIO,
    *,
    verbose: bool = True,
    human: HumanAgent | None = None,
    human_seat: int | None = None,
) -> tuple[Any, Record]:
    """Play one game and print it: each decision and chance outcome, then the final table and returns.

    With a human seated, the log shows only what that seat may know: the table as the human sees it, the human's
    own moves, and "acts" for chance and the other players (whose move strings may name hidden cards); the human's
    own view is rendered before each of its decisions.
    """
    opts = game.make_options(**options)
    state = game.initial_state(opts)
    seats: list[Any] = list(agents) if agents is not None else game.default_agents(state)
    viewer: int | None = None
    if human is not None and human_seat is not None:
        seats[human_seat] = human
        viewer = human_seat
    rng = np.random.default_rng(seed)
    ids: list[int] = []
    name = game.spec.long_name
    out.write(f"=== {name} (seed {seed}) ===\n")
    first_decision = True
    while True:
        player = game.current_player(state)
        if player == TERMINAL or len(ids) >= game.spec.max_game_length:
            break
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
            who = "chance"
        else:
            if first_decision and verbose:
                out.write(game.render(state, viewer) + "\n")
                first_decision = False
            if human is not None:
                human.state_ref[0] = state
            action = choose_action(seats[player], game, state, player, rng)
            who = f"player {player}"
        before = state
        state = game.step(state, action)
        if verbose and viewer is not None and player != viewer:
            out.write(f"  {who:>8}: acts\n")
        elif verbose:
            out.write(f"  {who:>8}: {game.action_to_str(before, action)}\n")
            for line in game.describe_transition(before, action, state):
                out.write(f"  {'':>8}  -> {line}\n")
        ids.append(game.action_id(action))
    returns = tuple(game.returns(state)) if game.is_terminal(state) else None
    out.write(game.render(state) + "\n")
    out.write(f"returns: {returns}  ({len(ids)} actions)\n\n")
    return state, Record(game.spec.short_name, options_json(opts), seed, tuple(ids), returns)


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise TabletopError(f"option {pair!r} must read key=value")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


def _cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    for name in available_games():
        try:
            game = load_game(name)
        except Exception as exc:  # a broken plug-in must not hide the others
            out.write(f"{name:16} (cannot load: {type(exc).__name__}: {exc})\n")
            continue
        spec = game.spec
        players = f"{spec.min_num_players}-{spec.max_num_players}"
        out.write(f"{name:16} {spec.long_name} ({players} players, {spec.information.value})\n")
    return 0


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    names = args.games or [n for n in available_games() if n not in DEMO_SKIP]
    for name in names:
        game = load_game(name)
        start = time.perf_counter()
        run_game(game, None, args.seed, {}, out, verbose=not args.quiet)
        out.write(f"({name}: {time.perf_counter() - start:.2f} s)\n\n")
    return 0


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    game = load_game(args.game)
    options = _parse_options(args.option or [])
    agents: list[Any] | None = None
    if args.random:
        agents = [RandomAgent() for _ in range(game.num_players(game.initial_state(game.make_options(**options))))]
    human = HumanAgent(game, [None], sys.stdin, out) if args.human is not None else None
    _state, record = run_game(game, agents, args.seed, options, out, human=human, human_seat=args.human)
    if args.record:
        Path(args.record).write_text(record.to_json(), encoding="utf-8")
        out.write(f"record written to {args.record}\n")
    return 0


def _cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    record = Record.from_json(Path(args.record).read_text(encoding="utf-8"))
    game = load_game(record.game)
    state = replay(record, game)
    out.write(game.render(state) + "\n")
    out.write(f"replayed {len(record.actions)} actions of {record.game}; returns {game.returns(state)}\n")
    return 0


def _cmd_check(args: argparse.Namespace, out: TextIO) -> int:
    from tabletop_core.conformance import check_game

    game = load_game(args.game)
    report = check_game(
        game, games=args.games, seed=args.seed, options=_parse_options(args.option or []), deep_every=args.deep_every
    )
    out.write(f"{args.game}: conformance passed: {report}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tabletop``."""
    parser = argparse.ArgumentParser(prog="tabletop", description="Play, replay and check tabletop-rules games.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the installed games").set_defaults(func=_cmd_list)
    demo = sub.add_parser("demo", help="bots play a seeded game of every title, printed")
    demo.add_argument("--seed", type=int, default=2026)
    demo.add_argument("--quiet", action="store_true", help="print only the final tables")
    demo.add_argument("games", nargs="*", help="titles to play (default: all but the core's test game)")
    demo.set_defaults(func=_cmd_demo)
    play = sub.add_parser("play", help="play one game with the default bots (or as a human)")
    play.add_argument("game")
    play.add_argument("--seed", type=int, default=0)
    play.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)")
    play.add_argument("--random", action="store_true", help="seat random agents instead of the game's bots")
    play.add_argument("--human", type=int, metavar="SEAT", help="take this seat yourself (type ? for moves)")
    play.add_argument("--record", metavar="FILE", help="write the game record here")
    play.set_defaults(func=_cmd_play)
    rep = sub.add_parser("replay", help="replay a record file and print the final table")
    rep.add_argument("record")
    rep.set_defaults(func=_cmd_replay)
    check = sub.add_parser("check", help="run the conformance suite on a game")
    check.add_argument("game")
    check.add_argument("--games", type=int, default=50)
    check.add_argument("--seed", type=int, default=0)
    check.add_argument("--deep-every", type=int, default=1)
    check.add_argument("--option", action="append", metavar="KEY=VALUE")
    check.set_defaults(func=_cmd_check)
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


if __name__ == "__main__":
    raise SystemExit(main())
