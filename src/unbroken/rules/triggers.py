"""Responses and Passives: which abilities a trigger activates, and the rules for resolving them.

Rulebook: "Response effects listed on Monster Sheets and Condition Cards are mandatory, while those on Character
Sheets and Skill Cards are optional. Unless noted otherwise, Responses can only activate once per trigger ... If
the same trigger activates several Responses, the player may choose the sequence" and "Passive effects are always
resolved after any applicable Responses. If several Passive effects are in play, the player chooses the order."
An ordering is offered only when it can change the outcome: activated effects whose footprints (the tracks they
touch, see :func:`footprint`) meet only where both merely add resolve in card order without a decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import PASS, Action, Respond
from unbroken.content.schema import Ability, Op
from unbroken.rules import effects
from unbroken.rules.payment import ACT, RESPOND, Cost, Decide, one
from unbroken.rules.resources import can_pay, paid
from unbroken.rules.tables import tables
from unbroken.state import Combat, State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "COMMUTING",
    "Cand",
    "Fire",
    "InPlay",
    "Trig",
    "abilities_of",
    "activates",
    "available",
    "cards_in_play",
    "commute",
    "fire",
    "footprint",
    "ignored",
    "in_play",
    "is_in_play",
    "label",
    "push_fire",
    "resolves_to_nothing",
    "stages",
    "static_ops",
    "statics",
]

#: Ops that only add to what they touch (capped gains, raised monster values, a DEFEND, wound bonuses, new
#: conditions): two of them on the same track give the same result in either order.
COMMUTING = frozenset({"gain", "monster_gain", "condition", "defend", "power"})
#: The track (footprint cell) each op touches; ops not listed touch ``*`` (anything: they never commute).
_CELLS = {
    "gain": "res",
    "spend": "res",
    "lose": "res",
    "time": "time",
    "monster_gain": "monster",
    "heal": "monster",
    "wound": "monster",
    "break_armor": "monster",
    "defend": "defend",
    "power": "power",
    "cap_wounds": "power",
    "condition": "conditions",
    "cure": "conditions",
    "tick": "conditions",
    "shift_roll": "roll",
}
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


@accelerate
@attrs.frozen
class Fire(Automatic[State]):
    """Frame: ``trigger`` happens now; the Responses and Passives it activates become a :class:`Trig`."""

    TAG: ClassVar[str] = "unbroken.fire"
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


@accelerate
@attrs.frozen
class Trig(Decide):
    """Frame: the Responses (stage 0) then Passives (stage 1) activated by ``trigger``, not yet resolved.

    Orders that cannot change the outcome are not offered: the mandatory ones resolve in card order; several
    optional ones whose order cannot matter are offered one at a time (use it, or pass it).
    """

    TAG: ClassVar[str] = "unbroken.trig"
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
        return effects.run_ops(state, ability.effects, cand.src)


def footprint(ops: tuple[Op, ...], out: dict[str, int] | None = None) -> dict[str, int]:
    """The cells ``ops`` touch, each marked ``_ADD`` (only added to) or ``_OTHER``; alternatives included.

    Effort is one cell (a higher category covers a lower one); Time also touches Effort (Level 4 pays it so).
    """
    out = {} if out is None else out

    def mark(cell: str, mode: int) -> None:
        """Record ``cell`` with the stronger of the modes seen."""
        out[cell] = max(out.get(cell, _ADD), mode)

    for o in ops:
        cell = _CELLS.get(o.op, "*")
        if cell == "res":
            cell = "effort" if o.res in _EFFORT else o.res
        mode = _ADD if o.op in COMMUTING and o.n >= 0 else _OTHER
        mark(cell, mode)
        if o.op == "time":
            mark("effort", _OTHER)
        footprint(o.alt, out)
        footprint(o.then, out)
        for branch in o.options:
            footprint(branch, out)
    return out


def _commute_pair(a: dict[str, int], b: dict[str, int]) -> bool:
    if "*" in a or "*" in b:
        return False
    return all(a[c] == _ADD and b[c] == _ADD for c in a.keys() & b.keys())


def cards_in_play(state: State) -> list[str]:
    """The source name (``kind:id``) of every card in play: character, skills, active conditions, the monster in
    combat, in that order."""
    return list(_in_play(state).cards)


def _listed(state: State) -> tuple[str, ...]:
    """:func:`cards_in_play`, built from the fields (the long way the memo of :func:`_in_play` stands for)."""
    out = [f"character:{state.options.character}"]
    if state.skills:
        out += [f"skill:{s}" for s in state.skills]
    if state.conditions:
        out += [f"condition:{c.id}" for c in state.conditions]
    if state.combat is not None:
        out.append(f"monster:{state.combat.monster}")
    return tuple(out)


class InPlay:
    """The cards in play for one set of the fields that say which (see :func:`cards_in_play`), with what is
    derived from them alone, filled in as it is asked for: the static ops by op name, by trigger whether
    anything activates and the frame of Responses it fires, each card's abilities (see :func:`abilities_of`) and
    the Combat Actions ignored (see :func:`ignored`). Every entry is a pure function of the fields and the
    pack; the memo holds the field values it was made for, so their identities are not reused while it is kept.
    """

    __slots__ = (
        "abilities",
        "activated",
        "cards",
        "conditions",
        "fired",
        "ignored",
        "monster",
        "options",
        "skills",
        "statics",
    )

    def __init__(self, state: State) -> None:
        self.options = state.options
        self.skills = state.skills
        self.conditions = state.conditions
        self.monster = None if state.combat is None else state.combat.monster
        self.cards = _listed(state)
        self.statics: dict[str, tuple[Op, ...]] = {}
        self.activated: dict[str, bool] = {}
        self.fired: dict[str, Trig | None] = {}
        self.abilities: dict[str, tuple[Ability, ...]] = {}  # by card name, ``()`` for a card not in play
        self.ignored: list[frozenset[str]] = []  # at most one entry (filled once, shared as the dicts are)

    def sharing(self, state: State) -> InPlay:
        """This memo for ``state``, whose fields are equal to the ones it was made for (other objects): the same
        cards and derived tables (shared, so what either derives serves both), ``state``'s field objects."""
        new = InPlay.__new__(InPlay)
        new.options = state.options
        new.skills = state.skills
        new.conditions = state.conditions
        new.monster = self.monster
        new.cards = self.cards
        new.statics = self.statics
        new.activated = self.activated
        new.fired = self.fired
        new.abilities = self.abilities
        new.ignored = self.ignored
        return new


