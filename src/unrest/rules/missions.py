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
import functools
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, ClassVar

import attrs

from tabletop_core.errors import ContentError
from unrest.content import CONTENT, FILE
from unrest.rules.cards import (
    DECK,
    DECK_SIZE,
    DISRUPTION,
    INTELLIGENCE,
    MISDIRECTION,
    SUPPLIES,
    UPHEAVAL,
    VALUES,
    CardKind,
    suit_of,
    value_of,
)
from unrest.state import CAPITOL, StackCard

if TYPE_CHECKING:
    from unrest.state import UnrestState

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
    "missions_for",
    "stack_unseen",
    "unseen_pool",
]

_SUIT = tuple(suit_of(k) for k in range(MISDIRECTION + 1))
_VALUE = tuple(value_of(k) for k in range(MISDIRECTION + 1))
#: A numbered kind's suit and value, in one lookup.
_SUIT_VALUE = tuple(zip(_SUIT, _VALUE, strict=True))
#: Kinds per suit: a suit's kinds are consecutive, lowest value first (``kinds_of``).
_PER_SUIT = len(VALUES)


_new_tally = object.__new__


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
        if only is None:  # every card counted: no index kept
            for c in cards:
                k = c.card
                if k != MISDIRECTION:
                    s, v = _SUIT_VALUE[k]
                    if c.revealed and not c.proved:
                        up[s] += 1
                    sums[s] += v
                    counts[s] += 1
                    values[v - 2] += 1
                    kinds.append(k)
            self.sums, self.counts, self.values, self.up, self.kinds = sums, counts, values, up, kinds
            return
        for i, c in enumerate(cards):
            k = c.card
            if k == MISDIRECTION:
                continue
            s = _SUIT[k]
            if c.revealed and not c.proved:
                up[s] += 1
            if i not in only:
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

    def plus(self, cards: Iterable[CardKind]) -> Tally:
        """These totals with ``cards`` (kinds of hidden cards of the same stack, now shown) counted too: the tally
        of the same stack with their indices added to ``only`` (``up`` is the stack's, whatever is counted)."""
        t = _new_tally(Tally)
        sums, counts, values = self.sums.copy(), self.counts.copy(), self.values.copy()
        kinds = self.kinds.copy()
        for k in cards:
            if k != MISDIRECTION:
                s, v = _SUIT_VALUE[k]
                sums[s] += v
                counts[s] += 1
                values[v - 2] += 1
                kinds.append(k)
        t.sums, t.counts, t.values, t.up, t.kinds = sums, counts, values, self.up, kinds
        return t

    def plus1(self, k: CardKind) -> Tally:
        """``self.plus((k,))``, for the one card a search adds at each step (no loop, and a Misdirection shares
        this tally's lists, which no tally changes once made)."""
        if k == MISDIRECTION:
            return self
        t = _new_tally(Tally)
        s, v = _SUIT_VALUE[k]
        sums, counts, values = self.sums.copy(), self.counts.copy(), self.values.copy()
        sums[s] += v
        counts[s] += 1
        values[v - 2] += 1
        t.sums, t.counts, t.values, t.up, t.kinds = sums, counts, values, self.up, [*self.kinds, k]
        return t


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

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Whether the condition holds whatever the ``hidden`` unseen cards are, given the seen cards ``t``.

        Args:
            t: the totals of the stack's seen cards (``up`` counts every card face up before the proof).
            hidden: how many of the stack's cards are still face down.
            pool: copies per card kind of what a hidden card may be: the deck less every card face up anywhere.

        The default serves conditions that only count cards face up before the proof (Political Surge).
        """
        return self.holds(t)

    def is_proven(self, stack: Sequence[StackCard], shown: Collection[int], outside: Iterable[int] = ()) -> bool:
        """Whether the stack's face-up cards plus the cards at indices ``shown`` prove this Mission.

        A proof must convince the Empire: the condition must hold whatever the still-hidden cards of the stack
        are, each being a card the Empire has not seen face up: not in the stack's seen cards and not among
        ``outside`` (the kinds face up elsewhere: other stacks, the destroyed cards, the plan).
        """
        seen = {i for i, c in enumerate(stack) if c.revealed or i in shown}
        pool = unseen_pool(outside)
        for i in seen:
            pool[stack[i].card] -= 1
        return self.certain(Tally(stack, seen), len(stack) - len(seen), pool)


def unseen_pool(outside: Iterable[int]) -> list[int]:
    """Copies per card kind of the deck of 24 less the kinds ``outside`` (the cards seen face up)."""
    pool = list(DECK)
    for k in outside:
        pool[k] -= 1
    return pool


def stack_unseen(stack: Sequence[StackCard], outside: Iterable[int] = ()) -> tuple[list[int], list[int]]:
    """What the hidden cards of ``stack`` may be against the cards seen face up alone: copies per kind of the deck
    less ``outside`` (the kinds face up elsewhere) and less the stack's own face-up cards, and the stack indices of
    its hidden cards, ascending.

    >>> from unrest.rules.cards import parse_card
    >>> pool, hidden = stack_unseen([StackCard(parse_card("3I"), True, 1), StackCard(parse_card("5D"), False, 1)])
    >>> pool[parse_card("3I")], pool[parse_card("5D")], hidden
    (0, 1, [1])
    """
    pool = unseen_pool(outside)
    hidden: list[int] = []
    for i, c in enumerate(stack):
        if c.revealed:
            pool[c.card] -= 1
        else:
            hidden.append(i)
    return pool, hidden


def _least(pool: Sequence[int], hidden: int, weight: tuple[int, ...], order: tuple[int, ...] | None = None) -> int:
    """The least total ``weight`` that ``hidden`` cards drawn from ``pool`` can have (the worst case): the lightest
    cards first, kind by kind (the kinds by weight, ``order``, are a table per weight vector: the Missions pass
    their own, found once, instead of the vector hashed at every call)."""
    if hidden <= 0:
        return 0
    if order is None:
        order = _LIGHTEST.get(weight)
        if order is None:
            order = _lightest(weight)
    total = 0
    for k in order:
        n = pool[k]
        if n > 0:
            if n >= hidden:
                return total + hidden * weight[k]
            total += n * weight[k]
            hidden -= n
    return total


def _lightest(weight: tuple[int, ...]) -> tuple[int, ...]:
    """The card kinds, lightest ``weight`` first."""
    return tuple(sorted(range(len(weight)), key=weight.__getitem__))


def _positive(part: Sequence[int]) -> int:
    """``sum(max(n, 0) for n in part)``: the pool's cards of these kinds (a pool never counts below 0 cards), by
    two C-level passes when no entry is below 0 (a pool of a real table)."""
    if min(part) >= 0:
        return sum(part)
    return sum(n for n in part if n > 0)


def _of_suit(pool: Sequence[int], suit: int) -> int:
    """The pool's cards of ``suit`` (``kinds_of(suit)``, consecutive kinds)."""
    return _positive(pool[suit * _PER_SUIT : (suit + 1) * _PER_SUIT])


