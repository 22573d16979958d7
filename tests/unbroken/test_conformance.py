"""The shared conformance suite on Unbroken, on every difficulty."""

from __future__ import annotations

import pytest

import unbroken
from tabletop_core.conformance import check_game


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_conformance_random_play(difficulty: str) -> None:
    report = check_game(unbroken.GAME, games=20, seed=0, options={"difficulty": difficulty}, deep_every=5)
    assert report.terminal == 20
