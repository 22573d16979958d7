"""The report of a study: ``analysis.json`` (every number), ``report.md`` (tables and plots) and PNG plots.

:func:`write_report` writes them into a folder; the plots need the ``plot`` extra (matplotlib, through its object
API) and are left out, with a line saying so, without it. :func:`markdown` renders the Markdown alone. Every
table states its games; every interval is 95%.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tabletop_core.analysis.study import dumps, study_from_json, summarize
from tabletop_core.files import atomic_write_text, atomic_writer

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["PLOTS", "markdown", "rewrite_report", "write_plots", "write_report"]

#: The plot files, by section.
PLOTS = {
    "seats": "seats.png",
    "length": "length.png",
    "branching": "branching.png",
    "ladder": "ladder.png",
    "luck": "luck.png",
    "drama": "drama.png",
    "restricted": "restricted.png",
}


def _f(x: float | None, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{digits}f}"


def _p(x: float | None) -> str:
    """A p-value to three places; one that would print as 0.000 is shown as below 0.001, since p is never 0."""
    if x is not None and 0 <= x < 0.0005:
        return "< 0.001"
    return _f(x)


def _ci(values: Sequence[float | None], digits: int = 3) -> str:
    low, high = values
    if low is None or high is None:
        return "n/a"
    return f"[{_f(low, digits)}, {_f(high, digits)}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return [*out, ""]


def _est(
    value: float | None, interval: Sequence[float | None], method: str | None, games: int, digits: int = 3
) -> tuple[str, str]:
    """A figure and its interval as the report prints them: "too few games" instead of a number from fewer games
    than the statistics accept, "all the same" instead of an interval of no width."""
    if method == "too few games" or value is None:
        return (f"too few games ({games})", "")
    if method == "no spread":
        return (_f(value, digits), f"all {games} the same")
    text = _ci(interval, digits)
    return (_f(value, digits), f"{text} ({method})" if method else text)


def _mean_cells(row: Mapping[str, Any] | None) -> list[str]:
    if not row:
        return ["n/a", "n/a", "0"]
    return [*_est(row["mean"], row["interval"], row.get("method"), row["games"]), str(row["games"])]


def markdown(result: Mapping[str, Any], plots: Sequence[str] = (), reading: str = "", *, traces: bool = False) -> str:
    """The report as Markdown; ``plots`` are the plot files written beside it, ``reading`` a text to include,
    ``traces`` whether ``games.jsonl`` is written beside it."""
    study = result["study"]
    lines = [f"# Analysis of {result['short_name']}", ""]
    lines += [
        f"Game `{result['game']}`, options {study['options'] or 'the defaults'}; seats: "
        + ", ".join(f"{i} {n}" for i, n in enumerate(result["seats"]))
        + f". Studied agents (one per seat): {', '.join(f'`{a}`' for a in study['agents'])}. "
        f"Study seed {study['seed']}; {result['games_played']} games played in {result['seconds']:.0f} s. "
        f"Wins: {result['win_rule']}. Every interval is 95%; every table gives the games behind it.",
        "",
        "Chance comes from its own stream (a chance seed per deal, the agents seeded apart), so deal `d` meets the "
        "same dice, casts and draws in every section and under every agent, as far as the games reach the same "
        "chance nodes.",
        "",
    ]
    if reading.strip():
        lines += ["## Reading", "", reading.strip(), ""]
    shown = set(plots)

    def plot(section: str) -> None:
        name = PLOTS[section]
        if name in shown:
            lines.extend([f"![{section}]({name})", ""])

    if "seat_advantage" in result:
        sec = result["seat_advantage"]
        lines += ["## Seat advantage", "", "The studied agents in every seat; per seat over the finished games:", ""]
        lines += _table(
            ["seat", "games", "wins", "ties", "win rate", "interval (Wilson)", "mean return", "interval"],
            [
                [
                    f"{r['seat']} {r['seat_name']}",
                    str(r["games"]),
                    str(r["wins"]),
                    str(r["ties"]),
                    _f(r["win_rate"]),
                    _ci(r["win_interval"]),
                    *_est(r["mean_return"], r["return_interval"], r.get("return_method"), r["games"]),
                ]
                for r in sec["rows"]
            ],
        )
        exact = sec.get("exact_uniform")
        if exact:
            lines += [
                "Exact values under uniform random play (the whole game tree): mean returns "
                + ", ".join(_f(v, 4) for v in exact["mean_returns"])
                + "; win chances (ties half) "
                + ", ".join(_f(v, 4) for v in exact["win_chances"])
                + ".",
                "",
            ]
        plot("seats")
    if "length" in result:
        sec = result["length"]
        lines += ["## Game length and real choices", ""]
        rows = [["actions (chance included)", *_mean_cells(sec["actions"])]]
        rows += [["decisions", *_mean_cells(sec["decisions"])], ["chance events", *_mean_cells(sec["chance_events"])]]
        rows.append(["rounds", *_mean_cells(sec["rounds"])] if sec["rounds"] else ["rounds", "not told", "", ""])
        lines += _table(["per game", "mean", "interval", "games"], rows)
        share = sec["choice_share"]
        value, interval = _est(share["value"], share["interval"], share.get("method"), share["games"])
        lines += [
            f"Real choices (decisions with more than one legal action): {value} of all decisions, "
            f"interval {interval or 'n/a'} (over {share['games']} games). "
            f"Games stopped unfinished at the length limit: {sec['unfinished']}.",
            "",
        ]
        plot("length")
    if "branching" in result:
        sec = result["branching"]
        lines += ["## Branching factor", ""]
        m = sec["mean"]
        value, interval = _est(m["value"], m["interval"], m.get("method"), m["games"])
        lines += [
            f"Legal actions per decision: mean {value}, interval {interval or 'n/a'} "
            f"(over {m['games']} games); the widest decision offered {sec['max']}.",
            "",
            "Over the course of a game (each decision placed in the tenth of its own game it falls in; the interval "
            "is clustered by game, the bootstrap drawing whole games, since one game's decisions are not "
            "independent):",
            "",
        ]
        lines += _table(
            ["tenth", "mean", "interval", "decisions", "games"],
            [
                [
                    str(b["part"] + 1),
                    *_est(b["mean"], b["interval"], b.get("method"), b["games"]),
                    str(b["decisions"]),
                    str(b["games"]),
                ]
                for b in sec["by_progress"]
                if b["decisions"]
            ],
        )
        plot("branching")
    if "ladder" in result:
        sec = result["ladder"]
        ref = ", ".join(f"`{a}`" for a in sec["reference"])
        reps = study.get("luck_replicates", 1)
        lines += ["## Skill ladder", ""]
        games_each = f"the same {study['ladder_games']} deals, each played {reps} times with other agent seeds"
        if result["competitive"]:
            lines += [
                f"Each ladder agent takes each seat in turn against the studied agents ({ref}) in the other seats, "
                f"on {games_each}.",
                "",
            ]
        else:
            lines += [f"Each ladder agent plays every seat, on {games_each}.", ""]
        lines += _table(
            ["condition", "games", "win rate", "interval (Wilson)", "mean return", "interval"],
            [
                [
                    f"`{r['condition']}`",
                    str(r["games"]),
                    _f(r["win_rate"]),
                    _ci(r["win_interval"]),
                    *_est(r["mean_return"], r["return_interval"], r.get("return_method"), r["games"]),
                ]
                for r in sec["conditions"]
            ],
        )
        rated = sec["ratings"]
        lines += [
            f"Ratings: {rated['model']}. On each deal and replicate ({sec['contests']} of them) every two conditions "
            f"are compared by their result, {rated['comparisons']} comparisons; the fit does not depend on the "
            f"order of the games. Intervals: percentile bootstrap over deals ({rated['resamples']} resamples).",
            "",
        ]
        rows = [
            [f"`{r['entry']}`", _f(r["elo"], 0), _ci(r["interval"], 0), str(r["comparisons"])] for r in rated["entries"]
        ]
        rows += [
            [f"(seat term: {t['seat_name']} over the first seat)", _f(t["elo"], 0), _ci(t["interval"], 0), ""]
            for t in rated.get("seat_terms", [])
        ]
        lines += _table(["entry", "Elo", "interval", "comparisons"], rows)
        rise = sec["budget_rise"]
        if rise:
            if rise["p_value"] is None:
                lines += [
                    f"Rise with the search budget: none; every budget scored the same in all {rise['games']} games.",
                    "",
                ]
            else:
                lines += [
                    f"Rise with the search budget: the score (win 1, tie 1/2) changes by {_f(rise['per_doubling'])} "
                    f"per doubling of the iterations, interval {_ci(rise['interval'])} (least squares over "
                    f"{rise['games']} games, p {'= ' if rise['p_value'] >= 0.0005 else ''}{_p(rise['p_value'])}).",
                    "",
                ]
        plot("ladder")
    if "luck" in result:
        sec = result["luck"]
        lines += ["## Luck against skill", ""]
        lines += [
            f"The ladder's games as a table: {sec['deals']} deals (chance seeds) by {len(sec['agents'])} agents by "
            f"{len(sec['seats'])} seat(s) by {sec['replicates']} replicate(s) (other seeds of the agents' own "
            f"choices), {sec['games']} games; the result is {sec['result']}.",
            "",
            f"The model: `{sec['model']}`. The design is balanced (every deal under every agent, seat and replicate), "
            "so the six sums of squares are orthogonal and add up to the total; a share is a term's sum of squares "
            "over the total. The deal's share is the luck that every condition meets alike: a chance seed fixes "
            "the draws only while the games reach the same chance nodes, so once play diverges the luck that "
            "differs lands within the cell and in the deal by condition term, and the deal's share is a lower bound "
            "of the luck. The within-cell term is what changes between replicates of one deal and condition: the "
            "agents' own randomness, and the luck that came with it. Intervals: percentile bootstrap over deals "
            f"({sec.get('resamples', 0)} resamples with some variance); p-values: F-tests against the within-cell "
            "mean square, every factor taken as fixed.",
            "",
        ]
        if not sec["enough"]:
            lines += [f"Too few deals ({sec['deals']}) for shares that mean anything; none are given.", ""]
        else:
            from tabletop_core.analysis.stats import TERM_LABELS

            rows = []
            for key, label in TERM_LABELS.items():
                part = sec["terms"][key]
                if part["df"] == 0:
                    continue
                p = part.get("p_value")
                rows.append(
                    [label, _f(part["share"]), _ci(part["interval"]), str(part["df"]), _p(p) if p is not None else ""]
                )
            lines += _table(["share of the variance", "share", "interval", "df", "F-test p"], rows)
        plot("luck")
    if "drama" in result:
        sec = result["drama"]
        lines += ["## Drama", ""]
        lines += [
            f"Each seat's win chance (ties half, as a spectator who sees everything would judge it) at up to "
            f"{study['drama_points']} decisions spread over each of {sec['games']} games, estimated by "
            f"{' and '.join(sec['method']) or 'nothing'} ({study['drama_rollouts']} rollouts per estimate where no "
            "exact odds exist), and at the end (the result). A lead change is a change of the seat most likely to "
            "win (in a solo or co-op game: of whether the party is more likely to win than not); a swing, the "
            "largest change of a win chance between two points.",
            "",
        ]
        if sec.get("too_few_rollouts"):
            lines += [
                f"**Warning: {sec['rollouts']} rollouts per estimate are too few for these figures to mean much.** "
                f"Each estimate's standard error can reach {_f(sec['standard_error_bound'], 2)}, so the raw swings "
                "and lead changes are mostly rollout noise; the corrected rows take the estimated noise out, and "
                "the noise row shows how much swing noise alone adds.",
                "",
            ]
        rows = [
            ["lead changes", *_mean_cells(sec["lead_changes"])],
            ["total swing", *_mean_cells(sec["total_swing"])],
            ["largest swing", *_mean_cells(sec["largest_swing"])],
        ]
        if sec.get("rollouts"):
            rows += [
                ["total swing, noise taken out", *_mean_cells(sec["total_swing_corrected"])],
                ["largest swing, noise taken out", *_mean_cells(sec["largest_swing_corrected"])],
                ["swing expected from noise alone", *_mean_cells(sec["noise_swing"])],
            ]
        lines += _table(["per game", "mean", "interval", "games"], rows)
        if sec.get("rollouts"):
            lines += [
                "Noise taken out: a step's observed change d of a chance estimated from k rollouts has expected "
                "square (true change)^2 + v1 + v2, v = p (1 - p) / (k - 1) at each end, so the corrected step is "
                "sqrt(max(0, d^2 - v1 - v2)).",
                "",
            ]
        plot("drama")
    if "restricted" in result:
        sec = result["restricted"]
        lines += ["## Restricted play", ""]
        if not sec["items"]:
            lines += ["The game declares no restriction hook, so there is no content to take away.", ""]
        else:
            lines += [
                f"Each item the game's hook lists, taken away from the studied agents; each game paired with the "
                f"base game of the same seeds ({sec['baseline_games']} pairs per item). This measures how much "
                "the studied bot relies on the item as it plays, not the item's strength in the hands of a good "
                "player. The change is the mean paired difference of the score (win 1, tie 1/2), restricted minus "
                "unrestricted, and likewise of the return and of the rounds played (in a survival game, how long "
                "the player lasted); 'came up' counts the games where the restriction took a choice away (an item "
                "removed from the game is simply absent). p: the exact sign test over the pairs that differ; Holm "
                f"and BH: that p adjusted over the whole family of {sec.get('tests', 0)} tests (every item at every "
                "seat; Holm controls the chance of any false finding, Benjamini-Hochberg the expected share of "
                "false findings).",
                "",
            ]
            for s in sec.get("significant", []):
                lines += [
                    f"{s['seat_name']}: {s['nominal']} items with p < 0.05 before adjustment; {s['holm']} survive "
                    f"Holm and {s['bh']} survive Benjamini-Hochberg at 5%.",
                    "",
                ]
            rows = []
            for r in sec["items"]:
                for s in r["seats"]:
                    w = s["win_change"]
                    value, interval = _est(w["change"], w["interval"], w.get("method"), w["games"])
                    rows.append(
                        [
                            r["item"],
                            r["how"],
                            s["seat_name"],
                            value,
                            interval,
                            _p(w.get("p_value")),
                            _p(w.get("holm_p")),
                            _p(w.get("bh_p")),
                            _f(s["return_change"]["change"]),
                            _f(s["rounds_change"]["change"], 2),
                            f"{r['games_restricted']}/{r['games']}" if "may not" in r["how"] else "removed",
                            str(w["games"]),
                        ]
                    )
            lines += _table(
                [
                    "item",
                    "taken away",
                    "seat",
                    "win change",
                    "interval",
                    "p",
                    "Holm",
                    "BH",
                    "return change",
                    "rounds change",
                    "came up",
                    "games",
                ],
                rows,
            )
        plot("restricted")
    lines += ["The numbers: `analysis.json`" + ("; each game's trace: `games.jsonl`." if traces else "."), ""]
    return "\n".join(lines)


def _bar(
    ax: Axes, labels: Sequence[str], values: Sequence[float | None], intervals: Sequence[Sequence[float | None]]
) -> None:
    vals = [float(v) if v is not None else 0.0 for v in values]
    low = [max(0.0, v - (i[0] if i[0] is not None else v)) for v, i in zip(vals, intervals, strict=True)]
    high = [max(0.0, (i[1] if i[1] is not None else v) - v) for v, i in zip(vals, intervals, strict=True)]
    ax.barh(range(len(vals)), vals, xerr=[low, high], capsize=3, color="tab:blue")
    ax.set_yticks(range(len(vals)), labels)
    ax.invert_yaxis()


def write_plots(result: Mapping[str, Any], folder: str | Path) -> list[str]:
    """Write the plots of the sections present into ``folder``; returns their file names.

    A plot with nothing to show is not written. Every plot has a title that gives its games, labelled axes, and
    its title in the PNG's ``Title`` text chunk.

    Raises:
        ImportError: without matplotlib (install ``tabletop-rules[plot]``).
    """
    from matplotlib.figure import Figure

    from tabletop_core.simulation.plots import save_png

    out = Path(folder)
    written: list[str] = []
    game = result["short_name"]

    def save(fig: Figure, section: str) -> None:
        save_png(fig, out / PLOTS[section], dpi=90)
        written.append(PLOTS[section])

    if "seat_advantage" in result and result["seat_advantage"]["rows"] and result["seat_advantage"]["rows"][0]["games"]:
        rows = result["seat_advantage"]["rows"]
        fig = Figure(figsize=(7.0, 1.6 + 0.4 * len(rows)), layout="constrained")
        ax = fig.add_subplot()
        _bar(
            ax,
            [f"{r['seat']} {r['seat_name']}" for r in rows],
            [r["win_rate"] for r in rows],
            [r["win_interval"] for r in rows],
        )
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (share of games won; bars: 95% Wilson interval)")
        ax.set_ylabel("seat")
        ax.set_title(f"{game}: win rate per seat, n = {rows[0]['games']} games")
        save(fig, "seats")
    if "length" in result and result["length"]["games"]:
        sec = result["length"]
        names = [
            n for n in ("actions", "decisions", "chance_events", "rounds") if sec.get(n) and sec[n]["mean"] is not None
        ]
        if names:
            fig = Figure(figsize=(7.0, 3.0), layout="constrained")
            ax = fig.add_subplot()
            _bar(ax, names, [sec[n]["mean"] for n in names], [sec[n]["interval"] for n in names])
            ax.set_xlabel("mean count per game (bars: 95% interval)")
            ax.set_ylabel("what is counted")
            ax.set_title(f"{game}: game length, n = {sec['games']} games")
            save(fig, "length")
    if "branching" in result:
        sec = result["branching"]
        parts = [b for b in sec["by_progress"] if b["mean"] is not None]
        if parts:
            fig = Figure(figsize=(7.0, 3.2), layout="constrained")
            ax = fig.add_subplot()
            xs = [b["part"] + 1 for b in parts]
            ax.plot(xs, [b["mean"] for b in parts], marker="o")
            lows = [b["interval"][0] if b["interval"][0] is not None else b["mean"] for b in parts]
            highs = [b["interval"][1] if b["interval"][1] is not None else b["mean"] for b in parts]
            ax.fill_between(xs, lows, highs, alpha=0.3)
            ax.set_xlabel("tenth of the game (by its decisions)")
            ax.set_ylabel("legal actions per decision")
            ax.set_title(f"{game}: branching, n = {sec['mean']['games']} games (band: 95%, clustered by game)")
            save(fig, "branching")
    if "ladder" in result and result["ladder"]["conditions"]:
        sec = result["ladder"]
        rows = sec["conditions"]
        fig = Figure(figsize=(7.0, 1.6 + 0.32 * len(rows)), layout="constrained")
        ax = fig.add_subplot()
        _bar(ax, [r["condition"] for r in rows], [r["win_rate"] for r in rows], [r["win_interval"] for r in rows])
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (share of games won; bars: 95% Wilson interval)")
        ax.set_ylabel("ladder condition")
        ax.set_title(f"{game}: skill ladder, n = {rows[0]['games']} games per condition")
        save(fig, "ladder")
    if "luck" in result and result["luck"]["enough"] and result["luck"]["terms"]["deal"]["share"] is not None:
        from tabletop_core.analysis.stats import TERM_LABELS

        sec = result["luck"]
        keys = [k for k in TERM_LABELS if sec["terms"][k]["df"]]
        fig = Figure(figsize=(8.0, 1.6 + 0.4 * len(keys)), layout="constrained")
        ax = fig.add_subplot()
        _bar(
            ax,
            [TERM_LABELS[k].split(" (")[0] for k in keys],
            [sec["terms"][k]["share"] for k in keys],
            [sec["terms"][k]["interval"] for k in keys],
        )
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of the variance of the result (bars: 95% bootstrap over deals)")
        ax.set_ylabel("term of the model")
        ax.set_title(f"{game}: luck against skill, n = {sec['games']} games ({sec['deals']} deals)")
        save(fig, "luck")
    if "drama" in result and result["drama"]["examples"]:
        sec = result["drama"]
        fig = Figure(figsize=(7.0, 3.4), layout="constrained")
        ax = fig.add_subplot()
        for k, ex in enumerate(sec["examples"]):
            last = max(ex["at"]) or 1
            ax.plot([a / last for a in ex["at"]], [c[0] for c in ex["chances"]], marker=".", label=f"game {k}")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("share of the game's decisions")
        ax.set_ylabel(f"win chance of seat 0 ({result['seats'][0]})")
        ax.legend(fontsize="small")
        note = f", {sec['rollouts']} rollouts per estimate" if sec.get("rollouts") else ""
        ax.set_title(f"{game}: win chances, {len(sec['examples'])} of n = {sec['games']} games{note}")
        save(fig, "drama")
    if "restricted" in result and result["restricted"]["items"]:
        items = result["restricted"]["items"]
        seats = [s["seat_name"] for s in items[0]["seats"]]
        fig = Figure(figsize=(7.0 * len(seats), 1.8 + 0.3 * len(items)), layout="constrained")
        axes = fig.subplots(1, len(seats), squeeze=False)[0]
        for k, (ax, name) in enumerate(zip(axes, seats, strict=True)):
            order = sorted(items, key=lambda r: -abs(r["seats"][k]["win_change"]["change"] or 0.0))
            _bar(
                ax,
                [r["item"] for r in order],
                [r["seats"][k]["win_change"]["change"] for r in order],
                [r["seats"][k]["win_change"]["interval"] for r in order],
            )
            ax.axvline(0.0, color="black", linewidth=0.8)
            ax.set_xlabel("change of the score when taken away (win 1, tie 1/2; bars: 95%)")
            ax.set_ylabel("item")
            ax.set_title(f"{name}", fontsize="small")
        games = items[0]["seats"][0]["win_change"]["games"]
        fig.suptitle(f"{game}: restricted play, n = {games} paired games per item")
        save(fig, "restricted")
    return written


def write_report(
    result: Mapping[str, Any], folder: str | Path, *, traces: Sequence[Mapping[str, Any]] = (), reading: str = ""
) -> list[Path]:
    """Write ``analysis.json``, the plots (with matplotlib) and ``report.md`` into ``folder``; returns the paths."""
    import json

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "analysis.json", dumps(result))
    paths = [out / "analysis.json"]
    if traces:
        with atomic_writer(out / "games.jsonl") as fh:
            for t in traces:
                fh.write(json.dumps(t, sort_keys=True) + "\n")
        paths.append(out / "games.jsonl")
    try:
        plots = write_plots(result, out)
    except ImportError:
        plots = []
    text = markdown(result, plots, reading, traces=bool(traces))
    if not plots:
        text += "\n(No plots: matplotlib is not installed; pip install -e '.[plot]' in a clone.)\n"
    atomic_write_text(out / "report.md", text)
    paths += [out / p for p in plots] + [out / "report.md"]
    return paths


#: The largest ``analysis.json`` and ``games.jsonl`` :func:`rewrite_report` reads.
MAX_ANALYSIS_BYTES, MAX_TRACES_BYTES = 64 << 20, 1 << 30


def rewrite_report(
    folder: str | Path,
    *,
    reading: str = "",
    traces: bool = True,
    game: str | None = None,
    restrictions: str = "",
    allow_import: bool = False,
) -> list[Path]:
    """Recompute a report from the ``analysis.json`` and ``games.jsonl`` in ``folder`` without playing a game.

    The numbers are recomputed from the traces by the current statistics; the wall time stays the one measured
    when the games were played. ``traces=False`` removes ``games.jsonl`` afterwards.

    What the files name resolves against what is installed, as for every file the project reads: the study's game
    must be an installed game unless it is ``game`` (a name the caller typed, which may be ``module:ATTR``), its
    restriction hook is loaded only when it is ``restrictions`` (again the caller's), and its agents import a class
    by module path only with ``allow_import`` (``allow_import`` in the file itself counts for nothing).

    Raises:
        StateFormatError: when either file is missing, not a bounded regular file or not the JSON of a study, or
            names a game or a hook the caller did not give.
        OptionError: when the traces are not the games of the study in ``analysis.json``, or an agent names a
            class by module path without ``allow_import``.
    """
    import attrs

    from tabletop_core.agents.specs import parse_agent_spec
    from tabletop_core.errors import OptionError, StateFormatError
    from tabletop_core.files import open_regular, read_regular
    from tabletop_core.registry import is_installed_game
    from tabletop_core.serialize import parse_json

    def refused(path: str, problem: str) -> Exception:
        return StateFormatError(f"{path}: {problem}")

    out = Path(folder)
    plan = out / "analysis.json"
    data = read_regular(plan, max_bytes=MAX_ANALYSIS_BYTES, error=refused)
    try:
        old = parse_json(data, max_bytes=MAX_ANALYSIS_BYTES)
    except StateFormatError as exc:
        raise StateFormatError(f"{plan}: not the analysis.json of a study ({exc})") from None
    try:
        study = attrs.evolve(study_from_json(old["study"]), allow_import=allow_import)
        seconds = float(old["seconds"])
    except (TypeError, KeyError, ValueError, AttributeError) as exc:
        raise StateFormatError(f"{plan}: not the analysis.json of a study ({exc})") from None
    if study.game != game and not is_installed_game(study.game):
        raise StateFormatError(
            f"{plan}: names no installed game ({study.game!r}); a module path is loaded only when the command line "
            "names it as the game"
        )
    for spec in (*study.agents, *study.ladder):  # resolved against the installed agents before anything is read
        try:
            parse_agent_spec(spec, allow_import=allow_import)
        except OptionError as exc:
            raise OptionError(f"{plan}: {exc}") from None
    if study.restrictions and study.restrictions != restrictions:
        raise StateFormatError(
            f"{plan}: names the restriction hook {study.restrictions!r}, which is imported only when the command line "
            "gives it (--restrictions)"
        )
    games = out / "games.jsonl"
    lines = []
    with open_regular(games, max_bytes=MAX_TRACES_BYTES, error=refused) as fh:
        for number, raw in enumerate(fh, 1):
            if raw.strip():
                try:
                    lines.append(parse_json(raw))
                except StateFormatError as exc:
                    raise StateFormatError(f"{games}: line {number}: {exc}") from None
    try:
        result = summarize(study, lines)
    except (TypeError, KeyError, AttributeError, IndexError) as exc:
        raise OptionError(f"{games}: these traces are not the games of the study in {plan.name} ({exc})") from None
    result["seconds"] = seconds
    paths = write_report(result, out, traces=lines if traces else (), reading=reading)
    if not traces:
        games.unlink()
    return paths
