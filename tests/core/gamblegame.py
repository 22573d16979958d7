"""A one-decision gamble with a thousand chance outcomes, whose follow-up depends on the outcome.

The player either takes ``safe`` points or gambles: a 1000-sided die shows ``v`` in ``0 .. 999`` (each 1/1000),
then the player keeps ``v / 999`` or folds for ``fold``. With ``fold = 0.45`` the gamble is worth
``E[max(v, 0.45)]`` = 0.601 to a player who keeps only the high rolls, but 0.5 to one who must decide before seeing
the roll. So with ``safe = 0.53`` the right first move is the gamble, which an open-loop search (that averages the
follow-up over every roll) gets wrong.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

SIDES = 1000
SAFE, GAMBLE = 0, 1
KEEP, FOLD = 0, 1


@attrs.frozen
class GambleOptions:
    """The sure points and the fold value."""

    safe: float = 0.53
    fold: float = 0.45


@attrs.frozen
class GambleState:
    """``stage`` 0: choose; 1: the die rolls; 2: keep or fold; 3: over."""

    TAG: ClassVar[str] = "gamble.state"
    options: GambleOptions
    stage: int = 0
    roll: int = -1
    score: float = 0.0


class GambleGame(Game[GambleState, int, GambleOptions]):
    """The rules above; decisions and die faces are plain ints."""

    spec = GameSpec(
        short_name="gamble",
        long_name="Gamble test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=2,
        max_chance_outcomes=SIDES,
        max_game_length=3,
        observation_shape=(3,),
    )
    state_type = GambleState
    action_type = int
    options_type = GambleOptions

    def initial_state(self, options: GambleOptions) -> GambleState:
        return GambleState(options)

    def current_player(self, state: GambleState) -> int:
        return (0, CHANCE, 0, TERMINAL)[state.stage]

    def legal_actions(self, state: GambleState) -> tuple[int, ...]:
        if state.stage == 1:
            return tuple(range(SIDES))
        return () if state.stage == 3 else (0, 1)

    def chance_outcomes(self, state: GambleState) -> tuple[tuple[int, float], ...]:
        return tuple((v, 1.0 / SIDES) for v in range(SIDES)) if state.stage == 1 else ()

    def _apply(self, state: GambleState, action: int) -> GambleState:
        if state.stage == 0:
            if action == SAFE:
                return attrs.evolve(state, stage=3, score=state.options.safe)
            return attrs.evolve(state, stage=1)
        if state.stage == 1:
            return attrs.evolve(state, stage=2, roll=action)
        score = state.roll / (SIDES - 1) if action == KEEP else state.options.fold
        return attrs.evolve(state, stage=3, score=score)

    def returns(self, state: GambleState) -> tuple[float, ...]:
        return (state.score if state.stage == 3 else 0.0,)

    def observe(self, state: GambleState, player: int) -> GambleState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: GambleState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"gamble: no action id {action_id} here")
        return action_id

    def action_to_str(self, state: GambleState, action: int) -> str:
        if state.stage == 1:
            return f"roll {action}"
        return ("safe", "gamble")[action] if state.stage == 0 else ("keep", "fold")[action]

    def observation_tensor(self, state: GambleState, player: int) -> np.ndarray:
        return np.array([state.stage, state.roll, state.score], dtype=np.float32)

    def render(self, state: GambleState, player: int | None = None) -> str:
        return f"stage {state.stage} roll {state.roll} score {state.score}"


GAME = GambleGame()
