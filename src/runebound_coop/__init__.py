"""Runebound (3rd ed.) cooperative and solo combat from *Unbreakable Bonds*.

Combat tokens, the four combat boards that play the enemy, heroes and enemies as data, a co-op frame (1-4 heroes
against an encounter) and an exact odds calculator.

>>> import numpy as np
>>> import runebound_coop as rb
>>> state = rb.new_game(seed=7, heroes=("Elian",), enemies=("Sorcerer",))
>>> rng = np.random.default_rng(7)
>>> while not rb.is_terminal(state):
...     state = rb.step(state, rb.legal_actions(state)[-1], rng=rng)
>>> rb.returns(state)[0] in (-1.0, 0.0, 1.0)
True
>>> round(rb.odds("Corbin", "Undead Horde", max_rounds=1).win, 6)
0.447754
"""

from typing import Any

from runebound_coop import exact
from runebound_coop.exact import Odds, Policy
from runebound_coop.game import GAME, RuneboundCoop
from runebound_coop.state import RuneboundOptions, RuneboundState

__all__ = [
    "GAME",
    "Odds",
    "RuneboundCoop",
    "RuneboundOptions",
    "RuneboundState",
    "action_from_id",
    "action_id",
    "action_to_str",
    "chance_outcomes",
    "current_player",
    "determinize",
    "is_legal",
    "is_terminal",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "observation_tensor",
    "observe",
    "odds",
    "parse_action",
    "render",
    "returns",
    "step",
]

new_game = GAME.new_game
current_player = GAME.current_player
legal_actions = GAME.legal_actions
chance_outcomes = GAME.chance_outcomes
is_legal = GAME.is_legal
step = GAME.step
is_terminal = GAME.is_terminal
returns = GAME.returns
observe = GAME.observe
determinize = GAME.determinize
action_id = GAME.action_id
action_from_id = GAME.action_from_id
action_to_str = GAME.action_to_str
parse_action = GAME.parse_action
legal_action_mask = GAME.legal_action_mask
observation_tensor = GAME.observation_tensor
render = GAME.render


def odds(hero: str, enemy: str, *, policy: Policy | None = None, **options: Any) -> Odds:
    """The exact probability that ``hero`` wins a fight against ``enemy``, and the damage it takes
    (:func:`runebound_coop.exact.odds` for this package's game; options as for ``new_game``)."""
    return exact.odds(GAME, hero, enemy, policy=policy, **options)
