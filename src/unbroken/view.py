"""What the player sees (everything: Unbroken has no hidden facts besides future chance), its tensor and a render."""

from __future__ import annotations

import attrs
import numpy as np

from tabletop_core.tensor import TensorLayout
from unbroken.actions import Action, Die, DrawCard, Pick
from unbroken.limits import MAX_CONDITIONS, MAX_DECK, MAX_ENCOUNTERS, MAX_MONSTERS, MAX_SKILLS, MAX_WEAPONS
from unbroken.notation import RES_NAMES, action_to_str
from unbroken.rules.combat import CombatRoll, MonsterAct, monster
from unbroken.rules.effects import EffectRoll
from unbroken.rules.flow import DRIVER, FRAMES
from unbroken.rules.scoring import score, title
from unbroken.rules.skills import SkillKeep
from unbroken.rules.travel import DrawEncounters, ExploreMode, ExplorePick
from unbroken.rules.verbs import MonsterReveal
from unbroken.setup import EASY_RESOURCE, EasyRoll
from unbroken.state import CAPS, FLOW, LAST_LEVEL, N_RESOURCES, RESOURCES, State

__all__ = ["LAYOUT", "OBS_SHAPE", "TENSOR_HIGH", "TENSOR_LOW", "View", "describe", "observation", "observe", "render"]

