"""The Travel Phase: Preparation (General and Travel Actions), Decision, Exploration, Time and Ambush.

Rulebook clauses quoted on each function; the coverage table is ``docs/rules/unbroken.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from tabletop_core.components import Pile
from tabletop_core.fastcopy import accelerate, replace
from tabletop_core.flow import Automatic, Pending
from unbroken.actions import (
    DOWNGRADE,
    EXPLORE,
    FIGHT,
    FOCUS,
    INSPIRATION,
    ORIENTEER,
    PLAN,
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
from unbroken.content.schema import Ability, Op, Upgrade, Weapon
from unbroken.rules import combat, effects, triggers
from unbroken.rules.chance import CardDraw
from unbroken.rules.payment import ACT, CRAFT, PICK, USE, Cost, Decide, PayChoice, one
from unbroken.rules.resources import (
    Need,
    Res,
    affordable,
    affords_need,
    ambiguous,
    can_pay,
    cost_need,
    need_of,
    needs,
    paid,
    paid_need,
    pay,
    spend_time,
)
from unbroken.rules.tables import pack_tables, tables
from unbroken.state import LAST_LEVEL, LE, ME, RES, SE, TIME, Resource, State, no_resources, track_at

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
    "action_abilities",
    "craft_ok",
    "explore",
    "general_action",
    "orienteer_matters",
    "prep_actions",
    "reveal_count",
]

#: The action abilities in play, in ``Use`` index order: each one's card (``kind:id``), index there, and ability.
ActionAbilities = tuple[tuple[str, int, Ability], ...]
#: "Reveal 2 cards (certain effects may increase or decrease this number)".
REVEAL = 2
#: Orienteer: "reveal 2 extra Encounter Cards".
ORIENTEER_BONUS = 2


def _spend(res: str, n: int) -> Op:
    return Op("spend", res=res, n=n)


#: General Actions: "Focus: Spend 4 Small Effort, gain 1 Medium Effort. Inspiration: Spend 2 Medium Effort, gain 1
#: Large Effort. Plan: Spend 4 Small Effort, gain 1 Cunning."
GENERAL: dict[int, tuple[tuple[Op, ...], str]] = {
    FOCUS: ((_spend("se", 4),), "me"),
    INSPIRATION: ((_spend("me", 2),), "le"),
    PLAN: ((_spend("se", 4),), "cunning"),
}
#: "Scout: On Level 1, spend 1 Small Effort and 1 Time ... Level 2, 2 Small Effort and 2 Time. Level 3, 1 Cunning
#: and 1 Time. Level 4, 1 Cunning, 2 Small Effort, and 2 Time."
SCOUT_COST: dict[int, tuple[Op, ...]] = {
    1: (_spend("se", 1), _spend("time", 1)),
    2: (_spend("se", 2), _spend("time", 2)),
    3: (_spend("cunning", 1), _spend("time", 1)),
    4: (_spend("cunning", 1), _spend("se", 2), _spend("time", 2)),
}
ORIENTEER_COST = (_spend("se", 1),)
# What each of these costs per resource slot (none scales with the Level), for the checks of every Preparation.
_GENERAL_NEED = {verb: need_of(needs(cost)) for verb, (cost, _) in GENERAL.items()}
_SCOUT_NEED = {level: need_of(needs(cost)) for level, cost in SCOUT_COST.items()}
_ORIENTEER_NEED = need_of(needs(ORIENTEER_COST))
#: The General Actions in id order, each with what it costs.
GENERAL_OPTIONS = tuple((ACT[verb], _GENERAL_NEED[verb]) for verb in sorted(GENERAL))


def action_abilities(state: State) -> tuple[tuple[str, int, Ability], ...]:
    """Every action ability in play, in ``Use`` index order: the character's, then each skill's."""
    o = state.options
    return _action_abilities(o.pack, o.pack_sha256, o.character, state.skills)


@functools.lru_cache(maxsize=1024)
def _action_abilities(pack: str, digest: str, character: str, skills: tuple[str, ...]) -> ActionAbilities:
    """:func:`action_abilities` of a pack (named as the options name it), a character and the skills kept, in
    order (a bounded memo of a pure function of content)."""
    actions = pack_tables(pack, digest).actions
    out = list(actions[f"character:{character}"])
    for sid in skills:
        out += actions[f"skill:{sid}"]
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def _phase_abilities(
    pack: str, digest: str, character: str, skills: tuple[str, ...], phase: str
) -> tuple[tuple[Use, str, Ability], ...]:
    """The action abilities usable in ``phase`` (or any phase), each with its ``Use`` action (see :func:`use_ok`)."""
    return tuple(
        (one(USE, Use, i), src, a)
        for i, (src, _, a) in enumerate(_action_abilities(pack, digest, character, skills))
        if a.phase in (phase, "any")
    )


def use_actions(state: State, phase: str) -> list[Action]:
    """The ``Use`` actions of the action abilities that can be used now in ``phase`` (see :func:`use_ok`), in order."""
    o = state.options
    return [
        use
        for use, src, a in _phase_abilities(o.pack, o.pack_sha256, o.character, state.skills, phase)
        if not (src.startswith("character:") and state.uses <= 0)
        and can_pay(state, a.cost)
        and not idle(state, a.effects)
    ]


def weapon(state: State) -> Weapon:
    """The equipped weapon's card."""
    return tables(state).weapons[state.weapons[-1]]


