"""The results page of ``tabletop report DIR --html OUT.html``: one self-contained page with a simulation's tables,
its plots (PNG inlined as data URIs), a table of every game with filters by seat, agent, character and difficulty,
and links to the replay pages of the recorded games (``simulate --records``), written beside it.

The recorded games are bots only, so their replay pages show the whole truth and every seat, and say so.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop_core.files import atomic_write_text
from tabletop_core.render.pages import html_page
from tabletop_core.render.svg import esc

__all__ = ["FILTER_OPTIONS", "write_results_page"]

#: Game options offered as filters when the games differ in them (or name them at all).
FILTER_OPTIONS = ("character", "difficulty")
#: At most this many replay pages are written (each holds a picture of every position of every view).
MAX_REPLAYS = 20

_FILTER_JS = r"""
(function(){
  "use strict";
  const selects = Array.from(document.querySelectorAll("select.filter"));
  const rows = Array.from(document.querySelectorAll("tr[data-game]"));
  const seatRows = Array.from(document.querySelectorAll("tr[data-seatrow]"));
  const count = document.getElementById("shown");
  function keep(row){
    return selects.every(function(s){
      if (s.value === "") { return true; }
      const have = JSON.parse(row.getAttribute("data-" + s.dataset.key) || "[]");
      return have.indexOf(s.value) >= 0;
    });
  }
  function apply(){
    let shown = 0;
    rows.forEach(function(r){ const k = keep(r); r.classList.toggle("hidden", !k); if (k) { shown++; } });
    seatRows.forEach(function(r){ r.classList.toggle("hidden", !keep(r)); });
    count.textContent = shown + " of " + rows.length + " games shown";
  }
  selects.forEach(function(s){ s.addEventListener("change", apply); });
  apply();
})();
"""


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _table(heads: Sequence[str], rows: Sequence[tuple[Sequence[str], Mapping[str, str]]], caption: str) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in heads)
    body = []
    for cells, attrs in rows:
        data = "".join(f' data-{k}="{esc(v)}"' for k, v in attrs.items())
        body.append(f"<tr{data}>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>")
    return f"<table><caption>{esc(caption)}</caption><tr>{head}</tr>{''.join(body)}</table>"


def _record_options(folder: Path, line: Mapping[str, Any], run_options: Mapping[str, Any]) -> dict[str, Any]:
    options = dict(run_options)
    rel = line.get("record")
    if isinstance(rel, str):
        try:
            doc = json.loads((folder / rel).read_text(encoding="utf-8"))
            options.update(doc.get("record", {}).get("options", {}))
        except (OSError, ValueError, AttributeError):
            pass
    return options


def _write_replay(folder: Path, rel: str, target: Path) -> bool:
    """The replay page of one recorded game (the whole truth and every seat: the seats were all bots)."""
    from tabletop_core.cli.session import Session, read_text
    from tabletop_core.records import replay
    from tabletop_core.registry import installed_game
    from tabletop_core.render.pages import replay_page
    from tabletop_core.render.replays import TRUTH, build_replay
    from tabletop_core.spec import Information

    try:
        session = Session.from_json(read_text(str(folder / rel)), rel)
        game = installed_game(session.game)
        states = replay(session.record, game, states=True)
    except Exception:
        return False
    players = list(range(game.num_players(states[0])))
    hidden = game.spec.information != Information.PERFECT
    seats = [TRUTH, *players] if hidden else players
    data = build_replay(game, states, session.record.actions, seats=seats, default=seats[0], source=rel)
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, replay_page(data))
    return True


def write_results_page(
    folder: Path,
    summary: Mapping[str, Any],
    lines: Sequence[Mapping[str, Any]],
    plots: Sequence[Path],
    out: Path,
) -> list[Path]:
    """Write the results page of ``folder`` to ``out`` and the replay pages of its recorded games to
    ``<out stem>-replays/`` beside it. Returns every file written, the page first."""
    run_options: Mapping[str, Any] = {}
    try:
        run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        run_options = run.get("simulation", {}).get("options", {}) or {}
    except (OSError, ValueError, AttributeError):
        pass
    solo = any("score_share" in r for r in summary["agents"])
    heads = ["games", "W-T-L", "win rate (95%)", "mean return (95%)"] + (["score / max"] if solo else [])

    def cells(row: Mapping[str, Any]) -> list[str]:
        low, high = row.get("win_interval") or (None, None)
        rlow, rhigh = row.get("return_interval") or (None, None)

        def num(x: Any) -> str:
            return "-" if x is None else f"{x:.3g}"

        win = f"{_pct(row['win_rate'])}" + ("" if low is None else f" ({_pct(low)}-{_pct(high)})")
        ret = num(row.get("mean_return")) + ("" if rlow is None else f" ({num(rlow)} to {num(rhigh)})")
        c = [str(row["games"]), f"{row['wins']}-{row['ties']}-{row['losses']}", win, ret]
        if solo:
            c.append(_pct(row.get("score_share", float("nan"))))
        return c

    parts = [
        f"<h1>{esc(summary['game'])}: results of {esc(folder.name)}</h1>",
        f"<p>{summary['games']} of {summary['planned']} games, seed {esc(summary['seed'])}, utility "
        f"{esc(summary['utility'])}; wins: {esc(summary['win_rule'])}</p>",
        _table(["agent", *heads], [([r["agent"], *cells(r)], {}) for r in summary["agents"]], "agents"),
        _table(
            ["agent", "seat", *heads],
            [
                (
                    [r["agent"], r["seat_name"], *cells(r)],
                    {"seatrow": "1", "agent": json.dumps([r["agent"]]), "seat": json.dumps([r["seat_name"]])},
                )
                for r in summary["seats"]
            ],
            "agents by seat (the seat and agent filters apply)",
        ),
    ]
    rated = summary.get("ratings") or {}
    if isinstance(rated, Mapping) and rated.get("entries"):

        def interval(r: Mapping[str, Any]) -> str:
            low, high = r["interval"]
            return "n/a" if low is None else f"{low:.0f} to {high:.0f}"

        rating_rows: list[tuple[Sequence[str], Mapping[str, str]]] = [
            ([r["entry"], f"{r['elo']:.0f}", interval(r), str(r["comparisons"])], {}) for r in rated["entries"]
        ]
        rating_rows += [
            ([f"(seat term: {t['seat_name']} over the first seat)", f"{t['elo']:.0f}", interval(t), ""], {})
            for t in rated.get("seat_terms", [])
        ]
        parts.append(_table(["entry", "Elo", "interval", "comparisons"], rating_rows, f"ratings: {rated['model']}"))
    for p in plots:
        if p.suffix.lower() == ".png" and p.is_file():
            uri = "data:image/png;base64," + base64.b64encode(p.read_bytes()).decode("ascii")
            parts.append(
                f'<figure><img src="{uri}" alt="{esc(p.stem)}" style="max-width:100%">'
                f"<figcaption>{esc(p.stem)}</figcaption></figure>"
            )

    written = [out]
    replay_dir = out.parent / f"{out.stem}-replays"
    values: dict[str, set[str]] = {"seat": set(), "agent": set(), **{k: set() for k in FILTER_OPTIONS}}
    rows = []
    replays = 0
    for line in lines:
        seats = [str(s) for s in line.get("seats", [])]
        agents = [str(a) for a in line.get("agents", [])]
        options = _record_options(folder, line, run_options)
        attrs = {"game": str(line.get("deal", "")), "seat": json.dumps(seats), "agent": json.dumps(agents)}
        values["seat"].update(seats)
        values["agent"].update(agents)
        for k in FILTER_OPTIONS:
            if k in options:
                attrs[k] = json.dumps([str(options[k])])
                values[k].add(str(options[k]))
        link = ""
        rel = line.get("record")
        if isinstance(rel, str) and replays < MAX_REPLAYS:
            target = replay_dir / (Path(rel).stem + ".html")
            if _write_replay(folder, rel, target):
                replays += 1
                written.append(target)
                link = f'<a href="{esc(replay_dir.name)}/{esc(target.name)}">replay</a>'
        outcomes = line.get("outcomes") or []
        cols = [
            str(line.get("deal", "")),
            ", ".join(f"{s}: {a}" for s, a in zip(seats, agents, strict=False)),
            ", ".join(str(o) for o in outcomes),
            ", ".join(f"{r:g}" for r in line.get("returns", [])),
            str(line.get("length", "")),
            " ".join(f"{k}={options[k]}" for k in FILTER_OPTIONS if k in options),
        ]
        data = "".join(f' data-{k}="{esc(v)}"' for k, v in attrs.items())
        rows.append(f"<tr{data}>" + "".join(f"<td>{esc(c)}</td>" for c in cols) + f"<td>{link}</td></tr>")
    filters = []
    for key, vals in values.items():
        if not vals:
            continue
        opts = "".join(f'<option value="{esc(v)}">{esc(v)}</option>' for v in sorted(vals))
        filters.append(
            f'<label>{esc(key)} <select class="filter" data-key="{esc(key)}" aria-label="filter by {esc(key)}">'
            f'<option value="">all</option>{opts}</select></label>'
        )
    parts.append('<h2>Games</h2><div class="controls">' + " ".join(filters) + ' <span id="shown"></span></div>')
    note = ""
    if replays:
        more = f" The first {MAX_REPLAYS} only." if replays >= MAX_REPLAYS else ""
        note = (
            '<p class="note truth">The replays of recorded games (bots in every seat) show the whole truth, every '
            f"seat's hidden cards included, and each seat's own view.{more}</p>"
        )
    heads_games = ["deal", "seats", "outcomes", "returns", "length", "options", "replay"]
    parts.append(
        note
        + "<table><caption>every game</caption><tr>"
        + "".join(f"<th>{h}</th>" for h in heads_games)
        + "</tr>"
        + "".join(rows)
        + "</table>"
    )
    atomic_write_text(
        out, html_page(f"{summary['game']}: results of {folder.name}", "\n".join(parts), script=_FILTER_JS)
    )
    return written
