"""Responses and Passives: which abilities a trigger activates, and the rules for resolving them.

Rulebook: "Response effects listed on Monster Sheets and Condition Cards are mandatory, while those on Character
Sheets and Skill Cards are optional. Unless noted otherwise, Responses can only activate once per trigger ... If
the same trigger activates several Responses, the player may choose the sequence" and "Passive effects are always
resolved after any applicable Responses. If several Passive effects are in play, the player chooses the order."
An ordering is offered only when it can change the outcome: activated effects made only of commuting ops
(:data:`COMMUTING`) resolve in card order without a decision.
"""

from __future__ import annotations

from unbroken.content.schema import Ability, Op
from unbroken.rules.resources import can_pay
from unbroken.state import Cand, State, Trig

__all__ = ["COMMUTING", "abilities_of", "available", "fire", "in_play", "label", "statics"]

#: Ops whose results do not depend on the order they are applied in.
COMMUTING = frozenset({"gain", "monster_gain", "condition"})


def in_play(state: State) -> list[tuple[str, tuple[Ability, ...]]]:
    """Every card in play with its abilities: character, skills, active conditions, the monster in combat."""
    pack = state.pack
    out: list[tuple[str, tuple[Ability, ...]]] = [
        (f"character:{state.options.character}", pack.character(state.options.character).abilities)
    ]
    skills = {s.id: s for s in pack.skills}
    out += [(f"skill:{s}", skills[s].abilities) for s in state.skills]
    out += [(f"condition:{c.id}", pack.condition(c.id).abilities) for c in state.conditions]
    if state.combat is not None:
        mons = {m.id: m for m in pack.monsters}
        out.append((f"monster:{state.combat.monster}", mons[state.combat.monster].abilities))
    return out


def abilities_of(state: State, src: str) -> tuple[Ability, ...]:
    """The abilities of the card ``src`` (``kind:id``) if it is in play, else ``()``."""
    for s, abilities in in_play(state):
        if s == src:
            return abilities
    return ()


def label(state: State, src: str, index: int) -> str:
    """A short name for ability ``index`` of card ``src``."""
    abilities = abilities_of(state, src)
    name = abilities[index].name if index < len(abilities) else ""
    return name or src.split(":", 1)[1].replace("_", " ")


def statics(state: State, op: str) -> list[Op]:
    """The ops named ``op`` of every static ability in play."""
    return [
        e for _, abilities in in_play(state) for a in abilities if a.kind == "static" for e in a.effects if e.op == op
    ]


def fire(state: State, trigger: str) -> Trig | None:
    """The frame of Responses activated by ``trigger`` (``None`` if nothing responds or passes)."""
    cands: list[Cand] = []
    for src, abilities in in_play(state):
        optional = src.startswith(("character:", "skill:"))
        for i, a in enumerate(abilities):
            if a.trigger == trigger and a.kind in ("response", "passive"):
                cands.append(Cand(src, i, optional and a.kind == "response"))
    if not cands:
        return None
    return Trig(trigger, tuple(cands), 0)


def _ability(state: State, cand: Cand) -> Ability | None:
    abilities = abilities_of(state, cand.src)
    return abilities[cand.index] if cand.index < len(abilities) else None


def available(state: State, frame: Trig) -> list[tuple[int, Cand]]:
    """The still-usable candidates of the frame's current stage, with their positions in ``frame.cands``."""
    kind = "response" if frame.stage == 0 else "passive"
    out = []
    for i, c in enumerate(frame.cands):
        a = _ability(state, c)
        if a is None or a.kind != kind:
            continue
        if c.src.startswith("character:") and state.uses <= 0:
            continue
        if not can_pay(state, a.cost):
            continue
        out.append((i, c))
    return out


def commute(state: State, cands: list[tuple[int, Cand]]) -> bool:
    """Whether resolving these candidates in any order gives the same result."""
    for _, c in cands:
        a = _ability(state, c)
        if a is None or a.cost or any(e.op not in COMMUTING for e in a.effects):
            return False
    return True
