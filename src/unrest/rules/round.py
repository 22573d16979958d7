"""The round (rulebook "Gameplay" 1-4): target, plan, the Empire's defence and the Rebellion's operation.

1. "The Rebellion selects two adjacent Districts and marks them with the Area of Interest token" (skipped in
   the Final Encounter: "the Rebellion does not place the Area of Interest token").
2. "The Rebellion selects three cards from their hand ... two cards hidden (face down) and one revealed (face
   up). Misdirection cards must always be placed hidden." One decision per card, in the order the Rebellion
   lays them (the order names the plan slots the Empire targets). If the hand holds fewer cards, all are
   planned; if it holds no numbered card, all are planned hidden (interpretations, see the docs).
3. "The Empire will now take two actions ... with a different face up Power token": Surveil, Destroy, Reroute,
   Blockade (:func:`apply_power`); a used token is flipped face down at once.
4. "The Rebellion must now decide where to place any of the remaining cards behind the Area of Interest token
   ... may not place any cards in a District with a Blockade"; in the Final Encounter "to any unliberated
   District(s)". The cards are placed slot by slot (the order changes nothing).

Each step is a frame the core driver runs (:data:`unrest.rules.flow.DRIVER`): :class:`TargetStep`,
:class:`PlanStep`, :class:`DefendStep` and :class:`PlaceStep` say who decides, what may be done and what a
decision does; the Empire's and the Rebellion's steps end by themselves (their ``auto``) when nothing is left to do.
"""

from __future__ import annotations

import functools
from itertools import product
from typing import ClassVar

import attrs

from tabletop_core.fastcopy import replacer
from tabletop_core.flow import Decision
from unrest.actions import (
    BLOCKADES,
    DESTROYS,
    PLACES,
    PLANS,
    REROUTES,
    SURVEILS,
    TARGETS,
    Blockade,
    Destroy,
    Place,
    Plan,
    Reroute,
    Surveil,
    Target,
)
from unrest.rules.cards import KINDS, MISDIRECTION, CardKind
from unrest.state import (
    BLOCKADE,
    DESTROY,
    EMPIRE,
    EMPIRE_ACTIONS,
    FRAMES,
    LAST_ROUND,
    PLAN_SIZE,
    POWERS,
    REBELLION,
    REROUTE,
    SURVEIL,
    Destroyed,
    Planned,
    StackCard,
    UnrestState,
    next_phase,
    next_step,
)

#: An Empire action: one use of a Power token.
EmpireAction = Surveil | Destroy | Reroute | Blockade

__all__ = [
    "DefendStep",
    "EmpireAction",
    "PlaceStep",
    "PlanStep",
    "TargetStep",
    "apply_place",
    "apply_plan",
    "apply_power",
    "apply_target",
    "defend_actions",
    "place_actions",
    "place_targets",
    "plan_actions",
    "plan_legal",
    "plan_needs",
    "power_legal",
    "powers_left",
    "target_actions",
]


@functools.lru_cache(maxsize=512)  # a pure function of the row: a game's rows are ordered subsets of 5 (326)
def _targets(row: tuple[int, ...]) -> tuple[Target, ...]:
    return tuple([TARGETS[d] for d in sorted(row[:-1])])


# The rules' copies of the state, one prepared copy (``fastcopy.replacer``) per set of fields a verb changes: with the
# compiled accelerator a copy costs about a fifth of the state's constructor called with all 21 fields read
# (``tests/unrest/test_speed_rules.py`` checks each verb's copy against ``attrs.evolve``).
_aimed = replacer(UnrestState, "pos", "aoi", "moves")
_planned = replacer(UnrestState, "pos", "hand", "plan", "moves")
_defended = replacer(UnrestState, "pos", "stacks", "tokens", "plan", "blockade", "used", "destroyed", "moves")
_placed = replacer(UnrestState, "pos", "stacks", "plan", "moves")
_moved = replacer(UnrestState, "pos")


def target_actions(state: UnrestState) -> tuple[Target, ...]:
    """One ``Target`` per adjacent pair of the row, named by its left District; sorted by id."""
    return _targets(state.row)


