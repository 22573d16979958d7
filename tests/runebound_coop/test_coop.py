"""The co-op frame: 1-4 heroes, an encounter of several enemies, persistent damage, one shared utility."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.actions import Engage, Pass, Withdraw
from runebound_coop.bots import HeuristicHero
from tabletop_core import FirstAgent, OptionError, play
from tabletop_core.conformance import check_game
from tabletop_core.spec import CHANCE, TERMINAL

from .helpers import attack_all, forced, land


def test_heroes_choose_who_engages_the_next_enemy() -> None:
    state = rb.new_game(heroes=("Corbin", "Lissa"), enemies=("Ogre", "Sorcerer"))
    assert rb.current_player(state) == 0
    assert rb.legal_actions(state) == (Engage(0), Engage(1))
    state = rb.step(state, Engage(1))
    assert state.fight is not None and state.fight.hero == 1 and state.fight.enemy == 0
    assert rb.current_player(state) == CHANCE


def test_damage_persists_between_fights() -> None:
    # Corbin defeats the Undead Horde with 1 damage taken, then fights the next enemy with it.
    state = rb.new_game(heroes=("Corbin", "Lissa"), enemies=("Undead Horde", "Ogre"))
    state = land(rb.step(state, Engage(0)), "a a b  b b b b b")
    assert state.hero_damage == (1, 0)  # Grasping Dead hit first (1 skull)
    state = attack_all(state, "physical")
    assert state.enemy_damage == (3, 0) and state.fight is None
    assert rb.legal_actions(state) == (Engage(0), Engage(1))
    state = rb.step(state, Engage(0))
    assert state.hero_damage == (1, 0) and state.fight is not None and state.fight.enemy == 1


def test_party_loses_when_every_hero_is_defeated_shared_utility() -> None:
    agents = [FirstAgent(), FirstAgent()]  # always pass
    state, record = play(rb.GAME, agents, seed=3, options={"heroes": ("Corbin", "Lissa"), "enemies": ("Dreadbringer",)})
    assert rb.is_terminal(state) and state.out == 0b11
    assert rb.returns(state) == (-1.0, -1.0)
    assert record.returns == (-1.0, -1.0)


def test_party_wins_when_every_enemy_is_defeated() -> None:
    options = {"heroes": ("Corbin", "Elian", "Lissa", "Tatianna"), "enemies": ("Undead Horde", "Cliff Harpy")}
    wins = 0
    for seed in range(5):
        state, _ = play(rb.GAME, [HeuristicHero(rb.GAME)] * 4, seed=seed, options=options)
        returns = rb.returns(state)
        assert len(set(returns)) == 1  # one shared utility
        wins += returns[0] == 1.0
        if returns[0] == 1.0:
            assert all(d >= h for d, h in zip(state.enemy_damage, (3, 4), strict=True))
    assert wins >= 3


def test_defeated_hero_engages_no_more() -> None:
    agents = [FirstAgent(), FirstAgent()]
    state, _ = play(rb.GAME, agents, seed=1, options={"heroes": ("Corbin", "Lissa"), "enemies": ("Dreadbringer",) * 2})
    assert state.out == 0b11 and rb.current_player(state) == TERMINAL


def test_withdraw_option_ends_the_fight_for_that_hero() -> None:
    state = forced("a a a  b a b a a", heroes=("Corbin",), enemies=("Ogre",), retreat=True)
    state = rb.step(state, Pass())
    assert rb.legal_actions(state) == (Withdraw(False), Withdraw(True))
    stay = rb.step(state, Withdraw(False))
    assert rb.current_player(stay) == CHANCE and stay.pos.round == 2
    gone = rb.step(state, Withdraw(True))
    assert rb.is_terminal(gone) and rb.returns(gone) == (0.0,) and gone.withdrawn == 1


def test_max_rounds_ends_an_undecided_fight() -> None:
    state, _ = play(
        rb.GAME, [FirstAgent()], seed=0, options={"heroes": ("Corbin",), "enemies": ("Barrow Wyrm",), "max_rounds": 1}
    )
    assert rb.is_terminal(state)
    assert state.withdrawn == 1 or state.out == 1


@pytest.mark.parametrize(
    "options",
    [
        {"heroes": ()},
        {"heroes": ("Corbin", "Corbin")},
        {"heroes": ("Nobody",)},
        {"enemies": ("Nothing",)},
        {"enemy_choices": "maybe"},
        {"act": 3},
        {"max_rounds": 0},
        {"assets": (("Excalibur",),)},
        {"cards": (("Twin Blades",),) * 3},  # one list per hero: the default party has two
    ],
)
def test_bad_options_raise(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        rb.new_game(**options)


def test_conformance_coop_encounters() -> None:
    """100 co-op encounters: 2-4 heroes against 2-4 enemies of mixed traits, all three enemy-choice modes."""
    heroes = ("Corbin", "Elian", "Tatianna", "Lissa", "Elder Mok", "Master Thorn")
    enemies = ("Sorcerer", "Undead Horde", "Orc Brigand", "Cliff Harpy", "Mirror Imp", "Bog Ravager")
    total = 0
    for k in range(10):
        n = 2 + k % 3
        options = {
            "heroes": heroes[k % 3 : k % 3 + n],
            "enemies": tuple(enemies[(k + j) % len(enemies)] for j in range(2 + k % 3)),
            "enemy_choices": ("evaluate", "damage", "player")[k % 3],
            "retreat": k % 4 == 0,
        }
        total += check_game(rb.GAME, games=10, seed=100 * k, options=options, deep_every=11).games
    assert total == 100


def test_observation_is_the_whole_truth_and_hashable() -> None:
    state = rb.new_game(seed=2, heroes=("Corbin", "Lissa"), enemies=("Ogre", "Sorcerer"))
    view = rb.observe(state, 1)
    assert hash(view) == hash(rb.observe(state, 1)) and view.state == state
    tensor = rb.observation_tensor(state, 1)
    assert tensor.shape == rb.GAME.spec.observation_shape and tensor.dtype == np.float32
    assert rb.determinize(state, 0, np.random.default_rng(0)) == state


def test_solo_is_the_one_hero_case() -> None:
    state = rb.new_game(seed=1, heroes=("Corbin",), enemies=("Ogre", "Sorcerer"))
    assert rb.GAME.num_players(state) == 1 and rb.current_player(state) == 0
    assert state.fight is not None and state.fight.enemy == 0  # no engage decision with one hero
