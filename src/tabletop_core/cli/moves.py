"""Reading a move as a person types it: a number, the move's text, a unique prefix, either order of a pair.

>>> legal = ["target Plenty and Peace", "target Peace and Capitol", "plan 5D hidden"]
>>> match_move("2", legal).index, match_move("TARGET capitol and peace", legal).index
(1, 1)
>>> match_move("pl", legal).index, match_move("capitol", legal).index
(2, 1)
>>> match_move("targt Plenty and Peace", legal).error
"no move reads 'targt Plenty and Peace'; did you mean: target Plenty and Peace?"
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

import attrs

__all__ = ["Match", "match_move", "normal"]


def normal(text: str) -> str:
    """Lower case, single spaces."""
    return " ".join(text.lower().split())


@attrs.frozen
class Match:
    """What a typed line names: the index of a legal move, or why none (with suggestions)."""

    index: int | None = None
    error: str = ""


def _words(text: str) -> tuple[str, ...]:
    return tuple(sorted(normal(text).split()))


def match_move(text: str, legal: Sequence[str], *, commands: Sequence[str] = ()) -> Match:
    """The legal move (by its written form) that ``text`` names.

    In this order: a number (1-based, as listed); the move's text (case and spacing ignored); the same words in
    another order for a move that joins two things with "and" (``target Peace and Plenty`` for ``target Plenty
    and Peace``); a prefix that begins exactly one move; words that only one move has (``forge ruins`` for ``pick 1
    Forge Ruins``). Otherwise the error names the close matches (moves and
    ``commands``), via :func:`difflib.get_close_matches`.
    """
    typed = normal(text)
    if typed.isdigit():
        n = int(typed)
        if 1 <= n <= len(legal):
            return Match(n - 1)
        return Match(error=f"no move number {n}: the moves are numbered 1-{len(legal)}")
    written = [normal(m) for m in legal]
    if typed in written:
        return Match(written.index(typed))
    if " and " in f" {typed} ":
        pairs = [i for i, m in enumerate(written) if " and " in m and _words(m) == _words(typed)]
        if len(pairs) == 1:
            return Match(pairs[0])
    starts = [i for i, m in enumerate(written) if m.startswith(typed)]
    if len(starts) == 1:
        return Match(starts[0])
    if not starts:
        typed_words = set(typed.split())
        having = [i for i, m in enumerate(written) if typed_words <= set(m.split())]
        if len(having) == 1:
            return Match(having[0])
    if len(starts) > 1:
        shown = ", ".join(legal[i] for i in starts[:6]) + (", ..." if len(starts) > 6 else "")
        return Match(error=f"{text.strip()!r} begins {len(starts)} moves: {shown}; type more of it or its number")
    close = difflib.get_close_matches(typed, [*written, *commands], n=3, cutoff=0.6)
    by_normal = {normal(m): m for m in [*legal, *commands]}
    hint = f"; did you mean: {' / '.join(by_normal[c] for c in close)}?" if close else "; type ? for the moves"
    return Match(error=f"no move reads {text.strip()!r}{hint}")
