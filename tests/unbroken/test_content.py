"""The content pack: counts, sources, rulebook facts, validation errors and custom packs."""

from __future__ import annotations

from pathlib import Path

import attrs
import numpy as np
import pytest

import unbroken
from tabletop_core.errors import ContentError
from tests.playouts import final_state, last
from unbroken.content.loader import default_pack, load_pack
from unbroken.content.schema import SOURCES


def test_pack_counts_match_the_issue() -> None:
    p = default_pack()
    assert len(p.characters) == 4 and len(p.weapons) == 7 and len(p.monsters) == 24
    assert len(p.conditions) >= 10 and len(p.skills) >= 24 and len(p.encounters) >= 60
    for level in range(1, 5):
        assert sorted(m.number for m in p.monsters if m.level == level) == [1, 2, 3, 4, 5, 6]
        assert any(m.trickery is None for m in p.monsters if m.level == level)
        assert any(m.ambush is None for m in p.monsters if m.level == level)


def test_every_entry_records_its_source() -> None:
    p = default_pack()
    for group in (p.characters, p.weapons, p.monsters, p.conditions, p.skills, p.encounters):
        assert all(x.source in SOURCES for x in group)


def test_rulebook_named_cards() -> None:
    p = default_pack()
    ids = {c.id for c in p.conditions}
    assert {"paralyzed", "paranoid", "poisoned", "armored"} <= ids and p.condition("armored").permanent
    assert {"daring", "wrecker"} <= {s.id for s in p.skills}
    basilisk = next(m for m in p.monsters if m.id == "basilisk")
    assert (basilisk.level, basilisk.armor, basilisk.health) == (4, 1, 12)
    # "Combat with a Dark Elf on the previous Level left the Sneak with a Paranoid Condition" before the Level 4
    # Basilisk: the Dark Elf is a Level 3 monster.
    assert next(m for m in p.monsters if m.id == "dark_elf").level == 3
    assert next(m for m in p.monsters if m.id == "minotaur").level == 3
    sword = p.weapon("sword")
    assert [(a.kind, a.power) for a in sword.attacks][:2] == [("break", 1), ("wound", 5)]
    assert {w.id for w in p.weapons if w.tier == "basic"} == {"bare_hands", "club", "knife"}
    kinds = {e.kind for e in p.encounters}
    assert {"commit", "cure", "skill"} <= kinds


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "pack.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "entry", "field"),
    [
        (
            'extends = "default"\n[[skill]]\nid = "x"\nname = "X"\nsource = "standin"\n'
            'abilities = [{ kind = "response", trigger = "never", effects = [] }]\n',
            "x",
            "abilities[0].trigger",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 2\nsource = "standin"\n'
            'gain = [{ op = "gain", res = "gold", n = 1 }]\n',
            "e",
            "gain[0].res",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 0\nsource = "standin"\n'
            "gain = []\n",
            "e",
            "time",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 1\nsource = "mine"\n'
            "gain = []\n",
            "e",
            "source",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 1\nsource = "standin"\n'
            'gain = [{ op = "condition", id = "sleepy", when = "now" }]\n',
            "e",
            "gain[0].id",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 1\nsource = "standin"\n'
            'gain = [{ op = "gain", res = "food" }]\n',
            "e",
            "gain[0].n",
        ),
        (
            'extends = "default"\n[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 1\nsource = "standin"\n'
            'colour = "red"\ngain = []\n',
            "e",
            "colour",
        ),
    ],
)
def test_pack_mistakes_name_file_entry_and_field(tmp_path: Path, text: str, entry: str, field: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ContentError) as info:
        load_pack(path)
    assert info.value.file == str(path) and info.value.entry == entry and info.value.field == field
    assert str(path) in str(info.value)


def test_standalone_pack_must_be_complete(tmp_path: Path) -> None:
    path = _write(tmp_path, '[[skill]]\nid = "x"\nname = "X"\nsource = "standin"\n')
    with pytest.raises(ContentError):
        load_pack(path)


def test_bad_toml_is_a_content_error(tmp_path: Path) -> None:
    with pytest.raises(ContentError):
        load_pack(_write(tmp_path, "[[skill]\n"))


