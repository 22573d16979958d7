"""Content packs through the public loader only (``unbroken.load_pack``): a damaged pack file is refused with a
ContentError naming file, entry and field, or loads as a pack a game plays.

The loaders' own mutation loops over every shipped file of every game live with the content tests
(``tests/*/test_content_mutations.py``); ``make fuzz`` runs them longer too.
"""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unbroken
from tabletop_core.agents import RandomAgent
from tabletop_core.content import package_file, read_text
from tabletop_core.errors import ContentError
from tabletop_core.records import playout
from tests.fuzz.games import checked_playout, examples

#: A user's pack: the default pack extended by one authored encounter and one condition.
BASE = 'extends = "default"\n\n'


@functools.cache
def pack_text() -> str:
    """A one-file pack: the default's conditions and encounters sections, which the user pack overrides."""
    return BASE + "\n".join(
        read_text(package_file("unbroken.content", f"data/{name}")) for name in ("conditions.toml", "encounters.toml")
    )


_EDITS = ("delete", "duplicate", "number", "string", "truncate", "swap")


def _edit(text: str, kind: str, line: int, value: int) -> str:
    lines = text.splitlines()
    i = line % len(lines)
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = (i + 1 + value) % len(lines)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "number":
        lines[i] = "".join(str(value - 2**20) if ch.isdigit() else ch for ch in lines[i])
    elif kind == "string":
        lines[i] = lines[i].replace('"', '"\\u0000' if value % 2 else '""', 1)
    else:
        return text[: (line * 7919) % len(text)]
    return "\n".join(lines)


@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(kind=st.sampled_from(_EDITS), line=st.integers(0, 10_000), value=st.integers(0, 2**21))
def test_damaged_user_packs_are_refused_with_a_location_or_play(kind: str, line: int, value: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mine.toml"
        path.write_text(_edit(pack_text(), kind, line, value), encoding="utf-8")
        try:
            pack = unbroken.load_pack(path)
        except ContentError as exc:
            assert exc.file and exc.entry and exc.field, exc
            return
    state = unbroken.new_game(seed=value, pack=pack, character=pack.characters[0].id)
    for step in playout(unbroken.GAME, [RandomAgent()], state, seed=value, max_steps=40):
        state = step.after
    checked_playout(unbroken.GAME, state, value, steps=40)
