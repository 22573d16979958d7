"""The options made once per argument list give what the plain computation gives.

Each is checked against the long way (the rule written without the fast path) on the states of seeded random games
of every hero against every enemy in the three choice modes, or on every argument list that reaches it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import numpy as np

import runebound_coop as rb
from runebound_coop import game as game_module
from runebound_coop.content.loader import load_content
from runebound_coop.state import RuneboundState
from tabletop_core.errors import OptionError
from tabletop_core.spec import TERMINAL
from tests.playouts import random_playout

_PACK = load_content()
_HEROES = sorted(_PACK.heroes)
_ENEMIES = sorted(_PACK.enemies)
_MODES = ("evaluate", "damage", "player")


def _states(seed: int, games: int = 1) -> Iterator[RuneboundState]:
    """Every state of ``games`` random games of each hero against each enemy, in every choice mode (chance by its
    odds, decisions uniformly), the modes in turn, with and without retreat; then of the default two-hero game."""
    rng = np.random.default_rng(seed)
    configs: list[dict[str, Any]] = [
        {
            "heroes": (hero,),
            "enemies": (enemy,),
            "enemy_choices": _MODES[(k + len(hero) + len(enemy)) % 3],
            "retreat": k % 2 == 1,
        }
        for (hero, enemy), k in itertools.product(itertools.product(_HEROES, _ENEMIES), range(games))
    ]
    configs += [{}] * games
    for options in configs:
        for state in random_playout(rb.GAME, rb.new_game(**options), rng):
            if rb.current_player(state) != TERMINAL:
                yield state
        yield state


# ----- the options made once per argument list ---------------------------------------------------------------------

_ARGUMENTS: list[dict[str, Any]] = [
    {},
    {"heroes": ("Elian",)},
    {"heroes": "Elian"},
    {"heroes": ("Elian",), "enemies": ("Sorcerer",), "enemy_choices": "damage"},
    {"enemies": ("Orc Brigand", "Orc Brigand"), "max_rounds": 3, "hand": 0},
    {"retreat": True},
    {"retreat": 1},  # an int is not a bool: refused, though 1 == True
    {"hand": True},  # a bool is not an int here: refused, though True == 1
    {"hand": 1},
    {"max_rounds": 0},
    {"heroes": ("Nobody",)},
    {"cards": None},
    {"cards": (("Twin Blades",), ())},
    {"assets": ((), ())},
    {"act": 2},
    {"act": 2.0},  # not a plain value: never kept, refused each time
    {"heroes": ["Elian"]},  # a list: never kept, made each time
    {"colour": "red"},
]


def _made_or_error(make: Any, arguments: dict[str, Any]) -> object:
    try:
        return make(**arguments)
    except OptionError as exc:
        return ("refused", str(exc))


def test_the_options_from_their_memo_are_the_options_made() -> None:
    # private: the options memo is emptied and compared with the options made the long way
    game_module._plain_options.cache_clear()  # a cache: emptied, it only has to fill again
    for arguments in _ARGUMENTS * 3:  # each in turn, so the second and third rounds read the memo
        expected = _made_or_error(lambda **kw: rb.GAME._make_options(dict(kw)), arguments)
        assert _made_or_error(rb.GAME.make_options, arguments) == expected, arguments
    assert game_module._plain_options.cache_info().hits > 0
    kept = rb.GAME.make_options(heroes=("Elian",))
    assert rb.GAME.make_options(heroes=("Elian",)) is kept  # kept, not made again
