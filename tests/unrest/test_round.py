"""The round: target, plan, the Empire's two actions, the Rebellion's placement and the draw."""

from __future__ import annotations

import pytest

import unrest
from tabletop_core import IllegalActionError
from tests.unrest.helpers import (
    CAPITOL,
    PEACE,
    PLENTY,
    POLICE,
    TRUTH,
    act,
    cards,
    plan,
    stack,
    strings,
    table,
)
from unrest.rules.cards import MISDIRECTION
from unrest.state import (
    BLOCKADE,
    DESTROY,
    EMPIRE,
    REBELLION,
    REROUTE,
    SURVEIL,
    Destroyed,
    StackCard,
    UnrestState,
)


def planned_state(hand: str = "2I 3U 4D 5S 6I", *, tokens: tuple[bool, ...] = (True,) * 4) -> UnrestState:
    state = table(hand=hand, tokens=tokens)
    return act(state, "target Peace", "plan 2I hidden", "plan 3U hidden", "plan 4D revealed")


def test_target_two_adjacent_districts() -> None:
    state = table(hand="2I 3U 4D 5S 6I")
    assert unrest.current_player(state) == REBELLION
    assert strings(state) == [
        "target Plenty and Peace",
        "target Peace and Capitol",
        "target Capitol and Police",
        "target Police and Truth",
    ]
    state = act(state, "target Capitol")
    assert state.aoi == (CAPITOL, POLICE) and state.step == "plan"


def test_target_neighbours_of_a_liberated_district_are_adjacent() -> None:
    state = table(hand="2I 3U 4D 5S 6I", row=(PLENTY, CAPITOL, POLICE, TRUTH), freed={PEACE: 1}, rnd=2)
    state = act(state, "target Plenty")
    assert state.aoi == (PLENTY, CAPITOL)


def test_plan_two_hidden_and_one_revealed() -> None:
    state = act(table(hand="2I 3U 4D 5S 6I"), "target Peace", "plan 2I revealed")
    assert all(s.endswith("hidden") for s in strings(state))
    state = act(table(hand="2I 3U 4D 5S 6I"), "target Peace", "plan 2I hidden", "plan 3U hidden")
    assert all(s.endswith("revealed") for s in strings(state))
    state = act(state, "plan 5S revealed")
    assert [(p.card, p.revealed) for p in state.plan if p] == [(0, False), (6, False), (18, True)]
    assert state.hand == tuple(sorted(cards("4D 6I")))
    assert unrest.current_player(state) == EMPIRE


def test_plan_misdirection_always_hidden() -> None:
    state = act(table(hand="M M 2I 3U 4D"), "target Peace")
    assert "plan M hidden" in strings(state) and "plan M revealed" not in strings(state)


def test_plan_must_leave_a_numbered_card_to_reveal() -> None:
    state = act(table(hand="M M M M 3I"), "target Peace")
    assert strings(state) == ["plan 3I revealed", "plan M hidden"]
    state = act(state, "plan M hidden", "plan M hidden")
    assert strings(state) == ["plan 3I revealed"]


def test_plan_order_names_the_slots() -> None:
    state = planned_state()
    assert [p.card for p in state.plan if p] == list(cards("2I 3U 4D"))


def test_empire_takes_two_actions_with_different_tokens() -> None:
    state = planned_state()
    assert unrest.current_player(state) == EMPIRE
    state = act(state, "destroy card 3")
    assert not state.tokens[DESTROY] and state.step == "defend"
    assert not any(s.startswith("destroy") for s in strings(state))
    state = act(state, "blockade Plenty")
    assert state.step == "place" and state.used == (DESTROY, BLOCKADE)


def test_empire_may_take_both_actions_on_one_card() -> None:
    state = act(planned_state(), "surveil card 1", "destroy card 1")
    assert state.destroyed == (Destroyed(cards("2I")[0], True, 1),)
    assert state.plan[0] is None


