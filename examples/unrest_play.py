"""Play one seeded game of Unrest between the heuristic Rebellion and Empire bots and print it.

Run: ``python examples/unrest_play.py [seed] [standard|capitol]``
"""

from __future__ import annotations

import sys

import numpy as np

import unrest
from tabletop_core import CHANCE, Agent, sample_chance
from unrest.bots import EmpireBot, RebellionBot
from unrest.content import CONTENT
from unrest.rules.liberation import missions_for
from unrest.state import UnrestState

SIDES = ("Rebellion", "Empire")


def main(seed: int = 7, variant: str = "standard") -> None:
    """Play and print one game."""
    rng = np.random.default_rng(seed)
    state = unrest.new_game(seed=seed, variant=variant)
    agents: list[Agent] = [RebellionBot(), EmpireBot()]
    print(unrest.render(state))
    last_round = state.round
    while not unrest.is_terminal(state):
        player = unrest.current_player(state)
        if player == CHANCE:
            action = sample_chance(unrest.GAME, state, rng)
            print(f"  (chance) {unrest.action_to_str(state, action)}")
        else:
            action = agents[player].act(unrest.observe(state, player), unrest.legal_actions(state), rng)
            print(f"  {SIDES[player]}: {unrest.action_to_str(state, action)}")
        before = state.liberated
        state = unrest.step(state, action)
        for d in state.liberated:
            if d not in before:
                print(f"  >> {CONTENT.districts[d].name} is liberated ({_missions_met(state, d)})")
        if state.round != last_round and not unrest.is_terminal(state):
            last_round = state.round
            print()
            print(unrest.render(state))
    print()
    print(unrest.render(state))
    winner = SIDES[state.winner]
    freed = ", ".join(CONTENT.districts[d].name for d in state.liberated) or "none"
    print(f"{winner} wins after round {state.round}; returns {unrest.returns(state)}; liberated: {freed}")


def _missions_met(state: UnrestState, district: int) -> str:
    """The names of the Missions that the liberated District's stack meets."""
    conditions = missions_for(state, district)
    stack = state.stacks[district]
    met = (m for m, c in zip(state.missions, conditions, strict=True) if c.is_met(stack))
    return ", ".join(CONTENT.missions[m].name for m in met)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7, sys.argv[2] if len(sys.argv) > 2 else "standard")
