"""The narration of a step: damage and defeats the board's enemy causes inside the hero's step."""

from __future__ import annotations

import io

import numpy as np

import runebound_coop
from tabletop_core.cli import run_game
from tests.playouts import random_moves


def test_describe_transition_reports_damage_with_health() -> None:
    game = runebound_coop.GAME
    lines: list[str] = []
    moves = random_moves(
        game, game.new_game(seed=3), np.random.default_rng(3), chance="settle", until=lambda s: len(lines) >= 3
    )
    for before, action, after in moves:
        lines.extend(game.describe_transition(before, action, after))
    assert lines and all(" damage (" in line or line.endswith(" is defeated") for line in lines)


def test_the_demo_shows_the_enemys_blows() -> None:
    out = io.StringIO()
    run_game(runebound_coop.GAME, None, 2026, {}, out)
    text = out.getvalue()
    assert "-> " in text and "takes" in text
