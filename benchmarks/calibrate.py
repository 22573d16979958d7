"""Iterations per CPU second of one search configuration on the Runebound strength table's fight states.

The strength table's ``second`` budget fixes each configuration's iterations to what it runs in one CPU second on
the idle machine (``benchmarks.strength.SECOND``). When the search gets faster, that count is rescaled by the
ratio of this script's figure for the new code to the old, measured in turn on the same machine:

    PYTHONPATH=OLD/src:NEW python -m benchmarks.calibrate "mcts:iterations=300,chance=widen"
    PYTHONPATH=NEW/src:NEW python -m benchmarks.calibrate "mcts:iterations=300,chance=widen"

(``OLD`` a checkout of the old code, ``NEW`` this one: the script is this checkout's, the library the old one's.)

The states: random play of three games of each of the table's fights (seeded), every third decision with more
than one legal action, at most 30. Rates are per CPU second of this process (``time.process_time``).
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Sequence

import numpy as np

from benchmarks.strength import FIGHTS, MAX_ROUNDS
from tabletop_core import load_game
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.chance import sample_outcome
from tabletop_core.spec import CHANCE, TERMINAL


def fight_states(limit: int = 30) -> list[object]:
    """Decision states of seeded random play of the strength table's Runebound fights."""
    game = load_game("runebound_coop")
    rng = np.random.default_rng(5)
    states = []
    for hero, enemy in FIGHTS:
        for _ in range(3):
            s = game.new_game(heroes=(hero,), enemies=(enemy,), max_rounds=MAX_ROUNDS)
            while game.current_player(s) != TERMINAL:
                if game.current_player(s) == CHANCE:
                    s = game.step(s, sample_outcome(game.chance_outcomes(s), rng))
                    continue
                legal = game.legal_actions(s)
                if len(legal) > 1:
                    states.append(s)
                s = game.step(s, legal[int(rng.integers(len(legal)))])
    return states[::3][:limit]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the configuration's iterations per CPU second on the fight states."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", help="an agent spec with a fixed iteration count, e.g. mcts:iterations=300")
    args = parser.parse_args(argv)
    found = re.search(r"iterations=(\d+)", args.spec)
    if found is None:
        parser.error("the spec needs a fixed iterations=N")
    iterations = int(found.group(1))
    game = load_game("runebound_coop")
    spec = parse_agent_spec(args.spec)
    states = fight_states()
    start = time.process_time()
    for state in states:
        agent = spec.build(game, state, 0)
        agent.act_in(game, state, game.current_player(state), np.random.default_rng(1))
    rate = iterations * len(states) / (time.process_time() - start)
    print(f"{args.spec}: {rate:,.0f} iterations per CPU second over {len(states)} states")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
