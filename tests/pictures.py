"""Shared checks of the games' pictures: every position of seeded random games draws a valid, labelled SVG."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tabletop_core.render import check_svg
from tests.playouts import random_playout


def check_seeded_games(
    game: Any, picture: Callable[..., str], view_box: tuple[int, int], *, games: int = 20, every: int = 1
) -> int:
    """Draw every ``every``-th position of ``games`` seeded random games for every seat, the public view and the
    whole truth; each must pass :func:`check_svg` with the fixed ``view_box``. Returns the pictures checked."""
    count = 0
    for seed in range(games):
        rng = np.random.default_rng(seed)
        start = game.new_game(seed=seed)
        seats = range(game.num_players(start))
        for i, state in enumerate(random_playout(game, start, rng)):
            if i % every and not game.is_terminal(state):
                continue
            for seat in seats:
                check_svg(picture(game.observe(state, seat)), view_box=view_box)
                count += 1
            check_svg(state.svg(), view_box=view_box)
            check_svg(state.svg(reveal=True), view_box=view_box)
            count += 2
    return count