def _of_value(pool: Sequence[int], index: int) -> int:
    """The pool's cards of the value at ``index`` (``_OF_VALUE[index]``: one kind per suit, ``_PER_SUIT`` apart)."""
    return _positive(pool[index:MISDIRECTION:_PER_SUIT])


#: By suit, each kind's value in that suit (0 for the other suits and Misdirection).
_IN_SUIT = tuple(tuple(_VALUE[k] if _SUIT[k] == s else 0 for k in range(MISDIRECTION + 1)) for s in range(4))
#: Each kind's value (0 for Misdirection).
_VALUES = _VALUE


def _margin(above: int, below: int) -> tuple[int, ...]:
    """Each kind's contribution to ``suit above`` total minus ``suit below`` total."""
    return tuple(a - b for a, b in zip(_IN_SUIT[above], _IN_SUIT[below], strict=True))


def _total(pool: Sequence[int]) -> int:
    return _positive(pool)


@attrs.frozen
class Revolution(Mission):
    """Revolution: "The stack of cards must have a total sum of 21 or more" (25 in the Capitol variant's
    Capitol)."""

    key: ClassVar[str] = "revolution"
    target: int = 21

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.total() >= self.target

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """The least the hidden cards can add still reaches the target."""
        return sum(t.sums) + _least(pool, hidden, _VALUES, _BY_VALUE) >= self.target


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

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Supplies stays above the bound and Disruption above Supplies, whatever the hidden cards add."""
        supplies = t.sums[SUPPLIES] + _least(pool, hidden, _IN_SUIT[SUPPLIES], _BY_SUIT[SUPPLIES])
        if supplies <= self.above:
            return False
        return t.sums[DISRUPTION] - t.sums[SUPPLIES] + _least(pool, hidden, _D_OVER_S, _BY_D_OVER_S) > 0


@attrs.frozen
class Coup(Mission):
    """Coup: at least one card of each suit (Intelligence, Disruption, Upheaval and Supplies)."""

    key: ClassVar[str] = "coup"

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return min(t.counts) >= 1

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Each suit not seen must be among the hidden cards: fewer cards of the pool lack it than are hidden."""
        counts = t.counts
        total = -1  # the pool's cards, counted once when first needed
        for s in range(4):
            if not counts[s]:
                if total < 0:
                    total = _total(pool)
                if total - _of_suit(pool, s) >= hidden:
                    return False
        return True


