"""Every size limit of the game is defined once, in ``runebound_coop.limits``; the other modules import it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import runebound_coop as rb
from runebound_coop import limits

_PACKAGE = Path(rb.__file__).parent
#: A limit's name: ``MAX_*`` (private or not) or ``*_LIMIT``.
_LIMIT_NAME = re.compile(r"^_?MAX_|_LIMIT$")


def _limits_defined(source: str) -> list[str]:
    """The names of the module-level constants ``source`` assigns that are named as limits."""
    found = []
    for node in ast.parse(source).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        found += [t.id for t in targets if isinstance(t, ast.Name) and _LIMIT_NAME.search(t.id)]
    return found


def test_no_module_but_limits_defines_a_limit() -> None:
    strays = {
        str(path.relative_to(_PACKAGE)): names
        for path in sorted(_PACKAGE.rglob("*.py"))
        if path.name != "limits.py" and (names := _limits_defined(path.read_text(encoding="utf-8")))
    }
    assert strays == {}


def test_the_limit_finder_finds_each_form_of_a_limit() -> None:
    source = "MAX_A = 1\n_MAX_B: int = 2\nMEMO_LIMIT = 3\nMAXIMAL = 4\nfrom x import MAX_C\ndef f():\n    MAX_D = 5\n"
    assert _limits_defined(source) == ["MAX_A", "_MAX_B", "MEMO_LIMIT"]


def test_limits_defines_every_limit_it_exports() -> None:
    defined = _limits_defined(Path(limits.__file__).read_text(encoding="utf-8"))
    assert sorted(defined) == sorted(limits.__all__)
