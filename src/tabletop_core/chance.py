"""Sampling explicit chance nodes with a ``numpy.random.Generator`` kept outside the state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from tabletop_core.errors import TabletopError
from tabletop_core.spec import CHANCE

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["outcome_at", "sample_chance", "sample_outcome", "settle"]

T = TypeVar("T")
S = TypeVar("S")


def sample_outcome(outcomes: tuple[tuple[T, float], ...], rng: np.random.Generator) -> T:
    """Draw one outcome of ``(outcome, probability)`` pairs with one ``rng.random()`` call.

    The draw depends only on the generator's stream, so the same seed gives the same outcome in any process.

    >>> sample_outcome((("heads", 0.5), ("tails", 0.5)), np.random.default_rng(0))
    'tails'
    """
    if not outcomes:
        raise TabletopError("sample_outcome: no outcomes to draw from")
    return outcome_at(outcomes, rng.random())


def outcome_at(outcomes: Sequence[tuple[T, float]], u: float) -> T:
    """The outcome whose share of ``[0, 1)`` holds ``u``, the pairs taken in order (the last one past rounding)."""
    acc = 0.0
    for outcome, p in outcomes:
        acc += p
        if u < acc:
            return outcome
    return outcomes[-1][0]


def sample_chance(game: Game[S, T, Any], state: S, rng: np.random.Generator) -> T:
    """Draw an outcome of the chance node ``state`` by its exact probabilities."""
    if game.current_player(state) != CHANCE:
        raise TabletopError(
            f"{game.spec.short_name}: sample_chance needs a chance node, not {game.describe_step(state)}"
        )
    return sample_outcome(game.chance_outcomes(state), rng)


def settle(game: Game[S, Any, Any], state: S, rng: np.random.Generator) -> S:
    """Resolve chance nodes from ``rng`` until a decision or the end of the game."""
    while game.current_player(state) == CHANCE:
        state = game.apply_unchecked(state, sample_outcome(game.chance_outcomes(state), rng))
    return state
