"""The Travel Phase: Preparation (General and Travel Actions), Decision, Exploration, Time and Ambush.

Rulebook clauses quoted on each function; the coverage table is ``docs/rules/unbroken.md``.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.components import Pile
from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import (
    DOWNGRADE,
    EXPLORE,
    FIGHT,
    ORIENTEER,
    RESOLVE,
    REST,
    SCOUT,
    Act,
    Action,
    Craft,
    Pick,
    Use,
    action_id,
)
from unbroken.content.schema import Op
from unbroken.rules import combat
from unbroken.rules.cards import activates, static_ops
from unbroken.rules.chance import CardDraw
from unbroken.rules.effects import run_ops
from unbroken.rules.listing import (
    ALWAYS,
    DOWNGRADABLE,
    GENERAL,
    GENERAL_OPTIONS,
    NO_MONSTER,
    ORIENTEER_BONUS,
    ORIENTEERABLE,
    UNCOMMITTED,
    Entry,
    cost_op,
    craft,
    craft_cost,
    crafts,
    entry,
    general_action,
    general_cost,
    listed,
    reveal_count,
    use,
    use_cost,
    use_entries,
)
from unbroken.rules.payment import ACT, PICK, Cost, Decide, PayChoice, one
from unbroken.rules.resources import (
    Res,
    ambiguous,
    can_pay,
    need_of,
    needs,
    paid,
    paid_need,
)
from unbroken.rules.triggers import Fire, push_fire
from unbroken.rules.verbs import MonsterReveal, gained, weapon_down
from unbroken.state import FRAMES, SE, TIME, State, track_at

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "GENERAL",
    "SCOUT_COST",
    "DrawEncounters",
    "ExploreCommitted",
    "ExploreEnd",
    "ExploreMode",
    "ExplorePick",
    "Onward",
    "Preparation",
    "explore",
    "prep_actions",
]

#: "Scout: On Level 1, spend 1 Small Effort and 1 Time ... Level 2, 2 Small Effort and 2 Time. Level 3, 1 Cunning
#: and 1 Time. Level 4, 1 Cunning, 2 Small Effort, and 2 Time."
SCOUT_COST: dict[int, tuple[Op, ...]] = {
    1: (cost_op("se", 1), cost_op("time", 1)),
    2: (cost_op("se", 2), cost_op("time", 2)),
    3: (cost_op("cunning", 1), cost_op("time", 1)),
    4: (cost_op("cunning", 1), cost_op("se", 2), cost_op("time", 2)),
}
ORIENTEER_COST = (cost_op("se", 1),)
_SCOUT_NEED = {level: need_of(needs(cost)) for level, cost in SCOUT_COST.items()}
_ORIENTEER_NEED = need_of(needs(ORIENTEER_COST))
# ----- listings in one pass -----------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _prep_table(  # noqa: PLR0917  # a memo's key: positional arguments make the cheapest lru_cache key
    pack: str, digest: str, character: str, skills: tuple[str, ...], weapon_id: str, level: int
) -> tuple[Entry, ...]:
    """The Preparation Step's options (see :func:`prep_actions`) as a listing table (a bounded memo of a pure
    function of content): the same options in the same order, each with its gate and cost."""
    out = [entry(ACT[FIGHT], UNCOMMITTED), entry(ACT[EXPLORE], ALWAYS)]
    out += [entry(act, ALWAYS, need) for act, need in GENERAL_OPTIONS]
    out.append(entry(ACT[ORIENTEER], ORIENTEERABLE, _ORIENTEER_NEED))
    out.append(entry(ACT[SCOUT], NO_MONSTER, _SCOUT_NEED[level]))
    out.append(entry(ACT[DOWNGRADE], DOWNGRADABLE))
    out += crafts(pack, digest, weapon_id, level, combat=False)
    out += use_entries(pack, digest, character, skills, phase="travel", level=level)
    return tuple(out)


def prep_actions(state: State) -> list[Action]:
    """The Preparation Step's choices (General and Travel Actions, then the Decision Step's fight or explore), from
    the step's listing table."""
    o, skills, w, level = state.options, state.skills, state.weapons[-1], state.level
    last = _last_prep[0]  # one read of one tuple: another thread's store replaces the whole entry, never a part
    if last[0] is o and last[1] is skills and last[2] == w and last[3] == level:
        table: tuple[Entry, ...] = last[4]
    else:
        table = _prep_table(o.pack, o.pack_sha256, o.character, skills, w, level)
        _last_prep[0] = (o, skills, w, level, table)
    return listed(state, table)


