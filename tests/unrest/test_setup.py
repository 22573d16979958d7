"""Setup as chance: the District row, the deck and opening hand, the tokens, the Missions."""

from __future__ import annotations

import math
from collections import Counter

import pytest

import unrest
from tabletop_core import CHANCE, OptionError
from tests.unrest.helpers import CAPITOL
from unrest.actions import DealMission, Draw, SetDistrict
from unrest.rules.cards import DECK, MISDIRECTION, suit_of, value_of


def test_setup_starts_as_a_chance_node_with_full_deck_and_tokens_face_up() -> None:
    state = unrest.new_game()
    assert unrest.current_player(state) == CHANCE
    assert sum(state.deck) == 24 and state.deck[MISDIRECTION] == 4
    numbered = [k for k in range(20) if state.deck[k]]
    assert sorted({suit_of(k) for k in numbered}) == [0, 1, 2, 3]
    assert sorted({value_of(k) for k in numbered}) == [2, 3, 4, 5, 6]
    assert state.tokens == (True, True, True, True)
    assert state.missions == (0,)


def test_setup_districts_in_a_random_row() -> None:
    state = unrest.new_game()
    outcomes = unrest.chance_outcomes(state)
    assert [a for a, _ in outcomes] == [SetDistrict(d) for d in range(5)]
    assert all(math.isclose(p, 0.2) for _, p in outcomes)
    state = unrest.step(state, SetDistrict(3))
    assert [a for a, _ in unrest.chance_outcomes(state)] == [SetDistrict(d) for d in (0, 1, 2, 4)]


def test_setup_rebel_deck_shuffled_and_opening_hand_of_five() -> None:
    state = unrest.new_game()
    for d in (4, 3, 2, 1, 0):
        state = unrest.step(state, SetDistrict(d))
    assert state.row == (4, 3, 2, 1, 0) and state.step == "hand"
    outcomes = dict(unrest.chance_outcomes(state))
    assert math.isclose(outcomes[Draw(MISDIRECTION)], 4 / 24) and math.isclose(outcomes[Draw(0)], 1 / 24)
    for k in (0, MISDIRECTION, MISDIRECTION, 7, 19):
        state = unrest.step(state, Draw(k))
    assert state.hand == (0, 7, 19, MISDIRECTION, MISDIRECTION) and sum(state.deck) == 19
    assert state.step == "missions"


def test_setup_revolution_plus_three_missions_from_the_other_eight() -> None:
    counts: Counter[int] = Counter()
    for seed in range(200):
        state = unrest.new_game(seed=seed)
        assert state.missions[0] == 0 and len(set(state.missions)) == 4
        counts.update(state.missions[1:])
    assert set(counts) == set(range(1, 9))
    state = unrest.new_game(seed=0)
    assert state.step == "target" and state.round == 1 and len(state.hand) == 5


def test_setup_missions_dealt_uniformly() -> None:
    state = unrest.new_game()
    for d in range(5):
        state = unrest.step(state, SetDistrict(d))
    for _ in range(5):
        state = unrest.step(state, unrest.legal_actions(state)[0])
    outcomes = unrest.chance_outcomes(state)
    assert [a for a, _ in outcomes] == [DealMission(m) for m in range(1, 9)]
    assert all(math.isclose(p, 1 / 8) for _, p in outcomes)
    state = unrest.step(state, DealMission(4))
    assert len(unrest.chance_outcomes(state)) == 7


def test_capitol_variant_puts_the_capitol_in_the_centre() -> None:
    for seed in range(20):
        state = unrest.new_game(seed=seed, variant="capitol")
        assert state.row[2] == CAPITOL
    state = unrest.new_game(variant="capitol")
    assert SetDistrict(CAPITOL) not in unrest.legal_actions(state)


def test_bad_variant_is_an_option_error() -> None:
    with pytest.raises(OptionError):
        unrest.new_game(variant="imperial")
    with pytest.raises(OptionError):
        unrest.new_game(colour="red")


def test_deck_composition_is_24_cards() -> None:
    assert sum(DECK) == 24
