"""Finding games through the ``tabletop.games`` entry-point group (ours and third parties' alike).

Two ways in, for two kinds of caller:

- :func:`installed_game` resolves a name that came from a **file** (a saved game, a record, a results folder):
  only the installed games' registry is consulted, so a file can never make the library import a module. A name is
  an entry point's name (``unrest``), an entry point's own target (``unrest:GAME``), or one of the core's test
  games (:data:`CORE_TEST_GAMES`).
- :func:`load_game` also takes ``package.module:ATTR``, imported as given: for a name typed on the **command
  line** or passed by a program (a game under development), never for one read from a file.

>>> installed_game("unrest").spec.short_name
'unrest'
>>> installed_game("this:GAME")
Traceback (most recent call last):
...
tabletop_core.errors.StateFormatError: no installed game named 'this:GAME' (installed: runebound_coop, unbroken, unrest)
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from tabletop_core.errors import StateFormatError, TabletopError
from tabletop_core.game import Game

__all__ = [
    "CORE_TEST_GAMES",
    "ENTRY_POINT_GROUP",
    "available_games",
    "installed_game",
    "is_installed_game",
    "load_game",
]

ENTRY_POINT_GROUP = "tabletop.games"

#: The framework's own small test games, part of the installed ``tabletop_core`` package: a file may name them.
CORE_TEST_GAMES = ("tabletop_core.testing.kuhn:GAME", "tabletop_core.testing.flowgame:GAME")


def available_games() -> tuple[str, ...]:
    """The names of the installed games, sorted."""
    return tuple(sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)}))


def _registered(name: str) -> EntryPoint | None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if name in (ep.name, ep.value.replace(" ", "")):
            return ep
    return None


def is_installed_game(name: object) -> bool:
    """Whether :func:`installed_game` knows ``name`` (nothing is imported to answer)."""
    return isinstance(name, str) and (name in CORE_TEST_GAMES or _registered(name) is not None)


def installed_game(name: str) -> Game[Any, Any, Any]:
    """The installed game a file names: an entry point's name or target, or a core test game; nothing else.

    Nothing the name says is imported unless an installed package registered it.

    Raises:
        StateFormatError: for any other name (the module it names is not imported).
    """
    if name in CORE_TEST_GAMES:
        module, _, attr = name.partition(":")
        return _checked(name, getattr(import_module(module), attr))
    ep = _registered(name) if isinstance(name, str) else None
    if ep is None:
        shown = repr(name) if len(repr(name)) <= 80 else repr(name)[:77] + "..."
        raise StateFormatError(f"no installed game named {shown} (installed: {', '.join(available_games()) or 'none'})")
    return _checked(name, ep.load())


def load_game(name: str) -> Game[Any, Any, Any]:
    """The ``Game`` object registered under ``name``, or, for ``"package.module:ATTR"``, that module's attribute.

    The second form serves games that are not installed as plug-ins (a game under development, the framework's
    test game ``tabletop_core.testing.kuhn:GAME``). It imports what it is given: use it for names a person typed
    or a program chose, and :func:`installed_game` for names read from a file.
    """
    if is_installed_game(name):
        return installed_game(name)
    module, sep, attr = name.partition(":")
    found: object
    if sep:
        try:
            found = getattr(import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise TabletopError(f"cannot load game {name!r}: {exc}") from exc
        return _checked(name, found)
    raise TabletopError(f"no game named {name!r}; installed: {', '.join(available_games()) or 'none'}")


def _checked(name: str, found: object) -> Game[Any, Any, Any]:
    if not isinstance(found, Game):
        raise TabletopError(f"cannot load game {name!r}: it is a {type(found).__name__}, not a tabletop_core Game")
    return found
