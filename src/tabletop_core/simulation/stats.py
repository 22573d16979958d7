"""Statistics of a simulation, from maintained libraries (the ``sim`` extra: SciPy and openskill).

* Win rates with Wilson score intervals (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``).
* Mean returns with Student-t intervals (``scipy.stats.t.interval`` around ``scipy.stats.sem``).
* A head-to-head matrix: how often each agent beat each other agent in the games both sat in.
* Ratings with openskill's Plackett-Luce model, and each agent's rating after every contest (its trajectory).

How games are counted: an agent's row counts each game it played once, with the result of its first seat (an
agent that holds every seat of a co-op party counts the party's game once); the per-seat rows count each seat.
Wins follow :mod:`tabletop_core.simulation.outcomes`.

What a rating contest is: in a competitive game (zero- or constant-sum, two or more players) each game, its
seats ranked by their returns. In every other game (one player, co-op, general-sum) the games that share a deal
(the same seed) are one contest between the parties that played it, ranked by return: the same deal is the
fairest comparison a solo or co-op game offers. A contest in which one agent would stand on two sides (self-play)
is not rated. All intervals are 95%.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tabletop_core.registry import load_game
from tabletop_core.simulation.outcomes import competitive, seat_outcomes, win_rule
from tabletop_core.simulation.plan import Simulation

__all__ = ["mean_interval", "ratings", "summarize", "wilson_interval"]

CONFIDENCE = 0.95


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (SciPy); ``(0, 1)`` for no trials.

    >>> [round(x, 3) for x in wilson_interval(25, 30)]
    [0.664, 0.927]
    """
    if trials == 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest

    ci = binomtest(successes, trials).proportion_ci(confidence_level=CONFIDENCE, method="wilson")
    return (float(ci.low), float(ci.high))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% Student-t interval (SciPy); the interval is the mean itself below two values or
    when every value is the same.

    >>> mean_interval([1.0, 2.0, 3.0])[0]
    2.0
    """
    if not values:
        return (math.nan, math.nan, math.nan)
    import numpy as np
    from scipy import stats

    mean = float(np.mean(values))
    if len(values) < 2 or float(np.std(values)) == 0.0:
        return (mean, mean, mean)
    low, high = stats.t.interval(CONFIDENCE, len(values) - 1, loc=mean, scale=stats.sem(values))
    return (mean, float(low), float(high))


def _row(outcomes: Sequence[str], values: Sequence[float], bounds: tuple[float, float], solo: bool) -> dict[str, Any]:
    n = len(outcomes)
    wins, ties = outcomes.count("win"), outcomes.count("tie")
    mean, low, high = mean_interval(values)
    low, high = max(low, bounds[0]), min(high, bounds[1])  # a return never leaves the spec's bounds
    max_utility = bounds[1]
    row = {
        "games": n,
        "wins": wins,
        "ties": ties,
        "losses": n - wins - ties,
        "win_rate": wins / n if n else math.nan,
        "win_interval": list(wilson_interval(wins, n)),
        "mean_return": mean,
        "return_interval": [low, high],
    }
    if solo and max_utility > 0:
        row["score_share"] = mean / max_utility
    return row


def _contests(lines: Sequence[Mapping[str, Any]], by_game: bool) -> list[list[tuple[tuple[str, ...], float]]]:
    """Rating contests: lists of (team's agents, score); see the module."""
    contests: list[list[tuple[tuple[str, ...], float]]] = []
    if by_game:
        for ln in sorted(lines, key=lambda ln: (ln["deal"], ln["seating"])):  # pairings interleaved, as a league
            contests.append([((str(a),), float(r)) for a, r in zip(ln["agents"], ln["returns"], strict=True)])
    else:
        deals: dict[int, dict[tuple[str, ...], list[float]]] = defaultdict(lambda: defaultdict(list))
        for ln in lines:
            party = tuple(sorted(set(ln["agents"])))
            deals[ln["deal"]][party].append(sum(ln["returns"]) / len(ln["returns"]))
        for deal in sorted(deals):
            parties = deals[deal]
            contests.append([(p, sum(v) / len(v)) for p, v in sorted(parties.items())])
    return [c for c in contests if len(c) > 1 and _disjoint(c)]


def _disjoint(contest: Iterable[tuple[tuple[str, ...], float]]) -> bool:
    seen: set[str] = set()
    for team, _ in contest:
        if seen & set(team):
            return False
        seen |= set(team)
    return True


def ratings(
    contests: Sequence[Sequence[tuple[tuple[str, ...], float]]],
) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """openskill Plackett-Luce ratings over contests in order, and each agent's ordinal after each of its contests.

    Returns:
        The final ratings (``mu``, ``sigma`` and ``ordinal`` = mu - 3 sigma), best first, and the trajectories.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    table: dict[str, Any] = {}
    history: dict[str, list[float]] = defaultdict(list)
    for contest in contests:
        teams = [[table.setdefault(a, model.rating(name=a)) for a in team] for team, _ in contest]
        scores = [score for _, score in contest]
        rated = model.rate(teams, scores=scores)
        for (team, _), new in zip(contest, rated, strict=True):
            for agent, rating in zip(team, new, strict=True):
                table[agent] = rating
                history[agent].append(float(rating.ordinal()))
    final = [
        {"agent": a, "mu": float(r.mu), "sigma": float(r.sigma), "ordinal": float(r.ordinal())}
        for a, r in sorted(table.items(), key=lambda item: (-float(item[1].ordinal()), item[0]))
    ]
    return final, dict(history)


def summarize(sim: Simulation, lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of a simulation's finished games, as a JSON-ready dict (what ``summary.json`` holds)."""
    game = load_game(sim.game)
    spec = game.spec
    finished = [ln for ln in lines if ln["returns"] is not None]
    players = len(finished[0]["returns"]) if finished else game.num_players(game.initial_state(game.make_options()))
    versus = competitive(spec, players)
    solo = players == 1
    bounds = (spec.min_utility, spec.max_utility)
    per_agent: dict[str, tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    per_seat: dict[tuple[str, int], tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    h2h: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])  # wins, ties, games
    for ln in finished:
        agents, returns = ln["agents"], ln["returns"]
        outcomes = seat_outcomes(spec, returns)  # from the returns, by the current rule
        first: dict[str, int] = {}
        for seat, agent in enumerate(agents):
            first.setdefault(agent, seat)
            per_seat[agent, seat][0].append(outcomes[seat])
            per_seat[agent, seat][1].append(float(returns[seat]))
        for agent, seat in first.items():
            per_agent[agent][0].append(outcomes[seat])
            per_agent[agent][1].append(float(returns[seat]))
        if versus:
            for a, sa in first.items():
                for b, sb in first.items():
                    if a != b:
                        cell = h2h[a, b]
                        cell[0] += returns[sa] > returns[sb] + 1e-9
                        cell[1] += abs(returns[sa] - returns[sb]) <= 1e-9
                        cell[2] += 1
    names = finished[0]["seats"] if finished else []
    contests = _contests(finished, by_game=versus)
    final, history = ratings(contests)
    agents_sorted = sorted(per_agent)
    return {
        "game": sim.game,
        "utility": spec.utility.value,
        "win_rule": win_rule(spec, players),
        "games": len(lines),
        "unfinished": len(lines) - len(finished),
        "planned": len(sim.tasks()),
        "seed": sim.seed,
        "seatings": [list(s) for s in sim.seatings],
        "agents": [{"agent": a, **_row(*per_agent[a], bounds, solo)} for a in agents_sorted],
        "seats": [
            {
                "agent": a,
                "seat": s,
                "seat_name": names[s] if s < len(names) else f"player {s}",
                **_row(*per_seat[a, s], bounds, solo),
            }
            for a, s in sorted(per_seat)
        ],
        "head_to_head": [
            {
                "agent": a,
                "opponent": b,
                "wins": int(c[0]),
                "ties": int(c[1]),
                "games": int(c[2]),
                "win_rate": c[0] / c[2] if c[2] else math.nan,
            }
            for (a, b), c in sorted(h2h.items())
        ],
        "ratings": final,
        "rating_history": history,
    }
