"""tabletop_core: the game protocol, explicit chance, components, serialization, records and agents.

>>> from tabletop_core import play, replay, RandomAgent
>>> from tabletop_core.testing.kuhn import GAME
>>> state, record = play(GAME, [RandomAgent(), RandomAgent()], seed=7)
>>> replay(record, GAME) == state
True
"""

from tabletop_core.agents import Agent, FirstAgent, RandomAgent
from tabletop_core.chance import sample_chance, sample_outcome, settle
from tabletop_core.errors import (
    ContentError,
    IllegalActionError,
    InsufficientError,
    OptionError,
    StateFormatError,
    TabletopError,
)
from tabletop_core.game import Game
from tabletop_core.records import Record, play, replay
from tabletop_core.registry import available_games, load_game
from tabletop_core.serialize import from_json, to_json
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Agent",
    "ChanceMode",
    "ContentError",
    "FirstAgent",
    "Game",
    "GameSpec",
    "IllegalActionError",
    "Information",
    "InsufficientError",
    "OptionError",
    "RandomAgent",
    "Record",
    "StateFormatError",
    "TabletopError",
    "Utility",
    "available_games",
    "from_json",
    "load_game",
    "play",
    "replay",
    "sample_chance",
    "sample_outcome",
    "settle",
    "to_json",
]
