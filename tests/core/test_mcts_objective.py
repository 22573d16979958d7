"""MCTS's objective: the expected return (the default) or the chance to win (``objective="win"``).

The test game is a standoff: seat 0 either withdraws (the game ends undecided: every return 0, a tie) or fights,
which a chance node wins with probability ``p`` (+1 to seat 0) and loses otherwise (-1). With ``p = 0.3`` the
fight is worth ``2p - 1 = -0.4`` in expected return, less than the sure 0 of a withdrawal, but it is the only move
with any chance to win. The same standoff is played solo, as a two-player zero-sum game (seat 1 never moves and
gets the negation) and as a two-hero co-op game (one shared return), the three ways the win rule judges a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import pytest

from tabletop_core import TabletopError
from tabletop_core.agents import ISMCTSAgent, MCTSAgent
from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.outcomes import seat_outcomes
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

WITHDRAW, FIGHT = 0, 1
WON, LOST = 0, 1


@attrs.frozen
class StandoffOptions:
    """The chance ``p`` that a fight is won, and how the seats share the result."""

    p: float = 0.3
    mode: str = "solo"  # "solo", "zero_sum" or "coop"


@attrs.frozen
class StandoffState:
    """``stage`` 0: seat 0 chooses; 1: the fight's chance node; 2: over, with ``result`` for seat 0."""

    TAG: ClassVar[str] = "standoff.state"
    options: StandoffOptions
    stage: int = 0
    result: float = 0.0


class StandoffGame(Game[StandoffState, int, StandoffOptions]):
    """The rules above; actions and chance outcomes are plain ints."""

    spec = GameSpec(
        short_name="standoff",
        long_name="Standoff test game",
        min_num_players=1,
        max_num_players=2,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=2,
        max_chance_outcomes=2,
        max_game_length=2,
        observation_shape=(2,),
    )
    state_type = StandoffState
    action_type = int
    options_type = StandoffOptions

    def __init__(self, utility: Utility = Utility.GENERAL_SUM) -> None:
        self.spec = attrs.evolve(StandoffGame.spec, utility=utility)

    def initial_state(self, options: StandoffOptions) -> StandoffState:
        return StandoffState(options)

    def num_players(self, state: StandoffState) -> int:
        return 1 if state.options.mode == "solo" else 2

    def current_player(self, state: StandoffState) -> int:
        return (0, CHANCE, TERMINAL)[state.stage]

    def legal_actions(self, state: StandoffState) -> tuple[int, ...]:
        return () if state.stage == 2 else (0, 1)

    def chance_outcomes(self, state: StandoffState) -> tuple[tuple[int, float], ...]:
        p = state.options.p
        return ((WON, p), (LOST, 1.0 - p)) if state.stage == 1 else ()

    def _apply(self, state: StandoffState, action: int) -> StandoffState:
        if state.stage == 0:
            return attrs.evolve(state, stage=2) if action == WITHDRAW else attrs.evolve(state, stage=1)
        return attrs.evolve(state, stage=2, result=1.0 if action == WON else -1.0)

    def returns(self, state: StandoffState) -> tuple[float, ...]:
        r = state.result
        mode = state.options.mode
        return (r,) if mode == "solo" else (r, -r) if mode == "zero_sum" else (r, r)

    def observe(self, state: StandoffState, player: int) -> StandoffState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: StandoffState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"standoff: no action id {action_id} here")
        return action_id

    def action_to_str(self, state: StandoffState, action: int) -> str:
        return ("withdraw", "fight")[action] if state.stage == 0 else ("won", "lost")[action]

    def observation_tensor(self, state: StandoffState, player: int) -> np.ndarray:
        return np.array([state.stage, state.result], dtype=np.float32)

    def render(self, state: StandoffState, player: int | None = None) -> str:
        return f"stage {state.stage} result {state.result}"


GAMES = {
    "solo": StandoffGame(),
    "zero_sum": StandoffGame(Utility.ZERO_SUM),
    "coop": StandoffGame(Utility.IDENTICAL),
}


