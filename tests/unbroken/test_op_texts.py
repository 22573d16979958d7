"""The words, fields and footprints of the effect language, held to a snapshot of the shipped pack.

``data/op_texts.json`` holds, for the default pack, every op's rule text (nested ones too), every monster sheet
in words, every ability's cost and effects in words, every encounter's exchange, every op's fields and every
ability's footprint, as the rules gave them when the snapshot was written: a change of any of them shows here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unbroken.content.loader import _all_ops, default_pack
from unbroken.content.schema import Ability
from unbroken.glossary import cost_text, monster_text, op_text, ops_text
from unbroken.rules.effects import OPS
from unbroken.rules.triggers import footprint

SNAPSHOT: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "op_texts.json").read_text(encoding="utf-8"))


def _abilities() -> list[tuple[str, str, int, Ability]]:
    pack = default_pack()
    cards = (("character", pack.characters), ("skill", pack.skills), ("condition", pack.conditions))
    out = [(kind, c.id, i, a) for kind, group in cards for c in group for i, a in enumerate(c.abilities)]
    out += [("monster", m.id, i, a) for m in pack.monsters for i, a in enumerate(m.abilities)]
    return out


def test_every_op_of_the_pack_reads_as_in_the_snapshot() -> None:
    now = [[section, eid, field, op_text(o)] for section, eid, o, field in _all_ops(default_pack())]
    assert len(now) == len(SNAPSHOT["ops"]) > 400
    for got, want in zip(now, SNAPSHOT["ops"], strict=True):
        assert got == want


def test_every_monster_sheet_ability_and_encounter_reads_as_in_the_snapshot() -> None:
    pack = default_pack()
    assert {m.id: monster_text(m) for m in pack.monsters} == SNAPSHOT["monsters"]
    assert [[k, cid, i, cost_text(a.cost), ops_text(a.effects)] for k, cid, i, a in _abilities()] == SNAPSHOT[
        "abilities"
    ]
    assert {e.id: [cost_text(e.spend), ops_text(e.gain)] for e in pack.encounters} == SNAPSHOT["encounters"]


def test_every_ability_touches_the_cells_of_the_snapshot() -> None:
    got = [[k, cid, i, footprint(a.effects), footprint(a.cost)] for k, cid, i, a in _abilities()]
    assert got == SNAPSHOT["footprints"]


@pytest.mark.parametrize("name", sorted(SNAPSHOT["fields"]))
def test_each_op_takes_the_fields_of_the_snapshot(name: str) -> None:
    required, optional = OPS[name].fields
    assert [sorted(required), sorted(optional)] == SNAPSHOT["fields"][name]
