"""Colours that stay apart for colour-blind readers: the Okabe-Ito palette, plus neutrals.

The eight colours of Okabe and Ito ("Color Universal Design", 2008) stay distinguishable under the common forms of
colour blindness (protanopia, deuteranopia, tritanopia). The pictures never rely on colour alone: every coloured
element also carries a letter, a number, a shape or a dash pattern, and its text alternative.

>>> len(SERIES), SERIES[0]
(7, '#0072B2')
>>> series(8) == SERIES[1]
True
"""

from __future__ import annotations

__all__ = [
    "BLACK",
    "BLUE",
    "GREEN",
    "GREY",
    "INK",
    "LIGHT",
    "MUTED",
    "ORANGE",
    "PANEL",
    "PAPER",
    "PURPLE",
    "SERIES",
    "SKY",
    "VERMILLION",
    "YELLOW",
    "series",
]

BLACK = "#000000"
ORANGE = "#E69F00"
SKY = "#56B4E9"
GREEN = "#009E73"
YELLOW = "#F0E442"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
PURPLE = "#CC79A7"

#: Text.
INK = "#1a1a1a"
#: Secondary text (contrast ratio above 4.5:1 on white and on :data:`PANEL`).
MUTED = "#555555"
#: Outlines and empty cells.
GREY = "#8a8a8a"
#: Empty track cells, spent tokens.
LIGHT = "#dedede"
#: Panel backgrounds.
PANEL = "#f3f3f0"
#: The page.
PAPER = "#ffffff"

#: Colours for series in order (black is left out: it is the text colour).
SERIES = (BLUE, ORANGE, GREEN, VERMILLION, SKY, PURPLE, YELLOW)


def series(i: int) -> str:
    """The ``i``-th series colour, cycling."""
    return SERIES[i % len(SERIES)]
