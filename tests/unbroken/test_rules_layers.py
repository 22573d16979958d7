"""Unbroken's modules import each other without a circle, and the effect language is declared in one registry.

The import graph is read from the sources with :mod:`ast`: an import counts when it runs as its module is imported
(at the top level, or under an ``if``/``try`` there), not when it only serves the type checker
(``if TYPE_CHECKING:``). Imports inside a function run when the function is called; among the rules modules
those are few and named here, each with the reason it points up.
"""

from __future__ import annotations

import ast
import graphlib
from collections.abc import Iterator
from pathlib import Path

import pytest

import unbroken
from unbroken.content.loader import _all_ops, default_pack
from unbroken.content.schema import Op
from unbroken.rules.effects import OPS, OpDef

SRC = Path(unbroken.__file__).parent
#: The four modules of the phases, the effect language and the triggers.
FOUR = ("unbroken.rules.combat", "unbroken.rules.effects", "unbroken.rules.travel", "unbroken.rules.triggers")
#: The imports made when a function runs, from module to module, each with its reason: the effect language's ops
#: that push a frame of the battle or of the triggers (both run effect lists, so they sit above it), and the
#: loader reading the registry's fields (the rules build on the states its packs make).
CALL_TIME = {
    ("unbroken.rules.effects", "unbroken.rules.combat"),
    ("unbroken.rules.effects", "unbroken.rules.triggers"),
    ("unbroken.content.loader", "unbroken.rules.effects"),
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _targets(node: ast.Import | ast.ImportFrom, known: set[str]) -> Iterator[str]:
    """The modules of ``known`` an import statement names (``from unbroken.rules import combat`` names
    ``unbroken.rules.combat``; ``from unbroken.rules.combat import X`` too)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                yield alias.name
        return
    if node.module is None or node.level:
        return
    for alias in node.names:
        sub = f"{node.module}.{alias.name}"
        if sub in known:
            yield sub
        elif node.module in known:
            yield node.module


def imports(source: str, known: set[str]) -> tuple[set[str], set[str]]:
    """The modules of ``known`` that ``source`` imports when it is imported, and those it imports inside a
    function (type-checking imports left out)."""
    at_import: set[str] = set()
    at_call: set[str] = set()

    def visit(nodes: list[ast.stmt], in_function: bool) -> None:
        """Collect the imports of ``nodes``."""
        for node in nodes:
            if isinstance(node, ast.Import | ast.ImportFrom):
                (at_call if in_function else at_import).update(_targets(node, known))
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node.body, True)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, in_function)
            elif isinstance(node, ast.If):
                if not _is_type_checking(node.test):
                    visit(node.body, in_function)
                visit(node.orelse, in_function)
            elif isinstance(node, ast.Try):
                for block in (node.body, node.orelse, node.finalbody, *(h.body for h in node.handlers)):
                    visit(block, in_function)
            elif isinstance(node, ast.With):
                visit(node.body, in_function)

    visit(ast.parse(source).body, False)
    return at_import, at_call


def graph() -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """Unbroken's module-level import graph, and its imports made inside functions (as module pairs)."""
    paths = {_module_name(p): p for p in SRC.rglob("*.py")}
    known = set(paths)
    edges: dict[str, set[str]] = {}
    calls: set[tuple[str, str]] = set()
    for name, path in paths.items():
        at_import, at_call = imports(path.read_text(encoding="utf-8"), known)
        edges[name] = at_import - {name}
        calls |= {(name, m) for m in at_call - {name}}
    return edges, calls


def test_unbroken_imports_its_modules_without_a_circle() -> None:
    edges, _ = graph()
    assert set(FOUR) <= set(edges)
    list(graphlib.TopologicalSorter(edges).static_order())  # CycleError on a circle
    # the layers of the rules, bottom to top: each imports none of the layers above it
    layers = [f"unbroken.rules.{m}" for m in ("cards", "verbs", "effects", "triggers", "listing", "combat", "travel")]
    for i, m in enumerate(layers):
        assert not edges[m] & set(layers[i + 1 :]), m


def test_the_four_modules_import_none_of_each_other_but_downward() -> None:
    edges, _ = graph()
    among = {m: edges[m] & set(FOUR) for m in FOUR}
    assert among == {
        "unbroken.rules.effects": set(),
        "unbroken.rules.triggers": {"unbroken.rules.effects"},
        "unbroken.rules.combat": {"unbroken.rules.effects", "unbroken.rules.triggers"},
        "unbroken.rules.travel": {"unbroken.rules.combat", "unbroken.rules.effects", "unbroken.rules.triggers"},
    }
    for shared in ("unbroken.rules.cards", "unbroken.rules.verbs"):
        assert not edges[shared] & set(FOUR), shared
    assert not edges["unbroken.rules.listing"] & {m for m in FOUR if m != "unbroken.rules.effects"}


def test_the_imports_made_when_a_function_runs_are_the_named_ones() -> None:
    _, calls = graph()
    rules = {(a, b) for a, b in calls if b.startswith("unbroken.rules.") or a.startswith("unbroken.rules.")}
    assert rules == CALL_TIME


def test_the_import_reader_finds_a_circle_and_tells_the_kinds_of_import_apart() -> None:
    known = {"pkg.a", "pkg.b", "pkg.c", "pkg"}
    source = (
        "from typing import TYPE_CHECKING\n"
        "from pkg import a\n"
        "import pkg.b\n"
        "if TYPE_CHECKING:\n    from pkg.c import Thing\n"
        "def f():\n    from pkg.c import other\n"
    )
    assert imports(source, known) == ({"pkg.a", "pkg.b"}, {"pkg.c"})
    circle = {"pkg.a": imports("from pkg.b import x\n", known)[0], "pkg.b": imports("from pkg import a\n", known)[0]}
    with pytest.raises(graphlib.CycleError):
        list(graphlib.TopologicalSorter(circle).static_order())


# ----- the op registry ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted({o.op for _, _, o, _ in _all_ops(default_pack())}))
def test_every_op_of_the_pack_resolves_to_one_entry_with_fields_run_text_and_footprint(name: str) -> None:
    d = OPS[name]
    assert isinstance(d, OpDef)
    required, optional = d.fields
    assert isinstance(required, frozenset) and isinstance(optional, frozenset) and not required & optional
    assert {"op"}.isdisjoint(required | optional) and (required | optional) <= {f.name for f in Op.__attrs_attrs__}
    assert callable(d.run) and callable(d.text) and d.cells and all(isinstance(c, str) for c in d.cells)
    example = next(o for _, _, o, _ in _all_ops(default_pack()) if o.op == name)
    assert d.text(example) and d.text(example) != name.replace("_", " ")


def _op_name_tables(tree: ast.AST, names: frozenset[str]) -> Iterator[int]:
    """The lines of the collection literals (and dict displays) that list op names only, at least three."""
    for node in ast.walk(tree):
        items: list[ast.expr | None] = []
        if isinstance(node, ast.Set | ast.Tuple | ast.List):
            items = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        listed = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
        if len(listed) >= 3 and listed <= names and isinstance(node, ast.expr):
            yield node.lineno


def test_the_registry_is_the_one_table_of_the_ops_in_the_rules_content_and_glossary() -> None:
    """No other module of the rules, the content reader or the glossary lists the ops (a second table would
    have to be kept in step with the registry)."""
    names = frozenset(OPS)
    found = {}
    for path in [*(SRC / "rules").glob("*.py"), *(SRC / "content").glob("*.py"), SRC / "glossary.py"]:
        lines = sorted(_op_name_tables(ast.parse(path.read_text(encoding="utf-8")), names))
        if lines:
            found[path.name] = lines
    assert list(found) == ["effects.py"]
    assert len(found["effects.py"]) == 1  # the registry itself


def test_the_table_finder_sees_a_second_table() -> None:
    source = (
        'X = frozenset({"gain", "heal", "wound"})\nY = {"tick": 1, "roll": 2, "skill": 3}\nZ = ("a", "gain", "heal")'
    )
    assert sorted(_op_name_tables(ast.parse(source), frozenset(OPS))) == [1, 2]