def use_ok(state: State, src: str, ability: Ability, phase: str) -> bool:
    """Whether an action ability can be used now (phase, cost, and an Ability Use for character abilities)."""
    return ability.phase in (phase, "any") and _usable(state, src, ability)


def _usable(state: State, src: str, ability: Ability) -> bool:
    """:func:`use_ok` in the ability's phase: an Ability Use for the character's, the cost, an effect."""
    if src.startswith("character:") and state.uses <= 0:
        return False
    return can_pay(state, ability.cost) and not idle(state, ability.effects)


def idle(state: State, effects: tuple[Op, ...]) -> bool:
    """Whether every effect would do nothing now (a cure with no active Condition, a scout once the monster is
    known, an upgrade with none left, Wounds while the monster keeps Armor, an Armor break once it has none): such
    an action only spends its cost, so it is not offered.

    "Until the Armor resource bar reaches 0 — you may not inflict Wounds through Weapon Attacks and Actions,
    unless specifically noted otherwise" (a piercing Wound is so noted); "You may only choose to perform an
    Armor-Breaking attack if the monster still has at least 1 Armor left" (Crowbar's as well as a weapon's).
    """
    for e in effects:
        if e.op == "wound":
            c = state.combat
            if c is not None and (c.armor <= 0 or e.pierce):
                return False
            continue
        if e.op == "break_armor":
            c = state.combat
            if c is not None and c.armor > 0:
                return False
            continue
        if e.op == "cure" and not (e.id and all(c.id != e.id for c in state.conditions)) and state.conditions:
            return False
        if e.op == "scout" and not state.monster:
            return False
        if e.op == "weapon_up" and weapon(state).upgrades:
            return False
        if e.op not in ("cure", "scout", "weapon_up"):
            return False
    return bool(effects)


def use(state: State, i: int, **changes: Any) -> State:
    """Use action ability ``i``: pay its cost (and an Ability Use for the character's), then run its effects.

    ``changes`` to other fields (none that the payment reads, say the pending stack) go into the payment's copy.
    """
    src, _, ability = action_abilities(state)[i]
    if src.startswith("character:"):
        changes["uses"] = state.uses - 1
    return effects.run_ops(pay(state, ability.cost, **changes), ability.effects, src)


def use_cost(state: State, i: int) -> Cost:
    """What action ability ``i`` costs."""
    return action_abilities(state)[i][2].cost, None


def craft_cost(state: State, i: int) -> Cost:
    """What Craft option ``i`` costs, with its Time (see :func:`craft_extra`)."""
    in_battle = state.pos.phase == "combat"
    return weapon(state).upgrades[i].cost, craft_extra(state, i, combat=in_battle)


