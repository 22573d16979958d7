"""What both phases offer and how a step lists its options: General Actions, Crafts, card actions, and the
listing tables the Preparation Step and a player's turn are read from.

The Travel Phase (``travel.py``) and the Combat Phase (``combat.py``) both offer these; they sit here, below both,
and run their effects through the effect language (``effects.py``). Rulebook clauses are quoted on each function.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from tabletop_core.components import Pile
from tabletop_core.fastcopy import replace
from unbroken.actions import FOCUS, INSPIRATION, PLAN, Action, Craft, Use
from unbroken.content.schema import Ability, Op, Upgrade
from unbroken.rules.cards import static_ops
from unbroken.rules.effects import OPS, run_ops
from unbroken.rules.payment import ACT, CRAFT, USE, Cost, one
from unbroken.rules.resources import (
    Need,
    affordable,
    affords_need,
    can_pay,
    cost_need,
    need_of,
    needs,
    paid,
    paid_need,
    pay,
    spend_time,
)
from unbroken.rules.tables import pack_tables
from unbroken.rules.verbs import lay_weapon, weapon
from unbroken.state import LAST_LEVEL, LE, ME, RES, SE, TIME, Resource, State, no_resources

__all__ = [
    "ALWAYS",
    "ARMORED",
    "DOWNGRADABLE",
    "GENERAL",
    "GENERAL_OPTIONS",
    "IN_BATTLE",
    "NO_MONSTER",
    "ORIENTEERABLE",
    "ORIENTEER_BONUS",
    "REVEAL",
    "UNARMORED",
    "UNCOMMITTED",
    "WITH_USES",
    "ActionAbilities",
    "Entry",
    "action_abilities",
    "cost_op",
    "craft",
    "craft_cost",
    "craft_extra",
    "craft_ok",
    "craft_options",
    "crafts",
    "entry",
    "gates",
    "general_action",
    "general_cost",
    "general_ok",
    "general_options",
    "idle",
    "listed",
    "orienteer_matters",
    "priced",
    "reveal_count",
    "use",
    "use_actions",
    "use_cost",
    "use_entries",
    "use_ok",
]


#: The action abilities in play, in ``Use`` index order: each one's card (``kind:id``), index there, and ability.
ActionAbilities = tuple[tuple[str, int, Ability], ...]


#: "Reveal 2 cards (certain effects may increase or decrease this number)".
REVEAL = 2


#: Orienteer: "reveal 2 extra Encounter Cards".
ORIENTEER_BONUS = 2


def cost_op(res: str, n: int) -> Op:
    """The ``spend`` op of ``n`` of resource ``res`` (a fixed cost)."""
    return Op("spend", res=res, n=n)


#: General Actions: "Focus: Spend 4 Small Effort, gain 1 Medium Effort. Inspiration: Spend 2 Medium Effort, gain 1
#: Large Effort. Plan: Spend 4 Small Effort, gain 1 Cunning."
GENERAL: dict[int, tuple[tuple[Op, ...], str]] = {
    FOCUS: ((cost_op("se", 4),), "me"),
    INSPIRATION: ((cost_op("me", 2),), "le"),
    PLAN: ((cost_op("se", 4),), "cunning"),
}


# What each of these costs per resource slot (none scales with the Level), for the checks of every Preparation.
_GENERAL_NEED = {verb: need_of(needs(cost)) for verb, (cost, _) in GENERAL.items()}


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
        is_idle = OPS[e.op].idle
        if is_idle is None or not is_idle(state, e):
            return False
    return bool(effects)


def use(state: State, i: int, **changes: Any) -> State:
    """Use action ability ``i``: pay its cost (and an Ability Use for the character's), then run its effects.

    ``changes`` to other fields (none that the payment reads, say the pending stack) go into the payment's copy.
    """
    src, _, ability = action_abilities(state)[i]
    if src.startswith("character:"):
        changes["uses"] = state.uses - 1
    return run_ops(pay(state, ability.cost, **changes), ability.effects, src)


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
    return lay_weapon(state, u.to)


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
    bonuses = static_ops(state, "reveal")
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


#: What a listed option needs besides its cost: an index into the gates a listing is given (see :func:`listed`).
ALWAYS, UNCOMMITTED, ORIENTEERABLE, NO_MONSTER, DOWNGRADABLE, WITH_USES, IN_BATTLE, ARMORED, UNARMORED = range(9)


#: An option of a listing table: its action, its gate, the non-Effort slots its cost asks for (``None``: none),
#: the cost's Effort as three thresholds (see :func:`entry`), then the effects that may leave it idle (see
#: :func:`idle`; ``None``: it never is).
Entry = tuple[Action, int, tuple[tuple[Resource, int], ...] | None, int, int, int, tuple[Op, ...] | None]


#: The thresholds of an option with no cost to check: every track's value passes them.
_FREE = -(1 << 62)


#: The ops that may do nothing now (their entries' ``idle``, see :func:`idle`).
_IDLE_OPS = frozenset(name for name, d in OPS.items() if d.idle is not None)


def entry(action: Action, gate: int, cost: Need | None = None, effects: tuple[Op, ...] = ()) -> Entry:
    """A listing table's option (see :data:`Entry`): ``cost`` ``None`` for an option that costs nothing to check.

    The Effort of a :class:`Need` is affordable (as :func:`affordable` plans it: Large Effort pays for itself,
    then covers a Medium shortfall, then what is left of both covers a Small one) exactly when the Large Effort
    held reaches ``need.le``, the Medium and Large together ``need.me + need.le``, and all three together
    ``need.se + need.me + need.le``: the three thresholds kept here, checked against three sums read once.
    """
    # ``idle`` returns False at the first effect that is none of these: only such lists can be idle
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
