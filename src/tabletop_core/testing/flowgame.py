"""Reveal-and-keep: the core's test game on the flow driver (typed frames, a pending stack, chance, a loop guard).

Each of three rounds: the *draw* phase reveals two cards from a pile of five (two chance nodes); the *choose* phase
pushes a :class:`Choose` frame (keep one of the two revealed cards) that becomes a :class:`ResolveOrRest` frame
(score the kept card, or rest for 1 point); the unkept card is discarded. The pile reshuffles its discards when it
runs out. After three rounds the game is over.

The whole rule set is the frames below (each registered in :data:`FRAMES`) and the :data:`DRIVER` declaration;
:class:`FlowGame` is delegations plus the game's codec, notation and view. ``docs/adding-a-game.md`` walks through
it.

>>> state = GAME.new_game(seed=4)
>>> GAME.describe_step(state)
'choose/keep, round 1 (Choose(cards=(5, 3)))'
>>> state = GAME.step(state, GAME.parse_action(state, "keep 5"))
>>> state = GAME.step(state, GAME.parse_action(state, "resolve"), rng=np.random.default_rng(0))
>>> state.score, state.position.round
(5, 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import attrs
import numpy as np

from tabletop_core.components import Pile
from tabletop_core.errors import IllegalActionError
from tabletop_core.fastcopy import replace
from tabletop_core.flow import Chance, Decision, Driven, Driver, Flow, FrameRegistry, Pending, Phase, Position
from tabletop_core.spec import CHANCE, ChanceMode, GameSpec, Information, Utility

__all__ = [
    "DRIVER",
    "FLOW",
    "FRAMES",
    "GAME",
    "Choose",
    "FlowGame",
    "FlowOptions",
    "FlowState",
    "Pick",
    "ResolveOrRest",
    "Reveal",
]

FLOW = Flow((Phase("draw", ("reveal",)), Phase("choose", ("keep", "resolve"))))
ROUNDS = 3
#: Every kind of frame of the game, each registered where it is defined; the driver freezes it.
FRAMES: FrameRegistry[FlowState] = FrameRegistry("flowgame")


@attrs.frozen
class FlowOptions:
    """No options."""


@attrs.frozen
class Reveal:
    """Chance outcome: the card revealed."""

    TAG: ClassVar[str] = "flowgame.reveal"
    card: int


@attrs.frozen
class Pick:
    """Decision: keep the card (in a Choose frame), or 0 = resolve / 1 = rest (in a ResolveOrRest frame)."""

    TAG: ClassVar[str] = "flowgame.pick"
    value: int


Action = Reveal | Pick


@attrs.frozen
class FlowState:
    """Position in the flow, the pile, the revealed cards, the pending frames and the score."""

    TAG: ClassVar[str] = "flowgame.state"
    options: FlowOptions
    position: Position
    pile: Pile[int]
    revealed: tuple[int, ...]
    pending: Pending[Frame]  # the registry's pending kinds (bound below, once the driver has frozen it)
    score: int


if TYPE_CHECKING:
    Frame: TypeAlias = Decision[FlowState, Any]


# ----- the rules: one frame per kind of event ---------------------------------------------------------------------


@FRAMES.register("flowgame.reveal_card", pending=False)
class RevealCard(Chance[FlowState, Reveal]):
    """The draw step: chance reveals a card; with two revealed, play moves on and the keep choice is pushed."""

    def chance_outcomes(self, state: FlowState) -> tuple[tuple[Reveal, float], ...]:
        return tuple((Reveal(c), p) for c, p in state.pile.draw_outcomes())

    def apply(self, state: FlowState, action: Reveal) -> FlowState:
        revealed = (*state.revealed, action.card)
        state = replace(state, pile=state.pile.draw(action.card), revealed=revealed)
        if len(revealed) < 2:
            return state
        return replace(state, position=FLOW.next(state.position), pending=state.pending.push(Choose(revealed)))


@FRAMES.register("flowgame.choose")
@attrs.frozen
class Choose(Decision[FlowState, Pick]):
    """Frame: keep one of the revealed cards (the other is discarded)."""

    seat = 0
    cards: tuple[int, ...]

    def legal_actions(self, state: FlowState) -> tuple[Pick, ...]:
        return tuple(Pick(c) for c in sorted(set(self.cards)))

    def apply(self, state: FlowState, action: Pick) -> FlowState:
        others = list(self.cards)
        others.remove(action.value)
        pending = state.pending.replace_top(ResolveOrRest(action.value))
        return replace(state, pile=state.pile.discard(others[0]), pending=pending, position=FLOW.next(state.position))


@FRAMES.register("flowgame.resolve")
@attrs.frozen
class ResolveOrRest(Decision[FlowState, Pick]):
    """Frame: score the kept card (``Pick(0)``) or rest for 1 point (``Pick(1)``); the round ends."""

    seat = 0
    card: int

    def legal_actions(self, state: FlowState) -> tuple[Pick, ...]:
        return (Pick(0), Pick(1))

    def apply(self, state: FlowState, action: Pick) -> FlowState:
        gain = self.card if action.value == 0 else 1
        return replace(
            state,
            pile=state.pile.discard(self.card),
            pending=state.pending.pop(),
            revealed=(),
            score=state.score + gain,
            position=FLOW.next(state.position),
        )


DRIVER: Driver[FlowState, Action] = Driver(
    "flowgame",
    FLOW,
    {("draw", "reveal"): RevealCard()},
    position=lambda s: s.position,
    top=lambda s: s.pending.top,
    over=lambda s: s.position.round > ROUNDS,
    frames=FRAMES,
)
"""The rules as the driver runs them: the draw step is chance; the choose steps are owned by their frames."""
FRAMES.bind(FlowState)


# ----- the game: delegations, codec, notation, view --------------------------------------------------------------


class FlowGame(Driven[FlowState, Action, FlowOptions]):
    """The rules above."""

    spec = GameSpec(
        short_name="flowgame",
        long_name="Flow test game",
        min_num_players=1,
        max_num_players=1,
        chance_mode=ChanceMode.EXPLICIT_STOCHASTIC,
        information=Information.PERFECT,
        utility=Utility.GENERAL_SUM,
        min_utility=0.0,
        max_utility=15.0,
        num_distinct_actions=6,
        max_chance_outcomes=6,
        max_game_length=ROUNDS * 4,
        observation_shape=(4,),
    )
    state_type = FlowState
    action_type = Action
    options_type = FlowOptions
    driver = DRIVER

    def initial_state(self, options: FlowOptions) -> FlowState:
        return DRIVER.run(FlowState(options, FLOW.start(), Pile.of([1, 2, 3, 4, 5]), (), Pending(), 0))

    def returns(self, state: FlowState) -> tuple[float, ...]:
        return (float(state.score),)

    def observe(self, state: FlowState, player: int) -> FlowState:
        return state

    def action_id(self, action: Action) -> int:
        return action.card if isinstance(action, Reveal) else action.value

    def action_from_id(self, state: FlowState, action_id: int) -> Action:
        if not 0 <= action_id < 6:
            raise IllegalActionError(f"flowgame: no action id {action_id}")
        return Reveal(action_id) if self.current_player(state) == CHANCE else Pick(action_id)

    def action_to_str(self, state: FlowState, action: Action) -> str:
        if isinstance(action, Reveal):
            return f"reveal {action.card}"
        if isinstance(state.pending.top, Choose):
            return f"keep {action.value}"
        return "resolve" if action.value == 0 else "rest"

    def observation_tensor(self, state: FlowState, player: int) -> np.ndarray:
        top = state.pending.top
        return np.array(
            [state.position.round, state.score, len(state.revealed), 0 if top is None else 1], dtype=np.float32
        )

    def render(self, state: FlowState, player: int | None = None) -> str:
        return f"round {state.position.round} {state.position.phase}/{state.position.step} score {state.score}"


GAME = FlowGame()
