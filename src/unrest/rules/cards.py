"""Rebel cards: 20 numbered cards (four suits, values 2-6) and four identical Misdirection cards.

A card is identified by its *kind*, an ``int``: numbered cards are ``suit * 5 + (value - 2)`` (0-19) and every
Misdirection card is kind :data:`MISDIRECTION` (20). The four Misdirection cards share a kind because nothing
in the rules tells them apart.

>>> card_name(2 * 5 + 3), parse_card("5d"), card_name(MISDIRECTION)
('5D', 13, 'M')
>>> suit_of(parse_card("3S")), value_of(parse_card("3S"))
(3, 3)
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = [
    "DECK",
    "DECK_SIZE",
    "DISRUPTION",
    "INTELLIGENCE",
    "KINDS",
    "MISDIRECTION",
    "NUMBERED",
    "SUITS",
    "SUIT_LETTERS",
    "SUPPLIES",
    "UPHEAVAL",
    "VALUES",
    "CardKind",
    "Suit",
    "card_name",
    "kinds_of",
    "parse_card",
    "suit_of",
    "value_of",
]

#: A card kind: ``suit * 5 + (value - 2)`` for the numbered cards, :data:`MISDIRECTION` for the others.
CardKind: TypeAlias = int
#: A suit: :data:`INTELLIGENCE`, :data:`UPHEAVAL`, :data:`DISRUPTION` or :data:`SUPPLIES` (-1 for Misdirection).
Suit: TypeAlias = int

INTELLIGENCE, UPHEAVAL, DISRUPTION, SUPPLIES = 0, 1, 2, 3
#: Suit names, indexed by suit.
SUITS = ("Intelligence", "Upheaval", "Disruption", "Supplies")
SUIT_LETTERS = "IUDS"
VALUES = (2, 3, 4, 5, 6)
_PER_SUIT = len(VALUES)
#: Kinds of the 20 numbered cards.
NUMBERED: tuple[CardKind, ...] = tuple(range(len(SUITS) * _PER_SUIT))
#: The kind shared by the four Misdirection cards.
MISDIRECTION: CardKind = len(NUMBERED)
#: Number of distinct kinds.
KINDS = MISDIRECTION + 1
#: The Rebel deck as copies per kind ("cards valued 2-6 in four different suits ... as well as four
#: Misdirection cards": 24 cards).
DECK: tuple[int, ...] = (1,) * len(NUMBERED) + (4,)
#: Cards in the Rebel deck ("24 Rebel cards").
DECK_SIZE = sum(DECK)

_SUIT = (*(k // _PER_SUIT for k in NUMBERED), -1)
_VALUE = (*(VALUES[k % _PER_SUIT] for k in NUMBERED), 0)
_NAMES = (*(f"{VALUES[k % _PER_SUIT]}{SUIT_LETTERS[k // _PER_SUIT]}" for k in NUMBERED), "M")
_BY_NAME = {name: k for k, name in enumerate(_NAMES)}


def suit_of(kind: CardKind) -> Suit:
    """The suit of a card kind (``-1`` for Misdirection)."""
    return _SUIT[kind]


def value_of(kind: CardKind) -> int:
    """The value of a card kind (``0`` for Misdirection, which has no value)."""
    return _VALUE[kind]


def kinds_of(suit: Suit) -> range:
    """The numbered card kinds of ``suit``, lowest value first."""
    return range(suit * _PER_SUIT, (suit + 1) * _PER_SUIT)


def card_name(kind: CardKind) -> str:
    """A short name: value then suit letter (``5D``), or ``M`` for Misdirection."""
    return _NAMES[kind]


def parse_card(text: str) -> CardKind:
    """The kind named by ``text`` (as :func:`card_name` writes it; case-insensitive).

    Raises:
        ValueError: if ``text`` names no card.
    """
    try:
        return _BY_NAME[text.strip().upper()]
    except KeyError:
        raise ValueError(f"unrest: no card named {text!r} (cards are 2I..6S and M)") from None
