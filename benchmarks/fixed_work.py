"""Fixed work for instruction counts: ``steps`` checked random playout steps of a game, then ``searches`` MCTS searches.

A rate measured on a shared machine moves with the machine; the number of instructions a fixed piece of work takes
does not. Run this under callgrind, once with ``--searches 0`` and once with the searches, and subtract a run of one
step (the imports and the set-up) to get the instructions of the steps and of the searches alone::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m benchmarks.fixed_work unrest 20000
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python -m benchmarks.fixed_work unrest 20000 --searches 10

The playout is ``benchmarks.run``'s (legal actions, a uniform pick, the checked ``step``, chance sampled from its
exact distribution, seed 0); every seventh decision with a choice is kept, and the searches are 100-iteration MCTS
(ISMCTS through ``determinize`` on hidden-information games) from the first ``searches`` of them, seed 1.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from tabletop_core import load_game
from tabletop_core.agents import MCTSAgent
from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL


def run(name: str, steps: int, searches: int = 0) -> tuple[int, int]:
    """Play ``steps`` checked random steps of game ``name``, then run ``searches`` MCTS searches from sampled
    decisions; the number of steps and of searches done."""
    game: Any = load_game(name)
    rng = np.random.default_rng(0)
    done = 0
    samples: list[Any] = []
    while done < steps:
        state = game.new_game()
        while done < steps and (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                action = sample_outcome(game.chance_outcomes(state), rng)
            else:
                legal = game.legal_actions(state)
                action = legal[int(rng.integers(len(legal)))]
                if done % 7 == 0 and len(legal) > 1:
                    samples.append(state)
            state = game.step(state, action)
            done += 1
    agent = MCTSAgent(iterations=100)
    rng = np.random.default_rng(1)
    searched = 0
    for state in samples[:searches]:
        player = game.current_player(state)
        agent.act_in(game, game.determinize(state, player, rng), player, rng)
        searched += 1
    return done, searched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fixed_work", description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a game name or module:attribute (as `tabletop` takes)")
    parser.add_argument("steps", type=int, help="checked random playout steps")
    parser.add_argument("--searches", type=int, default=0, help="MCTS searches of 100 iterations after the steps")
    args = parser.parse_args(argv)
    done, searched = run(args.game, args.steps, args.searches)
    print(f"{args.game}: {done} steps, {searched} searches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
