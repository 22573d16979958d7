"""What the ``tabletop`` commands share: the playout that prints a game, the human seat, option parsing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

import numpy as np

from tabletop_core.agents import Agent, SearchAgent, choose_action
from tabletop_core.chance import sample_outcome
from tabletop_core.errors import TabletopError
from tabletop_core.records import Record, options_json
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = ["HumanAgent", "parse_options", "run_game"]


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


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """Game options from ``KEY=VALUE`` pairs (values read as JSON, else as text)."""
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
