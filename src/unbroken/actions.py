"""Unbroken's actions: small sequential decisions with stable ids, and the chance outcomes.

Decision ids (``range(NUM_ACTIONS)``): verbs ``Act`` 0-15, ``Pick`` 16-31, ``Craft`` 32-35, ``Attack`` 36-43,
``Use`` 44-75, ``Respond`` 76-91, ``Eat`` 92-99. Chance outcome ids (``range(MAX_CHANCE)``): ``Die`` face-1 at a
roll, ``DrawCard`` the card's index in the pack at a draw.

>>> action_id(Act(EXPLORE)), action_id(Attack(1)), action_id(Eat(2))
(1, 37, 94)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from unbroken.content.loader import MAX_ENCOUNTERS

__all__ = [
    "CRAFT_BASE",
    "DOWNGRADE",
    "EXPLORE",
    "FIGHT",
    "FOCUS",
    "INSPIRATION",
    "MAX_CHANCE",
    "NUM_ACTIONS",
    "ORIENTEER",
    "PASS",
    "PLAN",
    "RESOLVE",
    "REST",
    "SCOUT",
    "SKIP",
    "TRICK",
    "VERBS",
    "Act",
    "Action",
    "Attack",
    "Craft",
    "Die",
    "DrawCard",
    "Eat",
    "Pick",
    "Respond",
    "Use",
    "action_id",
]

FIGHT, EXPLORE, FOCUS, INSPIRATION, PLAN, ORIENTEER, SCOUT, DOWNGRADE, SKIP, TRICK, REST, RESOLVE, PASS = range(13)
VERBS = (
    "fight",
    "explore",
    "focus",
    "inspiration",
    "plan",
    "orienteer",
    "scout",
    "downgrade",
    "skip",
    "trick",
    "rest",
    "resolve",
    "pass",
)
PICK_BASE, CRAFT_BASE, ATTACK_BASE, USE_BASE, RESPOND_BASE, EAT_BASE, NUM_ACTIONS = 16, 32, 36, 44, 76, 92, 100
MAX_CHANCE = MAX_ENCOUNTERS


def _below(limit: int) -> Callable[[Any, attrs.Attribute[int], int], Any]:
    return attrs.validators.and_(attrs.validators.instance_of(int), attrs.validators.ge(0), attrs.validators.lt(limit))


@attrs.frozen
class Act:
    """A verb: fight, explore, a General or Travel Action, skip, trick, rest, resolve or pass."""

    TAG: ClassVar[str] = "unbroken.act"
    verb: int = attrs.field(validator=_below(len(VERBS)))


@attrs.frozen
class Pick:
    """Choose option ``i`` (a revealed encounter, a skill, a branch of an effect)."""

    TAG: ClassVar[str] = "unbroken.pick"
    i: int = attrs.field(validator=_below(CRAFT_BASE - PICK_BASE))


@attrs.frozen
class Craft:
    """Craft upgrade option ``i`` of the equipped weapon."""

    TAG: ClassVar[str] = "unbroken.craft"
    i: int = attrs.field(validator=_below(ATTACK_BASE - CRAFT_BASE))


@attrs.frozen
class Attack:
    """Attack with attack ``i`` of the equipped weapon."""

    TAG: ClassVar[str] = "unbroken.attack"
    i: int = attrs.field(validator=_below(USE_BASE - ATTACK_BASE))


@attrs.frozen
class Use:
    """Use action ability ``i`` (character abilities first, then skills in the order gained)."""

    TAG: ClassVar[str] = "unbroken.use"
    i: int = attrs.field(validator=_below(RESPOND_BASE - USE_BASE))


@attrs.frozen
class Respond:
    """Resolve activated Response/Passive ``i`` of the pending trigger next."""

    TAG: ClassVar[str] = "unbroken.respond"
    i: int = attrs.field(validator=_below(EAT_BASE - RESPOND_BASE))


@attrs.frozen
class Eat:
    """Eat ``n`` Food in the Hunger Step."""

    TAG: ClassVar[str] = "unbroken.eat"
    n: int = attrs.field(validator=_below(NUM_ACTIONS - EAT_BASE))


@attrs.frozen
class Die:
    """A chance outcome: the Slashes Die shows ``face``."""

    TAG: ClassVar[str] = "unbroken.die"
    face: int = attrs.field(validator=attrs.validators.in_((1, 2, 3, 4, 5, 6)))


@attrs.frozen
class DrawCard:
    """A chance outcome: the card with pack index ``index`` is drawn."""

    TAG: ClassVar[str] = "unbroken.drawcard"
    index: int = attrs.field(validator=_below(MAX_CHANCE))


Action = Act | Pick | Craft | Attack | Use | Respond | Eat | Die | DrawCard

_BASES: dict[type, int] = {
    Pick: PICK_BASE,
    Craft: CRAFT_BASE,
    Attack: ATTACK_BASE,
    Use: USE_BASE,
    Respond: RESPOND_BASE,
}


def action_id(action: Action) -> int:
    """The stable id of ``action`` (decisions and chance outcomes have separate id spaces)."""
    if isinstance(action, Act):
        return action.verb
    if isinstance(action, Eat):
        return EAT_BASE + action.n
    if isinstance(action, Die):
        return action.face - 1
    if isinstance(action, DrawCard):
        return action.index
    return _BASES[type(action)] + action.i


def decision_from_id(i: int) -> Action:
    """The decision with id ``i`` (raises ``ValueError`` when out of range)."""
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"no decision with id {i}")
    if i < PICK_BASE:
        return Act(i)
    if i >= EAT_BASE:
        return Eat(i - EAT_BASE)
    for cls, base in sorted(_BASES.items(), key=lambda kv: -kv[1]):
        if i >= base:
            return cls(i - base)  # type: ignore[no-any-return]  # every class in _BASES takes one int
    raise ValueError(f"no decision with id {i}")
