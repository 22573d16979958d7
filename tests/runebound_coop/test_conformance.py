"""The core conformance suite on single fights of every trait and on co-op encounters."""

from __future__ import annotations

import pytest

import runebound_coop as rb
from runebound_coop.content import TRAITS, builtin_content
from tabletop_core.conformance import check_game

_HEROES = tuple(builtin_content().heroes)


def _enemies(trait: str) -> list[str]:
    return [name for name, e in builtin_content().enemies.items() if e.trait == trait]


@pytest.mark.parametrize("trait", TRAITS)
def test_conformance_single_fights_per_trait(trait: str) -> None:
    """300 fights per trait: every hero against every enemy of the trait, with cards and assets."""
    enemies = _enemies(trait)
    games = 0
    for k in range(300 // 15):
        hero = _HEROES[k % len(_HEROES)]
        enemy = enemies[k % len(enemies)]
        options = {
            "heroes": (hero,),
            "enemies": (enemy,),
            "cards": (("Twin Blades", "Field Dressing"),),
            "assets": (("Potion Kit",),) if k % 2 else (),
            "act": 1 + k % 2,
        }
        report = check_game(rb.GAME, games=15, seed=1000 * k, options=options, deep_every=7)
        games += report.games
        assert report.terminal == report.games
    assert games == 300
