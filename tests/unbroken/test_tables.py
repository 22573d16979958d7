"""The lookups built once per pack agree with the pack they come from."""

from __future__ import annotations

from unbroken.content.loader import default_pack
from unbroken.rules.cards import abilities_of, cards_in_play, in_play, statics
from unbroken.rules.tables import pack_tables, tables
from unbroken.state import Cond

from .helpers import GAME, at_battle


def test_tables_find_every_card_of_the_pack_by_id() -> None:
    pack, t = default_pack(), pack_tables("default", "")
    assert all(t.weapons[w.id] == pack.weapon(w.id) for w in pack.weapons)
    assert all(t.conditions[c.id] == pack.condition(c.id) for c in pack.conditions)
    assert all(t.characters[c.id] == pack.character(c.id) for c in pack.characters)
    assert all(t.monsters[m.id] == pack.monster_for_id(m.id) for m in pack.monsters)
    assert [t.skills[i].id for i in t.skill_ids] == [s.id for s in pack.skills]
    assert len(t.abilities) == len(pack.characters) + len(pack.skills) + len(pack.conditions) + len(pack.monsters)


def test_tables_sort_each_cards_abilities_as_the_rules_read_them() -> None:
    t = pack_tables("default", "")
    for src, abilities in t.abilities.items():
        for op in {e.op for a in abilities for e in a.effects}:
            expected = [e for a in abilities if a.kind == "static" for e in a.effects if e.op == op]
            assert list(t.static_ops(src).get(op, ())) == expected, (src, op)
        optional = src.startswith(("character:", "skill:"))
        for trigger, cands in t.responses[src].items():
            expected_cands = [
                (i, optional and a.kind == "response")
                for i, a in enumerate(abilities)
                if a.trigger == trigger and a.kind in ("response", "passive")
            ]
            assert list(cands) == expected_cands, (src, trigger)
        assert [(s, i) for s, i, _ in t.actions[src]] == [
            (src, i) for i, a in enumerate(abilities) if a.kind == "action"
        ]


def test_tables_are_built_once_per_pack() -> None:
    assert (
        tables(GAME.new_game(seed=1)) is tables(GAME.new_game(seed=2, difficulty="hard")) is pack_tables("default", "")
    )


def test_the_cards_in_play_are_the_character_skills_conditions_and_monster_in_order() -> None:
    s = at_battle("kobold", 1, skills=("thick_skin", "stubborn"), conditions=(Cond("starving"),))
    cards = cards_in_play(s)
    assert cards == [
        f"character:{s.options.character}",
        "skill:thick_skin",
        "skill:stubborn",
        "condition:starving",
        "monster:kobold",
    ]
    assert [src for src, _ in in_play(s)] == cards
    assert abilities_of(s, "monster:kobold") == pack_tables("default", "").monsters["kobold"].abilities
    assert abilities_of(s, "monster:lich") == ()
    ops = {e.op for _, abilities in in_play(s) for a in abilities if a.kind == "static" for e in a.effects}
    assert len(ops) >= 2
    for op in ops:
        expected = [e for _, abs_ in in_play(s) for a in abs_ if a.kind == "static" for e in a.effects if e.op == op]
        assert statics(s, op) == expected
