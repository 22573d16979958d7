"""Finding games through the ``tabletop.games`` entry-point group (ours and third parties' alike)."""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from tabletop_core.errors import TabletopError
from tabletop_core.game import Game

__all__ = ["ENTRY_POINT_GROUP", "available_games", "load_game"]

ENTRY_POINT_GROUP = "tabletop.games"


def available_games() -> tuple[str, ...]:
    """The names of the installed games, sorted."""
    return tuple(sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}))


def load_game(name: str) -> Game[Any, Any, Any]:
    """The ``Game`` object registered under ``name``, or, for ``"package.module:ATTR"``, that module's attribute.

    The second form serves games that are not installed as plug-ins (a game under development, the framework's
    test game ``tabletop_core.testing.kuhn:GAME``).
    """
    module, sep, attr = name.partition(":")
    found: object
    if sep:
        try:
            found = getattr(import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise TabletopError(f"cannot load game {name!r}: {exc}") from exc
        return _checked(name, found)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == name:
            return _checked(name, ep.load())
    raise TabletopError(f"no game named {name!r}; installed: {', '.join(available_games()) or 'none'}")


def _checked(name: str, found: object) -> Game[Any, Any, Any]:
    if not isinstance(found, Game):
        raise TabletopError(f"cannot load game {name!r}: it is a {type(found).__name__}, not a tabletop_core Game")
    return found
