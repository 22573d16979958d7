"""``tabletop report DIR``: the tables of a simulation's results (rich) and, with the ``plot`` extra, its plots.

``report`` only reads the results: it never changes ``games.jsonl`` or ``run.json``, and writes nothing but its
own files (``summary.json``, the plots), each atomically. A damaged line is named on standard error (file and
line number) and skipped, with a count of the games read around it; a game whose line appears twice counts once.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from tabletop_core.errors import OptionError
from tabletop_core.files import atomic_write_text

if TYPE_CHECKING:
    from tabletop_core.cli.common import Subparsers


def add_parser(sub: Subparsers) -> None:
    """Register the command."""
    report = sub.add_parser("report", help="print the tables of a simulation's results and write its plots")
    report.add_argument("dir", help="a results directory written by tabletop simulate")
    report.add_argument("--plots", metavar="DIR", help="where to write the PNG plots (default: DIR/plots)")
    report.add_argument("--no-plots", action="store_true", help="print the tables only")
    report.add_argument(
        "--html",
        metavar="OUT.html",
        help="also write one self-contained results page (tables, plots, filters, replays)",
    )
    report.add_argument("--force", action="store_true", help="with --html: overwrite OUT.html if it exists")
    report.set_defaults(func=run)


def console(out: TextIO) -> Any:
    """A rich console on ``out`` (colour only on a terminal; wide enough for the tables elsewhere)."""
    try:
        from rich.console import Console
    except ImportError as exc:
        raise OptionError("tables need rich: pip install rich") from exc
    tty = bool(getattr(out, "isatty", lambda: False)())
    return Console(file=out, width=None if tty else 140, force_terminal=tty or None, no_color=not tty)


def interval_text(
    value: float | None, interval: Sequence[float | None], method: str, fmt: str = ".3g", scale: float = 1.0
) -> str:
    """A figure and its interval as the tables print it: "too few games" or "all the same" instead of a number
    or a zero-width interval."""
    if value is None:
        return method
    low, high = interval
    if low is None or high is None:
        return f"{scale * value:{fmt}} ({'no spread' if method == 'no spread' else 'no interval'})"
    return f"{scale * value:{fmt}} ({scale * low:{fmt}} to {scale * high:{fmt}}, {method})"


def _row_cells(row: Mapping[str, Any], solo: bool) -> list[str]:
    low, high = row["win_interval"]
    cells = [
        str(row["games"]),
        f"{row['wins']}-{row['ties']}-{row['losses']}",
        f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})",
        interval_text(row["mean_return"], row["return_interval"], row.get("return_method", "t")),
    ]
    if solo:
        share = row.get("score_share")
        cells.append("n/a" if share is None else f"{100 * share:.1f}%")
    return cells


def print_tables(summary: Mapping[str, Any], out: TextIO) -> None:
    """Print the summary's tables: agents, seats, head-to-head, paired comparisons, ratings."""
    from rich.table import Table

    con = console(out)
    solo = any("score_share" in r for r in summary["agents"])
    heads = ["games", "W-T-L", "win rate (95% Wilson)", "mean return (95%, method)"]
    heads += ["score / max"] if solo else []
    con.print(
        f"[bold]{summary['game']}[/bold]: {summary['games']} of {summary['planned']} games, seed {summary['seed']}, "
        f"utility {summary['utility']}; wins: {summary['win_rule']}"
    )
    title = "agents"
    if any(r.get("self_play_games") for r in summary["agents"]):
        title += " (every seat an agent held; a self-play game counts once per seat)"
    agents = Table(title=title)
    agents.add_column("agent", overflow="fold")
    for h in heads:
        agents.add_column(h, justify="right")
    for row in summary["agents"]:
        name = row["agent"] + (f" ({row['self_play_games']} self-play)" if row.get("self_play_games") else "")
        agents.add_row(name, *_row_cells(row, solo))
    con.print(agents)
    seats = Table(title="agents by seat")
    seats.add_column("agent", overflow="fold")
    seats.add_column("seat")
    for h in heads:
        seats.add_column(h, justify="right")
    for row in summary["seats"]:
        seats.add_row(row["agent"], row["seat_name"], *_row_cells(row, solo))
    con.print(seats)
    if summary["head_to_head"]:
        names = sorted({c["agent"] for c in summary["head_to_head"]})
        cells = {(c["agent"], c["opponent"]): c for c in summary["head_to_head"]}
        h2h = Table(title="head to head: the row agent's wins against the column agent (ties, games)")
        h2h.add_column("", overflow="fold")
        for n in names:
            h2h.add_column(n, justify="right", overflow="fold")
        for a in names:
            row = []
            for b in names:
                c = cells.get((a, b))
                row.append("" if c is None else f"{100 * c['win_rate']:.0f}% ({c['ties']}, {c['games']})")
            h2h.add_row(a, *row)
        con.print(h2h)
    if summary.get("paired"):
        pt = Table(
            title="paired: two agents in one seat on the same deals (McNemar exact on the deals only one of them "
            "won; unpaired: Fisher's exact test of the two win rates)"
        )
        for h in (
            "seat",
            "agent",
            "other",
            "deals",
            "wins",
            "only agent won",
            "only other won",
            "McNemar p",
            "unpaired p",
            "return difference (95%)",
        ):
            pt.add_column(h, overflow="fold")
        for r in summary["paired"]:
            d = r["return_difference"]
            pt.add_row(
                r["seat_name"],
                r["agent"],
                r["other"],
                str(r["deals"]),
                f"{r['wins']} vs {r['other_wins']}",
                str(r["only_agent_won"]),
                str(r["only_other_won"]),
                f"{r['mcnemar_p']:.2g}",
                f"{r['unpaired_p']:.2g}",
                interval_text(d["mean"], d["interval"], d["method"]),
            )
        con.print(pt)
    rated = summary.get("ratings") or {}
    if rated.get("entries"):
        ratings = Table(title=f"ratings: {rated['model']}; 95% bootstrap over games ({rated['resamples']} resamples)")
        ratings.add_column("entry", overflow="fold")
        for h in ("Elo", "interval", "comparisons"):
            ratings.add_column(h, justify="right")
        for r in rated["entries"]:
            low, high = r["interval"]
            ci = "n/a" if low is None else f"{low:.0f} to {high:.0f}"
            ratings.add_row(r["entry"], f"{r['elo']:.0f}", ci, str(r["comparisons"]))
        for t in rated.get("seat_terms", []):
            low, high = t["interval"]
            ci = "n/a" if low is None else f"{low:.0f} to {high:.0f}"
            ratings.add_row(f"(seat term: {t['seat_name']} over the first seat)", f"{t['elo']:.0f}", ci, "")
        con.print(ratings)


