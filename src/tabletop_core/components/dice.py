"""Dice with arbitrary faces, and bounded modification of a result."""

from __future__ import annotations

from collections import Counter

import attrs

__all__ = ["D6", "Die"]


def _check_faces(_inst: object, _attr: object, faces: tuple[int, ...]) -> None:
    if not faces:
        raise ValueError("a die needs at least one face")


@attrs.frozen
class Die:
    """A die whose faces carry integers; results may be modified but stay within ``[low, high]``.

    >>> D6.outcomes()[0]
    (1, 0.16666666666666666)
    >>> D6.modify(6, +2), D6.modify(2, -3)
    (6, 1)
    """

    faces: tuple[int, ...] = attrs.field(validator=_check_faces)
    low: int = 1
    high: int = 6

    def outcomes(self) -> tuple[tuple[int, float], ...]:
        """The distinct results with their exact probabilities, ascending (equal faces merged)."""
        counts = Counter(self.faces)
        n = len(self.faces)
        return tuple((face, counts[face] / n) for face in sorted(counts))

    def clamp(self, value: int) -> int:
        """``value`` bounded to ``[low, high]``."""
        return max(self.low, min(self.high, value))

    def modify(self, result: int, delta: int) -> int:
        """A result shifted by ``delta`` and clamped to the die's bounds."""
        return self.clamp(result + delta)


#: The 6-sided die (Unbroken's Slashes Die reads as the numbers 1 to 6).
D6 = Die((1, 2, 3, 4, 5, 6))
