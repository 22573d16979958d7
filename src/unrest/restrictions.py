"""Unrest's restriction hook for ``tabletop analyze``: the Rebel cards, the Districts and each side's abilities.

Each item is forbidden by the text of the decisions that use it (see :mod:`tabletop_core.restrict`):

* the Rebellion may not plan a card of a suit (``plan 5D ...``), a Misdirection, or any card face down;
* the Rebellion may not target a District (``target Plenty and Peace``);
* the Empire may not surveil, destroy, reroute or blockade.

>>> import unrest
>>> [r.label for r in restrictions(unrest.GAME, unrest.GAME.make_options())][:2]
['suit Intelligence', 'suit Upheaval']
"""

from __future__ import annotations

import re
from typing import Any

from tabletop_core.restrict import Restriction
from unrest.content import CONTENT
from unrest.rules.cards import SUIT_LETTERS, SUITS

__all__ = ["restrictions"]


def restrictions(game: Any, options: Any) -> list[Restriction]:
    """The items of the game (see the module)."""
    items = [
        Restriction("suit", suit, rf"^plan [2-6]{letter} ") for suit, letter in zip(SUITS, SUIT_LETTERS, strict=True)
    ]
    items.append(Restriction("card", "Misdirection", r"^plan M "))
    items.append(Restriction("ability", "plan face down", r"^plan \S+ hidden$"))
    for district in CONTENT.districts:
        items.append(Restriction("district", district.short, rf"^target (.* )?{re.escape(district.short)}\b"))
    for verb in ("surveil", "destroy", "reroute", "blockade"):
        items.append(Restriction("ability", verb, rf"^{verb} "))
    return items
