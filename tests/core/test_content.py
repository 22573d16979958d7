"""The one content reader: strict, located errors from cattrs, unknown keys refused, files read safely."""

from __future__ import annotations

import enum
from pathlib import Path
from typing import Any

import attrs
import pytest

from tabletop_core.content import MAX_BYTES, SOURCES, ContentReader, Source, package_file, read_text, read_toml
from tabletop_core.errors import ContentError


class Sym(enum.Enum):
    SWORD = "sword"
    BOW = "bow"


@attrs.frozen
class Face:
    power: int


def _face(value: Any, _type: Any) -> Face:
    if not isinstance(value, str) or not value.endswith("P"):
        raise ValueError(f"expected a face like '2P', got {value!r}")
    return Face(int(value[:-1]))


@attrs.frozen
class Ability:
    symbol: Sym
    amount: int = attrs.field(validator=attrs.validators.ge(1))
    weight: float = 1.0


@attrs.frozen
class Hero:
    name: str
    health: int = attrs.field(validator=attrs.validators.in_(range(1, 20)))
    source: Source
    abilities: tuple[Ability, ...] = ()
    faces: tuple[Face, ...] = ()
    elite: bool = False


READER = ContentReader({Face: _face})


def _hero(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": "Elian", "health": 9, "source": "standin"}
    base.update(changes)
    return base


def _error(data: Any) -> ContentError:
    with pytest.raises(ContentError) as info:
        READER.entries({"hero": [_hero(name="Ok"), data]}, "hero", Hero, file="heroes.toml")
    return info.value


def test_reader_structures_nested_entries_with_enums_and_hooks() -> None:
    doc = {"hero": [_hero(abilities=[{"symbol": "bow", "amount": 2, "weight": 3}], faces=["2P", "0P"], elite=True)]}
    (hero,) = READER.entries(doc, "hero", Hero, file="heroes.toml")
    assert hero == Hero("Elian", 9, "standin", (Ability(Sym.BOW, 2, 3.0),), (Face(2), Face(0)), True)
    assert isinstance(hero.abilities[0].weight, float)
    assert SOURCES == ("rulebook", "public", "standin")
    assert READER.entries({}, "hero", Hero, file="heroes.toml") == ()


@pytest.mark.parametrize(
    ("data", "field", "problem"),
    [
        (
            _hero(speed=3),
            "speed",
            "unknown field (allowed: ['abilities', 'elite', 'faces', 'health', 'name', 'source'])",
        ),
        (_hero(abilities=[{"symbol": "bow", "amount": 1, "colour": "red"}]), "abilities[0].colour", "unknown field"),
        (_hero(health="9"), "health", "expected an integer, got '9'"),
        (_hero(health=True), "health", "expected an integer, got True"),
        (_hero(health=9.0), "health", "expected an integer, got 9.0"),
        (_hero(name=7), "name", "expected a string, got 7"),
        (_hero(elite=1), "elite", "expected true or false, got 1"),
        (_hero(abilities=[{"symbol": "bow", "amount": 1, "weight": "2"}]), "abilities[0].weight", "finite number"),
        (_hero(abilities=[{"symbol": "bow", "amount": 1, "weight": float("nan")}]), "abilities[0].weight", "finite"),
        (_hero(health=40), "health", "'health' must be in range(1, 20)"),
        (
            _hero(abilities=[{"symbol": "bow", "amount": 1}, {"symbol": "bow", "amount": 0}]),
            "abilities[1].amount",
            ">= 1",
        ),
        (_hero(abilities=[{"symbol": "axe", "amount": 1}]), "abilities[0].symbol", "'axe' is not a valid Sym"),
        (_hero(source="folklore"), "source", "'folklore' is not one of ('rulebook', 'public', 'standin')"),
        (_hero(faces=["2P", "x"]), "faces[1]", "expected a face like '2P', got 'x'"),
        (_hero(abilities=[{"amount": 1}]), "abilities[0].symbol", "missing"),
        (_hero(abilities=["bow"]), "abilities[0]", "expected a table"),
        ({"name": "Elian", "source": "public"}, "health", "missing"),
    ],
)
def test_every_structuring_problem_becomes_a_located_content_error(data: Any, field: str, problem: str) -> None:
    error = _error(data)
    entry = data["name"] if isinstance(data.get("name"), str) else "hero[1]"
    assert (error.file, error.entry, error.field) == ("heroes.toml", entry, field)
    assert problem in error.problem
    assert str(error).startswith(f"heroes.toml: entry {error.entry!r}, field {field!r}: ")


def test_entries_are_named_by_id_or_position_and_ids_are_unique() -> None:
    error = _error({"health": 9, "source": "public"})
    assert (error.entry, error.field, error.problem) == ("hero[1]", "name", "missing")
    with pytest.raises(ContentError, match="entry 'Ok', field 'name': appears twice"):
        READER.entries({"hero": [_hero(name="Ok"), _hero(name="Ok")]}, "hero", Hero, file="heroes.toml")
    with pytest.raises(ContentError, match="expected a table"):
        READER.entries({"hero": [_hero(), 3]}, "hero", Hero, file="heroes.toml")
    with pytest.raises(ContentError, match=r"expected an array of \[\[hero\]\] tables"):
        READER.entries({"hero": {"name": "x"}}, "hero", Hero, file="heroes.toml")
    with pytest.raises(ContentError, match="and 1 more problem"):
        READER.structure(_hero(health="9", name=3), Hero, file="heroes.toml", entry="x")
    with pytest.raises(ContentError, match="entry 'weapons', field '-': unknown table"):
        READER.check_keys({"hero": [], "weapons": []}, ("hero",), file="heroes.toml")


def test_files_are_read_only_when_regular_bounded_utf8_toml(tmp_path: Path) -> None:
    good = tmp_path / "heroes.toml"
    good.write_text('[[hero]]\nname = "Elian"\nhealth = 9\nsource = "rulebook"\n', encoding="utf-8")
    assert READER.entries(read_toml(good), "hero", Hero, file=good.name)[0].health == 9
    (tmp_path / "bad.toml").write_bytes(b'name = "\xff"\n')
    with pytest.raises(ContentError, match="not UTF-8"):
        read_toml(tmp_path / "bad.toml")
    (tmp_path / "syntax.toml").write_text("name = = 3\n", encoding="utf-8")
    with pytest.raises(ContentError, match=r"bad TOML: .*line 1"):
        read_toml(tmp_path / "syntax.toml")
    with pytest.raises(ContentError, match="not a regular file"):
        read_toml(tmp_path)
    with pytest.raises(ContentError, match="cannot read"):
        read_toml(tmp_path / "missing.toml")
    (tmp_path / "big.toml").write_text("x = 1\n" * 10, encoding="utf-8")
    with pytest.raises(ContentError, match="larger than 20 bytes"):
        read_text(tmp_path / "big.toml", max_bytes=20)
    assert MAX_BYTES >= 1_000_000


def test_package_files_are_read_through_importlib_resources() -> None:
    text = read_text(package_file("tabletop_core", "py.typed"))
    assert isinstance(text, str)
    with pytest.raises(ContentError, match=r"no-such-file\.toml: entry '-', field '-': cannot read"):
        read_text(package_file("tabletop_core", "no-such-file.toml"))
    with pytest.raises(ContentError, match="not a regular file"):
        read_text(package_file("tabletop_core", "testing"))
