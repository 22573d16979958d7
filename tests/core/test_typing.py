"""The core's types: few parameters typed ``Any``, each with its reason, and mypy checks code against a game.

A game is a :class:`~tabletop_core.game.Game` over its state, action and options types, and the core's functions
are generic over them (``playout(game: Game[S, A, Any], state: S, ...)``), so mypy refuses an action of one game
passed to another, or a state where an action belongs. What is left ``Any`` is data of no fixed type (a raw JSON
value, a type form, a third-party object without types) or a protocol a game's own bot implements with its own
types; each such parameter says why on its line (``# Any: reason``) or in :data:`ALLOWED` below.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "tabletop_core"

#: The most parameters of ``tabletop_core`` annotated ``Any``, explained ones included. Lower it when one goes.
MOST_ANY_PARAMETERS = 10

#: Parameters typed ``Any`` without a comment on their line: ``path::function::parameter`` -> the reason.
ALLOWED: dict[str, str] = {}


def _is_any(node: ast.expr) -> bool:
    """Whether an annotation is ``Any`` itself, or a union with ``Any`` as a member (``Any | None``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _is_any(ast.parse(node.value, mode="eval").body)
    if isinstance(node, ast.Name | ast.Attribute):
        return (node.id if isinstance(node, ast.Name) else node.attr) == "Any"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_any(node.left) or _is_any(node.right)
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Optional":
        return _is_any(node.slice)
    return False


def any_parameters(root: Path = CORE) -> list[tuple[str, int, str]]:
    """``(path::function::parameter, line, source line)`` of every parameter annotated ``Any`` under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        rel = path.relative_to(root).as_posix()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            a = fn.args
            for p in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, (a.vararg, a.kwarg))]:
                if p.annotation is not None and _is_any(p.annotation):
                    found.append((f"{rel}::{fn.name}::{p.arg}", p.lineno, lines[p.lineno - 1]))
    return found


def test_the_counter_finds_any_in_every_form(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        textwrap.dedent(
            """
            from typing import Any, Optional
            import typing
            def f(a: Any, b: int, *c: Any, d: "Any | None" = None, e: Optional[Any] = None, **g: typing.Any) -> Any:
                def inner(h: list[Any], i: object) -> None: ...
            class K:
                def m(self, j: Any) -> None: ...
            """
        )
    )
    names = [key.split("::", 1)[1] for key, _, _ in any_parameters(tmp_path)]
    assert sorted(names) == ["f::a", "f::c", "f::d", "f::e", "f::g", "m::j"]


def test_any_parameters_are_few_and_each_says_why() -> None:
    found = any_parameters()
    unexplained = [f"{key} (line {n})" for key, n, line in found if "# Any:" not in line and key not in ALLOWED]
    assert not unexplained, "parameters typed Any with no '# Any: reason' on their line nor in ALLOWED:\n" + "\n".join(
        unexplained
    )
    assert len(found) <= MOST_ANY_PARAMETERS, f"{len(found)} parameters typed Any, more than {MOST_ANY_PARAMETERS}"
    keys = {key for key, _, _ in found}
    stale = sorted(set(ALLOWED) - keys)
    assert not stale, f"ALLOWED lists parameters that are no longer Any (remove them, lower the bound): {stale}"


def test_no_game_parameter_is_any_outside_the_allowed() -> None:
    games = [key for key, _, _ in any_parameters() if key.endswith("::game") and key not in ALLOWED]
    assert games == []


# ----- mypy checks code against a game -------------------------------------------------------------------------

_SNIPPET = """
import numpy as np

from tabletop_core.agent import RandomAgent
from tabletop_core.agents import MCTSAgent
from tabletop_core.analysis.exact import expected_returns
from tabletop_core.design.compare import measures_of
from tabletop_core.design.packs import free_fields
from tabletop_core.records import playout
from tabletop_core.render.replays import Replayable
from tabletop_core.server.matches import Matches
from tabletop_core.server.store import MatchRow
from tabletop_core.testing.kuhn import GAME, Deal, KuhnState, Move

state = GAME.new_game(seed=1)
rng = np.random.default_rng(1)
reveal_type(MCTSAgent(iterations=2).act_in(GAME, state, 0, rng))  # reveal
reveal_type([step.after for step in playout(GAME, [RandomAgent(), RandomAgent()], state, rng)])  # reveal
GAME.step(state, Move(1))
GAME.step(state, "bet")  # refused: a text is no Kuhn action
expected_returns(GAME, Move(1))  # refused: an action where the state belongs
replayable: Replayable[KuhnState, Move | Deal] = GAME
not_replayable: Replayable[KuhnState, Move | Deal] = RandomAgent()  # refused: no game
measures_of(GAME, state, [], GAME.step(state, Move(1)))
measures_of(GAME, state, [], Move(1))  # refused: an action where the final state belongs
free_fields("tabletop_core.testing.kuhn:GAME")  # refused: a game's name is no game


def serve(matches: Matches, row: MatchRow) -> None:
    matches._apply(row, GAME, state, 0, Move(1))
    matches._apply(row, GAME, state, 0, "bet")  # refused: a text is no Kuhn action
"""


def test_mypy_checks_search_playout_and_replays_against_the_game(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    text = _SNIPPET.lstrip()
    snippet = tmp_path / "snippet.py"
    snippet.write_text(text, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(ROOT / "src")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-error-summary",
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            str(snippet),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    out = done.stdout.replace(str(snippet), "snippet.py")
    said: dict[int, str] = {}
    for ln in out.splitlines():
        if ln.startswith("snippet.py:"):
            said[int(ln.split(":")[1])] = said.get(int(ln.split(":")[1]), "") + ln + "\n"
    marked = {n: line for n, line in enumerate(text.splitlines(), 1) if "# refused" in line or "# reveal" in line}
    # mypy speaks of the marked lines only: every refused line is an error, the others pass.
    assert sorted(said) == sorted(marked), out
    assert all(": error:" in said[n] for n, line in marked.items() if "# refused" in line), out
    # What a search and the playout loop give back is the game's own action and state type, not Any.
    revealed = [said[n] for n, line in marked.items() if "# reveal" in line]
    assert 'Revealed type is "tabletop_core.testing.kuhn.Move | tabletop_core.testing.kuhn.Deal"' in revealed[0], out
    assert "list[tabletop_core.testing.kuhn.KuhnState]" in revealed[1], out
    assert 'incompatible type "str"; expected "Move | Deal"' in out, out
    # The design and server functions are checked against the game too: no state of the game is an action, no text
    # a game or a Kuhn action (mypy finds no state type, or no action type, that fits both the game and the value).
    assert 'Cannot infer value of type parameter "S" of "measures_of"' in out, out
    assert 'Argument 1 to "free_fields" has incompatible type "str"; expected "Game[Any, Any, Any]"' in out, out
    assert 'Cannot infer value of type parameter "A" of "_apply" of "Matches"' in out, out
