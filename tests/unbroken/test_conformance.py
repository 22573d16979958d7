"""The shared conformance suite on Unbroken: 300 random games on each difficulty, plus bot-driven games."""

from __future__ import annotations

import pytest

import unbroken
from tabletop_core.conformance import check_game
from unbroken.bots import HeuristicAgent


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_conformance_300_random_games(difficulty: str) -> None:
    report = check_game(unbroken.GAME, games=300, seed=0, options={"difficulty": difficulty}, deep_every=10)
    assert report.games == report.terminal == 300


@pytest.mark.parametrize("character", ["sneak", "sage", "hunter", "brawler"])
def test_conformance_bot_driven_games_per_character(character: str) -> None:
    report = check_game(
        unbroken.GAME,
        games=3,
        seed=100,
        options={"difficulty": "easy", "character": character},
        agents=[HeuristicAgent()],
        deep_every=15,
    )
    assert report.terminal == 3
