"""Actions: small frozen values with a stable integer codec.

Decision ids (``NUM_ACTIONS`` of them) and chance outcome ids (``Land(0)``, ``Land(1)``) are separate spaces.

>>> action_id(Attack(Sym.CHARGE)), decode_decision(action_id(Flip(2, True)))
(7, Flip(target=2, tactics=True))
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from runebound_coop.content.schema import Sym
from tabletop_core.errors import IllegalActionError

__all__ = [
    "ATTACK_SYMBOLS",
    "NUM_ACTIONS",
    "Action",
    "Attack",
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
MAX_TOKENS = 8
MAX_ABILITIES = 4
MAX_CARDS = 4
MAX_CHOICES = 16


@attrs.frozen
class Pass:
    """Pass: act no more this round (shields still block)."""

    TAG: ClassVar[str] = "runebound_coop.pass"


@attrs.frozen
class Engage:
    """The party sends hero ``hero`` against the next enemy."""

    TAG: ClassVar[str] = "runebound_coop.engage"
    hero: int


@attrs.frozen
class Attack:
    """Spend every unspent token showing ``symbol`` (physical, magic or charge) as one attack (values summed)."""

    TAG: ClassVar[str] = "runebound_coop.attack"
    symbol: Sym


@attrs.frozen
class Flip:
    """Spend an agility (or a tactics copying agility) to flip your own token ``target``."""

    TAG: ClassVar[str] = "runebound_coop.flip"
    target: int
    tactics: bool = False


@attrs.frozen
class Recast:
    """Spend an agility (or a tactics copying agility) to recast the enemy's unspent token ``target``."""

    TAG: ClassVar[str] = "runebound_coop.recast"
    target: int
    tactics: bool = False


@attrs.frozen
class Double:
    """Spend a double on your token ``target`` (its value counts twice)."""

    TAG: ClassVar[str] = "runebound_coop.double"
    target: int


@attrs.frozen
class Surge:
    """Trigger your surge ability ``ability`` by spending surge (or one tactics copying a surge of enough value)."""

    TAG: ClassVar[str] = "runebound_coop.surge"
    ability: int
    tactics: bool = False


@attrs.frozen
class Copy:
    """Spend one tactics alone as a copy of a ``value`` ``symbol`` damage showing on another token."""

    TAG: ClassVar[str] = "runebound_coop.copy"
    symbol: Sym = attrs.field()
    value: int = attrs.field(validator=attrs.validators.in_((1, 2, 3, 4)))

    @symbol.validator
    def _check(self, _a: object, symbol: Sym) -> None:
        if symbol not in ATTACK_SYMBOLS:
            raise ValueError(f"a hero's tactics copies physical, magic or charge damage as an action, not {symbol}")


@attrs.frozen
class Exert:
    """Use card ``card``'s combat action by exerting (discarding a skill card from hand); ``symbol``: the damage
    tokens it removes."""

    TAG: ClassVar[str] = "runebound_coop.exert"
    card: int
    symbol: Sym | None = None


@attrs.frozen
class Respond:
    """Answer an enemy ability the hero may cancel with 1 tactics: cancel it or let it resolve."""

    TAG: ClassVar[str] = "runebound_coop.respond"
    cancel: bool


@attrs.frozen
class Withdraw:
    """At the end of a round (``retreat`` option): leave the fight, or stay for another round."""

    TAG: ClassVar[str] = "runebound_coop.withdraw"
    leave: bool


@attrs.frozen
class Choose:
    """The enemy player picks candidate ``option`` of the pending choice."""

    TAG: ClassVar[str] = "runebound_coop.choose"
    option: int


@attrs.frozen
class Land:
    """A chance outcome: the token being cast lands on ``side`` (0: face a, 1: face b)."""

    TAG: ClassVar[str] = "runebound_coop.land"
    side: int


Action = Pass | Engage | Attack | Flip | Recast | Double | Surge | Copy | Exert | Respond | Withdraw | Choose | Land

# Id layout of the decisions (Land uses the chance id space 0..1).
_ENGAGE = 1
_ATTACK = _ENGAGE + 4
_FLIP = _ATTACK + len(ATTACK_SYMBOLS)
_RECAST = _FLIP + 2 * MAX_TOKENS
_DOUBLE = _RECAST + 2 * MAX_TOKENS
_SURGE = _DOUBLE + MAX_TOKENS
_COPY = _SURGE + 2 * MAX_ABILITIES
_EXERT = _COPY + len(ATTACK_SYMBOLS) * 4
_RESPOND = _EXERT + MAX_CARDS * 4
_WITHDRAW = _RESPOND + 2
_CHOOSE = _WITHDRAW + 2
#: The size of the decision id space.
NUM_ACTIONS = _CHOOSE + MAX_CHOICES
_EXERT_SYMBOLS: tuple[Sym | None, ...] = (*ATTACK_SYMBOLS, None)


def action_id(action: Action) -> int:
    """The stable id of ``action`` (a chance outcome's id is its side)."""
    if isinstance(action, Land):
        return action.side
    if isinstance(action, Pass):
        return 0
    if isinstance(action, Engage):
        return _ENGAGE + action.hero
    if isinstance(action, Attack):
        return _ATTACK + ATTACK_SYMBOLS.index(action.symbol)
    if isinstance(action, Flip):
        return _FLIP + 2 * action.target + action.tactics
    if isinstance(action, Recast):
        return _RECAST + 2 * action.target + action.tactics
    if isinstance(action, Double):
        return _DOUBLE + action.target
    if isinstance(action, Surge):
        return _SURGE + 2 * action.ability + action.tactics
    if isinstance(action, Copy):
        return _COPY + 4 * ATTACK_SYMBOLS.index(action.symbol) + action.value - 1
    if isinstance(action, Exert):
        return _EXERT + 4 * action.card + _EXERT_SYMBOLS.index(action.symbol)
    if isinstance(action, Respond):
        return _RESPOND + action.cancel
    if isinstance(action, Withdraw):
        return _WITHDRAW + action.leave
    return _CHOOSE + action.option


def decode_decision(i: int) -> Action:
    """The decision with id ``i``.

    Raises:
        IllegalActionError: when ``i`` is outside the decision id space.
    """
    if type(i) is not int or not 0 <= i < NUM_ACTIONS:
        raise IllegalActionError(f"runebound_coop: no decision with id {i!r} (ids 0..{NUM_ACTIONS - 1})")
    if i == 0:
        return Pass()
    if i < _ATTACK:
        return Engage(i - _ENGAGE)
    if i < _FLIP:
        return Attack(ATTACK_SYMBOLS[i - _ATTACK])
    if i < _RECAST:
        return Flip((i - _FLIP) // 2, bool((i - _FLIP) % 2))
    if i < _DOUBLE:
        return Recast((i - _RECAST) // 2, bool((i - _RECAST) % 2))
    if i < _SURGE:
        return Double(i - _DOUBLE)
    if i < _COPY:
        return Surge((i - _SURGE) // 2, bool((i - _SURGE) % 2))
    if i < _EXERT:
        return Copy(ATTACK_SYMBOLS[(i - _COPY) // 4], (i - _COPY) % 4 + 1)
    if i < _RESPOND:
        return Exert((i - _EXERT) // 4, _EXERT_SYMBOLS[(i - _EXERT) % 4])
    if i < _WITHDRAW:
        return Respond(bool(i - _RESPOND))
    if i < _CHOOSE:
        return Withdraw(bool(i - _WITHDRAW))
    return Choose(i - _CHOOSE)
