"""The decision ids come from the declared action space and are the ids the records were made with."""

from __future__ import annotations

import pytest

from runebound_coop.actions import (
    DECISIONS,
    NUM_ACTIONS,
    OUTCOMES,
    Action,
    Attack,
    Block,
    Choose,
    Copy,
    Double,
    Engage,
    Exert,
    Flip,
    Land,
    Pass,
    Recast,
    Respond,
    Surge,
    Withdraw,
    action_id,
    decode_decision,
)
from runebound_coop.content.schema import Sym
from tabletop_core.errors import IllegalActionError

#: Each class's first id as the hand-written layout had it (records store these ids).
_OLD_IDS: list[tuple[Action, int]] = [
    (Pass(), 0),
    (Engage(3), 4),
    (Attack(Sym.CHARGE), 7),
    (Flip(0), 8),
    (Flip(2, True), 13),
    (Recast(0), 24),
    (Double(0), 40),
    (Surge(0), 48),
    (Copy(Sym.PHYSICAL, 1), 56),
    (Copy(Sym.CHARGE, 4), 67),
    (Exert(0, Sym.PHYSICAL), 68),
    (Exert(3, None), 83),
    (Respond(False), 84),
    (Withdraw(True), 87),
    (Choose(0), 88),
    (Choose(15), 103),
    (Block(False), 104),
    (Block(True), 105),
]


@pytest.mark.parametrize(("action", "old_id"), _OLD_IDS)
def test_every_action_keeps_the_id_the_records_were_made_with(action: Action, old_id: int) -> None:
    assert action_id(action) == old_id
    assert decode_decision(old_id) == action


def test_every_decision_id_round_trips_and_the_space_is_the_declared_one() -> None:
    assert NUM_ACTIONS == DECISIONS.size == 106  # 104 before the hero's tactics block (Block) joined at the end
    for i in range(NUM_ACTIONS):
        assert action_id(decode_decision(i)) == i
    assert [action_id(Land(s)) for s in (0, 1)] == [0, 1] and OUTCOMES.size == 2
    with pytest.raises(IllegalActionError):
        decode_decision(NUM_ACTIONS)
