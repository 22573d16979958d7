"""Characters: four sheets, abilities usable Level times per Level, Dodge and Power Through."""

from __future__ import annotations

import pytest

from tests.unbroken.helpers import REFERENCE, at_battle, at_prep, do, roll, texts, with_res
from unbroken.state import FOOD, SE


def test_four_characters() -> None:
    assert [c.name for c in at_prep(1).pack.characters] == ["Sneak", "Sage", "Hunter", "Brawler"]


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_ability_uses_equal_the_level(level: int) -> None:
    s = with_res(at_prep(level, character="hunter"), time=9)
    for _ in range(level):
        s = do(s, "use Forage")
    assert s.uses == 0 and s.amount(FOOD) == level
    assert "use Forage" not in texts(s)


def test_dodge_spends_small_effort_and_an_ability_use_to_lower_the_roll() -> None:
    s = with_res(at_battle("hyena", 1, pack=REFERENCE, character="sneak"), se=10)
    s = roll(do(s, "skip"), 6)  # WOUND 3
    s = do(s, "respond 0 Dodge")  # -> 5: WOUND 2
    assert s.uses == 0 and s.amount(SE) == 10 - 1 - 2


def test_dodge_is_optional() -> None:
    s = with_res(at_battle("hyena", 1, pack=REFERENCE, character="sneak"), se=10)
    s = roll(do(s, "skip"), 6)
    s = do(s, "pass")
    assert s.uses == 1 and s.amount(SE) == 7


def test_power_through_once_per_attack_again_next_turn() -> None:
    s = with_res(at_battle("cave_bear", 2, character="brawler"), se=15)
    s = do(s, "attack shove")
    s = roll(s, 1)
    s = do(s, "attack punch", "respond 0 Power Through")
    assert s.combat is not None and s.combat.health == 8 - 3 and s.uses == 1
    s = roll(s, 1)
    s = do(s, "attack punch")
    assert "respond 0 Power Through" in texts(s)  # a new attack: it may be used again


def test_an_ability_that_could_do_nothing_is_not_offered() -> None:
    """Remedy with no Condition, or Study once the monster is known, would only spend an Ability Use."""
    from tests.unbroken.helpers import cond

    s = with_res(at_prep(2, character="sage"), time=9)
    assert "use Remedy" not in texts(s) and "use Study" in texts(s)
    assert "use Remedy" in texts(with_res(at_prep(2, character="sage", conditions=cond("poisoned")), time=9))
    scouted = with_res(at_prep(2, character="sage", monster="dark_elf"), time=9)
    assert "use Study" not in texts(scouted)
