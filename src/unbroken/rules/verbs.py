"""The verbs the phases, the effect language and the triggers share: each changes the state (or reads it) and
pushes no frame of theirs, so ``travel.py``, ``combat.py``, ``effects.py`` and ``triggers.py`` all call it from
below (the weapon in hand, laying or dropping a weapon sheet, gains, the monster's tracker, losing the game, the
die that reveals the monster).
"""

from __future__ import annotations

from typing import Any

import attrs

from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Pending
from unbroken.actions import Action, Die
from unbroken.content.schema import Op, Weapon
from unbroken.rules.chance import DieRoll
from unbroken.rules.resources import Res, no_time_tracker
from unbroken.rules.tables import tables
from unbroken.state import FRAMES, RES, TIME, Combat, State, track_at

__all__ = [
    "MonsterReveal",
    "amount",
    "die",
    "gained",
    "lay_weapon",
    "new_combat",
    "restored_weapons",
    "weapon",
    "weapon_down",
]


def amount(state: State, op: Op) -> int:
    """The op's amount at the state's Level (``scale = "level"`` multiplies it by the Level)."""
    return op.n * (state.level if op.scale == "level" else 1)


def weapon(state: State) -> Weapon:
    """The equipped weapon's card."""
    return tables(state).weapons[state.weapons[-1]]


def die(state: State, **changes: Any) -> State:
    """The player could not pay Effort: the game is lost (a finished game keeps no pending frames); ``changes``
    to other fields in the same copy."""
    return replace(state, outcome=-1, pending=Pending(), **changes)


def gained(state: State, res: Res, ops: tuple[Op, ...]) -> Res:
    """The tracks ``res`` after the ``gain`` ops one after the other (each as
    :func:`~unbroken.rules.resources.gain`; amounts at the state's Level)."""
    out = list(res)
    for op in ops:
        n = amount(state, op)
        if n > 0:
            r = RES[op.res]
            if r == TIME and no_time_tracker(state):
                continue
            t = out[r]
            out[r] = track_at(t, r, min(t.high, t.value + n))
    return tuple(out)


def lay_weapon(state: State, weapon: str) -> State:
    """Lay ``weapon``'s sheet on top ("When you Craft a new Weapon, lay the new Weapon Sheet on top of the old
    sheet"); a sheet set aside is that same sheet, taken back (there is never a second sheet of one weapon)."""
    return replace(state, weapons=(*state.weapons, weapon), aside=tuple(w for w in state.aside if w != weapon))


def restored_weapons(state: State) -> tuple[str, ...]:
    """The weapon stack once temporary downgrades end: the sheets set aside return in the reverse order they left
    (the last set aside lies just above the current weapon), each only on the weapon it upgrades; a sheet that no
    longer fits (another upgrade was crafted meanwhile) goes back to the Weapon Deck."""
    stack = list(state.weapons)
    for w in reversed(state.aside):
        if w not in stack and any(u.to == w for u in tables(state).weapons[stack[-1]].upgrades):
            stack.append(w)
    return tuple(stack)


def weapon_down(state: State, perm: bool) -> State:
    """Downgrade the weapon: the previous one becomes current; Bare Hands is never lost."""
    if len(state.weapons) <= 1:
        return state
    top = state.weapon
    aside = state.aside if perm else (*state.aside, top)
    return replace(state, weapons=state.weapons[:-1], aside=aside)


def new_combat(state: State) -> Combat:
    """The Monster Tracker set from the revealed monster's sheet."""
    m = tables(state).monsters[state.monster]
    return Combat(m.id, m.armor, m.armor, m.health, m.health)


@FRAMES.register("unbroken.monster_reveal", slot=14)
@accelerate
@attrs.frozen
class MonsterReveal(DieRoll):
    """Chance frame: the die reveals this Level's monster ("MONSTER NUMBER"), by Scouting or at the Ambush or
    Trickery Step."""

    def face_up(self, state: State, face: int) -> State:
        """The monster of this Level numbered ``face``."""
        return replace(state, monster=state.pack.monster_for(state.level, face).id)

    def apply(self, state: State, action: Action) -> State:
        """Pop the roll and reveal the monster, in one copy (see :meth:`face_up`)."""
        assert isinstance(action, Die)
        return state.pop(monster=state.pack.monster_for(state.level, action.face).id)
