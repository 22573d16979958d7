"""Every Mission card's example, played (the rulebook's "Mission Card Reference").

Each test lays the example's cards in Peace, the last of them by the Rebellion's placement at the end of a round,
and plays the liberation check through the public API. Revolution, Coup, Espionage, Energized Press and Civil
Disobedience print no example: their tests play the nearest position, the smallest stack the clause names. The
Fortified Organizers example "6 of Disruption and 3 of Supplies" contradicts its own rule (Supplies "must be more
than 3"): the rule wins and the test shows that stack liberates nothing.
"""

from __future__ import annotations

import unrest
from tests.unrest.helpers import (
    CAPITOL,
    CIVIL,
    COUP,
    ESPIONAGE,
    FORTIFIED,
    PEACE,
    PLOT,
    PRESS,
    REVOLUTION,
    SLEEPER,
    SURGE,
    plan,
    prove,
    stack,
    table,
)
from unrest.actions import Place
from unrest.rules.missions import MISSIONS
from unrest.state import UnrestState


def play_example(held: str, planned: str, mission: int, others: tuple[int, int]) -> UnrestState:
    """Peace holds ``held``; the Rebellion places the ``planned`` cards there (slot by slot) and proves what it must.

    The Missions on the table are the Revolution, ``mission`` and ``others`` (chosen so the example meets no other).
    """
    missions = (REVOLUTION, *sorted({mission, *others} - {REVOLUTION}))
    state = table(
        hand="",
        planned=plan(planned),
        stacks={PEACE: stack(held)},
        missions=missions,
        rnd=2,
        step="place",
        aoi=(PEACE, CAPITOL),
        tokens=(False, False, True, True),
    )
    while state.step == "place":
        state = unrest.step(
            state, next(a for a in unrest.legal_actions(state) if isinstance(a, Place) and a.district == PEACE)
        )
    return prove(state)


def met_only(state: UnrestState, mission: int) -> bool:
    """Whether Peace's stack meets ``mission`` and no other Mission on the table but the ones that it names."""
    return MISSIONS[mission].is_met(state.stacks[PEACE]) and all(
        not MISSIONS[m].is_met(state.stacks[PEACE]) for m in state.missions if m != mission
    )


def test_revolution_total_of_21_or_more() -> None:
    # "The stack of cards must have a total sum of 21 or more" (no printed example): 6 + 6 + 6 + 3.
    state = play_example("(6I) (6U)", "(6D) 3S", REVOLUTION, (CIVIL, SLEEPER))
    assert state.freed[PEACE] == 2 and met_only(state, REVOLUTION)
    assert [c.proved for c in state.stacks[PEACE]] == [True, True, True, False]
    state = play_example("(6I) (6U)", "(6D) 2S", REVOLUTION, (CIVIL, SLEEPER))  # 20
    assert state.freed[PEACE] == 0


def test_political_surge_three_face_up_intelligence_cards() -> None:
    # "The stack contains three face up Intelligence cards (2 of Intelligence, 3 of Intelligence, and 4 of
    # Intelligence)": liberated without a reveal.
    state = play_example("2I 3I", "4I", SURGE, (CIVIL, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, SURGE)
    assert not any(c.proved for c in state.stacks[PEACE])
    # The same three cards with the 4I placed face down are not three revealed cards.
    assert play_example("2I 3I", "(4I)", SURGE, (CIVIL, PLOT)).freed[PEACE] == 0


def test_fortified_organizers_examples_and_the_trap() -> None:
    # "The stack contains ... 4 of Disruption, 5 of Disruption and 5 of Supplies": 9 above 5, and 5 more than 3.
    state = play_example("(4D) (5D)", "5S", FORTIFIED, (CIVIL, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, FORTIFIED)
    # The trap: "6 of Disruption and 3 of Supplies" breaks "the total sum of Supplies cards must be more than 3".
    state = play_example("(6D)", "3S", FORTIFIED, (CIVIL, PLOT))
    assert state.freed[PEACE] == 0 and not MISSIONS[FORTIFIED].is_met(state.stacks[PEACE])


def test_coup_one_card_of_each_suit() -> None:
    # "at least one card of each suit (Intelligence, Disruption, Upheaval, and Supplies)" (no printed example).
    state = play_example("(2I) (3U)", "(4D) 5S", COUP, (CIVIL, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, COUP)
    assert play_example("(2I) (3U)", "(4D) 5D", COUP, (CIVIL, PLOT)).freed[PEACE] == 0  # no Supplies


def test_coordinated_plot_three_fives() -> None:
    # "The stack contains 5 of Intelligence, 5 of Supplies, and 5 of Upheaval."
    state = play_example("(5I) (5S)", "5U", PLOT, (CIVIL, COUP))
    assert state.freed[PEACE] == 2 and met_only(state, PLOT)
    assert [c.proved for c in state.stacks[PEACE]] == [True, True, False]


def test_sleeper_cell_run_of_four_and_no_wrap() -> None:
    # "the stack contains 3 and 4 of Supplies, 5 of Intelligence, and 6 of Upheaval."
    state = play_example("(3S) (4S)", "(5I) 6U", SLEEPER, (CIVIL, COUP))
    assert state.freed[PEACE] == 2 and met_only(state, SLEEPER)
    # "6's and 2's are not considered consecutive": 6, 2, 3, 4 is no run of four.
    assert play_example("(6S) (2S)", "(3I) 4U", SLEEPER, (CIVIL, COUP)).freed[PEACE] == 0


def test_espionage_intel_and_disruption_four_or_more() -> None:
    # "The total Intel value is 4 or more and the total Disruption value is 4 or more" (no printed example).
    state = play_example("(4I)", "4D", ESPIONAGE, (CIVIL, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, ESPIONAGE)
    assert play_example("(3I)", "4D", ESPIONAGE, (CIVIL, PLOT)).freed[PEACE] == 0


def test_energized_press_intel_above_upheaval_of_three_or_more() -> None:
    # "The total Intel value is more than the total Upheaval value and the Upheaval value is 3 or more."
    state = play_example("(5I)", "3U", PRESS, (CIVIL, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, PRESS)
    assert play_example("(4I)", "4U", PRESS, (CIVIL, PLOT)).freed[PEACE] == 0  # not more


def test_civil_disobedience_upheaval_eight_and_no_disruption() -> None:
    # "The total Upheaval value is 8 or more and there are no Disruption cards" (no printed example).
    state = play_example("(2U)", "6U", CIVIL, (COUP, PLOT))
    assert state.freed[PEACE] == 2 and met_only(state, CIVIL)
    assert play_example("(2U) (2D)", "6U", CIVIL, (COUP, PLOT)).freed[PEACE] == 0
