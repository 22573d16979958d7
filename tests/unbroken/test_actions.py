"""Action ids come from the declared action spaces and stay the ids records store."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tabletop_core.errors import IllegalActionError
from unbroken.actions import (
    CARD_OUTCOMES,
    DIE_OUTCOMES,
    NUM_ACTIONS,
    VERBS,
    Act,
    Action,
    Attack,
    Craft,
    Die,
    DrawCard,
    Eat,
    Pick,
    Respond,
    Use,
    action_id,
    decision_from_id,
)
from unbroken.limits import MAX_CHANCE, MAX_DECK, MAX_PICKS

#: The id layout records were made with (the bases once typed by hand): it must never move.
RECORDED: tuple[tuple[Callable[[int], Action], int, int], ...] = (
    (Act, 0, len(VERBS)),
    (Pick, 16, 16),
    (Craft, 32, 4),
    (Attack, 36, 8),
    (Use, 44, 32),
    (Respond, 76, 16),
)


def test_every_recorded_decision_id_round_trips() -> None:
    assert NUM_ACTIONS == 404
    seen: set[int] = set()
    for cls, base, n in RECORDED:
        for i in range(n):
            action = cls(i)
            assert action_id(action) == base + i
            assert decision_from_id(base + i) == action
            seen.add(base + i)
    for n in range(8):
        assert action_id(Eat(n)) == 92 + n and decision_from_id(92 + n) == Eat(n)
        seen.add(92 + n)
    assert seen == set(range(100)) - {13, 14, 15}


def test_picks_past_the_sixteenth_take_the_ids_after_every_recorded_one() -> None:
    # An Exploration may reveal the whole deck (at most MAX_DECK cards), one pick each: Pick(16) and on follow Eat.
    assert MAX_PICKS == MAX_DECK == NUM_ACTIONS - 100 + 16
    for i in (16, 17, MAX_PICKS - 1):
        assert action_id(Pick(i)) == 100 + i - 16 and decision_from_id(100 + i - 16) == Pick(i)
    assert {action_id(Pick(i)) for i in range(MAX_PICKS)} == set(range(16, 32)) | set(range(100, NUM_ACTIONS))
    with pytest.raises(ValueError):
        Pick(MAX_PICKS)


def test_chance_outcome_ids() -> None:
    for face in range(1, 7):
        assert action_id(Die(face)) == face - 1 and DIE_OUTCOMES.from_id(face - 1) == Die(face)
    for index in (0, 1, MAX_CHANCE - 1):
        assert action_id(DrawCard(index)) == index and CARD_OUTCOMES.from_id(index) == DrawCard(index)


@pytest.mark.parametrize("bad", [-1, 13, 14, 15, 404])
def test_reserved_and_outside_ids_are_refused(bad: int) -> None:
    with pytest.raises(IllegalActionError):
        decision_from_id(bad)
