"""The MCTS and ISMCTS bots: budgets, tree reuse, rollout policies, chance sampling and widening."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from tabletop_core import RandomAgent, TabletopError, play
from tabletop_core.agents import AgentRollout, ISMCTSAgent, MCTSAgent, SearchAgent
from tabletop_core.testing.kuhn import GAME as KUHN
from tests.core.corridorgame import GAME as CORRIDOR
from tests.core.corridorgame import safe_door
from tests.core.flowgame import GAME as FLOW_GAME
from tests.core.gamblegame import FOLD, SAFE
from tests.core.gamblegame import GAMBLE as GAMBLE_MOVE
from tests.core.gamblegame import GAME as GAMBLE
from tests.playouts import final_state


def test_a_time_budget_bounds_each_decision() -> None:
    agent = MCTSAgent(seconds=0.05)
    assert agent.iterations is None  # a time budget alone sets no iteration cap
    state = FLOW_GAME.new_game(seed=1)
    start = time.perf_counter()
    agent.act_in(FLOW_GAME, state, 0, np.random.default_rng(0))
    assert time.perf_counter() - start < 1.0  # unlimited iterations: only the deadline can stop it
    assert agent.last_iterations > 1


def test_iterations_cap_a_time_budget() -> None:
    agent = MCTSAgent(iterations=7, seconds=5.0)
    agent.act_in(FLOW_GAME, FLOW_GAME.new_game(seed=1), 0, np.random.default_rng(0))
    assert agent.last_iterations == 7


def test_bad_budgets_and_modes_are_refused() -> None:
    with pytest.raises(TabletopError, match="seconds"):
        MCTSAgent(seconds=0)
    with pytest.raises(TabletopError, match="chance"):
        MCTSAgent(chance="exact")
    with pytest.raises(TabletopError, match="rollout"):
        MCTSAgent(rollout="smart")


def _decisions(agent: MCTSAgent, seed: int) -> list[int]:
    """The reused root visits at each decision of one solo game."""
    reused = []
    rng = np.random.default_rng(seed)

    def choose(state: Any, legal: Sequence[Any]) -> Any:
        action = agent.act_in(FLOW_GAME, state, 0, rng)
        if len(legal) > 1:
            reused.append(agent.reused_visits)
        return action

    final_state(FLOW_GAME, FLOW_GAME.new_game(seed=seed), rng, choose=choose, chance="settle")
    return reused


@pytest.mark.parametrize("chance", ["sample", "widen"])
def test_the_tree_is_reused_between_moves_of_a_solo_game(chance: str) -> None:
    reused = _decisions(MCTSAgent(iterations=200, chance=chance), seed=3)
    assert reused[0] == 0 and any(r > 0 for r in reused[1:])
    assert _decisions(MCTSAgent(iterations=200, chance=chance, reuse=False), seed=3) == [0] * len(reused)
    agent = MCTSAgent(iterations=50, chance=chance)
    _decisions(agent, seed=3)
    agent.reset()
    assert _decisions(agent, seed=4)[0] == 0  # a new game starts from an empty tree


def test_no_reuse_across_players_it_is_not_told_about() -> None:
    agent = MCTSAgent(iterations=100)
    play(KUHN, [agent, RandomAgent()], seed=4)
    assert agent.reused_visits == 0


class Counting:
    """An agent that counts its moves and plays the first legal action."""

    def __init__(self) -> None:
        self.moves = 0

    def act(self, view: Any, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        self.moves += 1
        return legal_actions[0]


def test_rollouts_can_be_played_by_agents() -> None:
    bot = Counting()
    agent = MCTSAgent(iterations=20, rollout=AgentRollout([bot]))
    agent.act_in(FLOW_GAME, FLOW_GAME.new_game(seed=2), 0, np.random.default_rng(0))
    assert bot.moves > 0


def test_heuristic_rollouts_use_the_games_own_bots() -> None:
    import unrest

    rollout = AgentRollout()
    agent = ISMCTSAgent(iterations=5, rollout=rollout)
    state = unrest.new_game(seed=1)
    agent.act_in(unrest.GAME, unrest.GAME.determinize(state, 0, np.random.default_rng(1)), 0, np.random.default_rng(0))
    assert [type(a).__name__ for a in rollout.agents or []] == ["RebellionBot", "EmpireBot"]


@pytest.mark.parametrize(("chance", "expected"), [("sample", SAFE), ("widen", GAMBLE_MOVE)])
def test_widening_keeps_the_search_sound_with_a_thousand_chance_outcomes(chance: str, expected: int) -> None:
    # The gamble is worth 0.601 played well after the roll; open loop averages the follow-up over every roll (0.5)
    # and takes the sure 0.53; the widened tree learns each kept roll's own follow-up and gambles.
    state = GAMBLE.initial_state(GAMBLE.make_options())
    picks = {
        MCTSAgent(iterations=1500, chance=chance, exploration=0.3).act_in(GAMBLE, state, 0, np.random.default_rng(s))
        for s in range(3)
    }
    assert picks == {expected}


def test_widening_bounds_the_outcomes_a_chance_node_holds() -> None:
    # private: the subtree kept between searches is what this test is about
    agent = MCTSAgent(iterations=1500, chance="widen", exploration=0.3)
    state = GAMBLE.initial_state(GAMBLE.make_options())
    assert agent.act_in(GAMBLE, state, 0, np.random.default_rng(0)) == GAMBLE_MOVE
    chance_node = agent._kept[()] if agent._kept else None  # the kept subtree's root: the die after the gamble
    assert chance_node is not None
    visits = sum(chance_node.visits.values())
    assert 1 < len(chance_node.visits) <= math.ceil(math.sqrt(visits + 1)) < 1000


def test_ismcts_is_an_mcts_that_always_determinizes() -> None:
    agent = ISMCTSAgent(iterations=30)
    assert isinstance(agent, SearchAgent) and agent.always_determinize
    _, record = play(KUHN, [agent, RandomAgent()], seed=2)
    assert record.returns is not None
    assert repr(agent).startswith("ISMCTSAgent(iterations=30")


def test_observed_normalization_scales_by_the_returns_met() -> None:
    # private: the normalization the search learned is what this test is about
    agent = MCTSAgent(iterations=40, normalize="observed")
    agent.act_in(FLOW_GAME, FLOW_GAME.new_game(seed=2), 0, np.random.default_rng(0))
    low, scale = agent._norm
    assert FLOW_GAME.spec.min_utility <= low and scale > 1.0 / FLOW_GAME.spec.max_utility  # tighter than the spec's
    with pytest.raises(TabletopError, match="normalize"):
        MCTSAgent(normalize="z")


def _corridor_pick(agent: MCTSAgent, seed: int) -> int:
    state = CORRIDOR.initial_state(CORRIDOR.make_options())
    return int(agent.act_in(CORRIDOR, state, 0, np.random.default_rng(seed)))


def test_a_heuristic_prior_starts_a_small_search_from_the_bots_move() -> None:
    # Two iterations for eight doors: UCB1 tries two doors at random and misses the safe one three times in four;
    # with the guide as prior the first iteration tries the guide's door, whose rollout gets through.
    seeds = range(40)
    plain = [_corridor_pick(MCTSAgent(iterations=2, rollout="heuristic"), s) for s in seeds]
    guided = [_corridor_pick(MCTSAgent(iterations=2, rollout="heuristic", prior="heuristic"), s) for s in seeds]
    assert guided == [safe_door(0)] * len(guided)
    assert plain.count(safe_door(0)) < len(plain) // 2


class WrongDoor:
    """A prior that names a fatal door at the first step and the safe door after it."""

    def __call__(self, game: Any, state: Any, player: int, legal: Sequence[Any], rng: np.random.Generator) -> Any:
        return (safe_door(0) + 1) % len(legal) if state.step == 0 else safe_door(state.step)


def test_a_wrong_prior_is_overruled_by_the_search() -> None:
    # PUCT's prior bonus shrinks as 1 / (1 + visits): a fatal favourite loses its lead and the safe door is found.
    picks = {_corridor_pick(MCTSAgent(iterations=60, rollout="heuristic", prior=WrongDoor()), s) for s in range(4)}
    assert picks == {safe_door(0)}


def test_the_prior_can_be_the_rollout_policy_and_is_named_in_the_repr() -> None:
    agent = MCTSAgent(iterations=3, rollout="heuristic", prior="rollout")
    assert agent.prior is agent.policy
    assert _corridor_pick(agent, 0) == safe_door(0)
    assert repr(agent).endswith("prior='rollout', prior_weight=0.5)")
    with pytest.raises(TabletopError, match="prior"):
        MCTSAgent(prior="oracle")
    with pytest.raises(TabletopError, match="prior_weight"):
        MCTSAgent(prior="heuristic", prior_weight=1.0)


class CountingGenerator:
    """A generator that counts the calls made on it."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        self.calls += 1
        return getattr(self.rng, name)


