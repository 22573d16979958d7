"""Statistics of a simulation, from maintained libraries (the ``sim`` extra: SciPy and statsmodels).

* Win rates with Wilson score intervals (``scipy.stats.binomtest(...).proportion_ci(method="wilson")``).
* Means (returns, scores) by :func:`mean_estimate`, an interval of a kind that fits the data and never leaves
  the values' possible range: for values that take only the two ends of their range (returns of -1 and +1) the
  Wilson interval of the share at the top, mapped onto the range; for 30 values or more with some spread the
  Student-t interval; for fewer, the BCa bootstrap (``scipy.stats.bootstrap``); every interval is cut to the
  range. Values with no spread at all get no interval (the report says "all n the same"), and fewer than
  :data:`MIN_GAMES` values get no figure at all (the report says "too few games").
* A head-to-head matrix: how often each agent beat each other agent in the games both sat in.
* Ratings (:func:`ratings`): a Bradley-Terry model fitted by maximum likelihood (SciPy's optimizer), with a seat
  term in a competitive game, reported as Elo points and with percentile bootstrap intervals over games. The fit
  depends on the games, never on the order they were written in.
* Paired comparisons (:func:`paired`): two agents that played the same deals in the same seat, compared deal by
  deal: McNemar's exact test on the win/not-win pairs (statsmodels) and the paired bootstrap of the difference
  of the returns.

How games are counted: in a competitive game an agent's row counts every seat it held, so a self-play game (one
agent in both seats) counts once per seat, a win and a loss, and the row says how many such games it holds; in a
solo or co-op game an agent that holds every seat of the party counts the party's game once. The per-seat rows
count each seat. Wins follow :mod:`tabletop_core.outcomes`.

What a rating entry is: an agent, and in a competitive game whose agent builds a different bot for different
seats (Unrest's ``heuristic``: the Rebellion's bot and the Empire's), the agent at that seat (``heuristic @
Rebellion``). What a comparison is: in a competitive game each game gives one comparison between every two
seats, by their returns (a tie counts half to each), with the seat term for the seats' own advantage; in every
other game (one player, co-op, general-sum) the games that share a deal (the same seed) compare the parties
that played it, by return. A comparison in which one entry would stand on both sides (self-play) is not
rated. All intervals are 95%.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from tabletop_core.outcomes import competitive, seat_outcomes, win_rule
from tabletop_core.registry import load_game
from tabletop_core.simulation.plan import Simulation

if TYPE_CHECKING:
    from tabletop_core.game import Game
    from tabletop_core.spec import GameSpec

__all__ = [
    "MIN_GAMES",
    "bootstrap_mean",
    "entry_names",
    "mean_estimate",
    "mean_interval",
    "paired",
    "ratings",
    "summarize",
    "wilson_interval",
]

S = TypeVar("S")

CONFIDENCE = 0.95
#: The fewest values a mean is reported from (fewer: "too few games").
MIN_GAMES = 10
#: Below this many values (with some spread) a mean's interval is the bootstrap's, not Student's t.
T_GAMES = 30
#: Bootstrap resamples (a fixed seed, so a report regenerates to the same numbers).
RESAMPLES = 2000
#: Elo points per unit of the Bradley-Terry log-strength.
ELO = 400.0 / math.log(10.0)
_EPS = 1e-9


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
    when every value is the same (see :func:`mean_estimate` for the interval the reports print).

    >>> mean_interval([1.0, 2.0, 3.0])[0]
    2.0
    """
    if not values:
        return (math.nan, math.nan, math.nan)
    from scipy import stats

    mean = float(np.mean(values))
    if len(values) < 2 or float(np.std(values)) == 0.0:
        return (mean, mean, mean)
    low, high = stats.t.interval(CONFIDENCE, len(values) - 1, loc=mean, scale=stats.sem(values))
    return (mean, float(low), float(high))


