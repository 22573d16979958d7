"""Unbroken's restriction hook for ``tabletop analyze``: the content the player may be denied.

Each item is forbidden by the text of the decisions that use it (see :mod:`tabletop_core.restrict`):

* every ability of the character in play (``use Pilfer``, ``respond 0 Dodge``);
* every skill card of the pack (its abilities, or the card itself where an ability has no name);
* every weapon attack of the pack (``attack punch``), and every weapon craft (``craft knife``).

>>> from unbroken import GAME
>>> items = restrictions(GAME, GAME.make_options())
>>> sorted({r.kind for r in items})
['attack', 'character ability', 'craft', 'skill']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from tabletop_core.restrict import Restriction

__all__ = ["restrictions"]


def _uses(names: Iterable[str]) -> str:
    alternatives = "|".join(re.escape(n) for n in sorted(set(names)) if n)
    return rf"(?i)^(use|respond \d+) ({alternatives})$"


def restrictions(game: Any, options: Any) -> list[Restriction]:
    """The items of the pack in play (see the module)."""
    pack = game.initial_state(options).pack
    items: list[Restriction] = []
    character = pack.character(options.character)
    for ability in character.abilities:
        if ability.kind in ("action", "response", "passive"):
            items.append(Restriction("character ability", ability.name, _uses([ability.name])))
    for skill in pack.skills:
        labels = [a.name for a in skill.abilities] + [skill.id.replace("_", " ")]
        items.append(Restriction("skill", skill.name, _uses(labels)))
    attacks = sorted({a.name for w in pack.weapons for a in w.attacks})
    items += [Restriction("attack", name, rf"^attack {re.escape(name)}$") for name in attacks]
    crafts = sorted({u.to for w in pack.weapons for u in w.upgrades})
    items += [Restriction("craft", name, rf"^craft {re.escape(name)}$") for name in crafts]
    return items
