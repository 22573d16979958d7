"""The benchmark's random playout, for tests of any game: the sampled states and the step counts that speed tests
pin come from the same draws as ``benchmarks/run.py``'s loop (a chance outcome by ``sample_outcome``, a decision
by ``legal[int(rng.integers(len(legal)))]``, through the checked ``step``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL


def random_playout(game: Any, state: Any, rng: np.random.Generator) -> Iterator[Any]:
    """Every state of one random game from ``state``, the terminal state last (``state`` first)."""
    yield state
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        state = game.step(state, action)
        yield state
