"""Each game's size limits live in one module, its ``limits.py``: no other module of the game defines a
module-level ``MAX_*`` (or ``_MAX_*``) constant, so a bound is read from one place and never typed twice. And the
long-way twins of fast rules that only the tests compare against live in the tests (``tests/unbroken/plain.py``),
never in ``src``.

The check reads every module's source with ``ast``; a name imported from ``limits.py`` (a re-export) is not a
definition, and a name bound inside a function or class is not module-level.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
#: The games whose limits are held to one home: every game of the library.
GAMES = ("runebound_coop", "unbroken", "unrest")
#: A limit's name: ``MAX_`` then capitals (private ones with a leading underscore).
LIMIT_NAME = re.compile(r"_?MAX_[A-Z0-9_]+")
#: Names of the ``MAX_`` form that are not size limits, each with its reason.
NOT_LIMITS = {
    # The top of the returns (every scoring track full), part of the package's public names and its spec's
    # ``max_utility``; it is computed from the scoring rules, which sit above ``limits.py``.
    ("unbroken/game.py", "MAX_SCORE"),
}


def module_limits(source: str) -> list[str]:
    """The limit-like names a module's source binds at module level (plain and annotated assignments, tuple
    targets included), in source order."""
    names: list[str] = []
    for node in ast.parse(source).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name) and LIMIT_NAME.fullmatch(leaf.id):
                    names.append(leaf.id)
    return names


def stragglers(package: str) -> list[str]:
    """``path: NAME`` for every limit a module of ``package`` other than its ``limits.py`` defines."""
    found = []
    for path in sorted((SRC / package).rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel == f"{package}/limits.py":
            continue
        for name in module_limits(path.read_text(encoding="utf-8")):
            if (rel, name) not in NOT_LIMITS:
                found.append(f"{rel}: {name}")
    return found


def test_each_game_defines_its_limits_only_in_its_limits_module() -> None:
    for game in GAMES:
        assert (SRC / game / "limits.py").is_file(), f"{game} has no limits.py"
        assert module_limits((SRC / game / "limits.py").read_text(encoding="utf-8")), f"{game}/limits.py is empty"
        assert stragglers(game) == [], f"limits outside {game}/limits.py: {stragglers(game)}"


def test_the_exceptions_name_real_definitions() -> None:
    for rel, name in NOT_LIMITS:
        assert name in module_limits((SRC / rel).read_text(encoding="utf-8")), f"{rel} no longer defines {name}"


def test_the_limit_reader_finds_module_level_bounds_and_only_those() -> None:
    source = """
from x.limits import MAX_IMPORTED
MAX_A = 1
_MAX_B: int = 2
MAX_C, OTHER = 3, 4
_CACHE_MAX = 5
MAXIMUM = 6
def f() -> None:
    MAX_LOCAL = 7
class K:
    MAX_FIELD = 8
"""
    assert module_limits(source) == ["MAX_A", "_MAX_B", "MAX_C"]


#: The long-way listings and loss the tests hold Unbroken's fast paths against (``tests/unbroken/plain.py``).
TEST_ONLY_TWINS = ("plain_turn_actions", "plain_prep_actions", "plain_loss")


def test_no_module_of_the_library_names_a_test_only_twin() -> None:
    named = [
        f"{path.relative_to(SRC)}: {name}"
        for path in sorted(SRC.rglob("*.py"))
        for name in TEST_ONLY_TWINS
        if re.search(rf"\b{name}\b", path.read_text(encoding="utf-8"))
    ]
    assert named == []
