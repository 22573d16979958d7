"""Scoring: "Points for the remaining resources" at the end of a won game, and the title they earn."""

from __future__ import annotations

from unbroken.state import CAPS, State

__all__ = ["BEST_SCORE", "SCORE", "TITLES", "score", "title"]

#: Points per remaining resource at the end of a won game (Small Effort and Time score nothing).
SCORE = (0, 3, 5, 2, 3, 2, 3, 10, 0)
#: The best possible score (every scoring track full).
BEST_SCORE = sum(c * p for c, p in zip(CAPS, SCORE, strict=True))
#: "Points 0 1-10 11-20 21-30 31-40 41+ / Title Prey Cast-off Survivor Avenger Revenant Nemesis": the highest
#: score of each title but the last.
TITLES = ((0, "Prey"), (10, "Cast-off"), (20, "Survivor"), (30, "Avenger"), (40, "Revenant"))
TOP_TITLE = "Nemesis"


def score(state: State) -> int:
    """Points for the remaining resources: Medium Effort 3, Large 5, Cunning 2, Metal 3, Wood 2, Food 3, Treasure 10."""
    return sum(state.amount(r) * p for r, p in enumerate(SCORE))


def title(points: int) -> str:
    """The title of a winning score.

    >>> title(0), title(10), title(11), title(41)
    ('Prey', 'Cast-off', 'Survivor', 'Nemesis')
    """
    for top, name in TITLES:
        if points <= top:
            return name
    return TOP_TITLE
