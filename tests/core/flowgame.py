"""A small solo game built on the phase/step machine and the pending stack (the proof that both work).

Each of three rounds: the *draw* phase reveals two cards from a pile (two chance nodes); the *choose* phase pushes a
``Choose`` frame (keep one of the two revealed cards) and then a ``ResolveOrRest`` frame (score the kept card, or
rest for 1 point); the unkept card is discarded. The pile reshuffles its discards when it runs out.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from tabletop_core.components import Pile
from tabletop_core.errors import IllegalActionError
from tabletop_core.flow import Flow, Pending, Phase, Position
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL, ChanceMode, GameSpec, Information, Utility

FLOW = Flow((Phase("draw", ("reveal",)), Phase("choose", ("keep", "resolve"))))
ROUNDS = 3


@attrs.frozen
class FlowOptions:
    """No options."""


@attrs.frozen
class Choose:
    """Frame: keep one of the revealed cards."""

    TAG: ClassVar[str] = "flowgame.choose"
    cards: tuple[int, ...]


@attrs.frozen
class ResolveOrRest:
    """Frame: score the kept card or rest."""

    TAG: ClassVar[str] = "flowgame.resolve"
    card: int


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


@attrs.frozen
class FlowState:
    """Position in the flow, the pile, the revealed cards, the pending frames and the score."""

    TAG: ClassVar[str] = "flowgame.state"
    options: FlowOptions
    position: Position
    pile: Pile[int]
    revealed: tuple[int, ...]
    pending: Pending[Choose | ResolveOrRest]
    score: int


class FlowGame(Game[FlowState, Reveal | Pick, FlowOptions]):
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
    action_type = Reveal | Pick
    options_type = FlowOptions

    def initial_state(self, options: FlowOptions) -> FlowState:
        return FlowState(options, FLOW.start(), Pile.of([1, 2, 3, 4, 5]), (), Pending(), 0)

    def current_player(self, state: FlowState) -> int:
        if state.position.round > ROUNDS:
            return TERMINAL
        return 0 if state.pending else CHANCE

    def legal_actions(self, state: FlowState) -> tuple[Reveal | Pick, ...]:
        top = state.pending.top
        if isinstance(top, Choose):
            return tuple(Pick(c) for c in sorted(set(top.cards)))
        if isinstance(top, ResolveOrRest):
            return (Pick(0), Pick(1))
        return tuple(a for a, _ in self.chance_outcomes(state))

    def chance_outcomes(self, state: FlowState) -> tuple[tuple[Reveal | Pick, float], ...]:
        if self.current_player(state) != CHANCE:
            return ()
        return tuple((Reveal(c), p) for c, p in state.pile.draw_outcomes())

    def _apply(self, state: FlowState, action: Reveal | Pick) -> FlowState:
        top = state.pending.top
        if isinstance(action, Reveal):
            revealed = (*state.revealed, action.card)
            state = attrs.evolve(state, pile=state.pile.draw(action.card), revealed=revealed)
            if len(revealed) == 2:
                pos = FLOW.next(state.position)
                state = attrs.evolve(state, position=pos, pending=state.pending.push(Choose(revealed)))
            return state
        if isinstance(top, Choose):
            others = list(top.cards)
            others.remove(action.value)
            pile = state.pile.discard(others[0])
            pending = state.pending.replace_top(ResolveOrRest(action.value))
            return attrs.evolve(state, pile=pile, pending=pending, position=FLOW.next(state.position))
        assert isinstance(top, ResolveOrRest)
        gain = top.card if action.value == 0 else 1
        return attrs.evolve(
            state,
            pile=state.pile.discard(top.card),
            pending=state.pending.pop(),
            revealed=(),
            score=state.score + gain,
            position=FLOW.next(state.position),
        )

    def returns(self, state: FlowState) -> tuple[float, ...]:
        return (float(state.score),)

    def observe(self, state: FlowState, player: int) -> FlowState:
        return state

    def action_id(self, action: Reveal | Pick) -> int:
        return action.card if isinstance(action, Reveal) else action.value

    def action_from_id(self, state: FlowState, action_id: int) -> Reveal | Pick:
        if not 0 <= action_id < 6:
            raise IllegalActionError(f"flowgame: no action id {action_id}")
        return Reveal(action_id) if self.current_player(state) == CHANCE else Pick(action_id)

    def action_to_str(self, state: FlowState, action: Reveal | Pick) -> str:
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