def test_custom_pack_merged_over_default_plays(tmp_path: Path) -> None:
    text = (
        'extends = "default"\n'
        '[[monster]]\nid = "kobold"\nname = "Paper Kobold"\nlevel = 1\nnumber = 1\narmor = 0\nhealth = 1\n'
        'source = "standin"\nrewards = [{ op = "gain", res = "treasure", n = 3 }]\n'
        "table = [" + ", ".join(['{ kind = "defend", effects = [{ op = "defend" }] }'] * 6) + "]\n"
    )
    path = _write(tmp_path, text)
    pack = load_pack(path)
    assert next(m for m in pack.monsters if m.id == "kobold").name == "Paper Kobold"
    assert len(pack.encounters) == len(default_pack().encounters)
    state = unbroken.new_game(pack=path, character="hunter")
    assert state.pack.monster_for(1, 1).health == 1
    rng = np.random.default_rng(0)
    state = unbroken.step(state, unbroken.parse_action(state, "fight"), rng=rng)
    state = final_state(unbroken.GAME, state, rng, choose=last, chance="settle", until=lambda s: s.level != 1)
    assert unbroken.GAME.spec.min_utility <= unbroken.returns(state)[0]


def test_the_documented_pack_example_loads_and_plays(tmp_path: Path) -> None:
    import re

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "unbroken.md").read_text(encoding="utf-8")
    match = re.search(r"```toml\n(.*?)```", doc, re.S)
    assert match is not None
    path = _write(tmp_path, match.group(1))
    pack = load_pack(path)
    assert pack.monster_for(1, 1).name == "Cave Gnoll" and "iron_will" in {s.id for s in pack.skills}
    state = unbroken.new_game(seed=0, pack=path)
    assert state.pack == pack and state.pack.name == "pack" and state.options.pack == "pack"
    assert state.options.pack_sha256 == pack.sha256 and len(pack.sha256) == 64


def _paper_kobold(health: int) -> str:
    return (
        'extends = "default"\n'
        '[[monster]]\nid = "kobold"\nname = "Paper Kobold"\nlevel = 1\nnumber = 1\narmor = 0\n'
        f'health = {health}\nsource = "standin"\n'
        "table = [" + ", ".join(['{ kind = "defend", effects = [{ op = "defend" }] }'] * 6) + "]\n"
    )


def test_a_pack_file_edited_between_games_is_read_again(tmp_path: Path) -> None:
    """The pack cache is keyed by the file's content: an edited file is never served stale to a new game."""
    path = _write(tmp_path, _paper_kobold(1))
    first = unbroken.new_game(seed=0, pack=path)
    assert first.pack.monster_for(1, 1).health == 1
    _write(tmp_path, _paper_kobold(3))
    second = unbroken.new_game(seed=0, pack=path)
    assert second.pack.monster_for(1, 1).health == 3
    assert load_pack(path).monster_for(1, 1).health == 3
    # The game begun before the edit keeps the pack it began with, and two games never share a stale one.
    assert first.pack.monster_for(1, 1).health == 1
    assert first.options != second.options


def test_a_saved_game_keeps_its_pack_and_refuses_a_changed_one(tmp_path: Path) -> None:
    """A saved game names its pack by name and SHA-256: it plays that pack's content, or nothing."""
    import subprocess
    import sys

    from tabletop_core.errors import TabletopError
    from tabletop_core.serialize import from_json, to_json

    path = _write(tmp_path, _paper_kobold(1))
    state = unbroken.new_game(seed=0, pack=path)
    saved = to_json(state)
    assert from_json(unbroken.GAME, saved).pack.monster_for(1, 1).health == 1
    # The file is edited and the new pack given under the same name: the saved game still plays what it began
    # with (the document never makes the library read the file), while new games get the edit.
    _write(tmp_path, _paper_kobold(3))
    assert unbroken.new_game(seed=0, pack=path).pack.monster_for(1, 1).health == 3
    assert from_json(unbroken.GAME, saved).pack.monster_for(1, 1).health == 1
    # A process that was given only the edited pack refuses the saved game rather than play other rules.
    (tmp_path / "saved.json").write_text(saved, encoding="utf-8")
    script = (
        "import sys, pathlib, unbroken\n"
        "from tabletop_core.serialize import from_json\n"
        "unbroken.GAME.make_options(pack=pathlib.Path(sys.argv[1]))\n"
        "try:\n"
        "    from_json(unbroken.GAME, pathlib.Path(sys.argv[2]).read_text())\n"
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(path), str(tmp_path / "saved.json")],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    assert out.startswith("StateFormatError") and "the pack changed since this game began" in out
    # A SHA-256 no process was given under that name is refused the same way, here too.
    forged = saved.replace(state.options.pack_sha256, "0" * 64)
    with pytest.raises(TabletopError, match="changed"):
        from_json(unbroken.GAME, forged)


