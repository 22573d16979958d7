"""The compiled accelerator of ``tabletop_core.fastcopy`` gives exactly what the pure-Python path gives.

The accelerator (``tabletop_core._speedups``, built from C where a compiler is present) gives the hot state classes
a compiled ``__init__`` and makes every copy of ``replace`` and ``replacer`` in C. Each test here holds it against
attrs' own generated ``__init__`` (kept as the compiled one's ``__wrapped__``) or against the pure-Python copy; the
last test runs the copy tests and the golden games again with the accelerator turned off.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import os
import pkgutil
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np
import pytest

from tabletop_core import fastcopy, load_game
from tabletop_core.fastcopy import COMPILED, accelerate, replace, replacer
from tabletop_core.flow import Chance, Driver, Flow, Pending, Phase, Position
from tests.playouts import random_moves

ROOT = Path(__file__).resolve().parents[2]
PURE = bool(os.environ.get("TABLETOP_PURE_PYTHON"))
compiled_only = pytest.mark.skipif(not COMPILED, reason="the package was built without its C accelerator")


def _compiler() -> bool:
    cc = sysconfig.get_config_var("CC") or ""
    return bool(cc) and shutil.which(cc.split()[0]) is not None


def _is_compiled_init(cls: type) -> bool:
    # private: the compiled module's own functions are compared with the pure ones
    speedups = fastcopy._speedups
    return speedups is not None and isinstance(cls.__dict__.get("__init__"), speedups.Init)


def _accelerated_classes() -> list[type]:
    """Every class of the four packages that carries a compiled ``__init__``."""
    found: dict[str, type] = {}
    for package in ("tabletop_core", "unrest", "unbroken", "runebound_coop"):
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, f"{package}."):
            if ".cli" in info.name or ".adapters" in info.name or info.name.endswith("_speedups"):
                continue  # optional front ends: their imports need the extras, and they define no rule classes
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                if isinstance(value, type) and value.__module__ == info.name and _is_compiled_init(value):
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


HOT = {
    "tabletop_core.flow.Position",
    "tabletop_core.flow.Pending",
    "runebound_coop.state.RuneboundState",
    "runebound_coop.state.Fight",
    "runebound_coop.state.Pool",
    "unrest.state.UnrestState",
    "unbroken.state.State",
    "unbroken.state.Combat",
}


# ----- where it runs ------------------------------------------------------------------------------------------------


def test_the_accelerator_is_built_wherever_a_compiler_is() -> None:
    # `make test` builds the package with the machine's C compiler: a build that silently fell back to pure Python
    # would leave every speed figure of docs/performance.md unexplained, so it fails here.
    # private: whether the compiled module loaded is what this test is about
    if PURE:
        assert not COMPILED and fastcopy._speedups is None
        assert not _accelerated_classes()  # accelerate() checked the classes and left them alone
    elif _compiler():
        assert COMPILED


@pytest.mark.skipif(not os.environ.get("TABLETOP_EXPECT_ASAN") or PURE, reason="only under make test-asan")
def test_make_test_asan_runs_the_sanitized_build() -> None:
    # make test-asan sets TABLETOP_EXPECT_ASAN: the module under test must be the sanitized copy, with the
    # sanitizer's runtime in the process, or the target would pass on the ordinary build.
    # private: the compiled module's file is what this test is about
    speedups = fastcopy._speedups
    assert speedups is not None and COMPILED
    assert "build/asan/" in Path(str(speedups.__file__)).as_posix()
    maps = Path("/proc/self/maps").read_text()
    assert "libasan" in maps and "libubsan" in maps


@compiled_only
def test_the_hot_state_classes_of_every_game_are_accelerated() -> None:
    names = {f"{c.__module__}.{c.__qualname__}" for c in _accelerated_classes()}
    assert names >= HOT


# ----- the compiled __init__ against attrs' own -----------------------------------------------------------------


def _slots(obj: Any) -> tuple[Any, ...]:
    return tuple(getattr(obj, f.name) for f in attrs.fields(type(obj)))


def _by_attrs(cls: type, *args: Any, **kwargs: Any) -> Any:
    obj: Any = object.__new__(cls)
    cls.__dict__["__init__"].__wrapped__(obj, *args, **kwargs)
    return obj


def _values_in(value: Any, seen: set[int]) -> Iterator[Any]:
    """``value`` and every attrs value inside it (fields, tuples), each once."""
    if id(value) in seen:
        return
    seen.add(id(value))
    if attrs.has(type(value)):
        yield value
        for f in attrs.fields(type(value)):
            yield from _values_in(getattr(value, f.name), seen)
    elif isinstance(value, tuple):
        for item in value:
            yield from _values_in(item, seen)


def _playout_states(name: str, steps: int, seed: int) -> list[Any]:
    game = load_game(name)
    rng = np.random.default_rng(seed)
    states: list[Any] = []
    while len(states) < steps:
        states += [after for _, _, after in random_moves(game, game.new_game(), rng, limit=steps - len(states))]
    return states


@compiled_only
@pytest.mark.parametrize("game", ["runebound_coop", "unrest", "unbroken"])
def test_every_accelerated_value_of_a_playout_is_rebuilt_as_attrs_builds_it(game: str) -> None:
    rebuilt: set[type] = set()
    seen: set[int] = set()
    for state in _playout_states(game, 400, 5):
        for value in _values_in(state, seen):
            cls: Any = type(value)
            if not _is_compiled_init(cls):
                continue
            fields = attrs.fields(cls)
            values = _slots(value)
            positional = [v for f, v in zip(fields, values, strict=True) if not f.kw_only]
            keywords = {f.alias: v for f, v in zip(fields, values, strict=True) if f.kw_only}
            made = cls(*positional, **keywords)
            reference = _by_attrs(cls, *positional, **keywords)
            # The same objects in the same slots (not merely equal ones), so equal and equally hashed.
            assert all(a is b for a, b in zip(_slots(made), _slots(reference), strict=True))
            assert made == reference == value and hash(made) == hash(reference)
            assert cls(**{f.alias: v for f, v in zip(fields, values, strict=True)}) == value
            rebuilt.add(cls)
    assert rebuilt  # the playout met accelerated values


# Synthetic classes with every feature the compiled __init__ handles, each built both ways.


def _positive(_inst: object, _attr: object, value: int) -> None:
    if value < 0:
        raise ValueError(f"negative: {value}")


@accelerate
@attrs.frozen(cache_hash=True)
class _Everything:
    a: int
    _b: tuple[int, ...] = attrs.field(factory=tuple)
    c: object = None
    d: int = attrs.field(default=1, validator=_positive)
    e: str = attrs.field(default="e", kw_only=True, validator=attrs.validators.instance_of(str))
    f: tuple[int, int] = attrs.field(default=attrs.Factory(lambda self: (self.a, self.d), takes_self=True))


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((1,), {}),
    ((1, (2,)), {}),
    ((1, (2,), "c", 4), {"e": "x"}),
    ((), {"a": 1, "b": (3,), "c": None, "d": 2, "e": "y", "f": (9, 9)}),
    ((5,), {"d": 0, "c": "c"}),
    # Wrong calls: each raises the same exception type both ways.
    ((), {}),
    ((1, 2, 3, 4, 5, 6), {}),
    ((1,), {"z": 1}),
    ((1,), {"a": 2}),
    ((1,), {"_b": ()}),
    ((1,), {"d": -1}),
    ((1,), {"e": 5}),
]


@compiled_only
@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_the_compiled_init_takes_and_refuses_what_attrs_takes_and_refuses(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    # private: a private field of the test's own class, read as attrs names it
    assert _is_compiled_init(_Everything)
    outcome: list[Any] = []
    for build in (lambda: _Everything(*args, **kwargs), lambda: _by_attrs(_Everything, *args, **kwargs)):
        try:
            outcome.append(build())
        except (TypeError, ValueError) as exc:
            outcome.append(type(exc))
    made, reference = outcome
    if isinstance(made, type):
        assert made is reference
    else:
        assert made == reference and hash(made) == hash(reference)
        assert made.f == reference.f  # the factory that takes the instance saw the fields before it
        if "b" not in kwargs and len(args) < 2:
            assert made._b == () and made.f is not _Everything(1).f  # a new factory value each time


@compiled_only
def test_the_compiled_init_runs_validators_unless_disabled_and_empties_the_hash_cache() -> None:
    with pytest.raises(ValueError, match="negative: -1"):
        _Everything(1, d=-1)
    with attrs.validators.disabled():
        assert _Everything(1, d=-1).d == -1
    value = _Everything(1)
    hash(value)
    _Everything.__init__(value, 2)  # a second __init__ (attrs allows it on a frozen class too)
    assert value.a == 2 and hash(value) == hash(_Everything(2))


@compiled_only
def test_the_compiled_init_keeps_attrs_signature_name_and_post_init() -> None:
    init: Any = _Everything.__init__
    own = inspect.signature(init.__wrapped__)
    assert inspect.signature(_Everything) == own.replace(parameters=list(own.parameters.values())[1:])
    assert _Everything.__init__.__name__ == "__init__"
    assert _Everything.__init__.__qualname__ == "_Everything.__init__"
    assert "compiled __init__ of _Everything" in repr(_Everything.__init__)
    order: list[str] = []

    def _log(_inst: object, _attr: object, value: int) -> None:
        order.append(f"validate {value}")

    @accelerate
    @attrs.frozen
    class Derived:
        a: int = attrs.field(validator=_log)

        def __attrs_post_init__(self) -> None:
            order.append(f"post {self.a}")

    assert _is_compiled_init(Derived)
    Derived(3)
    assert order == ["validate 3", "post 3"]  # attrs' order: the validators, then the post-init
    with pytest.raises(TypeError, match="needs a"):
        Derived.__init__(object(), 1)  # type: ignore[arg-type]  # the wrong instance, on purpose


def test_accelerate_refuses_what_it_cannot_compile_faithfully() -> None:
    @attrs.frozen
    class Converted:
        a: int = attrs.field(converter=int)

    @attrs.frozen
    class Hidden:
        a: int
        b: int = attrs.field(init=False, default=0)

    @attrs.frozen(slots=False)
    class Loose:
        a: int

    @attrs.frozen(init=False)
    class Own:
        a: int

        def __init__(self, a: int) -> None:
            object.__setattr__(self, "a", a)

    @attrs.frozen
    class Pre:
        a: int

        def __attrs_pre_init__(self) -> None:
            pass

    for cls, reason in [
        (Converted, "converter"),
        (Hidden, "left out"),
        (Loose, "not slotted"),
        (Own, "must keep"),
        (Pre, "pre_init"),
        (int, "not an attrs class"),
    ]:
        with pytest.raises(TypeError, match=reason):
            accelerate(cls)


def test_accelerate_is_idempotent() -> None:
    init = Position.__dict__["__init__"]
    assert accelerate(Position) is Position and Position.__dict__["__init__"] is init
    assert Position(1, "a", "b").round == 1


# ----- the compiled copies ----------------------------------------------------------------------------------------


@compiled_only
def test_replace_and_replacer_are_the_compiled_copies() -> None:
    # private: the compiled module's own functions are what this test is about
    speedups = fastcopy._speedups
    assert speedups is not None
    assert isinstance(replace, speedups.Replace)
    assert isinstance(replacer(Position, "round"), speedups.Replacer)
    with pytest.raises(TypeError, match="an instance and 1 values"):
        replacer(Position, "round")(Position(1, "a", "b"))
    with pytest.raises(TypeError, match="positionally"):
        replacer(Position, "round")(Position(1, "a", "b"), round=2)
    with pytest.raises(TypeError, match="one instance"):
        replace()


@compiled_only
@pytest.mark.parametrize("game", ["runebound_coop", "unrest", "unbroken"])
def test_every_copy_of_a_playouts_values_is_the_pure_copy(game: str) -> None:
    # Each field of each attrs value the playout met, replaced through the compiled replacer and through the
    # pure-Python one: the same class, the same objects in every slot.
    # private: the pure copy is built from the same copy plan the compiled one uses
    seen: set[int] = set()
    checked = 0
    for state in _playout_states(game, 150, 9)[::5]:
        for value in _values_in(state, seen):
            cls = type(value)
            plan = fastcopy._plan_of(cls)
            if plan is None or plan.slots is None:
                continue
            for k, name in enumerate(plan.names):
                marker = object()
                compiled = replacer(cls, name)(value, marker)
                pure = fastcopy._python_replacer(cls, plan, [k], lambda *_: None)(value, marker)
                assert type(compiled) is type(pure) is cls
                assert all(a is b for a, b in zip(_slots(compiled), _slots(pure), strict=True))
                assert getattr(compiled, name) is marker
                checked += 1
    assert checked > 50


@compiled_only
def test_the_compiled_copies_leak_no_reference() -> None:
    kept = ("a", "tuple", "kept", "by", "every", "copy")
    first = Pending[Any]((kept,))
    before = sys.getrefcount(kept)
    for _ in range(1000):
        copy = replace(first, frames=(kept, kept))
        copy = replacer(Pending, "frames")(copy, (kept,))
        Pending((kept,))
        _Everything(1, c=kept)
    del copy
    assert sys.getrefcount(kept) == before


@compiled_only
def test_the_compiled_replacer_checks_what_memory_safety_needs() -> None:
    # private: the compiled replacer is fed copy plans it must refuse
    speedups = fastcopy._speedups
    assert speedups is not None
    slots = fastcopy._plan_of(Position).slots  # type: ignore[union-attr]  # Position has a plan
    assert slots is not None
    other = fastcopy._plan_of(_Everything).slots  # type: ignore[union-attr]  # so has _Everything
    assert other is not None
    with pytest.raises(TypeError, match="belongs to another class"):
        speedups.Replacer(Position, slots, [other[0]], None, print)
    with pytest.raises(TypeError, match="not a slot"):
        speedups.Replacer(Position, [Position.__dict__["__weakref__"]], [], None, print)
    with pytest.raises(ValueError, match="not one of the copied slots"):
        speedups.Replacer(Position, slots[:1], slots[1:2], None, print)
    with pytest.raises(TypeError, match="not fully slotted"):
        speedups.Replacer(type("Loose", (), {}), [], [], None, print)


# ----- the pure-Python path ---------------------------------------------------------------------------------------


@pytest.mark.skipif(PURE, reason="this run is the pure-Python one")
def test_the_pure_python_path_passes_the_copy_tests_and_replays_the_golden_games() -> None:
    # The package must work without a C compiler: the copy and driver tests, these tests and the golden games, with the
    # accelerator turned off (TABLETOP_PURE_PYTHON), in a fresh interpreter.
    env = dict(os.environ, TABLETOP_PURE_PYTHON="1")
    tests = ["tests/core/test_fastcopy.py", "tests/core/test_speedups.py", "tests/core/test_flow.py", "tests/golden"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-o", "addopts=", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *tests],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout


# ----- the driver keeps errors apart -----------------------------------------------------------------------------


class _Loud(Chance[Any, int]):
    """A chance frame whose legality check raises whatever it is given to raise."""

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def chance_outcomes(self, state: Any) -> tuple[tuple[int, float], ...]:
        return ((0, 1.0),)

    def is_legal(self, state: Any, action: object) -> bool:
        raise self.error

    def apply(self, state: Any, action: int) -> Any:
        return state


def test_the_driver_calls_a_subclass_run_and_keeps_errors_apart() -> None:
    # private: a field of the test's own driver subclass
    flow = Flow((Phase("play", ("only",)),))

    def driver_with(frame: Any) -> Any:
        made: Any = Driver("loud", flow, {("play", "only"): frame}, position=lambda s: Position(1, "play", "only"),
                           over=lambda s: s == "end")  # fmt: skip
        return made

    # Whatever the check raises (an action's own __eq__ may raise anything), the action is not legal; a bug in a
    # frame's check still shows, as the conformance suite compares is_legal with the listed legal actions.
    for error in (TypeError("t"), ValueError("v"), AttributeError("a"), KeyError("k"), ZeroDivisionError("z")):
        assert driver_with(_Loud(error)).is_legal("s", 0) is False
    with pytest.raises(RuntimeError, match="over"):
        bad: Any = Driver("bad", flow, {("play", "only"): _Loud(KeyError())}, position=lambda s: Position(1, "play",
                          "only"), over=lambda s: (_ for _ in ()).throw(RuntimeError("over")))  # fmt: skip
        bad.current_player("s")

    class Counting(Driver[Any, int]):
        __slots__ = ("runs",)
        runs: int

        def run(self, state: Any) -> Any:
            self.runs += 1
            return state

    counting = Counting("count", flow, {("play", "only"): _Loud(KeyError())}, position=lambda s: Position(1, "play",
                        "only"), over=lambda s: False)  # fmt: skip
    counting.runs = 0
    assert counting.apply("s", 0) == "s" and counting.runs == 1  # apply goes through the subclass's own run
    counting._rest = ("s", None)
    assert counting._rest == ("s", None) and counting.is_over("s")


# ----- the compiled __eq__ and __hash__ ---------------------------------------------------------------------------


class _Odd:
    """A field value whose == answers a falsy or truthy non-bool, as numpy arrays and SQL expressions do."""

    def __init__(self, answer: object) -> None:
        self.answer = answer

    def __eq__(self, other: object) -> Any:
        return self.answer

    __hash__ = object.__hash__


@accelerate
@attrs.frozen(cache_hash=True)
class _Compared:
    a: Any
    b: Any = attrs.field(default=0, eq=False)  # neither compared nor hashed
    c: Any = attrs.field(default=0, hash=False)  # compared, not hashed
    d: Any = 0


@accelerate
@attrs.frozen
class _Uncached:
    a: Any


@accelerate
@attrs.frozen
class _Keyed:
    a: str = attrs.field(eq=str.lower)


@compiled_only
def test_the_compiled_eq_and_hash_answer_as_attrs_own_do() -> None:
    # private: the compiled module's own functions are what this test is about
    speedups = fastcopy._speedups
    assert speedups is not None
    assert isinstance(_Compared.__dict__["__eq__"], speedups.Eq)
    assert isinstance(_Compared.__dict__["__hash__"], speedups.Hash)
    assert not isinstance(_Keyed.__dict__["__eq__"], speedups.Eq)  # a key function: attrs' own methods
    assert isinstance(_Uncached.__dict__["__eq__"], speedups.Eq)
    assert not isinstance(_Uncached.__dict__["__hash__"], speedups.Hash)  # no hash cache: attrs' own hash
    assert hash(_Uncached(1)) == hash(_Uncached(1)) != hash(_Uncached(2))
    own_eq = _Compared.__dict__["__eq__"].__wrapped__
    nan = float("nan")
    odd_false, odd_true = _Odd(0), _Odd("yes")
    pairs = [
        (_Compared(1, 2, 3, 4), _Compared(1, 9, 3, 4)),  # b is not compared
        (_Compared(1, c=3), _Compared(1, c=4)),
        (_Compared(1, d=(1, 2)), _Compared(1, d=(1, 2))),
        (_Compared(nan), _Compared(nan)),  # nan == nan is false, for attrs too (no identity shortcut)
        (_Compared(odd_false), _Compared(1)),  # the falsy answer itself comes back
        (_Compared(odd_true), _Compared(1)),  # a truthy answer goes on to the next field
        (_Compared(odd_true, c=odd_true, d=odd_true), _Compared(1)),  # the last answer comes back
    ]
    for x, y in pairs:
        got, expected = _Compared.__eq__(x, y), own_eq(x, y)
        assert got == expected and type(got) is type(expected)
        assert (x != y) == (not expected)
    assert _Compared.__eq__(_Compared(1), (1,)) is NotImplemented
    x, y = _Compared(1, 2, 3, (4,)), _Compared(1, 5, 6, (4,))
    assert hash(x) == hash(y)  # b and c are not hashed
    assert hash(x) == hash(x) and hash(_Compared(2)) != hash(_Compared(3))
    copy = replacer(_Compared, "d")(x, (5,))
    assert hash(copy) == hash(_Compared(1, d=(5,))) != hash(x)  # the copy's cache starts empty


@compiled_only
@pytest.mark.parametrize("game", ["runebound_coop", "unrest", "unbroken"])
def test_equal_values_of_a_playout_hash_alike_and_compare_as_attrs_compares(game: str) -> None:
    # private: the compiled module's own functions are what this test is about
    speedups = fastcopy._speedups
    assert speedups is not None
    seen: set[int] = set()
    values = [v for s in _playout_states(game, 300, 17) for v in _values_in(s, seen)]
    compared = 0
    for before, value in itertools.pairwise(values):
        cls: Any = type(value)
        if not isinstance(cls.__dict__.get("__eq__"), speedups.Eq):
            continue
        twin = cls(*_slots(value)) if not any(f.kw_only for f in attrs.fields(cls)) else replace(value)
        assert twin is not value and twin == value and hash(twin) == hash(value)
        assert cls.__dict__["__eq__"].__wrapped__(twin, value) is True
        if type(before) is cls:
            assert (before == value) == cls.__dict__["__eq__"].__wrapped__(before, value)
        compared += 1
    assert compared > 50


# ----- the digest of the source the module was built from ---------------------------------------------------------


@compiled_only
def test_the_module_carries_the_digest_of_the_source_it_was_built_from() -> None:
    # private: the loader of the compiled module is what this test is about
    import hashlib

    speedups = fastcopy._speedups
    assert speedups is not None
    source = ROOT / "src" / "tabletop_core" / "_speedups.c"
    assert hashlib.sha256(source.read_bytes()).hexdigest() == speedups.SOURCE_DIGEST
    assert fastcopy._load_speedups() is speedups


@compiled_only
def test_a_module_built_from_another_source_is_refused_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    # private: the loader of the compiled module is what this test is about
    speedups = fastcopy._speedups
    assert speedups is not None
    monkeypatch.setattr(speedups, "SOURCE_DIGEST", "0" * 64)
    with pytest.warns(RuntimeWarning, match="another version"):
        assert fastcopy._load_speedups() is None
