"""Tournaments in one call: named agent factories play seeded games in every seating they can play.

A thin layer over :mod:`tabletop_core.simulation` for agents built in Python (factories rather than spec texts),
played in this process. For process pools, Ray, saved results, leagues and ratings use
:func:`tabletop_core.simulation.run` or ``tabletop simulate``.

Wins follow the game's utility (:mod:`tabletop_core.outcomes`): the highest return in zero-sum games
(ties counted apart), a won game for a solo player or a co-op party. An agent factory (a class, usually) that
declares ``seats`` is seated only there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from itertools import permutations
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from tabletop_core.agents import Agent, SearchAgent
from tabletop_core.agents.specs import declared_seats
from tabletop_core.errors import OptionError
from tabletop_core.simulation.plan import game_seed
from tabletop_core.simulation.runner import play_game

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["Standing", "tournament"]

AgentFactory = Callable[[], Agent | SearchAgent]


@attrs.frozen
class Standing:
    """One agent's results over a tournament.

    Attributes:
        name: the agent's name.
        games: games played.
        wins: games it won (by the game's utility: see the module).
        mean_return: the mean of its returns.
        stderr: the standard error of ``mean_return``.
        ties: games it tied (zero-sum games whose highest return it shared).
    """

    name: str
    games: int
    wins: int
    mean_return: float
    stderr: float
    ties: int = 0

    @property
    def win_rate(self) -> float:
        """Wins per game."""
        return self.wins / self.games if self.games else 0.0

    def win_rate_interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate (SciPy, from the ``sim`` extra)."""
        from tabletop_core.simulation.stats import wilson_interval

        return wilson_interval(self.wins, self.games)


def _seatings(names: list[str], agents: Mapping[str, AgentFactory], players: int, short: str) -> list[tuple[str, ...]]:
    if players == 1:
        return [(n,) for n in names]
    if len(names) != players:
        raise OptionError(f"{short}: {players} players need {players} named agents, got {len(names)}")
    seats = {n: declared_seats(agents[n]) for n in names}

    def fits(name: str, seat: int) -> bool:
        allowed = seats[name]
        return allowed is None or seat in allowed

    out = [p for p in permutations(names) if all(fits(n, s) for s, n in enumerate(p))]
    if not out:
        raise OptionError(f"{short}: no seating seats every agent where it can play ({seats})")
    return out


def tournament(
    game: Game[Any, Any, Any],
    agents: Mapping[str, AgentFactory],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Standing]:
    """Play every seating of the named agents that seats each where it can play, ``games`` games per seating.

    With as many agents as players, each permutation of seats is played (but an agent whose factory declares
    ``seats`` only there); a 1-player game plays each agent alone. Game ``g`` of every seating has the seed
    ``game_seed(seed, g)``, as in :mod:`tabletop_core.simulation`.

    >>> from tabletop_core import RandomAgent, FirstAgent
    >>> from tabletop_core.testing.kuhn import GAME
    >>> table = tournament(GAME, {"random": RandomAgent, "first": FirstAgent}, games=10)
    >>> table["random"].games
    20
    """
    opts = dict(options or {})
    state = game.initial_state(game.make_options(**opts))
    names = list(agents)
    seatings = _seatings(names, agents, game.num_players(state), game.spec.short_name)
    returns: dict[str, list[float]] = {n: [] for n in names}
    wins = dict.fromkeys(names, 0)
    ties = dict.fromkeys(names, 0)
    for seating in seatings:
        for g in range(games):
            line = play_game(game, [agents[n]() for n in seating], game_seed(seed, g), opts)
            values = line["returns"] if line["returns"] is not None else [0.0] * len(seating)
            outcomes = line["outcomes"] or ["loss"] * len(seating)
            for seat, name in enumerate(seating):
                returns[name].append(values[seat])
                wins[name] += outcomes[seat] == "win"
                ties[name] += outcomes[seat] == "tie"
    table = {}
    for name in names:
        values = returns[name]
        n = len(values)
        stderr = float(np.std(values, ddof=1)) / math.sqrt(n) if n > 1 else 0.0
        table[name] = Standing(name, n, wins[name], float(np.mean(values)), stderr, ties[name])
    return table
