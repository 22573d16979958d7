"""MCTS's exploration scaled by the spread of the values (``exploration_scale="spread"``).

The test game is a row of long shots: one decision among eight arms, each a chance node that wins (+1) with a small
probability and loses (-1) otherwise; seven arms win 2% of the time, the last 6%. Under ``objective="win"`` the
backed-up values are 1 or 0 and almost all 0, so the differences between arms are a few hundredths while UCB1's
exploration term, with the usual constant, is tenths: a fixed constant spreads a small budget almost evenly over the
arms. Scaled by the values' standard deviation (about 0.17 here, a third of its largest, 1/2) the exploration
shrinks to what the values can tell apart, and the budget goes to the best arm.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np
import pytest

from tabletop_core import TabletopError
from tabletop_core.agents import MCTSAgent
from tabletop_core.agents.mcts import _Node
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

WON, LOST = 0, 1
ODDS = (0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.06)
BEST = 7


@attrs.frozen
class LongshotOptions:
    """Each arm's chance to win."""

    odds: tuple[float, ...] = ODDS


@attrs.frozen
class LongshotState:
    """``arm`` -1 before the choice; ``result`` 0 until the chance node decides, then +1 or -1."""

    TAG: ClassVar[str] = "longshot.state"
    options: LongshotOptions
    arm: int = -1
    result: float = 0.0


class LongshotGame(Game[LongshotState, int, LongshotOptions]):
    """The rules above; arms and chance outcomes are plain ints."""

    spec = GameSpec(
        short_name="longshot",
        long_name="Long-shot test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=len(ODDS),
        max_chance_outcomes=2,
        max_game_length=2,
        observation_shape=(2,),
    )
    state_type = LongshotState
    action_type = int
    options_type = LongshotOptions

    def initial_state(self, options: LongshotOptions) -> LongshotState:
        return LongshotState(options)

    def num_players(self, state: LongshotState) -> int:
        return 1

    def current_player(self, state: LongshotState) -> int:
        if state.arm < 0:
            return 0
        return CHANCE if state.result == 0.0 else TERMINAL

    def legal_actions(self, state: LongshotState) -> tuple[int, ...]:
        return tuple(range(len(state.options.odds))) if state.arm < 0 else ()

    def chance_outcomes(self, state: LongshotState) -> tuple[tuple[int, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        p = state.options.odds[state.arm]
        return ((WON, p), (LOST, 1.0 - p))

    def _apply(self, state: LongshotState, action: int) -> LongshotState:
        if state.arm < 0:
            return attrs.evolve(state, arm=action)
        return attrs.evolve(state, result=1.0 if action == WON else -1.0)

    def returns(self, state: LongshotState) -> tuple[float, ...]:
        return (state.result,)

    def observe(self, state: LongshotState, player: int) -> LongshotState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: LongshotState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"longshot: no action id {action_id} here")
        return action_id

    def action_to_str(self, state: LongshotState, action: int) -> str:
        return f"arm {action}" if state.arm < 0 else ("won", "lost")[action]

    def observation_tensor(self, state: LongshotState, player: int) -> np.ndarray:
        return np.array([state.arm, state.result], dtype=np.float32)

    def render(self, state: LongshotState, player: int | None = None) -> str:
        return f"arm {state.arm} result {state.result}"


GAME = LongshotGame()


class _Recording(MCTSAgent):
    """An MCTS agent that keeps its root's visit counts after each decision."""

    root_visits: dict[int, int]

    def _iterate(self, game, state, tree, *args, **kwargs):  # type: ignore[no-untyped-def]  # a pass-through
        super()._iterate(game, state, tree, *args, **kwargs)
        self.root_visits = tree[()].visits


def _best_share(scale: str, seeds: range) -> float:
    """The mean share of a 400-iteration search's visits that went to the best arm."""
    state = GAME.initial_state(LongshotOptions())
    shares = []
    for seed in seeds:
        agent = _Recording(iterations=400, objective="win", exploration_scale=scale)
        agent.act_in(GAME, state, 0, np.random.default_rng(seed))
        shares.append(agent.root_visits[BEST] / sum(agent.root_visits.values()))
    return float(np.mean(shares))


def test_spread_scaled_exploration_spends_the_budget_on_the_best_long_shot() -> None:
    fixed, spread = _best_share("fixed", range(20)), _best_share("spread", range(20))
    assert fixed < 0.25  # a fixed constant spreads the 400 visits almost evenly (1/8 each)
    assert spread > 1.2 * fixed


def test_spread_finds_the_best_long_shot_more_often() -> None:
    state = GAME.initial_state(LongshotOptions())

    def hits(scale: str) -> int:
        agent = MCTSAgent(iterations=400, objective="win", exploration_scale=scale)
        return sum(agent.act_in(GAME, state, 0, np.random.default_rng(seed)) == BEST for seed in range(40))

    assert hits("spread") > hits("fixed")


def test_the_exploration_is_scaled_by_the_nodes_standard_deviation_with_a_floor() -> None:
    # private: the exploration term of one node is what this test is about
    agent = MCTSAgent(exploration=1.4, exploration_scale="spread")
    node = _Node()
    node.count, node.total, node.squares = 100, 10.0, 10.0  # ten wins in a hundred: standard deviation 0.3
    assert agent._exploration(node, 1.0) == pytest.approx(1.4 * 0.6)
    node.count, node.total, node.squares = 100, 0.0, 0.0  # every rollout lost: the floor
    assert agent._exploration(node, 1.0) == pytest.approx(1.4 * MCTSAgent.SPREAD_FLOOR)
    node.count = 1  # one visit says nothing of the spread yet
    assert agent._exploration(node, 1.0) == 1.4
    assert MCTSAgent(exploration=1.4)._exploration(node, 1.0) == 1.4  # the default keeps the constant


def test_the_scale_is_in_the_spec_and_the_repr_and_checked() -> None:
    agent = parse_agent_spec("mcts:iterations=10,exploration_scale=spread").build(GAME, GAME.new_game(), 0)
    assert isinstance(agent, MCTSAgent) and agent.spread
    assert "exploration_scale='spread'" in repr(agent)
    assert "exploration_scale" not in repr(MCTSAgent())
    with pytest.raises(TabletopError, match="exploration_scale"):
        MCTSAgent(exploration_scale="wide")
