"""The heuristic bots beat a random opponent in at least 70% of 400 seeded games, from either seat."""

from __future__ import annotations

import pytest

import unrest
from tabletop_core import Agent, RandomAgent, play
from unrest.bots import EmpireBot, RebellionBot, district_value
from unrest.state import EMPIRE, REBELLION

GAMES = 400


def win_rate(agents: list[Agent], seat: int, variant: str) -> float:
    wins = 0
    for seed in range(GAMES):
        final, _ = play(unrest.GAME, agents, seed=seed, options={"variant": variant})
        wins += final.winner == seat
    return wins / GAMES


@pytest.mark.parametrize("variant", ["standard", "capitol"])
def test_bots_rebellion_beats_random_in_70_percent(variant: str) -> None:
    assert win_rate([RebellionBot(), RandomAgent()], REBELLION, variant) >= 0.70


@pytest.mark.parametrize("variant", ["standard", "capitol"])
def test_bots_empire_beats_random_in_70_percent(variant: str) -> None:
    assert win_rate([RandomAgent(), EmpireBot()], EMPIRE, variant) >= 0.70


def test_bots_are_the_default_agents() -> None:
    agents = unrest.GAME.default_agents(unrest.new_game(seed=0))
    assert isinstance(agents[0], RebellionBot) and isinstance(agents[1], EmpireBot)


def test_bots_district_value_is_two_for_a_met_mission() -> None:
    t = [4, 0, 4, 0, 1, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]  # 4I and 4D: Espionage
    assert district_value(t, (6,)) == 2.0
    assert district_value(t, (8,)) == 0.0  # Civil Disobedience is impossible with a Disruption card