def general_cost(verb: int) -> Cost | None:
    """What a General Action costs (``None`` for any other verb)."""
    return (GENERAL[verb][0], None) if verb in GENERAL else None


def craft_ok(state: State, i: int, *, combat: bool) -> bool:
    """Whether Craft option ``i`` is affordable: "spend the listed cost to Upgrade Weapon".

    In the Travel Phase its Time must be available; in battle the Time counts against the next Level, or is paid
    in Small Effort on Level 4.
    """
    ups = weapon(state).upgrades
    if i >= len(ups):
        return False
    return _craft_affordable(state, ups[i], combat)


def _craft_affordable(state: State, u: Upgrade, combat: bool) -> bool:
    """``can_pay(state, u.cost, _extra(state, u, combat))``, the need made once per upgrade (see ``cost_need``)."""
    if combat and state.level < LAST_LEVEL:
        need = cost_need(u.cost)
    else:
        need = cost_need(u.cost, SE if combat else TIME, u.time)
    return can_pay(state, u.cost, _extra(state, u, combat)) if need is None else affords_need(state, need)


def craft_options(state: State, *, combat: bool) -> list[Action]:
    """The Craft actions whose cost and Time can be paid now, in order (each as :func:`craft_ok`)."""
    w = state.weapons[-1]
    o = state.options
    slot = TIME if not combat else SE if state.level == LAST_LEVEL else None
    crafts = _crafts(o.pack, o.pack_sha256, w, slot)
    if crafts is None:  # a cost that scales with the Level: checked one by one
        ups = weapon(state).upgrades
        return [one(CRAFT, Craft, i) for i, u in enumerate(ups) if _craft_affordable(state, u, combat)]
    return affordable(state, crafts) if crafts else []


@functools.lru_cache(maxsize=1024)
def _crafts(pack: str, digest: str, weapon_id: str, slot: Resource | None) -> tuple[tuple[Action, Need], ...] | None:
    """Each Craft of a weapon with what it costs, its Time paid in ``slot`` (``None``: not paid now); ``None``
    when a cost scales with the Level (a bounded memo of a pure function of content)."""
    out = []
    for i, u in enumerate(pack_tables(pack, digest).weapons[weapon_id].upgrades):
        need = cost_need(u.cost) if slot is None else cost_need(u.cost, slot, u.time)
        if need is None:
            return None
        out.append((one(CRAFT, Craft, i), need))
    return tuple(out)


def craft_extra(state: State, i: int, *, combat: bool) -> list[int]:
    """What a Craft's Time adds to its cost: Time in the Travel Phase, Small Effort in a Level 4 battle, and
    nothing in a Level 1-3 battle (it counts against the next Level's Time instead)."""
    return _extra(state, weapon(state).upgrades[i], combat)


def _extra(state: State, u: Upgrade, combat: bool) -> list[int]:
    extra = no_resources()
    if combat and state.level == LAST_LEVEL:
        extra[SE] = u.time
    elif not combat:
        extra[TIME] = u.time
    return extra


def craft(state: State, i: int, *, combat: bool) -> State:
    """Craft: pay the cost and the Time (a Level 4 battle's Small Effort with the cost, as one payment), lay the
    new weapon over the old one."""
    u = weapon(state).upgrades[i]
    state = pay(state, u.cost, _extra(state, u, combat))
    if combat and state.level < LAST_LEVEL:
        out = spend_time(state, u.time, combat=True)
        assert out is not None  # Levels 1-3: Time against the next Level, never fatal
        state = out
    return effects.lay_weapon(state, u.to)


def general_action(state: State, verb: int, **changes: Any) -> State:
    """Focus, Inspiration or Plan: pay, then gain 1 (one copy, with ``changes`` to fields neither reads)."""
    cost, gains = GENERAL[verb]
    # ``paid`` of the cost's Need made once (``_GENERAL_NEED``); the long way only to refuse an unpaid cost
    res = paid_need(state, _GENERAL_NEED[verb], RES[gains]) or paid(state, cost, gains=RES[gains])
    return replace(state, res=res, large_first=False, **changes)


