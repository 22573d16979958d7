"""Liberation, the end of the game, the Final Encounter and the Capitol variant."""

from __future__ import annotations

import unrest
from tabletop_core import RandomAgent, play
from tests.unrest.helpers import (
    CAPITOL,
    CIVIL,
    COUP,
    ESPIONAGE,
    FORTIFIED,
    PEACE,
    PLENTY,
    PLOT,
    POLICE,
    REVOLUTION,
    SLEEPER,
    TRUTH,
    act,
    cards,
    destroyed_early,
    plan,
    prove,
    stack,
    strings,
    table,
)
from unrest.rules.cards import MISDIRECTION, parse_card
from unrest.state import EMPIRE, REBELLION, Destroyed, StackCard, UnrestState

MISSIONS = (REVOLUTION, ESPIONAGE, 3, 5)  # Revolution, Espionage, Coup, Sleeper Cell


def at_place(
    hand: str,
    planned: str,
    *,
    stacks: dict[int, tuple[StackCard, ...]] | None = None,
    missions: tuple[int, ...] = MISSIONS,
    rnd: int = 2,
    aoi: tuple[int, ...] = (PEACE, CAPITOL),
    row: tuple[int, ...] = (PLENTY, PEACE, CAPITOL, POLICE, TRUTH),
    freed: dict[int, int] | None = None,
    variant: str = "standard",
    deck: str | None = None,
    destroyed: tuple[Destroyed, ...] | list[Destroyed] = (),
) -> UnrestState:
    """A position at the Rebellion's placement after the Empire's two actions (Surveil and Destroy used)."""
    return table(
        destroyed=destroyed,
        hand=hand,
        planned=plan(planned),
        stacks=stacks,
        missions=missions,
        rnd=rnd,
        step="place",
        aoi=aoi,
        row=row,
        freed=freed,
        variant=variant,
        deck=deck,
        tokens=(False, False, True, True),
    )


def test_liberation_district_and_stack_leave_play_keeping_facings() -> None:
    state = at_place("6U 6S", "(5D) 2I", stacks={PEACE: stack("(3I) (M)")})
    state = act(state, "place 5D in Peace", "place 2I in Peace")
    # The Rebellion reveals the proof card by card, even when (as here) only one proof exists.
    assert state.step == "liberate" and strings(state) == ["reveal 3I (card 1)"]
    state = act(state, "reveal 3I (card 1)")
    assert strings(state) == ["reveal 5D (card 3)"]
    state = act(state, "reveal 5D (card 3)")
    assert state.freed[PEACE] == 2 and PEACE not in state.row
    assert state.row == (PLENTY, CAPITOL, POLICE, TRUTH)
    s = state.stacks[PEACE]
    # The 3I and 5D were revealed to prove Espionage; the Misdirection stays hidden.
    assert [(c.card, c.revealed, c.proved) for c in s] == [
        (cards("3I")[0], True, True),
        (MISDIRECTION, False, False),
        (cards("5D")[0], True, True),
        (cards("2I")[0], True, False),
    ]
    assert state.step == "draw"


def test_liberation_neighbours_become_adjacent() -> None:
    state = at_place("6U 6S", "(5D) 2I", stacks={PEACE: stack("(3I)")})
    state = prove(act(state, "place 5D in Peace", "place 2I in Peace"))
    while state.step == "draw":
        state = unrest.step(state, unrest.legal_actions(state)[0])
    assert "target Plenty and Capitol" in strings(state)
    state = act(state, "target Plenty")
    assert state.aoi == (PLENTY, CAPITOL)


def test_liberation_one_mission_several_districts_in_one_round() -> None:
    state = at_place("6U 6S", "(5D) 4I", stacks={PEACE: stack("(4I)"), CAPITOL: stack("(4D)")})
    state = prove(act(state, "place 5D in Peace", "place 4I in Capitol"))
    assert state.liberated == (PEACE, CAPITOL)
    assert state.row == (PLENTY, POLICE, TRUTH)


def test_liberation_several_minimal_proofs_are_a_decision() -> None:
    # Espionage: 2I + either hidden 3I or hidden 2I... use two hidden Intelligence cards that each suffice.
    state = at_place("6U 6S", "(5D) 2I", stacks={PEACE: stack("(3I) (4I)")})
    state = act(state, "place 5D in Peace", "place 2I in Peace")
    assert unrest.current_player(state) == REBELLION and state.step == "liberate"
    # Proofs: {3I, 5D} and {4I, 5D}; the Rebellion picks which Intelligence card to show.
    assert strings(state) == ["reveal 3I (card 1)", "reveal 4I (card 2)"]
    state = act(state, "reveal 4I (card 2)")
    assert strings(state) == ["reveal 5D (card 3)"]
    state = act(state, "reveal 5D (card 3)")
    assert state.freed[PEACE] == 2
    revealed = [(c.card, c.revealed) for c in state.stacks[PEACE]]
    assert revealed == [(cards("3I")[0], False), (cards("4I")[0], True), (cards("5D")[0], True), (cards("2I")[0], True)]


