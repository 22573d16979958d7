"""Setup and difficulty settings."""

from __future__ import annotations

import pytest

from tabletop_core.errors import OptionError
from tests.unbroken.helpers import GAME, REFERENCE, at_battle, fresh, roll, texts
from unbroken.rules.chance import DieRoll
from unbroken.rules.combat import CombatRoll
from unbroken.state import CUNNING, ME, METAL, SE, TIME, TREASURE


def test_setup_bare_hands_equipped_and_level_one_time() -> None:
    s = fresh()
    assert s.weapons == ("bare_hands",) and s.amount(TIME) == 7 and s.uses == 1
    assert s.level == 1 and s.pos.step == "preparation"


@pytest.mark.parametrize(("difficulty", "se"), [("normal", 13), ("hard", 10), ("easy", 13)])
def test_difficulty_starting_small_effort(difficulty: str, se: int) -> None:
    assert fresh(difficulty=difficulty).amount(SE) == se


def test_easy_fifteen_small_effort_option() -> None:
    assert fresh(difficulty="easy", easy_se15=True).amount(SE) == 15
    with pytest.raises(OptionError):
        fresh(difficulty="normal", easy_se15=True)


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError):
        fresh(difficulty="nightmare")
    with pytest.raises(OptionError):
        fresh(character="wizard")


@pytest.mark.parametrize(("face", "slot"), [(1, METAL), (4, CUNNING), (5, ME), (6, TREASURE)])
def test_easy_extra_resource_by_die_roll(face: int, slot: int) -> None:
    s = fresh(difficulty="easy")
    assert isinstance(s.pending.top, DieRoll) and GAME.current_player(s) == -1
    s = roll(s, face)
    assert s.amount(slot) == 1


def test_easy_starting_skill_draw_two_keep_one() -> None:
    s = roll(fresh(difficulty="easy"), 2)
    s = GAME.step(s, GAME.legal_actions(s)[0])
    s = GAME.step(s, GAME.legal_actions(s)[0])
    assert len(s.offered) == 2 and texts(s)[0].startswith("pick 0 ")
    kept = s.pack.skills[s.offered[1]].id
    s = GAME.step(s, GAME.parse_action(s, texts(s)[1]))
    assert s.skills == (kept,) and len(s.skill_deck.discards) == 1


def test_normal_and_hard_have_no_setup_chance() -> None:
    assert GAME.current_player(fresh(difficulty="normal")) == 0
    assert GAME.current_player(fresh(difficulty="hard")) == 0


def test_hard_monster_acts_first() -> None:
    s = at_battle("kobold", 1, pack=REFERENCE, difficulty="hard")
    assert isinstance(s.pending.top, CombatRoll) and not s.pending.top.reroll
    n = at_battle("kobold", 1, pack=REFERENCE, difficulty="normal")
    assert "skip" in texts(n)
