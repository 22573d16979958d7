"""Unbroken's actions: small sequential decisions with stable ids, and the chance outcomes.

Ids come from declared action spaces (each class's ``FIELD_RANGES``, laid out in order by the core
:class:`~tabletop_core.actions.ActionSpace`). Decision ids (:data:`DECISIONS`, ``range(NUM_ACTIONS)``): verbs ``Act``
0-15, ``Pick`` 16-31 (options 0-15), ``Craft`` 32-35, ``Attack`` 36-43, ``Use`` 44-75, ``Respond`` 76-91, ``Eat``
92-99, then ``Pick`` again 100-403 (options 16-319: only an Exploration offers that many, one per revealed card,
and the deck holds at most ``MAX_DECK`` cards). Chance outcome ids (``range(MAX_CHANCE)``): ``Die`` face-1 at a
roll, ``DrawCard`` the card's index in the pack at a draw.

>>> action_id(Act(EXPLORE)), action_id(Attack(1)), action_id(Eat(2)), action_id(Pick(15)), action_id(Pick(16))
(1, 37, 94, 31, 100)
>>> decision_from_id(100)
Pick(i=16)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import attrs

from tabletop_core.actions import ActionSpace
from unbroken.limits import MAX_CHANCE, MAX_PICKS

__all__ = [
    "CARD_OUTCOMES",
    "CRAFT_BASE",
    "DECISIONS",
    "DIE_OUTCOMES",
    "DOWNGRADE",
    "EXPLORE",
    "FIGHT",
    "FOCUS",
    "INSPIRATION",
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
#: How many ids each decision class holds (more than it accepts leaves ids free for later verbs); ``PICK_IDS``: the
#: picks of the first block (every choice but an Exploration's offers fewer options).
VERB_IDS, PICK_IDS, CRAFT_IDS, ATTACK_IDS, USE_IDS, RESPOND_IDS, EAT_IDS = 16, 16, 4, 8, 32, 16, 8


def _below(limit: int) -> Callable[[Any, attrs.Attribute[int], int], Any]:
    return attrs.validators.and_(attrs.validators.instance_of(int), attrs.validators.ge(0), attrs.validators.lt(limit))


@attrs.frozen
class Act:
    """A verb: fight, explore, a General or Travel Action, skip, trick, rest, resolve or pass."""

    TAG: ClassVar[str] = "unbroken.act"
    FIELD_RANGES: ClassVar = (("verb", range(VERB_IDS)),)
    verb: int = attrs.field(validator=_below(len(VERBS)))


@attrs.frozen
class Pick:
    """Choose option ``i`` (a revealed encounter, a skill, a branch of an effect, which Effort pays).

    Options 0-15 have the ids 16-31; options 16 and on (a revealed encounter past the 16th) the ids of
    :class:`_LatePick`, at the end of :data:`DECISIONS` (``action_id`` and ``decision_from_id`` translate).
    """

    TAG: ClassVar[str] = "unbroken.pick"
    FIELD_RANGES: ClassVar = (("i", range(PICK_IDS)),)
    i: int = attrs.field(validator=_below(MAX_PICKS))


@attrs.frozen
class Craft:
    """Craft upgrade option ``i`` of the equipped weapon."""

    TAG: ClassVar[str] = "unbroken.craft"
    FIELD_RANGES: ClassVar = (("i", range(CRAFT_IDS)),)
    i: int = attrs.field(validator=_below(CRAFT_IDS))


@attrs.frozen
class Attack:
    """Attack with attack ``i`` of the equipped weapon."""

    TAG: ClassVar[str] = "unbroken.attack"
    FIELD_RANGES: ClassVar = (("i", range(ATTACK_IDS)),)
    i: int = attrs.field(validator=_below(ATTACK_IDS))


@attrs.frozen
class Use:
    """Use action ability ``i`` (character abilities first, then skills in the order gained)."""

    TAG: ClassVar[str] = "unbroken.use"
    FIELD_RANGES: ClassVar = (("i", range(USE_IDS)),)
    i: int = attrs.field(validator=_below(USE_IDS))


@attrs.frozen
class Respond:
    """Resolve activated Response/Passive ``i`` of the pending trigger next."""

    TAG: ClassVar[str] = "unbroken.respond"
    FIELD_RANGES: ClassVar = (("i", range(RESPOND_IDS)),)
    i: int = attrs.field(validator=_below(RESPOND_IDS))


@attrs.frozen
class Eat:
    """Eat ``n`` Food in the Hunger Step."""

    TAG: ClassVar[str] = "unbroken.eat"
    FIELD_RANGES: ClassVar = (("n", range(EAT_IDS)),)
    n: int = attrs.field(validator=_below(EAT_IDS))


@attrs.frozen
class Die:
    """A chance outcome: the Slashes Die shows ``face``."""

    TAG: ClassVar[str] = "unbroken.die"
    FIELD_RANGES: ClassVar = (("face", range(1, 7)),)
    face: int = attrs.field(validator=attrs.validators.in_((1, 2, 3, 4, 5, 6)))


@attrs.frozen
class DrawCard:
    """A chance outcome: the card with pack index ``index`` is drawn."""

    TAG: ClassVar[str] = "unbroken.drawcard"
    FIELD_RANGES: ClassVar = (("index", range(MAX_CHANCE)),)
    index: int = attrs.field(validator=_below(MAX_CHANCE))


@attrs.frozen
class _LatePick:
    """The id block of ``Pick(i)`` for ``i`` from ``PICK_IDS`` on (never an action itself: ``Pick(i)`` is)."""

    FIELD_RANGES: ClassVar = (("i", range(PICK_IDS, MAX_PICKS)),)
    i: int


Action = Act | Pick | Craft | Attack | Use | Respond | Eat | Die | DrawCard

#: The decisions' ids, in this order (records store ids: append new classes at the end).
DECISIONS: ActionSpace[Action | _LatePick] = ActionSpace(
    (Act, Pick, Craft, Attack, Use, Respond, Eat, _LatePick), name="unbroken decisions"
)
#: A roll's outcomes: the face minus 1.
DIE_OUTCOMES: ActionSpace[Action] = ActionSpace((Die,), name="unbroken die faces")
#: A draw's outcomes: the card's index in the pack.
CARD_OUTCOMES: ActionSpace[Action] = ActionSpace((DrawCard,), name="unbroken cards")
NUM_ACTIONS = DECISIONS.size
PICK_BASE, CRAFT_BASE, ATTACK_BASE, USE_BASE, RESPOND_BASE, EAT_BASE, LATE_PICK_BASE = (
    DECISIONS.base(c) for c in (Pick, Craft, Attack, Use, Respond, Eat, _LatePick)
)


def action_id(action: Action) -> int:
    """The stable id of ``action`` (decisions and each kind of chance outcome have separate id spaces)."""
    if isinstance(action, Die):
        return DIE_OUTCOMES.id_of(action)
    if isinstance(action, DrawCard):
        return CARD_OUTCOMES.id_of(action)
    if type(action) is Pick and action.i >= PICK_IDS:
        return LATE_PICK_BASE + action.i - PICK_IDS
    return DECISIONS.id_of(action)


def decision_from_id(i: int) -> Action:
    """The decision with id ``i`` (raises ``IllegalActionError``, a ``ValueError``, when out of range or reserved)."""
    action = DECISIONS.from_id(i)
    return Pick(action.i) if isinstance(action, _LatePick) else action
