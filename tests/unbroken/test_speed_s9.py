"""The ninth session's fast paths (``docs/performance-unbroken.md``), each against the plain computation.

States come from random games of every difficulty and character (``test_fast_paths.resting_states``); tracks are
also set to other values, so that the rarer cases (both Medium and Large Effort in hand) are met.
"""

from __future__ import annotations

import itertools
from typing import cast

from tabletop_core.fastcopy import replace
from unbroken.actions import Action, action_id
from unbroken.rules import flow
from unbroken.rules.payment import Decide, PayChoice
from unbroken.rules.resources import _plan, ambiguous, may_choose
from unbroken.state import LE, ME, N_RESOURCES, SE, State, track_at

from .test_fast_paths import resting_states


def _with_effort(state: State, se: int, me: int, le: int) -> State:
    """``state`` with its Small, Medium and Large Effort at these values."""
    res = list(state.res)
    for r, v in ((SE, se), (ME, me), (LE, le)):
        res[r] = track_at(res[r], r, min(v, res[r].high))
    return replace(state, res=tuple(res))


def _plain_apply(frame: Decide, state: State, action: Action) -> State:
    """``Decide.apply`` as it was written: the cost looked up and the choice of Effort checked on every decision."""
    cost = frame.cost(state, action)
    if cost is not None and ambiguous(state, *cost):
        lifted = state.pending.top is None
        state = state.push(cast("flow.Frame", frame)) if lifted else state
        return state.push(PayChoice(action_id(action), lifted))
    return frame.decide(state, action)


def test_without_medium_or_large_effort_no_payment_is_a_choice() -> None:
    states = resting_states()[::60]
    needs = [[se, me, le, *([0] * (N_RESOURCES - 3))] for se, me, le in itertools.product(range(7), range(3), range(2))]
    checked = 0
    for state in states:
        for se, me, le in itertools.product(range(6), range(4), range(3)):
            held = _with_effort(state, se, me, le)
            if may_choose(held):
                continue
            for need in needs:
                assert _plan(held, need, False) == _plan(held, need, True), (se, me, le, need)
                checked += 1
    assert checked > 10_000


def test_a_decision_applies_as_it_did_with_its_cost_always_looked_up() -> None:
    seen = choices = 0
    for k, sampled in enumerate(resting_states()):
        frame = flow.DRIVER.locate(sampled)
        if not isinstance(frame, Decide):
            continue
        # the state as sampled, and with Medium and Large Effort in hand (a Small Effort shortfall is then a choice)
        for state in (sampled, _with_effort(sampled, k % 3, 1 + k % 2, 1)):
            for action in frame.legal_actions(state):
                plain = _plain_apply(frame, state, action)
                assert frame.apply(state, action) == plain, (state, action)
                seen += 1
                choices += isinstance(plain.pending.top, PayChoice)
    assert seen > 2000 and choices > 10, (seen, choices)
