"""Components: dice, two-sided tokens and casts, piles, bounded tracks."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop_core.components import D6, Cast, Die, Pile, Track, TwoSidedToken
from tabletop_core.errors import InsufficientError


def test_d6_has_six_equally_likely_results() -> None:
    assert D6.outcomes() == tuple((f, 1 / 6) for f in range(1, 7))


def test_die_with_repeated_faces_merges_them_with_exact_probabilities() -> None:
    die = Die((1, 1, 2, 6, 6, 6))
    assert die.outcomes() == ((1, 2 / 6), (2, 1 / 6), (6, 3 / 6))


def test_die_needs_faces() -> None:
    with pytest.raises(ValueError, match="at least one face"):
        Die(())


@given(st.integers(1, 6), st.integers(-20, 20))
def test_modified_results_stay_within_one_to_six(result: int, delta: int) -> None:
    modified = D6.modify(result, delta)
    assert 1 <= modified <= 6
    if 1 <= result + delta <= 6:
        assert modified == result + delta


def test_token_faces_and_flip() -> None:
    token = TwoSidedToken("W3", "skull", "surge")
    assert (token.face(0), token.face(1)) == ("skull", "surge")
    assert token.other_side(0) == 1 and token.other_side(1) == 0
    assert token.cast_outcomes() == ((0, 0.5), (1, 0.5))
    with pytest.raises(ValueError):
        token.face(2)


def test_cast_lands_one_token_per_chance_node_in_order() -> None:
    tokens = (TwoSidedToken("a", 1, 2), TwoSidedToken("b", 3, 4), TwoSidedToken("c", 5, 6))
    cast = Cast.start(tokens)
    assert not cast.done and cast.next_token == 0
    cast = cast.land(1)
    assert cast.next_token == 1 and cast.sides == (1, None, None)
    with pytest.raises(ValueError, match="not every token"):
        cast.faces()
    cast = cast.land(0).land(1)
    assert cast.done and cast.faces() == (2, 3, 6)
    with pytest.raises(ValueError, match="every token has landed"):
        cast.land(0)


def test_pile_draw_is_a_distribution_over_remaining_cards() -> None:
    pile = Pile.of(["b", "a", "b", "c"])
    assert pile.draw_outcomes() == (("a", 0.25), ("b", 0.5), ("c", 0.25))
    after = pile.draw("b")
    assert after.draw_outcomes() == (("a", 1 / 3), ("b", 1 / 3), ("c", 1 / 3))
    with pytest.raises(ValueError, match="no 'z'"):
        pile.draw("z")


def test_pile_reshuffles_the_discards_when_empty() -> None:
    pile = Pile.of([1]).draw(1).discard(1).discard(2)
    assert pile.size == 0 and pile.can_draw
    assert pile.draw_outcomes() == ((1, 0.5), (2, 0.5))
    drawn = pile.draw(2)
    assert drawn.cards() == (1,) and drawn.discards == ()


def test_empty_pile_has_no_outcomes() -> None:
    pile = Pile.of([1]).draw(1)
    assert not pile.can_draw and pile.draw_outcomes() == ()


def test_pile_rejects_unsorted_or_nonpositive_counts() -> None:
    with pytest.raises(ValueError):
        Pile((("b", 1), ("a", 1)))
    with pytest.raises(ValueError):
        Pile((("a", 0),))


@given(st.lists(st.integers(0, 5), max_size=12), st.lists(st.integers(0, 60), max_size=30))
def test_a_pile_never_loses_or_invents_a_card(cards: list[int], choices: list[int]) -> None:
    """Drawing, discarding and reshuffling conserve the multiset of cards (drawn cards are tracked in hand)."""
    pile = Pile.of(cards)
    hand: list[int] = []
    for choice in choices:
        if choice % 3 == 0 and hand:
            pile = pile.discard(hand.pop(choice % len(hand)))
        elif pile.can_draw:
            outcomes = pile.draw_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            card = outcomes[choice % len(outcomes)][0]
            pile = pile.draw(card)
            hand.append(card)
        assert sorted([*pile.cards(), *pile.discards, *hand]) == sorted(cards)


def test_track_gain_past_cap_is_lost() -> None:
    track = Track("food", 4, high=5)
    assert track.gain(3).value == 5
    assert track.overflow(3) == 2


def test_track_spend_below_floor_is_refused_and_changes_nothing() -> None:
    track = Track("effort", 2, high=20)
    with pytest.raises(InsufficientError, match="cannot spend 3 from 2"):
        track.spend(3)
    assert track.value == 2 and track.can_spend(2) and not track.can_spend(3)
    assert track.spend(2).value == 0


def test_track_lose_stops_at_floor_and_reports_shortfall() -> None:
    track = Track("effort", 2, high=20)
    assert track.lose(5).value == 0 and track.shortfall(5) == 3


def test_track_rejects_values_outside_bounds() -> None:
    with pytest.raises(ValueError, match="outside"):
        Track("x", 7, high=5)


@given(st.integers(0, 10), st.lists(st.tuples(st.sampled_from(["gain", "spend", "lose", "set"]), st.integers(0, 15))))
def test_a_track_never_leaves_its_bounds(start: int, ops: list[tuple[str, int]]) -> None:
    track = Track("t", start, low=0, high=10)
    for op, n in ops:
        if op == "spend":
            if track.can_spend(n):
                track = track.spend(n)
            else:
                with pytest.raises(InsufficientError):
                    track.spend(n)
        elif op == "set":
            track = track.set(n - 3)
        else:
            track = getattr(track, op)(n)
        assert 0 <= track.value <= 10
