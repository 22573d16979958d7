"""The rule-by-rule tables in docs/rules/ cite tests that exist: every ``test_file.py::test_name`` a game's page
names is a test function (or a parametrized one) in that game's test folder, so a renamed or deleted test cannot
leave a rule pointing at nothing."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CITED = re.compile(r"(?<![\w/])((?:[\w]+/)*test_\w+\.py)::(\w+)")
GAMES = ("unrest", "unbroken", "runebound_coop")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test")}


@pytest.mark.parametrize("game", GAMES)
def test_every_test_a_rules_page_cites_exists(game: str) -> None:
    page = ROOT / "docs" / "rules" / f"{game}.md"
    cited = CITED.findall(page.read_text(encoding="utf-8"))
    assert len(cited) > 20, f"{page} cites too few tests to be the rule table"
    missing = []
    for file, name in cited:
        # Cited by name within the game's tests, or by a path from the repository root or from tests/.
        candidates = [ROOT / "tests" / game / file, ROOT / file, ROOT / "tests" / file]
        path = next((c for c in candidates if c.exists()), candidates[0])
        if not path.exists() or name not in _tests_in(path):
            missing.append(f"{file}::{name}")
    assert not missing, f"{page.name} cites tests that do not exist: {sorted(set(missing))}"


def _frames_hook() -> Any:
    spec = importlib.util.spec_from_file_location("frames_hook", ROOT / "docs" / "_ext" / "frames.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_lists_every_frame_its_game_registers(game: str) -> None:
    from tabletop_core.registry import installed_game

    registry = installed_game(game).driver.frames  # type: ignore[attr-defined]  # a driven game
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    if registry is None:
        assert "<!-- frames" not in page, f"{game} keeps no frame registry to list"
        return
    assert f"<!-- frames game={game} -->" in page, f"docs/rules/{game}.md asks for no table of its frames"
    built = _frames_hook().on_page_markdown(page)
    assert "<!-- frames" not in built
    for kind in registry:
        assert f"| `{kind.TAG}` | `{kind.__name__}` |" in built, f"{kind.__name__} is not in the built table"
    rows = [line for line in built.splitlines() if line.startswith("| `") and line not in page.splitlines()]
    assert len(rows) == len(registry), rows
