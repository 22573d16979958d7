"""Invariants at every step of random encounters: token counts conserved, health within bounds, JSON round trip.

Each token is in exactly one place (being cast, spent, removed or live), one double per symbol, removals last
the round.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import runebound_coop as rb
from runebound_coop.state import ENEMY, ENEMY_REF, HERO, RuneboundState
from tabletop_core import from_json, to_json
from tests.playouts import random_moves

HEROES = ("Corbin", "Laurel of Bloodwood", "Lissa", "Lord Hawthorne", "Elder Mok", "Master Thorn", "Tatianna", "Elian")
ENEMIES = ("Sorcerer", "Undead Horde", "Orc Brigand", "Dreadbringer", "Bog Ravager", "Mirror Imp", "Lantern Wisp")


def check_invariants(state: RuneboundState) -> None:
    """Every token is in exactly one place; damage stays within health; links join a double to a token."""
    setup = state.options.setup
    for d, h in zip(state.hero_damage, setup.heroes, strict=True):
        assert 0 <= d <= h.health
    for d, e in zip(state.enemy_damage, setup.enemies, strict=True):
        assert 0 <= d <= e.health
    fight = state.fight
    if fight is None:
        return
    for side, faces, offset in (
        (HERO, setup.heroes[fight.hero].faces, 0),
        (ENEMY, setup.enemies[fight.enemy].faces, ENEMY_REF),
    ):
        pool = fight.pool(side)
        n = len(faces)
        assert pool.sides >> n == 0 and pool.spent >> n == 0 and pool.removed >> n == 0
        casting = {r - offset for r in fight.casting if offset <= r < offset + 16}
        assert len(casting) == len([r for r in fight.casting if offset <= r < offset + 16])
        # Each token is in exactly one place: being cast (back in the pool), spent, removed, or live and showing.
        assert all(pool.is_live(i) for i in casting), "a token being cast is still marked spent or removed"
        assert pool.spent & pool.removed == 0, "a token both spent and removed"
        doubles = [link >> 4 for link in pool.links]
        targets = [link & 15 for link in pool.links]
        assert len(set(doubles)) == len(doubles) and len(set(targets)) == len(targets)  # one double per symbol
        for d, t in zip(doubles, targets, strict=True):
            assert d != t and d < n and t < n
            assert faces[d][pool.side(d)].symbol.value == "double"
            assert (pool.spent >> d) & 1
            assert not (pool.removed >> t) & 1, "a double left on a removed token"


def check_step(before: RuneboundState, after: RuneboundState) -> None:
    """Within one round of one fight, a removed token stays removed."""
    if before.fight is None or after.fight is None or before.pos.round != after.pos.round:
        return
    if (before.fight.hero, before.fight.enemy) != (after.fight.hero, after.fight.enemy):
        return
    for side in (HERO, ENEMY):
        assert before.fight.pool(side).removed & ~after.fight.pool(side).removed == 0, "a removed token came back"


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    heroes=st.lists(st.sampled_from(HEROES), min_size=1, max_size=3, unique=True),
    enemies=st.lists(st.sampled_from(ENEMIES), min_size=1, max_size=3),
    mode=st.sampled_from(("evaluate", "damage", "player")),
)
def test_invariants_hold_at_every_step(seed: int, heroes: list[str], enemies: list[str], mode: str) -> None:
    state = rb.new_game(heroes=tuple(heroes), enemies=tuple(enemies), enemy_choices=mode, act=1 + seed % 2)
    for steps, (before, _, after) in enumerate(random_moves(rb.GAME, state, np.random.default_rng(seed))):
        check_invariants(before)
        if steps % 17 == 0:
            assert from_json(rb.GAME, to_json(before)) == before
        check_step(before, after)
        state = after
    check_invariants(state)
    assert rb.returns(state)[0] in (-1.0, 0.0, 1.0)
