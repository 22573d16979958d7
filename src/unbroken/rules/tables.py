"""Lookups derived once per content pack: cards by id, each card's abilities sorted by what reads them.

A pack is immutable, and the same ``(pack, digest)`` names always give an equal pack (see
:func:`unbroken.content.loader.get_pack`), so everything here is a pure function of the options' pack names,
memoized on them. The rules read these tables instead of searching the pack's tuples on every check.

>>> from unbroken import GAME
>>> t = tables(GAME.new_game(seed=1))
>>> t.weapons["bare_hands"].id, t.abilities["monster:" + t.monsters["kobold"].id] == t.monsters["kobold"].abilities
('bare_hands', True)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import attrs

from unbroken.content.loader import Pack, get_pack
from unbroken.content.schema import Ability, Character, Condition, Monster, Op, Skill, Weapon
from unbroken.state import State

__all__ = ["Tables", "tables"]

_NONE: Mapping[str, tuple[Op, ...]] = MappingProxyType({})


@attrs.frozen
class Tables:
    """Read-only lookups of one pack.

    Attributes:
        weapons, conditions, monsters, skills, characters: the cards by id.
        skill_ids: every skill's id, by pack index.
        abilities: every card's abilities by its source name (``kind:id``).
        statics: per source name, the ops of its static abilities by op name (cards without any are absent).
        responses: per source name and trigger, the ``(ability index, optional)`` of its Responses and Passives.
        actions: per source name, its action abilities as ``(source, ability index, ability)``.
    """

    weapons: Mapping[str, Weapon]
    conditions: Mapping[str, Condition]
    monsters: Mapping[str, Monster]
    skills: Mapping[str, Skill]
    characters: Mapping[str, Character]
    skill_ids: tuple[str, ...]
    abilities: Mapping[str, tuple[Ability, ...]]
    statics: Mapping[str, Mapping[str, tuple[Op, ...]]]
    responses: Mapping[str, Mapping[str, tuple[tuple[int, bool], ...]]]
    actions: Mapping[str, tuple[tuple[str, int, Ability], ...]]

    @classmethod
    def of(cls, pack: Pack) -> Tables:
        """The tables of ``pack``."""
        cards: list[tuple[str, str, tuple[Ability, ...]]] = [
            *(("character", c.id, c.abilities) for c in pack.characters),
            *(("skill", s.id, s.abilities) for s in pack.skills),
            *(("condition", c.id, c.abilities) for c in pack.conditions),
            *(("monster", m.id, m.abilities) for m in pack.monsters),
        ]
        abilities = {f"{kind}:{cid}": abs_ for kind, cid, abs_ in cards}
        statics: dict[str, Mapping[str, tuple[Op, ...]]] = {}
        responses: dict[str, Mapping[str, tuple[tuple[int, bool], ...]]] = {}
        actions: dict[str, tuple[tuple[str, int, Ability], ...]] = {}
        for src, abs_ in abilities.items():
            by_op: dict[str, list[Op]] = {}
            for a in abs_:
                if a.kind == "static":
                    for e in a.effects:
                        by_op.setdefault(e.op, []).append(e)
            if by_op:
                statics[src] = MappingProxyType({op: tuple(es) for op, es in by_op.items()})
            optional = src.startswith(("character:", "skill:"))
            by_trigger: dict[str, list[tuple[int, bool]]] = {}
            for i, a in enumerate(abs_):
                if a.kind in ("response", "passive"):
                    by_trigger.setdefault(a.trigger, []).append((i, optional and a.kind == "response"))
            responses[src] = MappingProxyType({t: tuple(c) for t, c in by_trigger.items()})
            actions[src] = tuple((src, i, a) for i, a in enumerate(abs_) if a.kind == "action")
        return cls(
            weapons=MappingProxyType({w.id: w for w in pack.weapons}),
            conditions=MappingProxyType({c.id: c for c in pack.conditions}),
            monsters=MappingProxyType({m.id: m for m in pack.monsters}),
            skills=MappingProxyType({s.id: s for s in pack.skills}),
            characters=MappingProxyType({c.id: c for c in pack.characters}),
            skill_ids=tuple(s.id for s in pack.skills),
            abilities=MappingProxyType(abilities),
            statics=MappingProxyType(statics),
            responses=MappingProxyType(responses),
            actions=MappingProxyType(actions),
        )

    def static_ops(self, src: str) -> Mapping[str, tuple[Op, ...]]:
        """The ops of ``src``'s static abilities by op name (empty for a card without any)."""
        return self.statics.get(src, _NONE)


@functools.lru_cache(maxsize=16)
def pack_tables(name: str, digest: str) -> Tables:
    """The tables of the pack :func:`~unbroken.content.loader.get_pack` gives for these names (bounded memo,
    keyed like the pack's own)."""
    return Tables.of(get_pack(name, digest))


def tables(state: State) -> Tables:
    """The tables of the state's pack."""
    o = state.options
    last = _last[0]  # one read of one tuple: another thread's store replaces the whole entry, never a part
    if last[0] is o:  # the options of every state of a game are one (interned) object
        found: Tables = last[1]
        return found
    found = pack_tables(o.pack, o.pack_sha256)
    _last[0] = (o, found)
    return found


#: The options last looked up and their tables, as one tuple stored and read whole, so threads sharing it never see
#: one entry's options with another's tables (a one-entry memo by identity; it holds the options, so the identity is
#: not reused while it is here).
_last: list[tuple[Any, Any]] = [(None, None)]
