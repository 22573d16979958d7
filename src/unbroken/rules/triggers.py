"""Responses and Passives: which abilities a trigger activates, and the rules for resolving them.

Rulebook: "Response effects listed on Monster Sheets and Condition Cards are mandatory, while those on Character
Sheets and Skill Cards are optional. Unless noted otherwise, Responses can only activate once per trigger ... If
the same trigger activates several Responses, the player may choose the sequence" and "Passive effects are always
resolved after any applicable Responses. If several Passive effects are in play, the player chooses the order."
An ordering is offered only when it can change the outcome: activated effects whose footprints (the tracks they
touch, see :func:`footprint`) meet only where both merely add resolve in card order without a decision. The
cards in play and what they activate are read from :mod:`unbroken.rules.cards`; effects run through
:mod:`unbroken.rules.effects`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import PASS, Action, Respond
from unbroken.content.schema import Ability, Op
from unbroken.rules.cards import abilities_of, activates, memo_of
from unbroken.rules.effects import OPS, run_ops
from unbroken.rules.payment import ACT, RESPOND, Cost, Decide, one
from unbroken.rules.resources import can_pay, paid
from unbroken.rules.tables import tables
from unbroken.state import FRAMES, Combat, State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "COMMUTING",
    "Cand",
    "Fire",
    "Trig",
    "available",
    "break_armor",
    "commute",
    "fire",
    "footprint",
    "push_fire",
    "resolves_to_nothing",
    "stages",
]

#: Ops that only add to what they touch (their entries' ``adds``, see :class:`~unbroken.rules.effects.OpDef`):
#: two of them on the same track give the same result in either order.
COMMUTING = frozenset(name for name, d in OPS.items() if d.adds)
_EFFORT = frozenset({"se", "me", "le"})
_ADD, _OTHER = 0, 1


@accelerate
@attrs.frozen
class Cand:
    """A Response or Passive that a trigger activated: its card (``kind:id``), ability index, optional or not."""

    TAG: ClassVar[str] = "unbroken.cand"
    src: str
    index: int
    optional: bool


@FRAMES.register("unbroken.fire", slot=3)
@accelerate
@attrs.frozen
class Fire(Automatic[State]):
    """Frame: ``trigger`` happens now; the Responses and Passives it activates become a :class:`Trig`."""

    trigger: str

    def resolve(self, state: State) -> State:
        """Collect what the trigger activates (nothing: the frame goes); what the :class:`Trig` frame resolves
        by itself is resolved in the same step.

        The same as putting the ``Trig`` on top for the driver to run next: the end checks between read nothing
        that differs (neither frame is an effect list), and the ``Trig`` reads no pending frame but the top one,
        which it replaces or pops, so it gives the same state run on top of this one (one copy instead of two).
        """
        frame = fire(state, self.trigger)
        if frame is None:
            return state.pop()
        out = frame.auto(state)
        return state.replace_top(frame) if out is None else out


@FRAMES.register("unbroken.trig", slot=4)
@accelerate
@attrs.frozen
class Trig(Decide):
    """Frame: the Responses (stage 0) then Passives (stage 1) activated by ``trigger``, not yet resolved.

    Orders that cannot change the outcome are not offered: the mandatory ones resolve in card order; several
    optional ones whose order cannot matter are offered one at a time (use it, or pass it).
    """

    trigger: str
    cands: tuple[Cand, ...]
    stage: int = 0

    def auto(self, state: State) -> State | None:
        """Resolve what needs no decision; wait (``None``) when the player chooses."""
        if self.stage == 0:
            avail, usable = stages(state, self)
            if not avail:
                # The Passives' stage, run now (the end checks between the two stages read nothing that differs,
                # see ``Fire.resolve``); with none usable either, the frame goes.
                if not usable:
                    return state.pop()
                passives = replace(self, stage=1)
                if len(usable) == 1 or commute(state, usable):
                    return passives._resolve(state, usable[0][0])
                return state.replace_top(passives)
            mandatory = [i for i, c in avail if not c.optional]
            if mandatory and (len(avail) == 1 or commute(state, avail)):
                return self._resolve(state, mandatory[0])
            return None
        avail = available(state, self)
        if not avail:
            return state.pop()
        if len(avail) == 1 or commute(state, avail):
            return self._resolve(state, avail[0][0])
        return None

    def options(self, state: State) -> list[Action]:
        """Resolve one of the usable candidates next, or pass the optional Responses."""
        avail = available(state, self)
        if self._one_at_a_time(state, avail):
            return [one(RESPOND, Respond, avail[0][0]), ACT[PASS]]
        out: list[Action] = [one(RESPOND, Respond, i) for i, _ in avail]
        if self.stage == 0 and all(c.optional for _, c in avail):
            out.append(ACT[PASS])
        return out

    def cost(self, state: State, action: Action) -> Cost | None:
        """A Response's cost."""
        if not isinstance(action, Respond):
            return None
        cand = self.cands[action.i]
        return abilities_of(state, cand.src)[cand.index].cost, None

    def decide(self, state: State, action: Action) -> State:
        """Resolve candidate ``i``, or pass (decline the one offered, or every optional one left)."""
        if isinstance(action, Respond):
            return self._resolve(state, action.i)
        avail = available(state, self)
        if self._one_at_a_time(state, avail):  # pass: decline the first one offered
            i = avail[0][0]
            return state.replace_top(replace(self, cands=self.cands[:i] + self.cands[i + 1 :]))
        # pass: decline the remaining optional Responses
        return state.replace_top(replace(self, cands=tuple(c for c in self.cands if not c.optional)))

    def _one_at_a_time(self, state: State, avail: list[tuple[int, Cand]]) -> bool:
        """Several optional Responses whose order cannot matter: each is offered in card order, use it or pass it
        (which ones are used is the player's choice; the order among them is not a choice)."""
        return self.stage == 0 and len(avail) > 1 and all(c.optional for _, c in avail) and commute(state, avail)

    def _resolve(self, state: State, i: int) -> State:
        """Resolve activated ability ``i``: pay its cost (and an Ability Use for the character's), run its effects."""
        cand = self.cands[i]
        ability = abilities_of(state, cand.src)[cand.index]
        uses = {"uses": state.uses - 1} if cand.src.startswith("character:") else {}
        rest = replace(self, cands=self.cands[:i] + self.cands[i + 1 :])
        state = state.replace_top(rest, res=paid(state, ability.cost), large_first=False, **uses)  # one copy
        return run_ops(state, ability.effects, cand.src)


