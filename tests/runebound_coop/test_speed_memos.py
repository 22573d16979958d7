"""The rules' memos and fused copies give what the plain computation gives.

Every memo of the rules is checked against the long way (the same rule written with ``attrs.evolve`` and no memo)
on every state of random games of every hero against every enemy, once with the memos filled and once with them
emptied at every few entries (so a stale or mis-keyed answer, or one kept past a clear, shows as a difference).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs
import numpy as np
import pytest

import runebound_coop as rb
from runebound_coop.content import roster
from runebound_coop.content.loader import load_content
from runebound_coop.content.schema import Sym
from runebound_coop.limits import MEMO_LIMIT
from runebound_coop.rules import flow, hero, tokens
from runebound_coop.state import (
    ENEMY,
    ENEMY_REF,
    FLOW,
    HERO,
    Fight,
    Pool,
    RuneboundState,
    card_bit,
    enemy_ability_bit,
    fight_with_enemy_pool,
    fight_with_enemy_pool_casting,
    fight_with_hero_pool,
    fight_with_hero_pool_casting,
    fight_with_turn,
    pool_with_sides,
    pool_with_spent,
    split_ref,
    state_with_enemy_damage,
    state_with_fight,
    state_with_fight_pos,
    state_with_hero_damage,
    token_ref,
)
from tabletop_core import to_json
from tests.playouts import random_moves

_PACK = load_content()
_HEROES = sorted(_PACK.heroes)
_ENEMIES = sorted(_PACK.enemies)
_MODES = ("evaluate", "damage", "player")


def _states(seed: int, games: int = 1) -> Iterator[RuneboundState]:
    """Every state of ``games`` random games of each hero against each enemy, in every choice mode (chance by its
    odds, decisions uniformly), the modes in turn."""
    rng = np.random.default_rng(seed)
    for (hero_name, enemy), k in itertools.product(itertools.product(_HEROES, _ENEMIES), range(games)):
        mode = _MODES[(k + len(hero_name) + len(enemy)) % len(_MODES)]
        state = rb.new_game(heroes=(hero_name,), enemies=(enemy,), enemy_choices=mode, retreat=k % 2 == 1)
        yield from (before for before, _, _ in random_moves(rb.GAME, state, rng))


def _long_landing(fight: Fight, side: int) -> Fight:
    """A landing written out with ``attrs.evolve`` (what ``flow.landed`` computes)."""
    who, i = split_ref(fight.casting[0])
    pool = fight.hero_pool if who == HERO else fight.enemy_pool
    pool = attrs.evolve(pool, sides=(pool.sides & ~(1 << i)) | (side << i))
    if who == HERO:
        return attrs.evolve(fight, hero_pool=pool, casting=fight.casting[1:])
    return attrs.evolve(fight, enemy_pool=pool, casting=fight.casting[1:])


def _neighbours(state: RuneboundState) -> Iterator[RuneboundState]:
    """States one detail away from ``state`` at a hero's decision: another hand, another used bit, an enemy token
    flipped or spent (each changes the hero's actions or must not, so a memo keyed too coarsely or too finely for
    them answers one of them wrongly)."""
    fight = state.fight
    assert fight is not None
    for cards in (0, 1):
        hand = list(state.hand)
        hand[fight.hero] = cards
        yield attrs.evolve(state, hand=tuple(hand))
    for bit in (*range(4), *(enemy_ability_bit(a) for a in range(3)), *(card_bit(c) for c in range(4))):
        yield attrs.evolve(state, fight=attrs.evolve(fight, used=fight.used ^ (1 << bit)))
    pool = fight.enemy_pool
    for i in range(3):
        flipped = attrs.evolve(pool, sides=pool.sides ^ (1 << i))
        spent = attrs.evolve(pool, spent=pool.spent ^ (1 << i))
        yield attrs.evolve(state, fight=attrs.evolve(fight, enemy_pool=flipped))
        yield attrs.evolve(state, fight=attrs.evolve(fight, enemy_pool=spent))


def _same(a: RuneboundState, b: RuneboundState) -> bool:
    return a == b and to_json(a) == to_json(b)


def test_a_landing_is_the_landing_worked_out() -> None:
    landings = 0
    for state in _states(seed=7):
        fight = state.fight
        if fight is None or not fight.casting or state.pending:
            continue
        for side in (0, 1):
            assert flow.landed(fight, side) == _long_landing(fight, side)
            assert _same(flow.land(state, side), attrs.evolve(state, fight=_long_landing(fight, side))), rb.render(
                state
            )
            landings += 1
    assert landings > 2000


def test_a_new_round_from_its_memo_is_the_new_round_worked_out() -> None:
    rounds = 0
    for state in _states(seed=11):
        fight = state.fight
        if fight is None or state.pos.round >= state.options.max_rounds:
            continue
        setup = state.options.setup
        nh, ne = len(setup.heroes[fight.hero].faces), len(setup.enemies[fight.enemy].faces)
        casting = (*range(nh), *(ENEMY_REF + i for i in range(ne)))
        fresh = Fight(fight.hero, fight.enemy, Pool(), Pool(), casting)
        expected = attrs.evolve(state, fight=fresh, pos=FLOW.at("combat", "cast", state.pos.round + 1))
        for _ in range(2):
            assert _same(flow.next_round(state, setup), expected), rb.render(state)
        rounds += 1
    assert rounds > 2000


@pytest.mark.parametrize("limit", [MEMO_LIMIT, 7])
def test_the_heros_actions_from_their_memo_are_the_actions_worked_out(
    monkeypatch: pytest.MonkeyPatch, limit: int
) -> None:
    # private: the memo is emptied and checked against the listing it stands for
    monkeypatch.setattr(hero, "MEMO_LIMIT", limit)
    hero._LISTED.clear()  # a cache: emptied, it only has to fill again
    lists = 0
    for state in _states(seed=20 + limit, games=2):
        fight = state.fight
        if fight is None or state.pending or state.pos.step != "actions" or fight.casting:
            continue
        setup = state.options.setup
        for variant in (state, *_neighbours(state)):
            expected = hero._hero_actions(variant, setup)
            for _ in range(2):  # the first may fill the memo, the second reads it
                assert list(hero.listed_actions(variant, setup)) == expected, rb.render(variant)
                assert hero.hero_actions(variant, setup) == expected
        lists += 1
        assert len(hero._LISTED) <= max(limit, 1)
    assert lists > 1000


def test_the_copies_written_out_are_the_classes_fields_in_order() -> None:
    # The copies in runebound_coop.state call each class with its fields by position: a new or moved field must
    # be written into them (this test then changes with them).
    assert [f.name for f in attrs.fields(Pool)] == ["sides", "spent", "removed", "links"]
    assert [f.name for f in attrs.fields(Fight)] == [
        *("hero", "enemy", "hero_pool", "enemy_pool", "casting", "turn", "passed", "charged", "used"),
    ]
    assert [f.name for f in attrs.fields(RuneboundState)] == [
        *("options", "pos", "pending", "hero_damage", "enemy_damage", "out", "withdrawn", "hand", "fight"),
    ]
    for cls in (Pool, Fight, RuneboundState):
        assert all(f.validator is None and f.converter is None and f.init for f in attrs.fields(cls))


def test_each_copy_written_out_is_the_copy_attrs_makes() -> None:
    copies = 0
    other_pool = Pool(5, 2, 1, (17,))
    for state in _states(seed=31):
        fight = state.fight
        assert _same(state_with_fight(state, None), attrs.evolve(state, fight=None))
        if fight is None:
            continue
        pos = FLOW.at("combat", "cast", state.pos.round + 1)
        pairs: list[tuple[Any, Any]] = [  # Fight, Pool and RuneboundState copies, each beside attrs.evolve's
            (state_with_fight(state, fight), attrs.evolve(state, fight=fight)),
            (state_with_fight_pos(state, None, pos), attrs.evolve(state, fight=None, pos=pos)),
            (state_with_hero_damage(state, (9,)), attrs.evolve(state, hero_damage=(9,))),
            (state_with_enemy_damage(state, (8, 7)), attrs.evolve(state, enemy_damage=(8, 7))),
            (fight_with_hero_pool(fight, other_pool), attrs.evolve(fight, hero_pool=other_pool)),
            (fight_with_enemy_pool(fight, other_pool), attrs.evolve(fight, enemy_pool=other_pool)),
            (
                fight_with_hero_pool_casting(fight, other_pool, (3,)),
                attrs.evolve(fight, hero_pool=other_pool, casting=(3,)),
            ),
            (
                fight_with_enemy_pool_casting(fight, other_pool, ()),
                attrs.evolve(fight, enemy_pool=other_pool, casting=()),
            ),
            (fight_with_turn(fight, 1 - fight.turn), attrs.evolve(fight, turn=1 - fight.turn)),
            (fight.with_passed(1), attrs.evolve(fight, passed=fight.passed | 2)),
            (fight.with_charged(0), attrs.evolve(fight, charged=fight.charged | 1)),
            (fight.with_used(17), attrs.evolve(fight, used=fight.used | (1 << 17))),
            (pool_with_sides(fight.hero_pool, 6), attrs.evolve(fight.hero_pool, sides=6)),
            (pool_with_spent(fight.enemy_pool, 3), attrs.evolve(fight.enemy_pool, spent=3)),
        ]
        for fast, slow in pairs:
            assert type(fast) is type(slow) and fast == slow and hash(fast) == hash(slow)
            assert attrs.asdict(fast, recurse=False) == attrs.asdict(slow, recurse=False)
            copies += 1
    assert copies > 20000


def test_the_token_readers_read_in_place_what_the_long_way_reads() -> None:
    reads = 0
    for state in _states(seed=41):
        fight = state.fight
        if fight is None:
            continue
        setup = state.options.setup
        for side in (HERO, ENEMY):
            pool = fight.pool(side)
            faces = tokens.faces_of(setup, fight, side)
            cast = {split_ref(ref) for ref in fight.casting}
            live = [i for i in range(len(faces)) if pool.is_live(i) and (side, i) not in cast]
            assert tokens.live_mask(setup, fight, side) == sum(1 << i for i in live)
            assert tokens.live(setup, fight, side) == live
            for symbol in Sym:
                expected = [i for i in live if faces[i][pool.side(i)].symbol == symbol]
                assert tokens.showing(setup, fight, side, symbol) == expected, rb.render(state)
            for i in range(len(faces)):
                printed = faces[i][pool.side(i)].value
                assert tokens.value_of(setup, fight, side, i) == printed * (2 if pool.doubled(i) else 1)
                reads += 1
    assert reads > 20000


def test_bits_lists_the_set_bits_lowest_first() -> None:
    for mask in (*range(1 << 10), 1 << 40, (1 << 70) - 3):
        assert tokens.bits(mask) == [i for i in range(mask.bit_length()) if (mask >> i) & 1]


def _long_initiative(state: RuneboundState) -> int:
    """Who acts first, counted token by token on the faces shown (the rule as written)."""
    fight = state.fight
    assert fight is not None
    setup = state.options.setup
    marks = []
    for side in (HERO, ENEMY):
        pool = fight.pool(side)
        faces = tokens.faces_of(setup, fight, side)
        marks.append(sum(1 for i in range(len(faces)) if faces[i][pool.side(i)].initiative))
    return ENEMY if marks[ENEMY] > marks[HERO] else HERO


@pytest.mark.parametrize("limit", [MEMO_LIMIT, 5])
def test_initiative_from_its_memo_is_initiative_counted(monkeypatch: pytest.MonkeyPatch, limit: int) -> None:
    # private: the memo is emptied and its bound checked
    monkeypatch.setattr(flow, "MEMO_LIMIT", limit)
    flow._INITIATIVE.clear()  # a cache: emptied, it only has to fill again
    counted = 0
    for state in _states(seed=51 + limit):
        fight = state.fight
        if fight is None:
            continue
        setup = state.options.setup
        for sides in range(4):  # the state's own sides, then others, so a memo keyed too coarsely answers wrongly
            hero_pool = attrs.evolve(fight.hero_pool, sides=fight.hero_pool.sides ^ (sides & 1))
            enemy_pool = attrs.evolve(fight.enemy_pool, sides=fight.enemy_pool.sides ^ (sides >> 1))
            variant = attrs.evolve(state, fight=attrs.evolve(fight, hero_pool=hero_pool, enemy_pool=enemy_pool))
            assert variant.fight is not None
            for _ in range(2):
                assert flow.initiative(setup, variant.fight) == _long_initiative(variant), rb.render(variant)
            counted += 1
        assert len(flow._INITIATIVE) <= max(limit, 1)
    assert counted > 5000


def test_the_positions_made_once_are_the_flows_own() -> None:
    # private: the positions made once at import are compared with the flow's
    for r in range(len(flow._CAST_AT)):
        assert flow._CAST_AT[r] == FLOW.at("combat", "cast", r)
        assert flow._ACTIONS_AT[r] == FLOW.next(FLOW.at("combat", "cast", r)) == FLOW.at("combat", "actions", r)
    assert FLOW.at("encounter") == flow._ENCOUNTER and FLOW.at("over") == flow._OVER


def test_the_content_the_options_carry_is_the_content_of_those_options() -> None:
    games = [rb.new_game(heroes=(hero_name,), enemies=(enemy,)) for hero_name in _HEROES[:3] for enemy in _ENEMIES[:3]]
    for state in games * 3:  # each in turn: each game reads its own content
        setup = state.options.setup
        assert [h.name for h in setup.heroes] == list(state.options.heroes)
        assert [e.name for e in setup.enemies] == list(state.options.enemies)
        fresh = roster.build_setup(state.options)
        assert [h.tokens for h in setup.heroes] == [h.tokens for h in fresh.heroes]
        assert [(e.tokens, e.surge_order) for e in setup.enemies] == [(e.tokens, e.surge_order) for e in fresh.enemies]


def test_the_best_printed_value_found_by_masks_is_the_best_face_by_face() -> None:
    found = 0
    for state in _states(seed=61):
        fight = state.fight
        if fight is None:
            continue
        setup = state.options.setup
        refs = [None, *(token_ref(side, i) for side, i, _ in tokens.faces_showing(setup, fight))]
        for symbol in Sym:
            for exclude in refs:
                faces = tokens.faces_showing(setup, fight, exclude=exclude)
                expected = max((face.value for _, _, face in faces if face.symbol == symbol), default=0)
                assert tokens.best_printed(setup, fight, symbol, exclude) == expected, rb.render(state)
                found += expected > 0
    assert found > 5000