@attrs.frozen
class CoordinatedPlot(Mission):
    """Coordinated Plot: three or more cards of one value."""

    key: ClassVar[str] = "coordinated_plot"
    #: "three or more cards of one value".
    count: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return max(t.values) >= self.count

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """The hidden cards cannot all avoid a third card of a value: too few pool cards keep every value below."""
        values = t.values
        if max(values) >= self.count:  # it holds
            return True
        room = max(pool[MISDIRECTION], 0)
        for i, seen in enumerate(values):
            cap = self.count - 1 - seen  # a value's room, counted only where there is some
            if cap > 0:
                room += min(_of_value(pool, i), cap)
        return room < hidden


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
        for i in range(len(v) - n + 1):  # noqa: SIM110  # a loop: no generator per check
            if all(v[i : i + n]):
                return True
        return False

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Every way to break all runs (values kept absent) leaves too few pool cards for the hidden ones."""
        if self.holds(t):
            return True
        values = t.values
        total = -1  # the pool's cards, counted once when first needed
        # Only the least ways to break the runs: a larger set of absent values leaves no more pool cards.
        for absent in _LEAST_BREAKERS:
            kept = 0
            for i in absent:
                if values[i]:
                    break
                kept += _of_value(pool, i)
            else:
                if total < 0:
                    total = _total(pool)
                if total - kept >= hidden:
                    return False
        return True


@attrs.frozen
class Espionage(Mission):
    """Espionage: Intelligence total 4 or more and Disruption total 4 or more."""

    key: ClassVar[str] = "espionage"
    #: "Intel value is 4 or more and the total Disruption value is 4 or more".
    least: ClassVar[int] = 4

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[INTELLIGENCE] >= self.least and t.sums[DISRUPTION] >= self.least

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Both totals reach the bound with the least the hidden cards can add."""
        intel = t.sums[INTELLIGENCE] + _least(pool, hidden, _IN_SUIT[INTELLIGENCE], _BY_SUIT[INTELLIGENCE])
        if intel < self.least:
            return False
        return t.sums[DISRUPTION] + _least(pool, hidden, _IN_SUIT[DISRUPTION], _BY_SUIT[DISRUPTION]) >= self.least


@attrs.frozen
class EnergizedPress(Mission):
    """Energized Press: Intelligence total more than the Upheaval total, and the Upheaval total 3 or more."""

    key: ClassVar[str] = "energized_press"
    #: "the Upheaval value is 3 or more".
    least: ClassVar[int] = 3

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[INTELLIGENCE] > t.sums[UPHEAVAL] >= self.least

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """Upheaval reaches the bound and Intelligence stays above it, whatever the hidden cards add."""
        upheaval = t.sums[UPHEAVAL] + _least(pool, hidden, _IN_SUIT[UPHEAVAL], _BY_SUIT[UPHEAVAL])
        if upheaval < self.least:
            return False
        return t.sums[INTELLIGENCE] - t.sums[UPHEAVAL] + _least(pool, hidden, _I_OVER_U, _BY_I_OVER_U) > 0


