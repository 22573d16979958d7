"""Every number of a ``tabletop report`` and of a ``tabletop analyze`` output, recomputed from the raw lines.

The command line is run for real (a subprocess), then each figure of ``summary.json`` and of the recomputed
sections of ``analysis.json`` is computed again here from ``games.jsonl`` alone, with this file's own code: the
win rule, the Wilson interval, the Student-t interval, Fisher's exact test, the Bradley-Terry fit (by a
second-order optimizer with its own gradient and Hessian), Holm and Benjamini-Hochberg, the sums of squares of the
luck model, the lead changes and swings of drama. SciPy serves as the independent maintained reference for
quantiles, the binomial and hypergeometric distributions and the bootstrap; nothing of ``tabletop_core.analysis`` or of
``tabletop_core.simulation``'s statistics is imported. The library is read only to learn what each key means.

Where a figure comes from a seeded bootstrap, the resampling is the documented one (the seed 0, the number of
resamples, the method) and is replayed here, so those figures are compared as closely as the closed forms.

The comparison walks the whole JSON: a key in the output that this file does not recompute fails the test, so a
number added later without a recomputation here is noticed. Tolerances: counts and labels exactly; closed forms
to 1e-9 relative; figures of an iterative fit (the ratings) to 1e-2 Elo points, the ends of their bootstrap
intervals to 5e-2 (see :data:`ELO_TOL`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import special, stats

from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.registry import load_game

CLI = [sys.executable, "-m", "tabletop_core.cli"]
CONFIDENCE = 0.95
Z = float(stats.norm.ppf(0.5 + CONFIDENCE / 2))
#: The fewest values a mean is given from, and the fewest from which its interval is Student's t (documented in
#: the module of the simulation's statistics: "too few games" below 10; t from 30, the BCa bootstrap below).
MIN_GAMES, T_GAMES = 10, 30
#: The documented bootstraps: 2,000 resamples with the seed 0 (means: BCa; ratios and luck shares: percentile);
#: the ratings: 200 resamples of whole games (or deals) with the seed 0.
RESAMPLES, RATING_RESAMPLES = 2000, 200
ELO = 400.0 / math.log(10.0)
#: The ratings are the optimum of an iterative fit, and the library's is not exact: it stops SciPy's L-BFGS-B at
#: its default tolerances (a relative change of the objective of 2.2e-9), which on this file's Unrest ladder
#: (820 comparisons) leaves a gradient of 1.7e-3 and strengths up to 3.4e-3 Elo points from the optimum (the
#: objective 3e-8 above it), where this file's Newton's method reaches a gradient below 1e-10. So the strengths
#: agree within 1e-2 points: a hundredth of the last printed digit.
ELO_TOL = 1e-2
#: The ends of a rating's bootstrap interval fall on the resamples with the flattest likelihood (an entry nearly
#: unbeaten, a strength of several hundred points held back only by the prior), where the library's stopping rule
#: leaves its fit farthest from the optimum: there the two fits were seen to differ by up to 1.4e-2 points.
ELO_INTERVAL_TOL = 0.05
#: The weak normal prior of the ratings' fit (0.01 times half the squared strengths, seat terms included), which
#: keeps an unbeaten entry's strength finite: part of the model, so the recomputation uses it too.
PRIOR = 0.01
EPS = 1e-9


# ----------------------------------------------------------------------------------------------------------------
# Comparing an output with its recomputation


@dataclass(frozen=True)
class Near:
    """A recomputed number compared within ``abs_tol`` (an iterative fit; see :data:`ELO_TOL`)."""

    value: float | None
    abs_tol: float


@dataclass(frozen=True)
class Prose:
    """A string of words (a model's description), checked to hold ``holds``; not a number."""

    holds: str = ""


@dataclass(frozen=True)
class BestFirst:
    """Rating rows, best first: matched to the output's rows by ``entry``; the output's order must be the
    recomputed one except between entries whose Elo points agree within :data:`ELO_TOL` (equal strengths, which
    only the optimizers' last digits order)."""

    rows: list[dict[str, Any]]


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def differences(actual: Any, expected: Any, path: str = "$") -> list[str]:
    """Where ``actual`` (parsed JSON) differs from ``expected`` (the recomputation), one line each; a key on
    either side only is a difference too."""
    if isinstance(expected, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{path}: ours {actual!r}, recomputed an object"]
        out = [f"{path}.{k}: in the output, not recomputed" for k in sorted(set(actual) - set(expected))]
        out += [f"{path}.{k}: recomputed, not in the output" for k in sorted(set(expected) - set(actual))]
        for k in sorted(set(actual) & set(expected)):
            out += differences(actual[k], expected[k], f"{path}.{k}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: ours {actual!r}, recomputed {expected!r}"]
        return [
            d for i, (a, e) in enumerate(zip(actual, expected, strict=True)) for d in differences(a, e, f"{path}[{i}]")
        ]
    if isinstance(expected, BestFirst):
        if not isinstance(actual, list) or sorted(r.get("entry") for r in actual) != sorted(
            r["entry"] for r in expected.rows
        ):
            return [f"{path}: ours {actual!r}, recomputed {expected.rows!r}"]
        mine = {r["entry"]: r for r in expected.rows}
        out = []
        for i, j in itertools.combinations(range(len(actual)), 2):
            a, b = mine[actual[i]["entry"]]["elo"].value, mine[actual[j]["entry"]]["elo"].value
            if b > a + ELO_TOL:
                out.append(f"{path}: ours rank {actual[i]['entry']} above {actual[j]['entry']}, recomputed below")
        return out + [d for i, r in enumerate(actual) for d in differences(r, mine[r["entry"]], f"{path}[{i}]")]
    if isinstance(expected, Prose):
        ok = isinstance(actual, str) and expected.holds in actual
        return [] if ok else [f"{path}: ours {actual!r}, expected words holding {expected.holds!r}"]
    if isinstance(expected, Near):
        if expected.value is None or not _is_number(actual):
            return [] if actual == expected.value else [f"{path}: ours {actual!r}, recomputed {expected.value!r}"]
        ok = abs(float(actual) - expected.value) <= expected.abs_tol
        return [] if ok else [f"{path}: ours {actual!r}, recomputed {expected.value!r} (tolerance {expected.abs_tol})"]
    if isinstance(expected, float):
        ok = _is_number(actual) and math.isclose(float(actual), expected, rel_tol=1e-9, abs_tol=1e-12)
        return [] if ok else [f"{path}: ours {actual!r}, recomputed {expected!r}"]
    if isinstance(expected, int) and not isinstance(expected, bool):  # a count: exactly
        ok = _is_number(actual) and actual == expected and float(actual).is_integer()
        return [] if ok else [f"{path}: ours {actual!r}, recomputed {expected!r}"]
    ok = actual == expected and type(actual) is type(expected)
    return [] if ok else [f"{path}: ours {actual!r}, recomputed {expected!r}"]


def numeric_paths(doc: Any, path: str = "$") -> set[str]:
    """The path of every number in a document (a recomputation's :class:`Near` counts when it holds one)."""
    if isinstance(doc, Mapping):
        return {p for k, v in doc.items() for p in numeric_paths(v, f"{path}.{k}")}
    if isinstance(doc, list):
        return {p for i, v in enumerate(doc) for p in numeric_paths(v, f"{path}[{i}]")}
    if isinstance(doc, Near):
        return {path} if doc.value is not None else set()
    if isinstance(doc, BestFirst):
        return numeric_paths(doc.rows, path)
    return {path} if _is_number(doc) else set()


def assert_recomputed(actual: Any, expected: Any) -> None:
    """Every number of ``actual`` is recomputed in ``expected`` and matches it (and nothing else is there)."""
    assert numeric_paths(actual) == numeric_paths(expected), sorted(numeric_paths(actual) ^ numeric_paths(expected))
    problems = differences(actual, expected)
    assert not problems, "\n".join(problems)


# ----------------------------------------------------------------------------------------------------------------
# Statistics, written here


def versus_game(spec: Any, players: int) -> bool:
    """Wins are decided between the seats: zero- or constant-sum with two players or more."""
    return players > 1 and spec.utility.value in ("zero_sum", "constant_sum")


def outcomes_of(spec: Any, returns: Sequence[float]) -> list[str]:
    """Each seat's win, tie or loss (the rule of docs/simulation.md and the outcomes module, written again)."""
    if versus_game(spec, len(returns)):
        best = max(returns)
        top = [abs(r - best) <= EPS for r in returns]
        return ["win" if t else "loss" for t in top] if sum(top) == 1 else ["tie" if t else "loss" for t in top]
    out = []
    for r in returns:
        if spec.min_utility < 0 < spec.max_utility and spec.zero_is_tie:
            out.append("win" if r > EPS else "tie" if r >= -EPS else "loss")
        else:
            out.append("win" if r > spec.min_utility + EPS else "loss")
    return out


SCORE = {"win": 1.0, "tie": 0.5, "loss": 0.0}


def wilson(k: int, n: int) -> list[float]:
    """The 95% Wilson score interval of k successes in n trials, by its closed form."""
    if n == 0:
        return [0.0, 1.0]
    p, z2 = k / n, Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return [centre - half, centre + half]


def bca(values: Sequence[float]) -> tuple[float, float]:
    """The documented BCa bootstrap of a mean (SciPy as the reference: 2,000 resamples, seed 0), falling back to
    the percentile method when BCa degenerates."""
    data = np.asarray(values, dtype=float)
    kw: dict[str, Any] = {"n_resamples": RESAMPLES, "confidence_level": CONFIDENCE, "vectorized": True}
    res = stats.bootstrap((data,), np.mean, method="BCa", rng=0, **kw)
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        res = stats.bootstrap((data,), np.mean, method="percentile", rng=0, **kw)
        low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    return low, high


def mean_figure(values: Sequence[float], lo: float = -math.inf, hi: float = math.inf) -> dict[str, Any]:
    """A mean and its interval by the documented rules: none below 10 values; Wilson's (mapped onto the range)
    when every value is at one end of a finite range; none without spread; Student's t from 30 values, else the
    BCa bootstrap; the interval cut to the range."""
    n = len(values)
    out: dict[str, Any] = {"mean": None, "interval": [None, None], "games": n, "method": "too few games"}
    if n < MIN_GAMES:
        return out
    mean = math.fsum(values) / n
    out["mean"] = mean
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo and all(v in (lo, hi) for v in values):
        a, b = wilson(sum(1 for v in values if v == hi), n)
        out.update(interval=[lo + (hi - lo) * a, lo + (hi - lo) * b], method="wilson")
    elif len(set(values)) == 1:
        out["method"] = "no spread"
    elif n >= T_GAMES:
        half = float(stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1)) * statistics.stdev(values) / math.sqrt(n)
        out.update(interval=[max(mean - half, lo), min(mean + half, hi)], method="t")
    else:
        low, high = bca(values)
        out.update(interval=[max(low, lo), min(high, hi)], method="bootstrap")
    return out


def mean_row(values: Sequence[float], lo: float = 0.0, hi: float = math.inf) -> dict[str, Any]:
    """:func:`mean_figure` with the values' range (counts by default: at least 0)."""
    vals = [float(v) for v in values]
    return mean_figure(vals, lo, hi) | {"min": min(vals, default=None), "max": max(vals, default=None)}


def ratio_figure(nums: Sequence[float], dens: Sequence[float], lo: float = 0.0, hi: float = math.inf) -> dict[str, Any]:
    """A ratio of sums over games, its interval the documented percentile bootstrap of whole games (SciPy as the
    reference: paired resampling, 2,000 resamples, seed 0); games with a zero denominator left out."""
    kept = [(float(a), float(b)) for a, b in zip(nums, dens, strict=True) if b > 0]
    out: dict[str, Any] = {"value": None, "interval": [None, None], "games": len(kept), "method": "too few games"}
    if len(kept) < MIN_GAMES:
        return out
    value = math.fsum(a for a, _ in kept) / math.fsum(b for _, b in kept)
    out["value"] = value
    if all(abs(a / b - value) <= 1e-8 + 1e-5 * abs(value) for a, b in kept):
        out["method"] = "no spread"
        return out

    def ratio(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.asarray(n.sum(axis=axis) / np.maximum(d.sum(axis=axis), 1e-12))

    num, den = np.array([a for a, _ in kept]), np.array([b for _, b in kept])
    res = stats.bootstrap(
        (num, den),
        ratio,
        paired=True,
        vectorized=True,
        n_resamples=RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(0),
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    out.update(interval=[max(low, lo), min(high, hi)], method="bootstrap over games")
    return out


def fisher_two_sided(table: Sequence[Sequence[int]]) -> float:
    """Fisher's exact test of a 2x2 table: the hypergeometric probabilities no larger than the observed one."""
    (a, b), (c, d) = table
    total, col, row = a + b + c + d, a + c, a + b
    dist = stats.hypergeom(total, col, row)
    observed = float(dist.pmf(a))
    support = range(max(0, row + col - total), min(row, col) + 1)
    return min(1.0, math.fsum(p for x in support if (p := float(dist.pmf(x))) <= observed * (1 + 1e-7)))


def sign_test(up: int, down: int) -> float:
    """The exact two-sided binomial test of ``up`` of ``up + down`` at one half (1 when nothing differs)."""
    return float(stats.binomtest(up, up + down, 0.5).pvalue) if up + down else 1.0


Comparison = tuple[str, str, float, int, int]


def bt_fit(comps: Sequence[Comparison], entries: Sequence[str], seats: int) -> np.ndarray:
    """Bradley-Terry strengths (then the seat terms of seats 1...) by maximum likelihood with the weak normal
    prior, by Newton's method on this file's own design matrix, gradient and Hessian (to a gradient of 1e-10);
    the strengths centred on their mean."""
    index = {e: i for i, e in enumerate(entries)}
    k, extra = len(entries), max(0, seats - 1)
    x = np.zeros((len(comps), k + extra))
    y = np.array([c[2] for c in comps], dtype=float)
    for r, (ea, eb, _, sa, sb) in enumerate(comps):
        x[r, index[ea]] += 1.0
        x[r, index[eb]] -= 1.0
        if extra and sa:
            x[r, k + sa - 1] += 1.0
        if extra and sb:
            x[r, k + sb - 1] -= 1.0

    def nll(t: np.ndarray) -> float:
        z = x @ t
        return float(np.sum(y * np.logaddexp(0.0, -z) + (1 - y) * np.logaddexp(0.0, z)) + 0.5 * PRIOR * t @ t)

    def grad(t: np.ndarray) -> np.ndarray:
        return np.asarray(x.T @ (special.expit(x @ t) - y) + PRIOR * t)

    def hess(t: np.ndarray) -> np.ndarray:
        p = special.expit(x @ t)
        return np.asarray(x.T @ ((p * (1 - p))[:, None] * x) + PRIOR * np.eye(len(t)))

    theta = np.zeros(k + extra)
    for _ in range(100):  # Newton's method with backtracking: quadratic convergence on this convex objective
        g = grad(theta)
        if float(np.max(np.abs(g))) < 1e-10:
            break
        step = np.linalg.solve(hess(theta), g)
        size, now = 1.0, nll(theta)
        while nll(theta - size * step) > now + 1e-12 * max(1.0, abs(now)) and size > 1e-6:
            size /= 2  # far from the optimum a full step may overshoot; near it every full step is taken
        theta = theta - size * step
    assert float(np.max(np.abs(grad(theta)))) < 1e-8
    theta[:k] -= theta[:k].mean()
    return theta


def ratings_of(
    comps: Sequence[Comparison], groups: Sequence[int], seats: int, seat_names: Sequence[str]
) -> dict[str, Any]:
    """The ratings' figures: the fit, and the documented percentile bootstrap of whole groups (games or deals):
    200 resamples drawn with ``numpy.random.default_rng(0)`` over the groups in increasing order, a resample
    that lacks an entry left out."""
    entries = sorted({c[0] for c in comps} | {c[1] for c in comps})
    held: dict[str, set[int]] = defaultdict(set)
    for c in comps:
        held[c[0]].add(c[3])
        held[c[1]].add(c[4])
    if not any(len(v) > 1 for v in held.values()):
        seats = 1  # no entry changed seats: a seat term could not be told from the strengths
    theta = bt_fit(comps, entries, seats)
    keys = sorted(set(groups))
    members: dict[int, list[Comparison]] = defaultdict(list)
    for c, g in zip(comps, groups, strict=True):
        members[g].append(c)
    rng = np.random.default_rng(0)
    drawn = []
    for _ in range(RATING_RESAMPLES):
        sample = [c for j in rng.integers(0, len(keys), len(keys)) for c in members[keys[j]]]
        if len({c[0] for c in sample} | {c[1] for c in sample}) == len(entries):
            drawn.append(bt_fit(sample, entries, seats))
    boots = np.asarray(drawn)
    counts: dict[str, int] = defaultdict(int)
    for c in comps:
        counts[c[0]] += 1
        counts[c[1]] += 1

    def interval(j: int) -> list[Any]:
        if not drawn:
            return [None, None]
        low, high = np.percentile(boots[:, j] * ELO, [2.5, 97.5])
        return [Near(float(low), ELO_INTERVAL_TOL), Near(float(high), ELO_INTERVAL_TOL)]

    rows = sorted(((float(theta[i] * ELO), e, i) for i, e in enumerate(entries)), key=lambda r: (-r[0], r[1]))
    k = len(entries)
    return {
        "entries": BestFirst(
            [
                {"entry": e, "elo": Near(elo, ELO_TOL), "interval": interval(i), "comparisons": counts[e]}
                for elo, e, i in rows
            ]
        ),
        "seat_terms": [
            {
                "seat": s,
                "seat_name": seat_names[s],
                "elo": Near(float(theta[k + s - 1] * ELO), ELO_TOL),
                "interval": interval(k + s - 1),
            }
            for s in range(1, seats)
        ],
        "comparisons": len(comps),
        "resamples": len(drawn),
        "model": Prose("with a seat term" if seats > 1 else "no seat term"),
    }


def beats(a: float, b: float) -> float:
    """A comparison's score by two results: 1, 1/2 (equal within 1e-9) or 0."""
    return 1.0 if a > b + EPS else 0.0 if b > a + EPS else 0.5


def entry_name(game: Any, state: Any, agent: str, seat: int, names: Sequence[str]) -> str:
    """The rating entry of an agent at a seat: ``agent @ seat`` when it builds a different bot at different
    seats (each seat's bot built here and its class compared)."""
    kinds = set()
    for s in range(len(names)):
        try:
            kinds.add(type(parse_agent_spec(agent).build(game, state, s)).__qualname__)
        except Exception:  # an agent bound to some seats: it cannot build the others
            kinds.add(f"seat {s} only")
    return f"{agent} @ {names[seat]}" if len(kinds) > 1 else agent


def holm(p: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        out[i] = running
    return out


def benjamini_hochberg(p: Sequence[float]) -> list[float]:
    """Benjamini-Hochberg's step-up adjusted p-values."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out, running = [0.0] * m, 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, m * p[i] / (rank + 1))
        out[i] = min(1.0, running)
    return out


# ----------------------------------------------------------------------------------------------------------------
# Running the command line


#: One BLAS thread per command: on a loaded machine the rating fits' tiny matrix products otherwise spend most of
#: their time in threads spinning for cores (three times the CPU time, same numbers).
ONE_THREAD = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def tabletop(*args: str, cwd: Path) -> str:
    env = {**os.environ, **ONE_THREAD}
    done = subprocess.run([*CLI, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@dataclass(frozen=True)
class Run:
    folder: Path
    printed: str

    @property
    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads((self.folder / "summary.json").read_text())
        return doc

    @property
    def lines(self) -> list[dict[str, Any]]:
        return read_lines(self.folder / "games.jsonl")

    @property
    def plan(self) -> dict[str, Any]:
        doc: dict[str, Any] = json.loads((self.folder / "run.json").read_text())["simulation"]
        return doc


#: A league of three agents in Unrest's two seats (six seatings, so every agent meets every other in each seat
#: and the seatings that differ in one seat give paired comparisons), and two solo bots in Unbroken.
SIMULATIONS = {
    "unrest": ["--agent", "heuristic", "--agent", "random", "--agent", "first", "--games", "10", "--seed", "5"],
    "unbroken": ["--agent", "heuristic", "--agent", "random", "--games", "30", "--seed", "5"],
}


def simulate_and_report(root: Path, game: str) -> Run:
    """``tabletop simulate`` then ``tabletop report`` (which writes summary.json afresh) into ``root/game``."""
    tabletop("simulate", game, *SIMULATIONS[game], "--out", game, "--quiet", cwd=root)
    (root / game / "summary.json").unlink()  # the report writes it again
    return Run(root / game, tabletop("report", game, "--no-plots", cwd=root))


def shuffled_report(root: Path, source: Run) -> Run:
    """``tabletop report`` of a copy of ``source`` whose games.jsonl holds the same lines in another order."""
    shuffled = root / f"{source.folder.name}-shuffled"
    shutil.copytree(source.folder, shuffled, ignore=shutil.ignore_patterns("summary.json", "writer.lock"))
    text = (source.folder / "games.jsonl").read_text().splitlines(keepends=True)
    random.Random(7).shuffle(text)
    (shuffled / "games.jsonl").write_text("".join(text))
    return Run(shuffled, tabletop("report", shuffled.name, "--no-plots", cwd=root))


@dataclass(frozen=True)
class Played:
    reports: dict[str, Run]
    shuffled: Run
    study: Path


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Every command of the file, three chains at once (the machine's cores are shared with other work, and a
    command spends much of its time starting)."""
    root = tmp_path_factory.mktemp("played")

    def unrest() -> tuple[Run, Run]:
        run = simulate_and_report(root, "unrest")
        return run, shuffled_report(root, run)

    with ThreadPoolExecutor(3) as pool:
        versus = pool.submit(unrest)
        solo = pool.submit(simulate_and_report, root, "unbroken")
        study = pool.submit(tabletop, "analyze", *ANALYSIS, "--out", "study", "--quiet", cwd=root)
        (run, shuffled), alone = versus.result(), solo.result()
        study.result()
    return Played({"unrest": run, "unbroken": alone}, shuffled, root / "study")


@pytest.fixture(scope="module")
def reports(played: Played) -> dict[str, Run]:
    return played.reports


# ----------------------------------------------------------------------------------------------------------------
# The report's summary, recomputed


def figure_row(outcomes: Sequence[str], values: Sequence[float], spec: Any, solo: bool) -> dict[str, Any]:
    n = len(outcomes)
    wins, ties = outcomes.count("win"), outcomes.count("tie")
    est = mean_figure(values, spec.min_utility, spec.max_utility)
    row = {
        "games": n,
        "wins": wins,
        "ties": ties,
        "losses": n - wins - ties,
        "win_rate": wins / n,
        "win_interval": wilson(wins, n),
        "mean_return": est["mean"],
        "return_interval": est["interval"],
        "return_method": est["method"],
    }
    if solo and spec.max_utility > 0:  # the mean return over the best possible
        row["score_share"] = None if est["mean"] is None else est["mean"] / spec.max_utility
    return row


@functools.cache
def recomputed_summary(folder: Path) -> dict[str, Any]:
    """:func:`expected_summary` of a results folder (once per folder: the ratings' bootstrap refits 200 times)."""
    run = Run(folder, "")
    return expected_summary(run.plan, run.lines)


def expected_summary(plan: Mapping[str, Any], raw: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``summary.json`` from the plan and the lines (taken in the documented order: by seating, then deal)."""
    game = load_game(plan["game"])
    spec = game.spec
    state = game.initial_state(game.make_options(**plan["options"]))
    lines = sorted(raw, key=lambda ln: (ln["seating"], ln["deal"]))
    done = [ln for ln in lines if ln["returns"] is not None]
    players = len(plan["seatings"][0])
    versus, solo = versus_game(spec, players), players == 1
    names = list(done[0]["seats"])
    per_agent: dict[str, tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    per_seat: dict[tuple[str, int], tuple[list[str], list[float]]] = defaultdict(lambda: ([], []))
    self_play: dict[str, int] = defaultdict(int)
    h2h: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for ln in done:
        res = ln["returns"]
        out = outcomes_of(spec, res)
        first: dict[str, int] = {}
        for seat, agent in enumerate(ln["agents"]):
            first.setdefault(agent, seat)
            per_seat[agent, seat][0].append(out[seat])
            per_seat[agent, seat][1].append(float(res[seat]))
            if versus:  # an agent's row: every seat it held
                per_agent[agent][0].append(out[seat])
                per_agent[agent][1].append(float(res[seat]))
        for agent, seat in first.items():
            if not versus:  # a party's game once
                per_agent[agent][0].append(out[seat])
                per_agent[agent][1].append(float(res[seat]))
            elif ln["agents"].count(agent) > 1:
                self_play[agent] += 1
        if versus:
            for (a, sa), (b, sb) in itertools.permutations(first.items(), 2):
                cell = h2h[a, b]
                cell[0] += res[sa] > res[sb] + EPS
                cell[1] += abs(res[sa] - res[sb]) <= EPS
                cell[2] += 1
    # Ratings: in a versus game every two seats of a game by their returns (groups: games); else the parties
    # that played a deal, by their mean return (groups: deals).
    comps: list[Comparison] = []
    groups: list[int] = []
    if versus:
        for g, ln in enumerate(done):
            who = [entry_name(game, state, a, s, names) for s, a in enumerate(ln["agents"])]
            for i, j in itertools.combinations(range(players), 2):
                if who[i] != who[j]:
                    comps.append((who[i], who[j], beats(ln["returns"][i], ln["returns"][j]), i, j))
                    groups.append(g)
    else:
        by_deal: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for ln in done:
            party = " + ".join(sorted(set(ln["agents"])))
            by_deal[ln["deal"]][party].append(math.fsum(ln["returns"]) / players)
        for deal in sorted(by_deal):
            parties = sorted((p, math.fsum(v) / len(v)) for p, v in by_deal[deal].items())
            for (pa, va), (pb, vb) in itertools.combinations(parties, 2):
                if not set(pa.split(" + ")) & set(pb.split(" + ")):
                    comps.append((pa, pb, beats(va, vb), 0, 0))
                    groups.append(deal)
    return {
        "game": plan["game"],
        "utility": spec.utility.value,
        "win_rule": Prose("highest return wins" if versus else f"above {spec.min_utility:g}"),
        "competitive": versus,
        "games": len(lines),
        "unfinished": len(lines) - len(done),
        "planned": len(plan["seatings"]) * plan["games"],
        "seed": plan["seed"],
        "seatings": plan["seatings"],
        "seat_names": names,
        "agents": [
            {"agent": a, **figure_row(*per_agent[a], spec, solo), "self_play_games": self_play.get(a, 0)}
            for a in sorted(per_agent)
        ],
        "seats": [
            {"agent": a, "seat": s, "seat_name": names[s], **figure_row(*per_seat[a, s], spec, solo)}
            for a, s in sorted(per_seat)
        ],
        "head_to_head": [
            {"agent": a, "opponent": b, "wins": c[0], "ties": c[1], "games": c[2], "win_rate": c[0] / c[2]}
            for (a, b), c in sorted(h2h.items())
        ],
        "ratings": ratings_of(comps, groups, players if versus else 1, names),
        "paired": expected_paired(done, spec, names, versus),
    }


def expected_paired(
    done: Sequence[dict[str, Any]], spec: Any, names: Sequence[str], versus: bool
) -> list[dict[str, Any]]:
    """Two seatings that differ in one seat (versus) or two one-agent parties (solo, co-op), compared on the
    deals both played: McNemar's exact test is the binomial test of the discordant deals at one half."""
    by_seating: dict[tuple[str, ...], dict[int, dict[str, Any]]] = defaultdict(dict)
    for ln in done:
        by_seating[tuple(ln["agents"])][ln["deal"]] = ln
    rows = []
    for a, b in itertools.combinations(sorted(by_seating), 2):
        differ = [s for s in range(len(a)) if a[s] != b[s]]
        if versus and len(differ) != 1:
            continue
        if not versus and (set(a) & set(b) or len(set(a)) != 1 or len(set(b)) != 1):
            continue
        seat = differ[0] if versus else 0
        deals = sorted(set(by_seating[a]) & set(by_seating[b]))
        if len(deals) < 2:
            continue
        ga, gb = [by_seating[a][d] for d in deals], [by_seating[b][d] for d in deals]
        wa = [outcomes_of(spec, g["returns"])[seat] == "win" for g in ga]
        wb = [outcomes_of(spec, g["returns"])[seat] == "win" for g in gb]
        only_a = sum(p and not q for p, q in zip(wa, wb, strict=True))
        only_b = sum(q and not p for p, q in zip(wa, wb, strict=True))
        n = len(deals)
        diffs = [float(p["returns"][seat]) - float(q["returns"][seat]) for p, q in zip(ga, gb, strict=True)]
        span = spec.max_utility - spec.min_utility
        rows.append(
            {
                "seat": seat,
                "seat_name": names[seat] if versus else "the party",
                "agent": a[seat],
                "other": b[seat],
                "seating": list(a),
                "other_seating": list(b),
                "deals": n,
                "wins": sum(wa),
                "other_wins": sum(wb),
                "only_agent_won": only_a,
                "only_other_won": only_b,
                "mcnemar_p": sign_test(only_a, only_b),
                "return_difference": mean_figure(diffs, -span, span),
                "unpaired_p": fisher_two_sided([[sum(wa), n - sum(wa)], [sum(wb), n - sum(wb)]]),
            }
        )
    return rows


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_result_lines_carry_the_outcomes_their_returns_give(reports: dict[str, Run], game: str) -> None:
    """The explicit outcomes of every line are the win rule applied to its returns (so counting wins from either
    is the same), and the lines are the plan's games."""
    run = reports[game]
    spec = load_game(run.plan["game"]).spec
    lines = run.lines
    assert sorted((ln["seating"], ln["deal"]) for ln in lines) == [
        (s, d) for s in range(len(run.plan["seatings"])) for d in range(run.plan["games"])
    ]
    for ln in lines:
        assert ln["agents"] == run.plan["seatings"][ln["seating"]]
        assert ln["outcomes"] == outcomes_of(spec, ln["returns"]), ln


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_report_summary_every_number_recomputed_from_the_lines(reports: dict[str, Run], game: str) -> None:
    """summary.json: per agent and per seat games, W-T-L, win rate and Wilson interval, mean return and its
    interval (Wilson, t or BCa as the values call for), score share (solo), head to head, Bradley-Terry ratings
    with their bootstrap intervals and seat term, paired comparisons (McNemar, Fisher, paired return change)."""
    run = reports[game]
    summary = run.summary
    assert_recomputed(summary, recomputed_summary(run.folder))
    # The run is not trivial: the figures cover the kinds of interval and of comparison.
    methods = {r["return_method"] for r in summary["agents"] + summary["seats"]}
    methods |= {p["return_difference"]["method"] for p in summary["paired"]}
    assert summary["paired"] and summary["ratings"]["entries"]
    if game == "unrest":
        assert {"wilson", "bootstrap"} <= methods and summary["ratings"]["seat_terms"] and summary["head_to_head"]
    else:
        assert "t" in methods and all("score_share" in r for r in summary["agents"])


def _cells(printed: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("│").split("│")] for line in printed.splitlines() if line.startswith("│")]


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_report_tables_print_the_recomputed_figures(reports: dict[str, Run], game: str) -> None:
    """The printed tables show the recomputed figures (counts, win rates, intervals, p-values, Elo points)."""
    run = reports[game]
    exp = recomputed_summary(run.folder)
    rows = _cells(run.printed)

    def shown(*cells: str) -> bool:
        return any(all(c in r for c in cells) for r in rows)

    for r in exp["agents"] + exp["seats"]:
        low, high = r["win_interval"]
        rate = f"{100 * r['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
        mean = "too few games" if r["mean_return"] is None else f"{r['mean_return']:.3g}"
        assert shown(r["agent"], str(r["games"]), f"{r['wins']}-{r['ties']}-{r['losses']}", rate), r
        assert any(r["agent"] in row and any(c.startswith(mean) for c in row) for row in rows), (r, mean)
    for p in exp["paired"]:
        cells = (p["agent"], p["other"], f"{p['wins']} vs {p['other_wins']}", str(p["only_agent_won"]))
        assert shown(*cells, f"{p['mcnemar_p']:.2g}", f"{p['unpaired_p']:.2g}"), p
    for e in exp["ratings"]["entries"].rows:
        assert shown(e["entry"], f"{e['elo'].value:.0f}", str(e["comparisons"])), e


def test_report_ratings_do_not_depend_on_the_order_of_the_lines(played: Played) -> None:
    """The same games written in another order give the same summary.json, ratings included (and so the
    recomputed ratings too)."""
    again = played.shuffled.summary
    assert again == played.reports["unrest"].summary
    assert_recomputed(again["ratings"], recomputed_summary(played.reports["unrest"].folder)["ratings"])


# ----------------------------------------------------------------------------------------------------------------
# The analysis, recomputed

#: A small Unrest study with every section: the heuristic bots in both seats, a ladder of five agents (ISMCTS at
#: two tiny budgets, so that the rise per doubling exists), drama by rollouts, and every restricted item.
ANALYSIS = [
    "unrest",
    "--games", "40",
    "--ladder-games", "10",
    "--budgets", "1,2",
    "--drama-games", "10",
    "--drama-points", "4",
    "--drama-rollouts", "2",
    "--restrict-games", "10",
    "--seed", "3",
]  # fmt: skip


@dataclass(frozen=True)
class Analysis:
    result: dict[str, Any]
    traces: list[dict[str, Any]]
    spec: Any
    names: list[str]

    def kind(self, kind: str) -> list[dict[str, Any]]:
        return [t for t in self.traces if t["task"]["kind"] == kind]


@pytest.fixture(scope="module")
def analysis(played: Played) -> Analysis:
    result = json.loads((played.study / "analysis.json").read_text())
    traces = read_lines(played.study / "games.jsonl")
    game = load_game(result["game"])
    return Analysis(result, traces, game.spec, list(result["seats"]))


def test_analysis_trace_lines_are_the_studys_games_and_agree_with_themselves(analysis: Analysis) -> None:
    """games.jsonl holds the study's games (base, ladder, restricted: as many as its counts say), and each line
    agrees with itself: decisions are its branching widths, choices the widths above one, outcomes its returns'."""
    study, traces = analysis.result["study"], analysis.traces
    conditions = len(study["ladder"]) * len(analysis.names)
    items = len({t["task"]["item"] for t in analysis.kind("restricted")})
    assert len(analysis.kind("base")) == study["games"]
    assert len(analysis.kind("ladder")) == conditions * study["ladder_games"] * study["luck_replicates"]
    assert len(analysis.kind("restricted")) == items * min(study["restrict_games"], study["games"])
    assert analysis.result["games_played"] == len(traces)
    for t in traces:
        assert t["decisions"] == len(t["branching"])
        assert t["choices"] == sum(1 for b in t["branching"] if b > 1)
        assert t["actions"] == t["decisions"] + t["chance_events"]
        if t["returns"] is not None:
            assert t["outcomes"] == outcomes_of(analysis.spec, t["returns"])


def expected_seat_advantage(a: Analysis) -> dict[str, Any]:
    done = [t for t in a.kind("base") if t["returns"] is not None]
    rows = []
    for seat, name in enumerate(a.names):
        out = [outcomes_of(a.spec, t["returns"])[seat] for t in done]
        ret = mean_figure([float(t["returns"][seat]) for t in done], a.spec.min_utility, a.spec.max_utility)
        rows.append(
            {
                "seat": seat,
                "seat_name": name,
                "games": len(done),
                "wins": out.count("win"),
                "ties": out.count("tie"),
                "win_rate": out.count("win") / len(done),
                "win_interval": wilson(out.count("win"), len(done)),
                "mean_return": ret["mean"],
                "return_interval": ret["interval"],
                "return_method": ret["method"],
            }
        )
    return {"rows": rows}  # no exact values: the studied agents are not all random


def expected_length(a: Analysis) -> dict[str, Any]:
    base = a.kind("base")
    rounds = [t["rounds"] for t in base if t["rounds"] is not None]
    return {
        "games": len(base),
        "unfinished": sum(1 for t in base if t["returns"] is None),
        "actions": mean_row([t["actions"] for t in base]),
        "decisions": mean_row([t["decisions"] for t in base]),
        "chance_events": mean_row([t["chance_events"] for t in base]),
        "rounds": mean_row(rounds) if rounds else None,
        "choice_share": ratio_figure([t["choices"] for t in base], [t["decisions"] for t in base], 0.0, 1.0),
    }


def expected_branching(a: Analysis) -> dict[str, Any]:
    """Legal actions per decision: overall (a ratio over games), by tenth of each game (decision i of n in tenth
    floor(10 i / n)) and by decision number (the first 40, one value per game that reached it)."""
    base = a.kind("base")
    widths = [t["branching"] for t in base]
    tenths = []
    for k in range(10):
        sums = [sum(w for i, w in enumerate(b) if min(9, 10 * i // len(b)) == k) for b in widths]
        counts = [sum(1 for i in range(len(b)) if min(9, 10 * i // len(b)) == k) for b in widths]
        est = ratio_figure(sums, counts)
        tenths.append(
            {
                "part": k,
                "mean": est["value"],
                "interval": est["interval"],
                "method": est["method"],
                "decisions": sum(counts),
                "games": est["games"],
            }
        )
    by_decision = []
    for i in range(40):
        values = [b[i] for b in widths if len(b) > i]
        if values:
            by_decision.append({"decision": i, **mean_row(values)})
    return {
        "mean": ratio_figure([sum(b) for b in widths], [len(b) for b in widths]),
        "max": max(max(b) for b in widths if b),
        "by_progress": tenths,
        "by_decision": by_decision,
    }


def _conditions(a: Analysis) -> list[tuple[str, str, int, list[str]]]:
    """Each ladder condition: its label, agent, studied seat and seating (the agent in one seat, the reference
    agents in the others), in the order agent by agent, seat by seat."""
    study = a.result["study"]
    out = []
    for agent in study["ladder"]:
        for seat, name in enumerate(a.names):
            seating = list(study["agents"])
            seating[seat] = agent
            out.append((f"{agent} as {name}", agent, seat, seating))
    return out


def _by_condition(a: Analysis) -> list[list[dict[str, Any]]]:
    conds = _conditions(a)
    out: list[list[dict[str, Any]]] = [[] for _ in conds]
    for t in a.kind("ladder"):
        c = t["task"]["condition"]
        assert t["task"]["seating"] == conds[c][3]
        out[c].append(t)
    return out


def _budget(spec: str) -> int | None:
    kind, _, params = spec.partition(":")
    found = dict(p.split("=", 1) for p in params.split(",") if "=" in p)
    return int(found["iterations"]) if kind in ("mcts", "ismcts") and "iterations" in found else None


def _slope(points: Sequence[tuple[float, float]]) -> dict[str, Any]:
    """Least squares of the score on log2 of the budget: the slope, its t interval and two-sided p-value."""
    n = len(points)
    mx = math.fsum(x for x, _ in points) / n
    my = math.fsum(y for _, y in points) / n
    sxx = math.fsum((x - mx) ** 2 for x, _ in points)
    sxy = math.fsum((x - mx) * (y - my) for x, y in points)
    slope = sxy / sxx
    sse = math.fsum((y - my - slope * (x - mx)) ** 2 for x, y in points)
    se = math.sqrt(sse / (n - 2) / sxx)
    tq = float(stats.t.ppf(0.975, n - 2))
    return {
        "per_doubling": slope,
        "interval": [slope - tq * se, slope + tq * se],
        "games": n,
        "p_value": float(2 * stats.t.sf(abs(slope / se), n - 2)),
    }


def expected_ladder(a: Analysis) -> dict[str, Any]:
    game = load_game(a.result["game"])
    state = game.initial_state(game.make_options(**a.result["study"]["options"]))
    lo, hi = a.spec.min_utility, a.spec.max_utility
    conds, by_cond = _conditions(a), _by_condition(a)
    rows = []
    per_agent: dict[str, list[float]] = defaultdict(list)
    cells: dict[tuple[int, int], list[tuple[str, int, float]]] = defaultdict(list)
    for (label, agent, seat, _), games in zip(conds, by_cond, strict=True):
        done = [t for t in games if t["returns"] is not None]
        wins = sum(1 for t in done if outcomes_of(a.spec, t["returns"])[seat] == "win")
        ret = mean_figure([float(t["returns"][seat]) for t in done], lo, hi)
        rows.append(
            {
                "condition": label,
                "agent": agent,
                "seat": seat,
                "games": len(done),
                "wins": wins,
                "win_rate": wins / len(done),
                "win_interval": wilson(wins, len(done)),
                "mean_return": ret["mean"],
                "return_interval": ret["interval"],
                "return_method": ret["method"],
            }
        )
        per_agent[agent] += [SCORE[outcomes_of(a.spec, t["returns"])[seat]] for t in done]
        entry = entry_name(game, state, agent, seat, a.names)
        for t in done:  # a contest: one deal and replicate, every condition that played it
            cells[t["task"]["deal"], t["task"]["replicate"]].append((entry, seat, float(t["returns"][seat])))
    comps: list[Comparison] = []
    groups: list[int] = []
    for (deal, _), members in cells.items():
        for (ea, sa, va), (eb, sb, vb) in itertools.combinations(members, 2):
            if ea != eb:
                comps.append((ea, eb, beats(va, vb), sa, sb))
                groups.append(deal)
    ladder = a.result["study"]["ladder"]
    budgeted = [(math.log2(b), s) for agent in ladder if (b := _budget(agent)) for s in per_agent[agent]]
    rise = None
    if len({x for x, _ in budgeted}) >= 2 and len(budgeted) >= 3:
        if len({y for _, y in budgeted}) == 1:
            rise = {"per_doubling": 0.0, "interval": [0.0, 0.0], "games": len(budgeted), "p_value": None}
        else:
            rise = _slope(budgeted)
    return {
        "conditions": rows,
        "agents": [
            {
                "agent": agent,
                "budget": _budget(agent),
                "games": len(per_agent[agent]),
                "score": mean_row(per_agent[agent], 0.0, 1.0),
            }
            for agent in ladder
        ],
        "ratings": ratings_of(comps, groups, len(a.names), a.names),
        "contests": len(cells),
        "budget_rise": rise,
        "reference": a.result["study"]["agents"],
    }


TERMS = ("seat", "agent", "agent_by_seat", "deal", "deal_by_condition", "within")


def sums_of_squares(y: np.ndarray) -> np.ndarray:
    """The orthogonal sums of squares of ``y[deal, agent, seat, replicate]``, term by term (:data:`TERMS`),
    from the effects of the balanced design: each term's squared effects times the observations behind each."""
    d, na, ns, r = y.shape
    grand = y.mean()
    cell = y.mean(axis=3)  # [deal, agent, seat]
    deal = cell.mean(axis=(1, 2)) - grand
    cond = cell.mean(axis=0) - grand  # [agent, seat]
    agent = cond.mean(axis=1)
    seat = cond.mean(axis=0)
    agent_seat = cond - agent[:, None] - seat[None, :]
    deal_cond = cell - grand - deal[:, None, None] - cond[None, :, :]
    within = y - cell[..., None]
    return np.array(
        [
            float(np.sum(seat**2)) * d * na * r,
            float(np.sum(agent**2)) * d * ns * r,
            float(np.sum(agent_seat**2)) * d * r,
            float(np.sum(deal**2)) * na * ns * r,
            float(np.sum(deal_cond**2)) * r,
            float(np.sum(within**2)),
        ]
    )


def luck_table(a: Analysis) -> tuple[np.ndarray, list[int]]:
    """``y[deal, agent, seat, replicate]``: the ladder agent's seat's return, over the deals every condition
    finished in every replicate."""
    study = a.result["study"]
    reps, ladder = study["luck_replicates"], study["ladder"]
    index = [{(t["task"]["deal"], t["task"]["replicate"]): t for t in g} for g in _by_condition(a)]
    conds = _conditions(a)
    deals = [
        d
        for d in range(study["ladder_games"])
        if all((d, r) in ix and ix[d, r]["returns"] is not None for ix in index for r in range(reps))
    ]
    y = np.zeros((len(deals), len(ladder), len(a.names), reps))
    for c, (_, agent, seat, _) in enumerate(conds):
        for i, d in enumerate(deals):
            for r in range(reps):
                y[i, ladder.index(agent), seat, r] = index[c][d, r]["returns"][seat]
    return y, deals


def expected_luck(a: Analysis) -> dict[str, Any]:
    study = a.result["study"]
    y, deals = luck_table(a)
    d, na, ns, r = y.shape
    dfs = [ns - 1, na - 1, (na - 1) * (ns - 1), d - 1, (d - 1) * (na * ns - 1), d * na * ns * (r - 1)]
    total = float(np.sum((y - y.mean()) ** 2))
    ss = sums_of_squares(y)
    enough = d >= 10
    terms: dict[str, dict[str, Any]] = {
        t: {"share": None, "interval": [None, None], "df": dfs[k]} for k, t in enumerate(TERMS)
    }
    out: dict[str, Any] = {
        "deals": d,
        "agents": study["ladder"],
        "seats": a.names,
        "replicates": r,
        "games": int(y.size),
        "model": Prose("deal x condition"),
        "total_sum_of_squares": total,
        "terms": terms,
        "condition_means": [
            mean_row(list(y[:, ai, si, :].ravel()), -math.inf, math.inf) | {"agent": agent, "seat": seat}
            for ai, agent in enumerate(study["ladder"])
            for si, seat in enumerate(a.names)
        ],
        "enough": enough,
        "result": Prose("return"),
        "unfinished_deals": study["ladder_games"] - len(deals),
    }
    assert enough and total > 0 and ss[-1] > 0  # the study is big enough for every figure
    ms_within = ss[-1] / dfs[-1]
    for k, t in enumerate(TERMS):
        terms[t]["share"] = float(ss[k] / total)
        if t != "within":
            terms[t]["p_value"] = float(stats.f.sf(ss[k] / dfs[k] / ms_within, dfs[k], dfs[-1]))
    rng = np.random.default_rng(0)  # the documented percentile bootstrap over deals: 2,000 resamples, seed 0
    shares = []
    for _ in range(RESAMPLES):
        sample = y[rng.integers(0, d, d)]
        t_ss = float(np.sum((sample - sample.mean()) ** 2))
        if t_ss > 1e-12:
            shares.append(sums_of_squares(sample) / t_ss)
    out["resamples"] = len(shares)
    low, high = np.percentile(np.asarray(shares), [2.5, 97.5], axis=0)
    for k, t in enumerate(TERMS):
        terms[t]["interval"] = [float(max(0.0, low[k])), float(min(1.0, high[k]))]
    return out


def _lead_and_swings(versus: bool, chances: Sequence[Sequence[float]]) -> tuple[int, float, float]:
    leader: int | None = None
    changes = 0
    for point in chances:
        if versus:
            best = max(point)
            top = [s for s, p in enumerate(point) if abs(p - best) <= EPS]
            now = top[0] if len(top) == 1 else None
        else:
            now = 1 if point[0] > 0.5 + EPS else 0 if point[0] < 0.5 - EPS else None
        if now is not None:
            changes += leader is not None and now != leader
            leader = now
    swings = [max(abs(p - q) for p, q in zip(a, b, strict=True)) for a, b in itertools.pairwise(chances)]
    return changes, math.fsum(swings), max(swings, default=0.0)


def _corrected(chances: Sequence[Sequence[float]], methods: Sequence[str], k: int) -> tuple[float, float, float]:
    """Swings with the rollouts' noise taken out: a rollout estimate's variance p (1 - p) / (k - 1)."""
    var = [
        [p * (1 - p) / (k - 1) if k > 1 else 0.25 for p in pt] if m == "rollouts" else [0.0] * len(pt)
        for pt, m in zip(chances, methods, strict=True)
    ]
    steps, noise = [], 0.0
    for i in range(len(chances) - 1):
        terms = zip(chances[i], chances[i + 1], var[i], var[i + 1], strict=True)
        steps.append(max((math.sqrt(max(0.0, (p - q) ** 2 - u - v)) for p, q, u, v in terms), default=0.0))
        noise += max((math.sqrt(u + v) for u, v in zip(var[i], var[i + 1], strict=True)), default=0.0)
    return math.fsum(steps), max(steps, default=0.0), noise


def expected_drama(a: Analysis) -> dict[str, Any]:
    series = [t["drama"] for t in a.kind("base") if "drama" in t]
    k = a.result["study"]["drama_rollouts"]
    versus = a.result["competitive"]
    per = [_lead_and_swings(versus, s["chances"]) for s in series]
    fixed = [_corrected(s["chances"], s["point_methods"], k) for s in series]
    methods = sorted({m for s in series for m in s["method"]})
    noisy = "rollouts" in methods
    return {
        "games": len(series),
        "method": ["rollouts"] if noisy else methods,
        "rollouts": k if noisy else None,
        "too_few_rollouts": noisy and k < 32,
        "standard_error_bound": 0.5 / math.sqrt(k) if noisy else 0.0,
        "lead_changes": mean_row([p[0] for p in per]),
        "total_swing": mean_row([p[1] for p in per]),
        "largest_swing": mean_row([p[2] for p in per], 0.0, 1.0),
        "total_swing_corrected": mean_row([f[0] for f in fixed]),
        "largest_swing_corrected": mean_row([f[1] for f in fixed], 0.0, 1.0),
        "noise_swing": mean_row([f[2] for f in fixed]),
        "examples": [{"at": s["at"], "chances": s["chances"]} for s in series[:6]],
    }


def _change(
    games: Sequence[dict[str, Any]],
    base: Sequence[dict[str, Any]],
    value: Callable[[dict[str, Any]], float],
    span: float,
) -> dict[str, Any]:
    """The mean paired change restricted minus unrestricted over the pairs both finished, with the sign test."""
    diffs = [
        value(g) - value(b)
        for g, b in zip(games, base, strict=True)
        if g["returns"] is not None and b["returns"] is not None
    ]
    row = mean_figure(diffs, -span, span)
    up, down = sum(1 for x in diffs if x > 1e-12), sum(1 for x in diffs if x < -1e-12)
    return {
        "change": row["mean"] if diffs else None,
        "interval": row["interval"],
        "method": row["method"],
        "games": len(diffs),
        "better": up,
        "worse": down,
        "p_value": sign_test(up, down),
    }


def expected_restricted(a: Analysis) -> dict[str, Any]:
    study = a.result["study"]
    base = sorted(a.kind("base"), key=lambda t: t["task"]["deal"])[: min(study["restrict_games"], study["games"])]
    by_item: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for t in a.kind("restricted"):
        by_item[t["task"]["item"]].append(t)
    span = a.spec.max_utility - a.spec.min_utility
    rows = []
    for j in sorted(by_item):
        games = sorted(by_item[j], key=lambda t: t["task"]["deal"])
        item = games[0]["task"]["restriction"]
        how = (["may not be used"] if item["forbid"] else []) + (
            ["removed (" + ", ".join(f"{k}={v!r}" for k, v in item["options"]) + ")"] if item["options"] else []
        )
        seats = []
        for s, name in enumerate(a.names):

            def score(t: dict[str, Any], s: int = s) -> float:
                return SCORE[outcomes_of(a.spec, t["returns"])[s]]

            def ret(t: dict[str, Any], s: int = s) -> float:
                return float(t["returns"][s])

            seats.append(
                {
                    "seat": s,
                    "seat_name": name,
                    "win_change": _change(games, base, score, 1.0),
                    "return_change": _change(games, base, ret, span),
                    "rounds_change": _change(games, base, lambda t: float(t["rounds"] or 0), math.inf),
                }
            )
        rows.append(
            {
                "item": f"{item['kind']} {item['name']}",
                "kind": item["kind"],
                "name": item["name"],
                "how": "; ".join(how),
                "games": len(games),
                "games_restricted": sum(1 for t in games if t["restricted"]),
                "restricted_decisions": mean_row([t["restricted"] for t in games]),
                "unchanged_games": sum(
                    1
                    for t, b in zip(games, base, strict=True)
                    if t["returns"] == b["returns"] and t["actions"] == b["actions"]
                ),
                "seats": seats,
            }
        )
    family = [s["win_change"] for r in rows for s in r["seats"]]  # every item at every seat, adjusted together
    p = [w["p_value"] for w in family]
    for w, h, bh in zip(family, holm(p), benjamini_hochberg(p), strict=True):
        w.update(holm_p=h, bh_p=bh, holm_survives=h <= 0.05, bh_survives=bh <= 0.05)
    rows.sort(key=lambda r: -abs(r["seats"][0]["win_change"]["change"] or 0.0))
    return {
        "items": rows,
        "baseline_games": len(base),
        "hook": bool(rows),
        "tests": len(family),
        "significant": [
            {
                "seat": s,
                "seat_name": name,
                "nominal": sum(1 for r in rows if r["seats"][s]["win_change"]["p_value"] < 0.05),
                "holm": sum(1 for r in rows if r["seats"][s]["win_change"]["holm_survives"]),
                "bh": sum(1 for r in rows if r["seats"][s]["win_change"]["bh_survives"]),
            }
            for s, name in enumerate(a.names)
        ],
    }


#: Every section of the analysis, by its key in analysis.json, with its recomputation from games.jsonl.
SECTIONS: dict[str, Callable[[Analysis], dict[str, Any]]] = {
    "seat_advantage": expected_seat_advantage,
    "length": expected_length,
    "branching": expected_branching,
    "ladder": expected_ladder,
    "luck": expected_luck,
    "drama": expected_drama,
    "restricted": expected_restricted,
}


@pytest.mark.parametrize("section", sorted(SECTIONS))
def test_analysis_section_every_number_recomputed_from_the_traces(analysis: Analysis, section: str) -> None:
    """One section of analysis.json, every number: seat advantage (win rates, mean returns, intervals), game
    length (means and ranges of actions, decisions, chance events, rounds; the share of real choices),
    branching (overall, by tenth, by decision), the ladder (per condition, per agent, Bradley-Terry ratings with
    the seat term, the rise per doubling), luck (the shares of the crossed design, their F-tests and bootstrap
    intervals), drama (lead changes and swings from the lines' win chances) and restricted play (the paired
    changes, sign tests, Holm and Benjamini-Hochberg)."""
    assert_recomputed(analysis.result[section], SECTIONS[section](analysis))


def test_analysis_every_section_of_the_study_is_recomputed(analysis: Analysis) -> None:
    """The study computed every section, and each is one this file recomputes (a new section fails here)."""
    keys = {"seats": "seat_advantage", "length": "length", "branching": "branching", "ladder": "ladder"}
    keys |= {"luck": "luck", "drama": "drama", "restricted": "restricted"}
    assert {keys[s] for s in analysis.result["study"]["sections"]} == set(SECTIONS)
    top = {"format", "version", "game", "short_name", "seats", "competitive", "win_rule", "study", "games_played"}
    assert set(analysis.result) == top | {"seconds"} | set(SECTIONS)


def test_analysis_luck_sums_of_squares_agree_with_nested_least_squares_fits(analysis: Analysis) -> None:
    """The sums of squares of the luck model, recomputed here from the effects, are the drops of the residual
    sum of squares of nested least-squares fits (NumPy's lstsq on indicator columns): seat, then agent, the
    agent-seat cells, deal, the deal-condition cells; the last fit's residual is the within-cell term."""
    y, _ = luck_table(analysis)
    d, na, ns, r = y.shape
    idx = np.array(list(itertools.product(range(d), range(na), range(ns), range(r))))
    values = np.array([y[tuple(i)] for i in idx])

    def dummies(codes: np.ndarray) -> np.ndarray:
        return np.asarray((codes[:, None] == np.unique(codes)[None, :]).astype(float))

    blocks = [
        dummies(idx[:, 2]),
        dummies(idx[:, 1]),
        dummies(idx[:, 1] * ns + idx[:, 2]),
        dummies(idx[:, 0]),
        dummies((idx[:, 0] * na + idx[:, 1]) * ns + idx[:, 2]),
    ]

    def rss(design: np.ndarray) -> float:
        coef = np.linalg.lstsq(design, values, rcond=None)[0]
        return float(np.sum((values - design @ coef) ** 2))

    design = np.ones((len(values), 1))
    fits = [rss(design)]
    for block in blocks:
        design = np.hstack([design, block])
        fits.append(rss(design))
    nested = [fits[k] - fits[k + 1] for k in range(len(blocks))] + [fits[-1]]
    assert np.allclose(sums_of_squares(y), nested, rtol=1e-7, atol=1e-9), (sums_of_squares(y), nested)
    shares = [analysis.result["luck"]["terms"][t]["share"] for t in TERMS]
    assert shares == pytest.approx([x / fits[0] for x in nested], rel=1e-7, abs=1e-12)
