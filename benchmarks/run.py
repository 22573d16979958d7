"""Speed and memory benchmarks of every installed game against OpenSpiel's Kuhn poker (`make bench`).

Everything is measured in one process and one run, so the ratios to OpenSpiel's pure-Python ``python_kuhn_poker``
hold even when the machine's speed drifts. For each game:

- ``step/s``: random playouts (legal actions, the checked public ``step``, chance sampled from its exact
  distribution). OpenSpiel: ``legal_actions`` and ``apply_action`` on its mutable state.
- ``unchecked/s``: the search path. Ours: ``apply_unchecked`` on an immutable state (the parent stays usable);
  OpenSpiel: ``child`` (a clone, then ``apply_action``), which is what its search code does for the same guarantee.
- ``legal/s``: ``legal_actions`` calls on sampled decision states.
- ``mcts it/s``: MCTS iterations per second at a fixed budget of 100 iterations a move, over 30 sampled states
  with more than one legal action (fewer below ``--seconds 1``; ours: ``MCTSAgent``, with a determinization per
  move; OpenSpiel: ``MCTSBot`` with one random rollout, on the true state).
- ``det/s``: ``determinize`` calls per second for the player to act (hidden-information games only).
- ``json rt/s``: JSON round trips of sampled states (ours ``to_json``/``from_json``; OpenSpiel ``serialize`` /
  ``deserialize_state``).
- ``bytes/state``: memory per retained state, measured with tracemalloc over 10,000 states kept from random
  playouts (structure shared between states is counted once, as Python shares it).

Rates are per CPU second of the benchmark's own process (``time.process_time``), so that a loaded machine does not
count the time the process waited for a core. Each figure is the median of ``--repeat`` sweeps over every game
(default 3): a single sweep's yardstick moved by a third between runs on the same idle machine. The ratio table
divides each figure by ``python_kuhn_poker``'s (for ``bytes/state``, OpenSpiel's over ours, so above 1 is better
everywhere). ``--json FILE`` writes both tables for
comparing a change with main.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from tabletop_core import available_games, from_json, load_game, to_json
from tabletop_core.agents import MCTSAgent
from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL, Information

#: The framework's own test game, measured first: its rates are the framework's overhead on a trivial game.
KUHN = "tabletop_core.testing.kuhn:GAME"
#: The yardsticks: OpenSpiel's pure-Python Kuhn poker, and its C++ Kuhn poker.
OPENSPIEL = ("python_kuhn_poker", "kuhn_poker")
COLUMNS = ("step/s", "unchecked/s", "legal/s", "mcts it/s", "det/s", "json rt/s", "bytes/state")
MCTS_ITERATIONS = 100
#: Decision states searched for the MCTS figure at ``--seconds 1`` or more. A search's cost depends on its state
#: (a Runebound fight's rollout is two casts or twenty), and one second covered only 8 to 10 states: which ones
#: moved the figure by half between two runs of one tree.
MCTS_STATES = 30
RETAINED = 10_000
#: Every rate is per CPU second of this process: on a shared machine another process's load then leaves the figures
#: (nearly) alone, where wall time would count the seconds this process waited for a core.
_now = time.process_time


def _rate(fn: Callable[[Any], object], items: Sequence[Any], seconds: float) -> float:
    n = 0
    start = _now()
    end = start + seconds
    while _now() < end:
        fn(items[n % len(items)])
        n += 1
    return n / (_now() - start)


def mcts_states(seconds: float) -> int:
    """How many sampled decision states the MCTS figure searches: :data:`MCTS_STATES`, fewer below one second."""
    return max(2, min(MCTS_STATES, round(MCTS_STATES * seconds)))


def _bytes_per_state(states: Callable[[int], list[Any]], retained: int) -> float:
    # Empty the interpreter's free lists first (a full collection clears them): a tuple or frame taken from a free
    # list is not a new allocation, so tracemalloc would not see it, and the figure would depend on how much
    # garbage the earlier measurements happened to leave there (Kuhn poker: 154 to 192 bytes a state by the order
    # of the measurements, 236 every time after a collection).
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = states(retained)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / max(len(kept), 1)


# ----- our games ---------------------------------------------------------------------------------------------------


def _playouts(game: Any, seconds: float, checked: bool) -> tuple[float, list[Any]]:
    rng = np.random.default_rng(0)
    actions = 0
    samples: list[Any] = []
    apply = game.step if checked else game.apply_unchecked
    end = _now() + seconds
    start = _now()
    while _now() < end or not samples:
        state = game.new_game()
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
                if actions % 7 == 0 and len(samples) < 200:  # decision states, for the per-call figures
                    samples.append(state)
            state = apply(state, action)
            actions += 1
    return actions / (_now() - start), samples


def _retained(game: Any, retained: int) -> list[Any]:
    rng = np.random.default_rng(2)
    kept: list[Any] = []
    while len(kept) < retained:
        state = game.new_game()
        while len(kept) < retained and (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
            state = game.apply_unchecked(state, action)
            kept.append(state)
    return kept


def bench(name: str, seconds: float, retained: int = RETAINED) -> dict[str, float]:
    """Every figure of one of our games (installed name, or ``module:ATTR``)."""
    game = load_game(name)
    checked, samples = _playouts(game, seconds, checked=True)
    unchecked, _ = _playouts(game, seconds, checked=False)
    legal = _rate(game.legal_actions, samples, seconds)
    json_rt = _rate(lambda s: from_json(game, to_json(s)), samples, seconds)
    det = float("nan")
    if game.spec.information != Information.PERFECT:
        rng = np.random.default_rng(3)
        det = _rate(lambda s: game.determinize(s, game.current_player(s), rng), samples, seconds)
    agent = MCTSAgent(iterations=MCTS_ITERATIONS)
    rng = np.random.default_rng(1)
    # Only real choices: with one legal action the agent answers without searching, and counting its 100
    # iterations there would reward a game (or a tree) whose sampled states happen to have more forced moves.
    choices = [s for s in samples if len(game.legal_actions(s)) > 1] or samples
    start = _now()
    done = 0
    for state in choices[: mcts_states(seconds)]:
        player = game.current_player(state)
        agent.act_in(game, game.determinize(state, player, rng), player, rng)
        done += MCTS_ITERATIONS
    mcts = done / (_now() - start)
    return {
        "step/s": checked,
        "unchecked/s": unchecked,
        "legal/s": legal,
        "mcts it/s": mcts,
        "det/s": det,
        "json rt/s": json_rt,
        "bytes/state": _bytes_per_state(lambda n: _retained(game, n), retained),
    }


# ----- OpenSpiel's Kuhn poker ----------------------------------------------------------------------------------------


def _os_sample(state: Any, rng: np.random.Generator) -> int:
    if state.is_chance_node():  # the same sampler as ours, so the comparison measures the games alone
        return int(sample_outcome(state.chance_outcomes(), rng))
    legal = state.legal_actions()
    return int(legal[int(rng.integers(len(legal)))])


def _os_playouts(game: Any, seconds: float, child: bool) -> tuple[float, list[Any]]:
    rng = np.random.default_rng(0)
    actions = 0
    samples: list[Any] = []
    end = _now() + seconds
    start = _now()
    while _now() < end or (child and not samples):
        state = game.new_initial_state()
        while not state.is_terminal():
            action = _os_sample(state, rng)
            if child and not state.is_chance_node() and actions % 7 == 0 and len(samples) < 200:
                samples.append(state)
            if child:
                state = state.child(action)
            else:
                state.apply_action(action)
            actions += 1
    return actions / (_now() - start), samples


def _os_retained(game: Any, retained: int) -> list[Any]:
    rng = np.random.default_rng(2)
    kept: list[Any] = []
    while len(kept) < retained:
        state = game.new_initial_state()
        while len(kept) < retained and not state.is_terminal():
            state = state.child(_os_sample(state, rng))
            kept.append(state)
    return kept


def os_mcts_rate(game: Any, states: Sequence[Any], seconds: float) -> tuple[float, list[int]]:
    """OpenSpiel's ``MCTSBot`` (100 simulations, one random rollout each) over ``states``: simulations per CPU
    second, and the simulations each search ran (its root's visit count), so the rate counts simulations run."""
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    # ``solve=False``: with solving on, the bot stops once the root is proven, which on Kuhn poker is after about
    # six of the 100 simulations; ours never stop early.
    bot = mcts.MCTSBot(game, 2.0, MCTS_ITERATIONS, evaluator, solve=False, random_state=np.random.RandomState(1))
    runs: list[int] = []
    start = _now()
    for state in states[: mcts_states(seconds)]:
        runs.append(int(bot.mcts_search(state).explore_count))
    return sum(runs) / (_now() - start), runs


def bench_openspiel(name: str, seconds: float, retained: int = RETAINED) -> dict[str, float]:
    """Every figure of one of OpenSpiel's games, measured the way :func:`bench` measures ours."""
    import open_spiel.python.games  # noqa: F401  # registers OpenSpiel's pure-Python games
    import pyspiel

    game = pyspiel.load_game(name)
    checked, _ = _os_playouts(game, seconds, child=False)
    unchecked, samples = _os_playouts(game, seconds, child=True)
    legal = _rate(lambda s: s.legal_actions(), samples, seconds)
    json_rt = _rate(lambda s: game.deserialize_state(s.serialize()), samples, seconds)
    choices = [s for s in samples if len(s.legal_actions()) > 1] or samples  # as for ours
    mcts_rate, _ = os_mcts_rate(game, choices, seconds)
    return {
        "step/s": checked,
        "unchecked/s": unchecked,
        "legal/s": legal,
        "mcts it/s": mcts_rate,
        "det/s": float("nan"),
        "json rt/s": json_rt,
        "bytes/state": _bytes_per_state(lambda n: _os_retained(game, n), retained),
    }


# ----- the tables ----------------------------------------------------------------------------------------------------


def ratios(rows: dict[str, dict[str, float]], base: str = "python_kuhn_poker") -> dict[str, dict[str, float]]:
    """Each figure over the yardstick's (memory inverted, so above 1 is better in every column)."""
    ref = rows[base]
    out: dict[str, dict[str, float]] = {}
    for name, row in rows.items():
        out[name] = {
            c: (ref[c] / row[c] if c == "bytes/state" else row[c] / ref[c]) if ref[c] == ref[c] else float("nan")
            for c in COLUMNS
        }
    return out


def _table(rows: dict[str, dict[str, float]], fmt: str) -> str:
    lines = [f"{'game':20}" + "".join(f"{c:>13}" for c in COLUMNS)]
    for name, row in rows.items():
        cells = ("-" if row[c] != row[c] else format(row[c], fmt) for c in COLUMNS)
        lines.append(f"{name:20}" + "".join(f"{cell:>13}" for cell in cells))
    return "\n".join(lines) + "\n"


def _sweep(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """One measurement of every figure of every game, the yardsticks first."""
    rows: dict[str, dict[str, float]] = {}
    if not args.no_openspiel:
        for name in OPENSPIEL:
            rows[f"openspiel {name}" if name != OPENSPIEL[0] else name] = bench_openspiel(
                name, args.seconds, args.retain
            )
    for name in args.games or [KUHN, *available_games()]:
        rows[load_game(name).spec.short_name] = bench(name, args.seconds, args.retain)
    return rows


def median(values: Iterable[float]) -> float:
    """The median of ``values``, ignoring NaN (a figure the game does not have); NaN when every value is."""
    known = [v for v in values if not math.isnan(v)]
    return statistics.median(known) if known else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Measure, print the figures and the ratios, and optionally write them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures and ratios here")
    parser.add_argument("--retain", type=int, default=RETAINED, help="states kept for the memory figure")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel yardsticks")
    parser.add_argument(
        "--repeat", type=int, default=3, help="sweeps over every game; each figure is their median (default 3)"
    )
    parser.add_argument("games", nargs="*", help="games to measure (default: the test game and every title)")
    args = parser.parse_args(argv)
    sweeps = [_sweep(args) for _ in range(max(args.repeat, 1))]
    rows = {name: {c: median(sweep[name][c] for sweep in sweeps) for c in COLUMNS} for name in sweeps[0]}
    sys.stdout.write(_table(rows, ",.0f"))
    result: dict[str, Any] = {"seconds": args.seconds, "repeat": len(sweeps), "figures": rows, "sweeps": sweeps}
    if not args.no_openspiel:
        rel = ratios(rows)
        sys.stdout.write("\nratio to OpenSpiel's python_kuhn_poker in this run (above 1 is better)\n")
        sys.stdout.write(_table(rel, ".2f"))
        result["ratios"] = rel
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2, allow_nan=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
