"""Unbroken's action notation: what :func:`action_to_str` writes and :func:`parse_action` reads back.

The grammar (case and spacing are not significant when reading)::

    verb        fight | explore | focus | inspiration | plan | orienteer | scout | downgrade | skip | trick
                | rest | resolve | pass
    eat         "eat" N                       Hunger: eat N Food
    craft       "craft" WEAPON-ID             a Craft option of the equipped weapon
    attack      "attack" ATTACK-NAME          a weapon attack of the equipped weapon
    use         "use" ABILITY-NAME            a character or skill action
    respond     "respond" I ABILITY-NAME      activated Response/Passive I of the pending trigger
    pick        "pick" I LABEL                option I of the pending choice (a revealed encounter, a skill,
                                              a branch, which Effort pays)
    roll        "roll" FACE [":" MEANING]     a Slashes Die outcome (read with or without its meaning)
    draw        "draw" CARD-NAME              an encounter or skill drawn (card names are unique per deck)

>>> import unbroken
>>> s = unbroken.new_game(difficulty="easy")
>>> action_to_str(s, unbroken.legal_actions(s)[4])
'roll 5: +1 Medium Effort'
>>> parse_action(s, "Roll 5") == unbroken.legal_actions(s)[4]
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from tabletop_core.actions import action_text
from unbroken.actions import VERBS, Act, Action, Attack, Craft, Die, DrawCard, Eat, Respond, Use
from unbroken.content.loader import get_pack
from unbroken.content.schema import RESOURCES, Op
from unbroken.rules.cards import label
from unbroken.rules.chance import CardDraw, DieRoll
from unbroken.rules.combat import CombatRoll, monster
from unbroken.rules.effects import EffectRoll
from unbroken.rules.flow import DRIVER
from unbroken.rules.listing import action_abilities
from unbroken.rules.payment import Decide
from unbroken.rules.travel import DrawEncounters
from unbroken.rules.triggers import Trig
from unbroken.rules.verbs import MonsterReveal
from unbroken.setup import EASY_RESOURCE, EasyRoll
from unbroken.state import State

__all__ = ["RES_NAMES", "action_to_str", "ops_text", "parse_action", "pick_label", "roll_text"]

#: Resource names as the rulebook writes them.
RES_NAMES = dict(
    zip(
        RESOURCES,
        ("Small Effort", "Medium Effort", "Large Effort", "Cunning", "Food", "Wood", "Metal", "Treasure", "Time"),
        strict=True,
    )
)
_ROLLS: dict[str, Action] = {f"roll {f}": Die(f) for f in range(1, 7)}


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def action_to_str(state: State, action: Action) -> str:
    """A short readable form: ``explore``, ``attack cleave``, ``pick 1 Lichen Wall``, ``roll 6: ...``."""
    pack = state.pack
    top = state.pending.top
    if isinstance(action, Die):
        return roll_text(state, action.face)
    if isinstance(action, DrawCard):
        deck = pack.encounters if isinstance(top, DrawEncounters) else pack.skills
        return f"draw {deck[action.index].name}" if action.index < len(deck) else f"draw #{action.index}"
    if isinstance(action, Act):
        return VERBS[action.verb]
    if isinstance(action, Eat):
        return f"eat {action.n}"
    if isinstance(action, Craft):
        ups = pack.weapon(state.weapon).upgrades
        return f"craft {ups[action.i].to}" if action.i < len(ups) else f"craft #{action.i}"
    if isinstance(action, Attack):
        attacks = pack.weapon(state.weapon).attacks
        return f"attack {attacks[action.i].name}" if action.i < len(attacks) else f"attack #{action.i}"
    if isinstance(action, Use):
        abilities = action_abilities(state)
        if action.i < len(abilities):
            src, index, _ = abilities[action.i]
            return f"use {label(state, src, index)}"
        return f"use #{action.i}"
    if isinstance(action, Respond):
        if isinstance(top, Trig) and action.i < len(top.cands):
            c = top.cands[action.i]
            return f"respond {action.i} {label(state, c.src, c.index)}"
        return f"respond {action.i}"
    return f"pick {action.i} {pick_label(state, action.i)}"


def pick_label(state: State, i: int) -> str:
    """What ``Pick(i)`` chooses at the pending frame (empty when the frame names no option ``i``)."""
    frame = DRIVER.frame(state)
    return frame.label(state, i) if isinstance(frame, Decide) else ""


def parse_action(state: State, text: str) -> Action | None:
    """The legal action that reads as ``text`` (draws and rolls are read directly), else ``None``.

    Raises:
        IllegalActionError: when ``text`` is not a ``str`` (see :func:`tabletop_core.actions.action_text`).
    """
    wanted = _norm(action_text("unbroken", text))
    if state.outcome:
        return None
    frame = DRIVER.frame(state)
    if isinstance(frame, DieRoll | CardDraw):
        found: Action | None = None
        head = " ".join(wanted.replace(":", " ").split()[:2])
        if isinstance(frame, DieRoll) and head in _ROLLS:
            found = _ROLLS[head]
        elif isinstance(frame, CardDraw) and wanted.startswith("draw "):
            deck = "enc" if isinstance(frame, DrawEncounters) else "skill"
            index = _names(state.options.pack, state.options.pack_sha256, deck).get(wanted[5:])
            found = None if index is None else DrawCard(index)
        return found if found is not None and frame.is_legal(state, found) else None
    for action in DRIVER.legal_actions(state):
        if _norm(action_to_str(state, action)) == wanted:
            return action
    return None


def ops_text(ops: tuple[Op, ...]) -> str:
    """A short reading of an effect list (for roll outcomes)."""
    parts = []
    for o in ops:
        words = o.op.replace("_", " ")
        if o.res in RES_NAMES:
            words += f" {o.n} {RES_NAMES[o.res]}"
        elif o.id:
            words += f" {o.id.replace('_', ' ')}"
        elif o.n:
            words += f" {o.n}"
        parts.append(words)
    return ", ".join(parts) or "no effect"


def roll_text(state: State, face: int) -> str:
    """``roll N: what it means``: the monster revealed, the Combat Action rolled, an effect's branch."""
    top = state.pending.top
    text = f"roll {face}"
    if not isinstance(top, DieRoll) or not 1 <= face <= 6:
        return text
    if isinstance(top, MonsterReveal):
        return f"{text}: {state.pack.monster_for(state.level, face).name}"
    if isinstance(top, EasyRoll):
        return f"{text}: +1 {RES_NAMES[RESOURCES[EASY_RESOURCE[face - 1]]]}"
    if isinstance(top, CombatRoll) and state.combat is not None:
        row = monster(state).table[face - 1]
        return f"{text}: {row.text or row.kind.upper()}"
    if isinstance(top, EffectRoll):
        kind, _, cid = top.src.partition(":")
        name = state.pack.condition(cid).name if kind == "condition" else cid.replace("_", " ")
        return f"{text}: {name}: {ops_text(top.then if face <= top.n else top.alt)}"
    return text


@functools.lru_cache(maxsize=32)
def _names(pack: str, digest: str, deck: str) -> Mapping[str, int]:
    """Card name -> pack index for reading draws (a read-only view: the memo is shared)."""
    p = get_pack(pack, digest)
    names = [c.name for c in p.encounters] if deck == "enc" else [c.name for c in p.skills]
    return MappingProxyType({_norm(n): i for i, n in reversed(list(enumerate(names)))})
