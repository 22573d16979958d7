"""The layers hold: the core never imports a game, and a game imports only the core and itself (docs/architecture.md).

The check reads every module's source with ``ast`` (lazy imports inside functions included), so an import that
would only run on some path still counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
CORE = "tabletop_core"
GAMES = tuple(sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").is_file() and p.name != CORE))


def imported_packages(source: str) -> set[str]:
    """The top-level packages a module's source imports, anywhere in it (``import a.b``, ``from a import b``,
    ``importlib.import_module("a.b")`` with a literal name); relative imports stay inside the package."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value.split(".")[0])
    return found


def _modules(package: str) -> list[Path]:
    return sorted((SRC / package).rglob("*.py"))


def test_the_games_are_found() -> None:
    assert {"unbroken", "runebound_coop", "unrest"} <= set(GAMES)


def test_the_core_never_imports_a_game() -> None:
    bad = [
        f"{path.relative_to(SRC)} imports {sorted(imported_packages(path.read_text(encoding='utf-8')) & set(GAMES))}"
        for path in _modules(CORE)
        if imported_packages(path.read_text(encoding="utf-8")) & set(GAMES)
    ]
    assert not bad, "the core finds games through the tabletop.games entry points only:\n" + "\n".join(bad)


def test_a_game_imports_only_the_core_and_itself() -> None:
    bad = []
    for game in GAMES:
        others = set(GAMES) - {game}
        for path in _modules(game):
            wrong = imported_packages(path.read_text(encoding="utf-8")) & others
            if wrong:
                bad.append(f"{path.relative_to(SRC)} imports {sorted(wrong)}")
    assert not bad, "a game imports only tabletop_core and its own modules:\n" + "\n".join(bad)


def test_the_import_reader_sees_every_form_of_import() -> None:
    source = """
import os, unrest.rules
from runebound_coop.state import X
from . import sibling
def later():
    from unbroken import GAME
    return importlib.import_module("other_game.view")
"""
    assert imported_packages(source) == {"os", "unrest", "runebound_coop", "unbroken", "other_game"}