@attrs.frozen
class CivilDisobedience(Mission):
    """Civil Disobedience: Upheaval total 8 or more and no Disruption card."""

    key: ClassVar[str] = "civil_disobedience"
    #: "Upheaval value is 8 or more".
    least: ClassVar[int] = 8

    def holds(self, t: Tally) -> bool:
        """Whether the totals meet this Mission."""
        return t.sums[UPHEAVAL] >= self.least and t.counts[DISRUPTION] == 0

    def certain(self, t: Tally, hidden: int, pool: Sequence[int]) -> bool:
        """No hidden card can be a Disruption card (none left unseen), and Upheaval reaches the bound."""
        if t.counts[DISRUPTION] or (hidden and _of_suit(pool, DISRUPTION)):
            return False
        return t.sums[UPHEAVAL] + _least(pool, hidden, _IN_SUIT[UPHEAVAL], _BY_SUIT[UPHEAVAL]) >= self.least


_D_OVER_S = _margin(DISRUPTION, SUPPLIES)
_I_OVER_U = _margin(INTELLIGENCE, UPHEAVAL)
#: By weight vector a Mission's worst case uses, the card kinds lightest first (see :func:`_least`).
_LIGHTEST: dict[tuple[int, ...], tuple[int, ...]] = {
    w: _lightest(w) for w in (_VALUES, *_IN_SUIT, _D_OVER_S, _I_OVER_U)
}
#: The kinds lightest first for each weight vector the Missions use (``_LIGHTEST`` of it).
_BY_VALUE = _LIGHTEST[_VALUES]
_BY_SUIT = tuple(_LIGHTEST[w] for w in _IN_SUIT)
_BY_D_OVER_S = _LIGHTEST[_D_OVER_S]
_BY_I_OVER_U = _LIGHTEST[_I_OVER_U]
#: By value index (``value - 2``), the numbered kinds of that value.
_OF_VALUE = tuple(tuple(k for k in range(MISDIRECTION) if _VALUE[k] == v) for v in VALUES)


def _breakers(n: int, run: int) -> tuple[tuple[int, ...], ...]:
    """Every set of value indices that meets each run of ``run`` consecutive values among ``n``."""
    windows = [set(range(i, i + run)) for i in range(n - run + 1)]
    return tuple(
        absent
        for size in range(1, n + 1)
        for absent in combinations(range(n), size)
        if all(w & set(absent) for w in windows)
    )


#: The ways to keep Sleeper Cell from any run: the sets of values that meet every run.
_BREAKERS = _breakers(len(VALUES), SleeperCell.run)
#: The least of them (no other is a subset of one): the only ones Sleeper Cell's worst case needs, since keeping a
#: superset of values absent leaves no more pool cards for the hidden ones.
_LEAST_BREAKERS = tuple(b for b in _BREAKERS if not any(set(c) < set(b) for c in _BREAKERS))

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


@functools.lru_cache(maxsize=1024)  # a pure function of content: the Missions dealt (at most 9 * 8 * 7 sets)
def _missions(missions: tuple[int, ...], capitol: bool) -> tuple[Mission, ...]:
    if capitol:
        return tuple(REVOLUTION_CAPITOL if m == 0 else MISSIONS[m] for m in missions)
    return tuple(MISSIONS[m] for m in missions)


def missions_for(state: UnrestState, district: int) -> tuple[Mission, ...]:
    """The Missions that apply to ``district`` (the Capitol's Revolution needs 25 in the Capitol variant)."""
    return _missions(state.missions, district == CAPITOL and state.options.variant == "capitol")


def _fewest() -> int:
    """The fewest cards a stack can meet any Mission with (face up, so that Political Surge counts them): no stack
    of fewer meets one, whatever its cards (searched over the deck's multisets at import)."""
    missions = (*MISSIONS, REVOLUTION_CAPITOL)
    for size in range(1, DECK_SIZE + 1):
        for kinds in combinations_with_replacement(range(len(DECK)), size):
            if any(kinds.count(k) > DECK[k] for k in set(kinds)):
                continue
            tally = Tally([StackCard(k, True, 1) for k in kinds])
            if any(m.holds(tally) for m in missions):
                return size
    return DECK_SIZE + 1


#: No stack with fewer cards meets a Mission (2 with the published Missions: 4I and 4D meet Espionage).
_FEWEST = _fewest()
