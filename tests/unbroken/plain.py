"""The long way of rules the library computes on fast paths: each kind of option listed on its own, and a loss of
Effort that leaves no choice. The tests hold the fast code against these (``docs/performance-unbroken.md``).
"""

from __future__ import annotations

from unbroken.actions import DOWNGRADE, EXPLORE, FIGHT, ORIENTEER, SCOUT, SKIP, Action, Attack
from unbroken.content.schema import Op
from unbroken.rules import listing
from unbroken.rules.combat import surcharge
from unbroken.rules.effects import effort_ways
from unbroken.rules.payment import ACT, ATTACK, one
from unbroken.rules.resources import Res, affords_need, can_pay, need_of, needs
from unbroken.rules.travel import ORIENTEER_COST, SCOUT_COST
from unbroken.rules.verbs import weapon
from unbroken.state import State


def prep_actions(state: State) -> list[Action]:
    """``travel.prep_actions`` the long way: each kind of option listed on its own."""
    out: list[Action] = []
    if not state.committed:
        out.append(ACT[FIGHT])
    out.append(ACT[EXPLORE])
    out += listing.general_options(state)
    if listing.orienteer_matters(state) and affords_need(state, need_of(needs(ORIENTEER_COST))):
        out.append(ACT[ORIENTEER])
    if not state.monster and affords_need(state, need_of(needs(SCOUT_COST[state.level]))):
        out.append(ACT[SCOUT])
    if len(state.weapons) > 1:
        out.append(ACT[DOWNGRADE])
    out += listing.craft_options(state, combat=False)
    out += listing.use_actions(state, "travel")
    return out


def turn_actions(state: State) -> list[Action]:
    """``combat.turn_actions`` the long way: each kind of option listed on its own."""
    out = listing.general_options(state)
    if len(state.weapons) > 1:
        out.append(ACT[DOWNGRADE])
    out.append(ACT[SKIP])
    out += listing.craft_options(state, combat=True)
    out += attacks(state)
    out += listing.use_actions(state, "combat")
    return out


def attacks(state: State) -> list[Action]:
    """The weapon attacks that can be made now: Armor-Breaking only while Armor remains, Wounding only at 0 Armor
    unless it pierces, each with its cost and any surcharge payable."""
    c = state.combat
    if c is None:
        return []
    out: list[Action] = []
    for i, a in enumerate(weapon(state).attacks):
        if a.kind == "break" and c.armor <= 0:
            continue
        if a.kind == "wound" and c.armor > 0 and not a.pierce:
            continue
        if can_pay(state, a.cost, surcharge(state)):
            out.append(one(ATTACK, Attack, i))
    return out


def loss(state: State, op: Op) -> Res | None:
    """The tracks after the op when it is a loss of Effort that leaves no choice and can be paid (it then pushes
    no frame and cannot end the game), else ``None``."""
    ways = effort_ways(state, op)
    return ways[0] if ways is not None and len(ways) == 1 else None
