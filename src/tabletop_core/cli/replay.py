"""``tabletop replay``: every move of a record or saved game with its description, the table after any move,
a walk forward and back.

A replay shows what the file's own seat saw: a game saved at the table replays as the seat that played it, a record
played from a seat as that seat saw it, and a record of bots only in a game with hidden information as a spectator
saw it (only what every seat knows; ``--seat`` picks one seat's view). The whole truth, hidden cards included,
takes ``--reveal``, and the screen says so.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from tabletop_core.cli.common import (
    Legend,
    check_output,
    make_console,
    non_negative,
    print_lines,
    print_table,
    seat_index,
)
from tabletop_core.cli.session import Session, read_text
from tabletop_core.errors import OptionError, StateFormatError
from tabletop_core.records import replay
from tabletop_core.registry import installed_game, load_game
from tabletop_core.spec import Information

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers
    from tabletop_core.game import Game

S = TypeVar("S")


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    rep = sub.add_parser("replay", help="list, show or step through a recorded or saved game", description=__doc__)
    rep.add_argument("file", help="a record (tabletop play --record) or a saved game (save, Ctrl-C)")
    rep.add_argument("--at", type=non_negative, metavar="N", help="show the table after move N (0: before any move)")
    rep.add_argument("--step", action="store_true", help="walk through the game: Enter or n forward, b back, q quit")
    rep.add_argument(
        "--seat",
        metavar="N|ROLE",
        help="as this seat saw it (default: the seat that played the saved game or that the record was kept for; "
        "a spectator's view for a record of bots only)",
    )
    rep.add_argument("--reveal", action="store_true", help="show the whole truth, every seat's hidden cards included")
    rep.add_argument(
        "--html",
        metavar="OUT.html",
        help="write one self-contained page (no server, no network) with a picture of every position, the move "
        "list, step buttons, a slider, keyboard keys and a seat switch",
    )
    rep.add_argument("--force", action="store_true", help="with --html: overwrite OUT.html if it exists")
    rep.add_argument(
        "--game", help="load the game by this name (default: the installed game the file names; module:ATTR works)"
    )
    rep.set_defaults(func=run)


class Replay:
    """A finished or saved game, move by move, as one seat, a spectator (``public``) or everyone saw it."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        states: tuple[object, ...],
        ids: tuple[int, ...],
        seat: int | None,
        *,
        public: bool = False,
    ) -> None:
        self.game, self.states, self.ids, self.seat, self.public = game, states, ids, seat, public
        self.actions = [game.action_from_id(states[i], a) for i, a in enumerate(ids)]
        #: For a spectator: the seat that knows only the public facts at every step, whose table is shown.
        self.spectator = _public_seat(game, states) if public else None

    def lines(self, i: int) -> tuple[str, ...]:
        """The description of move ``i`` (1-based) for the seat (a spectator: the public description)."""
        before, action, after = self.states[i - 1], self.actions[i - 1], self.states[i]
        if self.public:
            return tuple(self.game.describe_public(before, action, after))
        return tuple(self.game.describe(before, action, after, self.seat))

    def who(self) -> str:
        """'the whole truth', 'as a spectator saw it', or 'as <seat> saw it'."""
        if self.public:
            return "as a spectator saw it"
        if self.seat is None:
            if self.game.spec.information != Information.PERFECT:
                return "the whole truth, every hidden card shown"
            return "the whole truth"
        return f"as {self.game.seat_name(self.states[0], self.seat)} saw it"

    def table(self, console: Console, i: int) -> None:
        """The table after move ``i``."""
        state = self.states[i]
        title = f"after move {i} of {len(self.ids)} ({self.who()})"
        if self.public:
            text = public_table(self.game, state, self.spectator)
            panel = Panel(Text(text), title=Text(title, style="bold"), title_align="left")
            console.print(panel, soft_wrap=False)
        else:
            print_table(console, self.game, state, self.seat, title)

    def legend_seat(self) -> int | None:
        """The seat whose key to the symbols is shown (a spectator's: a seat that knows only the public facts)."""
        return self.spectator if self.public else self.seat


def _public_seat(game: Game[S, Any, Any], states: tuple[S, ...]) -> int | None:
    """A seat whose view of every state is exactly the public information (its own seat number aside), or
    ``None``.

    The game's own test of what is private (:meth:`~tabletop_core.game.Game.private_observation`) decides: a seat
    with nothing private but its seat sees what a spectator sees, so its table shows no hidden card.
    """
    for player in range(game.num_players(states[0])):
        try:
            if all(name == "player" for s in states for name, _value in game.private_observation(s, player)):
                return player
        except NotImplementedError:
            return None
    return None


def public_table(game: Game[S, Any, Any], state: S, seat: int | None) -> str:
    """The table as a spectator sees it, as text: the table of ``seat``, a seat that knows only the public facts
    (see :func:`_public_seat`), else the public observation itself (as the replay page shows it when it cannot
    draw it).

    Raises:
        NotImplementedError: the game does not say what is public.
    """
    if game.spec.information == Information.PERFECT:
        return str(game.render(state, None))
    if seat is not None:
        return str(game.render(state, seat))
    return str(game.public_observation(state))


