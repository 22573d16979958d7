"""Runebound's restriction hook for ``tabletop analyze``: enemies, heroes, abilities and cards of the encounter.

* each enemy of a multi-enemy encounter is **removed** (the ``enemies`` option without it);
* each hero of a party of two or more **may not engage** (the others take every fight);
* each hero's surge abilities and each skill card in hand **may not be used** (``surge 0 Crushing Blow``,
  ``exert 0 Twin Blades``).

>>> from runebound_coop import GAME
>>> [r.label for r in restrictions(GAME, GAME.make_options())][:3]
['enemy Sorcerer', 'enemy Orc Brigand', 'hero Elian']
"""

from __future__ import annotations

import re
from typing import Any

from runebound_coop.content.loader import content_of
from tabletop_core.restrict import Restriction

__all__ = ["restrictions"]


def restrictions(game: Any, options: Any) -> list[Restriction]:
    """The items of this encounter (see the module)."""
    pack = content_of(options.pack)
    items: list[Restriction] = []
    enemies = list(options.enemies)
    if len(enemies) > 1:
        for i, name in enumerate(enemies):
            if name in enemies[:i]:
                continue
            rest = [e for e in enemies if e != name]
            items.append(Restriction("enemy", name, options=(("enemies", rest),)))
    heroes = list(options.heroes)
    if len(heroes) > 1:
        items += [Restriction("hero", h, rf"^engage \d+ {re.escape(h)}$") for h in dict.fromkeys(heroes)]
    seen: set[str] = set()
    for h, name in enumerate(heroes):
        hero = pack.heroes[name]
        for ability in hero.abilities:
            if ability.name not in seen:
                seen.add(ability.name)
                items.append(
                    Restriction("ability", ability.name, rf"^surge \d+ {re.escape(ability.name)}( by tactics)?$")
                )
        hand = options.cards[h] if options.cards is not None and h < len(options.cards) else hero.cards
        for card in hand:
            if card not in seen:
                seen.add(card)
                items.append(Restriction("card", card, rf"^exert \d+ {re.escape(card)}\b"))
    return items
