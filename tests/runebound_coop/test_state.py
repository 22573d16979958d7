"""The named integer types of the state: references, links and used bits round-trip and never collide."""

from __future__ import annotations

from runebound_coop.limits import MAX_CARDS, MAX_ENEMY_ABILITIES, MAX_HERO_ABILITIES, MAX_TOKENS
from runebound_coop.state import (
    ENEMY,
    HERO,
    SIDES,
    card_bit,
    enemy_ability_bit,
    hero_ability_bit,
    link_double,
    link_target,
    make_link,
    split_ref,
    token_ref,
)


def test_token_refs_split_back_to_their_side_and_index() -> None:
    refs = {token_ref(side, i) for side in SIDES for i in range(MAX_TOKENS)}
    assert len(refs) == 2 * MAX_TOKENS
    for side in SIDES:
        for i in range(MAX_TOKENS):
            assert split_ref(token_ref(side, i)) == (side, i)
    assert token_ref(HERO, 3) == 3  # the JSON form of a hero ref is its index


def test_links_join_any_two_tokens_of_a_pool() -> None:
    for d in range(MAX_TOKENS):
        for t in range(MAX_TOKENS):
            link = make_link(d, t)
            assert (link_double(link), link_target(link)) == (d, t)
    assert make_link(2, 1) == 33  # the JSON form the records were made with: double * 16 + target


def test_used_bits_of_abilities_and_cards_never_overlap() -> None:
    bits = [hero_ability_bit(a) for a in range(MAX_HERO_ABILITIES)]
    bits += [enemy_ability_bit(a) for a in range(MAX_ENEMY_ABILITIES)]
    bits += [card_bit(c) for c in range(MAX_CARDS)]
    assert len(set(bits)) == len(bits)
    assert max(bits) < 20  # the observation tensor holds 20 used bits
    assert (hero_ability_bit(1), enemy_ability_bit(1), card_bit(1)) == (1, 9, 17)
    assert ENEMY == 1
