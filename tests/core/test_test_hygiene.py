"""The test suite's own hygiene: a game is played out step by step only through ``tests/playouts.py`` (so every
test draws its random games the way the benchmark does, and a change to how is made once).

The checks read every test module with ``ast``. A *hand-written playout loop* is a ``for`` or ``while`` loop that
steps a state through the game (``state = game.step(state, ...)``, directly or through a name bound to the step's
result) with an action it draws from the game itself (``legal_actions`` or ``chance_outcomes``) and from chance (a
random generator: a name holding ``rng``, or ``sample_outcome``), until the game ends (the loop asks
``is_terminal`` or ``current_player``, or names ``TERMINAL``). Of nested loops the innermost is named. A loop
without chance, such as one playing forced moves through a step, is a script and passes.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: The one home of the playout loop.
HOME = TESTS / "playouts.py"
_ENDS = ("is_terminal", "current_player")
_DRAWS = ("legal_actions", "chance_outcomes")
_CHANCE = ("sample_outcome",)


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _steps_its_state(loop: ast.For | ast.While) -> bool:
    """Whether the loop's body binds a name to a step of that same name (``s = g.step(s, a)``, or ``t = g.step(s,
    a)`` and ``s = t``)."""
    from_step: dict[str, set[str]] = {}  # a name bound to a step's result -> the states it stepped
    rebinds: list[tuple[set[str], set[str]]] = []  # plain ``targets = names`` bindings
    for node in (n for stmt in loop.body for n in ast.walk(stmt)):
        if not isinstance(node, ast.Assign):
            continue
        targets = set().union(*(_names(t) for t in node.targets))
        stepped = {
            call.args[0].id
            for call in ast.walk(node.value)
            if isinstance(call, ast.Call)
            and _called(call) == "step"
            and len(call.args) >= 2
            and isinstance(call.args[0], ast.Name)
        }
        if stepped & targets:
            return True
        for target in targets:
            from_step.setdefault(target, set()).update(stepped)
        if isinstance(node.value, ast.Name | ast.Tuple):
            rebinds.append((targets, _names(node.value)))
    return any(targets & from_step.get(source, set()) for targets, sources in rebinds for source in sources)


def _asks_the_end(loop: ast.For | ast.While) -> bool:
    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and _called(node) in _ENDS:
            return True
        if isinstance(node, ast.Name | ast.Attribute) and getattr(node, "id", getattr(node, "attr", "")) == "TERMINAL":
            return True
    return False


def _draws_from_the_game(loop: ast.For | ast.While) -> bool:
    return any(isinstance(n, ast.Call) and _called(n) in _DRAWS for stmt in loop.body for n in ast.walk(stmt))


def _uses_chance(loop: ast.For | ast.While) -> bool:
    return any(
        (isinstance(n, ast.Name) and "rng" in n.id) or (isinstance(n, ast.Call) and _called(n) in _CHANCE)
        for n in ast.walk(loop)
    )


def playout_loops(source: str) -> list[int]:
    """The line of every hand-written playout loop in a module's source (the innermost of nested ones)."""
    found = [
        loop
        for loop in ast.walk(ast.parse(source))
        if isinstance(loop, ast.For | ast.While)
        and _steps_its_state(loop)
        and _draws_from_the_game(loop)
        and _uses_chance(loop)
        and _asks_the_end(loop)
    ]
    inner = [loop for loop in found if not any(other is not loop and other in ast.walk(loop) for other in found)]
    return sorted(loop.lineno for loop in inner)


def test_no_test_module_writes_its_own_playout_loop() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        if path != HOME
        for line in playout_loops(path.read_text(encoding="utf-8"))
    ]
    assert found == [], f"play these through tests/playouts.py: {found}"


def test_the_playout_home_holds_the_loop_the_check_looks_for() -> None:
    assert playout_loops(HOME.read_text(encoding="utf-8"))


def test_the_loop_check_finds_each_form_of_a_hand_written_playout() -> None:
    direct = """
while not game.is_terminal(state):
    legal = game.legal_actions(state)
    state = game.step(state, legal[int(rng.integers(len(legal)))], rng=rng)
"""
    through_a_name = """
for _ in range(40):
    if game.current_player(state) == TERMINAL:
        break
    action = sample_outcome(game.chance_outcomes(state), rng)
    after = game.step(state, action)
    check(state, after)
    state = after
"""
    nested = """
def games():
    for seed in range(3):
        state = new()
        while (player := game.current_player(state)) != TERMINAL:
            state = game.step(state, game.legal_actions(state)[-1], rng=rng)
"""
    assert playout_loops(direct) == [2]
    assert playout_loops(through_a_name) == [2]
    assert playout_loops(nested) == [5]


