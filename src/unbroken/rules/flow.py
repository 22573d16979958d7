"""The turn structure as the core driver runs it: each step's frame, the end checks, every kind of frame.

The flow position (:data:`unbroken.state.FLOW`) says where play stands when the pending stack is empty; frames on
the stack own the next event. Each frame is defined with the rule it runs (``travel.py``, ``combat.py``,
``effects.py``, ``triggers.py``, ``verbs.py``, ``skills.py``, ``payment.py``, ``setup.py``); :data:`DRIVER`
declares which frame owns each step and checks, before every frame, that the game is over or the monster defeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Driver, Pending, pending_top
from tabletop_core.flow import Frame as CoreFrame
from unbroken.actions import Action
from unbroken.rules.chance import CardDraw, DieRoll
from unbroken.rules.combat import (
    AmbushStep,
    AttackLands,
    BattleStep,
    CombatRoll,
    EndOfCombat,
    ExtraAttack,
    HungerStep,
    MonsterAct,
    MonsterTurn,
    PlayerTurn,
    RewardsStep,
    ToHunger,
    TrickeryStep,
    TurnStart,
    defeated,
)
from unbroken.rules.effects import Choose, EffectRoll, Exec
from unbroken.rules.payment import PayChoice
from unbroken.rules.skills import DrawSkills, SkillKeep
from unbroken.rules.travel import (
    DrawEncounters,
    ExploreCommitted,
    ExploreEnd,
    ExploreMode,
    ExplorePick,
    Onward,
    Preparation,
)
from unbroken.rules.triggers import Fire, Trig
from unbroken.rules.verbs import MonsterReveal
from unbroken.setup import EasyRoll, SetupStep
from unbroken.state import FLOW, State

__all__ = ["DRIVER", "FRAMES", "Frame", "is_chance", "run"]

#: Every kind of frame the pending stack can hold (the tagged union of a state's JSON).
Frame = (
    Exec
    | Choose
    | EffectRoll
    | Fire
    | Trig
    | PayChoice
    | DrawSkills
    | SkillKeep
    | EasyRoll
    | DrawEncounters
    | ExplorePick
    | ExploreMode
    | ExploreCommitted
    | ExploreEnd
    | MonsterReveal
    | TurnStart
    | PlayerTurn
    | ExtraAttack
    | AttackLands
    | MonsterTurn
    | CombatRoll
    | MonsterAct
    | ToHunger
    | EndOfCombat
    # step frames, on the stack only while a payment choice waits under their decision
    | Preparation
    | TrickeryStep
    | HungerStep
)
FRAMES = Frame.__args__
attrs.resolve_types(State, localns={"Frame": Frame})


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
)
"""The rules as the core driver runs them."""


def run(state: State) -> State:
    """Run the rules until a decision, a chance node or the end of the game."""
    return DRIVER.run(state)


def is_chance(state: State) -> bool:
    """Whether chance acts next."""
    return state.outcome == 0 and isinstance(state.pending.top, DieRoll | CardDraw)