#: The last :class:`InPlay` asked for (the cards in play change rarely within a game or a search).
_IN_PLAY: list[InPlay | None] = [None]
#: Every :class:`InPlay` made, by the values of the fields that say which cards are in play (a bounded memo: a
#: playout or a search goes back to cards it had before, a new game to the starting ones).
_IN_PLAY_BY_FIELDS: dict[tuple[object, ...], InPlay] = {}
_IN_PLAY_MAX = 1024


def _in_play(state: State) -> InPlay:
    """The :class:`InPlay` of ``state``'s fields: the last one when the options, skills and conditions are the
    same objects and the monster in combat the same, else the one made for equal fields, else a new one."""
    memo = _IN_PLAY[0]
    c = state.combat
    monster = None if c is None else c.monster
    if (
        memo is not None
        and memo.skills is state.skills
        and memo.conditions is state.conditions
        and memo.options is state.options
        and memo.monster == monster
    ):
        return memo
    # The options by identity (interned, see ``Game.make_options``): every entry holds its options, so the id of
    # a key is not reused while the entry is kept.
    key = (id(state.options), state.skills, state.conditions, monster)
    memo = _IN_PLAY_BY_FIELDS.get(key)
    if memo is None:
        if len(_IN_PLAY_BY_FIELDS) >= _IN_PLAY_MAX:
            _IN_PLAY_BY_FIELDS.clear()
        memo = _IN_PLAY_BY_FIELDS[key] = InPlay(state)
    elif memo.skills is not state.skills or memo.conditions is not state.conditions:
        memo = memo.sharing(state)  # equal fields, other objects: for the identity test above to hit next time
    _IN_PLAY[0] = memo
    return memo


def in_play(state: State) -> list[tuple[str, tuple[Ability, ...]]]:
    """Every card in play with its abilities: character, skills, active conditions, the monster in combat."""
    abilities = tables(state).abilities
    return [(src, abilities[src]) for src in cards_in_play(state)]


def abilities_of(state: State, src: str) -> tuple[Ability, ...]:
    """The abilities of the card ``src`` (``kind:id``) if it is in play, else ``()`` (kept with the cards in
    play, see :class:`InPlay`)."""
    known = _in_play(state).abilities
    found = known.get(src)
    if found is None:
        found = known[src] = tables(state).abilities[src] if is_in_play(state, src) else ()
    return found


def ignored(state: State) -> frozenset[str]:
    """The kinds of monster Combat Action that the cards in play ignore (the ids of the ``ignore`` static ops;
    derived once per set of cards in play, see :class:`InPlay`)."""
    memo = _in_play(state)
    if not memo.ignored:
        memo.ignored.append(frozenset(o.id for o in static_ops(state, "ignore")))
    return memo.ignored[0]


def is_in_play(state: State, src: str) -> bool:
    """Whether ``src`` is one of :func:`cards_in_play` (read from the fields, without listing them)."""
    kind, _, cid = src.partition(":")
    if kind == "character":
        return cid == state.options.character
    if kind == "skill":
        return cid in state.skills
    if kind == "condition":
        return any(c.id == cid for c in state.conditions)
    if kind == "monster":
        return state.combat is not None and state.combat.monster == cid
    return False


def label(state: State, src: str, index: int) -> str:
    """A short name for ability ``index`` of card ``src``."""
    abilities = abilities_of(state, src)
    name = abilities[index].name if index < len(abilities) else ""
    return name or src.split(":", 1)[1].replace("_", " ")


def statics(state: State, op: str) -> list[Op]:
    """The ops named ``op`` of every static ability in play."""
    return list(static_ops(state, op))


def static_ops(state: State, op: str) -> tuple[Op, ...]:
    """:func:`statics` as a tuple, derived once per set of cards in play (see :class:`InPlay`)."""
    memo = _in_play(state)
    found = memo.statics.get(op)
    if found is None:
        cards = tables(state).statics
        listed: list[Op] = []
        for src in memo.cards:
            ops = cards.get(src)
            if ops is not None:
                listed += ops.get(op, ())
        found = memo.statics[op] = tuple(listed)
    return found


#: The fields that say which cards are in play (see :func:`cards_in_play`).
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


def activates(state: State, trigger: str) -> bool:
    """Whether ``trigger`` activates anything in play (:func:`fire` gives a frame), without building it."""
    memo = _in_play(state)
    found = memo.activated.get(trigger)
    if found is None:
        responses = tables(state).responses
        found = memo.activated[trigger] = any(trigger in responses[src] for src in memo.cards)
    return found


def fire(state: State, trigger: str) -> Trig | None:
    """The frame of Responses activated by ``trigger`` (``None`` if nothing responds or passes)."""
    memo = _in_play(state)
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
    known = _in_play(state).abilities  # see ``abilities_of``
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
