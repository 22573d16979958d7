"""Actions: small sequential decisions and chance outcomes, each a frozen value with a stable id.

Decision ids (``range(NUM_ACTIONS)``):

=========  ======================  =============================================
ids        action                  string
=========  ======================  =============================================
0-4        ``Target(d)``           ``target Plenty and Peace`` (``d`` and its right neighbour)
5-46       ``Plan(card, hidden)``  ``plan 5D hidden`` / ``plan 3S revealed``
47-49      ``Surveil(slot)``       ``surveil card 2``
50-52      ``Destroy(slot)``       ``destroy card 1``
53-67      ``Reroute(slot, d)``    ``reroute card 3 to Truth``
68-72      ``Blockade(d)``         ``blockade Peace``
73-87      ``Place(slot, d)``      ``place 3S in Police``
88-111     ``Reveal(index)``       ``reveal 4I`` (the stack card at ``index``)
=========  ======================  =============================================

Chance outcome ids (``range(NUM_OUTCOMES)``): ``SetDistrict(d)`` 0-4 (the next District laid in the row),
``DealMission(m)`` 0-8, ``Draw(card)`` 0-20. Slots are numbered from 1 in strings.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop_core.actions import ActionSpace
from tabletop_core.errors import IllegalActionError
from unrest.limits import MAX_STACK
from unrest.rules.cards import KINDS
from unrest.state import N_DISTRICTS, N_MISSIONS, PLAN_SIZE, UnrestState

__all__ = [
    "NUM_ACTIONS",
    "NUM_MOVE_CODES",
    "NUM_OUTCOMES",
    "PLAN_HIDDEN",
    "Action",
    "Blockade",
    "DealMission",
    "Decision",
    "Destroy",
    "Draw",
    "Outcome",
    "Place",
    "Plan",
    "Reroute",
    "Reveal",
    "SetDistrict",
    "Surveil",
    "Target",
    "action_from_id",
    "action_id",
    "decision_id",
    "outcome_id",
    "public_code",
]

N_SLOTS = PLAN_SIZE

_in = attrs.validators.in_


@attrs.frozen
class Target:
    """Mark District ``district`` and its right-hand neighbour with the Area of Interest token."""

    TAG: ClassVar[str] = "unrest.target"
    FIELD_RANGES: ClassVar = (("district", range(N_DISTRICTS)),)
    district: int = attrs.field(validator=_in(range(N_DISTRICTS)))


@attrs.frozen
class Plan:
    """Plan one card from the hand, ``hidden`` (face down) or revealed (face up)."""

    TAG: ClassVar[str] = "unrest.plan"
    FIELD_RANGES: ClassVar = (("card", range(KINDS)), ("hidden", (False, True)))
    card: int = attrs.field(validator=_in(range(KINDS)))
    hidden: bool = attrs.field(validator=attrs.validators.instance_of(bool))


@attrs.frozen
class Surveil:
    """Empire power Surveil: reveal the hidden planned card in ``slot`` (0-2)."""

    TAG: ClassVar[str] = "unrest.surveil"
    FIELD_RANGES: ClassVar = (("slot", range(N_SLOTS)),)
    slot: int = attrs.field(validator=_in(range(N_SLOTS)))


@attrs.frozen
class Destroy:
    """Empire power Destroy: remove the planned card in ``slot`` from play."""

    TAG: ClassVar[str] = "unrest.destroy"
    FIELD_RANGES: ClassVar = (("slot", range(N_SLOTS)),)
    slot: int = attrs.field(validator=_in(range(N_SLOTS)))


@attrs.frozen
class Reroute:
    """Empire power Reroute: place the planned card in ``slot`` into District ``district``."""

    TAG: ClassVar[str] = "unrest.reroute"
    FIELD_RANGES: ClassVar = (("slot", range(N_SLOTS)), ("district", range(N_DISTRICTS)))
    slot: int = attrs.field(validator=_in(range(N_SLOTS)))
    district: int = attrs.field(validator=_in(range(N_DISTRICTS)))


@attrs.frozen
class Blockade:
    """Empire power Blockade: no card may be placed into ``district`` by the Rebellion this round."""

    TAG: ClassVar[str] = "unrest.blockade"
    FIELD_RANGES: ClassVar = (("district", range(N_DISTRICTS)),)
    district: int = attrs.field(validator=_in(range(N_DISTRICTS)))


@attrs.frozen
class Place:
    """Place the planned card in ``slot`` into District ``district``."""

    TAG: ClassVar[str] = "unrest.place"
    FIELD_RANGES: ClassVar = (("slot", range(N_SLOTS)), ("district", range(N_DISTRICTS)))
    slot: int = attrs.field(validator=_in(range(N_SLOTS)))
    district: int = attrs.field(validator=_in(range(N_DISTRICTS)))


@attrs.frozen
class Reveal:
    """Reveal the card at ``index`` of the stack being proven (part of a liberation proof)."""

    TAG: ClassVar[str] = "unrest.reveal"
    FIELD_RANGES: ClassVar = (("index", range(MAX_STACK)),)
    index: int = attrs.field(validator=_in(range(MAX_STACK)))


@attrs.frozen
class SetDistrict:
    """Chance (setup): District ``district`` is laid next in the row."""

    TAG: ClassVar[str] = "unrest.set_district"
    FIELD_RANGES: ClassVar = (("district", range(N_DISTRICTS)),)
    district: int = attrs.field(validator=_in(range(N_DISTRICTS)))


@attrs.frozen
class DealMission:
    """Chance (setup): Mission ``mission`` is dealt face up."""

    TAG: ClassVar[str] = "unrest.deal_mission"
    FIELD_RANGES: ClassVar = (("mission", range(N_MISSIONS)),)
    mission: int = attrs.field(validator=_in(range(N_MISSIONS)))


@attrs.frozen
class Draw:
    """Chance: the Rebellion draws a card of kind ``card``."""

    TAG: ClassVar[str] = "unrest.draw"
    FIELD_RANGES: ClassVar = (("card", range(KINDS)),)
    card: int = attrs.field(validator=_in(range(KINDS)))


Decision = Target | Plan | Surveil | Destroy | Reroute | Blockade | Place | Reveal
Outcome = SetDistrict | DealMission | Draw
Action = Decision | Outcome

#: The decisions' id space: the classes in id order (the table in the module docstring), each field's range
#: declared on its class; ids are what records store, so the order and ranges never change.
DECISION_SPACE: ActionSpace[Decision] = ActionSpace(
    (Target, Plan, Surveil, Destroy, Reroute, Blockade, Place, Reveal), name="unrest decisions"
)
#: The chance outcomes' id spaces, one per chance step: the District laid next, the Mission dealt, the card drawn.
SETUP_ROW_SPACE: ActionSpace[SetDistrict] = ActionSpace((SetDistrict,), name="unrest row")
MISSION_SPACE: ActionSpace[DealMission] = ActionSpace((DealMission,), name="unrest missions")
DRAW_SPACE: ActionSpace[Draw] = ActionSpace((Draw,), name="unrest draws")
NUM_ACTIONS = DECISION_SPACE.size
NUM_OUTCOMES = max(SETUP_ROW_SPACE.size, MISSION_SPACE.size, DRAW_SPACE.size)

# Every decision, indexed by id, and the chance outcomes by kind: legal_actions hands out these instances.
TARGETS = tuple(Target(d) for d in range(N_DISTRICTS))
PLANS = tuple((Plan(k, False), Plan(k, True)) for k in range(KINDS))
SURVEILS = tuple(Surveil(s) for s in range(N_SLOTS))
DESTROYS = tuple(Destroy(s) for s in range(N_SLOTS))
REROUTES = tuple(tuple(Reroute(s, d) for d in range(N_DISTRICTS)) for s in range(N_SLOTS))
BLOCKADES = tuple(Blockade(d) for d in range(N_DISTRICTS))
PLACES = tuple(tuple(Place(s, d) for d in range(N_DISTRICTS)) for s in range(N_SLOTS))
REVEALS = tuple(Reveal(i) for i in range(MAX_STACK))
SET_DISTRICTS = tuple(SetDistrict(d) for d in range(N_DISTRICTS))
DEAL_MISSIONS = tuple(DealMission(m) for m in range(N_MISSIONS))
DRAWS = tuple(Draw(k) for k in range(KINDS))

#: Every decision, by id.
DECISIONS: tuple[Decision, ...] = tuple(DECISION_SPACE.from_id(i) for i in range(NUM_ACTIONS))
_ID: dict[Decision, int] = {a: i for i, a in enumerate(DECISIONS)}


def decision_id(action: Decision) -> int:
    """The id of a decision (:data:`DECISION_SPACE`)."""
    i = _ID.get(action)
    return DECISION_SPACE.id_of(action) if i is None else i


#: The public code of a hidden plan in the move log (see :func:`public_code`).
PLAN_HIDDEN = NUM_ACTIONS
#: Public codes: the decision ids and :data:`PLAN_HIDDEN`.
NUM_MOVE_CODES = NUM_ACTIONS + 1


def public_code(action: Decision) -> int:
    """A decision as both players see it: its id, except that a hidden plan, whose card only the Rebellion sees,
    is :data:`PLAN_HIDDEN` (the Rebellion still knows the card: it lies where the log's later moves took it)."""
    if isinstance(action, Plan) and action.hidden:
        return PLAN_HIDDEN
    return decision_id(action)


def outcome_id(action: Outcome) -> int:
    """The id of a chance outcome (in its step's space)."""
    if isinstance(action, Draw):
        return DRAW_SPACE.id_of(action)
    if isinstance(action, SetDistrict):
        return SETUP_ROW_SPACE.id_of(action)
    return MISSION_SPACE.id_of(action)


def action_id(action: Action) -> int:
    """The id of a decision in ``range(NUM_ACTIONS)``, or of a chance outcome in ``range(NUM_OUTCOMES)``."""
    i = _ACTION_IDS.get(id(action))
    if i is not None:
        return i
    if isinstance(action, _OUTCOMES):
        return outcome_id(action)
    return decision_id(action)


_OUTCOMES = (Draw, SetDistrict, DealMission)
#: The id of every action value the rules hand out (the decisions of ``legal_actions``, the chance outcomes, and
#: :data:`DECISIONS`), by identity: a search asks the id of each child it expands, and an id by identity hashes no
#: attrs value. The values are module constants (these tuples keep them alive), so their ids are never reused; any
#: other instance (built by a caller) is identified by its class and fields.
_ACTION_IDS: dict[int, int] = {
    id(a): outcome_id(a) if isinstance(a, _OUTCOMES) else decision_id(a)
    for a in (
        *TARGETS,
        *(p for pair in PLANS for p in pair),
        *SURVEILS,
        *DESTROYS,
        *(r for row in REROUTES for r in row),
        *BLOCKADES,
        *(p for row in PLACES for p in row),
        *REVEALS,
        *DECISIONS,
        *SET_DISTRICTS,
        *DEAL_MISSIONS,
        *DRAWS,
    )
}


def action_from_id(state: UnrestState, i: int, *, chance: bool) -> Action:
    """Decode ``i`` in the id space of ``state``'s node: chance outcomes of its step when ``chance``, else
    decisions.

    Raises:
        IllegalActionError: when ``i`` is not an int or names no action of that space.
    """
    if type(i) is not int:
        raise IllegalActionError(f"unrest: action id must be an int, not {i!r}")
    if chance:
        step = state.pos.step
        table: tuple[Outcome, ...] = (
            SET_DISTRICTS if step == "districts" else DEAL_MISSIONS if step == "missions" else DRAWS
        )
        if 0 <= i < len(table):
            return table[i]
    elif 0 <= i < NUM_ACTIONS:
        return DECISIONS[i]
    where = f"round {state.pos.round}, {state.pos.step} step"
    raise IllegalActionError(f"unrest: no action with id {i!r} at {where}")
