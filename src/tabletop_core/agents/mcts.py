"""Open-loop Monte Carlo tree search that serves perfect information, chance and hidden information alike.

The tree is keyed by the sequence of decision ids from the root; chance outcomes are sampled afresh on every
iteration (open loop), so the same tree averages over dice, draws and casts with their true probabilities. In a
hidden-information game every iteration starts from a new ``determinize`` of the root, which makes the search a
single-observer information-set MCTS (SO-ISMCTS, Cowling, Powley and Whitehouse 2012): actions are scored with
availability counts, because an action legal in one determinization may not be in another.

>>> from tabletop_core.testing.kuhn import GAME
>>> from tabletop_core import play, RandomAgent
>>> _, record = play(GAME, [MCTSAgent(iterations=50), RandomAgent()], seed=1)
>>> record.returns is not None
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tabletop_core.chance import sample_outcome
from tabletop_core.errors import TabletopError
from tabletop_core.spec import CHANCE, TERMINAL, Information

__all__ = ["MCTSAgent"]


class _Node:
    __slots__ = ("avail", "visits", "wins")

    def __init__(self) -> None:
        self.visits: dict[int, int] = {}
        self.wins: dict[int, float] = {}
        self.avail: dict[int, int] = {}


class MCTSAgent:
    """UCT search with random rollouts (a :class:`~tabletop_core.agents.SearchAgent`).

    Args:
        iterations: simulations per decision.
        exploration: the UCB constant, applied to returns scaled to [0, 1] by the spec's utility bounds.
        rollout_limit: the most actions a rollout takes before ``evaluate`` scores the state.
        evaluate: scores a non-terminal state for every player (default: ``game.returns``).
        rollout_policy: picks a rollout action from ``(state, legal_actions, rng)`` (default: uniform).
    """

    def __init__(
        self,
        iterations: int = 200,
        exploration: float = 1.4,
        rollout_limit: int = 400,
        evaluate: Callable[[Any, Any], Sequence[float]] | None = None,
        rollout_policy: Callable[[Any, Sequence[Any], np.random.Generator], Any] | None = None,
    ) -> None:
        if iterations < 1:
            raise TabletopError(f"MCTSAgent: iterations must be >= 1, not {iterations}")
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.evaluate = evaluate
        self.rollout_policy = rollout_policy

    def __repr__(self) -> str:
        return f"MCTSAgent(iterations={self.iterations}, exploration={self.exploration})"

    def act_in(self, game: Any, state: Any, player: int, rng: np.random.Generator) -> Any:
        """Search from ``state`` (a determinization when information is hidden) and return the most visited action."""
        legal = game.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        hidden = game.spec.information == Information.IMPERFECT
        low, high = game.spec.min_utility, game.spec.max_utility
        scale = 1.0 / (high - low) if high > low else 1.0
        tree: dict[tuple[int, ...], _Node] = {}
        for _ in range(self.iterations):
            root = game.determinize(state, player, rng) if hidden else state
            self._iterate(game, root, tree, rng, (low, scale))
        node = tree[()]
        by_id = {game.action_id(a): a for a in legal}
        best = max(by_id, key=lambda i: (node.visits.get(i, 0), node.wins.get(i, 0.0), -i))
        return by_id[best]

    def _iterate(
        self,
        game: Any,
        state: Any,
        tree: dict[tuple[int, ...], _Node],
        rng: np.random.Generator,
        norm: tuple[float, float],
    ) -> None:
        low, scale = norm
        key: tuple[int, ...] = ()
        trail: list[tuple[_Node, int, int]] = []
        while True:
            actor = game.current_player(state)
            if actor == TERMINAL:
                break
            if actor == CHANCE:
                state = game.apply_unchecked(state, sample_outcome(game.chance_outcomes(state), rng))
                continue
            legal = game.legal_actions(state)
            found = tree.get(key)
            fresh = found is None
            node = tree.setdefault(key, _Node()) if found is None else found
            ids = [game.action_id(a) for a in legal]
            for i in ids:
                node.avail[i] = node.avail.get(i, 0) + 1
            untried = [k for k, i in enumerate(ids) if i not in node.visits]
            if untried:
                k = untried[int(rng.integers(len(untried)))]
            else:
                k = max(range(len(ids)), key=lambda j: self._ucb(node, ids[j]))
            trail.append((node, ids[k], actor))
            state = game.apply_unchecked(state, legal[k])
            key = (*key, ids[k])
            if fresh or untried:
                break
        values = self._rollout(game, state, rng)
        for node, action, actor in trail:
            node.visits[action] = node.visits.get(action, 0) + 1
            node.wins[action] = node.wins.get(action, 0.0) + (values[actor] - low) * scale

    def _ucb(self, node: _Node, action: int) -> float:
        n = node.visits[action]
        return node.wins[action] / n + self.exploration * math.sqrt(math.log(node.avail[action]) / n)

    def _rollout(self, game: Any, state: Any, rng: np.random.Generator) -> Sequence[float]:
        for _ in range(self.rollout_limit):
            actor = game.current_player(state)
            if actor == TERMINAL:
                return tuple(game.returns(state))
            if actor == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                if self.rollout_policy is not None:
                    action = self.rollout_policy(state, legal, rng)
                else:
                    action = legal[int(rng.integers(len(legal)))]
            state = game.apply_unchecked(state, action)
        if game.current_player(state) == TERMINAL:
            return tuple(game.returns(state))
        if self.evaluate is not None:
            return tuple(self.evaluate(game, state))
        return tuple(game.returns(state))
