"""What the C accelerator buys, each compiled part against its pure-Python twin (part of `make bench`).

A part of ``tabletop_core/_speedups.c`` stays only if it pays at least ``THRESHOLD`` (1.25x) on the figure it
exists for. Two kinds of figure, both printed with the ratio pure time / compiled time (above 1: the C is faster):

- **Parts, in one process.** Over the attrs values of every accelerated class met in seeded random playouts of
  each game (the mix the rules really build): ``init`` (the compiled ``__init__`` against attrs' own, its
  ``__wrapped__``), ``hash`` (the first hash of a fresh copy: compiled against attrs' generated ``__hash__``) and
  ``eq`` (equal values that are distinct objects: compiled against attrs' ``__eq__``). The two sides take turns in
  pieces of ``--slice`` CPU seconds; each ratio is the median of ``--repeat`` sweeps.
- **Whole games, in child processes.** ``benchmarks.run`` for the three games with the accelerator and with
  ``TABLETOP_PURE_PYTHON=1``, the two children alternating ``--repeat`` times; each ratio is the median of the
  pairs' ratios of ``step/s`` (random playouts), ``unchecked/s`` (the search path) and ``mcts it/s``.

``python -m benchmarks.accelerator [--seconds S] [--repeat N] [--json FILE] [--no-games]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core import fastcopy, load_game
from tabletop_core.chance import sample_outcome
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE, TERMINAL

GAMES = ("runebound_coop", "unbroken", "unrest")
#: The least a compiled part must gain on its own figure to stay.
THRESHOLD = 1.25
PARTS = ("init", "hash", "eq")
WHOLE = ("step/s", "unchecked/s", "mcts it/s")


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


def accelerated_values(name: str, steps: int = 400, seed: int = 7) -> list[Any]:
    """The values of accelerated classes inside the states of seeded random playouts of ``name``."""
    speedups = fastcopy._speedups
    assert speedups is not None
    game: Any = load_game(name)
    rng = np.random.default_rng(seed)
    seen: set[int] = set()
    values: list[Any] = []
    taken = 0
    while taken < steps:
        state = game.new_game()
        while taken < steps and (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
            state = game.step(state, action)
            taken += 1
            values.extend(v for v in _values_in(state, seen) if isinstance(type(v).__init__, speedups.Init))
    return values


def _work(values: list[Any]) -> dict[str, tuple[Callable[[], object], Callable[[], object]]]:
    """Each part's (compiled, pure) piece of work over ``values``."""
    speedups = fastcopy._speedups
    assert speedups is not None
    calls = []
    for v in values:
        cls = type(v)
        kwargs = {f.alias: getattr(v, f.name) for f in attrs.fields(cls)}
        calls.append((cls, cls.__init__.__wrapped__, kwargs))  # the compiled Init's: attrs' own __init__
    hashed = [v for v in values if isinstance(type(v).__dict__.get("__hash__"), speedups.Hash)]
    compared = [(v, replace(v)) for v in values if isinstance(type(v).__dict__.get("__eq__"), speedups.Eq)]
    new = object.__new__

    def init_compiled() -> object:
        for cls, _, kwargs in calls:
            cls(**kwargs)
        return None

    def init_pure() -> object:
        for cls, wrapped, kwargs in calls:
            wrapped(new(cls), **kwargs)
        return None

    def hash_with(pick: Callable[[Any], Callable[[Any], int]]) -> Callable[[], object]:
        def run() -> object:
            fresh = [replace(v) for v in hashed]  # an empty hash cache: the first hash is the one the rules pay
            start = time.process_time()
            for v in fresh:
                pick(type(v).__dict__["__hash__"])(v)
            return time.process_time() - start  # the copies' cost left out

        return run

    def eq_with(pick: Callable[[Any], Callable[[Any, Any], bool]]) -> Callable[[], object]:
        def run() -> object:
            for a, b in compared:
                pick(type(a).__dict__["__eq__"])(a, b)
            return None

        return run

    works = {
        "init": (init_compiled, init_pure),
        "hash": (hash_with(lambda h: h), hash_with(lambda h: h.__wrapped__)),
        "eq": (eq_with(lambda e: e), eq_with(lambda e: e.__wrapped__)),
    }
    # A part no value of this game goes through (the compiled hash is on hash-cached classes only) has no figure.
    present = {"init": bool(calls), "hash": bool(hashed), "eq": bool(compared)}
    return {part: work for part, work in works.items() if present[part]}


