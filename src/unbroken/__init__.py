"""Unbroken: the solo survival game of 4 Levels of Travel and Combat, with its cards as data.

>>> import numpy as np, unbroken
>>> state = unbroken.new_game(seed=1, difficulty="normal", character="sneak")
>>> rng = np.random.default_rng(1)
>>> while not unbroken.is_terminal(state):
...     state = unbroken.step(state, unbroken.legal_actions(state)[0], rng=rng)
>>> unbroken.returns(state)[0] >= unbroken.GAME.spec.min_utility
True
"""

from unbroken.content.loader import Pack, default_pack, load_pack
from unbroken.game import GAME, LOSS, MAX_SCORE, Unbroken
from unbroken.rules.scoring import score, title
from unbroken.state import Options, State

__all__ = [
    "GAME",
    "LOSS",
    "MAX_SCORE",
    "Options",
    "Pack",
    "State",
    "Unbroken",
    "action_from_id",
    "action_id",
    "action_to_str",
    "chance_outcomes",
    "current_player",
    "default_pack",
    "determinize",
    "is_legal",
    "is_terminal",
    "legal_action_mask",
    "legal_actions",
    "load_pack",
    "new_game",
    "observation_tensor",
    "observe",
    "parse_action",
    "render",
    "returns",
    "score",
    "step",
    "title",
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
