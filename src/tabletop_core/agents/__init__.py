"""Agents and search: the agent protocols, the baseline bots and the generic search bots, in one home.

Anything with ``act(view, legal_actions, rng) -> action`` is an :class:`Agent`; a :class:`SearchAgent` searches
from a full state (the runner hands it a determinization, never the truth of a hidden-information game).
"""

from tabletop_core.agents.base import Agent, FirstAgent, RandomAgent, SearchAgent, choose_action
from tabletop_core.agents.mcts import MCTSAgent

__all__ = ["Agent", "FirstAgent", "MCTSAgent", "RandomAgent", "SearchAgent", "choose_action"]
