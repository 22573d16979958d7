"""Who won a game, by the game's utility.

* **Zero-sum and constant-sum** games with two or more players: the highest return wins; seats that share the
  highest return tie (every seat ties when all returns are equal); the others lose.
* **Every other game** (one player, co-op with identical returns, general-sum): each seat is judged on its own
  return. In a co-op game the heroes share a return, so the party wins or loses together. In a game whose
  returns run from negative to positive (``spec.min_utility < 0 < spec.max_utility``) and whose spec keeps
  ``zero_is_tie`` (the default), a return above 0 wins, exactly 0 is a tie (neither won nor lost: Runebound's
  fight left undecided when the hero withdraws; Runebound scores -1, 0 and +1) and a negative one loses. A game
  that declares ``zero_is_tie=False`` has no ties: a return above ``spec.min_utility`` wins (Unbroken scores a
  loss -1 and a win its points, so a win of no points, the title "Prey", is a win). In a game whose worst return
  is 0 or more, a return above ``spec.min_utility`` wins (a score game: any score). For one-player games the
  summary adds the mean score relative to the best possible (``spec.max_utility``).

This module is the one definition of a win: ``tabletop simulate``, ``tabletop report``, ``tabletop analyze``,
MCTS's ``objective="win"`` and the balance benchmark all judge a game's returns with :func:`seat_outcomes`.

>>> from tabletop_core.testing.kuhn import GAME
>>> seat_outcomes(GAME.spec, (1.0, -1.0)), seat_outcomes(GAME.spec, (0.0, 0.0))
(('win', 'loss'), ('tie', 'tie'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tabletop_core.spec import GameSpec, Utility

__all__ = ["Outcome", "competitive", "judged", "seat_outcomes", "win_rule", "won"]

Outcome = Literal["win", "tie", "loss"]

_EPS = 1e-9


def win_rule(spec: GameSpec, players: int) -> str:
    """The rule that counts wins in this game, in words.

    >>> from tabletop_core.testing.kuhn import GAME
    >>> win_rule(GAME.spec, 2)
    'the highest return wins; seats sharing the highest return tie'
    """
    if competitive(spec, players):
        return "the highest return wins; seats sharing the highest return tie"
    who = "a seat" if players == 1 else "each seat (a co-op party together)"
    if spec.min_utility < 0 < spec.max_utility and spec.zero_is_tie:
        return f"{who} wins with a return above 0, ties with 0, loses below"
    return f"{who} wins with a return above {spec.min_utility:g} and loses with {spec.min_utility:g}"


def competitive(spec: GameSpec, players: int) -> bool:
    """Whether wins are decided between the seats (zero- or constant-sum with two or more players)."""
    return players > 1 and spec.utility in (Utility.ZERO_SUM, Utility.CONSTANT_SUM)


def judged(spec: GameSpec, value: float) -> Outcome:
    """A seat's outcome in a game judged seat by seat (see the module)."""
    if spec.min_utility < 0 < spec.max_utility and spec.zero_is_tie:
        return "win" if value > _EPS else "tie" if value >= -_EPS else "loss"
    return "win" if value > spec.min_utility + _EPS else "loss"


def won(spec: GameSpec, value: float) -> bool:
    """Whether a seat's return counts as a won game in a game judged seat by seat (see the module)."""
    return judged(spec, value) == "win"


def seat_outcomes(spec: GameSpec, returns: Sequence[float]) -> tuple[Outcome, ...]:
    """Each seat's outcome of a finished game with these returns."""
    if not competitive(spec, len(returns)):
        return tuple(judged(spec, r) for r in returns)
    best = max(returns)
    top = [abs(r - best) <= _EPS for r in returns]
    if sum(top) == 1:
        return tuple("win" if t else "loss" for t in top)
    return tuple("tie" if t else "loss" for t in top)
