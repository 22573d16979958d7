"""Exact analysis of small games: expected returns over the whole game tree, with memoization.

Chance nodes are weighted by their exact probabilities and decision nodes by a policy (uniform by default), so a
bot author can check a bot's value, or a rules author a distribution, without sampling. The tree is walked
depth first and every state is memoized by value (states are immutable and hashable), which suits games whose
trees fit in memory (Kuhn poker, single fights, endgames).

>>> from tabletop_core.testing.kuhn import GAME
>>> [round(v, 12) for v in expected_returns(GAME, GAME.new_game())]
[0.125, -0.125]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from tabletop_core.errors import TabletopError
from tabletop_core.spec import CHANCE, TERMINAL

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["Policy", "expected_returns", "uniform_policy"]

S = TypeVar("S")
A = TypeVar("A")

#: A policy maps a decision state and its legal actions to one probability per action.
Policy = Callable[[S, Sequence[A]], Sequence[float]]


def uniform_policy(state: object, legal: Sequence[object]) -> Sequence[float]:
    """Every legal action equally likely."""
    return [1.0 / len(legal)] * len(legal)


def expected_returns(
    game: Game[S, A, Any],
    state: S,
    policy: Policy[S, A] | None = None,
    *,
    max_states: int = 2_000_000,
    value: Callable[[S], Sequence[float]] | None = None,
) -> tuple[float, ...]:
    """The exact expected returns of every player from ``state``.

    Args:
        game: the ``Game``.
        state: where to start (chance nodes included).
        policy: the decision policy of every player (default: uniform over the legal actions).
        max_states: refuse trees with more distinct states than this (``TabletopError``).
        value: what a terminal state is worth to each player (default ``game.returns``); for example 1 for a won
            game and 0 otherwise gives each player's exact probability of winning.
    """
    choose = policy or uniform_policy
    worth = value or game.returns
    memo: dict[Any, tuple[float, ...]] = {}
    n = game.num_players(state)
    # Iterative post-order walk: a frame is (state, children, weights) once expanded.
    stack: list[tuple[Any, list[Any] | None, list[float] | None]] = [(state, None, None)]
    while stack:
        node, children, weights = stack.pop()
        if node in memo:
            continue
        if children is None:
            player = game.current_player(node)
            if player == TERMINAL:
                memo[node] = tuple(float(r) for r in worth(node))
                continue
            if player == CHANCE:
                outcomes = game.chance_outcomes(node)
                kids = [game.apply_unchecked(node, a) for a, _ in outcomes]
                probs = [p for _, p in outcomes]
            else:
                legal = game.legal_actions(node)
                kids = [game.apply_unchecked(node, a) for a in legal]
                probs = list(choose(node, legal))
                if len(probs) != len(kids) or abs(sum(probs) - 1.0) > 1e-9 or min(probs) < 0:
                    raise TabletopError(f"policy gave {probs} for {len(kids)} legal actions")
            stack.append((node, kids, probs))
            stack.extend((kid, None, None) for kid in kids if kid not in memo)
            if len(memo) + len(stack) > max_states:
                raise TabletopError(f"{game.spec.short_name}: more than {max_states} states to evaluate")
            continue
        assert weights is not None
        total = [0.0] * n
        for kid, w in zip(children, weights, strict=True):
            for i, r in enumerate(memo[kid]):
                total[i] += w * r
        memo[node] = tuple(total)
    return memo[state]
