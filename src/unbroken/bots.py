"""A heuristic bot for Unbroken (the agent the demo and CLI seat by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["HeuristicAgent"]


class HeuristicAgent:
    """Placeholder: plays the first legal action."""

    def act(self, view: Any, legal: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose an action."""
        return legal[0]
