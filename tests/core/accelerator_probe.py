"""Plays what once crashed the compiled accelerator, run in a child process so that a crash fails a test.

``python -X faulthandler tests/core/accelerator_probe.py MODE [ARG]`` prints one line of JSON: what the run saw.
``TABLETOP_PURE_PYTHON=1`` in the environment runs it on the pure-Python path.
"""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import attrs
import numpy as np

from tabletop_core import load_game
from tabletop_core.errors import IllegalActionError
from tabletop_core.fastcopy import COMPILED, accelerate
from tabletop_core.spec import CHANCE, TERMINAL

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a script: the repository root holds ``tests``
from tests.playouts import final_state, random_moves  # importable once the root is on the path


def _decision(game: Any, seed: int) -> Any:
    """The first state of a seeded game where a player chooses among two or more actions."""
    state = final_state(
        game,
        game.new_game(),
        np.random.default_rng(seed),
        choose=lambda s, legal: legal[0],
        until=lambda s: game.current_player(s) != CHANCE and len(game.legal_actions(s)) > 1,
    )
    if game.current_player(state) == TERMINAL:
        raise AssertionError("no decision")
    return state


def hostile_eq(name: str) -> object:
    """An action whose ``__eq__`` asks the game about other states (replacing what it keeps of the last one)."""
    game: Any = load_game(name)
    state = _decision(game, 3)
    others = [_decision(game, seed) for seed in range(4, 12)]

    size = len(game.legal_actions(state))
    calls = [0]

    class Hostile:
        def __eq__(self, other: object) -> bool:
            calls[0] += 1
            if calls[0] == 1:
                for s in others:
                    game.legal_actions(s)
                    game.is_legal(s, other)
                # a freed tuple of the same size is reused from the free list: fill it with objects and free them
                junk = [tuple(object() for _ in range(size)) for _ in range(64)]
                del junk
            return False

        __hash__ = object.__hash__

    try:
        game.step(state, Hostile())
    except IllegalActionError:
        return "IllegalActionError"
    return "accepted"


def _play(game: Any, seed: int) -> list[str]:
    seen: list[str] = []
    for before, action, _ in random_moves(game, game.new_game(), np.random.default_rng(seed), limit=400):
        if not game.is_legal(before, action):
            raise AssertionError(f"a legal action was refused: {action!r}")
        seen.append(repr(action))
    return seen


def threads(name: str) -> object:
    """Eight threads playing seeded games on one shared game object, switching as often as the runtime lets."""
    game: Any = load_game(name)
    sys.setswitchinterval(1e-6)
    seeds = list(range(8))
    results: dict[int, Any] = {}

    def run(seed: int) -> None:
        try:
            results[seed] = [_play(game, seed + 8 * k) for k in range(3)]
        except Exception as exc:  # reported, not raised: the parent compares the lists
            results[seed] = f"{type(exc).__name__}: {exc}"

    workers = [threading.Thread(target=run, args=(seed,)) for seed in seeds]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    single = {seed: [_play(load_game(name), seed + 8 * k) for k in range(3)] for seed in seeds}
    return {"same_as_one_thread": results == single, "errors": [r for r in results.values() if isinstance(r, str)]}


@accelerate
@attrs.frozen(cache_hash=True)  # the compiled __hash__ is given to hash-cached classes only
class Nest:
    inner: Any


def deep(_: str) -> object:
    """Hash and compare a value nested far deeper than the recursion limit."""
    a: Any = None
    b: Any = None
    for _i in range(200_000):
        a, b = Nest(a), Nest(b)
    seen = []
    for what in (lambda: hash(a), lambda: a == b):
        try:
            what()
            seen.append("answered")
        except RecursionError:
            seen.append("RecursionError")
    return seen


@accelerate
@attrs.frozen
class Pair:
    left: Any
    right: Any


class Rebinder:
    """A field value whose ``__eq__`` rebinds the fields of the values being compared, dropping itself."""

    def __init__(self, owner: list[Any]) -> None:
        self.owner = owner
        self.payload = [object() for _ in range(100)]

    def __eq__(self, other: object) -> bool:
        for pair in self.owner:
            object.__setattr__(pair, "left", None)  # the last references to both compared values go
        self.owner.clear()
        junk = [[object() for _ in range(100)] for _ in range(200)]  # reuse the freed memory
        del junk
        return True

    __hash__ = object.__hash__


def rebind(_: str) -> object:
    """Compare two values whose first fields' ``__eq__`` rebinds those very fields mid-comparison."""
    owner: list[Any] = []
    a, b = Pair(Rebinder(owner), 1), Pair(Rebinder(owner), 1)
    owner.extend((a, b))
    return [a == b, a.left, b.left]


class BadDraws:
    """A duck-typed generator whose draws fall outside [0, 1)."""

    def __init__(self, values: list[float]) -> None:
        self.values = values
        self.real = np.random.default_rng(0)

    def random(self, size: int | None = None) -> Any:
        if size is None:
            return self.values[0]
        return np.array([self.values[i % len(self.values)] for i in range(size)])

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def bad_draws(name: str) -> object:
    """Searches whose rollouts draw negative, too large and NaN values."""
    from tabletop_core.agents import MCTSAgent

    game: Any = load_game(name)
    state = _decision(game, 5)
    player = game.current_player(state)
    moves = []
    for values in ([-0.5, -3.0, -1e300], [1.5, 7.0], [float("nan")], [-0.25, 0.5, 2.0]):
        agent = MCTSAgent(iterations=30)
        rng: Any = BadDraws(values)
        try:
            moves.append(repr(agent.act_in(game, state, player, rng)))
        except Exception as exc:  # reported: both paths must agree
            moves.append(f"{type(exc).__name__}")
    return moves


def _episodes(env: Any, seed: int) -> list[Any]:
    """Three seeded episodes of a Gymnasium environment, its moves picked from the legal ids by a seeded rng."""
    rng = np.random.default_rng(seed)
    seen: list[Any] = []
    for k in range(3):
        _, info = env.reset(seed=seed + 100 * k)
        total = 0.0
        for _ in range(2000):
            legal = np.flatnonzero(info["action_mask"])
            _, reward, terminated, truncated, info = env.step(int(legal[int(rng.integers(len(legal)))]))
            total += float(reward)
            if terminated or truncated:
                break
        seen.append(round(total, 9))
    return seen


def gym_threads(name: str) -> object:
    """Eight Gymnasium environments of one game, one per thread, switching as often as the runtime lets."""
    from tabletop_core.adapters.gymnasium import TabletopEnv

    sys.setswitchinterval(1e-6)
    results: dict[int, Any] = {}

    def run(seed: int) -> None:
        try:
            results[seed] = _episodes(TabletopEnv(name), seed)
        except Exception as exc:  # reported, not raised: the parent compares the lists
            results[seed] = f"{type(exc).__name__}: {exc}"

    workers = [threading.Thread(target=run, args=(seed,)) for seed in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    single = {seed: _episodes(TabletopEnv(name), seed) for seed in range(8)}
    return {"same_as_one_thread": results == single, "errors": [r for r in results.values() if isinstance(r, str)]}


MODES = {
    "hostile_eq": hostile_eq,
    "threads": threads,
    "deep": deep,
    "bad_draws": bad_draws,
    "gym_threads": gym_threads,
    "rebind": rebind,
}

if __name__ == "__main__":
    mode, arg = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    print(json.dumps({"compiled": COMPILED, "result": MODES[mode](arg)}))
