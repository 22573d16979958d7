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

__all__ = [
    "DECK",
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
    "card_name",
    "parse_card",
    "suit_of",
    "value_of",
]

INTELLIGENCE, UPHEAVAL, DISRUPTION, SUPPLIES = 0, 1, 2, 3
#: Suit names, indexed by suit.
SUITS = ("Intelligence", "Upheaval", "Disruption", "Supplies")
SUIT_LETTERS = "IUDS"
VALUES = (2, 3, 4, 5, 6)
#: Kinds of the 20 numbered cards.
NUMBERED = tuple(range(20))
#: The kind shared by the four Misdirection cards.
MISDIRECTION = 20
#: Number of distinct kinds.
KINDS = 21
#: The Rebel deck as copies per kind ("cards valued 2-6 in four different suits ... as well as four
#: Misdirection cards": 24 cards).
DECK: tuple[int, ...] = (1,) * 20 + (4,)

_SUIT = (*(k // 5 for k in NUMBERED), -1)
_VALUE = (*(k % 5 + 2 for k in NUMBERED), 0)
_NAMES = (*(f"{k % 5 + 2}{SUIT_LETTERS[k // 5]}" for k in NUMBERED), "M")
_BY_NAME = {name: k for k, name in enumerate(_NAMES)}


def suit_of(kind: int) -> int:
    """The suit of a card kind (``-1`` for Misdirection)."""
    return _SUIT[kind]


def value_of(kind: int) -> int:
    """The value of a card kind (``0`` for Misdirection, which has no value)."""
    return _VALUE[kind]


def card_name(kind: int) -> str:
    """A short name: value then suit letter (``5D``), or ``M`` for Misdirection."""
    return _NAMES[kind]


def parse_card(text: str) -> int:
    """The kind named by ``text`` (as :func:`card_name` writes it; case-insensitive).

    Raises:
        ValueError: if ``text`` names no card.
    """
    try:
        return _BY_NAME[text.strip().upper()]
    except KeyError:
        raise ValueError(f"unrest: no card named {text!r} (cards are 2I..6S and M)") from None
