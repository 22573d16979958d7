"""A seeded Runebound co-op fight: Elian against the Sorcerer, played by the heuristic hero bot.

Run: ``python examples/runebound_fight.py [seed]``. Prints every decision, the table after it, the result and the
exact odds of the fight from its first cast.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

import runebound_coop as rb
from runebound_coop.bots import default_agents
from tabletop_core import sample_outcome
from tabletop_core.spec import CHANCE


def main(seed: int = 7) -> None:
    """Play one seeded fight and print it."""
    options: dict[str, Any] = {"heroes": ("Elian",), "enemies": ("Sorcerer",), "max_rounds": 3}
    state = rb.new_game(**options)
    agents = default_agents(rb.GAME, state)
    rng = np.random.default_rng(seed)
    print(f"seed {seed}: Elian vs the Sorcerer (Mystic board)\n")
    casts: list[str] = []
    while not rb.is_terminal(state):
        player = rb.current_player(state)
        if player == CHANCE:
            action = sample_outcome(rb.chance_outcomes(state), rng)
            casts.append(rb.action_to_str(state, action).split(" lands ")[-1])  # "Elian token 2 lands S*": the face
            state = rb.step(state, action)
            continue
        if casts:
            print(f"cast: {' '.join(casts)}")
            casts = []
        print(rb.render(state))
        legal = rb.legal_actions(state)
        action = agents[player].act(rb.observe(state, player), legal, rng)
        print(f"> player {player}: {rb.action_to_str(state, action)}\n")
        state = rb.step(state, action)
    print(rb.render(state))
    result = {1.0: "the hero wins", -1.0: "the hero is defeated", 0.0: "undecided: the hero withdraws"}
    print(f"\nresult: {result[rb.returns(state)[0]]}")
    for hero, enemy in (("Elian", "Sorcerer"), ("Corbin", "Undead Horde")):
        exact = rb.odds(hero, enemy, max_rounds=1)
        print(
            f"exact odds, {hero} vs {enemy} within one round, optimal play: win {exact.win:.4f}, "
            f"loss {exact.loss:.4f}, expected damage taken {exact.expected_damage:.2f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
