"""The turn structure as the core driver runs it: which frame owns each step of :data:`unrest.state.FLOW`.

Setup is three chance steps (the row, the opening hand, the Missions; the frames below, over
:mod:`unrest.setup`); a round is the Rebellion's target and plan, the Empire's defence, the Rebellion's placement
(:mod:`unrest.rules.round`), then the liberation check, its proofs and the draw (:mod:`unrest.rules.liberation`).
Each frame says who acts, what may be done and what an action does, or resolves by itself; :data:`DRIVER` runs
them until a decision, a chance node or the end, checking first that nobody has won.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any, ClassVar

import attrs

from tabletop_core.flow import Chance, Driver, Frame
from unrest import setup
from unrest.actions import Action, Draw, Outcome
from unrest.rules.liberation import DrawStep, LiberateStep, Proof
from unrest.rules.round import DefendStep, PlaceStep, PlanStep, TargetStep
from unrest.state import FLOW, POSITIONS, UnrestState

__all__ = ["DRIVER", "DealHand", "DealMissions", "LayDistricts", "run"]

attrs.resolve_types(UnrestState, localns={"Proof": Proof})


@attrs.frozen
class LayDistricts(Chance[UnrestState, Outcome]):
    """Setup step frame: the next District laid in the row (see :func:`unrest.setup.setup_outcomes`)."""

    TAG: ClassVar[str] = "unrest.lay_districts"

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
        """Uniform over the Districts not yet laid."""
        return setup.setup_outcomes(state)

    def apply(self, state: UnrestState, action: Outcome) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


@attrs.frozen
class DealHand(Chance[UnrestState, Draw]):
    """Setup step frame: the next card of the opening hand (see :func:`unrest.setup.draw_outcomes`)."""

    TAG: ClassVar[str] = "unrest.deal_hand"

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Draw, float], ...]:
        """Each card kind left, by its copies."""
        return setup.draw_outcomes(state.deck)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """A ``Draw`` of a kind left in the deck."""
        return isinstance(action, Draw) and state.deck[action.card] > 0

    def apply(self, state: UnrestState, action: Draw) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


@attrs.frozen
class DealMissions(Chance[UnrestState, Outcome]):
    """Setup step frame: the next Mission dealt beside the Revolution (see :func:`unrest.setup.setup_outcomes`)."""

    TAG: ClassVar[str] = "unrest.deal_missions"

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
        """Uniform over the Missions not yet dealt."""
        return setup.setup_outcomes(state)

    def apply(self, state: UnrestState, action: Outcome) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


#: The frame that owns each step of :data:`FLOW` while no proof is pending.
STEPS: Mapping[tuple[str, str], Frame[UnrestState, Any]] = {
    ("setup", "districts"): LayDistricts(),
    ("setup", "hand"): DealHand(),
    ("setup", "missions"): DealMissions(),
    ("rebellion", "target"): TargetStep(),
    ("rebellion", "plan"): PlanStep(),
    ("empire", "defend"): DefendStep(),
    ("execute", "place"): PlaceStep(),
    ("end", "liberate"): LiberateStep(),
    ("end", "draw"): DrawStep(),
}


def _over(state: UnrestState) -> bool:
    return state.winner >= 0


class UnrestDriver(Driver[UnrestState, Action]):
    """The core :class:`~tabletop_core.flow.Driver` over Unrest's frames, with its frame lookup and its loop
    written for Unrest's state: the game is over once won (no other end check), the top pending proof owns the
    next event, else the frame of the position, found by the identity of the shared position values
    (:data:`unrest.state.POSITIONS`; any other position by its phase and step, as the core driver finds it).

    What it gives is the core driver's, event for event (``tests/unrest/test_speed_rules.py`` plays random games
    through both); it saves a lookup function, a property and two dict lookups per frame found.
    """

    __slots__ = ("_by_pos",)

    def __init__(self) -> None:
        super().__init__("unrest", FLOW, STEPS, position=attrgetter("pos"), top=attrgetter("pending.top"), over=_over)
        # Keyed by id: the positions are module constants, kept alive (and their ids unique) by POSITIONS.
        self._by_pos: dict[int, Frame[UnrestState, Any]] = {
            id(pos): STEPS[pos.phase, pos.step] for pos in POSITIONS.values() if (pos.phase, pos.step) in STEPS
        }
        self.frame = self._unrest_frame

    def _unrest_frame(self, state: UnrestState) -> Frame[UnrestState, Any]:
        frames = state.pending.frames
        if frames:
            return frames[-1]
        frame = self._by_pos.get(id(state.pos))
        return self._frame_of_step(state) if frame is None else frame

    def apply(self, state: UnrestState, action: Action) -> UnrestState:
        """Apply ``action`` (known to be legal) through the owning frame, then run to the next rest (the core
        ``Driver.apply``), with the two commonest rests found without the loop: a step frame whose own action kept
        its position (every Unrest step moves on in the same copy when its action leaves it nothing to do, so it
        is at rest: ``tests/unrest/test_speed_s8.py`` checks it), and a new position whose frame waits."""
        rest = self._rest
        frame = rest[1] if rest[0] is state and rest[1] is not None else self.frame(state)
        nxt: UnrestState = frame.apply(state, action)
        if nxt.winner < 0 and not nxt.pending.frames:
            pos = nxt.pos
            if pos is state.pos and not state.pending.frames:
                self._rest = (nxt, frame)
                return nxt
            first = self._by_pos.get(id(pos))
            if first is not None and first.waits:
                self._rest = (nxt, first)
                return nxt
        return self.run(nxt)

    def run(self, state: UnrestState) -> UnrestState:
        """Resolve automatic frames until a decision, a chance node or the end (see the core ``Driver.run``)."""
        by_pos = self._by_pos
        # Most steps come to rest at once, at the frame of the new position: found, and asked to resolve by
        # itself, without the loop's set-up.
        if state.winner < 0 and not state.pending.frames:
            first = by_pos.get(id(state.pos))
            if first is not None:
                moved = None if first.waits else first.auto(state)
                if moved is None:
                    self._rest = (state, first)
                    return state
                state = moved
        for _ in range(self.limit):
            if state.winner >= 0:
                self._rest = (state, None)
                return state
            frames = state.pending.frames
            frame: Frame[UnrestState, Any]
            if frames:
                frame = frames[-1]
            else:
                found = by_pos.get(id(state.pos))
                frame = self._frame_of_step(state) if found is None else found
            nxt = None if frame.waits else frame.auto(state)
            if nxt is None:
                self._rest = (state, frame)  # the caller asks who acts here next: it is known
                return state
            state = nxt
        raise self.no_rest(state)


DRIVER: Driver[UnrestState, Action] = UnrestDriver()
"""The rules as the core driver runs them: a frame per step, the pending proof on top, the game over once won."""


def run(state: UnrestState) -> UnrestState:
    """Run the rules until a decision, a chance node or the end of the game."""
    return DRIVER.run(state)
