"""The rulebook's worked examples, step by step."""

from __future__ import annotations

import attrs

from tests.unbroken.helpers import REFERENCE, at_battle, at_prep, cond, do, draw, roll, texts, with_res
from unbroken.state import FOOD, LE, METAL, SE, TIME


def test_sneak_vs_basilisk_combat_example() -> None:
    """Rulebook COMBAT EXAMPLE: the Sneak, with Sword, Daring, Wrecker and Paranoid, faces the Basilisk (Normal)."""
    s = at_battle(
        "basilisk",
        4,
        advance=False,
        character="sneak",
        weapons=("bare_hands", "knife", "sword"),
        skills=("daring", "wrecker"),
        conditions=cond("paranoid"),
    )
    s = attrs.evolve(with_res(s, se=6, le=1, metal=1, food=2), uses=2)
    from unbroken.rules import flow

    s = flow.run(s)
    # The Basilisk starts with 1 Armor and 12 Health; the mandatory Responses (Paralyzed 2 tokens, Paranoid +2
    # Health) commute; Daring is optional, so the player decides.
    assert s.combat is not None and s.combat.armor == 1
    assert texts(s) == ["pass", "respond 0 daring"]
    s = do(s, "respond 0 daring")
    assert s.amount(SE) == 10  # Daring: Small Effort equal to the monster's Level (4)
    assert s.combat is not None and s.combat.health == 14 and s.combat.max_health == 14  # Paranoid
    assert [(c.id, c.tokens) for c in s.conditions] == [("paranoid", 0), ("paralyzed", 2)]
    # The Sneak goes first (Normal); Paralyzed asks for a roll, the Basilisk's Response allows a Metal instead.
    assert texts(s) == ["pick 0 roll", "pick 1 spend 1 metal"]
    s = do(s, "pick 1 spend 1 metal")
    assert s.amount(METAL) == 0
    assert [(c.id, c.tokens) for c in s.conditions] == [("paranoid", 0), ("paralyzed", 1)]
    # Sword Armor-Breaking attack for 1 Small Effort; Wrecker (optional Response) grants another attack.
    s = do(s, "attack sunder")
    assert s.combat is not None and s.combat.armor == 0 and s.amount(SE) == 9
    s = do(s, "respond 0 wrecker")
    s = do(s, "attack cleave")  # 1 Large Effort + 2 Small Effort: 5 Wounds, capped at 4 by the Basilisk
    assert s.amount(LE) == 0 and s.amount(SE) == 7
    assert s.combat is not None and s.combat.health == 10
    # The Combat Roll is a 6 (WOUND); Dodge (1 Small Effort, 1 Ability Use) turns it into a 5: lose 1 Food.
    s = roll(s, 6)
    assert "respond 0 Dodge" in texts(s)
    s = do(s, "respond 0 Dodge")
    assert s.uses == 1 and s.amount(SE) == 6 and s.amount(FOOD) == 1
    assert s.combat is not None and s.combat.roll == 5 and s.combat.health == 10


def test_huntress_hunger_example() -> None:
    """Hunger example: Level 3, requirement 3, 2 Food, she eats 1: +1 Small Effort, then loses 1 + 2 = 3."""
    s = at_prep(3, character="hunter")
    s = attrs.evolve(with_res(s, se=8, food=2), pos=s.pos.__class__(3, "combat", "hunger"), monster="minotaur")
    assert texts(s) == ["eat 0", "eat 1", "eat 2"]
    s = do(s, "eat 1")
    assert s.amount(FOOD) == 1
    assert s.amount(SE) == 8 + 1 - 3
    assert s.level == 4 and s.pos.step == "preparation"


def test_rest_through_ambush_example() -> None:
    """ "if you had 2 Time left and chose to Rest through a card with Time Value 5: you receive 5 Small Effort,
    move the token on your Time Tracker to 0, and proceed to the Ambush Step"."""
    s = with_res(at_prep(1, pack=REFERENCE), se=10, time=2)
    s = do(s, "explore")
    s = draw(s, "long_detour")  # Time Value 5
    s = draw(s, "quiet_alcove")
    s = do(s, "pick 0 Long Detour", "rest")
    assert s.amount(SE) == 15
    assert s.amount(TIME) == 0
    assert (s.pos.phase, s.pos.step) == ("combat", "ambush")  # the monster is revealed by a roll first
    s = roll(s, 2)  # Level 1 monster number 2: the Hyena (Ambush: lose 3 Small Effort)
    assert s.combat is not None and s.combat.monster == "hyena"
    assert s.amount(TIME) == 9  # reset to the start of Level 2
    assert s.amount(SE) == 12 and s.pos.step == "battle"
