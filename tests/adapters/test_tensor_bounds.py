"""Every library game declares finite tensor bounds, and every tensor of many random and bot games keeps within them
(the observation and information-state tensors of every seat at every step, and the whole-state tensor), so the
adapters' ``Box`` spaces are finite and true."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from gymnasium import spaces

from tabletop_core.adapters.gymnasium import TabletopEnv
from tabletop_core.adapters.pettingzoo import TabletopAECEnv
from tabletop_core.agents import RandomAgent
from tabletop_core.records import playout
from tests.adapters.games import INSTALLED, LIBRARY_VARIANTS

LIBRARY = ("unbroken", "runebound_coop", "unrest")
#: Games per (game, variant, agents): each tensor of each seat is read at every step.
GAMES = {"unbroken": 40, "runebound_coop": 12, "unrest": 20}


def _variants(name: str) -> list[Mapping[str, Any]]:
    return list(LIBRARY_VARIANTS.get(name, ({},)))


def _check(game: Any, state: Any, low: float, high: float, where: str) -> None:
    tensors = [("state", game.state_tensor(state))]
    for p in range(game.num_players(state)):
        tensors.append((f"observation {p}", game.observation_tensor(state, p)))
        if game.spec.provides_information_state:
            tensors.append((f"information state {p}", game.information_state_tensor(state, p)))
    for what, tensor in tensors:
        t = np.asarray(tensor).ravel()
        assert np.isfinite(t).all(), (where, what)
        bad = np.flatnonzero((t < low) | (t > high))
        assert not bad.size, f"{where}: {what} index {bad[0]} = {t[bad[0]]} outside [{low}, {high}]"


@pytest.mark.parametrize("name", LIBRARY)
def test_every_library_game_declares_finite_bounds(name: str) -> None:
    assert name in INSTALLED
    bounds = INSTALLED[name].spec.tensor_bounds
    assert bounds is not None and all(np.isfinite(bounds)) and bounds[0] <= bounds[1]


@pytest.mark.parametrize("bots", [False, True], ids=["random", "bots"])
@pytest.mark.parametrize("name", LIBRARY)
def test_every_tensor_of_many_games_keeps_within_the_declared_bounds(name: str, bots: bool) -> None:
    game = INSTALLED[name]
    bounds = game.spec.tensor_bounds
    assert bounds is not None
    low, high = bounds
    steps = 0
    for v, options in enumerate(_variants(name)):
        for seed in range(GAMES[name] if v == 0 else 1):
            state = game.initial_state(game.make_options(**options))
            agents = game.default_agents(state) if bots else [RandomAgent()] * game.num_players(state)
            for step in playout(game, agents, state, seed=1000 * v + seed):
                _check(game, step.before, low, high, f"{name} {options} seed {seed} step {step.index}")
                state = step.after
                steps += 1
            _check(game, state, low, high, f"{name} {options} seed {seed} end")
    assert steps > 500


@pytest.mark.parametrize("name", LIBRARY)
def test_the_adapters_spaces_are_finite(name: str) -> None:
    game = INSTALLED[name]
    options = dict(_variants(name)[0])
    env = TabletopAECEnv(game, options=options)
    env.reset(seed=0)
    agent = env.possible_agents[0]
    space = env.observation_space(agent)
    assert isinstance(space, spaces.Dict)
    box = space["observation"]
    assert isinstance(box, spaces.Box) and box.is_bounded("both") and (box.low == game.spec.tensor_bounds[0]).all()
    assert env.state_space.is_bounded("both")
    if len(env.possible_agents) == 1:
        gym_env = TabletopEnv(game, options=options)
        assert isinstance(gym_env.observation_space, spaces.Box)
        assert gym_env.observation_space.is_bounded("both")
