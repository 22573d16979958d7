"""The tournament runner."""

from __future__ import annotations

import pytest

from tabletop_core import FirstAgent, OptionError, RandomAgent
from tabletop_core.agents import MCTSAgent
from tabletop_core.testing.kuhn import GAME
from tabletop_core.tournament import Standing, tournament
from tests.core.flowgame import GAME as FLOW_GAME


def test_every_seating_is_played_and_returns_balance() -> None:
    table = tournament(GAME, {"random": RandomAgent, "first": FirstAgent}, games=50, seed=1)
    assert table["random"].games == table["first"].games == 100
    total = table["random"].mean_return + table["first"].mean_return
    assert abs(total) < 1e-9  # zero-sum, every seat played equally often


def test_the_stronger_agent_wins_more_with_a_tight_interval() -> None:
    table = tournament(GAME, {"mcts": lambda: MCTSAgent(iterations=40), "random": RandomAgent}, games=60)
    assert table["mcts"].mean_return > table["random"].mean_return
    low, high = table["mcts"].win_rate_interval()
    assert low <= table["mcts"].win_rate <= high


def test_solo_games_play_each_agent_alone() -> None:
    table = tournament(FLOW_GAME, {"random": RandomAgent, "first": FirstAgent}, games=5)
    assert table["first"].games == 5 and table["first"].wins == 5  # every solo score is positive


def test_wilson_interval_is_within_zero_and_one() -> None:
    assert Standing("x", 10, 10, 1.0, 0.0).win_rate_interval()[1] == 1.0
    assert Standing("x", 0, 0, 0.0, 0.0).win_rate_interval() == (0.0, 1.0)


def test_wrong_number_of_agents_is_refused() -> None:
    with pytest.raises(OptionError, match="2 players need 2 named agents"):
        tournament(GAME, {"a": RandomAgent, "b": RandomAgent, "c": RandomAgent}, games=1)
