"""Restricted play: a game lists its content items; the core plays without each one and measures the change.

A game that declares content (cards, abilities, enemies, heroes) offers a **restriction hook**: a function
``restrictions(game, options) -> Sequence[Restriction]``. Each :class:`Restriction` names one item and says how it
is taken away, in one of two ways:

* ``forbid``: a regular expression over the decision texts (``game.action_to_str``). The players may not take a
  decision whose text matches it (the "agent may not use it" study): at every decision the matching actions are
  removed from the legal actions the agents see, searches included. Where every legal action matches, the
  players keep them all (a forced move stays forced), and the trace counts the decisions that were restricted.
* ``options``: game options that remove the item from the pack or the encounter (the "item removed" study).

The core finds the hook as the game's ``restrictions`` attribute, else as the function ``restrictions`` of the
module ``<the game's top package>.restrictions`` (so a game adds its hook without touching its ``Game`` class),
else there is none. ``module:ATTR`` names any other hook (``tabletop analyze --restrictions``).

>>> from tabletop_core.testing.kuhn import GAME
>>> rule = Restriction("move", "bet", forbid="^bet$")
>>> game = RestrictedGame(GAME, rule)
>>> state = GAME.new_game(seed=1)
>>> [GAME.action_to_str(state, a) for a in game.legal_actions(state)]
['pass']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from tabletop_core.errors import OptionError
from tabletop_core.spec import CHANCE, TERMINAL

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["Hook", "RestrictedGame", "Restriction", "find_hook", "load_restrictions"]

S = TypeVar("S")
A = TypeVar("A")

#: A restriction hook: the game and its options in, the items that can be taken away out (the options are the
#: game's own class, which a hook names).
Hook = Callable[["Game[Any, Any, Any]", Any], Sequence["Restriction"]]


@attrs.frozen
class Restriction:
    """One content item and how to take it away (give ``forbid``, ``options`` or both).

    Attributes:
        kind: what the item is, in a word (``card``, ``enemy``, ``hero``, ``ability``).
        name: the item's name.
        forbid: a regular expression; decisions whose text matches it are not allowed.
        options: game options (name, JSON value) that take the item out of the game.
    """

    kind: str
    name: str
    forbid: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    def __attrs_post_init__(self) -> None:
        if not self.forbid and not self.options:
            raise OptionError(f"restriction {self.label!r} neither forbids decisions nor changes options")
        try:
            re.compile(self.forbid)
        except re.error as exc:
            raise OptionError(f"restriction {self.label!r}: bad pattern {self.forbid!r}: {exc}") from exc

    @property
    def label(self) -> str:
        """``kind name``, the item's label in reports."""
        return f"{self.kind} {self.name}"

    @property
    def how(self) -> str:
        """How the item is taken away, in words."""
        parts = []
        if self.forbid:
            parts.append("may not be used")
        if self.options:
            parts.append("removed (" + ", ".join(f"{k}={v!r}" for k, v in self.options) + ")")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """The restriction as JSON values (what a worker receives)."""
        return {"kind": self.kind, "name": self.name, "forbid": self.forbid, "options": [list(p) for p in self.options]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Restriction:
        """Read :meth:`to_json`'s form."""
        return cls(
            str(data["kind"]), str(data["name"]), str(data["forbid"]), tuple((str(k), v) for k, v in data["options"])
        )


class RestrictedGame(Generic[S, A]):
    """A game whose players may not take the decisions a restriction forbids (everything else delegated).

    Attributes:
        restricted: how many times a decision's legal actions were cut (searches' own look-ahead included).
    """

    def __init__(self, game: Game[S, A, Any], restriction: Restriction) -> None:
        self._game = game
        self._pattern = re.compile(restriction.forbid) if restriction.forbid else None
        self.restricted = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def allowed(self, state: S, legal: Sequence[A]) -> tuple[A, ...]:
        """The actions of ``legal`` the restriction allows (all of them when it would allow none)."""
        if self._pattern is None:
            return tuple(legal)
        kept = tuple(a for a in legal if not self._pattern.search(self._game.action_to_str(state, a)))
        if not kept or len(kept) == len(legal):
            return tuple(legal)
        self.restricted += 1
        return kept

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The legal actions, without the forbidden ones at a decision."""
        legal = self._game.legal_actions(state)
        if self._game.current_player(state) in (CHANCE, TERMINAL):
            return tuple(legal)
        return self.allowed(state, legal)


def find_hook(game: Game[Any, Any, Any], hook: str | None = None) -> Hook | None:
    """The restriction hook of ``game`` (see the module), or the one ``hook`` names as ``module:ATTR``.

    Raises:
        OptionError: when ``hook`` cannot be loaded.
    """
    if hook:
        module, _, name = hook.partition(":")
        try:
            found: Hook = getattr(import_module(module), name or "restrictions")
        except (ImportError, AttributeError) as exc:
            raise OptionError(f"restriction hook {hook!r}: {exc}") from exc
        return found
    own = getattr(game, "restrictions", None)
    if callable(own):
        return lambda g, o: own(o)
    top = type(game).__module__.split(".")[0]
    try:
        module_found = import_module(f"{top}.restrictions")
    except ModuleNotFoundError as exc:
        if exc.name not in (f"{top}.restrictions", top):
            raise
        return None
    hook_fn: Hook | None = getattr(module_found, "restrictions", None)
    return hook_fn


def load_restrictions(
    game: Game[Any, Any, Any], options: Mapping[str, Any] | None = None, hook: str | None = None
) -> list[Restriction]:
    """The items the game's hook lists for these options (empty without a hook).

    Raises:
        OptionError: when the hook returns something other than restrictions, or two with one label.
    """
    found = find_hook(game, hook)
    if found is None:
        return []
    items = list(found(game, game.make_options(**dict(options or {}))))
    labels = [getattr(r, "label", None) for r in items]
    if not all(isinstance(r, Restriction) for r in items):
        raise OptionError(f"{game.spec.short_name}: the restriction hook must return Restriction values")
    if len(set(labels)) != len(labels):
        raise OptionError(f"{game.spec.short_name}: the restriction hook lists an item twice: {labels}")
    return items
