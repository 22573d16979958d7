"""Self-contained HTML pages: one file each, no server, no network, no external script, style sheet or font.

:func:`replay_page` builds the page of a recorded game (a picture of every position, the move list with each seat's
description of each move, step buttons, a slider, keyboard keys and a seat switch) from a
:class:`~tabletop_core.render.replays.ReplayData`. :func:`html_page` wraps any body in the shared page frame
(the results page of ``tabletop report --html`` uses it too).

The data of a page sits in one ``<script type="application/json">`` block, escaped so that no text from a record can
close it; the page's script only reads it and sets text through ``textContent`` (never ``innerHTML`` with record
text), so a description or a seat name cannot become markup.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from tabletop_core.render.svg import esc

if TYPE_CHECKING:
    from tabletop_core.render.replays import ReplayData

__all__ = ["html_page", "json_block", "replay_page"]

#: The page style: system fonts only, colours that keep their contrast, readable at 800 px wide.
STYLE = """
*{box-sizing:border-box}
body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:0;padding:12px;color:#1a1a1a;background:#fafafa;
max-width:1400px}
h1{font-size:1.3em;margin:.2em 0 .4em}
.note{padding:.4em .6em;border-left:4px solid #0072B2;background:#eef5fb;margin:.4em 0}
.note.truth{border-color:#D55E00;background:#fdf0e6;font-weight:bold}
.controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:.5em 0}
.controls button,.controls select{font-size:1em;padding:.25em .7em}
.controls input[type=range]{flex:1 1 200px}
.layout{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.board{flex:1 1 520px;min-width:300px;max-width:820px}
.board svg{width:100%;height:auto;display:block;border:1px solid #ccc;background:#fff}
.moves{position:relative;flex:1 1 260px;max-height:80vh;overflow:auto;border:1px solid #ccc;background:#fff;
margin:0;padding:0}
.moves li{list-style:none;padding:.3em .5em;border-bottom:1px solid #eee;cursor:pointer}
.moves li.current{background:#ffe9a8;outline:2px solid #E69F00}
.moves li .n{font-weight:bold;margin-right:.4em}
.moves li div{margin-left:1.2em}
table{border-collapse:collapse;margin:.5em 0;font-size:.92em}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right}
th{background:#eee}
td:first-child,th:first-child{text-align:left}
.hidden{display:none}
kbd{border:1px solid #999;border-radius:3px;padding:0 .3em;background:#fff}
"""


def json_block(element_id: str, data: object) -> str:
    """``data`` as a ``<script type="application/json">`` block that no string inside can close or break."""
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{esc(element_id)}">{text}</script>'


def html_page(title: str, body: str, *, script: str = "") -> str:
    """A whole HTML document: ``title``, the shared style, ``body`` (markup the caller escaped) and ``script``."""
    js = f"<script>\n{script}\n</script>" if script else ""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; img-src data:; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">"
        f"<title>{esc(title)}</title><style>{STYLE}</style></head>\n"
        f"<body>\n{body}\n{js}\n</body></html>\n"
    )


_REPLAY_JS = r"""
(function(){
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const n = data.moves;
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  const slider = document.getElementById("slider");
  const where = document.getElementById("where");
  const seatSel = document.getElementById("seat");
  const seatNote = document.getElementById("seat-note");
  let at = data.start, view = data.default_view;
  function buildList(){
    list.textContent = "";
    const lines = data.views[view].lines;
    const li0 = document.createElement("li");
    li0.dataset.i = "0";
    li0.textContent = "start: before any move";
    list.appendChild(li0);
    for (let i = 1; i <= n; i++) {
      const li = document.createElement("li");
      li.dataset.i = String(i);
      const num = document.createElement("span");
      num.className = "n"; num.textContent = i + ".";
      li.appendChild(num);
      const desc = lines[i - 1];
      if (desc.length === 0) { li.appendChild(document.createTextNode("(nothing this seat could see)")); }
      desc.forEach(function(line, k){
        if (k === 0) { li.appendChild(document.createTextNode(line)); }
        else { const d = document.createElement("div"); d.textContent = line; li.appendChild(d); }
      });
      list.appendChild(li);
    }
  }
  function show(){
    const v = data.views[view];
    board.innerHTML = v.pictures[at];  // pictures are SVG built and escaped by tabletop_core.render
    slider.value = String(at);
    where.textContent = (at === 0 ? "start" : "after move " + at) + " of " + n;
    seatNote.textContent = v.note;
    seatNote.className = v.truth ? "note truth" : "note";
    list.querySelectorAll("li.current").forEach(function(li){ li.classList.remove("current"); });
    const cur = list.querySelector('li[data-i="' + at + '"]');
    if (cur) { cur.classList.add("current"); list.scrollTop = cur.offsetTop - list.clientHeight / 2; }
    document.getElementById("end").textContent = at === n ? data.end : "";
  }
  function go(i){ at = Math.max(0, Math.min(n, i)); show(); }
  document.getElementById("first").addEventListener("click", function(){ go(0); });
  document.getElementById("back").addEventListener("click", function(){ go(at - 1); });
  document.getElementById("forward").addEventListener("click", function(){ go(at + 1); });
  document.getElementById("last").addEventListener("click", function(){ go(n); });
  slider.addEventListener("input", function(){ go(parseInt(slider.value, 10)); });
  list.addEventListener("click", function(e){
    const li = e.target.closest("li");
    if (li) { go(parseInt(li.dataset.i, 10)); }
  });
  seatSel.addEventListener("change", function(){ view = parseInt(seatSel.value, 10); buildList(); show(); });
  document.addEventListener("keydown", function(e){
    if (e.target === seatSel) { return; }
    if (e.key === "ArrowRight" || e.key === "n" || e.key === "j") { go(at + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft" || e.key === "b" || e.key === "k") { go(at - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(n); e.preventDefault(); }
  });
  buildList(); show();
})();
"""


def replay_page(data: ReplayData) -> str:
    """The replay page of ``data`` (a :class:`~tabletop_core.render.replays.ReplayData`)."""
    options = "".join(
        f'<option value="{k}"{" selected" if k == data.default_view else ""}>{esc(v.name)}</option>'
        for k, v in enumerate(data.views)
    )
    truth_note = ""
    if any(v.truth for v in data.views):
        truth_note = (
            '<p class="note truth">Made with --reveal: this page can show the whole truth, every seat\'s hidden '
            "cards included.</p>"
        )
    body = f"""
<h1>{esc(data.title)}</h1>
<p>{esc(data.subtitle)}</p>
{truth_note}
<p id="seat-note" class="note"></p>
<div class="controls" role="toolbar" aria-label="step through the game">
 <button id="first" type="button" title="the start (Home)">|&#x25C0; start</button>
 <button id="back" type="button" title="one move back (Left arrow, b)">&#x25C0; back</button>
 <button id="forward" type="button" title="one move forward (Right arrow, n)">forward &#x25B6;</button>
 <button id="last" type="button" title="the end (End)">end &#x25B6;|</button>
 <input id="slider" type="range" min="0" max="{data.moves}" value="{data.start}" aria-label="position in the game">
 <span id="where" aria-live="polite"></span>
 <label>seat <select id="seat" aria-label="whose view">{options}</select></label>
</div>
<p><kbd>&#x2190;</kbd>/<kbd>&#x2192;</kbd> (or <kbd>b</kbd>/<kbd>n</kbd>) step, <kbd>Home</kbd>/<kbd>End</kbd> jump;
click a move to go there.</p>
<div class="layout">
 <div id="board" class="board" aria-live="polite"></div>
 <ol id="moves" class="moves" aria-label="moves"></ol>
</div>
<p id="end" class="note"></p>
{json_block("replay-data", data.to_json())}
"""
    return html_page(data.title, body, script=_REPLAY_JS)
