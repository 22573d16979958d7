"""The search's cost in game calls, counted rather than timed (so a loaded machine cannot flake it).

A node reached from the root by decisions alone stands for one state; the search keeps that state's legal
actions, ids and successors, so a later visit asks the game nothing there. The first chance outcome (or a
determinization) ends that: past it a node's state varies from visit to visit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest

from tabletop_core.agents import ISMCTSAgent, MCTSAgent
from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility
from tests.core.corridorgame import DEPTH, WIDTH, CorridorGame, safe_door
from tests.core.gamblegame import SIDES, GambleGame


class CountedCorridor(CorridorGame):
    """The corridor, counting the calls a search makes of it."""

    def __init__(self) -> None:
        self.calls = {"apply_unchecked": 0, "legal_actions": 0, "action_id": 0}

    def apply_unchecked(self, state: Any, action: int) -> Any:
        self.calls["apply_unchecked"] += 1
        return super().apply_unchecked(state, action)

    def legal_actions(self, state: Any) -> tuple[int, ...]:
        self.calls["legal_actions"] += 1
        return super().legal_actions(state)

    def action_id(self, action: int) -> int:
        self.calls["action_id"] += 1
        return action


def _progress(game: Any, state: Any) -> Sequence[float]:
    """The share of the corridor passed: it leads the search down the safe doors, so the tree grows deep."""
    return (state.step / DEPTH,)


@pytest.mark.parametrize("iterations", [50, 400])
def test_a_chance_free_tree_asks_the_game_once_per_edge(iterations: int) -> None:
    # Rollouts cut at once (rollout_limit=0, scored by the evaluator), so every call counted is the tree's own. The
    # corridor has DEPTH non-terminal states and WIDTH doors in each, so DEPTH * WIDTH edges: each is applied once,
    # and each state's legal actions and ids are asked once, however often the search passes. Without the cache
    # every visit asks again: 69 applies in 50 iterations, 575 in 400 (one per level descended).
    game = CountedCorridor()
    state = game.initial_state(game.make_options())
    agent = MCTSAgent(iterations=iterations, rollout_limit=0, evaluate=_progress, exploration=0.1)
    assert agent.act_in(game, state, 0, np.random.default_rng(0)) == safe_door(0)
    assert agent.last_iterations == iterations
    assert game.calls["apply_unchecked"] <= DEPTH * WIDTH
    assert game.calls["legal_actions"] <= 1 + DEPTH  # act_in's own look at the root, then one per state
    assert game.calls["action_id"] <= WIDTH * (1 + DEPTH)


def test_the_cache_changes_no_pick_of_a_search() -> None:
    # The cached tree is the same search: its picks and its statistics match a search that re-derives every state
    # (ISMCTS over a perfect-information game determinizes to the same state every time, and caches nothing).
    # private: the subtrees kept with and without the cache are compared
    game = CountedCorridor()
    state = game.initial_state(game.make_options())
    for seed in range(3):
        cached = MCTSAgent(iterations=120, rollout="heuristic")
        fresh = ISMCTSAgent(iterations=120, rollout="heuristic")
        picks = [agent.act_in(game, state, 0, np.random.default_rng(seed)) for agent in (cached, fresh)]
        assert picks[0] == picks[1] == safe_door(0)
        assert cached._kept is not None and fresh._kept is not None
        assert {k: (n.visits, n.wins) for k, n in cached._kept.items()} == {
            k: (n.visits, n.wins) for k, n in fresh._kept.items()
        }


@attrs.frozen
class ForkState:
    """``stage`` 0: choose to go on (1) or stop (0); 1: chance picks the branch; 2: choose in the branch; 3: over."""

    TAG: ClassVar[str] = "fork.state"
    options: None = None
    stage: int = 0
    branch: int = 0
    score: float = 0.0


class ForkGame(Game[ForkState, int, None]):
    """Stop for 0.45, or go on: a coin picks a branch; branch 0 offers actions 0 and 1 (worth 0 and 0.2), branch 1
    offers 2 and 3 (0.9 and 1). Going on is worth 0.6 played well after the coin, more than stopping.

    A search that kept the node after the coin as one state would play on in the branch it met first: worth 0.2
    (stop) or 1 (go on) rather than 0.6, and it would never see the other branch's actions.
    """

    spec = GameSpec(
        short_name="fork",
        long_name="Fork test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=4,
        max_chance_outcomes=2,
        max_game_length=3,
        observation_shape=(2,),
    )
    state_type = ForkState
    action_type = int
    options_type = type(None)

    def initial_state(self, options: None) -> ForkState:
        return ForkState()

    def make_options(self, **options: Any) -> None:
        return None

    def current_player(self, state: ForkState) -> int:
        return (0, CHANCE, 0, TERMINAL)[state.stage]

    def legal_actions(self, state: ForkState) -> tuple[int, ...]:
        if state.stage == 1:
            return (0, 1)
        if state.stage == 2:
            return (2 * state.branch, 2 * state.branch + 1)
        return () if state.stage == 3 else (0, 1)

    def chance_outcomes(self, state: ForkState) -> tuple[tuple[int, float], ...]:
        return ((0, 0.5), (1, 0.5)) if state.stage == 1 else ()

    def _apply(self, state: ForkState, action: int) -> ForkState:
        if state.stage == 0:
            return attrs.evolve(state, stage=1 if action else 3, score=0.45)
        if state.stage == 1:
            return attrs.evolve(state, stage=2, branch=action)
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"fork: action {action} is not of branch {state.branch}")
        return attrs.evolve(state, stage=3, score=(0.0, 0.2, 0.9, 1.0)[action])

    def returns(self, state: ForkState) -> tuple[float, ...]:
        return (state.score if state.stage == 3 else 0.0,)

    def observe(self, state: ForkState, player: int) -> ForkState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: ForkState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"fork: no action id {action_id} here")
        return action_id

    def action_to_str(self, state: ForkState, action: int) -> str:
        return str(action)

    def observation_tensor(self, state: ForkState, player: int) -> np.ndarray:
        return np.array([state.stage, state.branch], dtype=np.float32)

    def render(self, state: ForkState, player: int | None = None) -> str:
        return f"stage {state.stage} branch {state.branch}"


def test_nothing_is_kept_across_a_chance_outcome() -> None:
    # Open loop the node after the coin is one node for both branches: it must see both branches' actions (its
    # availability counts) and value going on at about 0.6, whichever branch came first.
    # private: the subtree kept between searches is what this test is about
    game = ForkGame()
    state = game.initial_state(None)
    for seed in range(4):
        agent = MCTSAgent(iterations=300, exploration=0.5)
        assert agent.act_in(game, state, 0, np.random.default_rng(seed)) == 1
        after_coin = agent._kept[()] if agent._kept else None
        assert after_coin is not None and set(after_coin.avail) == {0, 1, 2, 3}


class CountedGamble(GambleGame):
    """The thousand-sided gamble, counting the calls a search makes of it."""

    def __init__(self) -> None:
        self.calls = {"apply_unchecked": 0, "chance_outcomes": 0, "action_id": 0}

    def apply_unchecked(self, state: Any, action: int) -> Any:
        self.calls["apply_unchecked"] += 1
        return super().apply_unchecked(state, action)

    def chance_outcomes(self, state: Any) -> tuple[tuple[int, float], ...]:
        self.calls["chance_outcomes"] += 1
        return super().chance_outcomes(state)

    def action_id(self, action: int) -> int:
        self.calls["action_id"] += 1
        return action


def _half(game: Any, state: Any) -> Sequence[float]:
    return (0.5,)


def test_a_widened_chance_node_asks_the_game_for_its_outcomes_once() -> None:
    # Widened, the die's kept rolls are edges of the tree: the die's state is one state, its thousand outcomes and
    # their ids are asked once, and each edge is applied once. Before, every visit asked for the thousand outcomes
    # and their ids again: 174 outcome lists, 175,298 id look-ups and 648 applies in these 300 iterations, where
    # this search makes 1, 1,032 and 43.
    # private: the subtree kept between searches is what this test is about
    game = CountedGamble()
    state = game.initial_state(game.make_options())
    agent = MCTSAgent(iterations=300, chance="widen", rollout_limit=0, evaluate=_half)
    agent.act_in(game, state, 0, np.random.default_rng(0))
    die = agent._kept[()] if agent._kept else None  # the die after the gamble, if the gamble was picked
    rolls = len(die.visits) if die is not None else 0
    assert game.calls["chance_outcomes"] <= 1
    assert rolls > 1
    # act_in's look at the root and the root node's (2 + 2), the die's once, each kept roll's decision (2 each)
    assert game.calls["action_id"] <= 4 + SIDES + 2 * rolls
    assert game.calls["apply_unchecked"] <= 2 + rolls * (1 + 2)  # root's two moves; each roll, then keep and fold
