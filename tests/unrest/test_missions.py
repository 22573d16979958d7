"""Every Mission of the rulebook's reference, at each boundary of its condition, and its proofs."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from tests.unrest.helpers import cards, stack
from unrest.rules.cards import DECK
from unrest.rules.liberation import minimal_proofs
from unrest.rules.missions import (
    CIVIL_DISOBEDIENCE,
    COORDINATED_PLOT,
    COUP,
    ENERGIZED_PRESS,
    ESPIONAGE,
    FORTIFIED_ORGANIZERS,
    KEYS,
    MISSIONS,
    POLITICAL_SURGE,
    REVOLUTION,
    REVOLUTION_CAPITOL,
    SLEEPER_CELL,
    Mission,
    Tally,
    unseen_pool,
)
from unrest.state import StackCard


def met(mission: Mission, text: str) -> bool:
    return mission.is_met(stack(text))


def test_nine_missions_of_the_reference_in_content_order() -> None:
    assert [m.key for m in MISSIONS] == list(KEYS)
    assert len(MISSIONS) == 9 and MISSIONS[0] is REVOLUTION


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("6I 6U 6D 3S", True),  # 21
        ("6I 6U 6D 2S", False),  # 20
        ("6I 6U 6D 2S M M", False),  # Misdirection adds nothing
        ("(6I) (6U) (6D) (3S)", True),  # hidden cards count toward the truth
    ],
)
def test_revolution_total_21_or_more(text: str, expected: bool) -> None:
    assert met(REVOLUTION, text) is expected


def test_revolution_in_the_capitol_needs_25() -> None:
    assert met(REVOLUTION_CAPITOL, "6I 6U 6D 5S 2I")  # 25
    assert not met(REVOLUTION_CAPITOL, "6I 6U 6D 4S 2I")  # 24


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2I 3I 4I", True),  # the rulebook's example
        ("2I 3I (4I)", False),  # a hidden card is not revealed
        ("2I 3I 4U", False),
        ("2I 3I 4I 5I", True),
        ("2U 3D 4S 5I", False),
    ],
)
def test_political_surge_three_revealed_of_one_suit(text: str, expected: bool) -> None:
    assert met(POLITICAL_SURGE, text) is expected


def test_political_surge_counts_only_cards_face_up_before_the_proof() -> None:
    cards = list(stack("2I 3I (4I)"))
    cards[2] = cards[2].__class__(cards[2].card, True, 1, proved=True)
    assert not POLITICAL_SURGE.is_met(cards)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4D 5D 5S", True),  # the rulebook's second example: 9 > 5 > 3
        ("6D 3S", False),  # the rulebook's first example breaks its own rule: Supplies 3 is not more than 3
        ("6D 4S", True),  # Supplies 4 > 3 and Disruption 6 > 4
        ("5D 5S", False),  # equal totals: not higher
        ("6D 5S", True),
        ("6D 2S 2S", True),  # two cards totalling 4 (an impossible stack, but the sums decide)
        ("6D", False),  # no Supplies
    ],
)
def test_fortified_organizers_strict_inequalities(text: str, expected: bool) -> None:
    assert met(FORTIFIED_ORGANIZERS, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2I 2U 2D 2S", True), ("2I 2U 2D 3D", False), ("(2I) 2U 2D 2S M", True), ("2I 2U 2D M", False)],
)
def test_coup_one_card_of_each_suit(text: str, expected: bool) -> None:
    assert met(COUP, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("5I 5S 5U", True), ("5I 5S 4U", False), ("5I 5S", False), ("2I 2U 2D 2S", True), ("5I 5S M M", False)],
)
def test_coordinated_plot_three_of_a_value(text: str, expected: bool) -> None:
    assert met(COORDINATED_PLOT, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3S 4S 5I 6U", True),  # the rulebook's example
        ("2S 3S 4I 5U", True),
        ("2S 3S 4I 6U", False),  # 2-3-4, then a gap
        ("6S 2S 3I 4U", False),  # 6 and 2 are not consecutive
        ("5S 6S 2I 3U", False),
        ("3S 4S 5I", False),  # a run of three
        ("2S 3S 4I 5U 6D", True),
    ],
)
def test_sleeper_cell_run_of_four_no_wrap(text: str, expected: bool) -> None:
    assert met(SLEEPER_CELL, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("4I 4D", True), ("3I 4D", False), ("4I 3D", False), ("2I 2I 2D 2D", True), ("2I 3I 5D", True)],
)
def test_espionage_intel_and_disruption_4_or_more(text: str, expected: bool) -> None:
    assert met(ESPIONAGE, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4I 3U", True),
        ("3I 3U", False),
        ("3I 2U", False),
        ("5I 2U 3U", False),
        ("6I 2U 3U", True),
        ("6I 5U", True),
        ("6I 6U", False),
    ],
)
def test_energized_press_intel_above_upheaval_and_upheaval_3_or_more(text: str, expected: bool) -> None:
    assert met(ENERGIZED_PRESS, text) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2U 6U", True), ("3U 4U", False), ("2U 6U 2D", False), ("2U 6U (2D)", False), ("2U 6U M 5S", True)],
)
def test_civil_disobedience_upheaval_8_and_no_disruption(text: str, expected: bool) -> None:
    assert met(CIVIL_DISOBEDIENCE, text) is expected


def test_misdirection_counts_toward_no_mission() -> None:
    only_m = stack("M M M M")
    assert not any(m.is_met(only_m) for m in (*MISSIONS, REVOLUTION_CAPITOL))


# ----- proofs
# ---------------------------------------------------------------------------------------------------


def test_proof_of_a_monotone_mission_reveals_a_minimal_set() -> None:
    # Espionage: 2I revealed; hidden 3I, 5D, M. Both the 3I and the 5D are needed; the Misdirection never is.
    s = stack("2I (3I) (5D) (M)")
    assert minimal_proofs(s, (ESPIONAGE,)) == ((1, 2),)


def test_proof_needs_nothing_when_revealed_cards_already_prove() -> None:
    assert minimal_proofs(stack("4I 4D (M)"), (ESPIONAGE,)) == ((),)


def test_several_minimal_proofs_of_the_revolution() -> None:
    s = stack("(6I) (6U) (6D) (3S) (4S)")
    proofs = minimal_proofs(s, (REVOLUTION,))
    # Any four cards reaching 21: {6,6,6,3} and {6,6,6,4}; {6,6,3,4}=19 fails.
    assert proofs == ((0, 1, 2, 3), (0, 1, 2, 4))


def test_non_monotone_proof_must_rule_out_the_hidden_cards() -> None:
    # Civil Disobedience: any hidden card might be a Disruption, so every hidden card is revealed.
    assert minimal_proofs(stack("(2U) (6U) (M)"), (CIVIL_DISOBEDIENCE,)) == ((0, 1, 2),)
    # Fortified Organizers with a wide margin: the hidden Misdirection may stay hidden (the most it could add
    # to Supplies is 6, and 5+6+... stays below 20).
    s = stack("2D 3D 4D 5D 6D 4S (M)")
    assert minimal_proofs(s, (FORTIFIED_ORGANIZERS,)) == ((),)
    # With a narrow margin it must be shown.
    assert minimal_proofs(stack("6D 4S (M)"), (FORTIFIED_ORGANIZERS,)) == ((2,),)
    # Energized Press likewise: a hidden card might be more Upheaval.
    assert minimal_proofs(stack("6I 3U (M)"), (ENERGIZED_PRESS,)) == ((2,),)


def test_proof_over_several_missions_keeps_only_minimal_sets() -> None:
    s = stack("(4I) (4D) (4U) (4S)")
    proofs = minimal_proofs(s, (ESPIONAGE, COUP, COORDINATED_PLOT))
    # Espionage needs {4I, 4D}; Coordinated Plot any three 4s; Coup all four (a superset of Espionage's).
    assert (0, 1) in proofs
    assert (0, 2, 3) in proofs and (1, 2, 3) in proofs
    assert (0, 1, 2, 3) not in proofs and (0, 1, 2) not in proofs


def test_unmet_missions_have_no_proof() -> None:
    assert minimal_proofs(stack("(2I) (3D)"), (ESPIONAGE, REVOLUTION)) == ()


# ----- proofs against everything the Empire has seen ----------------------------------------------------------------


def test_minimal_proofs_use_the_cards_seen_outside_the_stack() -> None:
    # "they do not have to reveal more cards than necessary": with the 6S seen elsewhere the hidden card of
    # 6D 4D 4S (2S) adds at most 5 Supplies, and 4 + 5 < 10 already.
    s = stack("6D 4D 4S (2S)")
    assert minimal_proofs(s, (FORTIFIED_ORGANIZERS,)) == ((3,),)
    assert minimal_proofs(s, (FORTIFIED_ORGANIZERS,), cards("6S")) == ((),)
    # Civil Disobedience: with all five Disruption cards seen, no hidden card can be one.
    s = stack("6U 2U (M) (3I)")
    assert minimal_proofs(s, (CIVIL_DISOBEDIENCE,)) == ((2, 3),)
    assert minimal_proofs(s, (CIVIL_DISOBEDIENCE,), cards("2D 3D 4D 5D 6D")) == ((),)
    # The known deck: four Misdirection cards in all, so of five hidden cards one has a value (19 + 2 >= 21).
    s = stack("6I 6U 5D 2S (M) (M) (M) (M) (3S)")
    assert minimal_proofs(s, (REVOLUTION,)) == ((),)


def _worlds(pool: list[int], hidden: int) -> set[tuple[int, ...]]:
    physical = [k for k, n in enumerate(pool) for _ in range(n)]
    return {tuple(sorted(h)) for h in combinations(physical, hidden)}


@pytest.mark.parametrize(
    "mission", [*MISSIONS, REVOLUTION_CAPITOL], ids=lambda m: f"{m.key}-{getattr(m, 'target', '')}"
)
def test_certain_is_exactly_every_world_the_empire_allows(mission: Mission) -> None:
    """A Mission is proven exactly when it holds for every choice of the hidden cards among the cards the Empire has
    not seen face up (checked against all those choices on random stacks and random cards seen elsewhere)."""
    rng = np.random.default_rng(13)
    for _ in range(400):
        physical = [k for k, n in enumerate(DECK) for _ in range(n)]
        order = rng.permutation(len(physical))
        size, hidden, elsewhere = int(rng.integers(1, 7)), int(rng.integers(0, 4)), int(rng.integers(0, 14))
        seen = [StackCard(physical[i], True, 1) for i in order[:size]]
        rest = [physical[i] for i in order[size : size + elsewhere]]
        pool = unseen_pool([*rest, *(c.card for c in seen)])
        if sum(pool) < hidden:
            continue
        everywhere = all(mission.is_met([*seen, *(StackCard(k, False, 1) for k in h)]) for h in _worlds(pool, hidden))
        assert mission.certain(Tally(seen), hidden, pool) == everywhere, (seen, rest, hidden)