def apply_target(state: UnrestState, action: Target, moves: tuple[int, ...]) -> UnrestState:
    """Mark the Area of Interest and move on to planning (the decision logged as ``moves``)."""
    o = state
    row = o.row
    aoi = (action.district, row[row.index(action.district) + 1])
    return _aimed(o, next_step(o.pos), aoi, moves)


def _needs(hand: tuple[CardKind, ...], plan: tuple[Planned | None, ...]) -> tuple[int, int]:
    """:func:`plan_needs` of a hand and a plan."""
    size = len(hand) + len(plan)
    size = min(size, PLAN_SIZE)
    numbered = len(hand) > hand.count(MISDIRECTION)
    revealed = 0
    for p in plan:
        if p is not None:
            if p.revealed:
                revealed += 1
            if p.card != MISDIRECTION:
                numbered = True
    revealed_total = 1 if numbered else 0
    return size - revealed_total - (len(plan) - revealed), revealed_total - revealed


def plan_needs(state: UnrestState) -> tuple[int, int]:
    """How many hidden and revealed cards remain to plan this round.

    The plan holds three cards (all the hand when it holds fewer), exactly one revealed unless the hand held
    no numbered card (Misdirection must be hidden).
    """
    return _needs(state.hand, state.plan)


def _facing_mask(state: UnrestState) -> int:
    """Which facings may be planned so that the plan can still be completed after it (each card kind of a facing is
    alike here), as a number: 4 a numbered card revealed, 2 a numbered card hidden, 1 a Misdirection hidden."""
    hand = state.hand
    hidden, revealed = _needs(hand, state.plan)
    n = len(hand)
    numbered = n - hand.count(MISDIRECTION)
    facings = 0
    if hidden + revealed <= n:
        if revealed >= 1 and revealed <= numbered:
            facings = 4
        if hidden >= 1:
            if revealed <= numbered - 1:
                facings |= 2
            if revealed <= numbered:
                facings |= 1
    return facings


#: By card kind, whether it may be planned revealed and whether hidden, the legal plans of that kind in id order
#: (revealed first: its id is the lower).
_PLAN_CHOICES = tuple(
    tuple(
        tuple((*((PLANS[k][0],) if rev else ()), *((PLANS[k][1],) if hid else ())) for hid in (False, True))
        for rev in (False, True)
    )
    for k in range(KINDS)
)


#: By the facings of :func:`_facing_mask` (4 a numbered card revealed, 2 a numbered card hidden, 1 a Misdirection
#: hidden), each card kind's legal plans.
_PLANS_BY_FACINGS = tuple(
    tuple(
        _PLAN_CHOICES[k][False][bool(f & 1)] if k == MISDIRECTION else _PLAN_CHOICES[k][bool(f & 4)][bool(f & 2)]
        for k in range(KINDS)
    )
    for f in range(8)
)


def plan_actions(state: UnrestState) -> tuple[Plan, ...]:
    """Each (card, facing) that leaves a plan that can still be completed; sorted by id."""
    facings = _facing_mask(state)
    table = _PLANS_BY_FACINGS[facings]
    out: list[Plan] = []
    last = -1
    for k in state.hand:  # sorted: each kind once, in id order
        if k != last:
            out += table[k]
            last = k
    return tuple(out)


def plan_legal(state: UnrestState, action: Plan) -> bool:
    """Whether ``action`` is among :func:`plan_actions` (checked directly)."""
    k = action.card
    if k not in state.hand:
        return False
    facings = _facing_mask(state)
    if k == MISDIRECTION:
        return action.hidden and bool(facings & 1)
    return bool(facings & 2) if action.hidden else bool(facings & 4)


def power_legal(state: UnrestState, action: EmpireAction) -> bool:
    """Whether an Empire action is among :func:`defend_actions` (checked directly)."""
    if isinstance(action, Blockade):
        return state.tokens[BLOCKADE] and action.district in state.row
    plan = state.plan
    if action.slot >= len(plan):
        return False
    card = plan[action.slot]
    if card is None:
        return False
    if isinstance(action, Surveil):
        return state.tokens[SURVEIL] and not card.revealed
    if isinstance(action, Destroy):
        return state.tokens[DESTROY]
    return state.tokens[REROUTE] and action.district in state.row


