"""Content pack: schema, built-in data and validation errors that name file, entry and field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runebound_coop.content import TRAITS, builtin_content, load_content, parse_face
from runebound_coop.content.loader import SOURCES, parse_pack
from runebound_coop.content.schema import Sym
from runebound_coop.limits import (
    MAX_CARDS,
    MAX_ENEMY_ABILITIES,
    MAX_FACE_VALUE,
    MAX_HERO_ABILITIES,
    MAX_HERO_TOKENS,
    MAX_TOKENS,
)
from tabletop_core.content import SOURCES as CORE_SOURCES
from tabletop_core.errors import ContentError


def test_builtin_pack_has_every_required_entry() -> None:
    pack = builtin_content()
    assert set(pack.boards) == set(TRAITS) == set(pack.token_sets)
    base = {"Corbin", "Laurel of Bloodwood", "Lissa", "Lord Hawthorne", "Elder Mok", "Master Thorn"}
    assert base | {"Tatianna", "Elian"} <= set(pack.heroes)
    for trait in TRAITS:
        assert sum(e.trait == trait for e in pack.enemies.values()) >= 4, trait
    assert {"Sorcerer", "Orc Brigand", "Undead Horde"} <= set(pack.enemies)
    assert all(len(s.tokens) == 6 for s in pack.token_sets.values())


def test_every_entry_records_its_source() -> None:
    pack = builtin_content()
    groups: list[dict[str, Any]] = [pack.token_sets, pack.boards, pack.heroes, pack.enemies, pack.assets, pack.cards]
    for group in groups:
        for entry in group.values():
            assert entry.source in SOURCES


def test_warrior_token_set_matches_reference() -> None:
    warrior = builtin_content().token_sets["warrior"]
    faces = [f"{t.a}/{t.b}" for t in warrior.tokens]
    assert faces == ["K/S", "K/A", "K*/U", "K/B*", "D/B*", "2K/U*"]
    assert len(warrior.for_act(1)) == 5 and len(warrior.for_act(2)) == 6


# The reference's "Base heroes (public)" table: health and the three tokens.
BASE_HEROES = {
    "Corbin": (10, ["2P/U", "P*/S", "A/P"]),
    "Laurel of Bloodwood": (8, ["2P/U", "S/P*", "U*/A"]),
    "Lissa": (9, ["2P/S", "M*/A", "A*/U*"]),
    "Lord Hawthorne": (9, ["2P/S", "P*/A", "P*/B"]),
    "Elder Mok": (9, ["2M/D", "A*/S", "U*/P"]),
    "Master Thorn": (8, ["2U/M", "D/M*", "A*/M"]),
}


def test_base_heroes_match_reference() -> None:
    heroes = builtin_content().heroes
    for name, (health, tokens) in BASE_HEROES.items():
        assert (heroes[name].health, [f"{t.a}/{t.b}" for t in heroes[name].tokens]) == (health, tokens), name
        assert heroes[name].source == "public"


def test_every_enemy_has_health_and_a_surge_or_agility_ability() -> None:
    for name, enemy in builtin_content().enemies.items():
        assert enemy.health > 0, name
        assert enemy.surge_abilities or enemy.agility_ability is not None, name


def test_expansion_token_sets_carry_tactics_and_no_hero_damage() -> None:
    pack = builtin_content()
    for trait in ("mystic", "savage", "trickster"):
        symbols = {f.symbol for t in pack.token_sets[trait].tokens for f in (t.a, t.b)}
        assert Sym.TACTICS in symbols
        assert not symbols & {Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE}


def test_rulebook_enemies_as_described() -> None:
    pack = builtin_content()
    blast = pack.enemies["Sorcerer"].surge_abilities[0]
    assert (blast.name, blast.cost, blast.cancel_by_tactics) == ("Blast", 2, True)
    assert pack.enemies["Sorcerer"].trait == "mystic"
    horde = pack.enemies["Undead Horde"].agility_ability
    assert horde is not None and horde.effects[0].kind == "recast_spent"
    assert pack.enemies["Orc Brigand"].flip_prevention == 1


def test_warrior_skull_space_has_plus_one() -> None:
    board = builtin_content().boards["warrior"]
    assert [s.plus for s in board.spaces if s.symbol == Sym.SKULL] == [1]


def test_mystic_board_order_follows_the_combat_example() -> None:
    board = builtin_content().boards["mystic"]
    order = [s.symbol for s in board.spaces]
    assert order == [Sym.AGILITY, Sym.DOUBLE, Sym.SURGE, Sym.TACTICS, Sym.SKULL]
    assert board.title.symbol == Sym.SURGE and board.title.effect == "deal" and board.title.amount == 1


def test_parse_face_rejects_garbage() -> None:
    assert parse_face("3P").value == 3
    with pytest.raises(ValueError, match="not a face"):
        parse_face("5X")


@pytest.mark.parametrize(
    ("file", "text", "entry", "field"),
    [
        ("heroes.toml", '[[hero]]\nname = "Bad"\nhealth = 0\ntokens = ["P/S"]\nsource = "standin"\n', "Bad", "health"),
        (
            "heroes.toml",
            '[[hero]]\nname = "Bad"\nhealth = 5\ntokens = ["P/Q"]\nsource = "standin"\n',
            "Bad",
            "tokens[0]",
        ),
        ("heroes.toml", '[[hero]]\nname = "Bad"\nhealth = 5\ntokens = ["P/S"]\n', "Bad", "source"),
        (
            "heroes.toml",
            '[[hero]]\nname = "Bad"\nhealth = 5\ntokens = ["K/S"]\nsource = "public"\n',
            "Bad",
            "tokens[0]",
        ),
        (
            "enemies.toml",
            '[[enemy]]\nname = "E"\ntrait = "warrior"\nhealth = 3\nsource = "standin"\n'
            'abilities = [{ name = "X", trigger = "surge", cost = 1, '
            'effects = [{ kind = "zap" }], source = "standin" }]\n',
            "E",
            "abilities[0].effects[0].kind",
        ),
        ("enemies.toml", '[[enemy]]\nname = "E"\ntrait = "pirate"\nhealth = 3\nsource = "standin"\n', "E", "trait"),
        (
            "token_sets.toml",
            '[[token_set]]\ntrait = "mystic"\nsource = "standin"\ntokens = [{ id = "X", faces = "P/K" }]\n',
            "mystic",
            "tokens[0].faces",
        ),
        (
            "boards.toml",
            '[[board]]\ntrait = "savage"\nsource = "standin"\n'
            'title = { symbol = "surge", effect = "deal", amount = 1, text = "t" }\n'
            'spaces = [{ symbol = "tactics", priority = ["physical"] }]\n',
            "savage",
            "spaces[0].priority",
        ),
        ("assets.toml", '[[asset]]\nname = "Rock"\ntoken = "P"\nsource = "standin"\n', "Rock", "token"),
        ("cards.toml", '[[card]]\nname = "Nap"\nsource = "standin"\n', "Nap", "deal"),
    ],
)
def test_validation_names_file_entry_and_field(file: str, text: str, entry: str, field: str) -> None:
    with pytest.raises(ContentError) as info:
        parse_pack({file: text})
    assert (info.value.file, info.value.entry, info.value.field) == (file, entry, field)


def test_custom_pack_loads_with_the_same_validation(tmp_path: Path) -> None:
    (tmp_path / "enemies.toml").write_text(
        '[[enemy]]\nname = "Test Golem"\ntrait = "warrior"\nhealth = 9\nsource = "standin"\n'
        'abilities = [{ name = "Slam", trigger = "surge", cost = 1, '
        'effects = [{ kind = "deal", amount = 1, symbol = "skull" }], source = "standin" }]\n'
    )
    pack = load_content(tmp_path)
    assert pack.enemies["Test Golem"].health == 9 and "Sorcerer" in pack.enemies
    (tmp_path / "heroes.toml").write_text('[[hero]]\nname = "X"\nhealth = 99\ntokens = ["P/S"]\nsource = "standin"\n')
    with pytest.raises(ContentError) as info:
        load_content(tmp_path)
    assert info.value.file.endswith("heroes.toml") and info.value.field == "health"


def test_a_custom_pack_file_that_is_not_utf8_is_refused_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "heroes.toml").write_bytes(b'[[hero]]\nname = "\xff"\n')
    with pytest.raises(ContentError, match=r"heroes\.toml.*not UTF-8"):
        load_content(tmp_path)
    assert SOURCES == CORE_SOURCES  # one list of content sources, the core's


def _token_set(n: int) -> str:
    tokens = ", ".join(f'{{ id = "t{i}", faces = "K/S" }}' for i in range(n))
    return f'[[token_set]]\ntrait = "warrior"\nsource = "standin"\ntokens = [{tokens}]\n'


_ABILITY = '{ name = "A", trigger = "surge", cost = 1, source = "standin", effects = [{ kind = "heal", amount = 1 }] }'


def _hero(tokens: int = 1, cards: int = 0, abilities: int = 0, face: str = "P") -> str:
    token_list = ", ".join([f'"{face}/S"'] * tokens)
    card_list = ", ".join(['"Nap"'] * cards)
    return (
        f'[[hero]]\nname = "Big"\nhealth = 5\nsource = "standin"\ntokens = [{token_list}]\n'
        f"cards = [{card_list}]\nabilities = [{', '.join([_ABILITY] * abilities)}]\n"
    )


def _enemy(abilities: int) -> str:
    return (
        '[[enemy]]\nname = "Big"\ntrait = "warrior"\nhealth = 5\nsource = "standin"\n'
        f"abilities = [{', '.join([_ABILITY] * abilities)}]\n"
    )


@pytest.mark.parametrize(
    ("file", "fits", "too_big", "field"),
    [
        ("token_sets.toml", _token_set(MAX_TOKENS), _token_set(MAX_TOKENS + 1), "tokens"),
        ("heroes.toml", _hero(tokens=MAX_HERO_TOKENS), _hero(tokens=MAX_HERO_TOKENS + 1), "tokens"),
        ("heroes.toml", _hero(face=str(MAX_FACE_VALUE) + "P"), _hero(face=str(MAX_FACE_VALUE + 1) + "P"), "tokens[0]"),
        ("heroes.toml", _hero(cards=MAX_CARDS), _hero(cards=MAX_CARDS + 1), "cards"),
        ("heroes.toml", _hero(abilities=MAX_HERO_ABILITIES), _hero(abilities=MAX_HERO_ABILITIES + 1), "abilities"),
        ("enemies.toml", _enemy(MAX_ENEMY_ABILITIES), _enemy(MAX_ENEMY_ABILITIES + 1), "abilities"),
    ],
)
def test_a_pack_larger_than_the_tensors_hold_is_refused_at_load(file: str, fits: str, too_big: str, field: str) -> None:
    """Each limit the observation tensor and the action ids are sized by (``runebound_coop.limits``) is enforced
    when the pack is read: the largest pack that fits loads, one more is a ContentError naming the field."""
    parse_pack({file: fits, "cards.toml": '[[card]]\nname = "Nap"\nheal = 1\nsource = "standin"\n'})
    with pytest.raises(ContentError) as info:
        parse_pack({file: too_big})
    assert (info.value.file, info.value.field) == (file, field)


def test_a_hero_with_more_asset_tokens_than_a_pool_holds_is_refused_where_options_are_made() -> None:
    from runebound_coop import GAME
    from tabletop_core.errors import OptionError

    assets = tuple(builtin_content().assets)[:1] * (MAX_TOKENS - MAX_HERO_TOKENS + 1)
    with pytest.raises(OptionError):
        GAME.make_options(heroes=("Elian",), assets=(assets,))
