"""The heuristic hero bot: legal, deterministic, and better than random."""

from __future__ import annotations

import numpy as np

import runebound_coop as rb
from runebound_coop.actions import Engage
from runebound_coop.bots import HeuristicHero, default_agents, evaluate
from tabletop_core import Agent, RandomAgent, play
from tabletop_core.fastcopy import replace


def _wins(agent: Agent, enemy: str, games: int) -> int:
    wins = 0
    for seed in range(games):
        state, _ = play(rb.GAME, [agent], seed=seed, options={"heroes": ("Corbin",), "enemies": (enemy,)})
        wins += rb.returns(state)[0] > 0
    return wins


def test_default_agents_are_heuristic_heroes() -> None:
    state = rb.new_game(heroes=("Corbin", "Lissa"), enemies=("Ogre",))
    assert [type(a) for a in default_agents(rb.GAME, state)] == [HeuristicHero, HeuristicHero]
    solo = rb.new_game(heroes=("Elian",), enemies=("Sorcerer",), enemy_choices="player")
    assert [type(a) for a in rb.GAME.default_agents(solo)] == [HeuristicHero, RandomAgent]


def test_heuristic_bot_beats_random_play() -> None:
    heuristic = sum(_wins(HeuristicHero(rb.GAME), enemy, 30) for enemy in ("Ogre", "Sorcerer"))
    random = sum(_wins(RandomAgent(), enemy, 30) for enemy in ("Ogre", "Sorcerer"))
    assert heuristic > random


def test_heuristic_bot_is_deterministic_and_legal() -> None:
    state = rb.new_game(seed=5, heroes=("Elian",), enemies=("Sorcerer",))
    legal = rb.legal_actions(state)
    picks = {HeuristicHero(rb.GAME).act(rb.observe(state, 0), legal, np.random.default_rng(s)) for s in range(3)}
    assert len(picks) == 1 and picks <= set(legal)


def test_evaluate_prefers_damage_dealt() -> None:
    state = rb.new_game(seed=5, heroes=("Elian",), enemies=("Sorcerer",))
    hurt = replace(state, enemy_damage=(2,))
    assert evaluate(rb.GAME, hurt) > evaluate(rb.GAME, state)


def test_heuristic_party_sends_the_hero_with_the_most_health_left() -> None:
    state = rb.new_game(heroes=("Elian", "Corbin", "Lissa"), enemies=("Ogre", "Sorcerer"))
    legal = rb.legal_actions(state)
    assert [type(a) for a in legal] == [Engage, Engage, Engage]
    rng = np.random.default_rng(0)
    # Elian 9 - 6 = 3 left, Corbin 10 - 2 = 8, Lissa 9 - 1 = 8: Corbin (the lower index of the tie).
    wounded = replace(state, hero_damage=(6, 2, 1))
    assert HeuristicHero(rb.GAME).act(rb.observe(wounded, 0), legal, rng) == Engage(1)
    assert HeuristicHero(rb.GAME).act(rb.observe(replace(state, hero_damage=(0, 5, 0)), 0), legal, rng) == Engage(0)