def footprint(ops: tuple[Op, ...], out: dict[str, int] | None = None) -> dict[str, int]:
    """The cells ``ops`` touch (each op's entry's ``cells``), each marked ``_ADD`` (only added to, its ``adds``) or
    ``_OTHER``; alternatives included.

    Effort is one cell (a higher category covers a lower one); Time also touches Effort (Level 4 pays it so).
    """
    out = {} if out is None else out

    def mark(cell: str, mode: int) -> None:
        """Record ``cell`` with the stronger of the modes seen."""
        out[cell] = max(out.get(cell, _ADD), mode)

    for o in ops:
        d = OPS[o.op]
        mode = _ADD if d.adds and o.n >= 0 else _OTHER
        for cell in d.cells:
            mark(("effort" if o.res in _EFFORT else o.res) if cell == "res" else cell, mode)
        footprint(o.alt, out)
        footprint(o.then, out)
        for branch in o.options:
            footprint(branch, out)
    return out


def _commute_pair(a: dict[str, int], b: dict[str, int]) -> bool:
    if "*" in a or "*" in b:
        return False
    return all(a[c] == _ADD and b[c] == _ADD for c in a.keys() & b.keys())


#: The fields that say which cards are in play (see :func:`~unbroken.rules.cards.cards_in_play`).
_CARD_FIELDS = frozenset({"options", "skills", "conditions"})


def push_fire(
    state: State,
    trigger: str,
    *frames: Frame,
    restack: bool = False,
    under: tuple[Frame, ...] | None = None,
    **changes: Any,
) -> State:
    """``state.push(*frames, Fire(trigger), **changes)`` (``restack``: ``state.restack(...)``; ``under``: onto
    these frames instead of the state's stack), as the last thing a frame does; the :class:`Fire` frame is left
    out when nothing in play activates on ``trigger``.

    Left out, it changes nothing: on top of the stack it would resolve next with these same cards in play and pop
    itself, or be dropped unresolved by an end check (the end of the game, a defeated monster). When ``changes``
    touch the cards in play, the frame is pushed as before.
    """
    combat = changes.get("combat", state.combat)
    same_cards = changes.keys().isdisjoint(_CARD_FIELDS) and (
        combat is state.combat
        or (combat is not None and state.combat is not None and combat.monster == state.combat.monster)
    )
    if not (same_cards and not activates(state, trigger)):
        frames = (*frames, Fire(trigger))
    if under is not None:
        return replace(state, pending=Pending((*under, *frames)), **changes)
    if restack:
        return state.restack(*frames, **changes)
    return state.push(*frames, **changes) if frames or changes else state


