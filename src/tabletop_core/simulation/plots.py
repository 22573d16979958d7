"""PNG plots of a simulation (the ``plot`` extra: matplotlib, through its object API, so no global state).

:func:`write_plots` writes ``win_rates.png`` (win rate with its Wilson interval per agent and per seat),
``ratings.png`` (each agent's openskill ordinal after each contest) and ``returns.png`` (the distribution of each
agent's returns).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["write_plots"]


def _win_rates(fig: Any, summary: Mapping[str, Any]) -> None:
    rows = [(r["agent"], r) for r in summary["agents"]]
    rows += [(f"{r['agent']} as {r['seat_name']}", r) for r in summary["seats"]]
    ax = fig.add_subplot()
    labels = [label for label, _ in rows]
    rates = [r["win_rate"] for _, r in rows]
    low = [r["win_rate"] - r["win_interval"][0] for _, r in rows]
    high = [r["win_interval"][1] - r["win_rate"] for _, r in rows]
    ax.barh(range(len(rows)), rates, xerr=[low, high], capsize=3, color="tab:blue")
    ax.set_yticks(range(len(rows)), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title(f"{summary['game']}: win rates over {summary['games']} games")


def _ratings(fig: Any, summary: Mapping[str, Any]) -> None:
    ax = fig.add_subplot()
    for agent, values in sorted(summary["rating_history"].items()):
        ax.plot(range(1, len(values) + 1), values, label=agent)
    ax.set_xlabel("contests played")
    ax.set_ylabel("openskill ordinal (mu - 3 sigma)")
    ax.set_title("rating trajectories")
    if summary["rating_history"]:
        ax.legend(fontsize="small")


def _returns(fig: Any, lines: Sequence[Mapping[str, Any]]) -> None:
    by_agent: dict[str, list[float]] = defaultdict(list)
    for ln in lines:
        if ln["returns"] is not None:
            for agent, value in zip(ln["agents"], ln["returns"], strict=True):
                by_agent[agent].append(float(value))
    ax = fig.add_subplot()
    names = sorted(by_agent)
    if names:
        ax.boxplot([by_agent[n] for n in names], orientation="horizontal", tick_labels=names)
    ax.set_xlabel("return")
    ax.set_title("return distributions")


def write_plots(summary: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], folder: str | Path) -> list[Path]:
    """Write the three plots into ``folder`` and return their paths.

    Raises:
        ImportError: without matplotlib (install ``tabletop-rules[plot]``).
    """
    from matplotlib.figure import Figure

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    sizes = {
        "win_rates.png": (8.0, 1.5 + 0.35 * (len(summary["agents"]) + len(summary["seats"]))),
        "ratings.png": (8.0, 4.5),
        "returns.png": (8.0, 1.5 + 0.5 * len(summary["agents"])),
    }
    for name, size in sizes.items():
        fig = Figure(figsize=size, layout="constrained")
        if name == "win_rates.png":
            _win_rates(fig, summary)
        elif name == "ratings.png":
            _ratings(fig, summary)
        else:
            _returns(fig, lines)
        path = out / name
        fig.savefig(path, dpi=100)
        paths.append(path)
    return paths
