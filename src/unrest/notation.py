"""Action notation: every action as a short readable string, and back.

The grammar (case and spacing are not significant; Districts by their short names, ``Plenty`` ... ``Truth``;
cards as :func:`~unrest.rules.cards.card_name` writes them, ``5D`` or ``M``; plan slots numbered from 1)::

    target <District> and <District>     target <District>      (the left District alone reads too)
    plan <card> hidden|revealed
    surveil card <slot>                  destroy card <slot>
    reroute card <slot> to <District>    blockade <District>
    place <card> in <District>           reveal <card> (card <stack position>)
    district <District>                  mission <Mission name>       draw <card>     (chance outcomes)

>>> import unrest
>>> state = unrest.new_game(seed=3)
>>> action_to_str(state, unrest.legal_actions(state)[0])
'target Plenty and Peace'
>>> read_action(state, "target plenty") == unrest.legal_actions(state)[0]
True
"""

from __future__ import annotations

from tabletop_core.actions import action_text
from unrest.actions import (
    DRAWS,
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
)
from unrest.content import CONTENT
from unrest.rules.cards import card_name, parse_card
from unrest.state import District, Slot, UnrestState

__all__ = ["action_to_str", "district_name", "read_action", "target_pair"]

_SHORT = tuple(d.short for d in CONTENT.districts)
_BY_SHORT = {d.short.lower(): d.id for d in CONTENT.districts}
_MISSION_BY_NAME = {m.name.lower(): m.id for m in CONTENT.missions}


def district_name(district: District) -> str:
    """The short name of a District (``Plenty``), as actions write it."""
    return _SHORT[district]


def action_to_str(state: UnrestState, action: Action) -> str:
    """Readable forms: ``target Plenty and Peace``, ``plan 5D hidden``, ``surveil card 2``, ``reroute card 1 to
    Truth``, ``blockade Peace``, ``place 3S in Police``, ``reveal 4I (card 2)``, ``district Capitol``, ``mission
    Coup``, ``draw 2U``."""
    if isinstance(action, Plan):
        return f"plan {card_name(action.card)} {'hidden' if action.hidden else 'revealed'}"
    if isinstance(action, Place):
        return f"place {_slot_card(state, action.slot)} in {_SHORT[action.district]}"
    if isinstance(action, Draw):
        return f"draw {card_name(action.card)}"
    if isinstance(action, Target):
        return f"target {target_pair(state, action.district)}"
    if isinstance(action, Surveil):
        return f"surveil card {action.slot + 1}"
    if isinstance(action, Destroy):
        return f"destroy card {action.slot + 1}"
    if isinstance(action, Reroute):
        return f"reroute card {action.slot + 1} to {_SHORT[action.district]}"
    if isinstance(action, Blockade):
        return f"blockade {_SHORT[action.district]}"
    if isinstance(action, Reveal):
        frame = state.pending.top
        stack = state.stacks[frame.district] if frame is not None else ()
        name = card_name(stack[action.index].card) if action.index < len(stack) else "?"
        return f"reveal {name} (card {action.index + 1})"
    if isinstance(action, SetDistrict):
        return f"district {_SHORT[action.district]}"
    return f"mission {CONTENT.missions[action.mission].name}"


def read_action(state: UnrestState, text: str) -> Action | None:
    """The action ``text`` names by the grammar, if it reads back as ``text`` (``None`` otherwise; not checked
    for legality). A target may also be named by its left District alone (``target Plenty``).

    Raises:
        IllegalActionError: when ``text`` is not a ``str`` (see :func:`tabletop_core.actions.action_text`).
    """
    wanted = " ".join(action_text("unrest", text).lower().split())
    try:
        action = _read(state, wanted.split(" "))
    except (ValueError, KeyError, IndexError, StopIteration):
        return None
    if action is None:
        return None
    if " ".join(action_to_str(state, action).lower().split()) == wanted:
        return action
    if isinstance(action, Target) and wanted == f"target {_SHORT[action.district].lower()}":
        return action
    return None


def _read(state: UnrestState, w: list[str]) -> Action | None:
    verb = w[0]
    if verb == "plan":
        return Plan(parse_card(w[1]), w[2] == "hidden")
    if verb == "place":
        slot = next(i for i, p in enumerate(state.plan) if p is not None)
        return Place(slot, _BY_SHORT[w[-1]])
    if verb == "draw":
        return DRAWS[parse_card(w[1])]
    if verb == "target":
        return Target(_BY_SHORT[w[1]])
    if verb in ("surveil", "destroy"):
        return (Surveil if verb == "surveil" else Destroy)(int(w[2]) - 1)
    if verb == "reroute":
        return Reroute(int(w[2]) - 1, _BY_SHORT[w[4]])
    if verb == "blockade":
        return Blockade(_BY_SHORT[w[1]])
    if verb == "reveal":
        return Reveal(int(w[-1].rstrip(")")) - 1)
    if verb == "district":
        return SetDistrict(_BY_SHORT[w[1]])
    if verb == "mission":
        return DealMission(_MISSION_BY_NAME[" ".join(w[1:])])
    return None


def _slot_card(state: UnrestState, slot: Slot) -> str:
    p = state.plan[slot] if slot < len(state.plan) else None
    return card_name(p.card) if p is not None else f"card {slot + 1}"


def target_pair(state: UnrestState, district: District) -> str:
    """``Plenty and Peace``: the District a target names and its right-hand neighbour (when it has one)."""
    row = state.row
    if district in row[:-1]:
        return f"{_SHORT[district]} and {_SHORT[row[row.index(district) + 1]]}"
    return _SHORT[district]
