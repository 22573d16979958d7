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
from tabletop_core.chance import sample_outcome
from tabletop_core.errors import IllegalActionError
from tabletop_core.spec import CHANCE, TERMINAL

_PACK = load_content()
_HEROES = sorted(_PACK.heroes)
_ENEMIES = sorted(_PACK.enemies)


def _walk(rng: np.random.Generator, **options: Any) -> list[Any]:
    """The decision states of one random game (chance by its odds, decisions uniformly)."""
    state = rb.new_game(**options)
    seen = []
    while (player := rb.current_player(state)) != TERMINAL:
        if player == CHANCE:
            state = rb.step(state, sample_outcome(rb.chance_outcomes(state), rng))
            continue
        seen.append(state)
        legal = rb.legal_actions(state)
        state = rb.step(state, legal[int(rng.integers(len(legal)))])
    return seen


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
    rng_a, rng_b = np.random.default_rng(5), np.random.default_rng(5)
    checked = unchecked = rb.new_game(heroes=("Elian", "Corbin"), enemies=("Sorcerer", "Ogre"))
    while rb.current_player(checked) != TERMINAL:
        assert checked == unchecked and rb.current_player(unchecked) == rb.current_player(checked)
        if rb.current_player(checked) == CHANCE:
            a, b = (
                sample_outcome(rb.chance_outcomes(checked), rng_a),
                sample_outcome(rb.chance_outcomes(unchecked), rng_b),
            )
        else:
            legal = rb.legal_actions(checked)
            assert rb.legal_actions(unchecked) == legal
            a = legal[int(rng_a.integers(len(legal)))]
            b = legal[int(rng_b.integers(len(legal)))]
        checked, unchecked = rb.step(checked, a), rb.GAME.apply_unchecked(unchecked, b)
    assert rb.returns(checked) == rb.returns(unchecked) and rb.is_terminal(unchecked)