#: By card kind and facing (revealed), the planned card: shared values, not built at every plan.
_PLANNED = tuple((Planned(k, False), Planned(k, True)) for k in range(KINDS))


def apply_plan(state: UnrestState, action: Plan, moves: tuple[int, ...]) -> UnrestState:
    """Move a card from the hand to the next plan slot; when the plan is complete, the Empire defends (the
    decision logged as ``moves``)."""
    card = action.card
    hand = state.hand
    i = hand.index(card)
    hand = hand[:i] + hand[i + 1 :]
    plan = (*state.plan, _PLANNED[card][not action.hidden])
    o = state
    pos = o.pos
    # Complete when nothing is left to plan; the cards left to plan are ``min(cards, PLAN_SIZE) - len(plan)``, so
    # the count is asked only once that is 0.
    if min(len(hand) + len(plan), PLAN_SIZE) == len(plan) and _needs(hand, plan) == (0, 0):
        pos = next_step(pos)
    return _planned(o, pos, hand, plan, moves)


def defend_actions(state: UnrestState) -> tuple[EmpireAction, ...]:
    """The Empire's options: a face-up power on a planned card (Surveil only on a hidden one) or a
    District."""
    # What the options depend on: the tokens, the Districts in play (in id order: the row's order does not matter)
    # and each slot empty (0), hidden (1) or revealed (2).
    return _defences(state.tokens, _sorted(state.row), tuple([0 if p is None else 1 + p.revealed for p in state.plan]))


# Keyed by the Districts in id order, not the row in its order: random playouts meet about 1,500 keys so, all of them
# held, against 15,000 by the row, which turned the cache over about 8,000 times a second. Each entry made so outlived
# a collection or two and was then dropped: the cyclic collector, run by those survivors, took a few per cent of a
# playout's time in a process holding every game (see docs/performance.md, "Unrest").
@functools.lru_cache(maxsize=4096)  # a pure function of public facts that recur all game (tokens, Districts, slots)
def _defences(tokens: tuple[bool, ...], districts: tuple[int, ...], slots: tuple[int, ...]) -> tuple[EmpireAction, ...]:
    surveil, destroy, reroute, blockade = tokens
    held = [s for s, f in enumerate(slots) if f]
    out: list[EmpireAction] = []
    if surveil:
        out += [SURVEILS[s] for s, f in enumerate(slots) if f == 1]
    if destroy:
        out += [DESTROYS[s] for s in held]
    if reroute:
        out += [REROUTES[s][d] for s in held for d in districts]
    if blockade:
        out += [BLOCKADES[d] for d in districts]
    return tuple(out)


@functools.lru_cache(maxsize=512)  # a pure function of the row: a game's rows are ordered subsets of 5 (326)
def _sorted(row: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(row))


def powers_left(state: UnrestState) -> bool:
    """Whether the Empire has an action left this round (:func:`defend_actions` is not empty), checked directly."""
    return _powers_left(state.used, state.tokens, state.row, state.plan)


def _powers_left(
    used: tuple[int, ...], tokens: tuple[bool, ...], row: tuple[int, ...], plan: tuple[Planned | None, ...]
) -> bool:
    if len(used) >= EMPIRE_ACTIONS:
        return False
    if tokens[BLOCKADE] and row:
        return True
    move = tokens[DESTROY] or (tokens[REROUTE] and bool(row))
    for p in plan:  # noqa: SIM110  # a loop: no generator at every Empire decision
        if p is not None and (move or (tokens[SURVEIL] and not p.revealed)):
            return True
    return False


