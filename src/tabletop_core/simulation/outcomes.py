"""Who won a game, by the game's utility.

* **Zero-sum and constant-sum** games with two or more players: the highest return wins; seats that share the
  highest return tie (every seat ties when all returns are equal); the others lose.
* **Every other game** (one player, co-op with identical returns, general-sum): each seat is judged on its own
  return. In a co-op game the heroes share a return, so the party wins or loses together. A return counts as a
  won game when it is at least 0 in a game whose losses are negative (the spec's ``min_utility`` is below 0:
  Unbroken scores a loss -1 and a win its points, Runebound a loss -1 and a win +1), and when it is above the
  spec's ``min_utility`` otherwise (a score game whose worst outcome is 0: any score wins). The score of a won game
  relative to the best possible (``return / spec.max_utility``) is reported beside the win rate for one-player games.

>>> from tabletop_core.testing.kuhn import GAME
>>> seat_outcomes(GAME.spec, (1.0, -1.0)), seat_outcomes(GAME.spec, (0.0, 0.0))
(('win', 'loss'), ('tie', 'tie'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tabletop_core.spec import GameSpec, Utility

__all__ = ["WIN_RULE", "Outcome", "competitive", "seat_outcomes", "win_rule", "won"]

Outcome = Literal["win", "tie", "loss"]

_EPS = 1e-9

#: The rule above in one line, stored in every summary.
WIN_RULE = (
    "zero/constant-sum: the highest return wins, shared highest returns tie; otherwise each seat wins when its "
    "return is >= 0 (games with negative losses) or above min_utility (games whose worst return is >= 0)"
)


def win_rule(spec: GameSpec, players: int) -> str:
    """The rule that counts wins in this game, in words.

    >>> from tabletop_core.testing.kuhn import GAME
    >>> win_rule(GAME.spec, 2)
    'the highest return wins; seats sharing the highest return tie'
    """
    if competitive(spec, players):
        return "the highest return wins; seats sharing the highest return tie"
    who = "a seat" if players == 1 else "each seat (a co-op party together)"
    if spec.min_utility < 0:
        return f"{who} wins with a return >= 0 (a loss is negative)"
    return f"{who} wins with a return above {spec.min_utility:g}"


def competitive(spec: GameSpec, players: int) -> bool:
    """Whether wins are decided between the seats (zero- or constant-sum with two or more players)."""
    return players > 1 and spec.utility in (Utility.ZERO_SUM, Utility.CONSTANT_SUM)


def won(spec: GameSpec, value: float) -> bool:
    """Whether a seat's return counts as a won game in a game judged seat by seat (see the module)."""
    return value >= -_EPS if spec.min_utility < 0 else value > spec.min_utility + _EPS


def seat_outcomes(spec: GameSpec, returns: Sequence[float]) -> tuple[Outcome, ...]:
    """Each seat's outcome of a finished game with these returns."""
    if not competitive(spec, len(returns)):
        return tuple("win" if won(spec, r) else "loss" for r in returns)
    best = max(returns)
    top = [abs(r - best) <= _EPS for r in returns]
    if sum(top) == 1:
        return tuple("win" if t else "loss" for t in top)
    return tuple("tie" if t else "loss" for t in top)
