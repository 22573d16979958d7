"""The heuristic bots beat a random opponent in at least 70% of 400 seeded games, from either seat."""

from __future__ import annotations

import numpy as np
import pytest

import unrest
from tabletop_core import Agent, RandomAgent, play
from unrest.bots import EmpireBot, RebellionBot, _progress, _revolution, _tally, district_value
from unrest.rules.cards import NUMBERED
from unrest.rules.missions import MISSIONS, REVOLUTION, REVOLUTION_CAPITOL
from unrest.state import CAPITOL, EMPIRE, REBELLION, StackCard

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


def test_bots_measure_every_mission_by_its_rule_and_its_own_limits() -> None:
    """The bots' progress toward a Mission reaches 1 exactly when the Mission's rule holds,
    for every Mission of the pack, read through the content's ids and the rule's own limits (no index or target
    typed into the bots); the Revolution's target is the rule's, 25 in the Capitol variant's Capitol."""
    rng = np.random.default_rng(3)
    for _ in range(3000):
        size = int(rng.integers(1, 9))
        kinds = rng.choice(len(NUMBERED), size=size, replace=False)
        cards = tuple(StackCard(int(k), bool(rng.random() < 0.6), 1) for k in kinds)
        tally = _tally(cards)
        for m, mission in enumerate(MISSIONS):
            assert (_progress(m, tally, REVOLUTION.target) >= 1.0) == mission.is_met(cards), (mission.key, cards)
        assert (_progress(0, tally, REVOLUTION_CAPITOL.target) >= 1.0) == REVOLUTION_CAPITOL.is_met(cards)
    capitol = unrest.observe(unrest.new_game(seed=0, variant="capitol"), REBELLION)
    assert _revolution(capitol, CAPITOL) == REVOLUTION_CAPITOL.target == 25
    assert _revolution(capitol, CAPITOL + 1) == REVOLUTION.target == 21