def apply_power(state: UnrestState, action: EmpireAction, moves: tuple[int, ...]) -> UnrestState:
    """Take one Empire action and flip its token face down.

    - Surveil: "Reveal a hidden Rebel card"; "If a Misdirection card is surveilled, destroy it after revealing
      it."
    - Destroy: "place it to the side of the play area. Keep its position ... unless it is a Misdirection card.
      Misdirection cards are revealed when destroyed."
    - Reroute: "Place a Rebel card of your choice into any District. Keep its position ... You cannot place a
      card in a liberated District."
    - Blockade: "No cards may be placed into that District by the Rebellion this round."

    The decision is logged as ``moves``; when it leaves the Empire no action, the Rebellion executes (the next
    phase, as :meth:`DefendStep.auto` would move on) in the same copy of the state.
    """
    o = state
    power = _POWER_OF.get(type(action))
    if power is None:  # an instance of a subclass
        power = next(p for kind, p in _POWER_OF.items() if isinstance(action, kind))
    destroyed = o.destroyed
    stacks = o.stacks
    blockade = o.blockade
    new_plan = o.plan
    if power == BLOCKADE:
        assert isinstance(action, Blockade)
        blockade = action.district
    else:
        assert not isinstance(action, Blockade)
        rnd = o.pos.round
        plan = list(new_plan)
        slot = action.slot
        card = plan[slot]
        assert card is not None
        kind = card.card
        if power == SURVEIL:
            if kind == MISDIRECTION:
                destroyed = (*destroyed, _destroyed(kind, True, rnd))
                plan[slot] = None
            else:
                plan[slot] = _PLANNED[kind][True]
        elif power == DESTROY:
            destroyed = (*destroyed, _destroyed(kind, card.revealed or kind == MISDIRECTION, rnd))
            plan[slot] = None
        else:
            assert isinstance(action, Reroute)
            d = action.district
            stacks = (*stacks[:d], (*stacks[d], _stacked(kind, card.revealed, rnd)), *stacks[d + 1 :])
            plan[slot] = None
        new_plan = tuple(plan)
    tokens = o.tokens
    flipped = _FLIPPED[power].get(tokens)
    tokens = (*tokens[:power], False, *tokens[power + 1 :]) if flipped is None else flipped
    used = (*o.used, power)
    pos = o.pos if _powers_left(used, tokens, o.row, new_plan) else next_phase(o.pos)
    return _defended(o, pos, stacks, tokens, new_plan, blockade, used, destroyed, moves)


#: By action class, the Power it uses.
_POWER_OF: dict[type, int] = {Surveil: SURVEIL, Destroy: DESTROY, Reroute: REROUTE, Blockade: BLOCKADE}
#: By Power, each tuple of token facings with that Power's token turned face down.
_FLIPPED: tuple[dict[tuple[bool, ...], tuple[bool, ...]], ...] = tuple(
    {faces: (*faces[:power], False, *faces[power + 1 :]) for faces in product((False, True), repeat=len(POWERS))}
    for power in range(len(POWERS))
)
#: By round, facing and kind, a destroyed card: shared values.
_DESTROYED = tuple(
    tuple(tuple(Destroyed(k, revealed, r) for k in range(KINDS)) for revealed in (False, True))
    for r in range(LAST_ROUND + 1)
)


def _destroyed(card: CardKind, revealed: bool, rnd: int) -> Destroyed:
    """A card destroyed in round ``rnd`` (a shared value)."""
    return _DESTROYED[rnd][revealed][card] if 0 <= rnd <= LAST_ROUND else Destroyed(card, revealed, rnd)


#: By round, facing and kind, the card as placed in a stack: shared values.
_STACKED = tuple(
    tuple(tuple(StackCard(k, revealed, r) for k in range(KINDS)) for revealed in (False, True))
    for r in range(LAST_ROUND + 1)
)


def _stacked(card: CardKind, revealed: bool, rnd: int) -> StackCard:
    """A card placed in a stack in round ``rnd`` (a shared value)."""
    return _STACKED[rnd][revealed][card] if 0 <= rnd <= LAST_ROUND else StackCard(card, revealed, rnd)


def place_targets(state: UnrestState) -> tuple[int, ...]:
    """Districts the Rebellion may place into: the marked ones (any in the Final Encounter) minus a
    Blockade."""
    pool = state.aoi if state.aoi else state.row
    blockade = state.blockade
    return tuple(sorted([d for d in pool if d != blockade]))


