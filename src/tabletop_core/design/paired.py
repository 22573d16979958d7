"""Paired statistics for two variants played on the same deals.

Every measure is a *ratio of sums* over games: each game ``g`` contributes a numerator ``n[g]`` and a denominator
``d[g]`` (a win rate is ``n = won, d = 1``; a monster's lethality is ``n = lost to it, d = fought it``; a mean score
of a win is ``n = score, d = won``). The estimate of a variant is ``sum(n) / sum(d)``. Because both variants were
played on the same deals, the comparison resamples and permutes *deals*, never games one by one:

* the interval of the difference ``B - A`` is a paired bootstrap over deals (SciPy's ``bootstrap``, percentile
  method) at the stated confidence;
* the p-value is McNemar's exact test (statsmodels) when the measure is a yes/no outcome of every game, and
  otherwise a paired permutation test (SciPy's ``permutation_test``: under the null hypothesis the two variants are
  exchangeable within a deal, so the labels of each deal's pair are swapped at random);
* across measures, Holm and Benjamini-Hochberg adjustments (statsmodels' ``multipletests``) are both given, and a
  difference is called only when its Holm-adjusted p-value is below ``1 - confidence``.

>>> import numpy as np
>>> a = np.array([1, 0, 0, 1, 0, 0, 0, 1, 0, 0] * 4, dtype=float)
>>> b = np.array([1, 1, 0, 1, 1, 0, 1, 1, 1, 0] * 4, dtype=float)
>>> one = np.ones(40)
>>> row = paired_difference("win", a, one, b, one, resamples=2000, seed=1)
>>> row.a, row.b, row.test
(0.3, 0.7, 'McNemar exact')
>>> row.p < 0.001, row.low > 0
(True, True)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import attrs
import numpy as np

from tabletop_core.errors import OptionError

__all__ = ["Difference", "adjust", "paired_difference"]


@attrs.frozen
class Difference:
    """One measure compared between a baseline ``a`` and a variant ``b`` on paired deals.

    Attributes:
        measure: the measure's name.
        a, b: each variant's estimate (``None`` when no game gave it a denominator).
        diff: ``b - a`` (``None`` when either is missing).
        low, high: the paired bootstrap interval of ``diff`` at the comparison's confidence.
        p: the paired test's two-sided p-value; ``p_holm``, ``p_bh`` adjusted across the comparison's measures.
        pairs: deals that contribute to the measure in either variant.
        test: which test gave ``p``.
    """

    measure: str
    a: float | None
    b: float | None
    diff: float | None
    low: float | None
    high: float | None
    p: float | None
    pairs: int
    test: str
    p_holm: float | None = None
    p_bh: float | None = None

    def to_dict(self) -> dict[str, object]:
        return attrs.asdict(self)


def _ratio(n: np.ndarray, d: np.ndarray, axis: int = -1) -> np.ndarray:
    num = n.sum(axis=axis)
    den = d.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def paired_difference(
    measure: str,
    na: np.ndarray,
    da: np.ndarray,
    nb: np.ndarray,
    db: np.ndarray,
    *,
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Difference:
    """Compare one measure of two variants over the same deals (arrays indexed by deal; see the module)."""
    from scipy import stats  # the `design` extra

    if not 0.5 <= confidence < 1:
        raise OptionError(f"confidence must be in [0.5, 1), not {confidence!r}")
    arrays = [np.asarray(x, dtype=float) for x in (na, da, nb, db)]
    if len({x.shape for x in arrays}) != 1 or arrays[0].ndim != 1:
        raise OptionError(f"measure {measure!r}: the four arrays must be one-dimensional and of one length")
    na, da, nb, db = arrays
    keep = (da > 0) | (db > 0)
    na, da, nb, db = na[keep], da[keep], nb[keep], db[keep]
    pairs = int(keep.sum())
    ra = float(_ratio(na, da)) if da.sum() > 0 else None
    rb = float(_ratio(nb, db)) if db.sum() > 0 else None
    ra = None if ra is None or math.isnan(ra) else ra
    rb = None if rb is None or math.isnan(rb) else rb
    if ra is None or rb is None or pairs < 2:
        return Difference(measure, ra, rb, None, None, None, None, pairs, "too few deals")
    diff = rb - ra
    binary = bool(
        np.all(da == 1) and np.all(db == 1) and np.all(np.isin(na, (0.0, 1.0))) and np.all(np.isin(nb, (0.0, 1.0)))
    )
    index = np.arange(pairs)

    def statistic(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        i = idx.astype(np.intp)
        out: np.ndarray = _ratio(nb[i], db[i], axis) - _ratio(na[i], da[i], axis)
        return out

    if np.allclose(na * db, nb * da) and np.allclose(da, db):
        low: float | None
        high: float | None
        low = high = diff  # the same value in every deal: nothing varies
        p = 1.0
        test = "McNemar exact" if binary else "paired permutation"
    else:
        rng = np.random.default_rng(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            boot = stats.bootstrap(
                (index,),
                statistic,
                vectorized=True,
                paired=False,
                n_resamples=resamples,
                confidence_level=confidence,
                method="percentile",
                random_state=rng,
            )
        dist = np.asarray(boot.bootstrap_distribution, dtype=float)
        finite = dist[np.isfinite(dist)]
        if finite.size < 0.5 * dist.size:
            # most resamples miss the measure's denominator in a variant: no interval worth printing
            low = high = None
        else:
            tail = 50 * (1 - confidence)
            low, high = (float(x) for x in np.percentile(finite, [tail, 100 - tail]))
        if binary:
            from statsmodels.stats.contingency_tables import mcnemar

            table = [
                [int(((na == 1) & (nb == 1)).sum()), int(((na == 1) & (nb == 0)).sum())],
                [int(((na == 0) & (nb == 1)).sum()), int(((na == 0) & (nb == 0)).sum())],
            ]
            p = float(mcnemar(table, exact=True).pvalue)
            test = "McNemar exact"
        else:

            def swapped(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
                # x holds, per deal, the index of what stands as "a"; y of what stands as "b" (into the stacks).
                n = np.concatenate([na, nb])
                d = np.concatenate([da, db])
                xi, yi = x.astype(np.intp), y.astype(np.intp)
                diff: np.ndarray = _ratio(n[yi], d[yi], axis) - _ratio(n[xi], d[xi], axis)
                return diff

            res = stats.permutation_test(
                (index, index + pairs),
                swapped,
                permutation_type="samples",
                vectorized=True,
                n_resamples=resamples,
                alternative="two-sided",
                random_state=np.random.default_rng(seed + 1),
            )
            p = float(min(1.0, res.pvalue))
            test = "paired permutation"
    return Difference(measure, ra, rb, diff, low, high, p, pairs, test)


def adjust(rows: Sequence[Difference]) -> tuple[Difference, ...]:
    """The rows with Holm and Benjamini-Hochberg adjusted p-values across those that have a p-value."""
    from statsmodels.stats.multitest import multipletests

    tested = [i for i, r in enumerate(rows) if r.p is not None]
    out = list(rows)
    if tested:
        ps = [rows[i].p for i in tested]
        holm = multipletests(ps, method="holm")[1]
        bh = multipletests(ps, method="fdr_bh")[1]
        for k, i in enumerate(tested):
            out[i] = attrs.evolve(rows[i], p_holm=float(holm[k]), p_bh=float(bh[k]))
    return tuple(out)
