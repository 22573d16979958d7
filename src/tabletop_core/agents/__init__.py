"""Agents and search: the agent protocols, the baseline bots and the generic search bots, in one home.

Anything with ``act(view, legal_actions, rng) -> action`` is an :class:`Agent`; a :class:`SearchAgent` searches
from a full state (the runner hands it a determinization, never the truth of a hidden-information game). An
agent that can play only some seats declares them in a ``seats`` attribute (see :mod:`tabletop_core.agents.specs`).
"""

from tabletop_core.agent import Agent, FirstAgent, RandomAgent, SearchAgent, choose_action
from tabletop_core.agents.ismcts import ISMCTSAgent
from tabletop_core.agents.mcts import AgentRollout, MCTSAgent, RandomRollout, RolloutPolicy
from tabletop_core.agents.specs import AgentSpec, declared_seats, parse_agent_spec

__all__ = [
    "Agent",
    "AgentRollout",
    "AgentSpec",
    "FirstAgent",
    "ISMCTSAgent",
    "MCTSAgent",
    "RandomAgent",
    "RandomRollout",
    "RolloutPolicy",
    "SearchAgent",
    "choose_action",
    "declared_seats",
    "parse_agent_spec",
]