def _extra_weapons(n: int) -> str:
    return 'extends = "default"\n' + "".join(
        f'[[weapon]]\nid = "club_{i}"\nname = "Club {i}"\ntier = "basic"\nsource = "standin"\n'
        f'attacks = [{{ name = "bash", kind = "break", power = 1, cost = [{{ op = "spend", res = "se", n = 1 }}] }}]\n'
        for i in range(n)
    )


def _extra_conditions(n: int) -> str:
    return 'extends = "default"\n' + "".join(
        f'[[condition]]\nid = "itch_{i}"\nname = "Itch {i}"\nsource = "standin"\n' for i in range(n)
    )


def test_a_pack_with_more_weapons_than_the_tensor_holds_is_refused(tmp_path: Path) -> None:
    from unbroken.limits import MAX_WEAPONS

    extra = MAX_WEAPONS - len(default_pack().weapons)
    path = _write(tmp_path, _extra_weapons(extra))
    assert len(load_pack(path).weapons) == MAX_WEAPONS  # a full pack still fits
    path = _write(tmp_path, _extra_weapons(extra + 1))
    with pytest.raises(ContentError) as info:
        load_pack(path)
    err = info.value
    assert (err.file, err.entry, err.field) == (str(path), f"club_{extra}", "id")
    assert "13 weapon entries" in str(err) and "12" in str(err)


def test_a_pack_with_more_conditions_than_the_tensor_holds_is_refused(tmp_path: Path) -> None:
    from unbroken.limits import MAX_CONDITIONS

    extra = MAX_CONDITIONS - len(default_pack().conditions)
    path = _write(tmp_path, _extra_conditions(extra + 1))
    with pytest.raises(ContentError) as info:
        load_pack(path)
    assert (info.value.file, info.value.entry, info.value.field) == (str(path), f"itch_{extra}", "id")


def test_the_last_weapon_slot_of_a_full_pack_is_its_own(tmp_path: Path) -> None:
    from unbroken.limits import MAX_WEAPONS
    from unbroken.view import LAYOUT

    path = _write(tmp_path, _extra_weapons(MAX_WEAPONS - len(default_pack().weapons)))
    state = unbroken.new_game(seed=0, pack=path)
    last = load_pack(path).weapons[-1].id
    assert LAYOUT.piece(unbroken.observation_tensor(state, 0), "weapon")[0] == 1.0  # Bare Hands, slot 0
    armed = attrs.evolve(state, weapons=("bare_hands", last))
    weapon = LAYOUT.piece(unbroken.observation_tensor(armed, 0), "weapon")
    assert weapon[MAX_WEAPONS - 1] == 1.0 and weapon.sum() == 1.0


def _extra(section: str, n: int) -> str:
    body = {
        "skill": 'source = "standin"\n',
        "encounter": 'kind = "k"\ntime = 1\nsource = "standin"\ngain = [{ op = "gain", res = "food", n = 1 }]\n',
    }[section]
    return 'extends = "default"\n' + "".join(
        f'[[{section}]]\nid = "extra_{i}"\nname = "Extra {section} {i}"\n{body}' for i in range(n)
    )


@pytest.mark.parametrize("section", ["skill", "encounter"])
def test_a_pack_with_more_cards_than_the_tensor_and_the_chance_outcomes_hold_is_refused(
    tmp_path: Path, section: str
) -> None:
    from unbroken.limits import MAX_ENCOUNTERS, MAX_SKILLS

    cap, have = {
        "skill": (MAX_SKILLS, default_pack().skills),
        "encounter": (MAX_ENCOUNTERS, default_pack().encounters),
    }[section]
    path = _write(tmp_path, _extra(section, cap - len(have)))
    assert len(getattr(load_pack(path), f"{section}s")) == cap  # a full pack still fits
    path = _write(tmp_path, _extra(section, cap - len(have) + 1))
    with pytest.raises(ContentError) as info:
        load_pack(path)
    assert (info.value.file, info.value.entry, info.value.field) == (str(path), f"extra_{cap - len(have)}", "id")
    assert f"more than the {cap}" in info.value.problem
