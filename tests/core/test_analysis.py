"""Exact expected returns against golden figures derived by hand (tests/core/data/golden.json)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tabletop_core import RandomAgent, TabletopError, play
from tabletop_core.analysis import expected_returns
from tabletop_core.testing.kuhn import GAME, KuhnState, Move
from tests.core.flowgame import GAME as FLOW_GAME

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden.json").read_text(encoding="utf-8"))


def test_kuhn_uniform_play_matches_the_hand_derivation() -> None:
    assert expected_returns(GAME, GAME.new_game()) == pytest.approx(GOLDEN["kuhn_uniform_returns"]["value"])


def test_a_policy_is_followed() -> None:
    def always_bet(state: KuhnState, legal: Sequence[Any]) -> list[float]:
        if GAME.current_player(state) == 0:
            return [1.0 if a == Move(1) else 0.0 for a in legal]
        return [1.0 / len(legal)] * len(legal)

    value = expected_returns(GAME, GAME.new_game(), always_bet)
    assert value == pytest.approx(GOLDEN["kuhn_always_bet_vs_uniform_returns"]["value"])


def test_exact_value_agrees_with_monte_carlo_on_a_game_with_reshuffles() -> None:
    exact = expected_returns(FLOW_GAME, FLOW_GAME.new_game())[0]
    scores = [FLOW_GAME.returns(play(FLOW_GAME, [RandomAgent()], seed=s)[0])[0] for s in range(3000)]
    mean = sum(scores) / len(scores)
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (len(scores) - 1))
    assert abs(mean - exact) < 4 * sd / math.sqrt(len(scores))


def test_bad_policies_and_huge_trees_are_refused() -> None:
    with pytest.raises(TabletopError, match="policy gave"):
        expected_returns(GAME, GAME.new_game(), lambda s, legal: [1.0] * len(legal))
    with pytest.raises(TabletopError, match="more than 5 states"):
        expected_returns(GAME, GAME.new_game(), max_states=5)
