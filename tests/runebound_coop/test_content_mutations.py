"""Content errors are always ContentError: damaged copies of every shipped file either load and play or are
refused with the file, the entry and the field (never a KeyError, TypeError, ValueError or a decoding error)."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import pytest

import runebound_coop as rb
from runebound_coop.content import load_content
from runebound_coop.content.loader import FILES, content_from_texts
from runebound_coop.content.schema import Content
from tabletop_core.agents import RandomAgent
from tabletop_core.content import package_file, read_text
from tabletop_core.errors import ContentError, OptionError
from tabletop_core.records import playout
from tests.core.content_mutants import KINDS, check_mutants, mutants

#: Mutants per file and kind (``CONTENT_MUTANTS=50`` for a longer run).
PER_KIND = int(os.environ.get("CONTENT_MUTANTS", "3"))


def _plays(pack: Content) -> None:
    """A random fight of the pack's first hero against its first enemy, every action written and read back."""
    options: dict[str, Any] = {
        "heroes": (next(iter(pack.heroes)),),
        "enemies": (next(iter(pack.enemies)),),
        "pack": pack,
    }
    state = rb.new_game(seed=0, **options)
    for step in playout(rb.GAME, [RandomAgent()], state, seed=0, max_steps=300):
        text = rb.action_to_str(step.before, step.action)
        assert rb.parse_action(step.before, text) == step.action, text
        rb.observation_tensor(step.after, 0)


def _load(file: str, text: str) -> Content:
    return content_from_texts({file: text}, name="mutant")


@pytest.mark.parametrize("kind", KINDS)
def test_damaged_shipped_files_are_refused_with_a_location_or_play(kind: str) -> None:
    total = refused = 0
    for file in sorted(FILES):
        text = read_text(package_file("runebound_coop.content", file))
        cases = mutants(text, kind, PER_KIND, seed=len(file))
        no, _ = check_mutants(cases, functools.partial(_load, file), _plays)
        total, refused = total + len(cases), refused + no
    assert total > 0, "every kind of damage applies somewhere"
    if kind in ("retype", "extra"):
        assert refused == total  # a wrong type or an unknown key is never accepted


def test_undecodable_files_and_folders_named_like_files_are_content_errors(tmp_path: Path) -> None:
    (tmp_path / "heroes.toml").write_bytes(b'[[hero]]\nname = "\xff"\n')
    with pytest.raises(ContentError, match="not UTF-8") as info:
        load_content(tmp_path)
    assert info.value.file.endswith("heroes.toml")
    (tmp_path / "heroes.toml").unlink()
    (tmp_path / "x.toml").mkdir()
    with pytest.raises(ContentError, match="not a regular file"):
        load_content(tmp_path)
    with pytest.raises(OptionError, match="not a regular file"):
        rb.new_game(pack=tmp_path)


@pytest.mark.parametrize(
    ("file", "text", "field"),
    [
        ("heroes.toml", '[[hero]]\nname = "X"\nhealth = 5\ntokens = "P/S"\nsource = "standin"\n', "tokens"),
        (
            "heroes.toml",
            '[[hero]]\nname = "X"\nhealth = 5\ntokens = ["P/S"]\nsource = "standin"\ncards = [3]\n',
            "cards[0]",
        ),
        ("cards.toml", '[[card]]\nname = "Nap"\nheal = 1\ntext = 4\nsource = "standin"\n', "text"),
        ("enemies.toml", '[[enemy]]\nname = ""\ntrait = "warrior"\nhealth = 3\nsource = "standin"\n', "name"),
    ],
)
def test_the_hostile_packs_of_the_review_are_located_content_errors(file: str, text: str, field: str) -> None:
    with pytest.raises(ContentError) as info:
        content_from_texts({file: text}, name="x", where="pack")
    assert info.value.file == f"pack/{file}" and info.value.field == field
