"""The bots' cached scores are the plain definitions' answers, and the bots' moves did not change with the caches.

``district_value`` and ``_gain`` are cached by tally (a search asks the bots for a prior at every tree node of
every iteration, and the same tallies recur); the plain definitions are written out here as the oracle.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

import numpy as np

import unrest
from tabletop_core.spec import CHANCE, TERMINAL
from tests.unrest.helpers import random_states
from unrest.bots import MET, EmpireBot, RebellionBot, _add, _gain, _progress, _revolution, district_value
from unrest.rules.cards import MISDIRECTION
from unrest.rules.missions import MISSIONS
from unrest.state import CAPITOL
from unrest.view import UnrestView

#: sha256 of the JSON list of the bots' action ids on the states below, recorded before the caches were added.
MOVES_BEFORE_THE_CACHES = "3c49906dd50a37e73edcf8ad62c228bf07915a81fb6430a1178d1fc1fbcd0bcf"


def plain_value(t: Sequence[int], missions: Sequence[int], revolution: int) -> float:
    best = 0.0
    for m in missions:
        p = _progress(m, t, revolution)
        if p >= MET:
            return 2.0
        best = max(best, p)
    return best * best


def plain_gain(view: UnrestView, t: list[int], district: int, kind: int, up: bool) -> float:
    before = plain_value(t, view.missions, _revolution(view, district))
    after = list(t)
    _add(after, kind, up)
    bonus = 1.0 if view.variant == "capitol" and district == CAPITOL else 0.0
    gain = plain_value(after, view.missions, _revolution(view, district)) - before
    return gain + (bonus if gain > 1.0 else 0.0)


def test_the_cached_scores_are_the_plain_definitions() -> None:
    rng = np.random.default_rng(4)
    views = [
        unrest.GAME.observe(unrest.new_game(seed=s, variant=v), 0) for s in range(6) for v in ("standard", "capitol")
    ]
    checked = 0
    for _ in range(3000):
        view = views[int(rng.integers(len(views)))]
        t = [0] * 17
        for _ in range(int(rng.integers(0, 14))):
            _add(t, int(rng.integers(MISDIRECTION + 1)), bool(rng.integers(2)))
        missions = tuple(int(m) for m in rng.choice(len(MISSIONS), size=3, replace=False))
        revolution = int(rng.choice([_revolution(view, d) for d in view.row]))
        assert district_value(t, missions, revolution) == plain_value(t, missions, revolution)
        district = int(rng.choice(view.row))
        kind, up = int(rng.integers(MISDIRECTION + 1)), bool(rng.integers(2))
        assert _gain(view, {district: t}, district, kind, up) == plain_gain(view, t, district, kind, up)
        checked += 1
    assert checked == 3000


def test_the_bots_moves_are_those_from_before_the_caches() -> None:
    game = unrest.GAME
    states = [s for s in random_states(40, seed=9) if game.current_player(s) not in (CHANCE, TERMINAL)]
    bots = (RebellionBot(), EmpireBot())
    moves = []
    for s in states:
        p = game.current_player(s)
        moves.append(game.action_id(bots[p].act(game.observe(s, p), game.legal_actions(s), np.random.default_rng(0))))
    assert len(moves) == 2335
    assert hashlib.sha256(json.dumps(moves).encode()).hexdigest() == MOVES_BEFORE_THE_CACHES
