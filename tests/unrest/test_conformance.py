"""The core conformance suite on Unrest: 300 games of each variant."""

from __future__ import annotations

import pytest

import unrest
from tabletop_core.conformance import check_game


@pytest.mark.parametrize("variant", ["standard", "capitol"])
def test_conformance_300_games(variant: str) -> None:
    report = check_game(unrest.GAME, games=300, seed=0, options={"variant": variant}, deep_every=10)
    assert report.games == 300 and report.terminal == 300
