"""A person at the table: one seat played from the keyboard, the others by bots, with undo, save and rules help.

The seat sees only what its rules let it see: the log is every transition through ``Game.describe(..., player=
seat)``, the table is ``Game.render(state, seat)``, the final table too. Chance and the bots play through the core's
playout loop (:func:`tabletop_core.records.playout`); each stretch of their play draws from
:func:`~tabletop_core.cli.common.step_rng` of the step it starts at, so a game taken back by ``undo`` or resumed
from a saved file goes on exactly as it would have.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, NoReturn, TypeVar

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from tabletop_core.agents import Agent, SearchAgent
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.cli.common import HUMAN, Legend, make_agent, print_lines, print_table, step_rng, write_or_rescue
from tabletop_core.cli.moves import match_move, normal
from tabletop_core.cli.session import Session, read_text
from tabletop_core.errors import StateFormatError, TabletopError
from tabletop_core.files import atomic_write_text
from tabletop_core.records import Record, options_from_json, options_json, playout
from tabletop_core.spec import TERMINAL

if TYPE_CHECKING:
    import numpy as np
    from rich.status import Status

    from tabletop_core.game import Game

__all__ = ["COMMANDS", "HumanTable"]

S = TypeVar("S")
A = TypeVar("A")

#: The table's commands and what each does (``help`` prints them).
COMMANDS: dict[str, str] = {
    "NUMBER or MOVE": "play a move: its number, its text, its start, or words only it has (3, 'plan 5D h', 'forge')",
    "help, ?": "this list (Tab completes a move; Up and Down recall earlier lines)",
    "moves, Enter": "the legal moves again",
    "table": "the table again",
    "rules": "the rule of the current step and the text of every card in view",
    "key": "the key to every symbol of the table",
    "undo": "take back your last decision (and what followed it)",
    "save [FILE]": "save the game (default: the file Ctrl-C saves to; a FILE already there is written over only "
    "if it is a saved game); go on later with 'tabletop resume FILE'",
    "quit": "save the game and stop",
}
_WORDS = ("help", "moves", "table", "rules", "key", "undo", "save", "quit")


class _StopPlayError(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _SignalledError(BaseException):
    """A stop signal (SIGTERM, SIGHUP) arrived: the game is saved as for Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The signals that stop a game at the table and save it (Ctrl-C, SIGINT, is Python's KeyboardInterrupt).
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def _saving_on_signals() -> Iterator[None]:
    """While the table runs, SIGTERM and SIGHUP raise :class:`_SignalledError` (so the game is saved)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise _SignalledError(signum)

    previous = {sig: signal.signal(sig, stop) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


class _PersonSeat:
    """The person's seat in the agents handed to the playout loop, which stops before it is ever asked."""

    def act(self, view: object, legal_actions: Sequence[object], rng: np.random.Generator) -> NoReturn:
        raise TabletopError("the table asked the playout loop for the person's own move")


class HumanTable(Generic[S, A]):
    """One game with a person in one seat.

    Args:
        game: the game.
        name: the name the game was loaded by (saved, so that ``resume`` loads the same game).
        record: the game so far: options, seed and the actions already played (none for a new game).
        seats: one spec per seat: ``human`` for the person's seat, else a bot spec (see
            :func:`~tabletop_core.cli.common.make_agent`).
        console: where the table is printed.
        read_line: reads one line after printing its prompt (``input``); raises ``EOFError`` at the end of input.
        save_to: the file that ``save``, ``quit``, end of input, Ctrl-C, SIGTERM and SIGHUP write (atomically:
            a failed write leaves the old file whole, and the game is then written to a free name in the current
            or temporary folder).
        record_to: where to write the game record when the game ends (optional).
        allow_import: let the bots' specs import classes by module path (a command line's explicit choice; never
            for specs read from a saved game).
        source: the saved game ``record`` was read from, named in every message about it (default: ``save_to``).
    """

    def __init__(
        self,
        game: Game[S, A, Any],
        name: str,
        record: Record,
        seats: Sequence[str],
        console: Console,
        *,
        read_line: Callable[[str], str] = input,
        save_to: str,
        record_to: str | None = None,
        allow_import: bool = False,
        source: str | None = None,
    ) -> None:
        self.game, self.name, self.console, self.read_line = game, name, console, read_line
        self.seats = tuple(seats)
        self.human = self.seats.index(HUMAN)
        self.save_to, self.record_to = save_to, record_to
        where = source or save_to
        try:
            self.options = options_from_json(game, record.options)
        except TabletopError as exc:
            raise StateFormatError(f"{where}: the saved options are invalid: {exc}") from None
        self.seed = record.seed if record.seed is not None else 0
        first = game.initial_state(self.options)
        if len(self.seats) != game.num_players(first):
            raise StateFormatError(
                f"{where}: {len(self.seats)} seats saved for a game of {game.num_players(first)} players"
            )
        # Every bot resolves (against the installed agents) before a saved move is replayed or anything is written.
        self.agents: list[Agent | SearchAgent] = [
            _PersonSeat() if s == HUMAN else make_agent(s, game, first, p, allow_import=allow_import)
            for p, s in enumerate(self.seats)
        ]
        self.states: list[S] = [first]
        self.ids: list[int] = []
        for i, action_id in enumerate(record.actions):
            try:
                self._advance(game.action_from_id(self.states[-1], action_id), check=True)
            except (TabletopError, ValueError) as exc:
                raise StateFormatError(f"{where}: saved action {i} (id {action_id}) does not apply: {exc}") from None
        #: The seats whose bots were imported by module path (allowed on this command line only): a saved game of
        #: them cannot be resumed, since ``tabletop resume`` never imports what a file names.
        self.imported = tuple(
            p for p, s in enumerate(self.seats) if s != HUMAN and parse_agent_spec(s, allow_import=True).kind == "class"
        )
        self.shown = max(0, len(self.ids) - 12)  # on resume, repeat the last moves before going on
        self.legend = Legend()
        self.seat = game.seat_name(first, self.human)
        self.moves: list[str] = []
        if read_line is input and sys.stdin.isatty():
            self._line_editing()

    def _line_editing(self) -> None:
        """History and Tab completion of the moves and commands, where the platform has readline."""
        try:
            import readline
        except ImportError:  # not on every platform; plain input still works
            return
        readline.set_completer_delims("")  # complete the whole line: moves have spaces in them
        readline.set_completer(self._complete)
        readline.parse_and_bind("tab: complete")

    def _complete(self, text: str, index: int) -> str | None:
        typed = normal(text)
        found = [m for m in [*self.moves, *_WORDS] if normal(m).startswith(typed)]
        return found[index] if index < len(found) else None

    # ----- the game ----------------------------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end (or until the person stops); the exit status: 0 done, 1 input ended, 130 Ctrl-C, 128 +
        the signal for SIGTERM and SIGHUP (the game saved each time it stops early)."""
        try:
            with _saving_on_signals():
                return self._loop()
        except _StopPlayError as stop:
            return stop.code
        except KeyboardInterrupt:
            path = self._save(self.save_to, rescue=True)
            self.console.print()
            self.console.print(f"interrupted: {self._saved_line(path)}")
            return 130
        except _SignalledError as stopped:
            path = self._save(self.save_to, rescue=True)
            self.console.print()
            self.console.print(f"stopped by {signal.Signals(stopped.signum).name}: {self._saved_line(path)}")
            return 128 + stopped.signum

    def _loop(self) -> int:
        game = self.game
        if self.ids:
            self.console.print(f"resumed {game.spec.long_name} after {len(self.ids)} moves; you are {self.seat}")
        limit = game.spec.max_game_length
        while len(self.ids) < limit:
            state = self.states[-1]
            player = game.current_player(state)
            if player == TERMINAL:
                break
            if player != self.human:
                self._until_the_seat(state, limit)
                continue
            self._show_log()
            legal = game.legal_actions(state)
            if len(legal) == 1:
                only = game.action_to_str(state, legal[0])
                self.console.print(Text(f"only one move, played for you: {only}", style="italic"))
                action = legal[0]
            else:
                asked = self._ask(state, legal)
                if asked is None:
                    continue
                action = asked
            self._advance(action, check=True)
        self._finish()
        return 0

    def _until_the_seat(self, state: S, limit: int) -> None:
        """Chance and the bots play, through the core's playout loop, until the seat is to act (or the end).

        Each stretch draws from :func:`step_rng` of the step it starts at (always the seat's own decision, or the
        start), so undo and resume replay the bots' and chance's answers exactly.
        """
        rng = step_rng(self.seed, len(self.ids))
        with self._thinking(state) as status:
            for step in playout(self.game, self.agents, state, rng, max_steps=limit - len(self.ids)):
                self.ids.append(step.action_id)
                self.states.append(step.after)
                if self.game.current_player(step.after) == self.human:
                    return
                if status is not None:
                    status.update(self._thinking_line(step.after))

    def _thinking_line(self, state: S) -> str:
        player = self.game.current_player(state)
        if player < 0:  # chance or the end
            return "..."
        return f"{self.game.seat_name(state, player)} is thinking..."

    @contextlib.contextmanager
    def _thinking(self, state: S) -> Iterator[Status | None]:
        """A spinner naming the bot to move, on a terminal only: a search bot may think for seconds."""
        if not self.console.is_terminal:
            yield None
            return
        with self.console.status(self._thinking_line(state)) as status:
            yield status

    def _advance(self, action: A, *, check: bool = False) -> None:
        state = self.states[-1]
        after = self.game.step(state, action) if check else self.game.apply_unchecked(state, action)
        self.ids.append(self.game.action_id(action))
        self.states.append(after)

    def _finish(self) -> None:
        game, state = self.game, self.states[-1]
        self._show_log()
        print_table(self.console, game, state, self.human, f"the end, as {self.seat} sees it")
        self.legend.show(self.console, game.legend(state, self.human))
        done = game.is_terminal(state)
        reason = game.end_reason(state) if done else f"stopped after the move limit ({len(self.ids)} moves)"
        self.console.print(Text(reason, style="bold green"))
        if done:
            returns = ", ".join(f"{game.seat_name(state, p)} {r:g}" for p, r in enumerate(game.returns(state)))
            self.console.print(f"returns: {returns}")
        if self.record_to:
            text = self._record().to_json(seat=self.human)
            where = write_or_rescue(self.record_to, text, self._say, "the record")
            if where == self.record_to:
                self.console.print(f"record written to {self.record_to}")

    # ----- what the seat sees ------------------------------------------------------------------------------------

    def _show_log(self) -> None:
        # A run of identical one-line descriptions ("chance acts" while cards are dealt) prints once, counted.
        runs: list[tuple[tuple[str, ...], int]] = []
        for i in range(self.shown, len(self.ids)):
            before, after = self.states[i], self.states[i + 1]
            action = self.game.action_from_id(before, self.ids[i])
            lines = tuple(self.game.describe(before, action, after, self.human))
            if runs and len(lines) == 1 and runs[-1][0] == lines:
                runs[-1] = (lines, runs[-1][1] + 1)
            else:
                runs.append((lines, 1))
        for lines, count in runs:
            print_lines(self.console, (f"{lines[0]} ({count} times)", *lines[1:]) if count > 1 else lines)
        self.shown = len(self.ids)

    def _show_table(self, state: S, legal: Sequence[A]) -> None:
        where = self.game.headline(state) or self.game.describe_step(state)
        print_table(self.console, self.game, state, self.human, f"{self.seat}: {where}")
        self.legend.show(self.console, self.game.legend(state, self.human))
        self._show_moves(state, legal)

    def _show_moves(self, state: S, legal: Sequence[A]) -> None:
        moves = [self.game.action_to_str(state, a) for a in legal]
        items = [Text.assemble((f"{i:>2} ", "bold cyan"), m) for i, m in enumerate(moves, 1)]
        self.console.print(Text("your moves (a number, the move, or its start; ? for help):", style="bold"))
        self.console.print(Columns(items, column_first=True, padding=(0, 3)), soft_wrap=False)

    # ----- reading the person's line -----------------------------------------------------------------------------

    def _ask(self, state: S, legal: Sequence[A]) -> A | None:
        game = self.game
        self._show_table(state, legal)
        moves = [game.action_to_str(state, a) for a in legal]
        self.moves = moves
        while True:
            try:
                line = self.read_line(f"{self.seat}> ")
            except EOFError:
                path = self._save(self.save_to, rescue=True)
                self.console.print()
                self.console.print(f"input ended: {self._saved_line(path)}")
                raise _StopPlayError(1) from None
            word, _, rest = line.strip().partition(" ")
            word = word.lower()
            if word in ("", "moves"):
                self._show_moves(state, legal)
            elif word in ("?", "help"):
                for command, text in COMMANDS.items():
                    self.console.print(Text.assemble((f"  {command:<16}", "bold cyan"), text))
            elif word == "table":
                self._show_table(state, legal)
            elif word == "rules":
                self._show_rules(state)
            elif word in ("key", "legend"):
                self.legend.show(self.console, game.legend(state, self.human), again=True)
            elif word == "undo":
                if self._undo():
                    return None
            elif word == "save":
                path = self._save_command(rest.strip() or self.save_to)
                if path:
                    self.console.print(self._saved_line(path))
            elif word in ("quit", "exit"):
                path = self._save(self.save_to, rescue=True)
                self.console.print(f"stopped: {self._saved_line(path)}")
                raise _StopPlayError(0)
            else:
                found = match_move(line, moves, commands=_WORDS)
                if found.index is not None:
                    return legal[found.index]
                try:
                    return game.parse_action(state, line)
                except TabletopError:
                    self.console.print(Text(found.error, style="red"))

    def _show_rules(self, state: S) -> None:
        self.console.print(Text("the rule now: ", style="bold") + Text(self.game.step_rules(state)))
        texts = self.game.card_texts(state, self.human)
        if texts:
            self.console.print(Text("cards in view:", style="bold"))
            for title, text in texts:
                self.console.print(Text.assemble(("  " + title, "bold cyan"), ": ", text))

    def _undo(self) -> bool:
        game = self.game
        now = len(self.ids)
        earlier = [
            i
            for i in range(now)
            if game.current_player(self.states[i]) == self.human and len(game.legal_actions(self.states[i])) > 1
        ]
        if not earlier:
            self.console.print("nothing to undo: you have made no decision yet")
            return False
        back = earlier[-1]
        move = game.action_to_str(self.states[back], game.action_from_id(self.states[back], self.ids[back]))
        del self.ids[back:]
        del self.states[back + 1 :]
        self.shown = min(self.shown, back)
        taken = now - back
        self.console.print(
            Text(f"undone: back to your decision before '{move}' ({taken} move{'s' * (taken != 1)} taken back)")
        )
        return True

    # ----- saving ------------------------------------------------------------------------------------------------

    def _record(self) -> Record:
        state = self.states[-1]
        returns = tuple(self.game.returns(state)) if self.game.is_terminal(state) else None
        return Record(self.game.spec.short_name, options_json(self.options), self.seed, tuple(self.ids), returns)

    def _say(self, line: str) -> None:
        self.console.print(Text(line, style="red" if line.startswith("cannot") else ""))

    def _save_command(self, path: str) -> str:
        """``save FILE``: save to ``path`` unless a file is there that is neither this game's save file nor a saved
        game of ours (a ``save README.md`` never costs the README). Returns where it was saved (``""``: nowhere)."""
        refusal = self._overwrite_refusal(path)
        if refusal:
            self._say(f"cannot save to {path}: {refusal}; the game goes on (save NEWFILE names another file)")
            return ""
        return self._save(path)

    def _overwrite_refusal(self, path: str) -> str:
        """Why ``save`` may not write ``path`` (``""``: it may): only this game's own save file, a new file or a
        saved game of ours is written over."""
        if os.path.abspath(path) == os.path.abspath(self.save_to):
            return ""
        if self.record_to and os.path.abspath(path) == os.path.abspath(self.record_to):
            return "the game's record is written there when the game ends"
        if not os.path.lexists(path):
            return ""
        if os.path.islink(path):
            return "it is a symbolic link, not a saved game"
        if os.path.isdir(path):
            return "it is a folder"
        try:
            found = Session.from_json(read_text(path), path)
        except StateFormatError:
            return "a file is there that is not a saved game, and it is not written over"
        if not found.seats:
            return "a game record is there, not a saved game, and it is not written over"
        return ""

    def _save(self, path: str, *, rescue: bool = False) -> str:
        """Save atomically to ``path``; with ``rescue`` (the game is stopping), a failed write saves to a free name in
        the current or temporary folder instead. Returns where it was saved (``""``: nowhere)."""
        text = Session(self.name, self._record(), self.seats).to_json() + "\n"
        if rescue:
            return write_or_rescue(path, text, self._say, "the game")
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            self._say(f"cannot save to {path}: {exc.strerror or exc}")
            return ""
        return path

    def _saved_line(self, path: str) -> str:
        if not path:
            return "the game was not saved"
        if self.imported:
            bots = ", ".join(f"{self.game.seat_name(self.states[0], p)}'s {self.seats[p]!r}" for p in self.imported)
            return (
                f"game saved to {path}; it cannot be resumed: its bots ({bots}) were imported by module path with "
                "--allow-import-agent, which tabletop resume never does for what a file names (replay it with: "
                f"tabletop replay {path})"
            )
        return f"game saved to {path}; go on with: tabletop resume {path}"
