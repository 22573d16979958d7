"""Mission cards as objects: ``is_met(stack)`` says whether a District's stack completes the Mission, and
``is_proven(stack, shown)`` whether the cards face up (plus those revealed in a proof) prove it to the Empire.

A stack is a sequence of :class:`~unrest.state.StackCard`. Misdirection cards have no suit and no value and
count toward no Mission. "Face up" for Political Surge means face up *before* any proof (a card revealed in a
proof does not count; see ``docs/rules/unrest.md``).

>>> from unrest.state import StackCard
>>> from unrest.rules.cards import parse_card
>>> cards = (("3I", False), ("2I", True), ("5D", False))
>>> stack = [StackCard(parse_card(name), revealed, 1) for name, revealed in cards]
>>> ESPIONAGE.is_met(stack), COUP.is_met(stack)
(True, False)
>>> ESPIONAGE.is_proven(stack, frozenset({0, 2}))
True
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Sequence
from typing import ClassVar

import attrs

from tabletop_core.errors import ContentError
from unrest.content import CONTENT, FILE
from unrest.rules.cards import DISRUPTION, INTELLIGENCE, MISDIRECTION, SUPPLIES, UPHEAVAL, kinds_of, suit_of, value_of
from unrest.state import StackCard

__all__ = [
    "CIVIL_DISOBEDIENCE",
    "COORDINATED_PLOT",
    "COUP",
    "ENERGIZED_PRESS",
    "ESPIONAGE",
    "FORTIFIED_ORGANIZERS",
    "KEYS",
    "MISSIONS",
    "POLITICAL_SURGE",
    "REVOLUTION",
    "REVOLUTION_CAPITOL",
    "SLEEPER_CELL",
    "Mission",
    "Tally",
]

_SUIT = tuple(suit_of(k) for k in range(MISDIRECTION + 1))
_VALUE = tuple(value_of(k) for k in range(MISDIRECTION + 1))


class Tally:
    """Totals of a set of cards: per-suit sums and counts, per-value counts and face-up-before-proof suit
    counts.

    Attributes:
        sums: total value per suit.
        counts: number of cards per suit.
        values: number of cards per value (index ``value - 2``).
        up: number of cards per suit that were face up before any proof.
        kinds: the numbered card kinds counted.
    """

    __slots__ = ("counts", "kinds", "sums", "up", "values")

    def __init__(self, cards: Sequence[StackCard], only: Collection[int] | None = None) -> None:
        sums = [0, 0, 0, 0]
        counts = [0, 0, 0, 0]
        values = [0, 0, 0, 0, 0]
        up = [0, 0, 0, 0]
        kinds = []
        for i, c in enumerate(cards):
            k = c.card
            if k == MISDIRECTION:
                continue
            s = _SUIT[k]
            if c.revealed and not c.proved:
                up[s] += 1
            if only is not None and i not in only:
                continue
            v = _VALUE[k]
            sums[s] += v
            counts[s] += 1
            values[v - 2] += 1
            kinds.append(k)
        self.sums, self.counts, self.values, self.up, self.kinds = sums, counts, values, up, kinds

    def total(self) -> int:
        """The sum of all values."""
        return sum(self.sums)


@attrs.frozen
class Mission(abc.ABC):
    """A Mission card's condition.

    Subclasses implement :meth:`holds` on a :class:`Tally`; missions whose condition an extra card can break
    (non-monotone ones) also override :meth:`certain`.
    """

    key: ClassVar[str]

    @abc.abstractmethod
    def holds(self, t: Tally) -> bool:
        """Whether cards with totals ``t`` meet the condition."""

    def is_met(self, stack: Sequence[StackCard]) -> bool:
        """Whether the stack (all its cards, hidden or not) completes this Mission."""
        return self.holds(Tally(stack))

    def certain(self, t: Tally, hidden: int) -> bool:
        """Whether the condition holds whatever the ``hidden`` unseen cards are, given the seen cards ``t``.

        The default serves monotone conditions, which no extra card can break.
        """
        return self.holds(t)

    def is_proven(self, stack: Sequence[StackCard], shown: Collection[int]) -> bool:
        """Whether the stack's face-up cards plus the cards at indices ``shown`` prove this Mission.

        A proof must convince the Empire: the condition must hold whatever the still-hidden cards of the stack
        are (each may be any Rebel card not seen in the stack).
        """
        seen = {i for i, c in enumerate(stack) if c.revealed or i in shown}
        return self.certain(Tally(stack, seen), len(stack) - len(seen))


def _worst(t: Tally, suit: int, hidden: int) -> int:
    """The most that ``hidden`` unseen cards could add to ``suit``'s total (distinct cards not already
    seen)."""
    seen = {k for k in t.kinds if _SUIT[k] == suit}
    free = sorted((_VALUE[k] for k in kinds_of(suit) if k not in seen), reverse=True)
    return sum(free[:hidden])


@attrs.frozen
class Revolution(Mission):
    """Revolution: "The stack of cards must have a total sum of 21 or more" (25 in the Capitol variant's
    Capitol)."""

    key: ClassVar[str] = "revolution"
    target: int = 21

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.total() >= self.target


@attrs.frozen
class PoliticalSurge(Mission):
    """Political Surge: "The stack must include 3 or more revealed cards of any one suit".

    Counts only cards face up before the proof, so its proof reveals nothing.
    """

    key: ClassVar[str] = "political_surge"
    #: "3 or more revealed cards of any one suit".
    count: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return max(t.up) >= self.count


@attrs.frozen
class FortifiedOrganizers(Mission):
    """Fortified Organizers: Disruption total above the Supplies total, and the Supplies total more than 3."""

    key: ClassVar[str] = "fortified_organizers"
    #: "the total sum of Supplies cards must be more than 3".
    above: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[DISRUPTION] > t.sums[SUPPLIES] > self.above

    def certain(self, t: Tally, hidden: int) -> bool:
        """Whether the seen cards prove it against any unseen ones (see :meth:`Mission.certain`)."""
        return t.sums[SUPPLIES] > self.above and t.sums[DISRUPTION] > t.sums[SUPPLIES] + _worst(t, SUPPLIES, hidden)


@attrs.frozen
class Coup(Mission):
    """Coup: at least one card of each suit (Intelligence, Disruption, Upheaval and Supplies)."""

    key: ClassVar[str] = "coup"

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return min(t.counts) >= 1


@attrs.frozen
class CoordinatedPlot(Mission):
    """Coordinated Plot: three or more cards of one value."""

    key: ClassVar[str] = "coordinated_plot"
    #: "three or more cards of one value".
    count: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return max(t.values) >= self.count


@attrs.frozen
class SleeperCell(Mission):
    """Sleeper Cell: a run of four or more consecutive values, any suits; 6 and 2 are not consecutive."""

    key: ClassVar[str] = "sleeper_cell"
    #: "a run of four or more consecutive value cards".
    run: ClassVar[int] = 4

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        v = t.values
        n = self.run
        return any(all(v[i : i + n]) for i in range(len(v) - n + 1))


@attrs.frozen
class Espionage(Mission):
    """Espionage: Intelligence total 4 or more and Disruption total 4 or more."""

    key: ClassVar[str] = "espionage"
    #: "Intel value is 4 or more and the total Disruption value is 4 or more".
    least: ClassVar[int] = 4

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[INTELLIGENCE] >= self.least and t.sums[DISRUPTION] >= self.least


@attrs.frozen
class EnergizedPress(Mission):
    """Energized Press: Intelligence total more than the Upheaval total, and the Upheaval total 3 or more."""

    key: ClassVar[str] = "energized_press"
    #: "the Upheaval value is 3 or more".
    least: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[INTELLIGENCE] > t.sums[UPHEAVAL] >= self.least

    def certain(self, t: Tally, hidden: int) -> bool:
        """Whether the seen cards prove it against any unseen ones (see :meth:`Mission.certain`)."""
        return t.sums[UPHEAVAL] >= self.least and t.sums[INTELLIGENCE] > t.sums[UPHEAVAL] + _worst(t, UPHEAVAL, hidden)


@attrs.frozen
class CivilDisobedience(Mission):
    """Civil Disobedience: Upheaval total 8 or more and no Disruption card."""

    key: ClassVar[str] = "civil_disobedience"
    #: "Upheaval value is 8 or more".
    least: ClassVar[int] = 8

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[UPHEAVAL] >= self.least and t.counts[DISRUPTION] == 0

    def certain(self, t: Tally, hidden: int) -> bool:
        # Any unseen card might be a Disruption card.
        """Whether the seen cards prove it against any unseen ones (see :meth:`Mission.certain`)."""
        return hidden == 0 and self.holds(t)


REVOLUTION = Revolution()
REVOLUTION_CAPITOL = Revolution(25)
POLITICAL_SURGE = PoliticalSurge()
FORTIFIED_ORGANIZERS = FortifiedOrganizers()
COUP = Coup()
COORDINATED_PLOT = CoordinatedPlot()
SLEEPER_CELL = SleeperCell()
ESPIONAGE = Espionage()
ENERGIZED_PRESS = EnergizedPress()
CIVIL_DISOBEDIENCE = CivilDisobedience()

_BY_KEY: dict[str, Mission] = {
    m.key: m
    for m in (
        REVOLUTION,
        POLITICAL_SURGE,
        FORTIFIED_ORGANIZERS,
        COUP,
        COORDINATED_PLOT,
        SLEEPER_CELL,
        ESPIONAGE,
        ENERGIZED_PRESS,
        CIVIL_DISOBEDIENCE,
    )
}
#: The condition keys the code implements (content entries must use one).
KEYS = tuple(_BY_KEY)


def _by_content() -> tuple[Mission, ...]:
    for m in CONTENT.missions:
        if m.key not in _BY_KEY:
            raise ContentError(FILE, f"mission[{m.id}]", "key", f"unknown condition {m.key!r} (known: {KEYS})")
    return tuple(_BY_KEY[m.key] for m in CONTENT.missions)


#: Missions by id (the content's order; id 0 is the Revolution).
MISSIONS: tuple[Mission, ...] = _by_content()
