"""Agents and the MCTS/ISMCTS bot."""

from __future__ import annotations

from typing import Any

import attrs
import numpy as np
import pytest

from tabletop_core import FirstAgent, RandomAgent, TabletopError, play
from tabletop_core.agents import Agent, MCTSAgent, SearchAgent
from tabletop_core.testing.kuhn import GAME, Kuhn, KuhnState
from tests.core.flowgame import GAME as FLOW_GAME


def _mean_return(agents: list[Any], games: int, seat: int = 0) -> float:
    total = 0.0
    for seed in range(games):
        _, record = play(GAME, agents, seed=seed)
        assert record.returns is not None
        total += record.returns[seat]
    return total / games


def test_agents_satisfy_their_protocols() -> None:
    assert isinstance(RandomAgent(), Agent) and isinstance(FirstAgent(), Agent)
    assert isinstance(MCTSAgent(), SearchAgent)


def test_ismcts_beats_random_at_kuhn_poker() -> None:
    searched = _mean_return([MCTSAgent(iterations=60), RandomAgent()], 300)
    baseline = _mean_return([RandomAgent(), RandomAgent()], 300)
    assert searched > baseline + 0.15


def test_mcts_outscores_random_in_a_game_with_chance() -> None:
    def mean(agent: Any) -> float:
        total = 0.0
        for seed in range(60):
            state, _ = play(FLOW_GAME, [agent], seed=seed)
            total += FLOW_GAME.returns(state)[0]
        return total / 60

    assert mean(MCTSAgent(iterations=60)) > mean(RandomAgent()) + 1.0


class MarkedDeterminize(Kuhn):
    """Determinizes by giving the opponent card 2 whatever it holds, so a test can see what a searcher got."""

    def determinize(self, state: KuhnState, player: int, rng: np.random.Generator) -> KuhnState:
        if len(state.hands) < 2:
            return state
        hands = list(state.hands)
        hands[1 - player] = -1
        return attrs.evolve(state, hands=tuple(hands))


class Spy:
    """A search agent that records the states it is handed."""

    def __init__(self) -> None:
        self.seen: list[KuhnState] = []

    def act_in(self, game: Any, state: KuhnState, player: int, rng: np.random.Generator) -> Any:
        self.seen.append(state)
        return game.legal_actions(state)[0]


def test_search_agents_get_a_determinization_never_the_true_state() -> None:
    spy = Spy()
    play(MarkedDeterminize(), [spy, RandomAgent()], seed=3)
    assert spy.seen and all(s.hands[1] == -1 for s in spy.seen)


def test_mcts_rejects_a_useless_budget() -> None:
    with pytest.raises(TabletopError, match="iterations"):
        MCTSAgent(iterations=0)


def test_mcts_is_reproducible_from_the_seed() -> None:
    runs = [play(GAME, [MCTSAgent(iterations=30), MCTSAgent(iterations=30)], seed=5)[1].actions for _ in range(2)]
    assert runs[0] == runs[1]
