"""The fast paths keep the protocol: legal actions listed in id order with no sort, the checked step still refuses
every illegal action (leaving the state usable), and the unchecked path reaches the very states the checked one does.
"""

from __future__ import annotations

import itertools
from typing import Any
from unittest import mock

import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.actions import Land, Pass, action_id
from runebound_coop.content.loader import load_content
from tabletop_core import to_json
from tabletop_core.errors import IllegalActionError
from tabletop_core.spec import CHANCE
from tests.playouts import random_moves

_PACK = load_content()
_HEROES = sorted(_PACK.heroes)
_ENEMIES = sorted(_PACK.enemies)


def _walk(rng: np.random.Generator, **options: Any) -> list[Any]:
    """The decision states of one random game (chance by its odds, decisions uniformly)."""
    return [s for s, _, _ in random_moves(rb.GAME, rb.new_game(**options), rng) if rb.current_player(s) != CHANCE]


@pytest.mark.parametrize("hero", _HEROES)
def test_legal_actions_are_listed_in_id_order_without_repeats_against_every_enemy(hero: str) -> None:
    rng = np.random.default_rng(len(hero))
    checked = 0
    for enemy, mode in itertools.product(_ENEMIES, ("evaluate", "player")):
        for state in _walk(rng, heroes=(hero,), enemies=(enemy,), enemy_choices=mode, retreat=mode == "player"):
            ids = [action_id(a) for a in rb.legal_actions(state)]
            assert ids == sorted(set(ids)), rb.render(state)
            checked += 1
    assert checked > 100  # the walks reached decisions of every kind of fight


def test_the_checked_step_refuses_junk_and_illegal_actions_and_leaves_the_state_usable() -> None:
    state = rb.new_game(seed=3, heroes=("Corbin",), enemies=("Orc Brigand",))
    before = to_json(state)
    assert rb.current_player(state) == 0
    rb.legal_actions(state)  # the memo of this state's actions is filled: the check must still refuse
    junk: Any
    for junk in (mock.ANY, Land(0), "pass", None, 0):
        with pytest.raises(IllegalActionError):
            rb.step(state, junk)
    assert to_json(state) == before and Pass() in rb.legal_actions(state)
    chance = rb.new_game(heroes=("Corbin",), enemies=("Orc Brigand",))
    assert rb.current_player(chance) == CHANCE
    for junk in (mock.ANY, Pass(), Land(2)):  # the loop variable above, typed once
        with pytest.raises(IllegalActionError):
            rb.step(chance, junk)
    assert rb.step(chance, Land(1)) == rb.GAME.apply_unchecked(chance, Land(1))


def test_the_unchecked_path_reaches_the_states_the_checked_step_reaches() -> None:
    # The checked playout draws every action; the unchecked path, fed the same actions, must rest where it rests.
    checked = unchecked = rb.new_game(heroes=("Elian", "Corbin"), enemies=("Sorcerer", "Ogre"))
    for checked, action, after in random_moves(rb.GAME, unchecked, np.random.default_rng(5)):
        assert checked == unchecked and rb.current_player(unchecked) == rb.current_player(checked)
        assert rb.legal_actions(unchecked) == rb.legal_actions(checked)
        assert rb.chance_outcomes(unchecked) == rb.chance_outcomes(checked)
        unchecked = rb.GAME.apply_unchecked(unchecked, action)
        assert unchecked == after
    assert rb.returns(unchecked) == rb.returns(after) and rb.is_terminal(unchecked)
