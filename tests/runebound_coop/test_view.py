"""The observation tensor is declared as named pieces; every piece reads back what the state says."""

from __future__ import annotations

import pytest

import runebound_coop as rb
from runebound_coop.limits import MAX_PLAYERS, MAX_TOKENS
from runebound_coop.view import LAYOUT

from .helpers import forced


def test_the_tensor_is_the_declared_layout_and_its_pieces_read_back_the_state() -> None:
    assert rb.GAME.spec.observation_shape == LAYOUT.shape == (395,)
    state = forced("aaa aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    views = LAYOUT.views(rb.observation_tensor(state, 0))
    assert views["heroes"][0].tolist() == pytest.approx([1.0, 0.0, 0.0, 0.0, 1.0, 0.2])  # present, engaged, hand 2/10
    assert views["heroes"][1:].sum() == 0.0  # no second hero
    assert views["hero_tokens"].shape == (MAX_TOKENS, views["hero_tokens"].shape[1])
    assert views["hero_tokens"][0, 9] == 1.0  # Elian's token 0 shows charge (symbols in Sym order)
    assert views["step"].tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]  # combat/actions
    assert views["player"].tolist() == [1.0] + [0.0] * (MAX_PLAYERS - 1)
    state = rb.step(state, rb.parse_action(state, "exert 0 Twin Blades charge"))
    views = LAYOUT.views(rb.observation_tensor(state, 0))
    assert views["enemies"][0, 1] == pytest.approx(3 / 5)  # the Sorcerer took 3 of its 5
    assert views["hero_tokens"][0, 14] == 1.0 and views["hero_tokens"][0, 12] == 0.0  # removed, not live
