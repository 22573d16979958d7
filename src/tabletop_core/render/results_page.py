"""The results page of ``tabletop report DIR --html OUT.html``: one self-contained page with a simulation's tables,
its plots (PNG inlined as data URIs), a table of every game with filters by seat, agent, character and difficulty,
and links to the replay pages of the recorded games (``simulate --records``), written beside it.

The recorded games are bots only, so their replay pages show the whole truth and every seat, and say so.

A results folder may come from someone else, so every file the page reads is read as hostile: a record that a
line of ``games.jsonl`` names (``"record"``), ``run.json`` and every plot must lie inside its folder (no ``..``, no
absolute path, no symbolic link leading out), be a regular file (a named pipe or a device is refused without
blocking) and stay under a size bound (:func:`tabletop_core.files.read_regular`); a plot must also be a PNG. A file
that fails is skipped and named in a note on standard error and on the page; nothing outside the folder is read.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from tabletop_core.errors import StateFormatError
from tabletop_core.files import atomic_write_text, read_regular
from tabletop_core.render.pages import html_page
from tabletop_core.render.svg import esc

if TYPE_CHECKING:
    from tabletop_core.cli.session import Session

__all__ = ["FILTER_OPTIONS", "write_results_page"]

#: Game options offered as filters when the games differ in them (or name them at all).
FILTER_OPTIONS = ("character", "difficulty")
#: At most this many replay pages are written (each holds a picture of every position of every view).
MAX_REPLAYS = 20
#: The largest plot embedded (the plots of ``tabletop report`` are tens of kilobytes).
MAX_PLOT_BYTES = 16 << 20
#: The largest ``run.json`` read (the simulation's own bound on its plan).
MAX_RUN_BYTES = 1 << 20
#: At most this many skipped files are named one by one; the rest are counted.
MAX_NOTES = 20
_PNG = b"\x89PNG\r\n\x1a\n"

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


def _refused(path: str, problem: str) -> Exception:
    return StateFormatError(f"{path}: {problem}")


def _inside(folder: Path, name: object) -> Path:
    """The file that ``name`` (a path a file gave, relative to ``folder``) names, checked to lie inside ``folder``:
    a relative path without ``..`` whose real path, symbolic links followed, is still inside ``folder``.

    Raises:
        StateFormatError: naming the path and what was wrong (the file is not opened).
    """
    if not isinstance(name, str) or not name or "\x00" in name:
        raise StateFormatError(f"{name!r}: not a file name")
    shown = name if len(name) <= 120 else name[:117] + "..."
    pure = PurePath(name)
    if pure.is_absolute() or pure.anchor or name.startswith(("/", "\\")):
        raise StateFormatError(f"{shown}: an absolute path; only a file inside {folder} is read")
    if ".." in pure.parts or ".." in name.replace("\\", "/").split("/"):
        raise StateFormatError(f"{shown}: leads out of {folder} (..); only a file inside it is read")
    target = folder / name
    try:
        real, root = Path(os.path.realpath(target)), Path(os.path.realpath(folder))
    except (OSError, ValueError) as exc:
        raise StateFormatError(f"{target}: cannot be resolved ({exc})") from None
    if real != root and root not in real.parents:
        raise StateFormatError(f"{target}: a symbolic link leading out of {folder}; only a file inside it is read")
    return real


def _load_record(folder: Path, rel: object) -> Any:
    """The session (record of bots) that a line's ``"record"`` names, read safely (see the module)."""
    from tabletop_core.cli.session import MAX_FILE_BYTES, Session

    path = _inside(folder, rel)
    shown = str(folder / str(rel))
    data = read_regular(path, max_bytes=MAX_FILE_BYTES, error=lambda _p, problem: _refused(shown, problem))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise StateFormatError(f"{shown}: not a text file (not UTF-8), so not a record") from None
    return Session.from_json(text, shown)


def _write_replay(session: Session, rel: str, target: Path) -> None:
    """The replay page of one recorded game (the whole truth and every seat: the seats were all bots).

    Raises:
        StateFormatError: the record names no installed game or does not replay.
    """
    from tabletop_core.records import replay
    from tabletop_core.registry import installed_game
    from tabletop_core.render.pages import replay_page
    from tabletop_core.render.replays import TRUTH, build_replay
    from tabletop_core.spec import Information

    try:
        game = installed_game(session.game)
        states = replay(session.record, game, states=True)
        players = list(range(game.num_players(states[0])))
        hidden = game.spec.information != Information.PERFECT
        seats = [TRUTH, *players] if hidden else players
        data = build_replay(game, states, session.record.actions, seats=seats, default=seats[0], source=rel)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise StateFormatError(f"does not replay: {exc}") from None
    target.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(target, replay_page(data))


