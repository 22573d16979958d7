"""What the player sees (everything: Unbroken has no hidden facts besides future chance), its tensor and a render."""

from __future__ import annotations

import attrs
import numpy as np

from tabletop_core.tensor import TensorLayout
from unbroken.content.loader import MAX_CONDITIONS, MAX_ENCOUNTERS, MAX_MONSTERS, MAX_SKILLS, MAX_WEAPONS
from unbroken.rules.flow import FRAMES
from unbroken.rules.scoring import score, title
from unbroken.state import CAPS, FLOW, LAST_LEVEL, N_RESOURCES, RESOURCES, State

__all__ = ["LAYOUT", "OBS_SHAPE", "View", "observation", "observe", "render"]

_STEPS = tuple((p.name, s) for p in FLOW.phases for s in p.steps)
#: Scales that bring the monster's trackers near 0..1.
_ARMOR_SCALE, _HEALTH_SCALE = 10, 20
#: The observation tensor, piece by piece. Packs larger than a piece holds are refused when loaded
#: (``content/loader.py``: ``MAX_WEAPONS``, ``MAX_CONDITIONS``, ...), so no card shares a slot with another.
LAYOUT = TensorLayout(
    (
        ("resources", (N_RESOURCES,)),  # each track's value over its cap
        ("level", (LAST_LEVEL,)),  # one-hot
        ("step", (len(_STEPS),)),  # one-hot (phase, step)
        ("frame", (len(FRAMES),)),  # one-hot kind of the pending frame on top
        ("monster_trackers", (4,)),  # armor, max armor, health, max health (scaled)
        ("monster", (MAX_MONSTERS,)),  # one-hot by pack index (in combat, or scouted)
        ("weapon", (MAX_WEAPONS,)),  # one-hot by pack index
        ("skills", (MAX_SKILLS,)),  # 1 per skill held
        ("conditions", (MAX_CONDITIONS,)),  # 1 + its tokens, per active condition
        ("next_conditions", (MAX_CONDITIONS,)),  # 1 + its tokens, per condition for the next Level
        ("revealed", (MAX_ENCOUNTERS,)),  # copies revealed, per encounter
        ("offered", (MAX_SKILLS,)),  # copies offered, per skill
        ("uses", (1,)),
        ("committed", (1,)),
        ("defend", (1,)),
        ("roll", (1,)),
        ("skip", (1,)),
        ("tricked", (1,)),
        ("outcome", (1,)),
        ("reveal_bonus", (1,)),
    )
)
OBS_SHAPE = LAYOUT.shape


@attrs.frozen
class View:
    """The player's view: the whole state (there is nothing hidden to redact)."""

    player: int
    state: State


def observe(state: State, player: int) -> View:
    """The player's view of ``state``."""
    return View(player, state)


def observation(view: View) -> np.ndarray:
    """The float32 tensor of a view (see :data:`LAYOUT`)."""
    s = view.state
    pack = s.pack
    out, v = LAYOUT.new()
    for r in range(N_RESOURCES):
        v["resources"][r] = s.amount(r) / CAPS[r]
    v["level"][s.level - 1] = 1
    v["step"][_STEPS.index((s.pos.phase, s.pos.step))] = 1
    top = s.pending.top
    if top is not None:
        v["frame"][FRAMES.index(type(top))] = 1
    c = s.combat
    mid = c.monster if c is not None else s.monster
    if c is not None:
        trackers = (c.armor / _ARMOR_SCALE, c.max_armor / _ARMOR_SCALE, c.health / _HEALTH_SCALE)
        v["monster_trackers"][:] = (*trackers, c.max_health / _HEALTH_SCALE)
    if mid:
        v["monster"][next(i for i, x in enumerate(pack.monsters) if x.id == mid)] = 1
    v["weapon"][next(i for i, x in enumerate(pack.weapons) if x.id == s.weapon)] = 1
    skills = {x.id: i for i, x in enumerate(pack.skills)}
    conds = {x.id: i for i, x in enumerate(pack.conditions)}
    for sid in s.skills:
        v["skills"][skills[sid]] = 1
    for cd in s.conditions:
        v["conditions"][conds[cd.id]] = 1 + cd.tokens
    for cd in s.next_conditions:
        v["next_conditions"][conds[cd.id]] = 1 + cd.tokens
    for e in s.revealed:
        v["revealed"][e] += 1
    for k in s.offered:
        v["offered"][k] += 1
    v["uses"][0] = s.uses
    v["committed"][0] = s.committed
    v["tricked"][0] = s.tricked
    v["outcome"][0] = s.outcome
    v["reveal_bonus"][0] = s.reveal_bonus
    if c is not None:
        v["defend"][0], v["roll"][0], v["skip"][0] = c.defend, c.roll, c.skip
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
