"""Certify a pack against balance targets on deals nobody tuned on.

Each (sub)target is decided by a one-sided bootstrap bound (resampled by deal across all cells, see
:mod:`tabletop_core.design.targets`): ``at_most H`` passes when the upper bound is below ``H`` and fails when the
lower bound is above it; ``at_least L`` the mirror; with both, it passes when both bounds lie inside (an
equivalence test: two one-sided tests) and fails when the whole interval lies outside. Anything else is
*undecided*: more games would decide it. The bounds are Bonferroni-adjusted across the targets, so the
certificate as a whole holds at the stated confidence: the chance that any target is reported as passed while
it is not met is at most ``1 - confidence``.

A pack written by ``tabletop tune`` records the deals it was tuned on (a ``# tabletop-tune: seeds=A:B`` line);
certification refuses deals that overlap them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core.design.targets import Targets, evaluate, resampled_sums, statistic
from tabletop_core.errors import OptionError

__all__ = ["Verdict", "certify", "tuned_on"]

_MARK = re.compile(r"^# tabletop-tune: seeds=(\d+):(\d+)\b", re.MULTILINE)


@attrs.frozen
class Verdict:
    """One target's decision and its evidence."""

    target: str
    bounds: str
    estimate: float
    low: float
    high: float
    verdict: str  # "pass", "fail" or "undecided"

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


def tuned_on(pack: Path | None) -> range | None:
    """The deals a tuned pack file says it was tuned on (``None`` for other packs)."""
    if pack is None or not pack.is_file():
        return None
    from tabletop_core.files import read_regular

    head = read_regular(pack, max_bytes=4 << 20).decode("utf-8", "replace")
    found = _MARK.search(head)
    return range(int(found.group(1)), int(found.group(2))) if found else None


def decide(low: float, high: float, lo: float | None, hi: float | None) -> str:
    """The verdict of a target with bounds ``lo``/``hi`` from an interval ``[low, high]`` of its statistic."""
    if any(math.isnan(x) for x in (low, high)):
        return "undecided"
    inside = (lo is None or low >= lo) and (hi is None or high <= hi)
    outside = (lo is not None and high < lo) or (hi is not None and low > hi)
    return "pass" if inside else "fail" if outside else "undecided"


def verdicts(
    targets: Targets,
    cells: Sequence[Any],
    data: np.ndarray,
    names: Sequence[str],
    *,
    confidence: float,
    resamples: int,
    seed: int,
) -> list[Verdict]:
    """Decide every (sub)target from played data (see the module)."""
    subs = targets.subtargets()
    sums = resampled_sums(data, resamples, seed)
    alpha = (1 - confidence) / len(subs)  # Bonferroni: the certificate holds jointly
    out = []
    for label, target, fixed in subs:
        values = statistic(targets, target, fixed, cells, sums, names)
        estimate = float(values[0])
        boot = values[1:]
        boot = boot[~np.isnan(boot)]
        if boot.size < 0.9 * resamples:
            low = high = math.nan
        else:
            # one-sided bounds at 1 - alpha each (inf stays inf: a spread with a zero rate)
            low, high = (float(x) for x in np.quantile(boot, [alpha, 1 - alpha], method="linear"))
        out.append(
            Verdict(label, target.bounds(), estimate, low, high, decide(low, high, target.at_least, target.at_most))
        )
    return out


def certify(
    targets: Targets,
    seeds: range,
    *,
    pack: Path | None = None,
    confidence: float = 0.95,
    resamples: int = 2000,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> list[Verdict]:
    """Play the grid on ``seeds`` and decide every target.

    Raises:
        OptionError: ``seeds`` overlap the deals the pack was tuned on, or a bad confidence.
    """
    if not 0.5 <= confidence < 1:
        raise OptionError(f"confidence must be at least 0.5 and below 1, not {confidence!r}")
    tuned = tuned_on(pack)
    if tuned is not None and max(seeds.start, tuned.start) < min(seeds.stop, tuned.stop):
        raise OptionError(
            f"seeds {seeds.start}:{seeds.stop} overlap the deals {tuned.start}:{tuned.stop} the pack was tuned on; "
            "certify on deals nobody tuned on"
        )
    cells, data, names = evaluate(targets, seeds, pack=pack, workers=workers, backend=backend, address=address)
    return verdicts(targets, cells, data, names, confidence=confidence, resamples=resamples, seed=seeds.start)
