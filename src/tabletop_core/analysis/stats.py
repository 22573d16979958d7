"""The statistics of an analysis, each with its 95% interval and the games behind it (SciPy and statsmodels; the
``sim`` extra).

* Proportions over games (a seat's win rate): Wilson score intervals.
* Means over games (returns, lengths, lead changes): :func:`~tabletop_core.simulation.stats.mean_estimate`, an
  interval that fits the data (Wilson for values at the two ends of their range, Student-t from 30 values, the
  BCa bootstrap below) and stays inside the values' possible range; no figure from fewer than
  :data:`~tabletop_core.simulation.stats.MIN_GAMES` games, no interval for values that are all the same.
* Ratios of sums over games (the share of decisions that were real choices, the branching factor, also by tenth of
  the game): the percentile bootstrap over games (``scipy.stats.bootstrap``, 2,000 resamples, a fixed seed so a
  report regenerates to the same numbers), each game drawn whole, because the decisions of one game are not
  independent of each other (an interval clustered by game).
* Luck against skill (:func:`luck_and_skill`): the sums of squares of a balanced crossed design with seat, agent
  and deal as separate factors and replicated agent seeds per deal (the within-cell term is the agents' own
  randomness), each share with a bootstrap interval over deals.
* Drama (:func:`drama`): lead changes and swings of the estimated win chances, per game, as means; swings also
  with the rollouts' estimated noise taken out, and a warning when the rollouts are too few.
* Restricted play (:func:`paired_change`, :func:`adjust`): the mean paired difference between the restricted game
  and the unrestricted game of the same seeds, the exact sign test of each, and Holm's and Benjamini-Hochberg's
  adjustments over the whole family of items and seats.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tabletop_core.outcomes import competitive
from tabletop_core.simulation.stats import MIN_GAMES, mean_estimate, wilson_interval

if TYPE_CHECKING:
    from tabletop_core.spec import GameSpec

__all__ = [
    "MIN_DEALS",
    "MIN_ROLLOUTS",
    "TERM_LABELS",
    "adjust",
    "bootstrap_ratio",
    "branching",
    "corrected_swings",
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
    """``mean``, ``interval``, ``method``, ``games`` and the range of some per-game values (counts by default: at
    least 0), by :func:`~tabletop_core.simulation.stats.mean_estimate`: an interval of a kind that fits the data,
    inside the values' possible ``bounds``; no figure below :data:`MIN_GAMES` values (``method`` says "too few
    games") and no interval when every value is the same (``method`` "no spread")."""
    if not values:
        return {"mean": None, "interval": [None, None], "method": "too few games", "games": 0, "min": None, "max": None}
    est = mean_estimate([float(v) for v in values], bounds)
    return {
        "mean": est["mean"],
        "interval": est["interval"],
        "method": est["method"],
        "games": len(values),
        "min": float(min(values)),
        "max": float(max(values)),
    }


