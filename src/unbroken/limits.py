"""Unbroken's size limits, each defined once: the content loader, the action ids, the chance outcomes, the
observation tensor and the state's checks all read them from here, so a pack that would not fit is refused at
load, never folded onto shared slots.
"""

from __future__ import annotations

__all__ = [
    "MAX_CHANCE",
    "MAX_CONDITIONS",
    "MAX_DECK",
    "MAX_ENCOUNTERS",
    "MAX_FRAMES",
    "MAX_MONSTERS",
    "MAX_PICKS",
    "MAX_REROLLS",
    "MAX_SKILLS",
    "MAX_TRACKER",
    "MAX_WEAPONS",
]

#: Encounters in a pack: the chance-outcome space and the observation tensor (``unbroken.view.LAYOUT``) hold one
#: slot per card up to these limits, so a pack with more is refused, never folded onto shared slots.
MAX_ENCOUNTERS = 160
#: The most cards the encounter deck may hold (every entry's ``count`` summed; the rulebook's deck has 100): an
#: Exploration may reveal the whole deck, and a pick names a revealed card by its position (``unbroken.actions``).
MAX_DECK = 2 * MAX_ENCOUNTERS
#: Skills in a pack.
MAX_SKILLS = 80
#: Weapons in a pack.
MAX_WEAPONS = 12
#: Conditions in a pack.
MAX_CONDITIONS = 24
#: Monsters in a pack.
MAX_MONSTERS = 24
#: Every pick: one per card an Exploration can reveal (the whole deck); those past ``PICK_IDS`` have ids at the end.
MAX_PICKS = MAX_DECK
#: Chance outcomes: a drawn card's index in the pack (a die's faces fit below).
MAX_CHANCE = MAX_ENCOUNTERS
#: Rerolls of one Monster roll that lands on a condition already in play (a guard on the reroll loop).
MAX_REROLLS = 10
#: The most frames the rules ever stack (a trigger inside an effect inside a roll inside a turn, a few deep).
MAX_FRAMES = 64
#: Bounds on the Monster Tracker and a frame's counts (far above what any pack reaches, far below harm).
MAX_TRACKER = 1000