#: The options, skills, weapon and Level whose Preparation table was last asked for, and the table, as one tuple
#: (a one-entry memo by identity in front of ``_prep_table``'s; it holds the objects, so their identities are not
#: reused). Stored and read whole, so threads sharing it never see one entry's key with another's table.
_last_prep: list[tuple[Any, ...]] = [(None, None, None, 0, ())]


def apply_prep(state: State, action: Action) -> State:
    """Apply a Preparation/Decision Step choice."""
    if isinstance(action, Craft):
        return craft(state, action.i, combat=False)
    if isinstance(action, Use):
        return use(state, action.i)
    assert isinstance(action, Act)
    v = action.verb
    if v == FIGHT:
        # "Are you ready to fight the monster? If you are, ... proceed immediately to the Trickery Step."
        # the Trickery Step's own part follows at once (its step frame is what the driver resolves next)
        moved = combat.trickery(state, pos=state.position("combat", "trickery"))
        return state.at("combat", "trickery") if moved is None else moved
    if v == EXPLORE:
        return explore(state)
    if v in GENERAL:
        return general_action(state, v)
    if v == ORIENTEER:
        res = paid_need(state, _ORIENTEER_NEED) or paid(state, ORIENTEER_COST)  # ``pay``, its Need made once
        return replace(state, res=res, large_first=False, reveal_bonus=state.reveal_bonus + ORIENTEER_BONUS)
    if v == SCOUT:
        level = state.level
        res = paid_need(state, _SCOUT_NEED[level]) or paid(state, SCOUT_COST[level])  # its Need made once
        return state.push(MonsterReveal(), res=res, large_first=False)
    if v == DOWNGRADE:
        return weapon_down(state, perm=True)
    raise ValueError(f"not a preparation action: {action!r}")


def explore(state: State) -> State:
    """Exploration Step: "Reveal 2 cards (certain effects may increase or decrease this number) ... Choose 1"."""
    n = reveal_count(state)
    pos = state.position("travel", "exploration")
    return state.push(ExplorePick(), DrawEncounters(n), pos=pos, reveal_bonus=0)


def pick(state: State, i: int) -> State:
    """Keep revealed card ``i``; "putting the other(s) in the Encounter Discard Pile"."""
    card = state.revealed[i]
    pile = state.encounters
    for j, other in enumerate(state.revealed):
        if j != i:
            pile = pile.discard(other)
    frame = ExploreCommitted(card) if state.committed else ExploreMode(card)
    return state.replace_top(frame, encounters=pile, revealed=(), committed=False)


def mode_actions(state: State, card: int) -> list[Action]:
    """Resolve Encounter (only if the Spend field can be paid) or Rest."""
    enc = state.pack.encounters[card]
    out: list[Action] = [ACT[REST]]
    if can_pay(state, enc.spend):
        out.append(ACT[RESOLVE])
    return out


def resolve(state: State, card: int) -> State:
    """Resolve Encounter: the Exchange (spend, then gain), then the ``resolve`` trigger, then Time."""
    enc = state.pack.encounters[card]
    res = paid(state, enc.spend)
    if all(o.op == "gain" for o in enc.gain) and not activates(state, "resolve"):
        # Gains alone change no card in play, push nothing and end nothing: the ``resolve`` Fire frame would pop
        # itself, and the card's end (the ExploreEnd frame) come next; all of it in one copy.
        return _end(state, card, gained(state, res, enc.gain), state.pending.frames[:-1], large_first=False)
    state = state.restack(ExploreEnd(card), Fire("resolve"), res=res, large_first=False)
    return run_ops(state, enc.gain, f"encounter:{enc.id}")


