"""Moved to :mod:`tabletop_core.agent`; this name stays through the 0.x series and warns on import."""

import warnings

from tabletop_core.agent import Agent, FirstAgent, RandomAgent, SearchAgent, choose_action

warnings.warn("tabletop_core.agents.base moved to tabletop_core.agent", DeprecationWarning, stacklevel=2)

__all__ = ["Agent", "FirstAgent", "RandomAgent", "SearchAgent", "choose_action"]
