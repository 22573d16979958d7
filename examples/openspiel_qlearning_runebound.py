"""OpenSpiel's tabular Q-learner learns a solo Runebound fight through ``rl_environment`` and beats random play.

The fight: Laurel of Bloodwood against the Lantern Wisp, loaded with ``pyspiel.load_game`` after importing the
adapter. ``rl_environment.Environment`` plays it (it resolves the token casts, the chance nodes, itself) and
OpenSpiel's numpy-only ``tabular_qlearner.QLearner`` learns from the returns (+1 for a win, -1 for a loss).

A tabular learner needs states that repeat. The observation tensor of a fight (every token's face, every damage
count) almost never does: over 500 fights about 4,000 distinct tensors appear, nearly each once. So the learner keys
its table on a coarse abstraction of what it sees, the set of legal actions (which tokens the hero can play, and how),
of which a fight shows a few dozen. Run it: ``python examples/openspiel_qlearning_runebound.py``.
"""

from __future__ import annotations

import numpy as np
from open_spiel.python import rl_agent, rl_environment, rl_tools
from open_spiel.python.algorithms import random_agent, tabular_qlearner

import runebound_coop
from tabletop_core.adapters import openspiel

HERO, ENEMY = "Laurel of Bloodwood", "Lantern Wisp"


def coarse(time_step: rl_environment.TimeStep) -> rl_environment.TimeStep:
    """The time step with the agent's information state replaced by its legal actions (see the module docstring)."""
    observations = dict(time_step.observations)
    observations["info_state"] = [tuple(legal) for legal in observations["legal_actions"]]
    return time_step._replace(observations=observations)


def play(env: rl_environment.Environment, agent: rl_agent.AbstractAgent, episodes: int, *, learn: bool) -> float:
    """The mean return of ``agent`` over ``episodes`` fights (learning from them when ``learn``)."""
    total = 0.0
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            action = agent.step(coarse(time_step), is_evaluation=not learn).action
            time_step = env.step([action])
        agent.step(coarse(time_step), is_evaluation=not learn)  # the final reward, to learn from
        total += time_step.rewards[0]
    return total / episodes


def main(episodes: int = 1000, evaluation: int = 500, seed: int = 0) -> tuple[float, float]:
    """Train for ``episodes`` fights, then return the mean return of the greedy learner and of random play.

    Both are evaluated on the same ``evaluation`` seeded fights.
    """
    np.random.seed(seed)  # OpenSpiel's agents draw from NumPy's global generator: seed it for a repeatable run
    game = openspiel.load(runebound_coop.GAME, heroes=(HERO,), enemies=(ENEMY,))
    assert game.num_players() == 1
    actions = game.num_distinct_actions()
    learner = tabular_qlearner.QLearner(
        player_id=0,
        num_actions=actions,
        step_size=0.1,
        epsilon_schedule=rl_tools.ConstantSchedule(0.2),
        discount_factor=1.0,
    )
    play(rl_environment.Environment(game, seed=seed), learner, episodes, learn=True)
    learned = play(rl_environment.Environment(game, seed=seed + 1), learner, evaluation, learn=False)
    random = play(
        rl_environment.Environment(game, seed=seed + 1),
        random_agent.RandomAgent(player_id=0, num_actions=actions),
        evaluation,
        learn=False,
    )
    return learned, random


if __name__ == "__main__":
    learned, random = main()
    print(f"{HERO} vs {ENEMY}: mean return {learned:+.2f} after Q-learning, {random:+.2f} playing at random")
