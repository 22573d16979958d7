"""Unrest: the two-player game of Rebellion (player 0) against Empire (player 1), with hidden information.

>>> import unrest
>>> import numpy as np
>>> state = unrest.new_game(seed=1)
>>> rng = np.random.default_rng(1)
>>> while not unrest.is_terminal(state):
...     state = unrest.step(state, unrest.legal_actions(state)[0], rng=rng)
>>> unrest.returns(state) in ((1.0, -1.0), (-1.0, 1.0))
True
"""

from unrest.game import GAME, Unrest
from unrest.state import EMPIRE, REBELLION, UnrestOptions, UnrestState
from unrest.view import UnrestInformation, UnrestView

__all__ = [
    "EMPIRE",
    "GAME",
    "REBELLION",
    "Unrest",
    "UnrestInformation",
    "UnrestOptions",
    "UnrestState",
    "UnrestView",
    "action_from_id",
    "action_id",
    "action_to_str",
    "chance_outcomes",
    "current_player",
    "determinize",
    "information_state",
    "information_state_tensor",
    "is_legal",
    "is_terminal",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "observation_tensor",
    "observe",
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
information_state = GAME.information_state
information_state_tensor = GAME.information_state_tensor
