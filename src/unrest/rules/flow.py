"""Who acts, what may be done, and what an action does, step by step of :data:`unrest.state.FLOW`.

Chance steps: the row, the opening hand and the Missions at setup, and each round's draw. Decision steps: the
Rebellion's target and plan, the Empire's defence, the Rebellion's placement and its liberation proofs.
"""

from __future__ import annotations

from tabletop_core.spec import CHANCE, TERMINAL
from unrest import setup
from unrest.actions import (
    Action,
    Blockade,
    DealMission,
    Destroy,
    Draw,
    Place,
    Plan,
    Reroute,
    Reveal,
    SetDistrict,
    Surveil,
    Target,
    public_code,
)
from unrest.rules import liberation
from unrest.rules import round as rnd
from unrest.state import EMPIRE, REBELLION, Player, UnrestState

__all__ = ["CHANCE_STEPS", "apply", "chance_outcomes", "current_player", "is_legal", "legal_actions"]

#: The steps where chance acts.
CHANCE_STEPS = frozenset({"districts", "hand", "missions", "draw"})


def current_player(state: UnrestState) -> Player:
    """The Rebellion (0), the Empire (1), chance (-1) or the end (-4)."""
    if state.winner >= 0:
        return TERMINAL
    step = state.pos.step
    if step in CHANCE_STEPS:
        return CHANCE
    return EMPIRE if step == "defend" else REBELLION


def chance_outcomes(state: UnrestState) -> tuple[tuple[Action, float], ...]:
    """Exact outcome probabilities at a chance node (empty elsewhere)."""
    if state.winner >= 0 or state.pos.step not in CHANCE_STEPS:
        return ()
    if state.pos.step == "draw":
        return setup.draw_outcomes(state.deck)
    return setup.setup_outcomes(state)


def legal_actions(state: UnrestState) -> tuple[Action, ...]:
    """Every legal decision (or chance outcome), sorted by id."""
    if state.winner >= 0:
        return ()
    step = state.pos.step
    if step == "plan":
        return rnd.plan_actions(state)
    if step == "defend":
        return rnd.defend_actions(state)
    if step == "place":
        return rnd.place_actions(state)
    if step == "target":
        return rnd.target_actions(state)
    if step == "liberate":
        return liberation.reveal_actions(state)
    return tuple(a for a, _ in chance_outcomes(state))


def is_legal(state: UnrestState, action: Action) -> bool:
    """Whether ``action`` is legal in ``state`` (never raises; the common kinds checked directly)."""
    if state.winner >= 0:
        return False
    step = state.pos.step
    if isinstance(action, Draw):
        return step in ("hand", "draw") and state.deck[action.card] > 0
    if isinstance(action, Place):
        if step != "place":
            return False
        slot = next(i for i, p in enumerate(state.plan) if p is not None)
        return action.slot == slot and action.district in rnd.place_targets(state)
    if isinstance(action, Target):
        return step == "target" and action.district in state.row[:-1]
    if isinstance(action, Plan):
        return step == "plan" and rnd.plan_legal(state, action)
    if isinstance(action, Surveil | Destroy | Reroute | Blockade):
        return step == "defend" and rnd.power_legal(state, action)
    try:
        return action in legal_actions(state)
    except (TypeError, ValueError):
        return False


def apply(state: UnrestState, action: Action) -> UnrestState:
    """Apply one legal action; every decision is logged as both players saw it (the information state)."""
    if isinstance(action, Draw):
        if state.pos.step == "draw":
            state = setup.draw(state, action.card)
            return liberation.next_round(state) if state.to_draw == 0 else state
        return setup.apply_setup(state, action)
    if isinstance(action, SetDistrict | DealMission):
        return setup.apply_setup(state, action)
    if isinstance(action, Plan):
        after = rnd.apply_plan(state, action)
    elif isinstance(action, Place):
        after = rnd.apply_place(state, action)
    elif isinstance(action, Surveil | Destroy | Reroute | Blockade):
        after = rnd.apply_power(state, action)
    elif isinstance(action, Target):
        after = rnd.apply_target(state, action)
    else:
        assert isinstance(action, Reveal)
        after = liberation.apply_reveal(state, action)
    return after.logged(public_code(action))
