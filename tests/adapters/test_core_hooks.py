"""The core hooks the adapters read: spec_for, public and private observations, observation_string, state_tensor
and the declared tensor bounds, on every game and variant."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from tabletop_core import Game, GameSpec
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.adapters.games import Case, cases
from tests.adapters.solo import GAME as SOLO
from tests.adapters.solo import NIM
from tests.playouts import random_playout


def _playout(case: Case, seed: int) -> list[object]:
    state = case.game.new_game(seed=seed, **case.options)
    return list(random_playout(case.game, state, np.random.default_rng(seed), chance="settle", limit=199))


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.id)
def test_state_tensors_have_their_shape_and_every_tensor_keeps_the_declared_bounds(case: Case) -> None:
    game = case.game
    shape = game.state_tensor_shape(game.make_options(**case.options))
    bounds = game.spec.tensor_bounds
    for seed in range(3):
        for state in _playout(case, seed):
            whole = game.state_tensor(state)
            assert whole.dtype == np.float32 and whole.shape == shape
            tensors = [whole, *(game.observation_tensor(state, p) for p in range(game.num_players(state)))]
            if game.spec.provides_information_state:
                tensors += [game.information_state_tensor(state, p) for p in range(game.num_players(state))]
            if bounds is not None:
                low, high = bounds
                assert all(low <= t.min() and t.max() <= high for t in tensors), case.id


def test_the_state_tensor_default_is_the_whole_view_or_every_seats_information() -> None:
    state = KUHN.new_game(seed=2)
    both = np.concatenate([KUHN.information_state_tensor(state, 0), KUHN.information_state_tensor(state, 1)])
    assert np.array_equal(KUHN.state_tensor(state), both)
    pile = NIM.new_game()
    assert np.array_equal(NIM.state_tensor(pile), NIM.observation_tensor(pile, 0))  # perfect information


def test_public_and_private_observations_by_default() -> None:
    solo = SOLO.new_game(seed=1)
    assert SOLO.public_observation(solo) is solo and SOLO.private_observation(solo, 0) == ()
    deal = KUHN.new_game(seed=1)
    assert KUHN.public_observation(deal).card is None
    assert KUHN.private_observation(deal, 1) == (("player", 1), ("card", deal.hands[1]))

    class Secretive(type(KUHN)):  # type: ignore[misc]  # Kuhn's rules, not saying what is public
        def public_observation(self, state: object) -> object:
            return Game.public_observation(self, state)

    with pytest.raises(NotImplementedError, match="does not say what is public"):
        Secretive().private_observation(deal, 0)


def test_spec_for_defaults_to_the_spec_and_observation_string_to_the_render() -> None:
    assert SOLO.spec_for(SOLO.make_options(turns=2)) is SOLO.spec
    state = KUHN.new_game(seed=3)
    assert KUHN.observation_string(state, 0) == KUHN.render(state, 0)


def test_tensor_bounds_must_be_finite_and_ordered() -> None:
    for bad in ((1.0, 0.0), (0.0, float("inf")), (float("nan"), 1.0)):
        with pytest.raises(ValueError, match="tensor_bounds"):
            attrs.evolve(SOLO.spec, tensor_bounds=bad)
    assert isinstance(attrs.evolve(SOLO.spec, tensor_bounds=(-1.0, 8.0)), GameSpec)
