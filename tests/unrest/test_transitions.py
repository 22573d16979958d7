"""The narration of a step: liberations and the end of the game, which happen inside other steps."""

from __future__ import annotations

import io

import unrest
from tabletop_core import FirstAgent, RandomAgent, play, replay
from tabletop_core.cli import run_game


def test_describe_transition_names_each_liberation_and_the_winner() -> None:
    total = 0
    for seed in range(40):
        final, record = play(unrest.GAME, [RandomAgent(), RandomAgent()], seed=seed)
        states = replay(record, unrest.GAME, states=True)
        lines: list[str] = []
        for before, action_id, after in zip(states, record.actions, states[1:], strict=False):
            action = unrest.action_from_id(before, action_id)
            lines.extend(unrest.GAME.describe_transition(before, action, after))
        liberated = sum(1 for r in final.freed if r)
        total += liberated
        assert sum(" is liberated " in line for line in lines) == liberated
        winner = "Rebellion" if final.winner == 0 else "Empire"
        assert lines[-1] == f"the {winner} wins"
    assert total > 0  # some random games liberate Districts, so the count above was exercised


def test_the_cli_prints_the_narration() -> None:
    out = io.StringIO()
    run_game(unrest.GAME, [FirstAgent(), FirstAgent()], 3, {}, out)
    assert "-> the " in out.getvalue() and " wins" in out.getvalue()
