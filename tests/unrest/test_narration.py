"""The words at the table agree with the rules: the Final Encounter's placement text (a Blockade still closes its
District), the reason a Capitol-variant game ended, and the final table's marks."""

from __future__ import annotations

import re
from pathlib import Path

import attrs
import pytest

import unrest
from tests.unrest.helpers import CAPITOL, PEACE, POLICE, TRUTH, act, prove, stack, strings
from tests.unrest.test_liberation import at_place
from tests.unrest.test_round import final_encounter_plan
from unrest.content import CONTENT
from unrest.glossary import end_reason, step_rules
from unrest.state import REBELLION

HOW_TO_PLAY = Path(__file__).parents[2] / "docs" / "how-to-play" / "unrest.md"


def _placeable(state: unrest.UnrestState) -> set[str]:
    return {s.split(" in ")[1] for s in strings(state)}


@pytest.mark.parametrize("empire", [("blockade Police", "destroy card 3"), ("surveil card 1", "destroy card 3")])
def test_the_final_encounter_placement_text_keeps_the_blockade(empire: tuple[str, str]) -> None:
    # The decided rule: a Blockade holds in the Final Encounter. The rule text says so, and the legal placements
    # are every District the text allows: all still in the row, less the blockaded one.
    state = act(final_encounter_plan(), *empire)
    assert state.step == "place" and state.final
    text = step_rules(state)
    assert "any District still in the row, except one under the Empire's Blockade" in text
    assert "except a Blockaded one" in text
    short = {d: CONTENT.districts[d].short for d in state.row}
    allowed = {short[d] for d in state.row if d != state.blockade}
    assert _placeable(state) == allowed
    assert ("Police" in allowed) == (state.blockade != POLICE)


def test_how_to_play_says_a_blockade_still_closes_its_district_in_the_final_encounter() -> None:
    text = " ".join(HOW_TO_PLAY.read_text(encoding="utf-8").split())
    final = re.search(r"the next round is the \*\*Final Encounter\*\*[^.]*\.", text)
    assert final is not None
    assert "any District still in play except a blockaded one" in final.group(0)


def capitol_win(variant: str = "capitol") -> tuple[unrest.UnrestState, unrest.UnrestState]:
    """A round's placement (with a Blockade on Truth) and the state after it, where the Capitol is liberated."""
    state = at_place("6U 6S", "(5D) 4I", stacks={CAPITOL: stack("(4I)")}, variant=variant)
    state = attrs.evolve(state, blockade=TRUTH)
    return state, prove(act(state, "place 5D in Capitol", "place 4I in Peace"))


def test_a_capitol_win_names_the_capitol_rule() -> None:
    _, won = capitol_win()
    assert won.winner == REBELLION and won.liberated == (CAPITOL,)
    reason = end_reason(won)
    assert "in the Capitol variant liberating the Capitol wins the game at once" in reason
    assert "1 Districts" not in reason
    # A game won by three liberations names no Capitol rule.
    three = attrs.evolve(won, freed=(0, 1, 2, 0, 2), winner=REBELLION)
    assert end_reason(three).startswith("The Rebellion wins: it liberated 3 Districts")
    assert "Capitol variant" not in end_reason(three)


def test_the_final_table_after_a_winning_liberation_drops_the_rounds_marks() -> None:
    before, won = capitol_win()
    for player in (REBELLION, 1, None):
        assert "[AoI]" in unrest.render(before, player) and "[Blockade]" in unrest.render(before, player)
        assert "[AoI]" not in unrest.render(won, player) and "[Blockade]" not in unrest.render(won, player)
    assert CONTENT.districts[PEACE].name in unrest.render(won)
