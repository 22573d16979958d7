"""A mkdocs hook: each game's frames, listed from its frame registry when the site is built.

A rules page asks for the table with a comment on a line of its own::

    <!-- frames game=unbroken -->

The comment becomes a table of every kind of frame the game's driver owns (``Driver.frames``, the game's
``FrameRegistry``): its tag in saved states, its class, whether a player, chance or the rules act on it, and
whether it may be pending. The registry is the one list, so a kind added to a game shows in the next build.
"""

from __future__ import annotations

import re
import shlex
from typing import Any

_MARK = re.compile(r"^<!-- frames (?P<args>.*?) -->$", re.MULTILINE)
_WHO = {"decision": "a player decides", "chance": "chance", "automatic": "the rules, by themselves"}


def frames_markup(args: str) -> str:
    """The Markdown table of the frames of the game the comment's ``args`` name."""
    from tabletop_core.registry import installed_game

    opts = dict(part.split("=", 1) for part in shlex.split(args))
    from tabletop_core.flow import Driver

    game = installed_game(opts["game"])
    driver = getattr(game, "driver", None)
    registry = driver.frames if isinstance(driver, Driver) else None
    if registry is None:
        raise ValueError(f"{opts['game']}: its driver has no frame registry to list")
    rows = [
        f"| `{tag}` | `{name}` | {_WHO.get(kind, kind)} | {'on the pending stack' if pending else 'a step only'} |"
        for tag, name, kind, pending in registry.listing()
    ]
    head = "| tag | frame | who acts | where |\n|---|---|---|---|"
    return "\n".join([head, *rows])


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Replace each frames comment of a page by its table."""
    return _MARK.sub(lambda m: frames_markup(m.group("args")), markdown)
