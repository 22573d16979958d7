"""``tabletop replay`` of an Unrest game one seat saved or recorded: the real command in a subprocess, real files.

A replay shows the game as the seat that played it (a saved game) or that it was recorded for (a record) saw it,
and says which; the Rebellion's hidden plans, hand and face-down cards stay hidden from the Empire's file.
``--reveal`` shows the whole truth and says so. A record of bots only has no seat of its own, and a game with
hidden information then shows a spectator's view, only what every seat knows, and says so.

The expected screens come from the library itself: the saved record replayed to its states, each move described
and the last table rendered for the Empire (``1``) or for the whole truth (``None``).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import unrest
from tabletop_core.cli.session import Session
from tabletop_core.records import replay
from tests.core.test_cli_file_safety import TIMEOUT, tabletop
from unrest.actions import Action, Plan
from unrest.rules.cards import card_name
from unrest.state import EMPIRE, UnrestState
from unrest.view import card_words

GAME = unrest.GAME
SEED = "3"
#: The line above a replay that defaults to the file's own seat, for a saved game and for a record.
AS_EMPIRE = {
    "saved": "as Empire saw it, the seat that played this saved game (--reveal: all)",
    "recorded": "as Empire saw it, the seat this record was kept for (--reveal: all)",
}
#: The line above a replay of a record of bots only.
AS_SPECTATOR = (
    "a record of bots only: as a spectator saw it, only what every seat knows "
    "(--seat N|ROLE: one seat's view; --reveal: the whole truth)"
)
#: The line above a replay with ``--reveal``.
REVEALED = "--reveal: showing the whole truth, every seat's hidden cards included"
_MOVE = re.compile(r"^ *\d+\. |^ {6}-> ")


@attrs.frozen
class Played:
    """A file a command wrote and what the library makes of it."""

    path: Path
    states: tuple[UnrestState, ...]
    actions: tuple[Action, ...]

    @classmethod
    def read(cls, path: Path) -> Played:
        session = Session.from_json(path.read_text(), str(path))
        states = replay(session.record, GAME, states=True)
        actions = tuple(GAME.action_from_id(states[i], a) for i, a in enumerate(session.record.actions))
        return cls(path, states, actions)

    @property
    def final(self) -> UnrestState:
        return self.states[-1]

    def moves(self, player: int | None) -> list[str]:
        """The move list as ``player`` (``None``: the whole truth) reads it, numbered as the replay prints it."""
        out = []
        for i, action in enumerate(self.actions, 1):
            first, *rest = GAME.describe(self.states[i - 1], action, self.states[i], player)
            out += [f"{i:>4}. {first}", *(f"{'':>6}-> {line}" for line in rest)]
        return out

    def table(self, player: int | None) -> list[str]:
        """The last table as ``player`` (``None``: the whole truth) sees it."""
        return GAME.render(self.final, player).splitlines()

    def secrets(self) -> list[str]:
        """The Rebellion's hidden cards, each in the words a screen of the whole truth shows it in: every hidden
        plan as the move list words it, and the hand, the face-down plan cards and the face-down cards of the
        Districts as the table does."""
        out = [f"plans {card_words(a.card)} hidden" for a in self.actions if isinstance(a, Plan) and a.hidden]
        final = self.final
        if final.hand:
            out.append(f"Hand: {' '.join(card_name(k) for k in final.hand)};")
        out += [f"{slot + 1}:({card_name(p.card)})" for slot, p in enumerate(final.plan) if p and not p.revealed]
        out += [f"({card_name(c.card)})" for stack in final.stacks for c in stack if not c.revealed]
        return out


def _screen(out: str) -> tuple[list[str], list[str]]:
    """The move lines and the lines inside the table's panel of a replay's output (not the key, whose examples
    name cards of their own)."""
    lines = out.splitlines()
    moves = [line for line in lines if _MOVE.match(line)]
    table = [line[2:-1].rstrip() for line in lines if line.startswith("│ ") and line.endswith("│")]
    return moves, table


@functools.cache
def _replay(path: Path, *argv: str) -> str:
    """What ``tabletop replay PATH ARGV`` prints (run once per file and options: the tests share it)."""
    done = tabletop("replay", str(path), *argv, cwd=path.parent)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A game the Empire saved at the table: the bots' Rebellion plans two hidden cards, then the end of input at
    the Empire's first decision saves it."""
    folder = tmp_path_factory.mktemp("saved")
    done = tabletop("play", "unrest", "--seat", "Empire", "--seed", SEED, "--save-to", "empire.json", cwd=folder)
    assert done.returncode == 1 and "input ended: game saved to empire.json" in done.stdout, done.stderr
    return Played.read(folder / "empire.json")


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """A whole game the Empire played at the table to its end (always the first move), with ``--record``."""
    folder = tmp_path_factory.mktemp("recorded")
    argv = ("play", "unrest", "--seat", "Empire", "--seed", SEED, "--record", "empire.json")
    done = subprocess.run(
        [sys.executable, "-m", "tabletop_core.cli", *argv],
        cwd=folder,
        input="1\n" * 400,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0 and "record written to empire.json" in done.stdout, done.stderr
    return Played.read(folder / "empire.json")


@pytest.mark.parametrize("which", ["saved", "recorded"])
def test_the_empires_file_replays_as_the_empire_saw_it_and_says_so(which: str, request: pytest.FixtureRequest) -> None:
    played: Played = request.getfixturevalue(which)
    # The file is worth the test: the Empire's view and the whole truth differ, in the moves and on the table.
    assert played.secrets()
    assert played.moves(EMPIRE) != played.moves(None) and played.table(EMPIRE) != played.table(None)
    out = _replay(played.path)
    moves, table = _screen(out)
    n = len(played.actions)
    assert out.splitlines()[0] == AS_EMPIRE[which]
    assert f"Unrest: {n} moves, as Empire saw it" in out and f"after move {n} of {n} (as Empire saw it)" in out
    assert "whole truth" not in out and "Deck (unordered)" not in out
    assert moves == played.moves(EMPIRE) and table == played.table(EMPIRE)
    shown = "\n".join(moves + table)
    assert [s for s in played.secrets() if s in shown] == []
    assert f"Hand: {len(played.final.hand)} cards;" in shown
    assert "the Rebellion plans a hidden card" in shown and "(??)" in shown


@pytest.mark.parametrize("which", ["saved", "recorded"])
def test_reveal_shows_every_hidden_card_and_says_it_is_the_whole_truth(
    which: str, request: pytest.FixtureRequest
) -> None:
    played: Played = request.getfixturevalue(which)
    out = _replay(played.path, "--reveal")
    moves, table = _screen(out)
    n = len(played.actions)
    assert out.splitlines()[0] == REVEALED
    assert f"Unrest: {n} moves, the whole truth, every hidden card shown" in out
    assert f"after move {n} of {n} (the whole truth, every hidden card shown)" in out
    assert "saw it" not in out
    assert moves == played.moves(None) and table == played.table(None)
    shown = "\n".join(moves + table)
    assert [s for s in played.secrets() if s not in shown] == []
    assert "(??)" not in shown
    # and only on asking: the same file without --reveal shows none of them.
    moves, table = _screen(_replay(played.path))
    hidden = "\n".join(moves + table)
    assert [s for s in played.secrets() if s in hidden] == []


def test_a_record_of_bots_only_replays_as_a_spectator_saw_it_and_says_so(tmp_path: Path) -> None:
    done = tabletop("play", "unrest", "--bots", "--seed", "4", "--record", "bots.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    played = Played.read(tmp_path / "bots.json")
    assert played.secrets()  # the file is worth the test: the Rebellion hid cards
    out = _replay(played.path)
    moves, table = _screen(out)
    n = len(played.actions)
    assert out.splitlines()[0] == AS_SPECTATOR
    assert (
        f"Unrest: {n} moves, as a spectator saw it" in out and f"after move {n} of {n} (as a spectator saw it)" in out
    )
    assert "whole truth, every hidden card" not in out and "Deck (unordered)" not in out
    public = []
    for i, action in enumerate(played.actions, 1):
        first, *rest = GAME.describe_public(played.states[i - 1], action, played.states[i])
        public += [f"{i:>4}. {first}", *(f"{'':>6}-> {line}" for line in rest)]
    # a spectator learns what the Empire learns (Unrest's public information), and sees the Empire's table
    assert moves == public and table == played.table(EMPIRE)
    shown = "\n".join(moves + table)
    assert [s for s in played.secrets() if s in shown] == []
    # one seat's view and the whole truth are still there on asking
    assert f"Unrest: {n} moves, as Rebellion saw it" in _replay(played.path, "--seat", "Rebellion")
    assert _replay(played.path, "--reveal").splitlines()[0] == REVEALED