def general_ok(state: State, verb: int) -> bool:
    """Whether a General Action's cost can be paid."""
    return affords_need(state, _GENERAL_NEED[verb])


def general_options(state: State) -> list[Action]:
    """The General Actions whose cost can be paid, in id order."""
    return affordable(state, GENERAL_OPTIONS)


def reveal_count(state: State) -> int:
    """Cards revealed in this Exploration Step: 2 plus modifiers (1 exactly when committed), at most every card the
    deck and its discards hold (the discards are reshuffled when the deck runs out; no other bound)."""
    if state.committed:
        return 1
    return _revealed(state.encounters, _reveal_wanted(state))


def _reveal_wanted(state: State) -> int:
    """The cards an uncommitted Exploration asks for: 2, the Reveal bonus (Orienteer, Map Fragment) and the Reveal
    statics in play (Pathfinder's +1, a condition's -1)."""
    bonuses = triggers.static_ops(state, "reveal")
    return REVEAL + state.reveal_bonus + (sum(o.n for o in bonuses) if bonuses else 0)


def _revealed(pile: Pile[int], n: int) -> int:
    """The cards revealed when ``n`` are asked for: at least 1, at most every card of ``pile`` and its discards."""
    if len(pile.counts) + len(pile.discards) >= n:
        # every distinct card counts at least once: the deck and its discards hold that many (``Pile.total``
        # would add up the copies of every card for a bound that cannot win the ``min``)
        return max(1, n)
    return max(1, min(n, pile.total))


def orienteer_matters(state: State) -> bool:
    """Whether Orienteer ("reveal 2 extra Encounter Cards during the Exploration Step") would reveal more: not while
    committed to the next encounter (1 card, "regardless of effects or modifiers"), nor once the next Exploration
    reveals every card left to reveal (the deck and its discards). The rulebook sets no other limit."""
    if state.committed:
        return False
    n = _reveal_wanted(state)
    pile = state.encounters
    return _revealed(pile, n + ORIENTEER_BONUS) > _revealed(pile, n)


# ----- listings in one pass -----------------------------------------------------------------------------------------

#: What a listed option needs besides its cost: an index into the gates a listing is given (see :func:`listed`).
ALWAYS, UNCOMMITTED, ORIENTEERABLE, NO_MONSTER, DOWNGRADABLE, WITH_USES, IN_BATTLE, ARMORED, UNARMORED = range(9)
#: An option of a listing table: its action, its gate, the non-Effort slots its cost asks for (``None``: none),
#: the cost's Effort as three thresholds (see :func:`entry`), then the effects that may leave it idle (see
#: :func:`idle`; ``None``: it never is).
Entry = tuple[Action, int, tuple[tuple[Resource, int], ...] | None, int, int, int, tuple[Op, ...] | None]
#: The thresholds of an option with no cost to check: every track's value passes them.
_FREE = -(1 << 62)
_IDLE_OPS = frozenset({"wound", "break_armor", "cure", "scout", "weapon_up"})


def entry(action: Action, gate: int, cost: Need | None = None, effects: tuple[Op, ...] = ()) -> Entry:
    """A listing table's option (see :data:`Entry`): ``cost`` ``None`` for an option that costs nothing to check.

    The Effort of a :class:`Need` is affordable (as :func:`affordable` plans it: Large Effort pays for itself,
    then covers a Medium shortfall, then what is left of both covers a Small one) exactly when the Large Effort
    held reaches ``need.le``, the Medium and Large together ``need.me + need.le``, and all three together
    ``need.se + need.me + need.le``: the three thresholds kept here, checked against three sums read once.
    """
    # ``idle`` returns False at the first effect that is none of these five: only such lists can be idle
    maybe_idle = effects if effects and all(e.op in _IDLE_OPS for e in effects) else None
    if cost is None:
        return (action, gate, None, _FREE, _FREE, _FREE, maybe_idle)
    le = cost.le
    return (action, gate, cost.others or None, le, cost.me + le, cost.se + cost.me + le, maybe_idle)


