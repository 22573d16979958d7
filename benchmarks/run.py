"""Speed benchmarks of every installed game (run with `make bench`; not part of `make test`).

For each game: random playouts (actions per second, through the checked `step` and the unchecked path search
uses), `legal_actions` calls per second, JSON round trips per second, MCTS iterations per second, and the size of a
mid-game state. Prints one table; `--seconds` sets the time per measurement.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from tabletop_core import available_games, from_json, load_game, to_json
from tabletop_core.agents import MCTSAgent
from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL

#: The framework's own test game, measured first: its rates are the framework's overhead on a trivial game.
KUHN = "tabletop_core.testing.kuhn:GAME"


def _playouts(game: Any, seconds: float, checked: bool) -> tuple[float, list[Any]]:
    rng = np.random.default_rng(0)
    actions = 0
    samples: list[Any] = []
    apply = game.step if checked else game.apply_unchecked
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        state = game.new_game()
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
            state = apply(state, action)
            actions += 1
            if actions % 97 == 0 and len(samples) < 200:
                samples.append(state)
    return actions / (time.perf_counter() - start), samples


def _rate(fn: Any, items: list[Any], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        fn(items[n % len(items)])
        n += 1
    return n / (time.perf_counter() - start)


def bench(name: str, seconds: float) -> dict[str, float]:
    game = load_game(name)
    checked, samples = _playouts(game, seconds, checked=True)
    unchecked, _ = _playouts(game, seconds, checked=False)
    decisions = [s for s in samples if game.current_player(s) >= 0] or samples
    legal = _rate(game.legal_actions, decisions, seconds)
    json_rt = _rate(lambda s: from_json(game, to_json(s)), decisions, seconds)
    agent = MCTSAgent(iterations=50)
    rng = np.random.default_rng(1)
    start = time.perf_counter()
    done = 0
    for state in decisions[:20]:
        player = game.current_player(state)
        agent.act_in(game, game.determinize(state, player, rng), player, rng)
        done += agent.iterations
        if time.perf_counter() - start > seconds:
            break
    mcts = done / (time.perf_counter() - start)
    size = float(np.mean([len(to_json(s)) for s in decisions]))
    return {
        "step/s": checked,
        "unchecked/s": unchecked,
        "legal/s": legal,
        "json rt/s": json_rt,
        "mcts it/s": mcts,
        "json bytes": size,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("games", nargs="*")
    args = parser.parse_args(argv)
    names = args.games or [KUHN, *available_games()]
    columns = ["step/s", "unchecked/s", "legal/s", "json rt/s", "mcts it/s", "json bytes"]
    sys.stdout.write(f"{'game':16}" + "".join(f"{c:>13}" for c in columns) + "\n")
    for name in names:
        row = bench(name, args.seconds)
        label = load_game(name).spec.short_name
        sys.stdout.write(f"{label:16}" + "".join(f"{row[c]:>13,.0f}" for c in columns) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