def _timed(fn: Callable[[], object], budget: float) -> float:
    """CPU seconds per call of ``fn``, over calls filling about ``budget`` CPU seconds (a call that returns a
    float reports its own time)."""
    spent = 0.0
    calls = 0
    while spent < budget or calls == 0:
        start = time.process_time()
        own = fn()
        spent += own if isinstance(own, float) else time.process_time() - start
        calls += 1
    return spent / calls


def parts(seconds: float, repeat: int, slice_: float) -> dict[str, dict[str, float | None]]:
    """Each game's ratio pure / compiled for every part (``None`` where the game's values never use it)."""
    works = {name: _work(accelerated_values(name)) for name in GAMES}
    sweeps: dict[str, dict[str, list[float]]] = {n: {p: [] for p in PARTS} for n in GAMES}
    pieces = max(1, round(seconds / slice_))
    for _ in range(repeat):
        spent: dict[tuple[str, str, int], float] = {}
        for _piece in range(pieces):  # every figure measures a piece before any measures its next one
            for name in GAMES:
                for part in works[name]:
                    for side, fn in enumerate(works[name][part]):
                        key = (name, part, side)
                        spent[key] = spent.get(key, 0.0) + _timed(fn, slice_ / 2)
        for name in GAMES:
            for part in works[name]:
                sweeps[name][part].append(spent[(name, part, 1)] / spent[(name, part, 0)])
    return {n: {p: statistics.median(sweeps[n][p]) if sweeps[n][p] else None for p in PARTS} for n in GAMES}


def _run_games(pure: bool, seconds: float) -> dict[str, dict[str, float]]:
    """``benchmarks.run``'s rates of the three games in a child process, with or without the accelerator."""
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_PURE_PYTHON"}
    if pure:
        env["TABLETOP_PURE_PYTHON"] = "1"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run.json"
        command = [sys.executable, "-m", "benchmarks.run", "--no-openspiel", "--repeat", "1", "--retain", "200"]
        command += ["--seconds", str(seconds), "--json", str(out), *GAMES]
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        rates: dict[str, dict[str, float]] = json.loads(out.read_text())["figures"]
    return rates


def whole_games(seconds: float, repeat: int) -> dict[str, dict[str, float]]:
    """Each game's ratio compiled / pure of the whole-game rates, the two children alternating."""
    pairs: dict[str, dict[str, list[float]]] = {n: {c: [] for c in WHOLE} for n in GAMES}
    for k in range(repeat):
        order = (False, True) if k % 2 == 0 else (True, False)
        runs = {pure: _run_games(pure, seconds) for pure in order}
        for name in GAMES:
            for column in WHOLE:
                pairs[name][column].append(runs[False][name][column] / runs[True][name][column])
    return {n: {c: statistics.median(pairs[n][c]) for c in WHOLE} for n in GAMES}


def _table(title: str, columns: tuple[str, ...], ratios: Any) -> str:
    lines = [title, f"{'game':<18}" + "".join(f"{c:>14}" for c in columns)]
    for name, row in ratios.items():
        cells = (f"{row[c]:>13.2f}x" if row[c] is not None else f"{'not compiled':>14}" for c in columns)
        lines.append(f"{name:<18}" + "".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per figure and side (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="sweeps (and pairs of children) per ratio")
    parser.add_argument("--slice", type=float, default=0.1, dest="slice_", help="CPU seconds of one piece")
    parser.add_argument("--json", type=Path, default=None, help="write the ratios to this file")
    parser.add_argument("--no-games", action="store_true", help="measure only the parts, in this process")
    args = parser.parse_args(argv)
    if fastcopy._speedups is None:
        print("the C accelerator is not built (or TABLETOP_PURE_PYTHON is set): nothing to compare")
        return 1
    result: dict[str, Any] = {"threshold": THRESHOLD, "parts": parts(args.seconds, args.repeat, args.slice_)}
    print(_table("compiled parts: pure CPU time / compiled CPU time", PARTS, result["parts"]))
    if not args.no_games:
        result["games"] = whole_games(args.seconds, args.repeat)
        print()
        print(_table("whole games: compiled rate / pure rate (child processes)", WHOLE, result["games"]))
    low = [f"{n} {p}" for n, row in result["parts"].items() for p, r in row.items() if r is not None and r < THRESHOLD]
    print()
    print(f"parts under {THRESHOLD}x: {', '.join(low) if low else 'none'}")
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
