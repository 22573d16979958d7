"""Unrest's caches keyed by facts that recur (see ``docs/performance.md``, "Unrest").

The Empire's options are cached by facts that recur: random playouts find nearly every answer in the cache instead
of turning it over, so its entries do not keep setting off the interpreter's cyclic collector.
"""

from __future__ import annotations

import numpy as np

import unrest
from tests.playouts import random_playout
from unrest import setup
from unrest.rules import liberation, round


def test_the_empires_options_are_cached_by_facts_that_recur() -> None:
    # private: the cache is emptied and its hits counted
    round._defences.cache_clear()
    rng = np.random.default_rng(5)
    for _ in range(300):
        for _state in random_playout(unrest.GAME, unrest.GAME.new_game(), rng):
            pass
    info = round._defences.cache_info()
    assert info.maxsize == 4096
    # Keyed by the row in its order, three asks in four missed (3,504 of 4,682) and the cache was nearly full after
    # 300 games; keyed by the Districts in id order, 760 missed, and nothing has been turned out.
    assert info.misses < 0.25 * (info.hits + info.misses), info
    assert info.currsize == info.misses < 4096 // 2, info


def test_the_memos_of_draws_and_missions_met_keep_only_recent_entries() -> None:
    # Entries a search asks about again are its last few rollouts'; older ones go before they grow old enough to be
    # moved to the collector's oldest generation, whose full collections walk every object of the process.
    # private: the memos' bounds are what this test is about
    assert setup._OUTCOMES_SIZE <= 1024 and liberation._MET_SIZE <= 1024
