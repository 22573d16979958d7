"""Agents: anything with ``act(view, legal_actions, rng) -> action``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["Agent", "FirstAgent", "RandomAgent", "SearchAgent", "choose_action"]

A = TypeVar("A")
S = TypeVar("S")


@runtime_checkable
class Agent(Protocol):
    """A bot: given what its player sees and the legal actions, it picks one.

    ``view`` is ``game.observe(state, player)``; ``rng`` is the only source of randomness an agent may use, so
    seeded games are reproducible.
    """

    # A game's own bot declares its view and action types: a protocol over ``object`` (or generic) would refuse it.
    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:  # Any: a game's types
        """Choose one of ``legal_actions``."""
        ...


@runtime_checkable
class SearchAgent(Protocol):
    """A bot that searches from a full state (MCTS, ISMCTS, expectimax).

    The runner never hands it the true state of a hidden-information game: it passes
    ``game.determinize(state, player, rng)``, a full state drawn from those consistent with the player's view,
    so a search agent can leak nothing that ``observe`` hides.
    """

    # A game's own search agent names its state type: a generic method (or ``object``) would refuse it.
    def act_in(
        self,
        game: Game[Any, Any, Any],
        state: Any,  # Any: a game's own state type (see above)
        player: int,
        rng: np.random.Generator,
    ) -> Any:
        """Choose a legal action of ``player`` in ``state`` (a determinization of the true state)."""
        ...


def choose_action(
    agent: Agent | SearchAgent, game: Game[S, A, Any], state: S, player: int, rng: np.random.Generator
) -> A:
    """Ask ``agent`` for ``player``'s action in ``state``: a view for an :class:`Agent`, a determinization for a
    :class:`SearchAgent`."""
    action: A
    # What ``isinstance(agent, SearchAgent)`` asks, without typing's protocol check, which costs more than a
    # cheap bot's whole move (a search asks this once per tree node per iteration when a bot is its prior).
    if hasattr(agent, "act_in"):
        action = cast(SearchAgent, agent).act_in(game, game.determinize(state, player, rng), player, rng)
    else:
        action = agent.act(game.observe(state, player), game.legal_actions(state), rng)
    return action


class RandomAgent:
    """Picks a legal action uniformly at random.

    >>> RandomAgent().act(None, ("a", "b", "c"), np.random.default_rng(0))
    'c'
    """

    def act(self, view: object, legal_actions: Sequence[A], rng: np.random.Generator) -> A:
        """A uniformly random legal action."""
        return legal_actions[int(rng.integers(len(legal_actions)))]

    def __repr__(self) -> str:
        return "RandomAgent()"


class FirstAgent:
    """Always picks the legal action with the lowest id (a deterministic baseline)."""

    def act(self, view: object, legal_actions: Sequence[A], rng: np.random.Generator) -> A:
        """The first legal action."""
        return legal_actions[0]

    def __repr__(self) -> str:
        return "FirstAgent()"