def priced(ops: tuple[Op, ...], level: int, extra: Sequence[int] = ()) -> Need | None:
    """The :class:`Need` of the ``spend`` ops at ``level`` plus ``extra`` per resource slot, as ``can_pay``
    checks them at that Level (``None``: nothing to check, ``can_pay`` of no ops and nothing more)."""
    if not ops and not any(extra):
        return None
    amounts = needs(ops, level)
    for r, n in enumerate(extra):
        amounts[r] += n
    return need_of(amounts)


def gates(state: State) -> tuple[bool, ...]:
    """Which gates of a listing are open in ``state`` (indexed by :data:`ALWAYS` ... :data:`UNARMORED`)."""
    committed = state.committed
    c = state.combat
    return (
        True,
        not committed,
        not committed and state.pos.phase == "travel" and orienteer_matters(state),
        not state.monster,
        len(state.weapons) > 1,
        state.uses > 0,
        c is not None,
        c is not None and c.armor > 0,
        c is not None and c.armor <= 0,
    )


def listed(state: State, table: tuple[Entry, ...]) -> list[Action]:
    """The actions of ``table`` whose gate is open, whose cost can be paid (as :func:`affordable` checks a
    :class:`Need`) and whose effects are not all idle, in the table's order."""
    res = state.res
    le = res[LE].value
    me_le = res[ME].value + le
    effort = res[SE].value + me_le
    open_ = gates(state)
    out: list[Action] = []
    for action, gate, others, t_le, t_me_le, t_effort, maybe_idle in table:
        if not open_[gate] or le < t_le or me_le < t_me_le or effort < t_effort:  # see ``entry``
            continue
        if others is not None:
            short = False
            for r, n in others:
                if n > res[r].value:
                    short = True
                    break
            if short:
                continue
        if maybe_idle is not None and idle(state, maybe_idle):
            continue
        out.append(action)
    return out


def use_entries(
    pack: str, digest: str, character: str, skills: tuple[str, ...], *, phase: str, level: int
) -> list[Entry]:
    """The entries of the action abilities usable in ``phase`` (see :func:`use_actions`) at ``level``."""
    return [
        entry(use, WITH_USES if src.startswith("character:") else ALWAYS, priced(a.cost, level), a.effects)
        for use, src, a in _phase_abilities(pack, digest, character, skills, phase)
    ]


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


def crafts(pack: str, digest: str, weapon_id: str, level: int, *, combat: bool) -> list[Entry]:
    """The entries of the weapon's Crafts at ``level`` (see :func:`craft_options`): each cost with its Time (the
    Travel Phase's Time, a Level 4 battle's Small Effort, nothing in a Level 1-3 battle)."""
    slot = TIME if not combat else SE if level == LAST_LEVEL else None
    out = []
    for i, u in enumerate(pack_tables(pack, digest).weapons[weapon_id].upgrades):
        extra = no_resources()
        if slot is not None:
            extra[slot] = u.time
        out.append(entry(one(CRAFT, Craft, i), ALWAYS, priced(u.cost, level, extra)))
    return out


def prep_actions(state: State) -> list[Action]:
    """The Preparation Step's choices (General and Travel Actions, then the Decision Step's fight or explore), from
    the step's listing table (see :func:`plain_prep_actions`, the same listing the long way)."""
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


