"""Runebound co-op as a PettingZoo AEC environment: a party of three heroes, one agent each, sharing one fate."""

from __future__ import annotations

import numpy as np

from runebound_coop import GAME
from tabletop_core.adapters.pettingzoo import TabletopAECEnv

PARTY = ("Corbin", "Lissa", "Elder Mok")
ENCOUNTER = ("Ogre", "Bog Ravager", "Masked Duelist")


def main(games: int = 5) -> list[dict[str, float]]:
    """Play ``games`` seeded encounters with masked random heroes; return each hero's reward per game."""
    env = TabletopAECEnv(GAME, options={"heroes": PARTY, "enemies": ENCOUNTER})
    rng = np.random.default_rng(0)
    results = []
    for seed in range(games):
        env.reset(seed=seed)  # every token cast comes from the seed
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _info = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        results.append(totals)
    return results


if __name__ == "__main__":
    names = dict(zip([f"player_{i}" for i in range(len(PARTY))], PARTY, strict=True))
    for seed, totals in enumerate(main()):
        shown = ", ".join(f"{names[a]} {r:+.0f}" for a, r in totals.items())
        print(f"runebound_coop_v0 encounter {seed} ({' + '.join(ENCOUNTER)}): {shown}")
