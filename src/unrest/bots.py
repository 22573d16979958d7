"""Heuristic bots (placeholder until the heuristics land)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["EmpireBot", "RebellionBot"]


class RebellionBot:
    """The Rebellion's heuristic bot."""

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose an action."""
        return legal_actions[0]


class EmpireBot:
    """The Empire's heuristic bot."""

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose an action."""
        return legal_actions[0]