def _start(mode: str, p: float = 0.3) -> tuple[StandoffGame, StandoffState]:
    game = GAMES[mode]
    return game, game.initial_state(StandoffOptions(p=p, mode=mode))


def test_the_standoff_is_judged_as_the_module_says() -> None:
    # A withdrawal is a tie in every mode (it scores 0 under objective="win"); a won fight is seat 0's win.
    for mode, game in GAMES.items():
        _, state = _start(mode)
        withdrawn = game.apply_unchecked(state, WITHDRAW)
        won = game.apply_unchecked(game.apply_unchecked(state, FIGHT), WON)
        assert set(seat_outcomes(game.spec, game.returns(withdrawn))) == {"tie"}
        assert seat_outcomes(game.spec, game.returns(won))[0] == "win"


@pytest.mark.parametrize("mode", sorted(GAMES))
@pytest.mark.parametrize("agent_type", [MCTSAgent, ISMCTSAgent])
def test_the_win_objective_takes_the_gamble_the_expected_return_declines(mode: str, agent_type: type) -> None:
    # Expected return: withdraw 0 > fight -0.4. Chance to win: fight 0.3 > withdraw 0 (a tie is no win).
    game, state = _start(mode)
    for seed in range(5):
        default = agent_type(iterations=600, exploration=0.5)
        win = agent_type(iterations=600, exploration=0.5, objective="win")
        assert default.act_in(game, state, 0, np.random.default_rng(seed)) == WITHDRAW
        assert win.act_in(game, state, 0, np.random.default_rng(seed)) == FIGHT


def test_both_objectives_fight_a_fight_worth_fighting() -> None:
    # With p = 0.7 the fight is worth +0.4 and wins 70%: the objectives agree, so "win" is no blind gambler.
    game, state = _start("solo", p=0.7)
    for objective in ("return", "win"):
        agent = MCTSAgent(iterations=300, exploration=0.5, objective=objective)
        assert agent.act_in(game, state, 0, np.random.default_rng(0)) == FIGHT


class Fixed:
    """An evaluator that scores every cut rollout with the same returns."""

    def __init__(self, returns: Sequence[float]) -> None:
        self.returns = tuple(returns)

    def __call__(self, game: Any, state: Any) -> Sequence[float]:
        return self.returns


@pytest.mark.parametrize(("evaluated", "expected"), [((0.3, 0.5), WITHDRAW), ((0.5, 0.3), FIGHT)])
def test_a_cut_rollout_is_judged_by_the_win_rule(evaluated: tuple[float, float], expected: int) -> None:
    # rollout_limit=0 cuts the fight's first rollout at the chance node, where the evaluator scores it. Two
    # iterations try each move once and the tie on visits goes to the higher value (then the lower id). The
    # evaluator's (0.3, 0.5) is a loss for seat 0 under the zero-sum rule (the other seat is higher): it scores 0,
    # no better than the withdrawal's tie, though a raw 0.3 would beat it; (0.5, 0.3) is a win and scores 1.
    game, state = _start("zero_sum")
    agent = MCTSAgent(iterations=2, rollout_limit=0, evaluate=Fixed(evaluated), objective="win")
    assert agent.act_in(game, state, 0, np.random.default_rng(0)) == expected
    default = MCTSAgent(iterations=2, rollout_limit=0, evaluate=Fixed(evaluated))
    assert default.act_in(game, state, 0, np.random.default_rng(0)) == FIGHT  # a raw 0.3 or 0.5 beats 0


def test_the_objective_is_an_option_of_the_spec_and_the_repr() -> None:
    game, state = _start("solo")
    agent = parse_agent_spec("mcts:objective=win,iterations=10").build(game, state, 0)
    assert isinstance(agent, MCTSAgent) and agent.objective == "win"
    assert repr(agent).endswith("objective='win')")
    assert "objective" not in repr(MCTSAgent())  # the default's repr is unchanged
    ismcts = parse_agent_spec("ismcts:objective=win").build(game, state, 0)
    assert isinstance(ismcts, ISMCTSAgent) and ismcts.objective == "win"
    with pytest.raises(TabletopError, match="objective"):
        MCTSAgent(objective="score")
