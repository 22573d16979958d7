"""A one-player corridor of fatal choices, and a guide bot that knows the way.

At each of ``DEPTH`` steps the player picks one of ``WIDTH`` doors; one door (``safe_door(step)``) leads on, every
other ends the game with 0. Passing every step returns 1. A random rollout almost never gets through
(``(1 / WIDTH) ** steps left``), so random rollouts cannot tell a safe door from a fatal one; the guide
(``Game.default_agents``) always takes the safe door, as a game's heuristic bot knows a rule of thumb.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs
import numpy as np

from tabletop_core.errors import IllegalActionError
from tabletop_core.game import Game
from tabletop_core.spec import TERMINAL, ChanceMode, GameSpec, Information, Utility

DEPTH = 6
WIDTH = 8


def safe_door(step: int) -> int:
    """The door that leads on at ``step``."""
    return (3 * step + 5) % WIDTH


@attrs.frozen
class CorridorOptions:
    """No options."""


@attrs.frozen
class CorridorState:
    """``step`` doors passed; ``dead`` after a fatal door."""

    TAG: ClassVar[str] = "corridor.state"
    options: CorridorOptions
    step: int = 0
    dead: bool = False


class Guide:
    """Always takes the safe door."""

    def act(self, view: Any, legal_actions: Sequence[int], rng: np.random.Generator) -> int:
        """The safe door of the step in ``view`` (the full state)."""
        return safe_door(view.step)


class CorridorGame(Game[CorridorState, int, CorridorOptions]):
    """The rules above; doors are plain ints."""

    spec = GameSpec(
        short_name="corridor",
        long_name="Corridor test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=WIDTH,
        max_chance_outcomes=0,
        max_game_length=DEPTH,
        observation_shape=(2,),
    )
    state_type = CorridorState
    action_type = int
    options_type = CorridorOptions

    def initial_state(self, options: CorridorOptions) -> CorridorState:
        return CorridorState(options)

    def current_player(self, state: CorridorState) -> int:
        return TERMINAL if state.dead or state.step == DEPTH else 0

    def legal_actions(self, state: CorridorState) -> tuple[int, ...]:
        return () if self.current_player(state) == TERMINAL else tuple(range(WIDTH))

    def chance_outcomes(self, state: CorridorState) -> tuple[tuple[int, float], ...]:
        return ()

    def _apply(self, state: CorridorState, action: int) -> CorridorState:
        if action != safe_door(state.step):
            return attrs.evolve(state, dead=True)
        return attrs.evolve(state, step=state.step + 1)

    def returns(self, state: CorridorState) -> tuple[float, ...]:
        return (1.0 if state.step == DEPTH else 0.0,)

    def observe(self, state: CorridorState, player: int) -> CorridorState:
        return state

    def action_id(self, action: int) -> int:
        return action

    def action_from_id(self, state: CorridorState, action_id: int) -> int:
        if action_id not in self.legal_actions(state):
            raise IllegalActionError(f"corridor: no door {action_id} here")
        return action_id

    def action_to_str(self, state: CorridorState, action: int) -> str:
        return f"door {action}"

    def observation_tensor(self, state: CorridorState, player: int) -> np.ndarray:
        return np.array([state.step, state.dead], dtype=np.float32)

    def render(self, state: CorridorState, player: int | None = None) -> str:
        return f"step {state.step}{' (dead)' if state.dead else ''}"

    def default_agents(self, state: CorridorState) -> list[Any]:
        return [Guide()]


GAME = CorridorGame()
