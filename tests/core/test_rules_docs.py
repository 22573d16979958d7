"""The rule-by-rule tables in docs/rules/ cite tests that exist: every ``test_file.py::test_name`` a game's page
names is a test function (or a parametrized one) in that game's test folder, so a renamed or deleted test cannot
leave a rule pointing at nothing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

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
