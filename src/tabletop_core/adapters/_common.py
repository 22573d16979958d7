"""What the Gymnasium and PettingZoo environments share: decoding integer actions and describing them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, SupportsIndex, SupportsInt, TypeVar

import numpy as np

from tabletop_core.errors import IllegalActionError, OptionError

if TYPE_CHECKING:
    from tabletop_core.game import Game

__all__ = ["ILLEGAL_MODES", "check_illegal_mode", "decode_action", "shown"]

ILLEGAL_MODES = ("raise", "noop")

S = TypeVar("S")
A = TypeVar("A")


def check_illegal_mode(mode: str) -> str:
    """``mode`` if it is one of :data:`ILLEGAL_MODES`; ``OptionError`` otherwise."""
    if mode not in ILLEGAL_MODES:
        raise OptionError(f"illegal_action must be one of {ILLEGAL_MODES}, not {mode!r}")
    return mode


def shown(action: object) -> str:
    """An action as an error message shows it: a NumPy integer as the plain id it stands for.

    >>> shown(np.int64(5)), shown("five")
    ('5', "'five'")
    """
    return str(int(action)) if isinstance(action, int | np.integer) else repr(action)


def decode_action(
    game: Game[S, A, Any],
    state: S,
    action: object,
) -> A | None:
    """The legal game action that the integer ``action`` stands for in ``state``, or ``None``.

    ``action`` is whatever an RL library hands over: anything ``int()`` reads (a NumPy integer, a one-element
    array, a text of digits) stands for that id; anything else is no action.
    """
    if not isinstance(action, int | np.integer | str | bytes | bytearray | SupportsInt | SupportsIndex):
        return None
    try:
        action_id = int(action)
    except (TypeError, ValueError):
        return None
    if not 0 <= action_id < game.spec.num_distinct_actions:
        return None
    try:
        tt_action = game.action_from_id(state, action_id)
    except (IllegalActionError, ValueError):
        return None
    return tt_action if game.is_legal(state, tt_action) else None
