"""Content errors are always ContentError: damaged copies of every shipped file either load and play or are
refused with the file, the entry and the field (never a KeyError, TypeError or ValueError)."""

from __future__ import annotations

import functools
import os

import pytest

import unbroken
from tabletop_core.agents import RandomAgent
from tabletop_core.content import package_file, read_text
from tabletop_core.errors import ContentError
from tabletop_core.records import playout
from tests.core.content_mutants import KINDS, check_mutants, mutants
from unbroken.content.loader import DATA_FILES, Pack, default_pack, parse_pack

#: Mutants per file and kind (``CONTENT_MUTANTS=50`` for a longer run).
PER_KIND = int(os.environ.get("CONTENT_MUTANTS", "3"))


def _plays(pack: Pack) -> None:
    """A short random game with ``pack``, every action written and read back and every tensor built."""
    state = unbroken.new_game(seed=0, pack=pack, character=pack.characters[0].id)
    for step in playout(unbroken.GAME, [RandomAgent()], state, seed=0, max_steps=150):
        text = unbroken.action_to_str(step.before, step.action)
        assert unbroken.parse_action(step.before, text) == step.action, text
        unbroken.observation_tensor(step.after, 0)
        unbroken.render(step.after)


def _load(file: str, text: str) -> Pack:
    return parse_pack({file: text}, base=default_pack())


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_shipped_files_are_refused_with_a_location_or_play(kind: str) -> None:
    total = refused = 0
    for file in DATA_FILES:
        text = read_text(package_file("unbroken.content", f"data/{file}"))
        cases = mutants(text, kind, PER_KIND, seed=len(file))
        no, _ = check_mutants(cases, functools.partial(_load, file), _plays)
        total, refused = total + len(cases), refused + no
    assert total > 0, "every kind of damage applies somewhere"
    if kind in ("retype", "extra"):
        assert refused == total  # a wrong type or an unknown key is never accepted


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ('[[weapon]]\nid = "w"\nname = "W"\ntier = "basic"\nsource = "standin"\nattacks = [1]\n', "attacks[0]"),
        (
            '[[encounter]]\nid = "e"\nname = "E"\nkind = "k"\ntime = 1\nsource = "standin"\n'
            'gain = [{ op = "gain", res = "", n = 1 }]\n',
            "gain[0].res",
        ),
        ('[[encounter]]\nid = "e"\nname = ""\nkind = "k"\ntime = 1\nsource = "standin"\ngain = []\n', "name"),
        ('[[skill]]\nid = "s"\nname = "S"\nsource = "standin"\ntext = 5\n', "text"),
        ('[[skill]]\nid = "s"\nname = "S"\nsource = "standin"\nabilities = "fast"\n', "abilities"),
    ],
)
def test_the_hostile_packs_of_the_review_are_located_content_errors(entry: str, field: str) -> None:
    with pytest.raises(ContentError) as info:
        parse_pack({"pack.toml": 'extends = "default"\n' + entry})
    assert info.value.file == "pack.toml" and info.value.field == field
