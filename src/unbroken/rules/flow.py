"""The turn structure as the core driver runs it: each step's frame, the end checks, every kind of frame.

The flow position (:data:`unbroken.state.FLOW`) says where play stands when the pending stack is empty; frames on
the stack own the next event. Each frame is defined with the rule it runs (``travel.py``, ``combat.py``,
``effects.py``, ``triggers.py``, ``skills.py``, ``payment.py``, ``setup.py``); :data:`DRIVER` declares which frame
owns each step and checks, before every frame, that the game is over or the monster defeated.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Driver, Pending
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
    MonsterReveal,
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
from unbroken.setup import EasyRoll, SetupStep
from unbroken.state import _POSITIONS, FLOW, State

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


def _top(state: State) -> Frame | None:
    """The top pending frame (``state.pending.top`` without the property's call)."""
    frames = state.pending.frames
    return frames[-1] if frames else None


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


class UnbrokenDriver(Driver[State, Action]):
    """The core :class:`~tabletop_core.flow.Driver` over Unbroken's frames, with its frame lookup and its loop
    written for Unbroken's state: the game is over once it has an outcome; the one end check (:func:`defeated`)
    can fire only on a battle at 0 Health, so it is asked only then; the top pending frame owns the next event,
    else the frame of the position, found by the identity of the shared position values (any other position by its
    phase and step, as the core driver finds it).

    What it gives is the core driver's, event for event (``tests/unbroken/test_speed_s8.py`` plays random games
    through both); it saves the calls of the over test, the end check, the frame lookup and the top reader per
    frame resolved.
    """

    __slots__ = ("_by_pos",)

    def __init__(self) -> None:
        super().__init__(
            "unbroken",
            FLOW,
            STEPS,
            position=attrgetter("pos"),
            top=_top,
            over=_over,
            end_checks=(defeated,),
            on_over=_tidy,
        )
        # Keyed by id: the positions are module constants, kept alive (and their ids unique) by _POSITIONS.
        self._by_pos: dict[int, CoreFrame[State, Any]] = {
            id(pos): STEPS[pos.phase, pos.step] for pos in _POSITIONS.values() if (pos.phase, pos.step) in STEPS
        }
        self.frame = self._unbroken_frame

    def _unbroken_frame(self, state: State) -> CoreFrame[State, Any]:
        frames = state.pending.frames
        if frames:
            return frames[-1]
        frame = self._by_pos.get(id(state.pos))
        return self._frame_of_step(state) if frame is None else frame

    def run(self, state: State) -> State:
        """Resolve automatic frames until a decision, a chance node or the end (see the core ``Driver.run``)."""
        by_pos = self._by_pos
        for _ in range(self.limit):
            if state.outcome:
                state = _tidy(state)
                self._rest = (state, None)
                return state
            c = state.combat
            if c is not None and c.health <= 0:
                fired = defeated(state)
                if fired is not None:
                    state = fired
                    continue  # as the core's round of end checks: the game's end is tested again first
            frames = state.pending.frames
            frame: CoreFrame[State, Any] | None
            if frames:
                frame = frames[-1]
            else:
                frame = by_pos.get(id(state.pos))
                if frame is None:
                    frame = self._frame_of_step(state)
            nxt = None if frame.waits else frame.auto(state)
            if nxt is None:
                self._rest = (state, frame)  # the caller asks who acts here next: it is known
                return state
            state = nxt
        raise self.no_rest(state)


#: The plain core driver over the same frames and checks (what :class:`UnbrokenDriver` is tested against).
PLAIN_DRIVER: Driver[State, Action] = Driver(
    "unbroken",
    FLOW,
    STEPS,
    position=lambda s: s.pos,
    top=_top,
    over=_over,
    end_checks=(defeated,),
    on_over=_tidy,
)

DRIVER: Driver[State, Action] = UnbrokenDriver()
"""The rules as the core driver runs them."""


def run(state: State) -> State:
    """Run the rules until a decision, a chance node or the end of the game."""
    return DRIVER.run(state)


def is_chance(state: State) -> bool:
    """Whether chance acts next."""
    return state.outcome == 0 and isinstance(state.pending.top, DieRoll | CardDraw)
