"""Unrest's size limits, each defined once: the action ids, the observation and information-state tensors, the
state's checks and the determinizer all read them from here. The rulebook's own numbers they derive from (the
deck, the rounds, the plan) stay with the rules (``state.py``, ``rules/cards.py``).
"""

from __future__ import annotations

from unrest.rules.cards import DECK_SIZE
from unrest.state import EMPIRE_ACTIONS, LAST_ROUND, PLAN_SIZE

__all__ = ["MAX_DRAWS", "MAX_MOVES", "MAX_PILE", "MAX_STACK", "MAX_TRIES"]

#: Cards a stack (or the destroyed pile) can hold: every card of the deck.
MAX_STACK = DECK_SIZE
#: At most 8 rounds of 1 target, 3 plans, 2 Empire actions and 3 placements, and 24 proof reveals in all.
MAX_MOVES = LAST_ROUND * (1 + PLAN_SIZE + EMPIRE_ACTIONS + PLAN_SIZE) + DECK_SIZE
#: Every card of the deck.
MAX_DRAWS = DECK_SIZE
#: Cards a stack, or the destroyed pile, can hold in the information state tensor: every card of the deck.
MAX_PILE = MAX_STACK
#: Rejection attempts before the determinizer gives up with an error (the true state is never returned: that
#: would leak it). Measured: 1.34 tries on average, 122 at worst, over 7,428 determinizations of random games;
#: 1.54 and 76 over 3,727 along 60 games between the heuristic bots (every node, both variants).
MAX_TRIES = 20_000