def _run_options(folder: Path, say: Callable[[str], None]) -> Mapping[str, Any]:
    """The simulation's options from ``run.json`` (nothing when it cannot be read safely)."""
    from tabletop_core.serialize import parse_json

    if not os.path.lexists(folder / "run.json"):
        return {}
    try:
        path = _inside(folder, "run.json")
        run = parse_json(read_regular(path, max_bytes=MAX_RUN_BYTES, error=_refused), max_bytes=MAX_RUN_BYTES)
    except StateFormatError as exc:
        say(f"{exc}; the page is made without its options")
        return {}
    simulation = run.get("simulation") if isinstance(run, dict) else None
    options = simulation.get("options") if isinstance(simulation, dict) else None
    return options if isinstance(options, dict) else {}


def _plot_uri(plot: Path) -> str:
    """The data URI of a plot: a regular PNG file inside its own folder, of at most :data:`MAX_PLOT_BYTES`.

    Raises:
        StateFormatError: naming the plot and what was wrong.
    """
    path = _inside(plot.parent, plot.name)
    data = read_regular(path, max_bytes=MAX_PLOT_BYTES, error=lambda _p, problem: _refused(str(plot), problem))
    if not data.startswith(_PNG):
        raise StateFormatError(f"{plot}: not a PNG image")
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def _stderr_note(line: str) -> None:
    sys.stderr.write(f"tabletop: {line}\n")


def write_results_page(
    folder: Path,
    summary: Mapping[str, Any],
    lines: Sequence[Mapping[str, Any]],
    plots: Sequence[Path],
    out: Path,
    *,
    note: Callable[[str], object] = _stderr_note,
) -> list[Path]:
    """Write the results page of ``folder`` to ``out`` and the replay pages of its recorded games to
    ``<out stem>-replays/`` beside it. Returns every file written, the page first.

    A record, ``run.json`` or plot that cannot be read safely (see the module) is skipped; each is named once to
    ``note`` (by default on standard error, the first :data:`MAX_NOTES` one by one) and counted on the page.
    """
    skipped: list[str] = []

    def say(line: str) -> None:
        skipped.append(line)
        if len(skipped) <= MAX_NOTES:
            note(line)

    run_options = _run_options(folder, say)
    solo = any("score_share" in r for r in summary["agents"])
    heads = ["games", "W-T-L", "win rate (95%)", "mean return (95%)"] + (["score / max"] if solo else [])

    def cells(row: Mapping[str, Any]) -> list[str]:
        low, high = row.get("win_interval") or (None, None)
        rlow, rhigh = row.get("return_interval") or (None, None)

        def num(x: float | None) -> str:
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
        if p.suffix.lower() != ".png":
            continue
        try:
            uri = _plot_uri(p)
        except StateFormatError as exc:
            say(f"plot skipped: {exc}")
            continue
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
        options = dict(run_options)
        rel = line.get("record")
        session = None
        if rel is not None:
            try:
                session = _load_record(folder, rel)
            except StateFormatError as exc:
                say(f"record skipped: {exc}")
            else:
                if isinstance(session.record.options, Mapping):
                    options.update(session.record.options)
        attrs = {"game": str(line.get("deal", "")), "seat": json.dumps(seats), "agent": json.dumps(agents)}
        values["seat"].update(seats)
        values["agent"].update(agents)
        for k in FILTER_OPTIONS:
            if k in options:
                attrs[k] = json.dumps([str(options[k])])
                values[k].add(str(options[k]))
        link = ""
        if session is not None and isinstance(rel, str) and replays < MAX_REPLAYS:
            target = replay_dir / (Path(rel).stem + ".html")
            try:
                _write_replay(session, rel, target)
            except StateFormatError as exc:
                say(f"record skipped: {folder / rel}: {exc}")
            else:
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
    truth_note = ""
    if replays:
        more = f" The first {MAX_REPLAYS} only." if replays >= MAX_REPLAYS else ""
        truth_note = (
            '<p class="note truth">The replays of recorded games (bots in every seat) show the whole truth, every '
            f"seat's hidden cards included, and each seat's own view.{more}</p>"
        )
    if skipped:
        shown = "".join(f"<li>{esc(line)}</li>" for line in skipped[:MAX_NOTES])
        more = f"<li>and {len(skipped) - MAX_NOTES} more</li>" if len(skipped) > MAX_NOTES else ""
        skipped_note = (
            f'<div class="note"><p>{len(skipped)} file{"s" * (len(skipped) != 1)} of the folder could not be read '
            f"safely and {'were' if len(skipped) != 1 else 'was'} left out:</p><ul>{shown}{more}</ul></div>"
        )
        parts.append(skipped_note)
        if len(skipped) > MAX_NOTES:
            note(f"and {len(skipped) - MAX_NOTES} more files skipped")
    heads_games = ["deal", "seats", "outcomes", "returns", "length", "options", "replay"]
    parts.append(
        truth_note
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
