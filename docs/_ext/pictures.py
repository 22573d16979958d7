"""A mkdocs hook: pictures of real positions, drawn when the site is built, from seeded games.

A page asks for one with a comment on a line of its own::

    <!-- picture game=unbroken seed=4 at=30 seat=0 caption="Travel on the first Level" -->

``at`` is the number of actions played from the start (``end``: the last position) of the seeded game (chance by
its odds, every decision drawn at random from the legal ones, both from ``numpy.random.default_rng(seed)``);
``seat`` draws that seat's view (``truth``: the whole truth). The comment becomes the inline SVG picture in a
figure with its caption, so nothing committed goes stale: a rule or a picture that changes shows in the next build.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

_MARK = re.compile(r"^<!-- picture (?P<args>.*?) -->$", re.MULTILINE)


def _position(game: Any, seed: int, at: str) -> Any:
    import numpy as np

    from tabletop_core.chance import sample_outcome
    from tabletop_core.spec import CHANCE, TERMINAL

    rng = np.random.default_rng(seed)
    state = game.new_game(seed=seed)
    steps = 0
    while (at == "end" or steps < int(at)) and (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        state = game.step(state, action)
        steps += 1
    return state


def picture_markup(args: str) -> str:
    """The figure (inline SVG and caption) that the comment's ``args`` ask for."""
    from tabletop_core.registry import installed_game
    from tabletop_core.render.replays import TRUTH, picture_of

    opts = dict(part.split("=", 1) for part in shlex.split(args))
    game = installed_game(opts["game"])
    state = _position(game, int(opts.get("seed", "0")), opts.get("at", "0"))
    seat = opts.get("seat", "0")
    svg = picture_of(game, state, TRUTH if seat == "truth" else int(seat))
    svg = " ".join(line.strip() for line in svg.splitlines() if line.strip())  # one raw-HTML line for Markdown
    caption = opts.get("caption", "")
    how = f"seed {opts.get('seed', '0')}, after {opts.get('at', '0')} actions"
    return (
        f'<figure class="tabletop-picture" markdown="0">{svg}'
        f"<figcaption>{caption} (drawn by the docs build: {how})</figcaption></figure>"
    )


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replace each picture comment of a page by its picture."""
    return _MARK.sub(lambda m: picture_markup(m.group("args")), markdown)
