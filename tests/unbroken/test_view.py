"""Per-seat descriptions: every event of the solo game in words, draws, rolls and their effects."""

from __future__ import annotations

from tests.unbroken.helpers import GAME, REFERENCE, at_battle, at_prep, do, enc_index, with_res
from unbroken.actions import Die, DrawCard
from unbroken.state import State


def _said(before: State, text: str) -> tuple[State, tuple[str, ...]]:
    action = GAME.parse_action(before, text)
    after = GAME.step(before, action)
    return after, GAME.describe(before, action, after)


def test_describe_names_each_encounter_revealed() -> None:
    s = do(with_res(at_prep(1), se=10), "explore")
    after, lines = _said(s, "draw Bat Roost")
    assert lines == ("you reveal the encounter Bat Roost",)
    assert GAME.describe(s, DrawCard(enc_index(s, "bat_roost")), after, 0) == lines  # every seat sees it all


def test_describe_a_resolved_encounter_shows_the_resources_before_and_after() -> None:
    s = do(with_res(at_prep(1), se=10, food=0), "explore", "draw Bat Roost", "draw Lichen Wall", "pick 0 Bat Roost")
    _, lines = _said(s, "resolve")
    assert lines[0] == "you resolve the encounter Bat Roost"
    assert "resources: Small Effort 10 -> 9, Food 0 -> 3, Time 7 -> 4" in lines
    assert lines[-1] == "now: travel phase, preparation step"


def test_describe_a_monster_row_shows_what_it_did() -> None:
    s = do(with_res(at_battle("kobold", 1, pack=REFERENCE), se=10), "skip")
    rolled = GAME.step(s, Die(3))
    # The Sneak's Dodge may answer the roll: the roll is told, the row waits for the Response.
    assert GAME.describe(s, Die(3), rolled) == ("the Kobold rolls 3: WOUND: lose 2 Small Effort",)
    passed, lines = _said(rolled, "pass")
    assert lines[:2] == ("you pass", "the Kobold's Combat Action: WOUND: lose 2 Small Effort")
    assert "resources: Small Effort 10 -> 8" in lines
    assert passed.amount(0) == 8


def test_describe_a_monster_reveal_and_the_tracker() -> None:
    s = with_res(at_prep(1), se=10)
    s = do(s, "fight")
    after = GAME.step(s, Die(1))
    lines = GAME.describe(s, Die(1), after)
    assert lines[0] == f"you roll 1: the monster of Level 1 is the {s.pack.monster_for(1, 1).name}"
    assert any(line.startswith("the monster is revealed") for line in lines)
    assert any("on the Monster Tracker" in line for line in lines)


def test_describe_an_attack_shows_what_it_cost_and_the_wounds() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE), se=10)
    _, lines = _said(s, "attack punch")
    assert lines[0] == "you attack punch"
    assert any(line.startswith("resources: Small Effort 10 -> ") for line in lines)
    assert any(line.startswith("the Kobold's Health 5 -> ") for line in lines)


def test_seat_name_is_you_and_chance() -> None:
    s = at_prep(1)
    assert GAME.seat_name(s, 0) == "you" and GAME.seat_name(s, -1) == "chance"
