"""A solo Runebound fight as a Gymnasium environment: masked random play against each combat board."""

from __future__ import annotations

import numpy as np

from runebound_coop import GAME
from tabletop_core.adapters.gymnasium import TabletopEnv

FIGHTS = {
    "warrior": ("Lord Hawthorne", "Orc Brigand"),
    "mystic": ("Elian", "Sorcerer"),
    "savage": ("Tatianna", "Thornback Boar"),
    "trickster": ("Master Thorn", "Mirror Imp"),
}


def main(episodes: int = 20) -> dict[str, float]:
    """Fight ``episodes`` seeded fights per enemy trait with a masked random hero; return the mean reward per trait."""
    means = {}
    for trait, (hero, enemy) in FIGHTS.items():
        env = TabletopEnv(GAME, options={"heroes": (hero,), "enemies": (enemy,)})
        rng = np.random.default_rng(0)
        total = 0.0
        for seed in range(episodes):
            _observation, info = env.reset(seed=seed)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _observation, reward, terminated, truncated, info = env.step(action)
                total += float(reward)
                done = terminated or truncated
        means[trait] = total / episodes
    return means


if __name__ == "__main__":
    for trait, mean in main().items():
        hero, enemy = FIGHTS[trait]
        print(f"{hero} vs {enemy} ({trait} board): mean reward {mean:+.2f} for a random hero (+1 win, -1 loss)")