def plain_prep_actions(state: State) -> list[Action]:
    """:func:`prep_actions` the long way: each kind of option listed on its own."""
    out: list[Action] = []
    if not state.committed:
        out.append(ACT[FIGHT])
    out.append(ACT[EXPLORE])
    out += general_options(state)
    if orienteer_matters(state) and affords_need(state, _ORIENTEER_NEED):
        out.append(ACT[ORIENTEER])
    if not state.monster and affords_need(state, _SCOUT_NEED[state.level]):
        out.append(ACT[SCOUT])
    if len(state.weapons) > 1:
        out.append(ACT[DOWNGRADE])
    out += craft_options(state, combat=False)
    out += use_actions(state, "travel")
    return out


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
        return state.push(combat.MonsterReveal(), res=res, large_first=False)
    if v == DOWNGRADE:
        return effects.weapon_down(state, perm=True)
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
    if all(o.op == "gain" for o in enc.gain) and not triggers.activates(state, "resolve"):
        # Gains alone change no card in play, push nothing and end nothing: the ``resolve`` Fire frame would pop
        # itself, and the card's end (the ExploreEnd frame) come next; all of it in one copy.
        return _end(state, card, effects.gained(state, res, enc.gain), state.pending.frames[:-1], large_first=False)
    state = state.restack(ExploreEnd(card), triggers.Fire("resolve"), res=res, large_first=False)
    return effects.run_ops(state, enc.gain, f"encounter:{enc.id}")


def rest(state: State, card: int) -> State:
    """Rest: "gain a number of Small Effort equal to the Time Value of the card" (plus rest bonuses)."""
    enc = state.pack.encounters[card]
    n = enc.time + sum(o.n for o in triggers.static_ops(state, "rest_bonus"))
    t = state.res[SE]
    gained: dict[str, Any] = {"res": state.res_at(SE, min(t.high, t.value + n))} if n > 0 else {}  # ``gain``
    if not triggers.activates(state, "rest"):
        # No ``rest`` Fire frame (see ``push_fire``): the card's end comes next, in the same copy.
        return _end(state, card, gained.get("res", state.res), state.pending.frames[:-1])
    return triggers.push_fire(state, "rest", ExploreEnd(card), restack=True, **gained)


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


@attrs.frozen
class Preparation(Decide):
    """Step frame of the Preparation and Decision Steps: General and Travel Actions, then fight or explore."""

    TAG: ClassVar[str] = "unbroken.preparation"
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


@attrs.frozen
class Onward(Automatic[State]):
    """Step frame of the Decision and Exploration Steps once nothing is pending: "repeat the steps: Preparation
    — Decision — Exploration", unless Time ran out (the Ambush)."""

    TAG: ClassVar[str] = "unbroken.onward"

    def resolve(self, state: State) -> State:
        """Back to Preparation, or the Ambush."""
        return state.at("combat", "ambush") if _ambushed(state) else state.at("travel", "preparation")


@accelerate
@attrs.frozen
class DrawEncounters(CardDraw):
    """Chance frame: ``n`` more Encounter Cards to reveal."""

    TAG: ClassVar[str] = "unbroken.draw_encounters"
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


@accelerate
@attrs.frozen
class ExplorePick(Decide):
    """Frame: "Choose 1" of the revealed Encounter Cards (one revealed: it is the one; none: back to Preparation)."""

    TAG: ClassVar[str] = "unbroken.explore_pick"
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


@accelerate
@attrs.frozen
class ExploreMode(Decide):
    """Frame: Resolve Encounter ``card`` (its Exchange) or Rest."""

    TAG: ClassVar[str] = "unbroken.explore_mode"
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


@attrs.frozen
class ExploreCommitted(Decide):
    """Frame: the committed encounter ``card`` is resolved if it can be (see :func:`committed`); when paying its
    Spend field leaves a real choice of Effort, the player makes it ("you can spend Effort of a higher category in
    place of Effort of a lower category"), as for any other cost."""

    TAG: ClassVar[str] = "unbroken.explore_committed"
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


@accelerate
@attrs.frozen
class ExploreEnd(Automatic[State]):
    """Frame: the encounter ``card`` is done: its Time is lost and it is discarded (see :func:`explore_end`)."""

    TAG: ClassVar[str] = "unbroken.explore_end"
    card: int

    def resolve(self, state: State) -> State:
        """Lose the Time, discard the card."""
        return explore_end(state, self.card)
