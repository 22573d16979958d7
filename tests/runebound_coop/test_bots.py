"""The heuristic hero bot: legal, deterministic, and better than random."""

from __future__ import annotations

import numpy as np

import runebound_coop as rb
from runebound_coop.bots import HeuristicHero, default_agents, evaluate
from tabletop_core import Agent, RandomAgent, play


def _wins(agent: Agent, enemy: str, games: int) -> int:
    wins = 0
    for seed in range(games):
        state, _ = play(rb.GAME, [agent], seed=seed, options={"heroes": ("Corbin",), "enemies": (enemy,)})
        wins += rb.returns(state)[0] > 0
    return wins


def test_default_agents_are_heuristic_heroes() -> None:
    state = rb.new_game(heroes=("Corbin", "Lissa"), enemies=("Ogre",))
    assert [type(a) for a in default_agents(state)] == [HeuristicHero, HeuristicHero]
    assert len(rb.GAME.default_agents(rb.new_game(enemy_choices="player"))) == 2


def test_heuristic_bot_beats_random_play() -> None:
    heuristic = sum(_wins(HeuristicHero(), enemy, 30) for enemy in ("Ogre", "Sorcerer"))
    random = sum(_wins(RandomAgent(), enemy, 30) for enemy in ("Ogre", "Sorcerer"))
    assert heuristic > random


def test_heuristic_bot_is_deterministic_and_legal() -> None:
    state = rb.new_game(seed=5, heroes=("Elian",), enemies=("Sorcerer",))
    legal = rb.legal_actions(state)
    picks = {HeuristicHero().act(rb.observe(state, 0), legal, np.random.default_rng(s)) for s in range(3)}
    assert len(picks) == 1 and picks <= set(legal)


def test_evaluate_prefers_damage_dealt() -> None:
    state = rb.new_game(seed=5, heroes=("Elian",), enemies=("Sorcerer",))
    hurt = state.but(enemy_damage=(2,))
    assert evaluate(hurt) > evaluate(state)
