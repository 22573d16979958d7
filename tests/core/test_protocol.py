"""The Game base class: the public step, options, chance sampling, masks and parsing."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from tabletop_core import (
    CHANCE,
    TERMINAL,
    IllegalActionError,
    OptionError,
    TabletopError,
    sample_chance,
    settle,
)
from tabletop_core.chance import sample_outcome
from tabletop_core.testing.kuhn import GAME, Deal, Move
from tests.core.flowgame import GAME as FLOW_GAME


def test_constants_match_openspiel() -> None:
    assert (CHANCE, TERMINAL) == (-1, -4)


def test_new_game_without_seed_is_the_first_chance_node() -> None:
    state = GAME.new_game()
    assert GAME.current_player(state) == CHANCE
    assert GAME.chance_outcomes(state) == ((Deal(0), 1 / 3), (Deal(1), 1 / 3), (Deal(2), 1 / 3))


def test_new_game_with_seed_or_rng_resolves_setup_identically() -> None:
    assert GAME.new_game(seed=11) == GAME.new_game(rng=np.random.default_rng(11))
    assert GAME.current_player(GAME.new_game(seed=11)) == 0
    with pytest.raises(OptionError, match="not both"):
        GAME.new_game(seed=1, rng=np.random.default_rng(1))


def test_unknown_option_raises_option_error_naming_it() -> None:
    with pytest.raises(OptionError, match="ante"):
        GAME.new_game(ante=2)


def test_illegal_action_raises_and_leaves_the_state_usable() -> None:
    state = GAME.new_game(seed=1)
    with pytest.raises(IllegalActionError) as info:
        GAME.step(state, Deal(0))
    message = str(info.value)
    assert "Deal(card=0)" in message and "player 0" in message and "the betting after -" in message
    assert "legal: pass, bet" in message
    assert GAME.step(state, Move(1)).history == (1,)


def test_stepping_a_finished_game_raises() -> None:
    state = GAME.step(GAME.step(GAME.new_game(seed=1), Move(0)), Move(0))
    assert GAME.is_terminal(state) and GAME.legal_actions(state) == ()
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.step(state, Move(0))


def test_errors_are_value_errors() -> None:
    assert issubclass(IllegalActionError, TabletopError) and issubclass(TabletopError, ValueError)


def test_step_with_rng_settles_the_following_chance() -> None:
    state = FLOW_GAME.new_game(seed=2)
    state = FLOW_GAME.step(state, FLOW_GAME.legal_actions(state)[0])
    state = FLOW_GAME.step(state, FLOW_GAME.legal_actions(state)[0], rng=np.random.default_rng(0))
    assert FLOW_GAME.current_player(state) == 0 and len(state.revealed) == 2


def test_sample_outcome_follows_the_probabilities() -> None:
    rng = np.random.default_rng(0)
    outcomes = (("a", 0.2), ("b", 0.8))
    draws = [sample_outcome(outcomes, rng) for _ in range(20_000)]
    share = draws.count("a") / len(draws)
    assert abs(share - 0.2) < 4 * (0.2 * 0.8 / 20_000) ** 0.5


def test_sample_chance_needs_a_chance_node_and_settle_stops_at_decisions() -> None:
    state = GAME.new_game()
    deal = sample_chance(GAME, state, np.random.default_rng(0))
    assert isinstance(deal, Deal)
    settled = settle(GAME, state, np.random.default_rng(0))
    assert GAME.current_player(settled) == 0
    with pytest.raises(TabletopError, match="needs a chance node"):
        sample_chance(GAME, settled, np.random.default_rng(0))


def test_mask_lengths_follow_the_node_kind() -> None:
    state = GAME.new_game()
    assert GAME.legal_action_mask(state).tolist() == [True, True, True]
    decided = settle(GAME, state, np.random.default_rng(1))
    assert GAME.legal_action_mask(decided).tolist() == [True, True]
    assert GAME.legal_action_ids(decided) == (0, 1)


def test_parse_action_is_case_and_space_insensitive_and_names_bad_input() -> None:
    state = GAME.new_game(seed=1)
    assert GAME.parse_action(state, "  BET ") == Move(1)
    with pytest.raises(IllegalActionError, match="cannot read 'raise'"):
        GAME.parse_action(state, "raise")


def test_action_from_id_rejects_unknown_ids() -> None:
    with pytest.raises(IllegalActionError, match="no action with id 5"):
        GAME.action_from_id(GAME.new_game(seed=1), 5)


def test_apply_unchecked_skips_checks_for_search() -> None:
    state = GAME.new_game(seed=1)
    assert GAME.apply_unchecked(state, Move(1)) == GAME.step(state, Move(1))


def test_states_are_immutable() -> None:
    state = GAME.new_game(seed=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.history = (1,)  # type: ignore[misc]  # the point: assignment must fail


def test_determinize_keeps_own_card_and_history_and_varies_the_other() -> None:
    state = GAME.step(GAME.new_game(seed=1), Move(1))
    seen = {GAME.determinize(state, 0, np.random.default_rng(i)).hands[1] for i in range(40)}
    assert seen == {c for c in range(3) if c != state.hands[0]}
    for i in range(10):
        det = GAME.determinize(state, 0, np.random.default_rng(i))
        assert GAME.observe(det, 0) == GAME.observe(state, 0)


def test_bad_option_value_message_is_readable() -> None:
    from tests.core.test_records import RichOptions

    class Rich(type(GAME)):  # type: ignore[misc]  # a Kuhn variant with validated options, for this test only
        options_type = RichOptions

    with pytest.raises(OptionError) as info:
        Rich().make_options(mode="brutal")
    message = str(info.value)
    assert "'mode' must be" in message and "brutal" in message and "Attribute(" not in message


def test_describe_step_names_the_deal_and_the_betting() -> None:
    assert GAME.describe_step(GAME.new_game()) == "the deal (card 1 of 2)"
    assert GAME.describe_step(GAME.new_game(seed=1)) == "the betting after -"


def test_options_need_states_that_carry_them_and_default_agents_are_random() -> None:
    from tabletop_core.agents import RandomAgent
    from tabletop_core.game import carries_options
    from tabletop_core.testing.kuhn import GAME as KUHN

    state = KUHN.new_game(seed=1)
    assert KUHN.options(state) == state.options
    assert carries_options(KUHN.new_game(seed=1)) and not carries_options(object())
    with pytest.raises(TypeError, match="does not carry its options"):
        KUHN.options(object())  # type: ignore[arg-type]  # a state without options on purpose
    agents = KUHN.default_agents(state)
    assert len(agents) == 2 and all(isinstance(a, RandomAgent) for a in agents)


def test_load_game_refuses_what_is_not_a_game() -> None:
    from tabletop_core.errors import TabletopError
    from tabletop_core.registry import load_game

    assert load_game("tabletop_core.testing.kuhn:GAME").spec.short_name == "kuhn"
    with pytest.raises(TabletopError, match="not a tabletop_core Game"):
        load_game("tabletop_core.testing.kuhn:CARDS")
