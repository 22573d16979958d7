"""The layers hold as docs/architecture.md draws them: each core module imports only its layer and those below,
a game imports no runner and no other game, and the core never imports a game.

The check reads every module's source with ``ast`` (lazy imports inside functions included), so an import that
would only run on some path still counts.
"""

from __future__ import annotations

import ast
import re
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


DOC = SRC.parent / "docs" / "architecture.md"


def doc_layers() -> dict[str, int]:
    """The table of docs/architecture.md: each placed dotted name of the core, its layer's number."""
    placed: dict[str, int] = {}
    for number, cell in re.findall(r"^\| (\d) \w+ \| (.+?) \|$", DOC.read_text(encoding="utf-8"), re.M):
        for name in re.findall(r"`([\w.]+)`", cell):
            placed[name if name == CORE else f"{CORE}.{name}"] = int(number)
    return placed


def layer_of(module: str, placed: dict[str, int]) -> int | None:
    """The layer of a dotted module name: that of its longest placed prefix (``None``: not placed)."""
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        if ".".join(parts[:end]) in placed:
            return placed[".".join(parts[:end])]
    return None


def imported_modules(source: str) -> set[str]:
    """The absolute dotted names a module imports (``from a import b`` gives ``a.b``: b may be a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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


def test_the_table_places_every_core_module_and_names_only_real_ones() -> None:
    placed = doc_layers()
    assert set(placed.values()) == {1, 2, 3, 4}
    unplaced = [_module_name(p) for p in _modules(CORE) if layer_of(_module_name(p), placed) is None]
    assert not unplaced, "docs/architecture.md places no layer for: " + ", ".join(unplaced)
    names = {_module_name(p) for p in _modules(CORE)} | {f"{CORE}._speedups"}
    ghosts = [n for n in placed if not any(m == n or m.startswith(n + ".") for m in names)]
    assert not ghosts, "docs/architecture.md places modules that do not exist: " + ", ".join(ghosts)


def test_each_core_layer_imports_only_itself_and_the_layers_below() -> None:
    placed = doc_layers()
    bad = []
    for path in _modules(CORE):
        me = _module_name(path)
        mine = layer_of(me, placed)
        assert mine is not None
        for name in sorted(imported_modules(path.read_text(encoding="utf-8"))):
            theirs = layer_of(name, placed)
            if theirs is not None and theirs > mine:
                bad.append(f"{me} (layer {mine}) imports {name} (layer {theirs})")
    assert not bad, "a layer imports only its own and the layers below (docs/architecture.md):\n" + "\n".join(bad)


def test_a_game_imports_no_runner() -> None:
    placed = doc_layers()
    bad = []
    for game in GAMES:
        for path in _modules(game):
            for name in sorted(imported_modules(path.read_text(encoding="utf-8"))):
                theirs = layer_of(name, placed)
                if theirs == 4:
                    bad.append(f"{path.relative_to(SRC)} imports {name}")
    assert not bad, "a game imports foundations, protocol and play only:\n" + "\n".join(bad)


def test_the_layer_check_finds_an_upward_import() -> None:
    placed = doc_layers()
    source = "def later():\n    from tabletop_core.simulation import run\n"
    upward = [n for n in imported_modules(source) if (layer_of(n, placed) or 0) > placed[f"{CORE}.game"]]
    assert upward == ["tabletop_core.simulation.run"]
    assert layer_of("tabletop_core.render.results_page", placed) == 4
    assert layer_of("tabletop_core.render.svg", placed) == 1


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


def test_the_moved_modules_old_names_still_import_with_a_warning() -> None:
    import importlib
    import sys
    import warnings

    import tabletop_core.agent
    import tabletop_core.outcomes
    import tabletop_core.restrict

    for old, new in [
        ("tabletop_core.agents.base", tabletop_core.agent),
        ("tabletop_core.simulation.outcomes", tabletop_core.outcomes),
        ("tabletop_core.analysis.restrict", tabletop_core.restrict),
    ]:
        sys.modules.pop(old, None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(old)
        assert any(issubclass(w.category, DeprecationWarning) and new.__name__ in str(w.message) for w in caught)
        assert module.__all__ == new.__all__
        assert all(getattr(module, name) is getattr(new, name) for name in new.__all__)
