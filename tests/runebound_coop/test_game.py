"""The game's text face: cast outcomes named by token and face."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

import runebound_coop as rb
from tabletop_core import from_json, to_json
from tabletop_core.errors import StateFormatError
from tabletop_core.spec import CHANCE, Utility
from tests.playouts import final_state, first

from .helpers import forced, texts


def test_cast_outcomes_name_the_token_and_the_face_it_shows() -> None:
    state = rb.new_game(heroes=("Elian",), enemies=("Sorcerer",))
    assert texts(state) == ["Elian token 0 lands C", "Elian token 0 lands 2P"]
    for text in texts(state):
        assert rb.action_to_str(state, rb.parse_action(state, text)) == text
    state = forced("aab", heroes=("Elian",), enemies=("Sorcerer",))
    assert texts(state) == ["Sorcerer token 0 lands U", "Sorcerer token 0 lands K"]


def test_a_recast_during_the_actions_is_marked() -> None:
    # Elian shows C, C, A; the Sorcerer U, D, T, K, K, B* (its marked blank wins initiative).
    state = forced("aab aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    recast = next(t for t in texts(state) if t.startswith("recast enemy"))
    state = rb.step(state, rb.parse_action(state, recast))
    assert rb.current_player(state) == CHANCE
    target = int(recast.split()[-1])
    assert texts(state)[0].startswith(f"Sorcerer token {target} lands ") and texts(state)[0].endswith(" (recast)")


def test_render_shows_a_key_to_the_symbol_letters() -> None:
    state = forced("aaa aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    text = rb.render(state)
    assert "  Elian: 0:C 1:C 2:S*" in text and "  Sorcerer: 0:U 1:D 2:T 3:K 4:K 5:B*" in text
    key = next(line for line in text.splitlines() if line.startswith("  key: "))
    for word in ("C charge", "K skull", "U surge", "T tactics", "S shield", "* initiative", "(..) spent"):
        assert word in key


def _example_json() -> str:
    """The combat example after action 2: Elian's charges removed, the Sorcerer's double stacked on its surge."""
    state = forced("aaa aaaaaa", heroes=("Elian",), enemies=("Sorcerer",))
    return to_json(rb.step(state, rb.parse_action(state, "exert 0 Twin Blades charge")))


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"links":[16]', '"links":[1]', "does not join a double"),  # the surge token (not a double) on token 1
        ('"links":[16]', '"links":[16,32]', "doubled twice"),
        ('"spent":2,', '"spent":0,', "the double must be spent"),
        ('"spent":0,"removed":3', '"spent":1,"removed":3', "both spent and removed"),
        ('"removed":3', '"removed":8', "bits beyond the 3 tokens"),
    ],
)
def test_loading_a_broken_pool_raises(old: str, new: str, message: str) -> None:
    text = _example_json()
    assert from_json(rb.GAME, text) is not None and old in text
    with pytest.raises(StateFormatError, match=message):
        from_json(rb.GAME, text.replace(old, new, 1))


def test_spec_for_an_all_hero_party_is_identical_and_with_an_enemy_player_general_sum() -> None:
    party = rb.GAME.make_options(heroes=("Elian", "Corbin"))
    solo = rb.GAME.make_options(heroes=("Elian",), enemy_choices="damage")
    versus = rb.GAME.make_options(heroes=("Elian", "Corbin"), enemy_choices="player")
    assert rb.GAME.spec_for(party).utility == Utility.IDENTICAL
    assert rb.GAME.spec_for(solo).utility == Utility.IDENTICAL
    assert rb.GAME.spec_for(versus).utility == Utility.GENERAL_SUM
    assert rb.GAME.spec_for(party).num_distinct_actions == rb.GAME.spec.num_distinct_actions
    # The spec describes the returns: every hero the same, the enemy player the negation.
    for options in (party, versus):
        given = {f.name: getattr(options, f.name) for f in attrs.fields(type(options)) if f.init}
        state = rb.GAME.new_game(seed=5, **given)
        state = final_state(rb.GAME, state, np.random.default_rng(5), choose=first, chance="settle")
        returns = rb.returns(state)
        assert len(set(returns[:2])) == 1
        if options.enemy_choices == "player":
            assert returns[2] == -returns[0]