def bootstrap_mean(values: Sequence[float] | np.ndarray, *, seed: int = 0) -> tuple[float, float]:
    """The 95% BCa bootstrap interval of a mean (``scipy.stats.bootstrap``, :data:`RESAMPLES` resamples)."""
    from scipy.stats import bootstrap

    data = np.asarray(values, dtype=float)
    res = bootstrap(
        (data,), np.mean, n_resamples=RESAMPLES, method="BCa", confidence_level=CONFIDENCE, rng=seed, vectorized=True
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):  # a degenerate BCa: fall back to the percentile method
        res = bootstrap((data,), np.mean, n_resamples=RESAMPLES, method="percentile", rng=seed, vectorized=True)
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return low, high


def mean_estimate(
    values: Sequence[float], bounds: tuple[float, float] = (-math.inf, math.inf), *, min_games: int = MIN_GAMES
) -> dict[str, Any]:
    """A mean with an interval that fits the data (see the module).

    Returns:
        ``mean`` (``None`` below ``min_games`` values), ``interval`` (``[None, None]`` when there is none),
        ``method`` (``wilson``, ``t``, ``bootstrap``, ``no spread`` or ``too few games``) and ``games``.

    >>> mean_estimate([1.0, -1.0] * 10, (-1.0, 1.0))["method"]
    'wilson'
    >>> mean_estimate([0.5, 1.0])["method"]
    'too few games'
    """
    n = len(values)
    out: dict[str, Any] = {"mean": None, "interval": [None, None], "games": n, "method": "too few games"}
    if n < max(1, min_games):
        return out
    data = np.asarray(values, dtype=float)
    mean = float(data.mean())
    out["mean"] = mean
    lo, hi = bounds
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo and np.all((data == lo) | (data == hi)):
        top = int(np.sum(data == hi))
        a, b = wilson_interval(top, n)
        out.update(interval=[lo + (hi - lo) * a, lo + (hi - lo) * b], method="wilson")
        return out
    if float(data.std()) == 0.0:
        out["method"] = "no spread"
        return out
    if n >= T_GAMES:
        _, low, high = mean_interval(list(data))
        method = "t"
    else:
        low, high = bootstrap_mean(data)
        method = "bootstrap"
    out.update(interval=[max(low, lo), min(high, hi)], method=method)
    return out


def _row(outcomes: Sequence[str], values: Sequence[float], bounds: tuple[float, float], solo: bool) -> dict[str, Any]:
    n = len(outcomes)
    wins, ties = outcomes.count("win"), outcomes.count("tie")
    est = mean_estimate(values, bounds)
    row = {
        "games": n,
        "wins": wins,
        "ties": ties,
        "losses": n - wins - ties,
        "win_rate": wins / n if n else math.nan,
        "win_interval": list(wilson_interval(wins, n)),
        "mean_return": est["mean"],
        "return_interval": est["interval"],
        "return_method": est["method"],
    }
    if solo and bounds[1] > 0:
        row["score_share"] = est["mean"] / bounds[1] if est["mean"] is not None else None
    return row


def entry_names(game: Game[S, Any, Any], state: S, agents: Sequence[str], names: Sequence[str]) -> list[str]:
    """The rating entry of each seat's agent (see the module): the agent, or ``agent @ seat`` for an agent that
    builds a different bot for different seats of a competitive game."""
    from tabletop_core.agents.specs import parse_agent_spec

    out = []
    for seat, text in enumerate(agents):
        kinds = set()
        for s in range(len(names)):
            try:
                kinds.add(type(parse_agent_spec(text).build(game, state, s)).__qualname__)
            except Exception:  # an agent bound to some seats cannot build the others; any error says so
                kinds.add(f"seat {s} only")
        out.append(f"{text} @ {names[seat]}" if len(kinds) > 1 else text)
    return out


Comparison = tuple[str, str, float, int, int]  # entry a, entry b, a's score (1, 1/2, 0), a's seat, b's seat


