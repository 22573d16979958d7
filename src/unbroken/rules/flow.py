"""The turn structure as the core driver runs it: each step's frame, the end checks, every kind of frame.

The flow position (:data:`unbroken.state.FLOW`) says where play stands when the pending stack is empty; frames on
the stack own the next event. Each frame is defined with the rule it runs (``travel.py``, ``combat.py``,
``effects.py``, ``triggers.py``, ``verbs.py``, ``skills.py``, ``payment.py``, ``setup.py``) and registered there in
:data:`unbroken.state.FRAMES`; :data:`DRIVER` declares which frame owns each step, freezes the registry and checks,
before every frame, that the game is over or the monster defeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any, TypeAlias

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Driver, Pending, pending_top
from tabletop_core.flow import Frame as CoreFrame
from unbroken.actions import Action

# Every module that defines frames is imported before the driver freezes the registry (most for their step frames
# or the end check; effects, payment, skills, triggers and verbs for the frames they register).
from unbroken.rules import effects, payment, skills, triggers, verbs  # noqa: F401  # their frames register
from unbroken.rules.chance import CardDraw, DieRoll
from unbroken.rules.combat import AmbushStep, BattleStep, HungerStep, RewardsStep, TrickeryStep, defeated
from unbroken.rules.travel import Onward, Preparation
from unbroken.setup import SetupStep
from unbroken.state import FLOW, FRAMES, State

__all__ = ["DRIVER", "FRAMES", "Frame", "is_chance", "run"]

#: A frame of the game, for annotations (every kind is registered in :data:`FRAMES`, which the driver freezes).
Frame: TypeAlias = CoreFrame[State, Any]


def _over(state: State) -> bool:
    return state.outcome != 0


def _tidy(state: State) -> State:
    """A finished game keeps no pending frames."""
    return replace(state, pending=Pending()) if state.pending else state


#: The frame that owns each step while nothing is pending.
STEPS: Mapping[tuple[str, str], CoreFrame[State, Any]] = {
    ("setup", "setup"): SetupStep(),
    ("travel", "preparation"): Preparation(),
    ("travel", "decision"): Onward(),
    ("travel", "exploration"): Onward(),
    ("combat", "ambush"): AmbushStep(),
    ("combat", "trickery"): TrickeryStep(),
    ("combat", "battle"): BattleStep(),
    ("combat", "rewards"): RewardsStep(),
    ("combat", "hunger"): HungerStep(),
}


DRIVER: Driver[State, Action] = Driver(
    "unbroken",
    FLOW,
    STEPS,
    position=attrgetter("pos"),
    top=pending_top,
    over=_over,
    end_checks=(defeated,),
    on_over=_tidy,
    frames=FRAMES,
)
"""The rules as the core driver runs them."""
FRAMES.bind(State)  # the pending stack's frames: the union of the pending kinds, by tag (the state's JSON)


def run(state: State) -> State:
    """Run the rules until a decision, a chance node or the end of the game."""
    return DRIVER.run(state)


def is_chance(state: State) -> bool:
    """Whether chance acts next."""
    return state.outcome == 0 and isinstance(state.pending.top, DieRoll | CardDraw)
