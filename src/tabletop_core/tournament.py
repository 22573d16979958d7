"""Tournaments: agents play seeded games in every seat and the results come with confidence intervals."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import permutations
from typing import Any

import attrs

from tabletop_core.agents import Agent, SearchAgent
from tabletop_core.errors import OptionError
from tabletop_core.records import play

__all__ = ["Standing", "tournament"]

AgentFactory = Callable[[], Agent | SearchAgent]


@attrs.frozen
class Standing:
    """One agent's results over a tournament.

    Attributes:
        name: the agent's name.
        games: games played.
        wins: games in which its return was strictly the highest of the table (shared utility: above 0).
        mean_return: the mean of its returns.
        stderr: the standard error of ``mean_return``.
    """

    name: str
    games: int
    wins: int
    mean_return: float
    stderr: float

    @property
    def win_rate(self) -> float:
        """Wins per game."""
        return self.wins / self.games if self.games else 0.0

    def win_rate_interval(self, z: float = 1.96) -> tuple[float, float]:
        """The Wilson score interval of the win rate."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))


def tournament(
    game: Any,
    agents: Mapping[str, AgentFactory],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Standing]:
    """Play every seating of the named agents (``games`` games per seating, seeds ``seed, seed+1, ...``).

    With as many agents as players, each permutation of seats is played; a 1-player game plays each agent alone.

    >>> from tabletop_core import RandomAgent, FirstAgent
    >>> from tabletop_core.testing.kuhn import GAME
    >>> table = tournament(GAME, {"random": RandomAgent, "first": FirstAgent}, games=10)
    >>> table["random"].games
    20
    """
    state = game.initial_state(game.make_options(**dict(options or {})))
    players = game.num_players(state)
    names = list(agents)
    seatings: list[tuple[str, ...]]
    if players == 1:
        seatings = [(n,) for n in names]
    elif len(names) == players:
        seatings = list(permutations(names))
    else:
        raise OptionError(f"{game.spec.short_name}: {players} players need {players} named agents, got {len(names)}")
    returns: dict[str, list[float]] = {n: [] for n in names}
    wins = dict.fromkeys(names, 0)
    for seating in seatings:
        for g in range(games):
            _, record = play(game, [agents[n]() for n in seating], seed=seed + g, options=options)
            result = record.returns if record.returns is not None else tuple(0.0 for _ in seating)
            best = max(result)
            for seat, name in enumerate(seating):
                returns[name].append(result[seat])
                top = result[seat] == best and result.count(best) == 1
                if (players == 1 and result[seat] > 0) or (players > 1 and top):
                    wins[name] += 1
    table = {}
    for name in names:
        values = returns[name]
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        table[name] = Standing(name, n, wins[name], mean, math.sqrt(var / n))
    return table