def rest(state: State, card: int) -> State:
    """Rest: "gain a number of Small Effort equal to the Time Value of the card" (plus rest bonuses)."""
    enc = state.pack.encounters[card]
    n = enc.time + sum(o.n for o in static_ops(state, "rest_bonus"))
    t = state.res[SE]
    gained: dict[str, Any] = {"res": state.res_at(SE, min(t.high, t.value + n))} if n > 0 else {}  # ``gain``
    if not activates(state, "rest"):
        # No ``rest`` Fire frame (see ``push_fire``): the card's end comes next, in the same copy.
        return _end(state, card, gained.get("res", state.res), state.pending.frames[:-1])
    return push_fire(state, "rest", ExploreEnd(card), restack=True, **gained)


def committed(state: State, card: int) -> State:
    """A committed encounter must be resolved; if unpayable, "you do not get any benefit ... still advance Time"."""
    if can_pay(state, state.pack.encounters[card].spend):
        return resolve(state, card)
    return state.replace_top(ExploreEnd(card))


def explore_end(state: State, card: int) -> State:
    """Lose the card's Time Value and discard it; reaching 0 Time means the monster Ambushes you."""
    return _end(state, card, state.res, state.pending.frames[:-1])


def _end(state: State, card: int, res: Res, under: tuple[Frame, ...], **changes: Any) -> State:
    """:func:`explore_end` with the tracks ``res`` before it and the stack ``under`` after it (``changes`` to
    other fields in the same copy)."""
    t = res[TIME]
    time = max(t.low, t.value - state.pack.encounters[card].time)
    pos = state.position("combat", "ambush") if time <= 0 else state.position("travel", "preparation")
    res = (*res[:TIME], track_at(t, TIME, time), *res[TIME + 1 :])
    encounters = state.encounters.discard(card)
    return replace(state, pending=Pending(under), encounters=encounters, res=res, pos=pos, **changes)


def apply_mode(state: State, card: int, action: Action) -> State:
    """Apply Resolve or Rest."""
    assert isinstance(action, Act)
    return resolve(state, card) if action.verb == RESOLVE else rest(state, card)


def _ambushed(state: State) -> bool:
    """ "If this causes your Time Tracker to reach or go below 0 ... the monster Ambushes you"."""
    return state.amount(TIME) <= 0


@FRAMES.register("unbroken.preparation", slot=24)
@attrs.frozen
class Preparation(Decide):
    """Step frame of the Preparation and Decision Steps: General and Travel Actions, then fight or explore."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """Out of Time: the monster Ambushes you."""
        return state.at("combat", "ambush") if state.res[TIME].value <= 0 else None  # ``_ambushed``

    def options(self, state: State) -> list[Action]:
        """See :func:`prep_actions`."""
        return prep_actions(state)

    def cost(self, state: State, action: Action) -> Cost | None:
        """A card action's, a Craft's or a General or Travel Action's cost."""
        if isinstance(action, Use):
            return use_cost(state, action.i)
        if isinstance(action, Craft):
            return craft_cost(state, action.i)
        assert isinstance(action, Act)
        if action.verb == ORIENTEER:
            return ORIENTEER_COST, None
        if action.verb == SCOUT:
            return SCOUT_COST[state.level], None
        return general_cost(action.verb)

    def decide(self, state: State, action: Action) -> State:
        """See :func:`apply_prep`."""
        return apply_prep(state, action)


@FRAMES.register("unbroken.onward", pending=False)
@attrs.frozen
class Onward(Automatic[State]):
    """Step frame of the Decision and Exploration Steps once nothing is pending: "repeat the steps: Preparation
    — Decision — Exploration", unless Time ran out (the Ambush)."""

    def resolve(self, state: State) -> State:
        """Back to Preparation, or the Ambush."""
        return state.at("combat", "ambush") if _ambushed(state) else state.at("travel", "preparation")


