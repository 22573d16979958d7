"""The pictures of unrest: valid, labelled SVG at every position, drawn from a seat's view, shown in notebooks."""

from __future__ import annotations

import time

import unrest
from tabletop_core.render import check_svg
from tests.pictures import check_seeded_games
from unrest.picture import VIEW_BOX, picture


def test_every_position_of_20_seeded_games_draws_valid_labelled_svg_with_a_fixed_view_box() -> None:
    start = time.perf_counter()
    count = check_seeded_games(unrest.GAME, picture, VIEW_BOX, games=20)
    assert count > 20
    assert time.perf_counter() - start < 60


def test_views_and_states_show_themselves_in_notebooks() -> None:
    state = unrest.new_game(seed=2)
    view = unrest.observe(state, 0)
    assert view._repr_svg_() == picture(view)
    assert view._repr_html_().startswith('<div class="tabletop-picture"><svg')
    assert check_svg(state._repr_svg_(), view_box=VIEW_BOX) == tuple(map(float, VIEW_BOX))
    assert "the whole truth" in state.svg(reveal=True) and "the whole truth" not in state.svg()
    assert 'width="400"' in view.svg(width=400) and f'viewBox="0 0 {VIEW_BOX[0]} {VIEW_BOX[1]}"' in view.svg(width=400)


def test_twin_worlds_give_the_empire_the_same_picture_and_the_rebellion_sees_its_cards() -> None:
    import numpy as np

    from tests.playouts import random_playout

    rng = np.random.default_rng(5)
    differ = 0
    for seed in range(4):
        states = list(random_playout(unrest.GAME, unrest.new_game(seed=seed), np.random.default_rng(seed)))
        for state in states[:: max(len(states) // 6, 1)]:
            empire = picture(unrest.observe(state, unrest.EMPIRE))
            for _ in range(3):
                world = unrest.determinize(state, unrest.EMPIRE, rng)
                assert picture(unrest.observe(world, unrest.EMPIRE)) == empire
                differ += picture(unrest.observe(world, unrest.REBELLION)) != picture(
                    unrest.observe(state, unrest.REBELLION)
                )
    assert differ > 0  # the worlds do differ in what the Empire cannot see, and the Rebellion's picture shows it


def test_the_empire_picture_names_no_card_it_cannot_see() -> None:
    import numpy as np

    from tests.playouts import random_playout
    from unrest.view import card_words

    for state in list(random_playout(unrest.GAME, unrest.new_game(seed=3), np.random.default_rng(3)))[5:40:5]:
        svg = picture(unrest.observe(state, unrest.EMPIRE))
        for kind in state.hand:
            seen_elsewhere = any(c.card == kind and c.revealed for s in state.stacks for c in s)
            if not seen_elsewhere:
                assert f"in hand: {card_words(kind)}" not in svg
        assert "in hand:" not in svg and "the Empire&#39;s view" in svg


def test_the_conformance_leak_check_reads_each_seats_picture() -> None:
    from tabletop_core.leakcheck import seat_readings

    state = unrest.new_game(seed=4)
    for seat in (unrest.REBELLION, unrest.EMPIRE):
        readings = dict(seat_readings(unrest.GAME, state, seat))
        assert readings["picture"] == picture(unrest.observe(state, seat))
