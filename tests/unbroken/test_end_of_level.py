"""End of the Combat Phase, the end of the game, scoring and titles."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

import unbroken
from tests.unbroken.helpers import GAME, at_prep, cond, do, with_res
from unbroken.rules.scoring import score, title
from unbroken.state import FLOW, Cond


def _hunger(level: int, **kw: Any) -> unbroken.State:
    s = at_prep(level)
    return attrs.evolve(s, pos=FLOW.at("combat", "hunger", level), monster="kobold", **kw)


def test_end_of_combat_resets_ability_uses_and_rotates_conditions() -> None:
    s = _hunger(1, conditions=(Cond("poisoned", 1), Cond("armored")), next_conditions=cond("paranoid"), uses=0)
    s = with_res(s, food=1, se=5)
    s = do(s, "eat 1")
    assert s.uses == 2 and s.level == 2
    assert [c.id for c in s.conditions] == ["armored", "paranoid"] and s.next_conditions == ()
    assert s.monster == "" and s.combat is None


def test_hunger_eat_up_to_the_level_gaining_small_effort() -> None:
    s = with_res(_hunger(2), food=5, se=5)
    assert [GAME.action_to_str(s, a) for a in GAME.legal_actions(s)] == ["eat 0", "eat 1", "eat 2"]
    assert do(s, "eat 2").amount(0) == 7


@pytest.mark.parametrize(("eaten", "se_after"), [(0, 10 - 1 - 2 - 3), (1, 10 + 1 - 1 - 2), (2, 10 + 2 - 1), (3, 13)])
def test_hunger_costs_one_two_three_for_each_food_not_eaten(eaten: int, se_after: int) -> None:
    s = with_res(_hunger(3), food=3, se=10)
    assert do(s, f"eat {eaten}").amount(0) == se_after


def test_starvation_loses_the_game() -> None:
    s = with_res(_hunger(3), food=0, se=5, me=0, le=0)
    s = do(s, "eat 0") if GAME.legal_actions(s) else s
    assert s.outcome == -1


def test_win_after_level_four_and_the_score() -> None:
    s = with_res(_hunger(4), food=4, se=3, me=1, le=1, cunning=2, metal=1, wood=1, treasure=2)
    s = do(s, "eat 4")
    assert s.outcome == 1 and GAME.is_terminal(s)
    assert score(s) == 3 + 5 + 2 * 2 + 3 + 2 + 2 * 10
    assert GAME.returns(s) == (float(score(s)),)


def test_returns_put_every_loss_below_every_win() -> None:
    assert unbroken.LOSS < 0 <= GAME.spec.max_utility == unbroken.MAX_SCORE
    assert GAME.spec.min_utility == unbroken.LOSS


@pytest.mark.parametrize(
    ("points", "name"),
    [
        (0, "Prey"),
        (1, "Cast-off"),
        (10, "Cast-off"),
        (11, "Survivor"),
        (20, "Survivor"),
        (21, "Avenger"),
        (30, "Avenger"),
        (31, "Revenant"),
        (40, "Revenant"),
        (41, "Nemesis"),
        (150, "Nemesis"),
    ],
)
def test_title_scale(points: int, name: str) -> None:
    assert title(points) == name


def test_orienteer_bonus_and_commitment_end_with_the_level() -> None:
    s = with_res(_hunger(1, reveal_bonus=2, committed=True), food=1)
    s = do(s, "eat 1")
    assert (
        s.level == 2
        and s.reveal_bonus == 0
        and not s.committed
        and "fight" in [GAME.action_to_str(s, a) for a in GAME.legal_actions(s)]
    )
