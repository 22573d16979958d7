"""Chance frames: a roll of the Slashes Die and a draw from a deck, as the core's ``Chance`` frames.

Every random event is a chance node with its exact outcome distribution: a die face is 1/6, a card drawn is an
outcome among the remaining cards ("If the deck ever runs out of cards, reshuffle the discard").
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from tabletop_core.components import Pile
from tabletop_core.flow import Chance
from unbroken.actions import Action, Die, DrawCard
from unbroken.limits import MAX_CHANCE
from unbroken.state import State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = ["DIE_FACES", "CardDraw", "DieRoll"]

DIE_FACES = (1, 2, 3, 4, 5, 6)
_DIE_OUTCOMES: tuple[tuple[Action, float], ...] = tuple((Die(f), 1 / len(DIE_FACES)) for f in DIE_FACES)
_CARDS = tuple(DrawCard(i) for i in range(MAX_CHANCE))
_COUNT = itemgetter(1)

#: A bounded memo of :func:`outcome_pairs`' pairs: by the pile's size, each ``(card, copies)`` entry of a pile's
#: counts with its outcome ``(DrawCard(card), copies / size)``. Every draw asks for the outcomes of a new pile (a
#: card fewer), but the pairs recur: made once, a listing is one lookup per card instead of a new pair and float.
_PAIRS: dict[int, dict[tuple[int, int], tuple[Action, float]]] = {}
_PAIRS_MAX = 16_384


def outcome_pairs(counts: tuple[tuple[int, int], ...], size: int) -> tuple[tuple[Action, float], ...]:
    """The draw's outcomes of a pile of ``counts`` (``size`` cards in all): each card with its exact probability,
    ``Pile.draw_outcomes`` as actions; the pairs are kept for the next listing (see :data:`_PAIRS`)."""
    if sum(map(len, _PAIRS.values())) + len(counts) > _PAIRS_MAX:
        _PAIRS.clear()
    pairs = _PAIRS.setdefault(size, {})
    cards = _CARDS
    out = []
    for entry in counts:
        pair = pairs.get(entry)
        if pair is None:
            c, n = entry
            pair = pairs[entry] = (cards[c], n / size)
        out.append(pair)
    return tuple(out)


class DieRoll(Chance[State, Action]):
    """A roll of the Slashes Die: each face 1/6; :meth:`face_up` says what the face does."""

    __slots__ = ()

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, float], ...]:
        """Each face with probability 1/6."""
        return _DIE_OUTCOMES

    def is_legal(self, state: State, action: object) -> bool:
        """Any face of the die."""
        return isinstance(action, Die)

    def apply(self, state: State, action: Action) -> State:
        """Pop the roll, then apply what the face does."""
        assert isinstance(action, Die)
        return self.face_up(state.pop(), action.face)

    def face_up(self, state: State, face: int) -> State:
        """The state once the die shows ``face`` (the roll already off the stack)."""
        raise NotImplementedError(type(self).__name__)


class CardDraw(Chance[State, Action]):
    """``n`` more cards to draw one at a time from a deck (:meth:`pile`); :meth:`drawn` records each card."""

    __slots__ = ()
    n: int

    def pile(self, state: State) -> Pile[int]:
        """The deck drawn from."""
        raise NotImplementedError(type(self).__name__)

    def drawn(self, state: State, frames: tuple[Frame, ...], pile: Pile[int], card: int) -> State:
        """``state`` with this frame replaced by ``frames`` (this draw's rest, if any: see
        :meth:`~unbroken.state.State.restack`), the deck now ``pile`` and ``card`` in hand, in one copy."""
        raise NotImplementedError(type(self).__name__)

    def less(self) -> Frame:
        """This frame with one card fewer to draw (every concrete draw is a kind of frame of the union)."""
        raise NotImplementedError(type(self).__name__)

    def auto(self, state: State) -> State | None:
        """Nothing more to draw (or nothing left in the deck and its discards): the draw ends."""
        return state.pop() if self.n <= 0 or not self.pile(state).can_draw else None

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, float], ...]:
        """Each distinct card left, with its exact probability (``Pile.draw_outcomes``, built in one pass)."""
        pile = self.pile(state)
        counts = pile.counts or pile.reshuffled().counts
        size = sum(map(_COUNT, counts))
        pairs = _PAIRS.get(size)
        if pairs is not None:
            try:
                return tuple(map(pairs.__getitem__, counts))  # every (card, copies) pair made before
            except KeyError:
                pass
        return outcome_pairs(counts, size)

    def is_legal(self, state: State, action: object) -> bool:
        """A card still in the deck (or, with the deck empty, in its discards), without listing them."""
        if not isinstance(action, DrawCard):
            return False
        pile = self.pile(state)
        if not pile.counts:
            return action.index in pile.discards
        return pile.count(action.index) > 0

    def apply(self, state: State, action: Action) -> State:
        """Draw the card; the frame stays for the cards still to draw."""
        assert isinstance(action, DrawCard)
        rest: tuple[Frame, ...] = () if self.n <= 1 else (self.less(),)
        return self.drawn(state, rest, self.pile(state).draw(action.index), action.index)