def test_game_end_three_liberated_districts_win_at_once() -> None:
    stacks = {PEACE: stack("(4I)"), CAPITOL: stack("(4D)")}
    state = at_place("6U 6S", "(5D) 4I", stacks=stacks, freed={TRUTH: 1}, row=(PLENTY, PEACE, CAPITOL, POLICE))
    # Liberating Peace and Capitol would make 3 with Truth: the game ends at once (Capitol is not reached).
    state = prove(act(state, "place 5D in Peace", "place 4I in Capitol"))
    assert unrest.is_terminal(state)
    assert unrest.returns(state) == (1.0, -1.0)


def test_game_end_final_encounter_when_fewer_than_three_cards_remain() -> None:
    state = at_place("6U 6S", "(5D) 3U", deck="2S", rnd=7)
    state = act(state, "place 5D in Peace", "place 3U in Capitol")
    assert state.step == "draw" and state.to_draw == 1 and state.final
    state = act(state, "draw 2S")
    # The Final Encounter: no Area of Interest, straight to planning the last three cards.
    assert state.round == 8 and state.step == "plan" and state.aoi == ()
    assert len(state.hand) == 3 and sum(state.deck) == 0
    state = act(state, "plan 6U hidden", "plan 6S hidden", "plan 2S revealed")
    state = act(state, "reroute card 1 to Plenty", "blockade Truth")
    # The remaining cards go to any unliberated District but the blockaded one.
    assert strings(state) == [
        "place 6S in Plenty",
        "place 6S in Peace",
        "place 6S in Capitol",
        "place 6S in Police",
    ]
    state = act(state, "place 6S in Police", "place 2S in Police")
    assert unrest.is_terminal(state) and state.winner == EMPIRE
    assert unrest.returns(state) == (-1.0, 1.0)


def test_game_end_rebellion_may_still_liberate_in_the_final_encounter() -> None:
    stacks = {PEACE: stack("(4I)"), PLENTY: stack("(4D)")}
    state = table(
        hand="",
        planned=plan("(5D) 4I"),
        stacks=stacks,
        deck="",
        rnd=8,
        step="place",
        final=True,
        missions=MISSIONS,
        freed={TRUTH: 3},
        row=(PLENTY, PEACE, CAPITOL, POLICE),
        tokens=(False, False, True, True),
    )
    state = prove(act(state, "place 5D in Peace", "place 4I in Plenty"))
    assert state.winner == REBELLION


def test_game_end_after_exactly_eight_rounds_without_three_liberations() -> None:
    for seed in range(30):
        final, _ = play(unrest.GAME, [RandomAgent(), RandomAgent()], seed=seed)
        assert unrest.is_terminal(final)
        if final.winner == EMPIRE:
            assert final.round == 8 and final.final
            assert sum(final.deck) == 0 and final.hand == ()
            assert len(final.liberated) <= 2
        else:
            assert len(final.liberated) >= 3


def test_capitol_variant_liberating_the_capitol_wins_at_once() -> None:
    state = at_place("6U 6S", "(5D) 4I", stacks={CAPITOL: stack("(4I)")}, variant="capitol")
    state = prove(act(state, "place 5D in Capitol", "place 4I in Peace"))
    assert state.winner == REBELLION and state.liberated == (CAPITOL,)


def test_capitol_variant_revolution_needs_25_in_the_capitol() -> None:
    # 21 in both: Peace falls to the Revolution; the Capitol needs 25 under the variant.
    base = {CAPITOL: stack("(6I) (6U) (6D)"), PEACE: stack("(5I) (5U) (5D) (2U)")}
    missions = (REVOLUTION, 3, 8, 1)  # Revolution, Coup, Civil Disobedience, Political Surge: none else met
    state = at_place("6S 5S", "(3I) 4I", stacks=base, variant="capitol", missions=missions)
    state = prove(act(state, "place 3I in Capitol", "place 4I in Peace"))
    assert state.liberated == (PEACE,)
    assert state.winner == -1
    state2 = at_place("6S 5S", "(3I) 4I", stacks=base, variant="standard", missions=missions)
    state2 = prove(act(state2, "place 3I in Capitol", "place 4I in Peace"))
    assert state2.liberated == (PEACE, CAPITOL)


def test_game_length_within_spec() -> None:
    for seed in range(10):
        _, record = play(unrest.GAME, [RandomAgent(), RandomAgent()], seed=seed)
        assert len(record.actions) <= unrest.GAME.spec.max_game_length


