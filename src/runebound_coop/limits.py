"""The package's size limits, each defined once: the content loader, the options, the action id space and the
observation tensor all read them from here, so a pack that would not fit is refused at load, never aliased.
"""

from __future__ import annotations

__all__ = [
    "MAX_AMOUNT",
    "MAX_ASSETS",
    "MAX_CARDS",
    "MAX_CHOICES",
    "MAX_ENEMIES",
    "MAX_ENEMY_ABILITIES",
    "MAX_FACE_VALUE",
    "MAX_HAND",
    "MAX_HEROES",
    "MAX_HERO_ABILITIES",
    "MAX_HERO_TOKENS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_TOKENS",
    "MEMO_LIMIT",
]

#: Heroes in a party (one player each).
MAX_HEROES = 4
#: Enemies in an encounter.
MAX_ENEMIES = 8
#: Players: the heroes, plus the enemy player with ``enemy_choices="player"``.
MAX_PLAYERS = MAX_HEROES + 1
#: A hero's own printed tokens.
MAX_HERO_TOKENS = 4
#: Assets per hero (each adds one token).
MAX_ASSETS = 4
#: Tokens in one combatant's pool: a hero's tokens with its assets' tokens, or an enemy token set.
MAX_TOKENS = MAX_HERO_TOKENS + MAX_ASSETS
#: A hero's surge abilities.
MAX_HERO_ABILITIES = 4
#: An enemy's abilities (surge, agility and passive).
MAX_ENEMY_ABILITIES = 6
#: Skill cards per hero.
MAX_CARDS = 4
#: Candidates of one enemy choice (both pools' token refs).
MAX_CHOICES = 2 * MAX_TOKENS
#: The highest printed value of a face (``"4P"``).
MAX_FACE_VALUE = 4
#: Skill cards in hand.
MAX_HAND = 10
#: Rounds of one fight.
MAX_ROUNDS = 50
#: The most damage one blow carries (far above any printed amount): a loaded state's pending blow is checked
#: against it.
MAX_AMOUNT = 100
#: The most entries a memo of the rules keeps (it is emptied when full): the memos of ``rules.flow`` and
#: ``rules.hero`` are the rules' only global mutable state, each a bounded cache of a pure function of immutable
#: values, keyed by value (content by identity, held by the key). About 440 bytes an entry measured, so they hold
#: at most some 8 MB.
MEMO_LIMIT = 1 << 13
