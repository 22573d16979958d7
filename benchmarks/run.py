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
count the time the process waited for a core. The games take turns: each rate figure is measured in pieces of at
most ``--slice`` CPU seconds (default 0.1), every game measuring a piece of the figure before any game measures its
next one, so all the games' figures spread over the same stretch of time. The machine this was written on changes
speed by up to 1.7x from one quarter second to the next, and figures measured one after another for a second each
took that drift into their ratios (the yardstick moved by a fifth between runs).

Each figure is the median of ``--repeat`` sweeps over every game (default 3); each ratio is the median of the
sweeps' ratios, which divide each figure by ``python_kuhn_poker``'s in the same sweep (for ``bytes/state``,
OpenSpiel's over ours, so above 1 is better everywhere). ``--json FILE`` writes both tables and every sweep, for
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
RATE_COLUMNS = COLUMNS[:-1]
#: The longest stretch of CPU time one game measures one figure before the next game takes its turn.
SLICE = 0.1
MCTS_ITERATIONS = 100
#: Decision states searched for the MCTS figure at ``--seconds 1`` or more. A search's cost depends on its state
#: (a Runebound fight's rollout is two casts or twenty), and one second covered only 8 to 10 states: which ones
#: moved the figure by half between two runs of one tree.
MCTS_STATES = 30
#: Decision states kept from the checked playout for the per-call figures (``legal/s``, ``det/s``, ``json rt/s``)
#: and the MCTS figure: every seventh action's, the first this many.
SAMPLES = 200
RETAINED = 10_000
#: Every rate is per CPU second of this process: on a shared machine another process's load then leaves the figures
#: (nearly) alone, where wall time would count the seconds this process waited for a core.
_now = time.process_time

#: One piece of a figure's work: given the piece's index, the number of pieces and its CPU seconds, do the work
#: and say how many units (steps, calls, iterations) it did in how many CPU seconds.
Work = Callable[[int, int, float], tuple[float, float]]


def mcts_states(seconds: float) -> int:
    """How many sampled decision states the MCTS figure searches: :data:`MCTS_STATES`, fewer below one second."""
    return max(2, min(MCTS_STATES, round(MCTS_STATES * seconds)))


def _calls(fn: Callable[[Any], object], items: Callable[[], Sequence[Any]]) -> Work:
    """Calls of ``fn`` on ``items()`` in turn for the piece's time, each piece going on where the last stopped."""
    at = 0

    def piece(part: int, parts: int, seconds: float) -> tuple[float, float]:
        nonlocal at
        todo = items()
        n = 0
        start = _now()
        end = start + seconds
        while _now() < end:
            fn(todo[(at + n) % len(todo)])
            n += 1
        at += n
        return n, _now() - start

    return piece


def _share(todo: Sequence[Any], part: int, parts: int) -> Sequence[Any]:
    """Piece ``part`` of ``parts`` of fixed work ``todo``: every ``parts``-th item from item ``part``."""
    return todo[part::parts]


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


class Subject:
    """One game under measurement: the work of each rate figure (``None``: the game has no such figure), cut into
    pieces that go on where the last piece stopped, and its memory figure."""

    def __init__(self, name: str, work: dict[str, Work | None], memory: Callable[[int], float]) -> None:
        self.name = name
        self.work = work
        self.memory = memory


# ----- our games ---------------------------------------------------------------------------------------------------


class _Resumed:
    """Random playouts resumed by each call: the generator and the sample list go on, so the pieces of a figure play
    the games one long playout would. Subclasses write the timed loop (:meth:`_play`)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.rng = np.random.default_rng(0)
        self.actions = 0
        #: Decision states kept on the way (every seventh action's, the first :data:`SAMPLES`).
        self.samples: list[Any] = []

    def __call__(self, part: int = 0, parts: int = 1, seconds: float = 1.0) -> tuple[float, float]:
        """Play whole games for ``seconds`` of CPU time: steps done, CPU seconds."""
        before = self.actions
        start = _now()
        self.actions = self._play(start + seconds)
        return self.actions - before, _now() - start

    def _play(self, end: float) -> int:
        """Play whole games until CPU time ``end``; the action count after them."""
        raise NotImplementedError

    def once(self, seconds: float) -> tuple[float, list[Any]]:
        """One piece: steps per CPU second, and the sampled decision states."""
        done, spent = self(0, 1, seconds)
        return done / spent, self.samples


class _Playout(_Resumed):
    """Random playouts of one of our games through ``game.step`` (``checked``) or ``apply_unchecked``, each call
    playing on (and until a state is sampled)."""

    def __init__(self, game: Any, checked: bool) -> None:
        super().__init__(game)
        self.apply = game.step if checked else game.apply_unchecked

    def _play(self, end: float) -> int:
        game, apply, rng, samples = self.game, self.apply, self.rng, self.samples
        actions = self.actions
        while _now() < end or not samples:
            state = game.new_game()
            while (player := game.current_player(state)) != TERMINAL:
                if player == CHANCE:
                    action = sample_outcome(game.chance_outcomes(state), rng)
                else:
                    legal = game.legal_actions(state)
                    action = legal[int(rng.integers(len(legal)))]
                    if actions % 7 == 0 and len(samples) < SAMPLES:  # decision states, for the per-call figures
                        samples.append(state)
                state = apply(state, action)
                actions += 1
        return actions


def _playouts(game: Any, seconds: float, checked: bool) -> tuple[float, list[Any]]:
    """One run of :class:`_Playout`: steps per CPU second, and the sampled decision states."""
    return _Playout(game, checked).once(seconds)


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


def ours(name: str, seconds: float) -> Subject:
    """One of our games (installed name, or ``module:ATTR``) as a :class:`Subject`; ``seconds``: CPU time per
    figure (it sets how many states the MCTS figure searches)."""
    game = load_game(name)
    checked = _Playout(game, checked=True)
    samples = checked.samples  # filled by the step figure, measured first
    agent = MCTSAgent(iterations=MCTS_ITERATIONS)
    mcts_rng = np.random.default_rng(1)
    det_rng = np.random.default_rng(3)

    chosen: list[Any] = []

    def mcts(part: int, parts: int, _: float) -> tuple[float, float]:
        if not chosen:  # once, from the samples the step figure kept, outside the timing
            # Only real choices: with one legal action the agent answers without searching, and counting its 100
            # iterations there would reward a game (or a tree) whose sampled states happen to have more forced
            # moves.
            chosen.extend(([s for s in samples if len(game.legal_actions(s)) > 1] or samples)[: mcts_states(seconds)])
        start = _now()
        done = 0
        for state in _share(chosen, part, parts):
            player = game.current_player(state)
            agent.act_in(game, game.determinize(state, player, mcts_rng), player, mcts_rng)
            done += MCTS_ITERATIONS
        return done, _now() - start

    def determinize(state: Any) -> object:
        return game.determinize(state, game.current_player(state), det_rng)

    hidden = game.spec.information != Information.PERFECT
    return Subject(
        game.spec.short_name,
        {
            "step/s": checked,
            "unchecked/s": _Playout(game, checked=False),
            "legal/s": _calls(game.legal_actions, lambda: samples),
            "mcts it/s": mcts,
            "det/s": _calls(determinize, lambda: samples) if hidden else None,
            "json rt/s": _calls(lambda s: from_json(game, to_json(s)), lambda: samples),
        },
        lambda n: _bytes_per_state(lambda k: _retained(game, k), n),
    )


# ----- OpenSpiel's Kuhn poker ----------------------------------------------------------------------------------------


def _os_sample(state: Any, rng: np.random.Generator) -> int:
    if state.is_chance_node():  # the same sampler as ours, so the comparison measures the games alone
        return int(sample_outcome(state.chance_outcomes(), rng))
    legal = state.legal_actions()
    return int(legal[int(rng.integers(len(legal)))])


class _OsPlayout(_Resumed):
    """Random playouts of an OpenSpiel game, resumed by each call: ``apply_action`` on its mutable state, or
    (``child``) ``child``, a clone and an apply, whose decision states are kept in ``samples``."""

    def __init__(self, game: Any, child: bool) -> None:
        super().__init__(game)
        self.child = child

    def _play(self, end: float) -> int:
        game, child, rng, samples = self.game, self.child, self.rng, self.samples
        actions = self.actions
        while _now() < end or (child and not samples):
            state = game.new_initial_state()
            while not state.is_terminal():
                action = _os_sample(state, rng)
                if child and not state.is_chance_node() and actions % 7 == 0 and len(samples) < SAMPLES:
                    samples.append(state)
                if child:
                    state = state.child(action)
                else:
                    state.apply_action(action)
                actions += 1
        return actions


def _os_playouts(game: Any, seconds: float, child: bool) -> tuple[float, list[Any]]:
    """One run of :class:`_OsPlayout`: steps per CPU second, and (``child``) the sampled decision states."""
    return _OsPlayout(game, child).once(seconds)


def _os_retained(game: Any, retained: int) -> list[Any]:
    rng = np.random.default_rng(2)
    kept: list[Any] = []
    while len(kept) < retained:
        state = game.new_initial_state()
        while len(kept) < retained and not state.is_terminal():
            state = state.child(_os_sample(state, rng))
            kept.append(state)
    return kept


def _os_bot(game: Any) -> Any:
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    # ``solve=False``: with solving on, the bot stops once the root is proven, which on Kuhn poker is after about
    # six of the 100 simulations; ours never stop early.
    return mcts.MCTSBot(game, 2.0, MCTS_ITERATIONS, evaluator, solve=False, random_state=np.random.RandomState(1))


def os_mcts_rate(game: Any, states: Sequence[Any], seconds: float) -> tuple[float, list[int]]:
    """OpenSpiel's ``MCTSBot`` (100 simulations, one random rollout each) over ``states``: simulations per CPU
    second, and the simulations each search ran (its root's visit count), so the rate counts simulations run."""
    bot = _os_bot(game)
    runs: list[int] = []
    start = _now()
    for state in states[: mcts_states(seconds)]:
        runs.append(int(bot.mcts_search(state).explore_count))
    return sum(runs) / (_now() - start), runs


def openspiel(name: str, seconds: float) -> Subject:
    """One of OpenSpiel's games as a :class:`Subject`, measured the way :func:`ours` measures ours."""
    import open_spiel.python.games  # noqa: F401  # registers OpenSpiel's pure-Python games
    import pyspiel

    game = pyspiel.load_game(name)
    children = _OsPlayout(game, child=True)
    samples = children.samples  # filled by the unchecked figure, measured before the per-call figures
    bot = _os_bot(game)
    chosen: list[Any] = []

    def mcts(part: int, parts: int, _: float) -> tuple[float, float]:
        if not chosen:  # as for ours
            chosen.extend(([s for s in samples if len(s.legal_actions()) > 1] or samples)[: mcts_states(seconds)])
        start = _now()
        done = sum(int(bot.mcts_search(state).explore_count) for state in _share(chosen, part, parts))
        return done, _now() - start

    return Subject(
        f"openspiel {name}" if name != OPENSPIEL[0] else name,
        {
            "step/s": _OsPlayout(game, child=False),
            "unchecked/s": children,
            "legal/s": _calls(lambda s: s.legal_actions(), lambda: samples),
            "mcts it/s": mcts,
            "det/s": None,
            "json rt/s": _calls(lambda s: game.deserialize_state(s.serialize()), lambda: samples),
        },
        lambda n: _bytes_per_state(lambda k: _os_retained(game, k), n),
    )


# ----- the measurement -----------------------------------------------------------------------------------------------


def _measure(subjects: Sequence[Subject], seconds: float, piece: float, retained: int) -> dict[str, dict[str, float]]:
    """Every figure of every subject, the subjects taking turns.

    Each rate figure gets ``seconds`` of CPU time per subject, cut into pieces of at most ``piece`` seconds; the
    subjects measure the figure's pieces in turn, each round starting with the next subject, so every subject's
    figure spreads over the same stretch of time. (Fixed work, the MCTS searches, is shared out over the rounds
    the same way.) A machine whose speed drifts from second to second then moves every subject's figure alike,
    and the ratios between them hold.
    """
    rounds = max(1, math.ceil(seconds / piece - 1e-9))
    each = seconds / rounds
    done = {s.name: dict.fromkeys(RATE_COLUMNS, 0.0) for s in subjects}
    spent = {s.name: dict.fromkeys(RATE_COLUMNS, 0.0) for s in subjects}
    for column in RATE_COLUMNS:
        for r in range(rounds):
            turn = r % len(subjects)
            for subject in (*subjects[turn:], *subjects[:turn]):
                work = subject.work[column]
                if work is not None:
                    units, cpu = work(r, rounds, each)
                    done[subject.name][column] += units
                    spent[subject.name][column] += cpu
    rows: dict[str, dict[str, float]] = {}
    for subject in subjects:
        d, t = done[subject.name], spent[subject.name]
        row = {c: d[c] / t[c] if t[c] > 0 else float("nan") for c in RATE_COLUMNS}
        row["bytes/state"] = subject.memory(retained)
        rows[subject.name] = row
    return rows


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
    """One measurement of every figure of every game, the games taking turns (the yardsticks first in the table)."""
    subjects = [] if args.no_openspiel else [openspiel(name, args.seconds) for name in OPENSPIEL]
    subjects += [ours(name, args.seconds) for name in args.games or [KUHN, *available_games()]]
    return _measure(subjects, args.seconds, args.slice, args.retain)


def median(values: Iterable[float]) -> float:
    """The median of ``values``, ignoring NaN (a figure the game does not have); NaN when every value is."""
    known = [v for v in values if not math.isnan(v)]
    return statistics.median(known) if known else float("nan")


def main(argv: list[str] | None = None) -> int:
    """Measure, print the figures and the ratios, and optionally write them as JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures and ratios here")
    parser.add_argument(
        "--slice", type=float, default=SLICE, help="longest piece of a figure one game measures in turn (default 0.1)"
    )
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
        each = [ratios(sweep) for sweep in sweeps]
        rel = {name: {c: median(r[name][c] for r in each) for c in COLUMNS} for name in rows}
        sys.stdout.write("\nratio to OpenSpiel's python_kuhn_poker in this run (above 1 is better)\n")
        sys.stdout.write(_table(rel, ".2f"))
        result["ratios"] = rel
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(result, fh, indent=2, allow_nan=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
