"""The games the fuzz suite attacks, their valid seed states, and the checked playout every survivor must pass.

``TABLETOP_FUZZ=long`` (what ``make fuzz`` sets) multiplies every test's examples by :data:`LONG_FACTOR`
(``TABLETOP_FUZZ_FACTOR=N`` sets another factor, for a shorter long run on a busy machine).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

import runebound_coop
import unbroken
import unrest
from tabletop_core.errors import TabletopError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE
from tests.playouts import random_moves, random_playout

__all__ = ["GAMES", "LONG", "checked_playout", "examples", "sample_states"]

GAMES: dict[str, Game[Any, Any, Any]] = {
    "unbroken": unbroken.GAME,
    "runebound_coop": runebound_coop.GAME,
    "unrest": unrest.GAME,
}
LONG = os.environ.get("TABLETOP_FUZZ") == "long"
LONG_FACTOR = int(os.environ.get("TABLETOP_FUZZ_FACTOR", "40"))


def examples(short: int) -> int:
    """How many hypothesis examples a test runs: ``short`` in ``make test``, :data:`LONG_FACTOR` times that in
    ``make fuzz``."""
    return short * LONG_FACTOR if LONG else short


def sample_states(game: Game[Any, Any, Any], seed: int, count: int, **options: Any) -> list[Any]:
    """``count`` states of one seeded random game (setup, the middle, the end), spread over its length."""
    state = game.new_game(seed=seed, **options)
    seen = list(random_playout(game, state, np.random.default_rng(seed), limit=game.spec.max_game_length - 1))
    picks = np.linspace(0, len(seen) - 1, count).round().astype(int)
    return [seen[i] for i in picks]


def checked_playout(game: Game[Any, Any, Any], state: Any, seed: int, steps: int = 400) -> None:
    """Run every protocol function on ``state`` and on each state of a random playout from it.

    Raises:
        AssertionError: a non-terminal state without a legal action, or a codec that does not round-trip.
        Exception: whatever the rules raise; the fuzz tests fail on anything but a ``TabletopError`` raised by
            an input check (never by a legal action).
    """
    rng = random.Random(seed)

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        assert legal, f"{game.spec.short_name}: no legal action in a non-terminal state"
        return rng.choice(legal)

    last = state
    moves = random_moves(game, state, np.random.default_rng(seed), choose=choose, chance="uniform", limit=steps)
    for before, action, after in moves:
        _read_all(game, before)
        player = game.current_player(before)
        if player != CHANCE:
            game.determinize(before, player, np.random.default_rng(seed))
        assert game.parse_action(before, game.action_to_str(before, action)) == action
        assert game.action_from_id(before, game.action_id(action)) == action
        last = after
    if game.is_terminal(last):
        _read_all(game, last)


def _read_all(game: Game[Any, Any, Any], state: Any) -> None:
    """Every protocol function that reads a state, on ``state``."""
    game.render(state)
    for player in range(game.num_players(state)):
        game.observe(state, player)
        game.render(state, player)
        game.observation_tensor(state, player)
    game.legal_action_mask(state)
    game.returns(state)
    game.describe_step(state)


def is_input_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of the library's typed input errors (what hostile input may raise)."""
    return isinstance(exc, TabletopError)
