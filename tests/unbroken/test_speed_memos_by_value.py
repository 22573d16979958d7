"""Fast paths that find shared values by identity answer alike for equal values of their own (a loaded state,
equal fields in other objects), and their memos stay bounded: each against the plain computation
(``docs/performance-unbroken.md``).

States come from random games of every difficulty and character (``test_fast_paths.resting_states``) and from
random playouts run here through both drivers.
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_core import from_json, to_json
from tabletop_core.chance import sample_outcome
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE, TERMINAL
from unbroken import setup
from unbroken.actions import Action, DrawCard
from unbroken.content.schema import TRIGGERS
from unbroken.rules import cards, chance, flow, triggers
from unbroken.rules.chance import CardDraw
from unbroken.rules.tables import tables
from unbroken.state import Options, State

from .helpers import GAME
from .test_fast_paths import VARIANTS, resting_states


def _same_event(loaded: State, state: State, action: Action) -> State:
    """``action`` applied to a state and to its copy loaded from JSON (which holds positions of its own, not the
    shared ones): the same state, and the same answers to every protocol question on both and on what follows."""
    driver = flow.DRIVER
    assert driver.current_player(loaded) == driver.current_player(state)
    assert driver.legal_actions(loaded) == driver.legal_actions(state)
    assert driver.chance_outcomes(loaded) == driver.chance_outcomes(state)
    assert driver.is_legal(loaded, action) and driver.is_legal(state, action)
    after = driver.apply(state, action)
    again = driver.apply(loaded, action)
    assert again == after
    assert driver.current_player(again) == driver.current_player(after)
    assert driver.is_over(again) == driver.is_over(after)
    assert driver.describe(again) == driver.describe(after)
    return after


def test_a_loaded_state_plays_every_event_as_the_state_it_was_saved_from() -> None:
    rng = np.random.default_rng(8)
    steps = loaded = defeats = 0
    for difficulty, character in VARIANTS:
        for _ in range(10):
            state = GAME.new_game(difficulty=difficulty, character=character)
            while (player := GAME.current_player(state)) != TERMINAL:
                if player == CHANCE:
                    action = sample_outcome(GAME.chance_outcomes(state), rng)
                else:
                    legal = GAME.legal_actions(state)
                    action = legal[int(rng.integers(len(legal)))]
                if steps % 5 == 0:  # a loaded state holds positions of its own, not the shared ones
                    again = from_json(GAME, to_json(state))
                    assert again == state
                    nxt = _same_event(again, state, action)
                    loaded += 1
                else:
                    nxt = flow.DRIVER.apply(state, action)
                defeats += state.pos.step == "battle" and nxt.pos.step != "battle" and nxt.outcome == 0
                state = nxt
                steps += 1
    assert steps > 2000 and loaded > 400 and defeats > 2, (steps, loaded, defeats)


def _plain_outcomes(frame: CardDraw, state: State) -> tuple[tuple[DrawCard, float], ...]:
    """A draw's outcomes by the definition: each distinct card left, with its copies over the cards left."""
    pile = frame.pile(state)
    pile = pile.reshuffled() if not pile.counts else pile
    return tuple((DrawCard(c), p) for c, p in pile.draw_outcomes())


def test_a_card_draw_lists_the_same_outcomes_cold_warm_and_past_the_memos_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # private: the memo is emptied and its bound checked
    draws = [s for s in resting_states() if isinstance(s.pending.top, CardDraw)]
    assert len(draws) > 50
    for memo_bound in (chance._PAIRS_MAX, 80):
        monkeypatch.setattr(chance, "_PAIRS_MAX", memo_bound)
        chance._PAIRS.clear()
        for _ in range(2):  # cold, then warm
            for state in draws:
                frame = state.pending.top
                assert isinstance(frame, CardDraw)
                listed = frame.chance_outcomes(state)
                assert listed == _plain_outcomes(frame, state)
                assert [type(p) for _, p in listed] == [float] * len(listed)
        assert sum(map(len, chance._PAIRS.values())) <= memo_bound


def test_the_default_options_are_made_once_and_are_the_options_made_the_long_way() -> None:
    # private: the options made without the memo are the long way compared with
    made = GAME.make_options()
    assert GAME.make_options() is made
    assert made == GAME._make_options({}) == setup.bind_pack(Options())
    assert GAME.new_game() is GAME.new_game() and GAME.new_game().options is made
    assert GAME.make_options(difficulty="hard") == Options(difficulty="hard") != made


def test_the_cards_in_play_found_by_their_fields_are_the_plain_definitions() -> None:
    # private: the memos are emptied and their bound checked
    states = list(resting_states()[::2])
    np.random.default_rng(9).shuffle(states)  # shuffles the list in place
    for k, sampled in enumerate(states):
        if k % 2:
            cards._IN_PLAY[0] = None  # the memo of the fields is asked, not the last one
        state = sampled
        if k % 7 == 0 and sampled.skills:
            state = replace(sampled, skills=tuple(list(sampled.skills)))  # equal fields, other objects
        plain = cards._listed(state)
        assert tuple(cards.cards_in_play(state)) == plain
        memo = cards.memo_of(state)
        assert memo.skills is state.skills and memo.conditions is state.conditions
        assert memo.options is state.options
        t = tables(state)
        for op in ("ignore", "surcharge", "cap_wounds", "reveal", "rest_bonus", "food_req", "instead"):
            expected = [o for src in plain for o in t.statics.get(src, {}).get(op, ())]
            assert list(cards.static_ops(state, op)) == expected, op
        for trigger in TRIGGERS:
            cands = [triggers.Cand(s, i, opt) for s in plain for i, opt in t.responses[s].get(trigger, ())]
            assert triggers.fire(state, trigger) == (triggers.Trig(trigger, tuple(cands), 0) if cands else None)
            assert cards.activates(state, trigger) == bool(cands)
    assert len(cards._IN_PLAY_BY_FIELDS) <= cards._IN_PLAY_MAX
