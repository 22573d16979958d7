"""``stop_early``: a search that ends once its move is settled picks the move of the whole budget.

Each iteration adds one visit to one root action, so once the most visited action leads every other by more than
the iterations left, no other can reach its count and the whole budget would pick it too. The tests compare a
stopped search with the whole budget from the same generator, on the perfect-information Runebound and over
Unrest's determinizations, and pin the rule's strictness (a lead equal to the iterations left is not settled: a
tie at the end would be broken by the values, which can still change).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from runebound_coop import GAME as RUNEBOUND
from tabletop_core.agents import ISMCTSAgent, MCTSAgent
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.spec import CHANCE, TERMINAL
from tests.playouts import random_playout
from tests.unrest.helpers import random_states
from unrest import GAME as UNREST


def _decisions(game: Any, states: Sequence[Any], count: int) -> list[Any]:
    picked = [s for s in states if game.current_player(s) not in (CHANCE, TERMINAL) and len(game.legal_actions(s)) > 1]
    step = max(1, len(picked) // count)
    return picked[::step][:count]


def test_the_lead_must_exceed_the_iterations_left() -> None:
    # private: the stopping rule is tested on its own
    settled = MCTSAgent._settled
    assert not settled({1: 10, 2: 5}, [1, 2], 5)  # the runner-up could tie; the values would break it
    assert settled({1: 10, 2: 5}, [1, 2], 4)
    assert settled({1: 3}, [1, 2, 3], 2)  # the others unvisited
    assert not settled({1: 3, 9: 100}, [1, 2, 3], 3)  # visits of an action not legal here do not count
    assert not settled({}, [1, 2], 0)


def _same_move(agent_kind: type[MCTSAgent], game: Any, states: Sequence[Any], **kw: Any) -> list[int]:
    used = []
    for n, state in enumerate(states):
        player = game.current_player(state)
        whole = agent_kind(**kw)
        early = agent_kind(stop_early=True, **kw)
        a = whole.act_in(game, state, player, np.random.default_rng(n))
        b = early.act_in(game, state, player, np.random.default_rng(n))
        assert a == b, (n, a, b)
        assert whole.last_iterations == kw["iterations"]
        used.append(early.last_iterations)
    return used


def test_a_stopped_search_picks_the_whole_budgets_move_in_runebound() -> None:
    rng = np.random.default_rng(3)
    states = [s for _ in range(6) for s in random_playout(RUNEBOUND, RUNEBOUND.new_game(), rng)]
    used = _same_move(MCTSAgent, RUNEBOUND, _decisions(RUNEBOUND, states, 12), iterations=150, chance="widen")
    assert any(u < 150 for u in used), used  # it does stop early somewhere
    assert all(u <= 150 for u in used)


def test_a_stopped_search_picks_the_whole_budgets_move_over_unrests_determinizations() -> None:
    states = _decisions(UNREST, random_states(2, seed=5), 8)
    used = _same_move(ISMCTSAgent, UNREST, states, iterations=120, prior="heuristic")
    assert any(u < 120 for u in used), used
    assert sum(used) < 0.9 * 120 * len(used)  # and saves time overall


def test_without_an_iteration_cap_it_runs_the_time_budget() -> None:
    rng = np.random.default_rng(1)
    state = _decisions(RUNEBOUND, list(random_playout(RUNEBOUND, RUNEBOUND.new_game(), rng)), 1)[0]
    agent = MCTSAgent(iterations=None, seconds=0.05, stop_early=True)
    agent.act_in(RUNEBOUND, state, RUNEBOUND.current_player(state), np.random.default_rng(0))
    assert agent.last_iterations > 1  # nothing to compare the lead with, so the clock decides


@pytest.mark.parametrize("text", ["mcts:iterations=50,stop_early=true", "ismcts:iterations=50,stop_early=true"])
def test_the_spec_sets_it(text: str) -> None:
    state = UNREST.new_game()
    agent = parse_agent_spec(text).build(UNREST, state, 0)
    assert agent.stop_early is True
    assert "stop_early=True" in repr(agent)
