"""Exact CFR (OpenSpiel's ``cfr``) on an endgame of Unrest's research game, with the average policy's NashConv
falling to near zero; and, for scale, the size of the whole research game.

The research game (``research=True``, not the published game) is small for Unrest but large for tabular
solvers run through a Python game: 77,895 histories and 17,646 information states. An exact CFR iteration over
it costs about 7 CPU s and a NashConv about 16 CPU s here, so 100 iterations of external-sampling MCCFR sample
only a thin part of it and the average policy's NashConv stays near its starting 0.88. Its information states
are perfect recall (two histories with the same action-observation sequence for a player share its information
state, and histories with different ones never do; ``tests/adapters/test_docs_and_examples.py`` checks this on
the endgame). So the example solves an endgame small enough to solve exactly: the research game dealt from
``seed`` with the Rebellion's first planned card fixed (``first``), then everything else played out: the two
other planned cards (hidden or revealed, so the Empire does not know what it faces), the Empire's two
actions, the cards moved, the liberation check. It has :func:`size` information states (389 for the
defaults), and CFR+ drives NashConv below 0.05 within 10 iterations.

Run ``python examples/openspiel_mccfr_unrest_research.py`` (the docs' table: its defaults, 30 iterations;
``--mccfr`` adds 100 iterations of external-sampling MCCFR on the whole research game, minutes of CPU).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np
import pyspiel
from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr

from tabletop_core.adapters import openspiel
from unrest import GAME

#: The research game's options (a Capitol game: its liberation is the research game's only win).
OPTIONS: dict[str, Any] = {"variant": "capitol", "research": True}

Row = tuple[int, float, float, int]


class Endgame:
    """The research game from one position on: a ``Game`` that delegates everything but its start and name."""

    def __init__(self, start: Any, name: str) -> None:
        self._start = start
        self.spec = attrs.evolve(GAME.spec, short_name=name, long_name=f"Unrest research endgame {name}")

    def __getattr__(self, name: str) -> Any:
        return getattr(GAME, name)

    def initial_state(self, options: Any = None) -> Any:
        """The endgame's first position, whatever the options."""
        return self._start

    def spec_for(self, options: Any) -> Any:
        """The endgame's spec (its own short name)."""
        return self.spec


def endgame(seed: int = 3, first: str = "plan 6U hidden") -> Any:
    """The OpenSpiel game of the research game dealt from ``seed`` after the Rebellion's first plan ``first``."""
    state = GAME.new_game(seed=seed, **OPTIONS)
    state = GAME.step(state, GAME.parse_action(state, first))
    name = f"unrest_research_end_{seed}_{first.replace(' ', '_')}"
    if openspiel.short_name_for(Endgame(state, name)) in pyspiel.registered_names():  # registered once a process
        loaded = pyspiel.load_game(openspiel.short_name_for(Endgame(state, name)))
        if loaded.tabletop_game.initial_state() == state:
            return loaded
    return openspiel.load(Endgame(state, name))


def size(game: Any) -> tuple[int, int]:
    """The histories and the decision information states of an OpenSpiel game, by walking its whole tree."""
    histories, infos = 0, set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        histories += 1
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        infos.add((state.current_player(), state.information_state_string()))
        stack.extend(state.child(a) for a in state.legal_actions())
    return histories, len(infos)


def main(
    iterations: int = 30,
    checkpoints: tuple[int, ...] = (1, 3, 10, 30),
    *,
    seed: int = 3,
    show: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Run ``iterations`` of CFR+ on the endgame.

    Returns, at each checkpoint (iterations done): the iterations, the CPU seconds the solver took so far
    (``time.process_time``, steady on a loaded machine), the average policy's NashConv and the endgame's
    information states; ``show`` sees each row as it is measured.
    """
    game = endgame(seed)
    _, infos = size(game)
    solver = cfr.CFRPlusSolver(game)
    rows: list[Row] = []
    spent = 0.0
    for i in range(1, iterations + 1):
        start = time.process_time()
        solver.evaluate_and_update_policy()
        spent += time.process_time() - start
        if i in checkpoints or i == iterations:
            rows.append((i, spent, float(exploitability.nash_conv(game, solver.average_policy())), infos))
            if show is not None:
                show(rows[-1])
    return rows


def mccfr(iterations: int = 100, checkpoints: tuple[int, ...] = (1, 10, 100), *, seed: int = 0) -> list[Row]:
    """External-sampling MCCFR on the whole research game (minutes of CPU; see the module)."""
    game = openspiel.load(GAME, **OPTIONS)
    np.random.seed(seed)  # OpenSpiel's MCCFR samples with numpy's global generator
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    rows: list[Row] = []
    spent = 0.0
    for i in range(1, iterations + 1):
        start = time.process_time()
        solver.iteration()
        spent += time.process_time() - start
        if i in checkpoints or i == iterations:
            gap = float(exploitability.nash_conv(game, solver.average_policy()))
            rows.append((i, spent, gap, len(solver._infostates)))  # the table's size: no public accessor
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--checkpoints", type=int, nargs="*", default=[1, 3, 10, 30])
    parser.add_argument("--mccfr", action="store_true", help="also run MCCFR on the whole research game")
    args = parser.parse_args()
    print("CFR+ on the endgame", flush=True)
    print("iterations  CPU s  NashConv  information states", flush=True)

    def show(row: Row) -> None:
        done, seconds, gap, states = row
        print(f"{done:10d}  {seconds:5.1f}  {gap:8.4f}  {states:18d}", flush=True)

    main(args.iterations, tuple(args.checkpoints), show=show)
    if args.mccfr:
        print("external-sampling MCCFR on the whole research game (information states touched)", flush=True)
        for row in mccfr():
            show(row)
