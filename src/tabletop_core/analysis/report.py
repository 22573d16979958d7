"""The report of a study: ``analysis.json`` (every number), ``report.md`` (tables and plots) and PNG plots.

:func:`write_report` writes them into a folder; the plots need the ``plot`` extra (matplotlib, through its object
API) and are left out, with a line saying so, without it. :func:`markdown` renders the Markdown alone. Every
table states its games; every interval is 95%.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop_core.analysis.study import dumps

__all__ = ["PLOTS", "markdown", "write_plots", "write_report"]

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


def _f(x: Any, digits: int = 3) -> str:
    if x is None:
        return "n/a"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{digits}f}"


def _ci(values: Sequence[Any], digits: int = 3) -> str:
    low, high = values
    if low is None or high is None:
        return "n/a"
    return f"[{_f(low, digits)}, {_f(high, digits)}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return [*out, ""]


def _mean_cells(row: Mapping[str, Any] | None) -> list[str]:
    if not row:
        return ["n/a", "n/a", "0"]
    return [_f(row["mean"]), _ci(row["interval"]), str(row["games"])]


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
            ["seat", "games", "wins", "ties", "win rate", "interval (Wilson)", "mean return", "interval (t)"],
            [
                [
                    f"{r['seat']} {r['seat_name']}",
                    str(r["games"]),
                    str(r["wins"]),
                    str(r["ties"]),
                    _f(r["win_rate"]),
                    _ci(r["win_interval"]),
                    _f(r["mean_return"]),
                    _ci(r["return_interval"]),
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
        lines += _table(["per game", "mean", "interval (t)", "games"], rows)
        share = sec["choice_share"]
        lines += [
            f"Real choices (decisions with more than one legal action): {_f(share['value'])} of all decisions, "
            f"interval {_ci(share['interval'])} (bootstrap over {share['games']} games). "
            f"Games stopped unfinished at the length limit: {sec['unfinished']}.",
            "",
        ]
        plot("length")
    if "branching" in result:
        sec = result["branching"]
        lines += ["## Branching factor", ""]
        lines += [
            f"Legal actions per decision: mean {_f(sec['mean']['value'])}, interval {_ci(sec['mean']['interval'])} "
            f"(bootstrap over {sec['mean']['games']} games); the widest decision offered {sec['max']}.",
            "",
            "Over the course of a game (each decision placed in the tenth of its own game it falls in):",
            "",
        ]
        lines += _table(
            ["tenth", "mean", "interval (t)", "decisions", "games"],
            [
                [str(b["part"] + 1), _f(b["mean"]), _ci(b["interval"]), str(b["decisions"]), str(b["games"])]
                for b in sec["by_progress"]
                if b["decisions"]
            ],
        )
        plot("branching")
    if "ladder" in result:
        sec = result["ladder"]
        ref = ", ".join(f"`{a}`" for a in sec["reference"])
        lines += ["## Skill ladder", ""]
        if result["competitive"]:
            lines += [
                f"Each ladder agent takes each seat in turn against the studied agents ({ref}) in the other seats, "
                f"on the same {study['ladder_games']} deals.",
                "",
            ]
        else:
            lines += [f"Each ladder agent plays every seat, on the same {study['ladder_games']} deals.", ""]
        lines += _table(
            ["condition", "games", "win rate", "interval (Wilson)", "mean return", "interval (t)"],
            [
                [
                    f"`{r['condition']}`",
                    str(r["games"]),
                    _f(r["win_rate"]),
                    _ci(r["win_interval"]),
                    _f(r["mean_return"]),
                    _ci(r["return_interval"]),
                ]
                for r in sec["conditions"]
            ],
        )
        lines += [
            f"Ratings (openskill Plackett-Luce; each deal one contest of the agents ranked by their result, "
            f"{sec['contests']} contests); the ordinal is mu - 3 sigma:",
            "",
        ]
        lines += _table(
            ["agent", "mu", "sigma", "ordinal"],
            [[f"`{r['agent']}`", _f(r["mu"], 2), _f(r["sigma"], 2), _f(r["ordinal"], 2)] for r in sec["ratings"]],
        )
        rise = sec["budget_rise"]
        if rise:
            lines += [
                f"Rise with the search budget: the score (win 1, tie 1/2) changes by {_f(rise['per_doubling'])} per "
                f"doubling of the iterations, interval {_ci(rise['interval'])} (least squares over "
                f"{rise['games']} games, p = {_f(rise['p_value'])}).",
                "",
            ]
        plot("ladder")
    if "luck" in result:
        sec = result["luck"]
        lines += ["## Luck against skill", ""]
        lines += [
            f"The ladder's games as a table: {sec['deals']} deals (chance seeds) by {len(sec['conditions'])} "
            f"conditions (agent and seat), {sec['games']} games; the result is {sec['result']}. A two-way analysis "
            "of variance without replication splits its total sum of squares into the conditions' share (skill: "
            "which agent plays), the deals' share (luck: the same chance under every agent) and the rest (how "
            "luck and skill interact, plus the agents' own randomness). Intervals: percentile bootstrap over deals.",
            "",
        ]
        rows = []
        for key, label in (("agents", "agents (skill)"), ("chance", "chance (luck)"), ("rest", "the rest")):
            part = sec[key]
            p = part.get("p_value")
            rows.append([label, _f(part["share"]), _ci(part["interval"]), _f(p) if p is not None else ""])
        lines += _table(["share of the variance", "share", "interval", "F-test p"], rows)
        plot("luck")
    if "drama" in result:
        sec = result["drama"]
        lines += ["## Drama", ""]
        lines += [
            f"Each seat's win chance (ties half, as a spectator who sees everything would judge it) at up to "
            f"{study['drama_points']} decisions spread over each of {sec['games']} games and at the end; estimated "
            f"by {' and '.join(sec['method']) or 'nothing'} ({study['drama_rollouts']} rollouts per estimate where "
            "no exact odds exist). A lead change is a change of the seat most likely to win (in a solo or co-op "
            "game: of whether the party is more likely to win than not); a swing, the largest change of a win "
            "chance between two points.",
            "",
        ]
        lines += _table(
            ["per game", "mean", "interval (t)", "games"],
            [
                ["lead changes", *_mean_cells(sec["lead_changes"])],
                ["total swing", *_mean_cells(sec["total_swing"])],
                ["largest swing", *_mean_cells(sec["largest_swing"])],
            ],
        )
        plot("drama")
    if "restricted" in result:
        sec = result["restricted"]
        lines += ["## Restricted play", ""]
        if not sec["items"]:
            lines += ["The game declares no restriction hook, so there is no content to take away.", ""]
        else:
            lines += [
                f"Each item the game's hook lists, taken away from the studied agents; each game paired with the "
                f"base game of the same seeds ({sec['baseline_games']} pairs per item). The change is the mean "
                "paired difference of the score (win 1, tie 1/2), restricted minus unrestricted (Student-t "
                "interval), and likewise of the return and of the rounds played (in a survival game, how long the "
                "player lasted); 'came up' counts the games where the restriction took a choice away.",
                "",
            ]
            rows = []
            for r in sec["items"]:
                for s in r["seats"]:
                    w = s["win_change"]
                    rows.append(
                        [
                            r["item"],
                            r["how"],
                            s["seat_name"],
                            _f(w["change"]),
                            _ci(w["interval"]),
                            _f(s["return_change"]["change"]),
                            _f(s["rounds_change"]["change"], 2),
                            f"{r['games_restricted']}/{r['games']}",
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


def _bar(ax: Any, labels: Sequence[str], values: Sequence[float | None], intervals: Sequence[Sequence[Any]]) -> None:
    vals = [v if v is not None else 0.0 for v in values]
    low = [max(0.0, v - (i[0] if i[0] is not None else v)) for v, i in zip(vals, intervals, strict=True)]
    high = [max(0.0, (i[1] if i[1] is not None else v) - v) for v, i in zip(vals, intervals, strict=True)]
    ax.barh(range(len(vals)), vals, xerr=[low, high], capsize=3, color="tab:blue")
    ax.set_yticks(range(len(vals)), labels)
    ax.invert_yaxis()


def write_plots(result: Mapping[str, Any], folder: str | Path) -> list[str]:
    """Write the plots of the sections present into ``folder``; returns their file names.

    Raises:
        ImportError: without matplotlib (install ``tabletop-rules[plot]``).
    """
    from matplotlib.figure import Figure

    out = Path(folder)
    written: list[str] = []

    def save(fig: Any, section: str) -> None:
        fig.savefig(out / PLOTS[section], dpi=90)
        written.append(PLOTS[section])

    if "seat_advantage" in result:
        rows = result["seat_advantage"]["rows"]
        fig = Figure(figsize=(7.0, 1.2 + 0.4 * len(rows)), layout="constrained")
        ax = fig.add_subplot()
        _bar(
            ax,
            [f"{r['seat']} {r['seat_name']}" for r in rows],
            [r["win_rate"] for r in rows],
            [r["win_interval"] for r in rows],
        )
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"win rate (95% Wilson), {rows[0]['games'] if rows else 0} games")
        save(fig, "seats")
    if "length" in result:
        sec = result["length"]
        fig = Figure(figsize=(7.0, 3.0), layout="constrained")
        ax = fig.add_subplot()
        names = ["actions", "decisions", "chance_events"] + (["rounds"] if sec["rounds"] else [])
        _bar(ax, names, [sec[n]["mean"] for n in names], [sec[n]["interval"] for n in names])
        ax.set_xlabel(f"mean per game (95% t), {sec['games']} games")
        save(fig, "length")
    if "branching" in result:
        sec = result["branching"]
        parts = [b for b in sec["by_progress"] if b["decisions"]]
        fig = Figure(figsize=(7.0, 3.2), layout="constrained")
        ax = fig.add_subplot()
        xs = [b["part"] + 1 for b in parts]
        ax.plot(xs, [b["mean"] for b in parts], marker="o")
        ax.fill_between(xs, [b["interval"][0] for b in parts], [b["interval"][1] for b in parts], alpha=0.3)
        ax.set_xlabel("tenth of the game")
        ax.set_ylabel("legal actions per decision")
        ax.set_title(f"branching over {sec['mean']['games']} games (95% t band)")
        save(fig, "branching")
    if "ladder" in result:
        sec = result["ladder"]
        rows = sec["conditions"]
        fig = Figure(figsize=(7.0, 1.2 + 0.32 * len(rows)), layout="constrained")
        ax = fig.add_subplot()
        _bar(ax, [r["condition"] for r in rows], [r["win_rate"] for r in rows], [r["win_interval"] for r in rows])
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"win rate (95% Wilson), {rows[0]['games'] if rows else 0} games each")
        save(fig, "ladder")
    if "luck" in result:
        sec = result["luck"]
        keys = ["agents", "chance", "rest"]
        fig = Figure(figsize=(7.0, 2.2), layout="constrained")
        ax = fig.add_subplot()
        _bar(
            ax,
            ["agents (skill)", "chance (luck)", "the rest"],
            [sec[k]["share"] for k in keys],
            [sec[k]["interval"] for k in keys],
        )
        ax.set_xlim(0, 1)
        ax.set_xlabel(
            f"share of the variance (95% bootstrap), {sec['deals']} deals x {len(sec['conditions'])} conditions"
        )
        save(fig, "luck")
    if "drama" in result and result["drama"]["examples"]:
        sec = result["drama"]
        fig = Figure(figsize=(7.0, 3.2), layout="constrained")
        ax = fig.add_subplot()
        for k, ex in enumerate(sec["examples"]):
            last = max(ex["at"]) or 1
            ax.plot([a / last for a in ex["at"]], [c[0] for c in ex["chances"]], marker=".", label=f"game {k}")
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("share of the game's decisions")
        ax.set_ylabel(f"win chance of seat 0 ({result['seats'][0]})")
        ax.legend(fontsize="small")
        save(fig, "drama")
    if "restricted" in result and result["restricted"]["items"]:
        rows = result["restricted"]["items"]
        fig = Figure(figsize=(7.0, 1.2 + 0.3 * len(rows)), layout="constrained")
        ax = fig.add_subplot()
        _bar(
            ax,
            [r["item"] for r in rows],
            [r["seats"][0]["win_change"]["change"] for r in rows],
            [r["seats"][0]["win_change"]["interval"] for r in rows],
        )
        ax.axvline(0.0, color="black", linewidth=0.8)
        ax.set_xlabel(f"change of {rows[0]['seats'][0]['seat_name']}'s score when taken away (95% t)")
        save(fig, "restricted")
    return written


def write_report(
    result: Mapping[str, Any], folder: str | Path, *, traces: Sequence[Mapping[str, Any]] = (), reading: str = ""
) -> list[Path]:
    """Write ``analysis.json``, the plots (with matplotlib) and ``report.md`` into ``folder``; returns the paths."""
    import json

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    (out / "analysis.json").write_text(dumps(result), encoding="utf-8")
    paths = [out / "analysis.json"]
    if traces:
        with (out / "games.jsonl").open("w", encoding="utf-8") as fh:
            for t in traces:
                fh.write(json.dumps(t, sort_keys=True) + "\n")
        paths.append(out / "games.jsonl")
    try:
        plots = write_plots(result, out)
    except ImportError:
        plots = []
    text = markdown(result, plots, reading, traces=bool(traces))
    if not plots:
        text += "\n(No plots: matplotlib is not installed; pip install 'tabletop-rules[plot]'.)\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    paths += [out / p for p in plots] + [out / "report.md"]
    return paths