_STEPS = tuple((p.name, s) for p in FLOW.phases for s in p.steps)
#: Scales that bring the monster's trackers near 0..1.
_ARMOR_SCALE, _HEALTH_SCALE = 10, 20
#: The observation tensor, piece by piece. Packs larger than a piece holds are refused when loaded
#: (``limits.py``: ``MAX_WEAPONS``, ``MAX_CONDITIONS``, ...), so no card shares a slot with another.
LAYOUT = TensorLayout(
    (
        ("resources", (N_RESOURCES,)),  # each track's value over its cap
        ("level", (LAST_LEVEL,)),  # one-hot
        ("step", (len(_STEPS),)),  # one-hot (phase, step)
        ("frame", (len(FRAMES.pending),)),  # one-hot kind of the pending frame on top (its slot in FRAMES)
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
#: The least value of the tensor: a lost game's ``outcome`` (every other piece is a count, a flag or a share).
TENSOR_LOW = -1.0
#: The greatest value of the tensor. The rules cap the die (6), the Ability Uses (4), the resources (their caps)
#: and the cards one exploration reveals (the whole deck, at most ``MAX_DECK``), so a Reveal bonus (raised by
#: Orienteer only while it reveals more) past that changes no exploration. The counters the rules leave open (a
#: condition's tokens, a monster's armor and health raised by its own effects, a Reveal bonus stacked by effects)
#: saturate here, far above any the packs reach (the largest seen in play, Reveal bonus aside: 8).
TENSOR_HIGH = float(MAX_DECK)


@attrs.frozen
class View:
    """The player's view: the whole state (there is nothing hidden to redact)."""

    player: int
    state: State

    def svg(self, *, width: int = 800) -> str:
        """This view as an SVG picture, ``width`` pixels wide (:func:`unbroken.picture.picture`)."""
        from unbroken.picture import picture

        return picture(self, width=width)

    def _repr_svg_(self) -> str:
        """The picture, for notebooks (Jupyter shows it inline)."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


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
    np.minimum(out, TENSOR_HIGH, out=out)
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


# ----- per-seat descriptions: what happened, in words (solo, perfect information: everything is shown) ---------------


def describe(before: State, action: Action, after: State, player: int | None = None) -> tuple[str, ...]:
    """What the transition ``before --action--> after`` did, as short lines in words.

    Unbroken is solo with perfect information, so every line is shown whoever asks (``player`` is ignored): the
    move or chance event ("you reveal the encounter Rotten Bridge", "the monster rolls 6: ..."), then what it did
    to the resources (before and after amounts), the monster's trackers, the weapon, skills and conditions, the
    step reached, and the end of the game.
    """
    lines = [_event(before, action)]
    if not isinstance(DRIVER.frame(before), CombatRoll) and _row_resolved(before, after):
        c = before.combat
        assert c is not None
        row = monster(before).table[c.roll - 1]
        lines.append(f"the {monster(before).name}'s Combat Action: {row.text or row.kind.upper()}")
    lines += _changes(before, after)
    return tuple(line for line in lines if line)


def _event(s: State, action: Action) -> str:
    frame = DRIVER.frame(s)
    if isinstance(action, Die):
        face = action.face
        if isinstance(frame, MonsterReveal):
            return f"you roll {face}: the monster of Level {s.level} is the {s.pack.monster_for(s.level, face).name}"
        if isinstance(frame, CombatRoll):
            row = monster(s).table[face - 1]
            again = "re-rolls" if frame.reroll else "rolls"
            return f"the {monster(s).name} {again} {face}: {row.text or row.kind.upper()}"
        if isinstance(frame, EasyRoll):
            return (
                f"you roll {face} for the extra starting resource: +1 {RES_NAMES[RESOURCES[EASY_RESOURCE[face - 1]]]}"
            )
        if isinstance(frame, EffectRoll):
            kind, _, cid = frame.src.partition(":")
            name = s.pack.condition(cid).name if kind == "condition" else cid.replace("_", " ")
            hit = face <= frame.n
            return f"you roll {face} for {name} (at most {frame.n}: {'yes' if hit else 'no'})"
        return f"you roll {face}"
    if isinstance(action, DrawCard):
        if isinstance(frame, DrawEncounters):
            return f"you reveal the encounter {s.pack.encounters[action.index].name}"
        return f"you reveal the skill {s.pack.skills[action.index].name}"
    text = action_to_str(s, action)
    if isinstance(frame, ExploreMode):
        name = s.pack.encounters[frame.card].name
        return f"you {'resolve' if text == 'resolve' else 'rest at'} the encounter {name}"
    if isinstance(action, Pick) and isinstance(frame, ExplorePick | SkillKeep):
        what = "encounter" if isinstance(frame, ExplorePick) else "skill"
        return f"you keep the {what} {frame.label(s, action.i)}"
    if isinstance(action, Pick):
        return f"you choose: {text.split(' ', 2)[2] if text.count(' ') >= 2 else text}"
    return f"you {text}"


def _row_resolved(before: State, after: State) -> bool:
    """Whether the monster's rolled Combat Action took effect in this transition (after its Responses)."""
    waiting = sum(isinstance(f, MonsterAct) for f in before.pending.frames)
    return (
        waiting > 0
        and before.combat is not None
        and sum(isinstance(f, MonsterAct) for f in after.pending.frames) < waiting
    )


def _amounts(before: State, after: State) -> str:
    parts = [
        f"{RES_NAMES[name]} {before.amount(r)} -> {after.amount(r)}"
        for r, name in enumerate(RESOURCES)
        if before.amount(r) != after.amount(r)
    ]
    return "resources: " + ", ".join(parts) if parts else ""


def _changes(before: State, after: State) -> list[str]:
    pack = after.pack
    out = [_amounts(before, after)]
    if after.monster and after.monster != before.monster:
        out.append(f"the monster is revealed: the {pack.monster_for_id(after.monster).name}")
    b, a = before.combat, after.combat
    if a is not None:
        name = pack.monster_for_id(a.monster).name
        if b is None or b.monster != a.monster:
            out.append(f"the {name} is on the Monster Tracker: Armor {a.armor}, Health {a.health}")
        else:
            for label, x, y in (("Armor", b.armor, a.armor), ("Health", b.health, a.health)):
                if x != y:
                    out.append(f"the {name}'s {label} {x} -> {y}")
            if a.defend and not b.defend:
                out.append(f"the {name} will DEFEND against your next weapon attack")
    elif b is not None and after.outcome == 0:
        out.append(f"the {pack.monster_for_id(b.monster).name} is discarded")
    if after.weapon != before.weapon:
        out.append(f"your weapon is now {pack.weapon(after.weapon).name}")
    for sid in after.skills[len(before.skills) :]:
        out.append(f"you gain the skill {next(x.name for x in pack.skills if x.id == sid)}")
    now = {c.id: c.tokens for c in after.conditions}
    was = {c.id: c.tokens for c in before.conditions}
    for cid in now.keys() - was.keys():
        out.append(f"you gain the condition {pack.condition(cid).name}")
    for cid in was.keys() - now.keys():
        out.append(f"the condition {pack.condition(cid).name} ends")
    for c in after.next_conditions[len(before.next_conditions) :]:
        out.append(f"you will have {pack.condition(c.id).name} next Level")
    if after.level != before.level:
        out.append(f"Level {after.level} begins")
    elif (after.pos.phase, after.pos.step) != (before.pos.phase, before.pos.step) and after.outcome == 0:
        out.append(f"now: {after.pos.phase} phase, {after.pos.step} step")
    if after.outcome and not before.outcome:
        won = after.outcome > 0
        out.append(f"you win with {score(after)} points ({title(score(after))})" if won else "you lose")
    return out
