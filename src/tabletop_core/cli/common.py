"""What the ``tabletop`` commands share: seats and bot specs, option parsing, the console, the printed game.

>>> from tabletop_core.testing.kuhn import GAME
>>> state = GAME.new_game(seed=1)
>>> type(make_agent("first", GAME, state, 0)).__name__, seat_index(GAME, state, "1")
('FirstAgent', 1)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeAlias, TypeVar

import numpy as np
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from tabletop_core.agents import Agent, SearchAgent
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.errors import OptionError, TabletopError
from tabletop_core.files import atomic_write_text, free_name
from tabletop_core.records import Record, options_json, playout
from tabletop_core.spec import CHANCE

if TYPE_CHECKING:
    from tabletop_core.cli import _Parser
    from tabletop_core.game import Game

    #: The subparsers action each command's ``add_parser`` adds its parser to (the ``tabletop`` parser's own class).
    Subparsers: TypeAlias = argparse._SubParsersAction[_Parser]

S = TypeVar("S")

__all__ = [
    "ALLOW_IMPORT_HELP",
    "HUMAN",
    "Legend",
    "check_output",
    "make_agent",
    "make_console",
    "non_negative",
    "parse_options",
    "positive",
    "print_lines",
    "print_table",
    "run_game",
    "seat_index",
    "step_rng",
    "terminal_progress",
    "write_or_rescue",
]

#: The seat spec of a person at the table.
HUMAN = "human"

#: The help of ``--allow-import-agent``, the one way a spec may import a class by its module path.
ALLOW_IMPORT_HELP = (
    "let an agent spec given on this command line name a class by its module path (package.module:Class), which "
    "imports that module and runs its code; without it only installed agents are used (built-in names and the "
    "tabletop.agents entry points). A spec read from a file never imports anything"
)


def make_agent(
    spec: str, game: Game[S, Any, Any], state: S, seat: int, *, allow_import: bool = False
) -> Agent | SearchAgent:
    """The bot an agent spec names, for ``seat``: ``random``, ``first``, ``heuristic`` (the game's own bot),
    ``mcts:iterations=400``, ``ismcts:seconds=1``, an agent published in the ``tabletop.agents`` entry-point group,
    or (with ``allow_import``, for a spec typed on the command line only) a ``module:Class`` (see
    :mod:`tabletop_core.agents.specs`, which the simulation reads too).

    Raises:
        OptionError: an unknown bot, parameters its class does not take, or a bot that cannot play ``seat``.
    """
    parsed = parse_agent_spec(spec, allow_import=allow_import)
    seats = parsed.seats()
    if seats is not None and seat not in seats:
        raise OptionError(f"bot {spec!r} cannot play seat {seat}; it plays {sorted(seats)}")
    agent: Agent | SearchAgent = parsed.build(game, state, seat)
    return agent


def seat_index(game: Game[S, Any, Any], state: S, text: str) -> int:
    """The seat ``text`` names: its number, or its role ("Rebellion", "empire", a hero's name; a unique prefix).

    Raises:
        OptionError: a number out of range or a name that names no seat (or several).
    """
    n = game.num_players(state)
    names = [game.seat_name(state, p) for p in range(n)]
    wanted = text.strip().lower()
    if wanted.lstrip("-").isdigit():
        seat = int(wanted)
        if 0 <= seat < n:
            return seat
        raise OptionError(f"no seat {seat} in {game.spec.short_name}: seats are 0-{n - 1} ({', '.join(names)})")
    exact = [p for p, name in enumerate(names) if name.lower() in (wanted, f"the {wanted}")]
    found = exact or [p for p, name in enumerate(names) if name.lower().removeprefix("the ").startswith(wanted)]
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{p} {name}" for p, name in enumerate(names))
    why = "names several seats" if found else "names no seat"
    raise OptionError(f"{text!r} {why} of {game.spec.short_name}; seats: {listed}")


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """Game options from ``KEY=VALUE`` pairs (values read as JSON, else as text).

    Raises:
        TabletopError: a pair without ``=``.
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise TabletopError(f"option {pair!r} must read key=value")
        try:
            options[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[key.strip()] = raw
    return options


def check_output(path: str, *, force: bool, what: str) -> Path:
    """Check, before a game starts, that ``what`` can be written to ``path``, a file the user named.

    Raises:
        OptionError: the path is a folder, its folder is missing or not writable, or (without ``force``) a file is
            already there.
    """
    target = Path(path)
    if target.is_dir():
        raise OptionError(f"{what} {path}: is a folder; name a file")
    folder = target.parent
    if not folder.is_dir():
        raise OptionError(f"{what} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"{what} {path}: the folder {folder} is not writable")
    if os.path.lexists(target) and not force:
        raise OptionError(f"{what} {path}: the file exists; give --force to overwrite it, or another name")
    return target


def write_or_rescue(path: str, text: str, say: Callable[[str], object], what: str) -> str:
    """Write ``text`` to ``path`` atomically (the old file stays whole if the write fails); if that fails, write
    it to a free name in the current folder, then in the temporary folder. Says on ``say`` what happened.

    Returns:
        where it was written, or ``""`` when no write succeeded (every old file is left as it was).
    """
    try:
        atomic_write_text(path, text)
        return path
    except OSError as exc:
        failure = exc.strerror or str(exc)
    say(f"cannot write {what} to {path}: {failure}")
    name = Path(path).name or "tabletop-game.json"
    tried: list[str] = []
    places: tuple[Callable[[], str | os.PathLike[str]], ...] = (Path.cwd, tempfile.gettempdir)
    for where in places:
        try:
            folder = Path(where())
        except OSError:  # a working folder since removed, or no temporary folder takes a file (a full disk)
            continue
        tried.append(str(folder))
        rescue = free_name(folder / name)
        try:
            atomic_write_text(rescue, text)
        except OSError:
            continue
        say(f"{what} written to {rescue} instead")
        return str(rescue)
    say(f"{what} could not be written anywhere (tried {' and '.join(tried) or 'no usable folder'})")
    return ""


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    return _bounded(text, 1, "a positive whole number")


def non_negative(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    return _bounded(text, 0, "a whole number of 0 or more")


def confidence(text: str) -> float:
    """An argparse type: a confidence level, at least 0.5 and below 1 (``0.95``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (a confidence such as 0.95)") from None
    if not 0.5 <= value < 1:
        raise argparse.ArgumentTypeError(f"a confidence is at least 0.5 and below 1, not {text}")
    return value


def add_where_arguments(parser: argparse.ArgumentParser, what: str = "the games") -> None:
    """``--workers``, ``--backend`` and ``--address``: where a command that plays many games plays ``what``."""
    parser.add_argument("--workers", type=positive, default=1, help=f"worker processes for {what} (default 1)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local", help=f"where {what} run")
    parser.add_argument("--address", help="a Ray cluster's address (with --backend ray)")


def targets_for(path: str, game: str) -> Any:
    """The balance targets file ``path`` (:func:`tabletop_core.design.targets.load_targets`), when it is for ``game``.

    Raises:
        OptionError: the file is for another game (or cannot be read as a targets file).
    """
    from tabletop_core.design.targets import load_targets

    targets = load_targets(path)
    if targets.game != game:
        raise OptionError(f"--targets {path} is for {targets.game!r}, not {game!r}")
    return targets


#: The largest number an option takes (seeds, games, workers): beyond it, a typo rather than a plan.
MAX_OPTION_NUMBER = 2**63 - 1


def _bounded(text: str, low: int, what: str) -> int:
    try:
        value = int(text) if len(text) <= 40 else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"must be {what}, not {text[:40]!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be {what}, not {value}")
    if value > MAX_OPTION_NUMBER:
        raise argparse.ArgumentTypeError(f"must be {what} of at most {MAX_OPTION_NUMBER}, not {value}")
    return value


def step_rng(seed: int, step: int) -> np.random.Generator:
    """The generator for the stretch of a game that starts at action ``step``: the same seed and step always draw
    the same, so a game taken back to a step (by undo, or resumed there) goes on as it would have."""
    return np.random.default_rng((seed, step))


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich exits with status 1 by itself; let `tabletop` say what happened and exit as a closed pipe does.
        raise BrokenPipeError


@contextlib.contextmanager
def terminal_progress(out: TextIO, what: str, unit: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on ``out`` while the block runs, when ``out`` is a terminal (gone when it ends); ``None``,
    and nothing printed, when ``out`` is a pipe or a file. Yields the ``progress(done, total)`` to call."""
    if not out.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=make_console(out),
        transient=True,
    )
    task = bar.add_task(what, total=None)

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield progress


def make_console(out: TextIO) -> Console:
    """A rich console on ``out``: colour on a terminal, plain text (and a wide page) when piped or captured."""
    terminal = out.isatty()
    # No markup: every text printed is the game's or the player's own, and "[AoI]" must print as it is.
    # Piped: long lines stay whole (soft wrap) for grep and diff; panels and tables still fit the page.
    width = None if terminal else 120
    return _Console(file=out, markup=False, highlight=False, emoji=False, width=width, soft_wrap=not terminal)


class Legend:
    """The symbols already explained on screen; :meth:`show` prints only the new ones."""

    def __init__(self) -> None:
        self.shown: set[str] = set()

    def show(self, console: Console, pairs: Sequence[tuple[str, str]], *, again: bool = False) -> None:
        """Print a key for the symbols of ``pairs`` not explained yet (every one with ``again``)."""
        fresh = [(s, m) for s, m in pairs if again or s not in self.shown]
        if not fresh:
            return
        self.shown.update(s for s, _ in fresh)
        key = Table(show_header=False, box=None, padding=(0, 1), title="key", title_justify="left")
        key.add_column(style="bold cyan", no_wrap=True)
        key.add_column()
        for symbol, meaning in fresh:
            key.add_row(Text(symbol), Text(meaning))
        console.print(key, soft_wrap=False)


def print_table(console: Console, game: Game[S, Any, Any], state: S, player: int | None, title: str = "") -> None:
    """The game's table as ``player`` sees it (the whole truth for ``None``), in a panel."""
    heading = title or game.describe_step(state)
    panel = Panel(Text(game.render(state, player)), title=Text(heading, style="bold"), title_align="left")
    console.print(panel, soft_wrap=False)


def print_lines(console: Console, lines: Sequence[str], number: int | None = None) -> None:
    """A transition's description: the first line (numbered when ``number`` is given), then its consequences."""
    for i, line in enumerate(lines):
        if i == 0:
            prefix = f"{number:>4}. " if number is not None else "  "
            console.print(Text(prefix) + Text(line, style="bold" if number is None else ""))
        else:
            console.print(Text(f"{'':>6}-> {line}", style="dim"))


def seat_lines(game: Game[S, Any, Any], state: S, agents: Sequence[object]) -> list[str]:
    """Who sits where: each seat's role and the bot or person in it."""
    out = []
    for p, agent in enumerate(agents):
        who = "you, at the keyboard" if agent == HUMAN else f"the bot {type(agent).__name__}"
        out.append(f"seat {p} ({game.seat_name(state, p)}): {who}")
    return out


def run_game(
    game: Game[S, Any, Any],
    agents: Sequence[Agent | SearchAgent] | None,
    seed: int,
    options: dict[str, Any],
    out: TextIO,
    *,
    verbose: bool = True,
) -> tuple[S, Record]:
    """Play one game between bots and print it as the whole truth: who sits where, the table and a key to its
    symbols at the start and at each new chapter (:meth:`Game.headline`), every transition through
    :meth:`Game.describe`, then the final table, why the game ended and the returns.

    The game is the core's one playout loop (:func:`tabletop_core.records.playout`, as ``records.play`` and the
    conformance suite run it), so a seed gives the same game here as in ``play``.
    """
    console = make_console(out)
    opts = game.make_options(**options)
    state = game.initial_state(opts)
    seats: list[Agent | SearchAgent] = list(agents) if agents is not None else game.default_agents(state)
    ids: list[int] = []
    legend = Legend()
    console.rule(Text(f"{game.spec.long_name} (seed {seed})", style="bold"))
    if verbose:
        for line in seat_lines(game, state, seats):
            console.print(line)
    chapter: str | None = None
    for step in playout(game, seats, state, seed=seed):
        if verbose and step.player != CHANCE and game.headline(step.before) != chapter:
            chapter = game.headline(step.before)
            print_table(console, game, step.before, None, chapter or "")
            legend.show(console, game.legend(step.before, None))
        if verbose:
            print_lines(console, game.describe(step.before, step.action, step.after, None))
        ids.append(step.action_id)
        state = step.after
    returns = tuple(game.returns(state)) if game.is_terminal(state) else None
    print_table(console, game, state, None, "the end")
    if verbose:
        legend.show(console, game.legend(state, None))
    reason = game.end_reason(state) if returns is not None else f"stopped after {len(ids)} actions"
    console.print(Text(reason, style="bold"))
    shown = ", ".join(f"{game.seat_name(state, p)} {r:g}" for p, r in enumerate(returns)) if returns else "none"
    console.print(f"returns: {shown}  ({len(ids)} actions)")
    return state, Record(game.spec.short_name, options_json(opts), seed, tuple(ids), returns)