def bootstrap_ratio(
    numerators: Sequence[float], denominators: Sequence[float], bounds: tuple[float, float] = (0.0, math.inf)
) -> dict[str, Any]:
    """``sum(numerators) / sum(denominators)`` with a percentile bootstrap interval over games (see the module):
    each game is a cluster, drawn whole. No figure from fewer than :data:`MIN_GAMES` games; no interval when
    every game has the same ratio (``method`` "no spread")."""
    num = np.asarray(numerators, dtype=float)
    den = np.asarray(denominators, dtype=float)
    keep = den > 0
    out: dict[str, Any] = {"value": None, "interval": [None, None], "games": int(keep.sum()), "method": "too few games"}
    num, den = num[keep], den[keep]
    if len(num) < MIN_GAMES:
        return out
    value = float(num.sum() / den.sum())
    out["value"] = value
    if np.allclose(num / den, value):
        out["method"] = "no spread"
        return out
    from scipy.stats import bootstrap

    def ratio(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
        result: np.ndarray = np.asarray(n.sum(axis=axis) / np.maximum(d.sum(axis=axis), _EPS))
        return result

    res = bootstrap(
        (num, den),
        ratio,
        paired=True,
        vectorized=True,
        n_resamples=RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    out.update(interval=[max(low, bounds[0]), min(high, bounds[1])], method="bootstrap over games")
    return out


def seat_advantage(spec: GameSpec, names: Sequence[str], traces: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: win rate (Wilson), ties, mean return (:func:`mean_row`, inside the game's utility range), over
    the finished games."""
    done = [t for t in traces if t["returns"] is not None]
    rows = []
    for seat, name in enumerate(names):
        outcomes = [t["outcomes"][seat] for t in done]
        wins = outcomes.count("win")
        ret = mean_row([t["returns"][seat] for t in done], (spec.min_utility, spec.max_utility))
        rows.append(
            {
                "seat": seat,
                "seat_name": name,
                "games": len(done),
                "wins": wins,
                "ties": outcomes.count("tie"),
                "win_rate": wins / len(done) if done else None,
                "win_interval": list(wilson_interval(wins, len(done))),
                "mean_return": ret["mean"],
                "return_interval": ret["interval"],
                "return_method": ret["method"],
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
        "choice_share": bootstrap_ratio([t["choices"] for t in traces], [t["decisions"] for t in traces], (0.0, 1.0)),
    }


def branching(traces: Sequence[Mapping[str, Any]], bins: int = 10, first: int = 40) -> dict[str, Any]:
    """The branching factor (legal actions per decision) overall, by tenth of the game and by decision number.

    ``by_progress[k]`` pools the decisions in the ``k``-th tenth of their game (decision ``i`` of ``n`` falls in
    tenth ``floor(10 i / n)``): the mean over those decisions, with its interval clustered by game (the bootstrap
    draws whole games), the decisions and the games that had one there; ``by_decision[i]`` is the ``i``-th
    decision of every game that had one (one value per game).
    """
    overall = bootstrap_ratio([sum(t["branching"]) for t in traces], [len(t["branching"]) for t in traces])
    sums = np.zeros((len(traces), bins))
    counts = np.zeros((len(traces), bins))
    per_index: list[list[float]] = [[] for _ in range(first)]
    for g, t in enumerate(traces):
        b = t["branching"]
        for i, width in enumerate(b):
            k = min(bins - 1, bins * i // len(b))
            sums[g, k] += width
            counts[g, k] += 1
            if i < first:
                per_index[i].append(width)
    by_progress = []
    for k in range(bins):
        est = bootstrap_ratio(list(sums[:, k]), list(counts[:, k]))
        by_progress.append(
            {
                "part": k,
                "mean": est["value"],
                "interval": est["interval"],
                "method": est["method"],
                "decisions": int(counts[:, k].sum()),
                "games": est["games"],
            }
        )
    return {
        "mean": overall,
        "max": max((max(t["branching"]) for t in traces if t["branching"]), default=None),
        "by_progress": by_progress,
        "by_decision": [{"decision": i, **mean_row(v)} for i, v in enumerate(per_index) if v],
    }


_TERMS = ("seat", "agent", "agent_by_seat", "deal", "deal_by_condition", "within")
#: What each term of the luck model stands for (the report's rows).
TERM_LABELS = {
    "seat": "seat (which side is played)",
    "agent": "agent (skill)",
    "agent_by_seat": "agent by seat (an agent better on one side)",
    "deal": "deal (luck shared by every condition)",
    "deal_by_condition": "deal by condition (a deal that favours some agents or seats)",
    "within": "within a cell (the agents' own randomness, and luck once play diverged)",
}
#: The fewest deals the luck shares are given from.
MIN_DEALS = 10


def _sums_of_squares(y: np.ndarray) -> np.ndarray:
    """The sums of squares of the balanced crossed design ``y[deal, agent, seat, replicate]``, in
    :data:`_TERMS` order; they add up to the total sum of squares."""
    d, a, s, r = y.shape
    g = y.mean()
    m_d = y.mean(axis=(1, 2, 3))
    m_a = y.mean(axis=(0, 2, 3))
    m_s = y.mean(axis=(0, 1, 3))
    m_as = y.mean(axis=(0, 3))
    m_cell = y.mean(axis=3)
    ss_seat = d * a * r * float(((m_s - g) ** 2).sum())
    ss_agent = d * s * r * float(((m_a - g) ** 2).sum())
    ss_as = d * r * float(((m_as - m_a[:, None] - m_s[None, :] + g) ** 2).sum())
    ss_deal = a * s * r * float(((m_d - g) ** 2).sum())
    ss_dc = r * float(((m_cell - m_d[:, None, None] - m_as[None, :, :] + g) ** 2).sum())
    ss_within = float(((y - m_cell[..., None]) ** 2).sum())
    return np.array([ss_seat, ss_agent, ss_as, ss_deal, ss_dc, ss_within])


def _degrees(shape: Sequence[int]) -> list[int]:
    d, a, s, r = shape
    return [s - 1, a - 1, (a - 1) * (s - 1), d - 1, (d - 1) * (a * s - 1), d * a * s * (r - 1)]


def luck_and_skill(
    table: Sequence[Any] | np.ndarray, agents: Sequence[str], seats: Sequence[str] = ("every seat",)
) -> dict[str, Any]:
    """How much of the variance of the results the seat, the agent and the deal explain (see the module).

    The model, for the result ``y`` of deal ``d`` (one chance seed) played by agent ``a`` in seat ``s``, replicate
    ``r`` (another seed of the agents' own choices)::

        y = mean + seat[s] + agent[a] + (agent x seat)[a, s] + deal[d] + (deal x condition)[d, a, s] + e[d, a, s, r]

    a balanced crossed design, so the six sums of squares are orthogonal and add up to the total; each share is
    its sum of squares over the total. Assumptions: every deal is played under every condition the same number
    of times; a chance seed fixes the chance outcomes only as long as the games reach the same chance nodes, so
    once play diverges the draws differ and that luck is counted within the cell (and in the deal by condition
    term), not in the deal's share: the deal's share is the luck common to every condition, a lower bound of the
    luck. Without replicates (one game per cell) the within term is zero and folded into the deal by condition
    term. Intervals: the percentile bootstrap over deals (each resampled deal with all its games); p-values:
    F-tests of each term against the within-cell mean square, every factor taken as fixed.

    Args:
        table: ``table[d][a][s][r]``: the result (the return of the agent's seat, or the party's mean).
        agents: the agents' labels.
        seats: the seats' labels (one, ``every seat``, in a solo or co-op game).
    """
    y = np.asarray(table, dtype=float)
    if y.ndim != 4:
        y = np.zeros((0, len(agents), len(seats), 1))
    deals = y.shape[0]
    out: dict[str, Any] = {
        "deals": deals,
        "agents": list(agents),
        "seats": list(seats),
        "replicates": int(y.shape[3]),
        "games": int(y.size),
        "model": "y = seat + agent + agent x seat + deal + deal x condition + within-cell error (balanced)",
        "total_sum_of_squares": 0.0,
        "terms": {k: {"share": None, "interval": [None, None], "df": None} for k in _TERMS},
        "condition_means": [],
        "enough": deals >= MIN_DEALS,
    }
    if deals == 0:
        return out
    for ai, agent in enumerate(agents):
        for si, seat in enumerate(seats):
            row = mean_row(list(y[:, ai, si, :].ravel()), (-math.inf, math.inf))
            out["condition_means"].append(row | {"agent": agent, "seat": seat})
    ss = _sums_of_squares(y)
    total = float(((y - y.mean()) ** 2).sum())
    out["total_sum_of_squares"] = total
    dfs = _degrees(y.shape)
    for k, name in enumerate(_TERMS):
        out["terms"][name]["df"] = dfs[k]
    if total <= _EPS or not out["enough"]:
        return out
    for k, name in enumerate(_TERMS):
        out["terms"][name]["share"] = float(ss[k] / total)
    from scipy import stats

    df_w = dfs[-1]
    if df_w > 0 and ss[-1] > _EPS:
        ms_w = ss[-1] / df_w
        for k, name in enumerate(_TERMS[:-1]):
            if dfs[k] > 0:
                out["terms"][name]["p_value"] = float(stats.f.sf((ss[k] / dfs[k]) / ms_w, dfs[k], df_w))
    rng = np.random.default_rng(0)
    shares = []
    for _ in range(RESAMPLES):
        sample = y[rng.integers(0, deals, deals)]
        t = float(((sample - sample.mean()) ** 2).sum())
        if t > _EPS:  # a resample whose results do not vary at all has no shares and is left out
            shares.append(_sums_of_squares(sample) / t)
    out["resamples"] = len(shares)
    if shares:
        low, high = np.percentile(np.asarray(shares), [2.5, 97.5], axis=0)
        for k, name in enumerate(_TERMS):
            out["terms"][name]["interval"] = [float(max(0.0, low[k])), float(min(1.0, high[k]))]
    return out


def lead_changes(spec: GameSpec, chances: Sequence[Sequence[float]]) -> tuple[int, float, float]:
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


#: Below this many rollouts per estimate the drama figures are flagged: each estimate's standard error can reach
#: ``0.5 / sqrt(rollouts)``, 0.09 at 32.
MIN_ROLLOUTS = 32


def _noise(chances: Sequence[Sequence[float]], methods: Sequence[str], rollouts: int) -> list[list[float]]:
    """The estimated sampling variance of each point's win chances: ``p (1 - p) / (k - 1)`` for an estimate from
    ``k`` rollouts (unbiased for a binomial share; an upper bound for values in [0, 1]), 0 for an exact value."""
    out = []
    for point, method in zip(chances, methods, strict=True):
        if method == "rollouts" and rollouts > 1:
            out.append([p * (1.0 - p) / (rollouts - 1) for p in point])
        elif method == "rollouts":
            out.append([0.25 for _ in point])
        else:
            out.append([0.0 for _ in point])
    return out


def corrected_swings(
    chances: Sequence[Sequence[float]], methods: Sequence[str], rollouts: int
) -> tuple[float, float, float]:
    """The total and largest swing of one game's series with the rollouts' noise taken out, and the swing that
    noise alone would be expected to add.

    A step's change of an estimated chance is the true change plus two estimation errors, so its expected square
    is ``delta**2 + v1 + v2`` (the two variances of :func:`_noise`); a step's corrected swing is the largest, over
    the seats, of ``sqrt(max(0, observed**2 - v1 - v2))``. The noise swing sums ``sqrt(v1 + v2)`` over the steps
    (of the order of what pure noise gives).
    """
    var = _noise(chances, methods, rollouts)
    swings, noise = [], 0.0
    for (p, vp), (q, vq) in itertools.pairwise(zip(chances, var, strict=True)):
        step = [math.sqrt(max(0.0, (a - b) ** 2 - va - vb)) for a, b, va, vb in zip(p, q, vp, vq, strict=True)]
        swings.append(max(step, default=0.0))
        noise += max((math.sqrt(va + vb) for va, vb in zip(vp, vq, strict=True)), default=0.0)
    return float(sum(swings)), float(max(swings, default=0.0)), noise


def drama(spec: GameSpec, traces: Sequence[Mapping[str, Any]], rollouts: int = 8) -> dict[str, Any]:
    """Mean lead changes, total swing and largest swing per game, over the games with win chances; with rollout
    estimates, also the swings with the estimated noise taken out (:func:`corrected_swings`) and a warning below
    :data:`MIN_ROLLOUTS` rollouts per estimate."""
    series = [t["drama"] for t in traces if "drama" in t]
    per = [lead_changes(spec, d["chances"]) for d in series]

    def point_methods(d: Mapping[str, Any]) -> list[str]:
        if "point_methods" in d:
            return list(d["point_methods"])
        est = "rollouts" if "rollouts" in d["method"] else "exact"
        return [est] * (len(d["chances"]) - 1) + ["exact"]  # the final point is the result

    fixed = [corrected_swings(d["chances"], point_methods(d), rollouts) for d in series]
    # The final point of a game is its result ("exact"); the estimates before it name the method.
    methods = sorted({m for d in series for m in d["method"]})
    if "rollouts" in methods:
        methods = ["rollouts"]
    noisy = "rollouts" in methods
    return {
        "games": len(series),
        "method": methods,
        "rollouts": rollouts if noisy else None,
        "too_few_rollouts": noisy and rollouts < MIN_ROLLOUTS,
        "standard_error_bound": 0.5 / math.sqrt(rollouts) if noisy and rollouts > 0 else 0.0,
        "lead_changes": mean_row([p[0] for p in per]),
        "total_swing": mean_row([p[1] for p in per]),
        "largest_swing": mean_row([p[2] for p in per], (0.0, 1.0)),
        "total_swing_corrected": mean_row([f[0] for f in fixed]),
        "largest_swing_corrected": mean_row([f[1] for f in fixed], (0.0, 1.0)),
        "noise_swing": mean_row([f[2] for f in fixed]),
        "examples": [{"at": d["at"], "chances": d["chances"]} for d in series[:6]],
    }


def paired_change(
    restricted: Sequence[Mapping[str, Any]],
    baseline: Sequence[Mapping[str, Any]],
    score: Callable[[Any], float],
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> dict[str, Any]:
    """The mean of ``score(restricted) - score(baseline)`` over pairs of games of the same seeds, its interval
    (:func:`mean_row`, inside ``bounds``) and the exact sign test's two-sided p-value (SciPy's ``binomtest`` on the
    pairs that differ; 1 when none does)."""
    pairs = [
        (r, b)
        for r, b in zip(restricted, baseline, strict=True)
        if r["returns"] is not None and b["returns"] is not None
    ]
    diffs = [score(r) - score(b) for r, b in pairs]
    row = mean_row(diffs, bounds)
    up = sum(1 for x in diffs if x > _EPS)
    down = sum(1 for x in diffs if x < -_EPS)
    p_value = 1.0
    if up + down:
        from scipy.stats import binomtest

        p_value = float(binomtest(up, up + down).pvalue)
    mean = float(np.mean(diffs)) if diffs else None
    return {
        "change": mean,
        "interval": row["interval"],
        "method": row["method"],
        "games": len(diffs),
        "better": up,
        "worse": down,
        "p_value": p_value,
    }


def adjust(p_values: Sequence[float]) -> dict[str, list[Any]]:
    """Holm's and Benjamini-Hochberg's adjusted p-values of a family of tests (statsmodels' ``multipletests``),
    and whether each test survives either at 5%."""
    if not p_values:
        return {"holm": [], "bh": [], "holm_reject": [], "bh_reject": []}
    from statsmodels.stats.multitest import multipletests

    holm = multipletests(list(p_values), alpha=0.05, method="holm")
    bh = multipletests(list(p_values), alpha=0.05, method="fdr_bh")
    return {
        "holm": [float(x) for x in holm[1]],
        "bh": [float(x) for x in bh[1]],
        "holm_reject": [bool(x) for x in holm[0]],
        "bh_reject": [bool(x) for x in bh[0]],
    }
