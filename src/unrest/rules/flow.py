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
from typing import Any, TypeAlias

import attrs

from tabletop_core.flow import Chance, Driver, pending_top
from tabletop_core.flow import Frame as CoreFrame
from unrest import setup
from unrest.actions import Action, Draw, Outcome
from unrest.rules import frames  # noqa: F401  # the decision hook, given to the registry before it is frozen
from unrest.rules.liberation import DrawStep, LiberateStep, Proof
from unrest.rules.round import DefendStep, PlaceStep, PlanStep, TargetStep
from unrest.state import FLOW, FRAMES, UnrestState

__all__ = ["DRIVER", "FRAMES", "DealHand", "DealMissions", "Frame", "LayDistricts", "run"]

#: A frame the pending stack may hold, for annotations: the liberation proof, the game's one pending kind (the
#: registry's union of its pending kinds is what a state's JSON reads).
Frame: TypeAlias = Proof


@FRAMES.register("unrest.lay_districts", pending=False)
@attrs.frozen
class LayDistricts(Chance[UnrestState, Outcome]):
    """Setup step frame: the next District laid in the row (see :func:`unrest.setup.setup_outcomes`)."""

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
        """Uniform over the Districts not yet laid."""
        return setup.setup_outcomes(state)

    def apply(self, state: UnrestState, action: Outcome) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


@FRAMES.register("unrest.deal_hand", pending=False)
@attrs.frozen
class DealHand(Chance[UnrestState, Draw]):
    """Setup step frame: the next card of the opening hand (see :func:`unrest.setup.draw_outcomes`)."""

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Draw, float], ...]:
        """Each card kind left, by its copies."""
        return setup.draw_outcomes(state.deck)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """A ``Draw`` of a kind left in the deck."""
        return isinstance(action, Draw) and state.deck[action.card] > 0

    def apply(self, state: UnrestState, action: Draw) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


@FRAMES.register("unrest.deal_missions", pending=False)
@attrs.frozen
class DealMissions(Chance[UnrestState, Outcome]):
    """Setup step frame: the next Mission dealt beside the Revolution (see :func:`unrest.setup.setup_outcomes`)."""

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Outcome, float], ...]:
        """Uniform over the Missions not yet dealt."""
        return setup.setup_outcomes(state)

    def apply(self, state: UnrestState, action: Outcome) -> UnrestState:
        """See :func:`unrest.setup.apply_setup`."""
        return setup.apply_setup(state, action)


#: The frame that owns each step of :data:`FLOW` while no proof is pending.
STEPS: Mapping[tuple[str, str], CoreFrame[UnrestState, Any]] = {
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


# The core driver, as every game has it.
DRIVER: Driver[UnrestState, Action] = Driver(
    "unrest", FLOW, STEPS, position=attrgetter("pos"), top=pending_top, over=_over, frames=FRAMES
)
"""The rules as the core driver runs them: a frame per step, the pending proof on top, the game over once won."""
FRAMES.bind(UnrestState)  # the pending stack's frames: the union of the pending kinds, by tag (the state's JSON)


def run(state: UnrestState) -> UnrestState:
    """Run the rules until a decision, a chance node or the end of the game."""
    return DRIVER.run(state)
