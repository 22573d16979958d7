"""Test games for the adapters: a one-player dice game, Kuhn poker declaring perfect recall, and Nim (no chance).

*Solo*: a setup roll gives a starting score of ``face // 3`` (0-2). Each turn the player rolls up to three times,
adding the face to the turn total, and may hold at any time to bank it; a bust face loses the turn total and ends
the turn. The game ends when the score reaches the target or the turns run out; with ``scoring=WIN`` the return is 1
for reaching the target and 0 otherwise, with ``scoring=POINTS`` it is ``min(score, target) / target``.

Its options cover every kind of OpenSpiel parameter the adapter maps: ints, an enum and a tuple (as JSON).
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

import attrs
import numpy as np

from tabletop_core import CHANCE, TERMINAL, ChanceMode, Game, GameSpec, IllegalActionError, Information, Utility
from tabletop_core.testing.kuhn import Kuhn

__all__ = [
    "GAME",
    "KUHN_RECALL",
    "NIM",
    "Face",
    "Move",
    "Nim",
    "Scoring",
    "Solo",
    "SoloOptions",
    "SoloState",
    "SoloView",
]

ROLL, HOLD = 0, 1
MAX_ROLLS = 3
MAX_TURNS = 5


class Scoring(Enum):
    """How the final score becomes a return."""

    WIN = "win"
    POINTS = "points"


def _bust_faces(_inst: object, _attr: object, value: tuple[int, ...]) -> None:
    if not value or len(value) >= 6 or any(f not in range(1, 7) for f in value) or len(set(value)) != len(value):
        raise ValueError(f"bust_faces must be 1-5 distinct faces in 1..6, got {value!r}")


@attrs.frozen
class SoloOptions:
    """The target score, the number of turns, the faces that bust and the scoring (built from JSON values too)."""

    target: int = attrs.field(default=8, validator=attrs.validators.in_(range(1, 21)))
    turns: int = attrs.field(default=3, validator=attrs.validators.in_(range(1, MAX_TURNS + 1)))
    bust_faces: tuple[int, ...] = attrs.field(default=(1,), converter=tuple, validator=_bust_faces)
    scoring: Scoring = attrs.field(default=Scoring.WIN, converter=Scoring)


@attrs.frozen
class Move:
    """Roll again (``ROLL``) or bank the turn total (``HOLD``)."""

    TAG: ClassVar[str] = "solo.move"
    move: int = attrs.field(validator=attrs.validators.in_((ROLL, HOLD)))


@attrs.frozen
class Face:
    """A chance outcome: the die shows ``value``."""

    TAG: ClassVar[str] = "solo.face"
    value: int = attrs.field(validator=attrs.validators.in_(range(1, 7)))


@attrs.frozen
class SoloState:
    """The whole game: there is nothing hidden."""

    TAG: ClassVar[str] = "solo.state"
    options: SoloOptions
    setup_done: bool = False
    score: int = 0
    turn: int = 0
    turn_total: int = 0
    rolls: int = 0
    rolling: bool = False


@attrs.frozen
class SoloView:
    """What the player sees: everything but the options."""

    score: int
    turn: int
    turn_total: int
    rolls: int
    rolling: bool


class Solo(Game[SoloState, Move | Face, SoloOptions]):
    """The rules of Solo."""

    spec = GameSpec(
        short_name="solo",
        long_name="Solo push-your-luck",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=1.0,
        num_distinct_actions=2,
        max_chance_outcomes=6,
        max_game_length=1 + MAX_TURNS * (2 * MAX_ROLLS + 1),
        observation_shape=(7,),
        tensor_bounds=(0.0, 1.0),
    )
    state_type = SoloState
    action_type = Move | Face
    options_type = SoloOptions

    def initial_state(self, options: SoloOptions) -> SoloState:
        return SoloState(options)

    def current_player(self, state: SoloState) -> int:
        if not state.setup_done or state.rolling:
            return CHANCE
        if state.score >= state.options.target or state.turn >= state.options.turns:
            return TERMINAL
        return 0

    def legal_actions(self, state: SoloState) -> tuple[Move | Face, ...]:
        player = self.current_player(state)
        if player == CHANCE:
            return tuple(a for a, _ in self.chance_outcomes(state))
        if player == TERMINAL:
            return ()
        return (Move(ROLL), Move(HOLD)) if state.rolls < MAX_ROLLS else (Move(HOLD),)

    def chance_outcomes(self, state: SoloState) -> tuple[tuple[Move | Face, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        return tuple((Face(v), 1 / 6) for v in range(1, 7))

    def _apply(self, state: SoloState, action: Move | Face) -> SoloState:
        if isinstance(action, Face):
            if not state.setup_done:
                return attrs.evolve(state, setup_done=True, score=action.value // 3)
            if action.value in state.options.bust_faces:
                return attrs.evolve(state, rolling=False, turn=state.turn + 1, turn_total=0, rolls=0)
            return attrs.evolve(state, rolling=False, turn_total=state.turn_total + action.value)
        if action.move == ROLL:
            return attrs.evolve(state, rolling=True, rolls=state.rolls + 1)
        return attrs.evolve(state, score=state.score + state.turn_total, turn=state.turn + 1, turn_total=0, rolls=0)

    def returns(self, state: SoloState) -> tuple[float, ...]:
        if self.current_player(state) != TERMINAL:
            return (0.0,)
        target = state.options.target
        if state.options.scoring == Scoring.WIN:
            return (1.0 if state.score >= target else 0.0,)
        return (min(state.score, target) / target,)

    def observe(self, state: SoloState, player: int) -> SoloView:
        return SoloView(state.score, state.turn, state.turn_total, state.rolls, state.rolling)

    def action_id(self, action: Move | Face) -> int:
        return action.value - 1 if isinstance(action, Face) else action.move

    def action_from_id(self, state: SoloState, action_id: int) -> Move | Face:
        try:
            return Face(action_id + 1) if self.current_player(state) == CHANCE else Move(action_id)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"solo: no action with id {action_id!r}") from exc

    def action_to_str(self, state: SoloState, action: Move | Face) -> str:
        if isinstance(action, Face):
            return f"face {action.value}"
        return "roll" if action.move == ROLL else "hold"

    def observation_tensor(self, state: SoloState, player: int) -> np.ndarray:
        view = self.observe(state, player)
        return np.array(
            [view.score / 20, view.turn / MAX_TURNS, view.turn_total / 20, view.rolls / MAX_ROLLS, view.rolling, 1, 0],
            dtype=np.float32,
        )

    def render(self, state: SoloState, player: int | None = None) -> str:
        return f"score {state.score}, turn {state.turn}, turn total {state.turn_total}, rolls {state.rolls}"


GAME = Solo()


class KuhnRecall(Kuhn):
    """Kuhn poker declaring what is true of it: a player's view (own card, whole betting history) is perfect recall."""

    spec = attrs.evolve(Kuhn.spec, short_name="kuhn_recall", provides_information_state=True)


