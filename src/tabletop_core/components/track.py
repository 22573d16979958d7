"""Bounded counters: resources, health, time."""

from __future__ import annotations

import attrs

from tabletop_core.errors import InsufficientError

__all__ = ["Track"]


def _check_bounds(inst: Track, _attr: object, value: int) -> None:
    if not inst.low <= inst.high:
        raise ValueError(f"track {inst.name!r}: low {inst.low} above high {inst.high}")
    if not inst.low <= value <= inst.high:
        raise ValueError(f"track {inst.name!r}: value {value} outside [{inst.low}, {inst.high}]")


@attrs.frozen
class Track:
    """A counter within ``[low, high]``: a gain past the cap is lost, a spend below the floor is refused.

    >>> t = Track("food", 3, high=5)
    >>> t.gain(4).value, t.lose(10).value
    (5, 0)
    >>> t.spend(4)
    Traceback (most recent call last):
    ...
    tabletop_core.errors.InsufficientError: track 'food': cannot spend 4 from 3 (floor 0)
    """

    name: str
    value: int = attrs.field(validator=_check_bounds)
    low: int = attrs.field(default=0, kw_only=True)
    high: int = attrs.field(kw_only=True)

    def gain(self, n: int) -> Track:
        """Add ``n`` (>= 0); the part past ``high`` is lost."""
        if n < 0:
            raise ValueError(f"track {self.name!r}: gain must be >= 0, not {n}")
        return attrs.evolve(self, value=min(self.high, self.value + n))

    def overflow(self, n: int) -> int:
        """How much of a gain of ``n`` would be lost to the cap."""
        return max(0, self.value + n - self.high)

    def can_spend(self, n: int) -> bool:
        """Whether ``n`` can be spent without going below ``low``."""
        return 0 <= n <= self.value - self.low

    def spend(self, n: int) -> Track:
        """Remove ``n``; refused with ``InsufficientError`` (nothing changes) if that would go below ``low``."""
        if n < 0:
            raise ValueError(f"track {self.name!r}: spend must be >= 0, not {n}")
        if n > self.value - self.low:
            raise InsufficientError(f"track {self.name!r}: cannot spend {n} from {self.value} (floor {self.low})")
        return attrs.evolve(self, value=self.value - n)

    def lose(self, n: int) -> Track:
        """Remove up to ``n``, stopping at ``low`` (use :meth:`shortfall` to learn what could not be lost)."""
        if n < 0:
            raise ValueError(f"track {self.name!r}: loss must be >= 0, not {n}")
        return attrs.evolve(self, value=max(self.low, self.value - n))

    def shortfall(self, n: int) -> int:
        """How much of a loss of ``n`` the track cannot cover."""
        return max(0, n - (self.value - self.low))

    def set(self, value: int) -> Track:
        """The track at ``value`` clamped to its bounds."""
        return attrs.evolve(self, value=max(self.low, min(self.high, value)))
