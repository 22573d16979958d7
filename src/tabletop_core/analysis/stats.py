"""The statistics of an analysis, each with its 95% interval and the games behind it (SciPy; the ``sim`` extra).

* Proportions over games (a seat's win rate): Wilson score intervals.
* Means over games (returns, lengths, lead changes): Student-t intervals.
* Ratios of sums over games (the share of decisions that were real choices, the mean branching factor): the
  percentile bootstrap over games (``scipy.stats.bootstrap``, 2,000 resamples, a fixed seed so a report
  regenerates to the same numbers), because the decisions of one game are not independent of each other.
* Luck against skill (:func:`luck_and_skill`): a two-way analysis of variance without replication over a table
  ``y[deal, condition]``; the shares of the total sum of squares are the condition's (the agents), the deal's (the
  chance) and the rest (their interaction plus the agents' own randomness), with bootstrap intervals over deals
  and the F-tests' p-values.
* Drama (:func:`drama`): lead changes and swings of the estimated win chances, per game, as means.
* Restricted play (:func:`paired_change`): the mean paired difference of a win indicator between the restricted
  game and the unrestricted game of the same seeds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tabletop_core.simulation.outcomes import competitive
from tabletop_core.simulation.stats import mean_interval, wilson_interval

__all__ = [
    "bootstrap_ratio",
    "branching",
    "drama",
    "lead_changes",
    "lengths",
    "luck_and_skill",
    "mean_row",
    "paired_change",
    "seat_advantage",
]

RESAMPLES = 2000
_EPS = 1e-12


def _finite(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


def mean_row(values: Sequence[float], bounds: tuple[float, float] = (0.0, math.inf)) -> dict[str, Any]:
    """``mean``, ``interval`` (95% Student-t, cut to the values' possible ``bounds``), ``games`` and the range of
    some per-game values (counts by default: at least 0)."""
    if not values:
        return {"mean": None, "interval": [None, None], "games": 0, "min": None, "max": None}
    mean, low, high = mean_interval([float(v) for v in values])
    return {
        "mean": mean,
        "interval": [max(low, bounds[0]), min(high, bounds[1])],
        "games": len(values),
        "min": float(min(values)),
        "max": float(max(values)),
    }


def bootstrap_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> dict[str, Any]:
    """``sum(numerators) / sum(denominators)`` with a percentile bootstrap interval over games (see the module)."""
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    if len(num) == 0 or den.sum() == 0:
        return {"value": None, "interval": [None, None], "games": len(num)}
    value = float(num.sum() / den.sum())
    if len(num) < 2 or (np.allclose(num / np.where(den == 0, 1, den), value) and np.all(den > 0)):
        return {"value": value, "interval": [value, value], "games": len(num)}
    from scipy.stats import bootstrap

    def ratio(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
        out: np.ndarray = np.asarray(n.sum(axis=axis) / np.maximum(d.sum(axis=axis), _EPS))
        return out

    res = bootstrap(
        (num, den),
        ratio,
        paired=True,
        vectorized=True,
        n_resamples=RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    return {
        "value": value,
        "interval": [float(res.confidence_interval.low), float(res.confidence_interval.high)],
        "games": len(num),
    }


def seat_advantage(spec: Any, names: Sequence[str], traces: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: win rate (Wilson), ties, mean return (Student-t), over the finished games."""
    done = [t for t in traces if t["returns"] is not None]
    rows = []
    for seat, name in enumerate(names):
        outcomes = [t["outcomes"][seat] for t in done]
        wins = outcomes.count("win")
        mean, low, high = mean_interval([t["returns"][seat] for t in done]) if done else (None, None, None)
        if low is not None and high is not None:
            low, high = max(low, spec.min_utility), min(high, spec.max_utility)
        rows.append(
            {
                "seat": seat,
                "seat_name": name,
                "games": len(done),
                "wins": wins,
                "ties": outcomes.count("tie"),
                "win_rate": wins / len(done) if done else None,
                "win_interval": list(wilson_interval(wins, len(done))),
                "mean_return": mean,
                "return_interval": [low, high],
            }
        )
    return rows


def lengths(traces: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Game length in actions, decisions, chance events and rounds, and the share of real choices."""
    rounds = [t["rounds"] for t in traces if t["rounds"] is not None]
    return {
        "games": len(traces),
        "unfinished": sum(1 for t in traces if t["returns"] is None),
        "actions": mean_row([t["actions"] for t in traces]),
        "decisions": mean_row([t["decisions"] for t in traces]),
        "chance_events": mean_row([t["chance_events"] for t in traces]),
        "rounds": mean_row(rounds) if rounds else None,
        "choice_share": bootstrap_ratio([t["choices"] for t in traces], [t["decisions"] for t in traces]),
    }


def branching(traces: Sequence[Mapping[str, Any]], bins: int = 10, first: int = 40) -> dict[str, Any]:
    """The branching factor (legal actions per decision) overall, by tenth of the game and by decision number.

    ``by_progress[k]`` pools the decisions in the ``k``-th tenth of their game (decision ``i`` of ``n`` falls in
    tenth ``floor(10 i / n)``); ``by_decision[i]`` is the ``i``-th decision of every game that had one.
    """
    overall = bootstrap_ratio([sum(t["branching"]) for t in traces], [len(t["branching"]) for t in traces])
    pooled: list[list[float]] = [[] for _ in range(bins)]
    per_index: list[list[float]] = [[] for _ in range(first)]
    for t in traces:
        b = t["branching"]
        for i, width in enumerate(b):
            pooled[min(bins - 1, bins * i // len(b))].append(width)
            if i < first:
                per_index[i].append(width)
    return {
        "mean": overall,
        "max": max((max(t["branching"]) for t in traces if t["branching"]), default=None),
        "by_progress": [{"part": k, **mean_row(v)} | {"decisions": len(v)} for k, v in enumerate(pooled)],
        "by_decision": [{"decision": i, **mean_row(v)} for i, v in enumerate(per_index) if v],
    }


def _anova(table: np.ndarray) -> tuple[float, float, float, float]:
    """Shares of the total sum of squares: conditions (columns), deals (rows), the rest; and the total."""
    grand = table.mean()
    total = float(((table - grand) ** 2).sum())
    if total <= _EPS:
        return (math.nan, math.nan, math.nan, 0.0)
    rows, cols = table.shape
    ss_cond = float(rows * ((table.mean(axis=0) - grand) ** 2).sum())
    ss_deal = float(cols * ((table.mean(axis=1) - grand) ** 2).sum())
    return (ss_cond / total, ss_deal / total, max(0.0, total - ss_cond - ss_deal) / total, total)


def luck_and_skill(table: Sequence[Sequence[float]], conditions: Sequence[str]) -> dict[str, Any]:
    """How much of the variance of the results the agents explain and how much the chance (see the module).

    Args:
        table: ``table[d][c]`` is the result of deal ``d`` (one chance seed) under condition ``c`` (the agents).
        conditions: the conditions' labels.
    """
    y = np.asarray(table, dtype=float)
    deals, cols = y.shape if y.ndim == 2 else (0, 0)
    agent, chance, rest, total = _anova(y) if deals else (math.nan, math.nan, math.nan, 0.0)
    out: dict[str, Any] = {
        "deals": deals,
        "conditions": list(conditions),
        "games": deals * cols,
        "total_sum_of_squares": total,
        "agents": {"share": _finite(agent), "interval": [None, None]},
        "chance": {"share": _finite(chance), "interval": [None, None]},
        "rest": {"share": _finite(rest), "interval": [None, None]},
        "condition_means": [
            mean_row(list(y[:, c]), (-math.inf, math.inf)) | {"condition": conditions[c]} for c in range(cols)
        ],
    }
    if deals < 2 or cols < 2 or total <= _EPS:
        return out
    from scipy import stats

    df_c, df_d = cols - 1, deals - 1
    df_r = df_c * df_d
    ss_r = rest * total
    if ss_r > _EPS:
        out["agents"]["p_value"] = float(stats.f.sf((agent * total / df_c) / (ss_r / df_r), df_c, df_r))
        out["chance"]["p_value"] = float(stats.f.sf((chance * total / df_d) / (ss_r / df_r), df_d, df_r))
    index = np.arange(deals)

    def shares(idx: np.ndarray) -> np.ndarray:
        out: np.ndarray = np.nan_to_num(np.asarray(_anova(y[idx.astype(int)])[:3]), nan=0.0)
        return out

    from scipy.stats import bootstrap

    res = bootstrap(
        (index,),
        shares,
        vectorized=False,
        n_resamples=RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    for k, name in enumerate(("agents", "chance", "rest")):
        out[name]["interval"] = [float(res.confidence_interval.low[k]), float(res.confidence_interval.high[k])]
    return out


def lead_changes(spec: Any, chances: Sequence[Sequence[float]]) -> tuple[int, float, float]:
    """Lead changes, total swing and largest swing of one game's win-chance series.

    The leader is the seat with the highest win chance in a competitive game (a tie leaves the lead where it
    was); in any other game, whether seat 0 (the player, the party) is more likely to win than not (a chance of
    exactly one half leaves it). A swing is the largest change of any seat's win chance between two points.
    """
    versus = competitive(spec, len(chances[0])) if chances else False
    leader: int | None = None
    changes = 0
    for point in chances:
        if versus:
            best = max(point)
            top = [s for s, p in enumerate(point) if abs(p - best) <= 1e-9]
            now = top[0] if len(top) == 1 else None
        else:
            now = 1 if point[0] > 0.5 + 1e-9 else 0 if point[0] < 0.5 - 1e-9 else None
        if now is None:
            continue
        if leader is not None and now != leader:
            changes += 1
        leader = now
    swings = [max(abs(a - b) for a, b in zip(p, q, strict=True)) for p, q in itertools.pairwise(chances)]
    return changes, float(sum(swings)), float(max(swings, default=0.0))


def drama(spec: Any, traces: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Mean lead changes, total swing and largest swing per game, over the games with win chances."""
    series = [t["drama"] for t in traces if "drama" in t]
    per = [lead_changes(spec, d["chances"]) for d in series]
    methods = sorted({m for d in series for m in d["method"]})
    return {
        "games": len(series),
        "method": methods,
        "lead_changes": mean_row([p[0] for p in per]),
        "total_swing": mean_row([p[1] for p in per]),
        "largest_swing": mean_row([p[2] for p in per], (0.0, 1.0)),
        "examples": [{"at": d["at"], "chances": d["chances"]} for d in series[:6]],
    }


def paired_change(
    restricted: Sequence[Mapping[str, Any]], baseline: Sequence[Mapping[str, Any]], score: Callable[[Any], float]
) -> dict[str, Any]:
    """The mean of ``score(restricted) - score(baseline)`` over pairs of games of the same seeds (Student-t)."""
    pairs = [
        (r, b)
        for r, b in zip(restricted, baseline, strict=True)
        if r["returns"] is not None and b["returns"] is not None
    ]
    diffs = [score(r) - score(b) for r, b in pairs]
    mean, low, high = mean_interval(diffs) if diffs else (None, None, None)
    return {"change": mean, "interval": [low, high], "games": len(diffs)}
