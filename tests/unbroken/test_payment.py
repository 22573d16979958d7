"""Decisions: legal actions derived once per state, sorted by id, and legality read from them."""

from __future__ import annotations

import numpy as np

from tabletop_core import from_json, to_json
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE
from tests.playouts import random_moves
from unbroken.actions import (
    DECISIONS,
    Act,
    Attack,
    Craft,
    Eat,
    Pick,
    Respond,
    Use,
    action_id,
    decision_from_id,
)
from unbroken.limits import MAX_PICKS
from unbroken.rules.flow import DRIVER
from unbroken.rules.payment import ACT, ATTACK, CRAFT, EAT, PICK, RESPOND, USE, Decide, one, upto

from .helpers import GAME


def test_legal_actions_are_derived_once_per_state_and_never_travel_with_a_copy() -> None:
    state = GAME.new_game(seed=4)
    first = GAME.legal_actions(state)
    assert GAME.legal_actions(state) is first
    copy = replace(state, uses=state.uses)
    assert not hasattr(copy, "_derived")
    assert GAME.legal_actions(copy) == first and GAME.legal_actions(copy) is not first
    assert copy == state and hash(copy) == hash(state) and to_json(copy) == to_json(state)
    assert "_derived" not in to_json(state) and GAME.legal_actions(from_json(GAME, to_json(state))) == first


def test_legal_actions_and_legality_agree_with_the_options_everywhere() -> None:
    rng = np.random.default_rng(7)
    ids = range(DECISIONS.size)  # every decision id
    decisions = 0
    for seed in range(12):
        start = GAME.new_game(seed=seed, difficulty=("easy", "normal", "hard")[seed % 3])
        for state, _, _ in random_moves(GAME, start, rng):
            if GAME.current_player(state) == CHANCE:
                continue
            frame = DRIVER.frame(state)
            assert isinstance(frame, Decide)
            legal = GAME.legal_actions(state)
            assert list(legal) == sorted(frame.options(state), key=action_id)
            assert len(set(legal)) == len(legal)
            if decisions % 5 == 0:
                for i in ids:
                    try:
                        action = decision_from_id(i)
                    except ValueError:  # a reserved id
                        continue
                    assert GAME.is_legal(state, action) == (action in legal), (i, state)
            decisions += 1
    assert decisions > 100


def test_shared_actions_are_the_actions_they_stand_for() -> None:
    assert [ACT[v] for v in range(len(ACT))] == [Act(v) for v in range(len(ACT))]
    for shared, cls in ((PICK, Pick), (CRAFT, Craft), (ATTACK, Attack), (USE, Use), (RESPOND, Respond), (EAT, Eat)):
        assert list(shared) == [cls(i) for i in range(len(shared))]
        assert one(shared, cls, 1) is shared[1]
        assert upto(shared, cls, 2) == shared[:2]


def test_shared_actions_past_their_ids_are_refused_as_before() -> None:
    for n in (len(CRAFT) + 1,):
        try:
            upto(CRAFT, Craft, n)
        except ValueError:
            continue
        raise AssertionError("Craft past its ids must be refused")
    assert one(PICK, Pick, len(PICK)) == Pick(len(PICK))  # a pick past the first block (an Exploration's)
    try:
        one(PICK, Pick, MAX_PICKS)
    except ValueError:
        return
    raise AssertionError("Pick past its ids must be refused")
