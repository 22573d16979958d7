"""Per-seat descriptions: every transition in words (casts, actions, the board's actions, blocks, damage, defeats).

Combat hides nothing, so every seat reads the same lines.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import runebound_coop as rb
from runebound_coop import view
from runebound_coop.actions import Action, Block, Choose, Pass, Respond
from runebound_coop.state import ChoiceFrame
from tabletop_core.spec import CHANCE
from tests.playouts import first, last, random_moves

from .helpers import forced


def _said(state: rb.RuneboundState, action: Action, player: int | None = None) -> tuple[str, ...]:
    return rb.GAME.describe(state, action, rb.step(state, action), player)


def test_seats_are_named_by_role() -> None:
    state = rb.new_game(heroes=("Elian", "Corbin"), enemy_choices="player")
    names = [rb.GAME.seat_name(state, p) for p in (0, 1, 2, CHANCE)]
    assert names == ["Elian", "Corbin", "the enemy", "chance"]


def test_casts_name_the_owner_the_token_and_the_face_in_words() -> None:
    state = rb.new_game(heroes=("Elian",), enemies=("Sorcerer",))
    assert _said(state, rb.legal_actions(state)[1]) == ("Elian casts: token 0 lands 2 physical",)
    state = forced("aab", heroes=("Elian",), enemies=("Sorcerer",))
    assert _said(state, rb.legal_actions(state)[0]) == ("the Sorcerer casts: token 0 lands surge",)


def test_the_combat_example_in_words() -> None:
    state = forced("aaa aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    twin = rb.parse_action(state, "exert 0 Twin Blades charge")
    lines = _said(state, twin)
    assert lines[0] == "Elian exerts for Twin Blades"
    assert "Elian's token 0 (charge) is removed" in lines and "Sorcerer takes 3 damage (3/5)" in lines
    assert lines[-2:] == ("the Sorcerer resolves its double space", "the Sorcerer doubles token 0 (surge) with token 1")
    state = rb.step(state, twin)
    assert _said(state, Pass()) == (
        "Elian passes",
        "the Sorcerer resolves its surge space",
        "the Sorcerer spends token 0 (surge)",
        "Elian blocks with token 2 (shield)",
        "the Sorcerer triggers Blast: Deal 3 skull. Your foe may spend 1 tactics to cancel this ability.",
        "Elian takes 2 damage (2/9)",
        "the Sorcerer resolves its tactics space",
        "the Sorcerer spends token 2 (tactics)",
        "Elian takes 1 damage (3/9)",
        "the Sorcerer resolves its skull space",
        "the Sorcerer spends token 3 (skull), token 4 (skull)",
        "Elian takes 2 damage (5/9)",
        "the Sorcerer passes: no space of its board can resolve",
        "round 2: both combatants recast every token",
    )


def test_a_cancel_and_its_tactics_in_words() -> None:
    state = forced("a b a  a a a a a a", heroes=("Elian",), enemies=("Sorcerer",))
    assert _said(state, Pass())[-1] == "Elian may cancel Blast with 1 tactics"
    state = rb.step(state, Pass())
    cancelled = _said(state, Respond(True))
    assert cancelled[:2] == ("Elian cancels Blast with 1 tactics", "Elian spends token 1 (tactics)")
    assert _said(state, Respond(False))[-1] == "Elian is about to take 3 damage and may block with a tactics"
    state = rb.step(state, Respond(False))
    allowed = _said(state, Block(True))
    assert allowed[:3] == (
        "Elian spends a tactics as a shield",
        "Elian blocks with token 1 (tactics), token 2 (shield)",
        "Elian takes 1 damage (1/9)",
    )


def test_the_enemy_players_choice_and_a_defeat_in_words() -> None:
    options: dict[str, Any] = {"heroes": ("Corbin",), "enemies": ("Undead Horde",), "enemy_choices": "player"}
    seen_choice = seen_defeat = False
    for seed in range(40):
        start = rb.new_game(**options)
        for state, action, _ in random_moves(rb.GAME, start, np.random.default_rng(seed), choose=last):
            lines = _said(state, action)
            if isinstance(action, Choose) and isinstance(state.pending.top, ChoiceFrame):
                assert lines[0].startswith("the enemy chooses ")
                seen_choice = True
            seen_defeat |= any(line.endswith(" is defeated") for line in lines)
        if seen_choice and seen_defeat:
            break
    assert seen_choice and seen_defeat


def test_every_seat_reads_the_same_lines_and_the_replay_changes_nothing() -> None:
    start = rb.new_game(heroes=("Elian", "Corbin"), enemy_choices="player")
    for state, action, after in random_moves(rb.GAME, start, np.random.default_rng(4), choose=first, limit=120):
        lines = rb.GAME.describe(state, action, after)
        assert lines and all(rb.GAME.describe(state, action, after, p) == lines for p in range(3))
        steps = view.replay(state, action)
        assert steps[-1][1] == after


def test_a_two_token_agility_space_names_each_tokens_payment_and_trigger() -> None:
    """The Mirror Imp shows two agility tokens (0: A*, 4: A); in one action each fires Echo ("Recast any spent
    token"), the second recasting the first's spent token: both payments and both triggers are told."""
    state = forced("aaa abaaba", heroes=("Corbin",), enemies=("Mirror Imp",))
    state = rb.step(rb.step(state, rb.parse_action(state, "attack physical")), Choose(0))
    said = _said(state, Choose(1))
    echo = "spends token {} (agility) on Echo: Recast any spent token."
    assert f"the Mirror Imp {echo.format(0)}" in said and f"the Mirror Imp {echo.format(4)}" in said
    assert not any("triggers Echo" in line for line in said)
    # One firing (a lone agility token of the space) is told the same way, once.
    state = forced("aaa abaaaa", heroes=("Corbin",), enemies=("Mirror Imp",))
    state = rb.step(rb.step(state, rb.parse_action(state, "attack physical")), Choose(0))
    said = _said(state, Choose(1))
    assert [line for line in said if "Echo" in line] == [f"the Mirror Imp {echo.format(0)}"]


def test_the_table_names_the_enemy_player_as_the_one_to_act_while_it_chooses() -> None:
    """With ``enemy_choices="player"`` the enemy player answers Echo's choice: the table's "to act" line names it,
    and the hero again once the choice is made and the hero's turn comes."""
    state = forced("aaa abaaba", heroes=("Corbin",), enemies=("Mirror Imp",), enemy_choices="player")
    state = rb.step(rb.step(state, rb.parse_action(state, "attack physical")), Choose(0))
    assert "the enemy player chooses a token for relentless (paid by its token 0)" in _said(state, Choose(1))
    state = rb.step(state, Choose(1))
    assert isinstance(state.pending.top, ChoiceFrame) and rb.current_player(state) == 1
    assert "  to act: the enemy player (a choice); passed: -" in rb.render(state).splitlines()
    hero_turn = forced("aaa abaaba", heroes=("Corbin",), enemies=("Mirror Imp",), enemy_choices="player")
    assert rb.current_player(hero_turn) == 0 and "  to act: hero; passed: -" in rb.render(hero_turn).splitlines()