def run(args: argparse.Namespace, out: TextIO, read_line: Callable[[str], str] = input) -> int:
    """List the moves, or show one table, or step through."""
    session = Session.from_json(read_text(args.file), args.file)
    if args.game:
        game = load_game(args.game)  # typed by the person: a module path is theirs to give
    else:
        try:
            game = installed_game(session.game)
        except StateFormatError as exc:
            raise StateFormatError(f"{args.file}: {exc}; give --game to name the game") from None
    if game.spec.short_name != session.record.game:
        raise OptionError(f"{args.file} is a game of {session.record.game!r}, not of {game.spec.short_name!r}")
    if args.reveal and args.seat is not None:
        raise OptionError("--reveal shows every seat; --seat shows one: give one of them")
    html = getattr(args, "html", None)  # a Namespace built by hand (tests, other front ends) may lack the option
    target = check_output(html, force=getattr(args, "force", False), what="--html") if html else None
    try:
        states: tuple[Any, ...] = replay(session.record, game, states=True)
    except StateFormatError as exc:
        raise StateFormatError(f"{args.file}: {exc}") from None
    console = make_console(out)
    seat = _viewer(game, states[0], session, args)
    if target is not None:
        return _write_html(game, states, session, seat, args, target, console)
    public = seat is None and not args.reveal and game.spec.information != Information.PERFECT
    rep = Replay(game, states, session.record.actions, seat, public=public)
    if public:
        console.print(
            "a record of bots only: as a spectator saw it, only what every seat knows "
            "(--seat N|ROLE: one seat's view; --reveal: the whole truth)"
        )
    elif seat is None and game.spec.information != Information.PERFECT:
        console.print(Text("--reveal: showing the whole truth, every seat's hidden cards included", style="bold red"))
    elif seat is not None and args.seat is None:
        name = game.seat_name(states[0], seat)
        whose = "the seat that played this saved game" if session.seats else "the seat this record was kept for"
        console.print(f"as {name} saw it, {whose} (--reveal: all)")
    legend = Legend()
    shown = rep.legend_seat()
    n = len(rep.ids)
    if args.at is not None:
        if args.at > n:
            raise OptionError(f"--at {args.at}: the game has {n} moves (0-{n})")
        if args.at:
            print_lines(console, rep.lines(args.at), args.at)
        rep.table(console, args.at)
        legend.show(console, game.legend(states[args.at], shown))
        return 0
    if args.step:
        return _walk(rep, console, legend, read_line)
    console.rule(Text(f"{game.spec.long_name}: {n} moves, {rep.who()}", style="bold"))
    for i in range(1, n + 1):
        print_lines(console, rep.lines(i), i)
    rep.table(console, n)
    legend.show(console, game.legend(states[n], shown))
    final = states[n]
    console.print(Text(game.end_reason(final) or f"the game stops here, unfinished, after {n} moves", style="bold"))
    return 0


def _write_html(  # noqa: PLR0917 (a private step of run, given run's locals)
    game: Game[S, Any, Any],
    states: tuple[S, ...],
    session: Session,
    seat: int | None,
    args: argparse.Namespace,
    target: Path,
    console: Console,
) -> int:
    """The replay page: the chosen seat first; every seat, a spectator's view and the whole truth with
    ``--reveal``; every seat of a game without hidden information; only the file's (or ``--seat``'s) seat, or a
    spectator's view of a record of bots only, otherwise."""
    from tabletop_core.files import atomic_write_text
    from tabletop_core.render.pages import replay_page
    from tabletop_core.render.replays import PUBLIC, TRUTH, build_replay

    players = list(range(game.num_players(states[0])))
    if game.spec.information == Information.PERFECT:
        seats, default = players, 0 if seat is None else seat
    elif args.reveal:
        seats, default = [TRUTH, PUBLIC, *players], TRUTH
    elif seat is None:  # a record of bots only: nobody's secrets, the public view
        seats, default = [PUBLIC], PUBLIC
    else:
        seats, default = [seat], seat
    data = build_replay(game, states, session.record.actions, seats=seats, default=default, source=Path(args.file).name)
    atomic_write_text(target, replay_page(data))
    console.print(f"wrote {target} ({len(states) - 1} moves, {len(seats)} views; open it in a browser)")
    return 0


def _viewer(game: Game[S, Any, Any], first: S, session: Session, args: argparse.Namespace) -> int | None:
    """The seat to show: ``--seat``, else the file's own seat; ``None`` with ``--reveal``, for a game without
    hidden information, or for a record of bots only (no seat saved it)."""
    if args.seat is not None:
        return seat_index(game, first, args.seat)
    if args.reveal or game.spec.information == Information.PERFECT:
        return None
    viewer = session.viewer
    if viewer is not None and not 0 <= viewer < game.num_players(first):
        raise StateFormatError(f"{args.file}: seat {viewer} is not a seat of {game.spec.short_name}")
    return viewer


def _walk(rep: Replay, console: Console, legend: Legend, read_line: Callable[[str], str]) -> int:
    n = len(rep.ids)
    i = 0
    console.print("Enter or n: next move; b: back; a number: go to that move; e: the end; q: quit")
    while True:
        if i:
            print_lines(console, rep.lines(i), i)
        rep.table(console, i)
        legend.show(console, rep.game.legend(rep.states[i], rep.legend_seat()))
        if i == n:
            console.print(Text(rep.game.end_reason(rep.states[n]) or "the recorded game stops here", style="bold"))
        while True:
            try:
                word = read_line(f"move {i}/{n}> ").strip().lower()
            except EOFError:
                return 0
            if word in ("", "n", "next"):
                if i < n:
                    i += 1
                    break
                console.print("this is the last move (b: back, q: quit)")
            elif word in ("b", "back", "p"):
                if i > 0:
                    i -= 1
                    break
                console.print("this is the start (Enter: next, q: quit)")
            elif word in ("e", "end"):
                i = n
                break
            elif word.isdigit() and int(word) <= n:
                i = int(word)
                break
            elif word in ("q", "quit"):
                return 0
            else:
                console.print(f"Enter or n: next; b: back; 0-{n}: go to that move; e: the end; q: quit")
