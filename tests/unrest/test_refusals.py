"""Refusal messages: a refused ``step`` or ``parse_action`` names only what every seat may know (the seat to act,
the step, and the legal actions only where they are public), so the text is the same in every world a seat
cannot tell from the true one."""

from __future__ import annotations

import numpy as np
import pytest

import unrest
from tabletop_core.conformance import check_game
from tabletop_core.errors import IllegalActionError
from tabletop_core.leakcheck import LeakBudget, refusals
from tabletop_core.spec import CHANCE
from tests.playouts import random_playout
from tests.unrest.helpers import game_states
from unrest.state import EMPIRE, REBELLION


def every_node(seed: int) -> list[unrest.UnrestState]:
    """Every state of a seeded random game, chance nodes included."""
    return list(random_playout(unrest.GAME, unrest.new_game(seed=seed), np.random.default_rng(seed)))


def _texts(state: unrest.UnrestState, seat: int) -> dict[str, str]:
    return dict(refusals(unrest.GAME, state, seat, unrest.current_player(state) == seat))


def test_refusal_messages_are_the_same_in_every_world_the_empire_cannot_tell_apart() -> None:
    # At the Rebellion's plan, placement and proofs and at every draw, the message once listed the legal moves
    # (the Rebellion's hidden cards, the deck's order); the Empire's twin worlds told them apart.
    rng = np.random.default_rng(33)
    nodes = differing = 0
    for seed in range(8):
        for state in every_node(seed):
            if unrest.current_player(state) not in (REBELLION, CHANCE) or state.pos.round == 0:
                continue
            nodes += 1
            seen = _texts(state, EMPIRE)
            worlds = [unrest.GAME.determinize(state, EMPIRE, rng) for _ in range(3)]
            differing += any(_texts(w, EMPIRE) != seen for w in worlds)
    assert nodes > 300
    assert differing == 0


def test_refusal_messages_at_a_hidden_node_name_the_seat_and_the_step_but_no_card() -> None:
    state = next(s for s in game_states(4) if s.step == "plan")
    with pytest.raises(IllegalActionError) as info:
        unrest.step(state, unrest.GAME.action_from_id(state, 0))
    text = str(info.value)
    assert "Rebellion" in text and "plan step" in text and "legal_actions lists them" in text
    assert not any(unrest.action_to_str(state, a) in text for a in unrest.legal_actions(state))
    draw = next(s for s in every_node(4) if s.step == "draw" and unrest.current_player(s) == CHANCE)
    with pytest.raises(IllegalActionError) as info:
        unrest.parse_action(draw, "draw 9X")
    assert "draw step" in str(info.value) and "draw " not in str(info.value).split("step")[-1]


@pytest.mark.parametrize("step", ["target", "defend"])
def test_refusal_messages_at_a_public_node_still_list_the_legal_moves(step: str) -> None:
    state = next(s for s in game_states(4) if s.step == step and not s.pending)
    with pytest.raises(IllegalActionError) as info:
        unrest.parse_action(state, "no such move")
    first = unrest.action_to_str(state, unrest.legal_actions(state)[0])
    assert f"legal: {first}" in str(info.value)


def test_the_leak_check_compares_refusals_on_unrest_from_both_seats() -> None:
    report = check_game(unrest.GAME, games=6, seed=0, deep_every=10, leaks=LeakBudget(playouts=6))
    assert report.games == 6