def write_plots_or_say(
    summary: Mapping[str, Any], lines: Sequence[Mapping[str, Any]], folder: Path, out: TextIO
) -> None:
    """Write the plots, or say how to get them."""
    try:
        from tabletop_core.simulation.plots import write_plots

        paths = write_plots(summary, lines, folder)
    except ImportError:
        out.write("plots: install the plot extra (pip install -e '.[plot]' in a clone) to write PNG plots\n")
        return
    out.write("plots: " + ", ".join(str(p) for p in paths) + "\n")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Print the tables (and write summary.json and the plots) of a results directory."""
    from tabletop_core.simulation import load_results
    from tabletop_core.simulation.runner import SUMMARY_FILE

    html = None
    if getattr(args, "html", None):  # a Namespace built by hand (tests, the simulate command) may lack the option
        from tabletop_core.cli.common import check_output

        html = check_output(args.html, force=getattr(args, "force", False), what="--html")
    results = load_results(args.dir)
    for note in results.notes():
        sys.stderr.write(f"tabletop: {note}\n")
    summary = results.summary()
    atomic_write_text(Path(args.dir) / SUMMARY_FILE, json.dumps(summary, indent=1, sort_keys=True) + "\n")
    print_tables(summary, out)
    if not args.no_plots:
        write_plots_or_say(summary, results.lines, Path(args.plots or Path(args.dir) / "plots"), out)
    if html is not None:
        from tabletop_core.render.results_page import write_results_page

        plots = [] if args.no_plots else sorted(Path(args.plots or Path(args.dir) / "plots").glob("*.png"))
        written = write_results_page(Path(args.dir), summary, results.lines, plots, html)
        out.write(f"html: {html} and {len(written) - 1} replay pages\n")
    return 0
