"""The core's defaults for the per-seat description and glossary hooks."""

from __future__ import annotations

import attrs

from tabletop_core.spec import CHANCE, Information
from tabletop_core.testing.kuhn import GAME, Deal, Kuhn, KuhnState, Move


def _dealt(cards: tuple[int, int]) -> KuhnState:
    state = GAME.new_game()
    for card in cards:
        state = GAME.step(state, Deal(card))
    return state


def test_default_describe_hides_other_seats_moves_in_a_hidden_information_game() -> None:
    state = _dealt((0, 2))
    after = GAME.step(state, Move(1))
    assert GAME.describe(state, Move(1), after, 1) == ("player 0 acts",)
    assert GAME.describe(state, Move(1), after, 0) == ("player 0: bet",)
    assert GAME.describe(state, Move(1), after) == ("player 0: bet",)


def test_default_describe_gives_identical_lines_for_deals_that_differ_only_in_hidden_cards() -> None:
    for hidden in (0, 1):
        seen = {GAME.describe(_dealt((hidden, 2)), Move(0), GAME.step(_dealt((hidden, 2)), Move(0)), 1)}
        seen.add(GAME.describe(_dealt((1 - hidden, 2)), Move(0), GAME.step(_dealt((1 - hidden, 2)), Move(0)), 1))
        assert len(seen) == 1
    deal_a, deal_b = GAME.new_game(), GAME.new_game()
    line_a = GAME.describe(deal_a, Deal(0), GAME.step(deal_a, Deal(0)), 1)
    line_b = GAME.describe(deal_b, Deal(2), GAME.step(deal_b, Deal(2)), 1)
    assert line_a == line_b == ("chance acts",)


def test_default_describe_shows_everything_in_a_perfect_information_game() -> None:
    class Open(Kuhn):
        spec = attrs.evolve(GAME.spec, information=Information.PERFECT)

        def describe_transition(self, before: KuhnState, action: Move | Deal, after: KuhnState) -> tuple[str, ...]:
            return (f"{len(after.hands)} dealt",)

    game = Open()
    state = game.new_game()
    assert game.describe(state, Deal(2), game.step(state, Deal(2)), 1) == ("chance: deal K", "1 dealt")


def test_default_seat_names_and_end_reason() -> None:
    state = _dealt((0, 2))
    assert GAME.seat_name(state, 1) == "player 1" and GAME.seat_name(state, CHANCE) == "chance"
    assert GAME.end_reason(state) == ""
    end = GAME.step(GAME.step(state, Move(1)), Move(0))
    assert GAME.end_reason(end) == "the game is over: player 0 1, player 1 -1"


def test_default_glossary_is_empty_and_the_step_rule_names_the_step() -> None:
    state = _dealt((0, 2))
    assert GAME.legend(state) == () and GAME.card_texts(state, 0) == ()
    assert GAME.step_rules(state) == GAME.describe_step(state)