def test_render_names_the_district_being_proven() -> None:
    state = at_place("6U 6S", "(5D) 2I", stacks={PEACE: stack("(3I) (4I)")})
    state = act(state, "place 5D in Peace", "place 2I in Peace")
    for player in (REBELLION, EMPIRE, None):
        assert "Proving Ministry of Peace: nothing revealed yet" in unrest.render(state, player)
    state = act(state, "reveal 4I (card 2)")
    assert "Proving Ministry of Peace: revealed 4I so far" in unrest.render(state, EMPIRE)


# ----- a proof is minimal against everything the Empire knows ---------------------------------------------------------
# "The Rebellion immediately reveals enough cards to prove to the Empire that the Mission card's conditions have been
# met (they do not have to reveal more cards than necessary)." A hidden card can only be one the Empire has not seen
# face up anywhere (the deck of 24 is known): a proof the face-up cards already make needs no reveal. What the
# liberation checks told the Empire counts too: see test_minimal_proofs.py.


def test_a_proof_counts_the_cards_face_up_in_other_districts() -> None:
    # Fortified Organizers with 6D 4D 4S (2S): Disruption 10, Supplies 4 seen. With the 6S face up in Plenty the
    # hidden card adds at most 5 Supplies (4 + 5 < 10): the Mission is certain, nothing is revealed.
    state = at_place(
        "6U 3U",
        "4S",
        stacks={PEACE: stack("6D 4D (2S)"), PLENTY: stack("6S")},
        missions=(REVOLUTION, FORTIFIED, COUP, PLOT),
    )
    state = act(state, "place 4S in Peace")
    assert state.freed[PEACE] == 2 and state.step == "draw"
    assert not state.stacks[PEACE][2].revealed  # the 2S was never shown
    # With the 6S unseen (in the deck) a hidden card placed this round might be it (4 + 6 = 10): the 2S must be
    # shown. (Placed in round 1 it would need no reveal: Peace was not liberated at the end of round 1, so the hidden
    # card is no 5S or 6S, which would have met Fortified Organizers then; see test_minimal_proofs.py.)
    peace = (*stack("6D 4D"), *stack("(2S)", rnd=2))
    state = at_place("6U 3U", "4S", stacks={PEACE: peace}, missions=(REVOLUTION, FORTIFIED, COUP, PLOT))
    state = act(state, "place 4S in Peace")
    assert state.step == "liberate" and strings(state) == ["reveal 2S (card 3)"]


def test_a_proof_counts_the_destroyed_and_surveilled_cards() -> None:
    # Civil Disobedience: Upheaval 8 face up (6U 2U) and two hidden cards. All five Disruption cards are face up
    # elsewhere (destroyed, and one surveilled into Plenty): no hidden card can be one, so nothing is revealed.
    gone = [Destroyed(parse_card(name), True, 1) for name in ("2D", "3D", "4D", "5D")]
    state = at_place(
        "6I 3S",
        "2U",
        stacks={PEACE: stack("6U (M) (3I)"), PLENTY: stack("6D")},
        missions=(REVOLUTION, CIVIL, COUP, PLOT),
        destroyed=gone,
    )
    state = act(state, "place 2U in Peace")
    assert state.freed[PEACE] == 2 and state.step == "draw"
    assert [c.revealed for c in state.stacks[PEACE]] == [True, False, False, True]
    # With the 6D unseen the two hidden cards must both be shown (either might be it).
    state = at_place(
        "6I 3S", "2U", stacks={PEACE: stack("6U (M) (3I)")}, missions=(REVOLUTION, CIVIL, COUP, PLOT), destroyed=gone
    )
    state = prove(act(state, "place 2U in Peace"))
    assert state.freed[PEACE] == 2 and [c.revealed for c in state.stacks[PEACE]] == [True, True, True, True]


def test_the_known_deck_bounds_what_the_hidden_cards_can_be() -> None:
    # Coup with Intelligence, Upheaval and Disruption face up and two hidden cards: every card of the deck that is
    # not a Supplies card is face up somewhere but one Misdirection, so of two hidden cards one is a Supplies card.
    missions = (REVOLUTION, COUP, PLOT, SLEEPER)
    others = [f"{v}{s}" for v in range(2, 7) for s in "IUD"]
    shown = [n for n in others if n not in ("2I", "3U", "4D")] + ["M", "M", "M"]
    state = at_place(
        "",
        "4D",
        stacks={PEACE: stack("2I 3U (M) (5S)")},
        missions=missions,
        destroyed=destroyed_early(parse_card(n) for n in shown),
        rnd=6,
    )
    state = act(state, "place 4D in Peace")
    assert state.freed[PEACE] == 6 and not any(c.proved for c in state.stacks[PEACE])
