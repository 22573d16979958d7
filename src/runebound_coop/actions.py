"""Actions: small frozen values with a stable integer codec, declared as the core's action spaces.

Each class declares the values of its fields in id order (``FIELD_RANGES``); :data:`DECISIONS` lays the decision
classes out one after another (ids 0..``NUM_ACTIONS - 1``) and :data:`OUTCOMES` holds the chance outcomes
(``Land(0)``, ``Land(1)``), a separate space. A new action class goes at the end of :data:`DECISIONS`: no id moves.

>>> action_id(Attack(Sym.CHARGE)), decode_decision(action_id(Flip(2, True)))
(7, Flip(target=2, tactics=True))
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from runebound_coop.content.schema import Sym
from runebound_coop.limits import MAX_CARDS, MAX_CHOICES, MAX_FACE_VALUE, MAX_HERO_ABILITIES, MAX_HEROES, MAX_TOKENS
from tabletop_core.actions import ActionSpace

__all__ = [
    "ATTACK_SYMBOLS",
    "DECISIONS",
    "NUM_ACTIONS",
    "OUTCOMES",
    "Action",
    "Attack",
    "Block",
    "Choose",
    "Copy",
    "Double",
    "Engage",
    "Exert",
    "Flip",
    "Land",
    "Pass",
    "Recast",
    "Respond",
    "Surge",
    "Withdraw",
    "action_id",
    "decode_decision",
]

#: The symbols a hero spends as damage, in id order.
ATTACK_SYMBOLS = (Sym.PHYSICAL, Sym.MAGIC, Sym.CHARGE)
_SIDES = (False, True)


@attrs.frozen
class Pass:
    """Pass: act no more this round (shields still block)."""

    TAG: ClassVar[str] = "runebound_coop.pass"


@attrs.frozen
class Engage:
    """The party sends hero ``hero`` against the next enemy."""

    TAG: ClassVar[str] = "runebound_coop.engage"
    FIELD_RANGES: ClassVar = (("hero", range(MAX_HEROES)),)
    hero: int


@attrs.frozen
class Attack:
    """Spend every unspent token showing ``symbol`` (physical, magic or charge) as one attack (values summed)."""

    TAG: ClassVar[str] = "runebound_coop.attack"
    FIELD_RANGES: ClassVar = (("symbol", ATTACK_SYMBOLS),)
    symbol: Sym


@attrs.frozen
class Flip:
    """Spend an agility (or a tactics copying agility) to flip your own token ``target``."""

    TAG: ClassVar[str] = "runebound_coop.flip"
    FIELD_RANGES: ClassVar = (("target", range(MAX_TOKENS)), ("tactics", _SIDES))
    target: int
    tactics: bool = False


@attrs.frozen
class Recast:
    """Spend an agility (or a tactics copying agility) to recast the enemy's unspent token ``target``."""

    TAG: ClassVar[str] = "runebound_coop.recast"
    FIELD_RANGES: ClassVar = (("target", range(MAX_TOKENS)), ("tactics", _SIDES))
    target: int
    tactics: bool = False


@attrs.frozen
class Double:
    """Spend a double on your token ``target`` (its value counts twice)."""

    TAG: ClassVar[str] = "runebound_coop.double"
    FIELD_RANGES: ClassVar = (("target", range(MAX_TOKENS)),)
    target: int


@attrs.frozen
class Surge:
    """Trigger your surge ability ``ability`` by spending surge (or one tactics copying a surge of enough value)."""

    TAG: ClassVar[str] = "runebound_coop.surge"
    FIELD_RANGES: ClassVar = (("ability", range(MAX_HERO_ABILITIES)), ("tactics", _SIDES))
    ability: int
    tactics: bool = False


@attrs.frozen
class Copy:
    """Spend one tactics alone as a copy of a ``value`` ``symbol`` damage showing on another token."""

    TAG: ClassVar[str] = "runebound_coop.copy"
    FIELD_RANGES: ClassVar = (("symbol", ATTACK_SYMBOLS), ("value", range(1, MAX_FACE_VALUE + 1)))
    symbol: Sym = attrs.field()
    value: int = attrs.field(validator=attrs.validators.in_(range(1, MAX_FACE_VALUE + 1)))

    @symbol.validator
    def _check(self, _a: object, symbol: Sym) -> None:
        if symbol not in ATTACK_SYMBOLS:
            raise ValueError(f"a hero's tactics copies physical, magic or charge damage as an action, not {symbol}")


@attrs.frozen
class Exert:
    """Use card ``card``'s combat action by exerting (discarding a skill card from hand); ``symbol``: the damage
    tokens it removes."""

    TAG: ClassVar[str] = "runebound_coop.exert"
    FIELD_RANGES: ClassVar = (("card", range(MAX_CARDS)), ("symbol", (*ATTACK_SYMBOLS, None)))
    card: int
    symbol: Sym | None = None


@attrs.frozen
class Respond:
    """Answer an enemy ability the hero may cancel with 1 tactics: cancel it or let it resolve."""

    TAG: ClassVar[str] = "runebound_coop.respond"
    FIELD_RANGES: ClassVar = (("cancel", _SIDES),)
    cancel: bool


@attrs.frozen
class Withdraw:
    """At the end of a round (``retreat`` option): leave the fight, or stay for another round."""

    TAG: ClassVar[str] = "runebound_coop.withdraw"
    FIELD_RANGES: ClassVar = (("leave", _SIDES),)
    leave: bool


@attrs.frozen
class Choose:
    """The enemy player picks candidate ``option`` of the pending choice."""

    TAG: ClassVar[str] = "runebound_coop.choose"
    FIELD_RANGES: ClassVar = (("option", range(MAX_CHOICES)),)
    option: int


@attrs.frozen
class Block:
    """About to take blockable damage: spend a tactics as a copy of a shield (``tactics``), or keep it."""

    TAG: ClassVar[str] = "runebound_coop.tactics_block"
    FIELD_RANGES: ClassVar = (("tactics", _SIDES),)
    tactics: bool


@attrs.frozen
class Land:
    """A chance outcome: the token being cast lands on ``side`` (0: face a, 1: face b)."""

    TAG: ClassVar[str] = "runebound_coop.land"
    FIELD_RANGES: ClassVar = (("side", range(2)),)
    side: int


Action = (
    Pass | Engage | Attack | Flip | Recast | Double | Surge | Copy | Exert | Respond | Withdraw | Choose | Block | Land
)

#: The decisions in id order (``Pass`` is 0); chance outcomes are :data:`OUTCOMES`.
DECISIONS: ActionSpace[Action] = ActionSpace(
    (Pass, Engage, Attack, Flip, Recast, Double, Surge, Copy, Exert, Respond, Withdraw, Choose, Block),
    name="runebound decisions",
)
#: The chance outcomes: the face a cast token lands on (ids 0 and 1).
OUTCOMES: ActionSpace[Action] = ActionSpace((Land,), name="runebound cast outcomes")
#: The size of the decision id space.
NUM_ACTIONS = DECISIONS.size


def action_id(action: Action) -> int:
    """The stable id of ``action`` (a chance outcome's id is its side)."""
    return OUTCOMES.id_of(action) if isinstance(action, Land) else DECISIONS.id_of(action)


def decode_decision(i: int) -> Action:
    """The decision with id ``i``.

    Raises:
        IllegalActionError: when ``i`` is outside the decision id space.
    """
    return DECISIONS.from_id(i)
