"""Unbroken as a Gymnasium environment: a masked random agent plays seeded episodes through ``gymnasium.make``."""

from __future__ import annotations

import gymnasium
import numpy as np

from tabletop_core.adapters.gymnasium import register_env
from unbroken import GAME


def main(episodes: int = 5, difficulty: str = "easy") -> list[tuple[float, int]]:
    """Play ``episodes`` seeded episodes; return each one's total reward and number of steps."""
    env_id = register_env(GAME)  # "tabletop/unbroken-v0"
    env = gymnasium.make(env_id, options={"difficulty": difficulty})
    rng = np.random.default_rng(0)
    results = []
    for seed in range(episodes):
        _observation, info = env.reset(seed=seed)
        total, steps, done = 0.0, 0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))  # only legal actions
            _observation, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        results.append((total, steps))
    env.close()
    return results


if __name__ == "__main__":
    for seed, (total, steps) in enumerate(main()):
        print(f"tabletop/unbroken-v0 episode {seed}: reward {total:+.1f} after {steps} steps")