def test_random_rollouts_draw_from_the_generator_in_blocks() -> None:
    # A scalar Generator call costs microseconds; the search takes its uniforms 64 at a time.
    rng = CountingGenerator(np.random.default_rng(0))
    agent = MCTSAgent(iterations=200)
    agent.act_in(FLOW_GAME, FLOW_GAME.new_game(seed=2), 0, rng)  # type: ignore[arg-type]  # a stand-in Generator
    assert 0 < rng.calls < agent.last_iterations / 4


def test_open_loop_reuse_keeps_no_statistics_across_a_chance_outcome() -> None:
    # Open loop, keep-or-fold after the gamble averages over every roll (keep: 0.5, fold: 0.45). After a low roll
    # those statistics would outvote a small fresh search; reuse must drop them and fold.
    state = GAMBLE.initial_state(GAMBLE.make_options(safe=0.3))
    rng = np.random.default_rng(0)
    agent = MCTSAgent(iterations=600, exploration=0.3)
    assert agent.act_in(GAMBLE, state, 0, rng) == GAMBLE_MOVE
    low_roll = GAMBLE.apply_unchecked(GAMBLE.apply_unchecked(state, GAMBLE_MOVE), 100)  # keeping it scores 0.1
    agent.iterations = 4
    assert agent.act_in(GAMBLE, low_roll, 0, rng) == FOLD
    assert agent.reused_visits == 0


def test_an_ismcts_prior_asks_each_seats_own_bot() -> None:
    import unrest

    agent = ISMCTSAgent(iterations=8, prior="heuristic")
    state = unrest.new_game(seed=1)
    world = unrest.GAME.determinize(state, 0, np.random.default_rng(1))
    assert agent.act_in(unrest.GAME, world, 0, np.random.default_rng(0)) in unrest.GAME.legal_actions(state)
    assert isinstance(agent.prior, AgentRollout)
    assert [type(a).__name__ for a in agent.prior.agents or []] == ["RebellionBot", "EmpireBot"]
