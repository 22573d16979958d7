"""The narration of a step: damage and defeats the board's enemy causes inside the hero's step."""

from __future__ import annotations

import io

import numpy as np

import runebound_coop
from tabletop_core.cli import run_game


def test_describe_transition_reports_damage_with_health() -> None:
    game = runebound_coop.GAME
    rng = np.random.default_rng(3)
    state = game.new_game(seed=3)
    lines: list[str] = []
    while not game.is_terminal(state) and len(lines) < 3:
        legal = game.legal_actions(state)
        before = state
        action = legal[int(rng.integers(len(legal)))]
        state = game.step(state, action, rng=rng if game.current_player(state) >= 0 else None)
        lines.extend(game.describe_transition(before, action, state))
    assert lines and all(" damage (" in line or line.endswith(" is defeated") for line in lines)


def test_the_demo_shows_the_enemys_blows() -> None:
    out = io.StringIO()
    run_game(runebound_coop.GAME, None, 2026, {}, out)
    text = out.getvalue()
    assert "-> " in text and "takes" in text
