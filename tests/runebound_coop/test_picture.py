"""The pictures of runebound_coop: valid, labelled SVG at every position, from a seat's view, shown in notebooks."""

from __future__ import annotations

import time

import runebound_coop
from runebound_coop.picture import VIEW_BOX, picture
from tabletop_core.render import check_svg
from tests.pictures import check_seeded_games


def test_every_position_of_20_seeded_games_draws_valid_labelled_svg_with_a_fixed_view_box() -> None:
    start = time.perf_counter()
    count = check_seeded_games(runebound_coop.GAME, picture, VIEW_BOX, games=20)
    assert count > 20
    assert time.perf_counter() - start < 60


def test_views_and_states_show_themselves_in_notebooks() -> None:
    state = runebound_coop.new_game(seed=2)
    view = runebound_coop.observe(state, 0)
    assert view._repr_svg_() == picture(view)
    assert view._repr_html_().startswith('<div class="tabletop-picture"><svg')
    assert check_svg(state._repr_svg_(), view_box=VIEW_BOX) == tuple(map(float, VIEW_BOX))
    assert "the whole truth" in state.svg(reveal=True) and "the whole truth" not in state.svg()
    assert 'width="400"' in view.svg(width=400) and f'viewBox="0 0 {VIEW_BOX[0]} {VIEW_BOX[1]}"' in view.svg(width=400)
