"""The error hierarchy shared by the core and every game.

Every rule violation or bad input raises a subclass of :class:`TabletopError`, itself a :class:`ValueError`, so
callers can catch the whole family or one member. Messages name the input, the player and the step.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = [
    "ConformanceError",
    "ContentError",
    "FrameRegistryError",
    "IllegalActionError",
    "InsufficientError",
    "OptionError",
    "StateFormatError",
    "TabletopError",
    "did_you_mean",
]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """A hint for an unknown name: ``"; did you mean 'x'?"`` for the closest choice, else ``""``.

    >>> did_you_mean("dificulty", ["difficulty", "character"])
    "; did you mean 'difficulty'?"
    >>> did_you_mean("zzz", ["difficulty"])
    ''
    """
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class TabletopError(ValueError):
    """Base class of every error raised by tabletop-rules."""


class IllegalActionError(TabletopError):
    """An action that is not legal in the given state (the state stays valid and usable)."""


class ContentError(TabletopError):
    """Bad card/content data. The message names the file, the entry and the field.

    Attributes:
        file: the data file (or ``"<memory>"``) the entry came from.
        entry: the entry's id or position.
        field: the offending field, dotted for nested fields.
    """

    def __init__(self, file: str, entry: str, field: str, problem: str) -> None:
        self.file = file
        self.entry = entry
        self.field = field
        self.problem = problem
        super().__init__(f"{file}: entry {entry!r}, field {field!r}: {problem}")


class StateFormatError(TabletopError):
    """A serialized state, action or record that is malformed, hostile or from another version."""


class OptionError(TabletopError):
    """An unknown or invalid game option passed to ``new_game``."""


class FrameRegistryError(TabletopError):
    """A frame kind declared wrongly: registered twice, under a tag already taken, after its registry was frozen,
    or a class that is no frame. The message names the class and the game."""


class InsufficientError(TabletopError):
    """A spend that would take a bounded counter below its floor (the spend is refused, nothing changes)."""


class ConformanceError(AssertionError):
    """A broken promise of the game protocol, with where it happened."""

    def __init__(self, game: str, seed: int, step: int, check: str, detail: str) -> None:
        self.game, self.seed, self.step, self.check, self.detail = game, seed, step, check, detail
        super().__init__(f"{game}: seed {seed}, step {step}: check {check!r} failed: {detail}")
