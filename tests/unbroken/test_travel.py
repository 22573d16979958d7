"""Travel Phase: Preparation, Decision, Exploration, Time and Ambush."""

from __future__ import annotations

import attrs
import pytest

from tabletop_core.components import Pile
from tests.unbroken.helpers import GAME, REFERENCE, at_prep, do, draw, enc_index, roll, texts, with_res
from unbroken.rules.chance import DieRoll
from unbroken.rules.travel import DrawEncounters
from unbroken.state import CUNNING, FOOD, LE, ME, SE, TIME, WOOD


def test_general_action_focus() -> None:
    s = do(with_res(at_prep(1), se=8), "focus")
    assert (s.amount(SE), s.amount(ME)) == (4, 1)


def test_general_action_inspiration() -> None:
    s = do(with_res(at_prep(1), me=2), "inspiration")
    assert (s.amount(ME), s.amount(LE)) == (0, 1)


def test_general_action_plan() -> None:
    s = do(with_res(at_prep(1), se=8), "plan")
    assert (s.amount(SE), s.amount(CUNNING)) == (4, 1)


def test_cannot_take_an_action_without_its_resources() -> None:
    s = with_res(at_prep(1), se=3, me=0, le=0)
    assert "focus" not in texts(s) and "plan" not in texts(s) and "inspiration" not in texts(s)


def test_orienteer_reveals_two_extra_encounters() -> None:
    s = do(with_res(at_prep(1), se=5), "orienteer", "explore")
    assert s.amount(SE) == 4
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 4


@pytest.mark.parametrize(
    ("level", "before", "after"),
    [
        (1, {"se": 5, "time": 7}, {"se": 4, "time": 6}),
        (2, {"se": 5, "time": 7}, {"se": 3, "time": 5}),
        (3, {"cunning": 2, "time": 7}, {"cunning": 1, "time": 6}),
        (4, {"cunning": 1, "se": 5, "time": 7}, {"cunning": 0, "se": 3, "time": 5}),
    ],
)
def test_scout_costs_per_level_and_reveals_the_monster(
    level: int, before: dict[str, int], after: dict[str, int]
) -> None:
    s = with_res(at_prep(level), **before)
    s = do(s, "scout")
    assert isinstance(s.pending.top, DieRoll)
    s = roll(s, 3)
    assert s.monster == s.pack.monster_for(level, 3).id and s.pos.step == "preparation"
    for name, n in after.items():
        assert s.amount(["se", "me", "le", "cunning", "food", "wood", "metal", "treasure", "time"].index(name)) == n


def test_scouting_does_not_prevent_an_ambush() -> None:
    s = with_res(at_prep(1, pack=REFERENCE), se=5, time=1)
    s = do(s, "scout")
    s = roll(s, 1)  # the scout spent the last Time: straight to the Ambush Step
    assert s.pos.step == "battle" and s.amount(SE) == 4 - 2  # Kobold's Ambush: lose 2 Small Effort


def test_decision_fight_goes_to_trickery() -> None:
    s = do(at_prep(1), "fight")
    assert (s.pos.phase, s.pos.step) == ("combat", "trickery") and isinstance(s.pending.top, DieRoll)


def test_exploration_reveal_two_choose_one_discard_the_rest() -> None:
    s = do(at_prep(1), "explore")
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 2
    s = draw(draw(s, "rotten_cart"), "lichen_wall")
    assert texts(s) == ["pick 0 Rotten Cart", "pick 1 Lichen Wall"]
    s = do(s, "pick 1 Lichen Wall")
    assert s.encounters.discards == (enc_index(s, "rotten_cart"),)
    s = do(s, "resolve")
    assert s.amount(FOOD) == 1 and s.amount(TIME) == 6
    assert s.encounters.discards[-1] == enc_index(s, "lichen_wall")


def test_resolve_needs_the_spend_field() -> None:
    s = with_res(do(at_prep(1), "explore"), wood=0)
    s = draw(draw(s, "eel_trap"), "lichen_wall")  # Eel Trap spends 1 Wood
    s = do(s, "pick 0 Eel Trap")
    assert texts(s) == ["rest"]
    s = do(s, "rest")
    assert s.amount(SE) == 13 + 2 and s.amount(TIME) == 5


def test_rest_gains_small_effort_equal_to_time_value() -> None:
    s = draw(draw(do(at_prep(1), "explore"), "ore_vein"), "lichen_wall")
    s = do(s, "pick 0 Exposed Ore Vein", "rest")
    assert s.amount(SE) == 16 and s.amount(TIME) == 4


def test_commit_to_the_next_encounter() -> None:
    s = draw(draw(do(at_prep(1), "explore"), "rope_descent"), "lichen_wall")
    s = do(s, "pick 0 Rope Descent", "resolve")
    assert s.committed and s.amount(WOOD) == 2
    assert "fight" not in texts(s)  # forced exploration
    s = do(s, "explore")
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 1  # exactly 1, regardless of modifiers
    s = draw(s, "quiet_alcove")
    assert s.amount(SE) == 13 + 5 and s.pos.step == "preparation" and not s.committed  # resolved, no Rest offered


def test_committed_unpayable_encounter_gives_nothing_but_costs_time() -> None:
    s = draw(draw(do(with_res(at_prep(1), treasure=0), "explore"), "rope_descent"), "lichen_wall")
    s = do(s, "pick 0 Rope Descent", "resolve")
    s = do(attrs.evolve(s, reveal_bonus=2), "explore")  # a reveal bonus does not count while committed
    assert isinstance(s.pending.top, DrawEncounters) and s.pending.top.n == 1
    before = s
    s = draw(s, "lost_merchant")  # spends 2 Treasure: cannot be paid
    assert s.amount(TIME) == before.amount(TIME) - 3
    assert [s.amount(r) for r in range(8)] == [before.amount(r) for r in range(8)]


def test_time_reaching_zero_ambushes_with_full_benefit() -> None:
    s = draw(draw(do(with_res(at_prep(1), time=1), "explore"), "rotten_cart"), "lichen_wall")
    s = do(s, "pick 0 Rotten Cart", "resolve")
    assert s.amount(WOOD) == 2 and s.pos.step == "ambush"


def test_zero_time_at_level_start_is_an_ambush() -> None:
    from unbroken.rules import flow

    s = flow.run(with_res(at_prep(2), time=0))
    assert s.pos.step == "ambush"


def test_encounter_deck_reshuffles_the_discard_when_empty() -> None:
    s = at_prep(1)
    a, b = enc_index(s, "rotten_cart"), enc_index(s, "lichen_wall")
    s = attrs.evolve(s, encounters=Pile.of([], discards=[a, b]))
    s = do(s, "explore")
    outcomes = GAME.chance_outcomes(s)
    assert sorted(GAME.action_to_str(s, o) for o, _ in outcomes) == ["draw Lichen Wall", "draw Rotten Cart"]
    s = draw(s, "rotten_cart")
    assert s.encounters.discards == () and s.encounters.count(b) == 1


def test_preparation_repeats_until_fight_or_ambush() -> None:
    s = draw(draw(do(at_prep(1), "explore"), "rotten_cart"), "lichen_wall")
    s = do(s, "pick 1 Lichen Wall", "rest")
    assert s.pos.step == "preparation" and "explore" in texts(s) and "fight" in texts(s)
