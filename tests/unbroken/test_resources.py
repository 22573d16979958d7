"""Resources: bounded tracks, Effort categories, losing Effort you do not have."""

from __future__ import annotations

import attrs

from tests.unbroken.helpers import GAME, REFERENCE, at_battle, at_prep, do, draw, roll, texts, with_res
from unbroken.content.schema import Op
from unbroken.rules.effects import run_op
from unbroken.rules.resources import can_pay, lose_effort
from unbroken.state import LE, ME, SE


def test_gain_past_the_cap_is_lost() -> None:
    s = with_res(at_prep(1), se=19, time=7)
    s = do(s, "explore")
    s = draw(s, "quiet_alcove")
    s = draw(s, "lichen_wall")
    s = do(s, "pick 0 Quiet Alcove", "rest")  # Time Value 3
    assert s.amount(SE) == 20 == s.res[SE].high


def test_higher_effort_category_may_pay_for_lower() -> None:
    s = with_res(at_prep(1), se=0, me=1)
    assert can_pay(s, (Op("spend", res="se", n=1),))
    s = do(s, "orienteer")  # costs 1 Small Effort, paid with the Medium Effort
    assert s.amount(ME) == 0 and s.reveal_bonus == 2
    assert not can_pay(with_res(at_prep(1), se=3, me=0, le=0), (Op("spend", res="me", n=1),))


def test_lower_effort_never_pays_for_higher() -> None:
    s = with_res(at_prep(1), se=20, me=0, le=0)
    assert not can_pay(s, (Op("spend", res="le", n=1),))


def test_losing_effort_you_do_not_have_loses_the_game() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), se=1, me=0, le=0)
    s = do(s, "skip")
    s = roll(s, 3)  # WOUND: lose 2 Small Effort
    assert s.outcome == -1 and GAME.is_terminal(s) and GAME.returns(s) == (-1.0,)


def test_reaching_zero_effort_does_not_lose() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE, character="hunter"), se=2, me=0, le=0)
    s = do(s, "skip")
    s = roll(s, 3)
    assert s.amount(SE) == 0 and s.outcome == 0 and not GAME.is_terminal(s)


def test_lost_effort_is_covered_by_higher_categories() -> None:
    s = with_res(at_prep(1), se=1, me=1, le=1)
    out = lose_effort(s, SE, 3)
    assert out is not None and (out.amount(SE), out.amount(ME), out.amount(LE)) == (0, 0, 0)


def test_lose_without_alternative_on_other_resources_does_nothing() -> None:
    s = with_res(at_battle("kobold", 1, pack=REFERENCE), food=0, se=5)
    after = run_op(s, Op("lose", res="food", n=1), "monster:kobold")
    assert after.amount(SE) == 5 and after.outcome == 0
    _ = attrs


def test_player_chooses_which_higher_effort_covers_a_shortfall() -> None:
    s = with_res(at_prep(1), se=3, me=1, le=1)
    s = do(s, "focus")  # 4 Small Effort: 3 + 1 from Medium or Large Effort, the player's choice
    assert texts(s) == ["pick 0 medium effort first", "pick 1 large effort first"]
    medium = do(s, "pick 0 medium effort first")
    assert (medium.amount(SE), medium.amount(ME), medium.amount(LE)) == (0, 1, 1)  # paid 1 ME, gained 1 ME
    large = do(s, "pick 1 large effort first")
    assert (large.amount(SE), large.amount(ME), large.amount(LE)) == (0, 2, 0)


def test_no_payment_choice_when_it_cannot_differ() -> None:
    s = with_res(at_prep(1), se=3, me=1, le=0)
    assert do(s, "focus").amount(ME) == 1 and GAME.current_player(do(s, "focus")) == 0
    assert texts(do(with_res(at_prep(1), se=4, me=1, le=1), "focus"))[0] != "pick 0 medium effort first"


def test_player_chooses_which_higher_effort_covers_a_loss() -> None:
    """A WOUND of 3 Small Effort with 1 Small, 2 Medium and 2 Large Effort: the 2 missing may come from Medium or
    from Large Effort or from both, as the player chooses ("you can spend Effort of a higher category in place of
    ... a lower")."""
    s = with_res(at_battle("hyena", 1, pack=REFERENCE, character="hunter"), se=1, me=2, le=2)
    s = roll(do(s, "skip"), 6)  # the Hyena's 6: lose 3 Small Effort
    assert texts(s) == [
        "pick 0 lose 1 Small Effort, 2 Medium Effort",
        "pick 1 lose 1 Small Effort, 2 Large Effort",
        "pick 2 lose 1 Small Effort, 1 Medium Effort, 1 Large Effort",
    ]
    split = do(s, "pick 2 lose 1 Small Effort, 1 Medium Effort, 1 Large Effort")
    assert (split.amount(SE), split.amount(ME), split.amount(LE)) == (0, 1, 1)
    medium = do(s, "pick 0 lose 1 Small Effort, 2 Medium Effort")
    assert (medium.amount(SE), medium.amount(ME), medium.amount(LE)) == (0, 0, 2)
    large = do(s, "pick 1 lose 1 Small Effort, 2 Large Effort")
    assert (large.amount(SE), large.amount(ME), large.amount(LE)) == (0, 2, 0)


def test_hunger_losses_offer_the_same_choice_and_then_end_the_level() -> None:
    from unbroken.state import FLOW

    s = with_res(at_prep(2, character="hunter"), food=0, se=0, me=1, le=1)
    s = attrs.evolve(s, pos=FLOW.at("combat", "hunger", 2), monster="cave_bear")
    # Nothing to eat: 1 + 2 = 3 Small Effort for the two missing Food; only 2 higher Effort: starvation.
    assert do(s, "eat 0").outcome == -1
    s = with_res(s, se=2)
    s = do(s, "eat 0")  # 3 Small Effort: 2 Small and 1 from Medium or from Large Effort
    assert texts(s) == ["pick 0 lose 2 Small Effort, 1 Medium Effort", "pick 1 lose 2 Small Effort, 1 Large Effort"]
    s = do(s, "pick 1 lose 2 Small Effort, 1 Large Effort")
    assert (s.amount(SE), s.amount(ME), s.amount(LE)) == (0, 1, 0) and s.level == 3 and s.outcome == 0


def test_no_loss_choice_when_it_cannot_differ() -> None:
    s = with_res(at_battle("hyena", 1, pack=REFERENCE, character="hunter"), se=1, me=0, le=3)
    s = roll(do(s, "skip"), 6)
    assert (s.amount(SE), s.amount(LE)) == (0, 1) and "skip" in texts(s)
