"""PNG plots of a simulation (the ``plot`` extra: matplotlib, through its object API, so no global state).

:func:`write_plots` writes ``win_rates.png`` (win rate with its Wilson interval per agent and per seat),
``ratings.png`` (each rating entry's Elo with its bootstrap interval; only when at least two entries were
rated) and ``returns.png`` (each agent's returns as a histogram). A plot with nothing to show is not written.
Every plot has a title that says how many games it shows and labelled axes; the title is also stored in the
PNG's ``Title`` text chunk (:func:`save_png`), so a reader (or a test) can tell the plots apart without
looking.
"""

from __future__ import annotations

import io
import itertools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop_core.files import atomic_write_bytes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["save_png", "write_plots"]


def save_png(fig: Figure, path: Path, *, dpi: int = 100) -> None:
    """Write a figure as PNG atomically, its (first axes') title in the PNG ``Title`` text chunk."""
    title = fig.get_suptitle() or next((ax.get_title() for ax in fig.axes if ax.get_title()), "")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Title": title})
    atomic_write_bytes(path, buf.getvalue())


def _win_rates(fig: Figure, summary: Mapping[str, Any]) -> None:
    rows = [(r["agent"], r) for r in summary["agents"]]
    rows += [(f"{r['agent']} as {r['seat_name']}", r) for r in summary["seats"]]
    ax = fig.add_subplot()
    labels = [f"{label} (n={r['games']})" for label, r in rows]
    rates = [r["win_rate"] for _, r in rows]
    low = [r["win_rate"] - r["win_interval"][0] for _, r in rows]
    high = [r["win_interval"][1] - r["win_rate"] for _, r in rows]
    ax.barh(range(len(rows)), rates, xerr=[low, high], capsize=3, color="tab:blue")
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (share of games won; bars: 95% Wilson interval)")
    ax.set_ylabel("agent (games)")
    ax.set_title(f"{summary['game']}: win rates over {summary['games']} games")


def _ratings(fig: Figure, summary: Mapping[str, Any]) -> None:
    rated = summary["ratings"]
    rows = rated["entries"]
    ax = fig.add_subplot()
    values = [r["elo"] for r in rows]
    low = [r["elo"] - (r["interval"][0] if r["interval"][0] is not None else r["elo"]) for r in rows]
    high = [(r["interval"][1] if r["interval"][1] is not None else r["elo"]) - r["elo"] for r in rows]
    ax.barh(range(len(rows)), values, xerr=[low, high], capsize=3, color="tab:green")
    ax.set_yticks(range(len(rows)), [r["entry"] for r in rows])
    ax.invert_yaxis()
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("rating (Elo points around the entries' mean; bars: 95% bootstrap interval)")
    ax.set_ylabel("entry")
    ax.set_title(f"{summary['game']}: Bradley-Terry ratings from {rated['comparisons']} comparisons")


def _returns(fig: Figure, summary: Mapping[str, Any], by_agent: Mapping[str, Sequence[float]]) -> None:
    names = sorted(by_agent)
    axes = fig.subplots(len(names), 1, sharex=True, squeeze=False)[:, 0]
    for ax, name in zip(axes, names, strict=True):
        values = by_agent[name]
        distinct = sorted(set(values))
        if len(distinct) <= 12:  # few distinct returns (-1, 0, +1): a bar per value
            counts = [values.count(v) for v in distinct]
            width = min((b - a for a, b in itertools.pairwise(distinct)), default=1.0) * 0.8
            ax.bar(distinct, counts, width=width or 0.8, color="tab:blue")
        else:
            ax.hist(values, bins=20, color="tab:blue")
        ax.set_ylabel("games")
        ax.set_title(f"{name} (n={len(values)})", fontsize="small")
    axes[-1].set_xlabel("return (the game's utility)")
    fig.suptitle(f"{summary['game']}: returns per agent over {summary['games']} games")


def write_plots(summary: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], folder: str | Path) -> list[Path]:
    """Write the plots that have something to show into ``folder`` and return their paths.

    Raises:
        ImportError: without matplotlib (install ``tabletop-rules[plot]``).
    """
    from matplotlib.figure import Figure

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    by_agent: dict[str, list[float]] = defaultdict(list)
    for ln in lines:
        if ln["returns"] is not None:
            for agent, value in zip(ln["agents"], ln["returns"], strict=True):
                by_agent[agent].append(float(value))
    if summary["agents"]:
        fig = Figure(figsize=(8.0, 1.5 + 0.35 * (len(summary["agents"]) + len(summary["seats"]))), layout="constrained")
        _win_rates(fig, summary)
        paths.append(out / "win_rates.png")
        save_png(fig, paths[-1])
    if len(summary.get("ratings", {}).get("entries", [])) >= 2:
        fig = Figure(figsize=(8.0, 1.5 + 0.4 * len(summary["ratings"]["entries"])), layout="constrained")
        _ratings(fig, summary)
        paths.append(out / "ratings.png")
        save_png(fig, paths[-1])
    if by_agent:
        fig = Figure(figsize=(8.0, 1.2 + 1.6 * len(by_agent)), layout="constrained")
        _returns(fig, summary, by_agent)
        paths.append(out / "returns.png")
        save_png(fig, paths[-1])
    return paths
