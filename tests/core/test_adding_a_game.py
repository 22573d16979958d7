"""``docs/adding-a-game.md`` followed in a copy of the source tree: a new kind of frame, the effect that pushes it
and a card that names the effect, added to Unbroken as the page says, and nothing else. The game must then play,
save and load the new frame, draw its observation tensor and pass the conformance suite, in a fresh process whose
``PYTHONPATH`` is the copy (so the edited rules are the ones imported)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding-a-game.md"

#: The page's frame: one class, registered where it is defined (``unbroken/rules/effects.py``, beside ``Choose``).
FRAME = '''
@FRAMES.register("unbroken.ask")
@attrs.frozen
class Ask(Decide):
    """Frame: "you may gain n Food": take it (``Pick(0)``) or leave it (``Pick(1)``)."""

    in_id_order: ClassVar[bool] = True
    n: int
    src: str = ""

    def options(self, state: State) -> list[Action]:
        return list(upto(PICK, Pick, 2))

    def label(self, state: State, i: int) -> str:
        return ("take the food", "leave it")[i] if i < 2 else ""

    def decide(self, state: State, action: Action) -> State:
        assert isinstance(action, Pick)
        if action.i == 1:
            return state.pop()
        return run_ops(state.pop(), (Op("gain", "food", self.n),), self.src)


def _ask(state: State, op: Op, src: str) -> State:
    return state.push(Ask(op.n, src))
'''
#: The page's effect: one entry of the effect language's registry (``OPS`` in the same module).
EFFECT = """        "ask": OpDef(_f(_N), _NONE, _ask, lambda o: f"you may gain {o.n} Food", positive=True),
"""
#: The page's card: the Hunter's Forage names the effect (``content/data/characters.toml``).
CARD = 'effects = [{ op = "ask", n = 1 }, { op = "gain", res = "wood", n = 1 }]'

#: What the fresh process checks, printing ``ok`` and what it saw.
CHECK = """
import numpy as np

import unbroken
from tabletop_core.conformance import check_game
from tabletop_core.serialize import from_json, to_json
from unbroken.rules.effects import Ask
from unbroken.rules.flow import FRAMES
from unbroken.view import LAYOUT

GAME = unbroken.GAME
seen = []


def at_ask(state):
    if isinstance(state.pending.top, Ask):
        seen.append(state)


# Every state of the playouts saved and loaded, every action stepped, every tensor drawn, every invariant checked.
report = check_game(GAME, games=30, seed=0, options={"character": "hunter"}, invariant=at_ask)
assert seen, "no playout met the new frame"
state = seen[0]
back = from_json(GAME, to_json(state))
assert back == state and isinstance(back.pending.top, Ask)
tensor = GAME.observation_tensor(state, 0)
assert tensor.shape == GAME.spec.observation_shape
assert LAYOUT.piece(tensor, "frame")[FRAMES.index(Ask)] == 1.0
texts = [GAME.action_to_str(state, a) for a in GAME.legal_actions(state)]
assert [t.split(" ", 2)[2] for t in texts] == ["take the food", "leave it"], texts
taken = GAME.step(state, GAME.legal_actions(state)[0])
assert taken.amount(unbroken.state.FOOD) >= state.amount(unbroken.state.FOOD)
print("ok", len(seen), report.states, texts)
"""


def _edit(path: Path, anchor: str, addition: str, *, before: bool = False) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(anchor) == 1, f"{path.name}: the anchor {anchor!r} is not there once"
    path.write_text(text.replace(anchor, addition + anchor if before else anchor + addition), encoding="utf-8")


def test_a_frame_an_effect_and_a_card_added_as_the_page_says_play_save_load_and_pass_conformance(
    tmp_path: Path,
) -> None:
    doc = DOC.read_text(encoding="utf-8")
    for snippet in (FRAME.strip(), EFFECT.strip(), CARD):
        assert snippet in doc, f"docs/adding-a-game.md no longer shows {snippet.splitlines()[0]!r}"
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    effects = src / "unbroken" / "rules" / "effects.py"
    _edit(effects, "\n\ndef run_ops(", "\n" + FRAME.rstrip("\n"), before=True)
    _edit(effects, '        "choose": OpDef(\n', EFFECT, before=True)
    characters = src / "unbroken" / "content" / "data" / "characters.toml"
    _edit(characters, '{ name = "Forage", kind = "action", phase = "travel", ', CARD)
    text = characters.read_text(encoding="utf-8")
    old = 'effects = [{ op = "gain", res = "food", n = 1 }, { op = "gain", res = "wood", n = 1 }]'
    characters.write_text(text.replace(CARD + old, CARD, 1), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHECK)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("ok "), done.stdout
