"""What the player sees (everything: Unbroken has no hidden facts besides future chance), its tensor and a render."""

from __future__ import annotations

import attrs
import numpy as np

from unbroken.content.loader import MAX_ENCOUNTERS, MAX_SKILLS
from unbroken.rules.flow import FRAMES
from unbroken.rules.scoring import score, title
from unbroken.state import CAPS, FLOW, N_RESOURCES, RESOURCES, State

__all__ = ["OBS_SHAPE", "View", "observation", "observe", "render"]

_STEPS = tuple((p.name, s) for p in FLOW.phases for s in p.steps)
_FRAMES = FRAMES
_CONDS = 24
_WEAPONS = 12
_MONSTERS = 24
# resources, level, step, frame kind, monster stats, monster id, weapon, skills, conditions now/next, revealed,
# offered, misc (uses, committed, defend, roll, skip, tricked, outcome, reveal bonus)
_SIZES = (
    N_RESOURCES,
    4,
    len(_STEPS),
    len(_FRAMES),
    4,
    _MONSTERS,
    _WEAPONS,
    MAX_SKILLS,
    _CONDS,
    _CONDS,
    MAX_ENCOUNTERS,
    MAX_SKILLS,
    8,
)
OBS_SHAPE = (sum(_SIZES),)


@attrs.frozen
class View:
    """The player's view: the whole state (there is nothing hidden to redact)."""

    player: int
    state: State


def observe(state: State, player: int) -> View:
    """The player's view of ``state``."""
    return View(player, state)


def observation(view: View) -> np.ndarray:
    """The float32 tensor of a view (shape :data:`OBS_SHAPE`)."""
    s = view.state
    pack = s.pack
    out = np.zeros(OBS_SHAPE, dtype=np.float32)
    offs = np.cumsum((0, *_SIZES))
    for r in range(N_RESOURCES):
        out[offs[0] + r] = s.amount(r) / CAPS[r]
    out[offs[1] + s.level - 1] = 1
    out[offs[2] + _STEPS.index((s.pos.phase, s.pos.step))] = 1
    top = s.pending.top
    if top is not None:
        out[offs[3] + _FRAMES.index(type(top))] = 1
    c = s.combat
    mid = c.monster if c is not None else s.monster
    if c is not None:
        out[offs[4] : offs[4] + 4] = (c.armor / 10, c.max_armor / 10, c.health / 20, c.max_health / 20)
    if mid:
        m = next(i for i, x in enumerate(pack.monsters) if x.id == mid)
        out[offs[5] + m % _MONSTERS] = 1
    w = next(i for i, x in enumerate(pack.weapons) if x.id == s.weapon)
    out[offs[6] + w % _WEAPONS] = 1
    skills = {x.id: i for i, x in enumerate(pack.skills)}
    conds = {x.id: i for i, x in enumerate(pack.conditions)}
    for sid in s.skills:
        out[offs[7] + skills[sid]] = 1
    for cd in s.conditions:
        out[offs[8] + conds[cd.id] % _CONDS] = 1 + cd.tokens
    for cd in s.next_conditions:
        out[offs[9] + conds[cd.id] % _CONDS] = 1 + cd.tokens
    for e in s.revealed:
        out[offs[10] + e] += 1
    for k in s.offered:
        out[offs[11] + k] += 1
    misc = (s.uses, s.committed, c.defend if c else 0, c.roll if c else 0, c.skip if c else 0, s.tricked, s.outcome)
    out[offs[12] : offs[12] + 7] = misc
    out[offs[12] + 7] = s.reveal_bonus
    return out


def render(state: State) -> str:
    """A text picture of the Display: cards by name, the monster's trackers, what ended the game."""
    pack = state.pack
    res = " ".join(f"{name}={state.amount(i)}" for i, name in enumerate(RESOURCES))
    skills = {s.id: s.name for s in pack.skills}
    monsters = {m.id: m for m in pack.monsters}
    lines = [
        f"Level {state.level} {state.pos.phase}/{state.pos.step} ({state.options.difficulty}, "
        f"{pack.character(state.options.character).name}, {state.uses} ability uses)",
        f"resources: {res}",
        f"weapon: {pack.weapon(state.weapon).name}; skills: {', '.join(skills[k] for k in state.skills) or '-'}",
        f"conditions: {', '.join(_cond(state, c.id, c.tokens) for c in state.conditions) or '-'}; "
        f"next Level: {', '.join(pack.condition(c.id).name for c in state.next_conditions) or '-'}",
    ]
    c = state.combat
    if c is not None:
        lines.append(
            f"monster: {monsters[c.monster].name} armor {c.armor}/{c.max_armor} health {c.health}/{c.max_health}"
            f"{' DEFEND' if c.defend else ''}{f' roll {c.roll}' if c.roll else ''}"
        )
    elif state.monster:
        lines.append(f"scouted monster: {monsters[state.monster].name}")
    if state.revealed:
        lines.append("revealed: " + ", ".join(pack.encounters[i].name for i in state.revealed))
    if state.outcome:
        won = state.outcome > 0
        if won:
            lines.append(f"WON with {score(state)} points ({title(score(state))})")
        else:
            why = "starved" if state.pos.step == "hunger" else "could not pay the Effort required"
            lines.append(f"LOST ({why})")
    return "\n".join(lines)


def _cond(state: State, cid: str, tokens: int) -> str:
    name = state.pack.condition(cid).name
    return f"{name} ({tokens} tokens)" if tokens else name