def _fit(comparisons: Sequence[Comparison], entries: Sequence[str], seats: int) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry strengths (and seat terms after them), with a weak normal prior."""
    from scipy.optimize import minimize

    index = {e: i for i, e in enumerate(entries)}
    k = len(entries)
    a = np.array([index[c[0]] for c in comparisons])
    b = np.array([index[c[1]] for c in comparisons])
    y = np.array([c[2] for c in comparisons])
    sa = np.array([c[3] for c in comparisons])
    sb = np.array([c[4] for c in comparisons])
    n_seat = seats if seats > 1 else 0

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        r, s = theta[:k], np.concatenate([[0.0], theta[k:]]) if n_seat else np.zeros(1)
        z = r[a] - r[b] + (s[sa] - s[sb] if n_seat else 0.0)
        p = 1.0 / (1.0 + np.exp(-z))
        nll = float(np.sum(np.logaddexp(0.0, -z) * y + np.logaddexp(0.0, z) * (1.0 - y)))
        nll += 0.5 * 0.01 * float(theta @ theta)  # the prior keeps an unbeaten entry's strength finite
        g = np.zeros_like(theta)
        resid = p - y
        np.add.at(g, a, resid)
        np.add.at(g, b, -resid)
        if n_seat:
            gs = np.zeros(n_seat)
            np.add.at(gs, sa, resid)
            np.add.at(gs, sb, -resid)
            g[k:] += gs[1:]
        g += 0.01 * theta
        return nll, g

    theta0 = np.zeros(k + max(0, n_seat - 1))
    res = minimize(loss, theta0, jac=True, method="L-BFGS-B")
    theta = np.asarray(res.x, dtype=float)
    theta[:k] -= theta[:k].mean()
    return theta


def ratings(
    comparisons: Sequence[Comparison],
    *,
    seats: int = 1,
    seat_names: Sequence[str] = (),
    resamples: int = 200,
    groups: Sequence[int] | None = None,
) -> dict[str, Any]:
    """Bradley-Terry ratings by maximum likelihood, as Elo points around 0, with bootstrap intervals.

    Args:
        comparisons: ``(a, b, score of a, seat of a, seat of b)``; the score is 1, 1/2 or 0.
        seats: the seats of the game (more than one: a seat term is fitted too).
        seat_names: the seats' names (for the seat terms).
        resamples: bootstrap resamples of the games.
        groups: the game of each comparison (the bootstrap draws games, all of a game's comparisons together).

    Returns:
        ``entries`` (``entry``, ``elo``, ``interval``, ``comparisons``), best first; ``seat_terms`` (Elo points
        of each seat over the first, with intervals); ``comparisons``; ``resamples``; ``model``.

    The fit depends on the multiset of comparisons only, not on their order (the bootstrap draws from them in
    a canonical order).
    """
    order = sorted(range(len(comparisons)), key=lambda i: (comparisons[i], groups[i] if groups else 0))
    comps = [comparisons[i] for i in order]
    grp = [groups[i] for i in order] if groups is not None else list(range(len(comps)))
    entries = sorted({c[0] for c in comps} | {c[1] for c in comps})
    held: dict[str, set[int]] = defaultdict(set)
    for c in comps:
        held[c[0]].add(c[3])
        held[c[1]].add(c[4])
    if not any(len(v) > 1 for v in held.values()):
        seats = 1  # every entry keeps one seat: a seat term could not be told from the entries' strengths
    out: dict[str, Any] = {
        "entries": [],
        "seat_terms": [],
        "comparisons": len(comps),
        "resamples": 0,
        "model": "Bradley-Terry by maximum likelihood"
        + (", with a seat term" if seats > 1 else ", no seat term (each entry kept its seat)")
        + "; Elo points (400 log10 odds), centred on the entries' mean",
    }
    if len(entries) < 2:
        return out
    theta = _fit(comps, entries, seats)
    k = len(entries)
    keys = sorted(set(grp))
    members: dict[int, list[int]] = defaultdict(list)
    for i, g in enumerate(grp):
        members[g].append(i)
    rng = np.random.default_rng(0)
    drawn = []
    for _ in range(resamples):
        pick = rng.integers(0, len(keys), len(keys))
        sample = [comps[i] for j in pick for i in members[keys[j]]]
        if len({c[0] for c in sample} | {c[1] for c in sample}) < k:
            continue  # an entry absent from the resample has no strength there
        drawn.append(_fit(sample, entries, seats))
    boots = np.asarray(drawn) if drawn else np.empty((0, len(theta)))
    out["resamples"] = len(drawn)
    counts: dict[str, int] = defaultdict(int)
    for c in comps:
        counts[c[0]] += 1
        counts[c[1]] += 1

    def interval(j: int) -> list[float | None]:
        if not len(boots):
            return [None, None]
        low, high = np.percentile(boots[:, j], [2.5, 97.5])
        return [float(low * ELO), float(high * ELO)]

    rows = [
        {"entry": e, "elo": float(theta[i] * ELO), "interval": interval(i), "comparisons": counts[e]}
        for i, e in enumerate(entries)
    ]
    out["entries"] = sorted(rows, key=lambda r: (-r["elo"], r["entry"]))
    if seats > 1:
        out["seat_terms"] = [
            {
                "seat": s,
                "seat_name": seat_names[s] if s < len(seat_names) else f"seat {s}",
                "elo": float(theta[k + s - 1] * ELO),
                "interval": interval(k + s - 1),
            }
            for s in range(1, seats)
        ]
    return out


def _comparisons(
    lines: Sequence[Mapping[str, Any]], entries: Mapping[tuple[str, int], str], versus: bool
) -> tuple[list[Comparison], list[int]]:
    """The rating comparisons of finished games, and the game (or deal) each belongs to (see the module)."""
    comps: list[Comparison] = []
    groups: list[int] = []
    if versus:
        for g, ln in enumerate(lines):
            names = [entries[a, s] for s, a in enumerate(ln["agents"])]
            r = ln["returns"]
            for i in range(len(r)):
                for j in range(i + 1, len(r)):
                    if names[i] == names[j]:
                        continue
                    score = 1.0 if r[i] > r[j] + _EPS else 0.0 if r[j] > r[i] + _EPS else 0.5
                    comps.append((names[i], names[j], score, i, j))
                    groups.append(g)
        return comps, groups
    deals: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for ln in lines:
        party = " + ".join(sorted(set(ln["agents"])))
        deals[ln["deal"]][party].append(sum(ln["returns"]) / len(ln["returns"]))
    for deal in sorted(deals):
        parties = sorted((p, sum(v) / len(v)) for p, v in deals[deal].items())
        for i in range(len(parties)):
            for j in range(i + 1, len(parties)):
                (pa, va), (pb, vb) = parties[i], parties[j]
                if set(pa.split(" + ")) & set(pb.split(" + ")):
                    continue
                score = 1.0 if va > vb + _EPS else 0.0 if vb > va + _EPS else 0.5
                comps.append((pa, pb, score, 0, 0))
                groups.append(deal)
    return comps, groups


def paired(
    lines: Sequence[Mapping[str, Any]], spec: GameSpec, names: Sequence[str], versus: bool
) -> list[dict[str, Any]]:
    """Paired comparisons: every two seatings that put different agents in one seat (the same agents in the
    others) and played the same deals, compared deal by deal at that seat (see the module)."""
    from statsmodels.stats.contingency_tables import mcnemar

    by_seating: dict[tuple[str, ...], dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for ln in lines:
        by_seating[tuple(ln["agents"])][ln["deal"]] = ln
    seatings = sorted(by_seating)
    rows = []
    for x in range(len(seatings)):
        for y in range(x + 1, len(seatings)):
            a, b = seatings[x], seatings[y]
            if len(a) != len(b):
                continue
            differ = [s for s in range(len(a)) if a[s] != b[s]]
            if versus and len(differ) != 1:
                continue
            if not versus and (set(a) & set(b) or len(set(a)) != 1 or len(set(b)) != 1):
                continue  # co-op and solo: two whole parties, each of one agent
            seat = differ[0] if versus else 0
            deals = sorted(set(by_seating[a]) & set(by_seating[b]))
            if len(deals) < 2:
                continue
            ga = [by_seating[a][d] for d in deals]
            gb = [by_seating[b][d] for d in deals]
            wa = [seat_outcomes(spec, g["returns"])[seat] == "win" for g in ga]
            wb = [seat_outcomes(spec, g["returns"])[seat] == "win" for g in gb]
            only_a = sum(1 for p, q in zip(wa, wb, strict=True) if p and not q)
            only_b = sum(1 for p, q in zip(wa, wb, strict=True) if q and not p)
            both = sum(1 for p, q in zip(wa, wb, strict=True) if p and q)
            table = [[both, only_a], [only_b, len(deals) - both - only_a - only_b]]
            p_value = float(mcnemar(table, exact=True).pvalue) if only_a + only_b else 1.0
            diffs = [float(p["returns"][seat]) - float(q["returns"][seat]) for p, q in zip(ga, gb, strict=True)]
            lo, hi = spec.min_utility - spec.max_utility, spec.max_utility - spec.min_utility
            rows.append(
                {
                    "seat": seat,
                    "seat_name": names[seat] if versus else "the party",
                    "agent": a[seat],
                    "other": b[seat],
                    "seating": list(a),
                    "other_seating": list(b),
                    "deals": len(deals),
                    "wins": sum(wa),
                    "other_wins": sum(wb),
                    "only_agent_won": only_a,
                    "only_other_won": only_b,
                    "mcnemar_p": p_value,
                    "return_difference": mean_estimate(diffs, (lo, hi)),
                    "unpaired_p": _unpaired_p(sum(wa), sum(wb), len(deals)),
                }
            )
    return rows


def _unpaired_p(wins_a: int, wins_b: int, n: int) -> float:
    """Fisher's exact test of two win rates as if the games were unrelated (the unpaired comparison)."""
    from scipy.stats import fisher_exact

    return float(fisher_exact([[wins_a, n - wins_a], [wins_b, n - wins_b]]).pvalue)


def summarize(sim: Simulation, lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of a simulation's finished games, as a JSON-ready dict (what ``summary.json`` holds)."""
    game = load_game(sim.game)
    spec = game.spec
    state = game.initial_state(game.make_options(**dict(sim.options)))
    finished = [ln for ln in lines if ln["returns"] is not None]
    players = len(finished[0]["returns"]) if finished else game.num_players(state)
    versus = competitive(spec, players)
    solo = players == 1
    bounds = (spec.min_utility, spec.max_utility)
    per_agent: dict[str, tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    self_play: dict[str, int] = defaultdict(int)
    per_seat: dict[tuple[str, int], tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    h2h: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])  # wins, ties, games
    for ln in finished:
        agents, returns = ln["agents"], ln["returns"]
        outcomes = seat_outcomes(spec, returns)  # from the returns, by the one rule
        first: dict[str, int] = {}
        for seat, agent in enumerate(agents):
            first.setdefault(agent, seat)
            per_seat[agent, seat][0].append(outcomes[seat])
            per_seat[agent, seat][1].append(float(returns[seat]))
            if versus:  # every seat it held
                per_agent[agent][0].append(outcomes[seat])
                per_agent[agent][1].append(float(returns[seat]))
        if versus:
            for agent in first:
                if agents.count(agent) > 1:
                    self_play[agent] += 1
        else:
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
    names = list(finished[0]["seats"]) if finished else [f"player {s}" for s in range(players)]
    agents_all = sorted({a for s in sim.seatings for a in s})
    entry_of: dict[tuple[str, int], str] = {}
    if versus:
        for a in agents_all:
            for s, e in enumerate(entry_names(game, state, [a] * players, names)):
                entry_of[a, s] = e
    comps, groups = _comparisons(finished, entry_of, versus)
    rated = ratings(comps, seats=players if versus else 1, seat_names=names, groups=groups)
    return {
        "game": sim.game,
        "utility": spec.utility.value,
        "win_rule": win_rule(spec, players),
        "competitive": versus,
        "games": len(lines),
        "unfinished": len(lines) - len(finished),
        "planned": len(sim.tasks()),
        "seed": sim.seed,
        "seatings": [list(s) for s in sim.seatings],
        "seat_names": names,
        "agents": [
            {"agent": a, **_row(*per_agent[a], bounds, solo), "self_play_games": self_play.get(a, 0)}
            for a in sorted(per_agent)
        ],
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
        "ratings": rated,
        "paired": paired(finished, spec, names, versus),
    }
