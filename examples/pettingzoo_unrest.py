"""Unrest as a PettingZoo AEC environment: two masked random agents, one seeded game, and a deepcopy that branches."""

from __future__ import annotations

import copy

import numpy as np

from tabletop_core.adapters.pettingzoo import TabletopAECEnv
from unrest import GAME


def finish(env: TabletopAECEnv, rng: np.random.Generator) -> dict[str, float]:
    """Play the environment to the end with masked random actions; return what each agent earned."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def main(seed: int = 3, variant: str = "standard") -> tuple[dict[str, float], dict[str, float]]:
    """Play one seeded game, branching a copy after ten steps; return both games' rewards."""
    env = TabletopAECEnv(GAME, options={"variant": variant}, agent_names=["rebellion_0", "empire_1"])
    env.reset(seed=seed)  # the District row, the Rebel deck and the missions come from the seed
    rng = np.random.default_rng(seed)
    for _ in range(10):
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    branch = copy.deepcopy(env)  # an independent game in the same position
    return finish(env, np.random.default_rng(1)), finish(branch, np.random.default_rng(2))


if __name__ == "__main__":
    game, branch = main()
    print(f"unrest_v0: game {game}; branch played differently from step 10: {branch}")
