"""The typed schema of Unbroken's content: effect records (``Op``), abilities, and the six kinds of card.

Every card effect is a tuple of :class:`Op` records, one small language shared by costs, gains, weapon attacks,
monster Combat Actions, Ambush Effects, Rewards, Responses and Passives. Its ops are declared in one registry,
:data:`unbroken.rules.effects.OPS`: for each op, the fields it requires and the fields it allows (the loader
rejects anything else, naming the file, the entry and the field), what it does, its rule text and its footprint.

>>> op = Op("gain", res="food", n=2)
>>> op.op, op.res, op.n, op.alt
('gain', 'food', 2, ())
"""

from __future__ import annotations

import attrs

from tabletop_core.content import SOURCES, Source

__all__ = [
    "ABILITY_KINDS",
    "COMBAT_KINDS",
    "RESOURCES",
    "SOURCES",
    "TRIGGERS",
    "Ability",
    "Attack",
    "Character",
    "Condition",
    "Encounter",
    "Monster",
    "Op",
    "Row",
    "Skill",
    "Upgrade",
    "Weapon",
]

#: Resource names in tracker order (the index is the resource's slot in the state).
RESOURCES = ("se", "me", "le", "cunning", "food", "wood", "metal", "treasure", "time")
#: Events that fire Responses and triggered Passives.
TRIGGERS = (
    "battle_start",
    "turn_start",
    "monster_roll",
    "attack",
    "armor_broken",
    "rest",
    "resolve",
    "level_start",
)
#: ``response`` (fires on a trigger), ``passive`` (fires on a trigger after the Responses), ``static`` (a rule
#: modifier consulted while it is in play) and ``action`` (a General/Combat/Travel action of a card).
ABILITY_KINDS = ("response", "passive", "static", "action")
#: The types of monster Combat Actions (skills may ignore a type).
COMBAT_KINDS = ("defend", "wound", "reduce", "steal", "time", "condition", "other")


@attrs.frozen
class Op:
    """One effect of the effect language (see :data:`unbroken.rules.effects.OPS` for which fields each op takes).

    Attributes:
        op: the verb.
        res: a resource (:data:`RESOURCES`), or ``armor``/``health`` for ``monster_gain``.
        n: the amount (signed for ``shift_roll``/``power``/``reveal``; the roll threshold for ``roll``).
        to: the resource gained by ``reduce``.
        m: the amount gained by ``reduce``.
        id: a condition/weapon id, a Combat Action kind (``ignore``), a roll tag (``roll``/``instead``) or a
            weapon tier (``power``: only with a ``basic``/``advanced`` weapon).
        when: ``now`` or ``next`` (conditions).
        scale: ``level`` multiplies ``n`` by the current Level.
        pierce: a ``wound`` that ignores Armor.
        perm: a permanent ``weapon_down``.
        then: nested ops (``roll``: on a roll of at most ``n``; ``instead``: the substitute cost).
        alt: the bracketed alternative (``lose``/``reduce``/``steal``) or the ``roll``'s other branch.
        options: the branches of ``choose``.
    """

    op: str
    res: str = ""
    n: int = 0
    to: str = ""
    m: int = 0
    id: str = ""
    when: str = ""
    scale: str = ""
    pierce: bool = False
    perm: bool = False
    then: tuple[Op, ...] = ()
    alt: tuple[Op, ...] = ()
    options: tuple[tuple[Op, ...], ...] = ()


@attrs.frozen
class Ability:
    """A Response, Passive, static rule modifier or action printed on a card.

    Attributes:
        name: the ability's name.
        kind: one of :data:`ABILITY_KINDS`.
        trigger: the event (:data:`TRIGGERS`) for responses and passives; empty otherwise.
        cost: ops that must be payable (``spend`` ops) to use it.
        effects: what it does.
        phase: for actions: ``travel``, ``combat`` or ``any``.
        text: the card's wording.
    """

    kind: str
    effects: tuple[Op, ...]
    name: str = ""
    trigger: str = ""
    cost: tuple[Op, ...] = ()
    phase: str = "any"
    text: str = ""


@attrs.frozen
class Attack:
    """A weapon attack: pay ``cost``, then break ``power`` Armor (``break``) or inflict ``power`` Wounds."""

    name: str
    kind: str
    cost: tuple[Op, ...]
    power: int
    pierce: bool = False


@attrs.frozen
class Upgrade:
    """A Craft option of a weapon: the weapon it becomes, the resource cost and the Time it takes."""

    to: str
    cost: tuple[Op, ...]
    time: int


@attrs.frozen
class Weapon:
    """A weapon sheet (``tier`` is ``basic`` or ``advanced``)."""

    id: str
    name: str
    tier: str
    attacks: tuple[Attack, ...]
    source: Source
    upgrades: tuple[Upgrade, ...] = ()
    text: str = ""


@attrs.frozen
class Row:
    """One row of a monster's Combat Actions table: its type (:data:`COMBAT_KINDS`) and its effects."""

    kind: str
    effects: tuple[Op, ...]
    text: str = ""


@attrs.frozen
class Monster:
    """A monster sheet. ``ambush``/``trickery`` are ``None`` when the sheet shows "—"."""

    id: str
    name: str
    level: int
    number: int
    armor: int
    health: int
    table: tuple[Row, ...]
    source: Source
    ambush: tuple[Op, ...] | None = None
    trickery: tuple[Op, ...] | None = None
    rewards: tuple[Op, ...] = ()
    abilities: tuple[Ability, ...] = ()
    text: str = ""


@attrs.frozen
class Condition:
    """A condition card (``permanent`` ones, like Armored, survive the end of a Level)."""

    id: str
    name: str
    source: Source
    permanent: bool = False
    abilities: tuple[Ability, ...] = ()
    text: str = ""


@attrs.frozen
class Skill:
    """A skill card."""

    id: str
    name: str
    source: Source
    abilities: tuple[Ability, ...] = ()
    text: str = ""


@attrs.frozen
class Character:
    """A character sheet; each ability use costs one of the Level's Ability Uses."""

    id: str
    name: str
    source: Source
    abilities: tuple[Ability, ...] = ()
    text: str = ""


@attrs.frozen
class Encounter:
    """An encounter card: the Spend field, the Gain field and the Time Value (``count`` copies in the deck)."""

    id: str
    name: str
    kind: str
    time: int
    gain: tuple[Op, ...]
    source: Source
    spend: tuple[Op, ...] = ()
    count: int = 1
    text: str = ""
