"""A deck or pile as a multiset of card ids: a draw is a chance node over the remaining cards, not an order."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from typing import Generic, TypeVar

import attrs

from tabletop_core.fastcopy import replace

__all__ = ["Pile"]

C = TypeVar("C", bound=str | int)


def _check_counts(_inst: object, _attr: object, counts: tuple[tuple[object, int], ...]) -> None:
    keys = [c for c, _ in counts]
    if keys != sorted(keys) or len(set(keys)) != len(keys):  # type: ignore[type-var]  # C is str or int
        raise ValueError("pile: card counts must be sorted by card with each card once")
    if any(n <= 0 for _, n in counts):
        raise ValueError("pile: every card count must be positive")


def _pack(cards: Iterable[C]) -> tuple[tuple[C, int], ...]:
    counts = Counter(cards)
    return tuple((c, counts[c]) for c in sorted(counts))


@attrs.frozen
class Pile(Generic[C]):
    """A draw pile (a multiset: counts per card id, no order) and its discard pile.

    Cards are ids (``str`` or ``int``). :meth:`draw_outcomes` gives each distinct card with probability
    count/size; when the draw pile is empty it is the discard pile that is reshuffled and drawn from.

    >>> p = Pile.of(["a", "a", "b"])
    >>> p.draw_outcomes()
    (('a', 0.6666666666666666), ('b', 0.3333333333333333))
    >>> p.draw("a").draw("a").draw("b").discard("b").draw_outcomes()
    (('b', 1.0),)
    """

    counts: tuple[tuple[C, int], ...] = attrs.field(validator=_check_counts)
    discards: tuple[C, ...] = ()

    @classmethod
    def of(cls, cards: Iterable[C], discards: Iterable[C] = ()) -> Pile[C]:
        """A pile holding ``cards`` (in any order) with ``discards`` face up beside it."""
        return cls(_pack(cards), tuple(discards))

    @property
    def size(self) -> int:
        """Cards left in the draw pile."""
        return sum([n for _, n in self.counts])

    @property
    def total(self) -> int:
        """Cards in the draw and discard piles together."""
        return self.size + len(self.discards)

    def count(self, card: C) -> int:
        """Copies of ``card`` in the draw pile."""
        for c, n in self.counts:
            if c == card:
                return n
        return 0

    def cards(self) -> tuple[C, ...]:
        """The draw pile's cards, sorted (as a multiset)."""
        return tuple(c for c, n in self.counts for _ in range(n))

    @property
    def can_draw(self) -> bool:
        """Whether a draw is possible (from the draw pile, or after reshuffling the discards)."""
        return bool(self.counts) or bool(self.discards)

    def draw_outcomes(self) -> tuple[tuple[C, float], ...]:
        """Each distinct card that a draw may give, with its exact probability, sorted by card.

        Draws from the discards (reshuffled) when the draw pile is empty; empty when both are.
        """
        pile = self.reshuffled() if not self.counts else self
        size = pile.size
        return tuple([(c, n / size) for c, n in pile.counts])

    def draw(self, card: C) -> Pile[C]:
        """The pile after drawing ``card`` (reshuffling the discards first if the draw pile is empty)."""
        pile = self.reshuffled() if not self.counts else self
        counts = pile.counts
        try:  # the counts are sorted by card, each card once: a binary search finds it
            i = bisect_left(counts, (card,))
        except TypeError:  # a card of another type than the pile's is not in it
            i = len(counts)
        if i == len(counts) or counts[i][0] != card:
            raise ValueError(f"pile: no {card!r} to draw")
        c, n = counts[i]
        left = counts[:i] + counts[i + 1 :] if n == 1 else (*counts[:i], (c, n - 1), *counts[i + 1 :])
        return replace(pile, counts=left)  # still sorted, each count positive: no check to rerun

    def add(self, card: C, copies: int = 1) -> Pile[C]:
        """The pile with ``copies`` of ``card`` shuffled into the draw pile."""
        return replace(self, counts=_pack([*self.cards(), *([card] * copies)]))

    def discard(self, card: C) -> Pile[C]:
        """The pile with ``card`` put on the discard pile."""
        return replace(self, discards=(*self.discards, card))

    def reshuffled(self) -> Pile[C]:
        """The discards shuffled back into the draw pile."""
        if not self.discards:
            return self
        return Pile(_pack([*self.cards(), *self.discards]), ())