@FRAMES.register("unbroken.draw_encounters", slot=9)
@accelerate
@attrs.frozen
class DrawEncounters(CardDraw):
    """Chance frame: ``n`` more Encounter Cards to reveal."""

    n: int

    def pile(self, state: State) -> Pile[int]:
        """The Encounter Deck."""
        return state.encounters

    def drawn(self, state: State, frames: tuple[Frame, ...], pile: Pile[int], card: int) -> State:
        """The card is revealed."""
        return state.restack(*frames, encounters=pile, revealed=(*state.revealed, card))

    def less(self) -> DrawEncounters:
        """One card fewer to reveal."""
        return DrawEncounters(self.n - 1)


@FRAMES.register("unbroken.explore_pick", slot=10)
@accelerate
@attrs.frozen
class ExplorePick(Decide):
    """Frame: "Choose 1" of the revealed Encounter Cards (one revealed: it is the one; none: back to Preparation)."""

    in_id_order: ClassVar[bool] = True

    def auto(self, state: State) -> State | None:
        """No choice with one card or none."""
        if len(state.revealed) == 1:
            return pick(state, 0)
        if not state.revealed:
            return state.pop().at("travel", "preparation")
        return None

    def options(self, state: State) -> list[Action]:
        """One pick per distinct revealed card (two copies of one encounter give the same result: one is offered)."""
        return [one(PICK, Pick, i) for i, card in enumerate(state.revealed) if card not in state.revealed[:i]]

    def label(self, state: State, i: int) -> str:
        """The revealed card's name."""
        return state.pack.encounters[state.revealed[i]].name if i < len(state.revealed) else ""

    def decide(self, state: State, action: Action) -> State:
        """Keep the picked card."""
        assert isinstance(action, Pick)
        return pick(state, action.i)


@FRAMES.register("unbroken.explore_mode", slot=11)
@accelerate
@attrs.frozen
class ExploreMode(Decide):
    """Frame: Resolve Encounter ``card`` (its Exchange) or Rest."""

    in_id_order: ClassVar[bool] = True
    card: int

    def options(self, state: State) -> list[Action]:
        """See :func:`mode_actions`."""
        return mode_actions(state, self.card)

    def cost(self, state: State, action: Action) -> Cost | None:
        """Resolving spends the Spend field."""
        assert isinstance(action, Act)
        return (state.pack.encounters[self.card].spend, None) if action.verb == RESOLVE else None

    def decide(self, state: State, action: Action) -> State:
        """See :func:`apply_mode`."""
        return apply_mode(state, self.card, action)


@FRAMES.register("unbroken.explore_committed", slot=12)
@attrs.frozen
class ExploreCommitted(Decide):
    """Frame: the committed encounter ``card`` is resolved if it can be (see :func:`committed`); when paying its
    Spend field leaves a real choice of Effort, the player makes it ("you can spend Effort of a higher category in
    place of Effort of a lower category"), as for any other cost."""

    in_id_order: ClassVar[bool] = True
    card: int

    def auto(self, state: State) -> State | None:
        """Resolve it (asking how to pay when that is a choice), or only advance Time."""
        spend = state.pack.encounters[self.card].spend
        if can_pay(state, spend) and ambiguous(state, spend):
            return state.push(PayChoice(action_id(ACT[RESOLVE])))
        return committed(state, self.card)

    def options(self, state: State) -> list[Action]:
        """Resolve (the only option: it is asked only through the payment choice)."""
        return [ACT[RESOLVE]]

    def cost(self, state: State, action: Action) -> Cost | None:
        """The Spend field."""
        return state.pack.encounters[self.card].spend, None

    def decide(self, state: State, action: Action) -> State:
        """Resolve it, paid as chosen."""
        return resolve(state, self.card)


@FRAMES.register("unbroken.explore_end", slot=13)
@accelerate
@attrs.frozen
class ExploreEnd(Automatic[State]):
    """Frame: the encounter ``card`` is done: its Time is lost and it is discarded (see :func:`explore_end`)."""

    card: int

    def resolve(self, state: State) -> State:
        """Lose the Time, discard the card."""
        return explore_end(state, self.card)