def place_actions(state: UnrestState) -> tuple[Place, ...]:
    """Place the lowest remaining planned card into an allowed District."""
    places = PLACES[_first_card(state)]
    blockade = state.blockade
    return tuple([places[d] for d in _sorted(state.aoi or state.row) if d != blockade])


def _first_card(state: UnrestState) -> int:
    """The lowest plan slot still holding a card (the state must have one)."""
    for slot, p in enumerate(state.plan):
        if p is not None:
            return slot
    raise ValueError("unrest: no planned card left to place")


def apply_place(state: UnrestState, action: Place, moves: tuple[int, ...]) -> UnrestState:
    """Stack the card in the District, keeping its facing; the decision is logged as ``moves``. After the last
    card the End of the Round begins (the next phase, as :meth:`PlaceStep.auto` would move on) in the same copy."""
    plan = list(state.plan)
    card = plan[action.slot]
    assert card is not None
    plan[action.slot] = None
    d = action.district
    stack = (*state.stacks[d], _stacked(card.card, card.revealed, state.pos.round))
    o = state
    pos = o.pos
    if plan.count(None) == len(plan):
        pos = next_phase(pos)
    stacks = (*o.stacks[:d], stack, *o.stacks[d + 1 :])
    return _placed(o, pos, stacks, tuple(plan), moves)


# ----- the steps as frames ------------------------------------------------------------------------------------------


@FRAMES.register("unrest.target_step", pending=False)
@attrs.frozen
class TargetStep(Decision[UnrestState, Target]):
    """Step frame of "select two adjacent Districts": the Rebellion marks the Area of Interest."""

    seat: ClassVar[int] = REBELLION
    # The rule itself, not a method calling it: one Python call less at every decision.
    legal_actions = staticmethod(target_actions)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """A ``Target`` naming a District with a right-hand neighbour."""
        return isinstance(action, Target) and action.district in state.row[:-1]

    act = staticmethod(apply_target)


@FRAMES.register("unrest.plan_step", pending=False)
@attrs.frozen
class PlanStep(Decision[UnrestState, Plan]):
    """Step frame of "selects three cards from their hand": one card and its facing per decision."""

    seat: ClassVar[int] = REBELLION
    # The rule itself, not a method calling it: one Python call less at every decision.
    legal_actions = staticmethod(plan_actions)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """See :func:`plan_legal`."""
        return isinstance(action, Plan) and plan_legal(state, action)

    act = staticmethod(apply_plan)


@FRAMES.register("unrest.defend_step", pending=False)
@attrs.frozen
class DefendStep(Decision[UnrestState, EmpireAction]):
    """Step frame of "The Empire will now take two actions": one Power per decision; the phase ends by itself
    after the second, or when no face-up token has a target."""

    seat: ClassVar[int] = EMPIRE

    def auto(self, state: UnrestState) -> UnrestState | None:
        """With no action left, the Rebellion executes (the next phase)."""
        if _powers_left(state.used, state.tokens, state.row, state.plan):
            return None
        return _moved(state, next_phase(state.pos))

    # The rule itself, not a method calling it: one Python call less at every decision.
    legal_actions = staticmethod(defend_actions)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """See :func:`power_legal`."""
        return isinstance(action, Surveil | Destroy | Reroute | Blockade) and power_legal(state, action)

    act = staticmethod(apply_power)


@FRAMES.register("unrest.place_step", pending=False)
@attrs.frozen
class PlaceStep(Decision[UnrestState, Place]):
    """Step frame of "decide where to place any of the remaining cards": one card per decision; once none is
    left the round's end begins by itself."""

    seat: ClassVar[int] = REBELLION

    def auto(self, state: UnrestState) -> UnrestState | None:
        """With every planned card gone, the End of the Round (the next phase)."""
        for p in state.plan:
            if p is not None:
                return None
        return _moved(state, next_phase(state.pos))

    # The rule itself, not a method calling it: one Python call less at every decision.
    legal_actions = staticmethod(place_actions)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """The lowest remaining slot into an allowed District (see :func:`place_targets`)."""
        if not isinstance(action, Place):
            return False
        return action.slot == _first_card(state) and action.district in place_targets(state)

    act = staticmethod(apply_place)