KUHN_RECALL = KuhnRecall()


@attrs.frozen
class NimOptions:
    """The size of the starting pile."""

    pile: int = attrs.field(default=10, validator=attrs.validators.in_(range(1, 21)))


@attrs.frozen
class Take:
    """Take ``count`` (1-3) stones."""

    TAG: ClassVar[str] = "nim.take"
    count: int = attrs.field(validator=attrs.validators.in_((1, 2, 3)))


@attrs.frozen
class NimState:
    """The pile and whose turn it is."""

    TAG: ClassVar[str] = "nim.state"
    options: NimOptions
    pile: int
    to_move: int = 0


@attrs.frozen
class NimView:
    """Everything: Nim hides nothing."""

    pile: int
    to_move: int


class Nim(Game[NimState, Take, NimOptions]):
    """Nim with one pile: take 1-3 stones; whoever takes the last stone wins. No chance, nothing hidden."""

    spec = GameSpec(
        short_name="nim",
        long_name="Nim",
        min_num_players=2,
        max_num_players=2,
        chance_mode=ChanceMode.DETERMINISTIC,
        information=Information.PERFECT,
        utility=Utility.ZERO_SUM,
        min_utility=-1.0,
        max_utility=1.0,
        num_distinct_actions=3,
        max_chance_outcomes=0,
        max_game_length=20,
        observation_shape=(3,),
        utility_sum=0.0,
        tensor_bounds=(0.0, 1.0),
    )
    state_type = NimState
    action_type = Take
    options_type = NimOptions

    def initial_state(self, options: NimOptions) -> NimState:
        return NimState(options, options.pile)

    def current_player(self, state: NimState) -> int:
        return TERMINAL if state.pile == 0 else state.to_move

    def legal_actions(self, state: NimState) -> tuple[Take, ...]:
        return tuple(Take(c) for c in (1, 2, 3) if c <= state.pile)

    def chance_outcomes(self, state: NimState) -> tuple[tuple[Take, float], ...]:
        return ()

    def _apply(self, state: NimState, action: Take) -> NimState:
        return attrs.evolve(state, pile=state.pile - action.count, to_move=1 - state.to_move)

    def returns(self, state: NimState) -> tuple[float, ...]:
        if state.pile:
            return (0.0, 0.0)
        winner = 1 - state.to_move  # the player who just took the last stone
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def observe(self, state: NimState, player: int) -> NimView:
        return NimView(state.pile, state.to_move)

    def action_id(self, action: Take) -> int:
        return action.count - 1

    def action_from_id(self, state: NimState, action_id: int) -> Take:
        try:
            return Take(action_id + 1)
        except (TypeError, ValueError) as exc:
            raise IllegalActionError(f"nim: no action with id {action_id!r}") from exc

    def action_to_str(self, state: NimState, action: Take) -> str:
        return f"take {action.count}"

    def observation_tensor(self, state: NimState, player: int) -> np.ndarray:
        return np.array([state.pile / 20, state.to_move == player, state.to_move != player], dtype=np.float32)

    def render(self, state: NimState, player: int | None = None) -> str:
        return f"pile {state.pile}, player {state.to_move} to move"


NIM = Nim()