def test_surveil_reveals_only_hidden_cards() -> None:
    state = planned_state()
    surveils = [s for s in strings(state) if s.startswith("surveil")]
    assert surveils == ["surveil card 1", "surveil card 2"]  # card 3 is revealed
    state = act(state, "surveil card 2")
    assert state.plan[1] is not None and state.plan[1].revealed


def test_surveilled_misdirection_is_revealed_then_destroyed() -> None:
    state = act(table(hand="M 2I 3U 4D 5S"), "target Peace", "plan M hidden", "plan 2I hidden", "plan 3U revealed")
    state = act(state, "surveil card 1")
    assert state.plan[0] is None and state.destroyed == (Destroyed(MISDIRECTION, True, 1),)


def test_destroy_keeps_the_facing_except_misdirection() -> None:
    state = act(planned_state(), "destroy card 1")
    assert state.destroyed == (Destroyed(cards("2I")[0], False, 1),)
    state = act(table(hand="M 2I 3U 4D 5S"), "target Peace", "plan M hidden", "plan 2I hidden", "plan 3U revealed")
    state = act(state, "destroy card 1")
    assert state.destroyed == (Destroyed(MISDIRECTION, True, 1),)


def test_reroute_into_any_unliberated_district_keeping_facing() -> None:
    state = table(hand="2I 3U 4D 5S 6I", row=(PLENTY, CAPITOL, POLICE, TRUTH), freed={PEACE: 1}, rnd=3)
    state = act(state, "target Capitol", "plan 2I hidden", "plan 3U hidden", "plan 4D revealed")
    reroutes = [s for s in strings(state) if s.startswith("reroute card 1")]
    assert reroutes == [
        "reroute card 1 to Plenty",
        "reroute card 1 to Capitol",
        "reroute card 1 to Police",
        "reroute card 1 to Truth",
    ]
    state = act(state, "reroute card 3 to Truth")
    assert state.stacks[TRUTH] == (StackCard(cards("4D")[0], True, 3),)
    with pytest.raises(IllegalActionError):
        act(state, "reroute card 1 to Plenty")  # Reroute is used
    state = act(state, "surveil card 2")
    assert state.step == "place"


def test_empire_cannot_target_cards_already_stacked() -> None:
    state = act(planned_state(), "reroute card 1 to Police")
    assert not any("card 1" in s for s in strings(state))


def test_blockade_forbids_placement_for_the_round() -> None:
    state = act(planned_state(), "blockade Peace", "destroy card 3")
    assert strings(state) == ["place 2I in Capitol"]
    state = act(state, "place 2I in Capitol", "place 3U in Capitol")
    assert state.stacks[CAPITOL] == stack("(2I) (3U)")


def test_place_every_remaining_card_into_the_marked_districts() -> None:
    state = act(planned_state(), "surveil card 1", "destroy card 2")
    assert strings(state) == ["place 2I in Peace", "place 2I in Capitol"]
    state = act(state, "place 2I in Peace", "place 4D in Capitol")
    assert state.stacks[PEACE] == (StackCard(cards("2I")[0], True, 1),)
    assert state.stacks[CAPITOL] == (StackCard(cards("4D")[0], True, 1),)
    assert state.step == "draw" and state.aoi == () and state.plan == ()


def test_tokens_flip_back_only_once_all_four_are_used() -> None:
    state = act(planned_state(), "surveil card 1", "destroy card 2", "place 2I in Peace", "place 4D in Peace")
    assert state.tokens == (False, False, True, True)  # two face down stay face down
    assert not any(s.startswith(("surveil", "destroy")) for s in strings(_next_round_planned(state)))
    state = _next_round_planned(state)
    state = act(state, "reroute card 1 to Truth", "blockade Plenty")
    assert state.tokens == (False, False, False, False)
    while state.step == "place":
        state = act(state, strings(state)[0])
    assert state.tokens == (True, True, True, True)


