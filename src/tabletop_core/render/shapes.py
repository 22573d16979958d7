"""Labelled building blocks the games' pictures share: a track of cells, a card, a badge, a panel, a banner.

Each block is one labelled group, so its text alternative says the whole fact ("Food 3 of 8"), and none relies on
colour alone (numbers, letters and outlines say it too).

>>> from tabletop_core.render.svg import Drawing, check_svg
>>> d = Drawing(300, 60, title="demo")
>>> track(d, 10, 10, "Food", 3, 8, colour="#009E73")
>>> card(d, 10, 30, 120, 24, "Rotten Bridge", label="encounter Rotten Bridge")
>>> check_svg(d.to_svg())
(300.0, 60.0)
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop_core.render import palette as pal
from tabletop_core.render.svg import Drawing

__all__ = ["badge", "banner", "card", "panel", "paragraph", "track", "wrap"]


def panel(d: Drawing, x: float, y: float, w: float, h: float, heading: str) -> None:  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    """A framed panel with a heading (the heading is its own label)."""
    d.rect(x, y, w, h, fill=pal.PANEL, stroke=pal.GREY, rx=6, decor=True)
    d.text(x + 10, y + 18, heading, size=13, weight="bold", fill=pal.MUTED)


def track(  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    d: Drawing,
    x: float,
    y: float,
    name: str,
    value: int,
    high: int,
    *,
    colour: str,
    cell: float = 14,
    height: float = 14,
    name_width: float = 110,
    note: str = "",
) -> None:
    """A track: ``name``, then ``high`` cells with the first ``value`` filled, then ``value/high``."""
    label = f"{name} {value} of {high}" + (f" ({note})" if note else "")
    with d.group(label, cls="track"):
        d.text(x, y + height - 3, name, size=12)
        x0 = x + name_width
        for i in range(high):
            filled = i < value
            d.rect(x0 + i * cell, y, cell - 2, height, fill=colour if filled else pal.PAPER, stroke=pal.GREY, rx=2)
        d.text(x0 + high * cell + 6, y + height - 3, f"{value}/{high}" + (f" {note}" if note else ""), size=12)


def card(  # noqa: PLR0917  # coordinates come first and positional, as in SVG
    d: Drawing,
    x: float,
    y: float,
    w: float,
    h: float,
    title: str,
    *,
    label: str,
    lines: Sequence[str] = (),
    fill: str = pal.PAPER,
    stroke: str = pal.INK,
    dash: str | None = None,
    size: float = 12,
    bold: bool = True,
) -> None:
    """A card: a rounded rectangle with a title line and up to as many further lines as fit."""
    with d.group(label, cls="card"):
        d.rect(x, y, w, h, fill=fill, stroke=stroke, stroke_width=1.5, rx=5, dash=dash)
        chars = max(int((w - 10) / (size * 0.58)), 3)
        d.text(x + 6, y + size + 4, title, size=size, weight="bold" if bold else "normal", max_chars=chars)
        room = int((h - size - 8) // (size + 2))
        for i, line in enumerate(lines[:room]):
            d.text(x + 6, y + size + 6 + (i + 1) * (size + 2), line, size=size - 1, max_chars=chars, fill=pal.MUTED)


def badge(d: Drawing, x: float, y: float, text: str, *, label: str, fill: str, ink: str = pal.INK) -> float:
    """A small rounded tag; returns its width."""
    w = 10 + 7.2 * len(text)
    with d.group(label, cls="badge"):
        d.rect(x, y, w, 18, fill=fill, stroke=pal.INK, rx=9)
        d.text(x + w / 2, y + 13, text, size=11, anchor="middle", weight="bold", fill=ink)
    return w


def banner(d: Drawing, title: str, seen: str, *, width: float, reveal: bool) -> None:
    """The picture's top line: the title on the left, whose view it is on the right (framed when it is the truth)."""
    d.rect(0, 0, width, 34, fill=pal.INK, decor=True)
    d.text(12, 23, title, size=16, weight="bold", fill=pal.PAPER, max_chars=int(width / 18))
    with d.group(f"drawn as {seen}", cls="seen"):
        w = 12 + 6.8 * len(seen)
        d.rect(width - w - 8, 6, w, 22, fill=pal.YELLOW if reveal else pal.PAPER, stroke=pal.PAPER, rx=4)
        d.text(width - 8 - w / 2, 21, seen, size=12, anchor="middle", weight="bold", fill=pal.INK)


def wrap(text: str, chars: int) -> list[str]:
    """``text`` broken into lines of at most ``chars`` characters at spaces (a longer word gets a line of its own).

    >>> wrap("a bb ccc dddd", 6)
    ['a bb', 'ccc', 'dddd']
    """
    lines: list[str] = []
    cur = ""
    for word in text.split():
        if cur and len(cur) + 1 + len(word) > chars:
            lines.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    if cur:
        lines.append(cur)
    return lines


def paragraph(
    d: Drawing,
    x: float,
    y: float,
    text: str,
    *,
    chars: int,
    size: float = 12,
    max_lines: int = 3,
    label: str | None = None,
    italic: bool = False,
    fill: str = pal.INK,
) -> float:
    """``text`` wrapped at ``chars`` into at most ``max_lines`` lines from baseline ``y``, as one labelled group
    (the label keeps the whole text); returns the baseline after the last line."""
    lines = wrap(text, chars)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], lines[max_lines - 1][: max(chars - 1, 1)] + "\u2026"]
    with d.group(label or text):
        for i, line in enumerate(lines):
            d.text(x, y + i * (size + 4), line, size=size, italic=italic, fill=fill)
    return y + len(lines) * (size + 4)