def fire(state: State, trigger: str) -> Trig | None:
    """The frame of Responses activated by ``trigger`` (``None`` if nothing responds or passes)."""
    memo = memo_of(state)
    fired = memo.fired
    if trigger in fired:
        return fired[trigger]
    responses = tables(state).responses
    cands = [Cand(src, i, optional) for src in memo.cards for i, optional in responses[src].get(trigger, ())]
    frame = fired[trigger] = Trig(trigger, tuple(cands), 0) if cands else None
    return frame


def _ability(state: State, cand: Cand) -> Ability | None:
    abilities = abilities_of(state, cand.src)
    return abilities[cand.index] if cand.index < len(abilities) else None


def available(state: State, frame: Trig, combat: Combat | None = None) -> list[tuple[int, Cand]]:
    """The still-usable candidates of the frame's current stage, with their positions in ``frame.cands``.

    ``combat``: the battle to judge a roll's shift by, when it is not yet the state's (the same monster).
    """
    responses, passives = stages(state, frame, combat)
    return responses if frame.stage == 0 else passives


def stages(
    state: State, frame: Trig, combat: Combat | None = None
) -> tuple[list[tuple[int, Cand]], list[tuple[int, Cand]]]:
    """:func:`available` of ``frame``'s candidates at both stages in one pass: the usable Responses, then the
    usable Passives (a candidate is one or the other, by its ability's kind)."""
    responses: list[tuple[int, Cand]] = []
    passives: list[tuple[int, Cand]] = []
    if not frame.cands:
        return responses, passives
    c = state.combat if combat is None else combat
    no_uses = state.uses <= 0
    known = memo_of(state).abilities  # see ``abilities_of``
    for i, cand in enumerate(frame.cands):
        abilities = known.get(cand.src)
        if abilities is None:
            abilities = abilities_of(state, cand.src)
        if cand.index >= len(abilities):
            continue
        a = abilities[cand.index]
        kind = a.kind
        if kind == "response":
            out = responses
        elif kind == "passive":
            out = passives
        else:
            continue
        if no_uses and cand.src.startswith("character:"):
            continue
        if not can_pay(state, a.cost) or _idle_shift(c, a):
            continue
        out.append((i, cand))
    return responses, passives


def resolves_to_nothing(state: State, frame: Trig, combat: Combat | None = None) -> bool:
    """Whether the (stage 0) ``frame`` on top would only pop itself: no usable Response, then no usable Passive
    (see :meth:`Trig.auto`; ``combat`` as for :func:`available`)."""
    responses, passives = stages(state, frame, combat)
    return not responses and not passives


def _idle_shift(c: Combat | None, ability: Ability) -> bool:
    """Whether ``ability`` only shifts the Combat Roll and the shift cannot move it ("the roll result cannot exceed
    6 or fall below 1"): such a Response changes nothing but its cost, so it is not offered."""
    if c is None or not ability.effects or any(e.op != "shift_roll" for e in ability.effects):
        return False
    roll = c.roll
    for e in ability.effects:
        roll = max(1, min(6, roll + e.n))
    return roll == c.roll


def commute(state: State, cands: list[tuple[int, Cand]]) -> bool:
    """Whether resolving these candidates in any order gives the same result: their footprints (effects and
    costs; an Ability Use for the character's) pairwise meet only on cells that both merely add to."""
    prints = []
    for _, c in cands:
        a = _ability(state, c)
        if a is None:
            return False
        fp = footprint(a.effects)
        for cell in footprint(a.cost):
            fp[cell] = _OTHER
        if c.src.startswith("character:"):
            fp["uses"] = _OTHER
        prints.append(fp)
    return all(_commute_pair(x, y) for i, x in enumerate(prints) for y in prints[i + 1 :])


def break_armor(state: State, n: int, under: tuple[Frame, ...] | None = None, **changes: Any) -> State:
    """Break up to ``n`` Armor (the ``armor_broken`` trigger fires when some breaks), on the stack ``under``
    (default: the state's) and with ``changes`` to other fields (none that it reads) in the same copy."""
    c = state.combat
    assert c is not None
    broken = min(n, c.armor)
    if broken:
        return push_fire(state, "armor_broken", under=under, combat=replace(c, armor=c.armor - broken), **changes)
    if under is not None:
        changes["pending"] = Pending(under)
    return replace(state, **changes) if changes else state
