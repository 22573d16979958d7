"""Pictures of games: a small SVG toolkit with no game knowledge, and the self-contained HTML pages built on it.

- :mod:`tabletop_core.render.svg`: :class:`~tabletop_core.render.svg.Drawing` (escaped text, a fixed ``viewBox``, a
  text alternative on every element that carries information) and :func:`~tabletop_core.render.svg.check_svg`.
- :mod:`tabletop_core.render.palette`: colours that stay apart for colour-blind readers (Okabe-Ito).
- :mod:`tabletop_core.render.shapes`: tracks, cards, badges, panels, the banner that says whose view it is.
- :mod:`tabletop_core.render.pages`: the replay page and the results page (one HTML file each: no server, no
  network, no external script or font).
- :mod:`tabletop_core.render.replays`: a recorded game's pictures and descriptions, per seat, through the game
  protocol only.

Each game draws a seat's view in its own ``picture.py`` (``picture(view, *, width=800) -> str``); views and states
show themselves in notebooks through ``_repr_svg_``.
"""

from __future__ import annotations

from tabletop_core.render.svg import Drawing, SvgError, check_svg, esc

__all__ = ["Drawing", "SvgError", "check_svg", "esc"]