def _next_round_planned(state: UnrestState) -> UnrestState:
    while state.step == "draw":
        state = unrest.step(state, unrest.legal_actions(state)[0])
    state = act(state, "target Plenty")
    while state.step == "plan":
        state = unrest.step(state, unrest.legal_actions(state)[0])
    return state


def test_end_of_round_draws_three_cards() -> None:
    state = act(planned_state(), "surveil card 1", "destroy card 2", "place 2I in Peace", "place 4D in Peace")
    assert state.step == "draw" and state.to_draw == 3 and len(state.hand) == 2
    deck = sum(state.deck)
    while state.step == "draw":
        state = unrest.step(state, unrest.legal_actions(state)[0])
    assert len(state.hand) == 5 and sum(state.deck) == deck - 3
    assert state.round == 2 and state.step == "target"


def test_power_token_order_and_plan_slots_in_strings() -> None:
    state = planned_state()
    assert strings(state)[:5] == [
        "surveil card 1",
        "surveil card 2",
        "destroy card 1",
        "destroy card 2",
        "destroy card 3",
    ]
    assert strings(state)[-5:] == [
        "blockade Plenty",
        "blockade Peace",
        "blockade Capitol",
        "blockade Police",
        "blockade Truth",
    ]
    assert len(strings(state)) == 2 + 3 + 3 * 5 + 5  # Surveil hidden x2, Destroy x3, Reroute 3x5, Blockade x5
    state = act(state, "surveil card 1")
    assert not state.tokens[SURVEIL] and not any(s.startswith("surveil") for s in strings(state))
    assert state.tokens[REROUTE]


# ----- the Blockade in the Final Encounter -------------------------------------------------------------------------
# Blockade: "No cards may be placed into that District by the Rebellion this round. Place your Blockade token on top
# of the District for the remainder of the round." The Final Encounter: "They play their three cards as usual but,
# after the Empire takes their actions, the Rebellion may move the remaining cards to any unliberated District(s)."
# The Final Encounter is a round ("the next round is the Final Encounter, the last round of the game") and its
# placement comes after the Empire's actions, a Blockade among them; "any unliberated District(s)" replaces the
# Area of Interest, which that round does not have, and leaves the Blockade's "this round" standing.


def final_encounter_plan() -> UnrestState:
    """The Final Encounter, at the Empire's defence: 5D and M hidden, 2I face up; Truth liberated in round 3."""
    return table(
        hand="",
        planned=plan("(5D) 2I (M)"),
        row=(PLENTY, PEACE, CAPITOL, POLICE),
        freed={TRUTH: 3},
        stacks={TRUTH: stack("6I 6U 6D 3S")},
        rnd=8,
        step="defend",
        final=True,
    )


def test_a_blockade_closes_its_district_in_the_final_encounter() -> None:
    state = act(final_encounter_plan(), "blockade Police", "destroy card 3")
    assert state.step == "place" and state.aoi == ()
    assert strings(state) == ["place 5D in Plenty", "place 5D in Peace", "place 5D in Capitol"]
    with pytest.raises(IllegalActionError):
        act(state, "place 5D in Police")
    state = act(state, "place 5D in Plenty", "place 2I in Capitol")
    assert state.stacks[POLICE] == () and state.winner >= 0  # the Final Encounter ends the game


def test_without_a_blockade_the_final_encounter_places_anywhere_unliberated() -> None:
    state = act(final_encounter_plan(), "surveil card 1", "destroy card 3")
    # Every District still in play, the Area of Interest's two or not; never the liberated Truth.
    assert strings(state) == [f"place 5D in {name}" for name in ("Plenty", "Peace", "Capitol", "Police")]
    state = act(state, "place 5D in Police", "place 2I in Plenty")
    assert state.stacks[POLICE] == (StackCard(cards("5D")[0], True, 8),)
