"""Rebel card kinds: names, suits and values."""

from __future__ import annotations

import pytest

from unrest.rules.cards import DECK, MISDIRECTION, NUMBERED, SUITS, card_name, parse_card, suit_of, value_of


def test_cards_names_round_trip_for_every_kind() -> None:
    for kind in (*NUMBERED, MISDIRECTION):
        assert parse_card(card_name(kind)) == kind
    assert parse_card(" 5d ") == parse_card("5D")


def test_cards_four_suits_valued_2_to_6_and_misdirection_without_either() -> None:
    assert SUITS == ("Intelligence", "Upheaval", "Disruption", "Supplies")
    assert sorted((suit_of(k), value_of(k)) for k in NUMBERED) == [(s, v) for s in range(4) for v in range(2, 7)]
    assert suit_of(MISDIRECTION) == -1 and value_of(MISDIRECTION) == 0
    assert DECK[MISDIRECTION] == 4 and sum(DECK) == 24


def test_cards_unknown_name_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="no card named"):
        parse_card("7I")