def test_the_loop_check_passes_loops_that_are_not_playouts() -> None:
    scripted = """
while state.step == "draw":
    state = game.step(state, game.legal_actions(state)[0], rng=rng)
"""
    forced = """
while not game.is_terminal(state) and state.step == "liberate":
    state = game.step(state, game.legal_actions(state)[0])
"""
    one_step_each = """
for state in states:
    if game.current_player(state) == TERMINAL:
        continue
    after = game.step(state, game.legal_actions(state)[0], rng=rng)
    same = game.step(twin, game.legal_actions(state)[0])
"""
    through_the_helper = """
for before, action, after in random_moves(game, state, rng):
    assert game.current_player(before) != TERMINAL and game.legal_actions(before)
"""
    a_bot_step = """
while not state.is_terminal():
    state = bot.step(state)
"""
    assert playout_loops(scripted) == playout_loops(forced) == playout_loops(one_step_each) == []
    assert playout_loops(through_the_helper) == playout_loops(a_bot_step) == []


# ----- private reads ---------------------------------------------------------------------------------------------

#: The mark that explains a read of a private name: ``# private: why`` on the line, in the comment lines right above
#: it, or between a function's ``def`` and its first statement (then it covers the function).
PRIVATE_MARK = "# private:"
#: Unexplained reads of private names the suite may hold.
MAX_UNEXPLAINED_PRIVATE_READS = 0


def _is_private(node: ast.Attribute) -> bool:
    name = node.attr
    if not name.startswith("_") or name.startswith("__"):
        return False
    if name.startswith("_repr_") and name.endswith("_"):  # the notebook display hooks are public by convention
        return False
    base = node.value
    if isinstance(base, ast.Name) and base.id in {"self", "cls"}:
        return False
    return not (isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super")


def _covered_lines(tree: ast.AST, lines: list[str]) -> set[int]:
    """The lines (1-based) whose private reads a mark explains."""
    covered: set[int] = set()
    for n, text in enumerate(lines, 1):
        if PRIVATE_MARK in text:
            covered.add(n)
            if text.lstrip().startswith("#"):  # a comment line: it explains the code line below its block
                below = n + 1
                while below <= len(lines) and lines[below - 1].lstrip().startswith("#"):
                    below += 1
                covered.add(below)
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            body = fn.body
            first = body[1] if len(body) > 1 and isinstance(body[0], ast.Expr) and _is_docstring(body[0]) else body[0]
            if any(PRIVATE_MARK in line for line in lines[fn.lineno - 1 : first.lineno - 1]):
                covered.update(range(fn.lineno, (fn.end_lineno or fn.lineno) + 1))
    return covered


def _is_docstring(stmt: ast.Expr) -> bool:
    return isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def unexplained_private_reads(source: str) -> list[tuple[int, str]]:
    """``(line, name)`` of every read of another object's private name (``obj._name``; not ``self``/``cls``/
    ``super()``, not the ``_repr_*_`` display hooks) that no ``# private:`` mark explains."""
    tree = ast.parse(source)
    covered = _covered_lines(tree, source.splitlines())
    return sorted(
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and _is_private(node) and node.lineno not in covered
    )


def test_the_tests_read_no_private_name_without_saying_why() -> None:
    found = [
        f"{path.relative_to(TESTS.parent)}:{line} {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, name in unexplained_private_reads(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= MAX_UNEXPLAINED_PRIVATE_READS, "\n".join(found)


def test_the_private_read_check_sees_reads_and_their_reasons() -> None:
    source = '''
import mod

def plain(agent):
    return agent._kept, mod._CACHE, self._own, super()._apply, view._repr_svg_()

def marked(agent):
    a = agent._kept  # private: the kept subtree is what the test is about
    # private: the memo is emptied, it only has to fill again
    mod._CACHE.clear()
    return a

def about_internals():
    """A docstring."""
    # private: this test is about the memo itself
    return mod._CACHE, mod._OTHER
'''
    assert unexplained_private_reads(source) == [(5, "agent._kept"), (5, "mod._CACHE")]
