"""Test helpers: encounters with forced casts."""

from __future__ import annotations

from typing import Any

import runebound_coop as rb
from runebound_coop.actions import Action, Choose, Land
from runebound_coop.content.roster import Setup
from runebound_coop.state import AttackFrame, RuneboundState
from tabletop_core.spec import CHANCE


def forced(sides: str, **options: Any) -> RuneboundState:
    """A new encounter whose first casts land on ``sides`` ('a'/'b' per token, hero tokens first, spaces ignored)."""
    state = rb.new_game(**options)
    return land(state, sides)


def land(state: RuneboundState, sides: str) -> RuneboundState:
    """Resolve the pending casts with the given faces ('a' or 'b' each)."""
    for ch in sides.replace(" ", ""):
        assert rb.current_player(state) == CHANCE, rb.render(state)
        state = rb.step(state, Land("ab".index(ch)))
    return state


def act(state: RuneboundState, text: str) -> RuneboundState:
    """Apply the legal action written ``text``."""
    return rb.step(state, rb.parse_action(state, text))


def attack_all(state: RuneboundState, symbol: str) -> RuneboundState:
    """Attack with every token showing ``symbol`` (adding each one when several show it)."""
    state = act(state, f"attack {symbol}")
    while isinstance(state.pending.top, AttackFrame):
        state = rb.step(state, next(a for a in rb.legal_actions(state) if isinstance(a, Choose)))
    return state


def texts(state: RuneboundState) -> list[str]:
    """The legal actions as text."""
    return [rb.action_to_str(state, a) for a in rb.legal_actions(state)]


def setup(state: RuneboundState) -> Setup:
    """The content of the encounter."""
    return state.options.setup


def legal(state: RuneboundState, action: Action) -> bool:
    """Whether ``action`` is legal."""
    return rb.is_legal(state, action)
