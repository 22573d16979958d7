"""Resources on bounded tracks: gains past a cap are lost; Effort of a higher category may pay for a lower one.

Rulebook: "Each category is a distinct resource and is spent independently. However, you can spend Effort of a
higher category in place of Effort of a lower category." and "If you ever must lose Effort but do not have enough
— you lose the game." A higher category covers only the shortfall of a lower one, cheapest category first (see the
interpretations in ``docs/rules/unbroken.md``).
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

from tabletop_core.components import Track
from tabletop_core.fastcopy import replace
from unbroken.content.schema import Op
from unbroken.state import (
    EFFORT,
    LAST_LEVEL,
    LE,
    ME,
    N_RESOURCES,
    NON_EFFORT,
    RES,
    SE,
    TIME,
    Resource,
    State,
    no_resources,
    track_at,
)

__all__ = [
    "Cover",
    "Need",
    "Res",
    "affordable",
    "affords",
    "affords_need",
    "ambiguous",
    "can_pay",
    "cost_need",
    "effort_total",
    "gain",
    "lose",
    "lose_effort",
    "loss_plans",
    "loss_ways",
    "may_choose",
    "need_of",
    "needs",
    "no_time_tracker",
    "paid",
    "paid_need",
    "pay",
    "shortfall_covers",
    "spend_time",
]


T = TypeVar("T")

#: A state's resource tracks, in slot order.
Res = tuple[Track, ...]
#: How a Small Effort shortfall is covered (``State.large_first``): ``False``, Medium Effort first (the least Large
#: Effort it can take); ``True``, Large Effort first (the most); an ``int`` (never a bool), exactly that much Large
#: Effort and the rest Medium (a split between the two, held within what each can cover).
Cover = bool | int


def gain(state: State, r: Resource, n: int) -> State:
    """Gain ``n`` of resource ``r`` (the excess over the track's cap is lost; Time in a Level 4 Combat Phase, where
    the Time Tracker holds no token, is not gained: see :func:`no_time_tracker`)."""
    if n <= 0 or (r == TIME and no_time_tracker(state)):
        return state
    t = state.res[r]
    return replace(state, res=state.res_at(r, min(t.high, t.value + n)))


def no_time_tracker(state: State) -> bool:
    """Whether the Time Tracker holds no token: "If this is the final (Level 4) monster, remove the token from the
    Time Tracker" (Time lost then costs Small Effort instead, see :func:`spend_time`; Time gained is not kept)."""
    return state.pos.phase == "combat" and state.level == LAST_LEVEL and state.combat is not None


def lose(state: State, r: Resource, n: int) -> State:
    """Lose up to ``n`` (>= 0) of resource ``r``, stopping at the track's floor."""
    t = state.res[r]
    return replace(state, res=state.res_at(r, max(t.low, t.value - n)))


def effort_total(state: State, r: Resource) -> int:
    """Effort that can pay for category ``r`` (that category and every higher one)."""
    return sum(state.amount(c) for c in EFFORT if c >= r)


def needs(ops: tuple[Op, ...], level: int = 1) -> list[int]:
    """The resources a tuple of ``spend`` ops asks for, per resource slot."""
    need = no_resources()
    for o in ops:
        if o.op == "spend":
            need[RES[o.res]] += o.n * (level if o.scale == "level" else 1)
    return need


def _plan(state: State, need: list[int], large_first: Cover = False) -> list[int] | None:
    """What is left once ``need`` is paid (``None``: it cannot be), each category of Effort paying first for
    itself, then covering the shortfall of a lower one (a Small Effort shortfall: Medium Effort first, Large
    Effort first with ``large_first``, or split as its :data:`Cover` says)."""
    have = list(map(_VALUE, state.res))
    for r in NON_EFFORT:
        n = need[r]
        if n:
            if n > have[r]:
                return None
            have[r] -= n
    left = _cover(have[SE] - need[SE], have[ME] - need[ME], have[LE] - need[LE], large_first)
    if left is None:
        return None
    have[SE], have[ME], have[LE] = left
    return have


_VALUE = attrgetter("value")


def _needs(state: State, ops: tuple[Op, ...], extra: list[int] | None) -> list[int]:
    """:func:`needs` at the state's Level, plus ``extra``."""
    need = [0] * N_RESOURCES if not extra else list(extra)
    for o in ops:
        if o.op == "spend":
            need[RES[o.res]] += o.n * state.level if o.scale == "level" else o.n
    return need


def can_pay(state: State, ops: tuple[Op, ...], extra: list[int] | None = None) -> bool:
    """Whether the ``spend`` ops (plus ``extra`` per-slot amounts) can be paid now."""
    if not extra:
        if not ops:
            return True
        need = cost_need(ops)
        if need is not None:
            return affords_need(state, need)
    return affords(state, _needs(state, ops, extra))


#: Memo of :func:`cost_need`: by the ops tuple's identity (and the extra amount), the tuple itself (so that the
#: identity is not reused while it is here) and its need. Content tuples live with their pack; cleared when full.
_COST_NEEDS: dict[tuple[int, int, int], tuple[tuple[Op, ...], Need | None]] = {}
_COST_NEEDS_MAX = 4096


def cost_need(ops: tuple[Op, ...], slot: Resource = SE, n: int = 0) -> Need | None:
    """What the ``spend`` ops ask for, plus ``n`` of resource ``slot``, as a :class:`Need` (memoized);
    ``None`` when an op scales with the Level (its amount is then the state's to say, see :func:`can_pay`)."""
    key = (id(ops), slot, n)
    hit = _COST_NEEDS.get(key)
    if hit is not None and hit[0] is ops:
        return hit[1]
    need: Need | None = None
    if not any(o.op == "spend" and o.scale == "level" for o in ops):
        amounts = needs(ops)
        amounts[slot] += n
        need = need_of(amounts)
    if len(_COST_NEEDS) >= _COST_NEEDS_MAX:
        _COST_NEEDS.clear()
    _COST_NEEDS[key] = (ops, need)
    return need


class Need(NamedTuple):
    """An amount per resource slot made once for checks repeated on every listing (see :func:`need_of`): the
    non-Effort slots asked for with their amounts, then the Small, Medium and Large Effort asked for."""

    others: tuple[tuple[Resource, int], ...]
    se: int
    me: int
    le: int


def need_of(need: list[int]) -> Need:
    """``need`` (an amount per resource slot) as a :class:`Need`."""
    return Need(tuple((r, need[r]) for r in NON_EFFORT if need[r]), need[SE], need[ME], need[LE])


def affords_need(state: State, need: Need) -> bool:
    """:func:`affords` of a :class:`Need` (the same test, reading only the slots asked for)."""
    res = state.res
    for r, n in need.others:
        if n > res[r].value:
            return False
    le_left = res[LE].value - need.le
    if le_left < 0:
        return False
    me_left = res[ME].value - need.me
    if me_left < 0:
        le_left += me_left
        if le_left < 0:
            return False
        me_left = 0
    return need.se <= res[SE].value + me_left + le_left


def affordable(state: State, options: tuple[tuple[T, Need], ...]) -> list[T]:
    """The items of ``options`` whose :class:`Need` can be paid now, in order (:func:`affords_need` of each, the
    tracks read once)."""
    res = state.res
    se, me, le = res[SE].value, res[ME].value, res[LE].value
    out = []
    for item, need in options:
        for r, n in need.others:
            if n > res[r].value:
                break
        else:
            le_left = le - need.le
            if le_left < 0:
                continue
            me_left = me - need.me
            if me_left < 0:
                le_left += me_left
                if le_left < 0:
                    continue
                me_left = 0
            if need.se <= se + me_left + le_left:
                out.append(item)
    return out


def affords(state: State, need: list[int]) -> bool:
    """Whether ``need`` (an amount per resource slot, see :func:`needs`) can be paid now."""
    res = state.res
    for r in NON_EFFORT:
        if need[r] > res[r].value:
            return False
    le_left = res[LE].value - need[LE]
    if le_left < 0:
        return False
    me_left = res[ME].value - need[ME]
    if me_left < 0:
        le_left += me_left
        if le_left < 0:
            return False
        me_left = 0
    return need[SE] <= res[SE].value + me_left + le_left


def pay(state: State, ops: tuple[Op, ...], extra: list[int] | None = None, **changes: Any) -> State:
    """Pay the ``spend`` ops (plus ``extra``); the caller has checked :func:`can_pay`.

    A Small Effort shortfall is covered by Medium Effort first, unless the player chose Large Effort first for
    this payment (``state.large_first``, set by the ``pay`` sub-decision and used once). ``changes`` to other
    fields (none that the payment reads) are made in the same copy.
    """
    return replace(state, res=paid(state, ops, extra), large_first=False, **changes)


def paid(state: State, ops: tuple[Op, ...], extra: list[int] | None = None, gains: Resource | None = None) -> Res:
    """The tracks once the ``spend`` ops (plus ``extra``) are paid as :func:`pay` pays them (``state.large_first``
    then goes back to ``False``), and, with ``gains``, 1 of that resource gained after (as :func:`gain`).

    Raises:
        ValueError: when the cost cannot be paid.
    """
    if not extra or not any(extra):  # no extra amount (a surcharge of zeros adds nothing to the need)
        known = cost_need(ops)
        if known is not None:
            fast = paid_need(state, known, gains)
            if fast is not None:
                return fast
    need = _needs(state, ops, extra)  # the long way (and its error when the cost cannot be paid)
    have = _plan(state, need, state.large_first)
    if have is None:
        raise ValueError(f"cannot pay {need}")
    if gains is not None:
        have[gains] = min(state.res[gains].high, have[gains] + 1)
    return _moved(state, have)


def paid_need(state: State, need: Need, gains: Resource | None = None) -> Res | None:
    """:func:`paid` of a :class:`Need` (``None`` when it cannot be paid): the same plan as :func:`_plan` (each
    non-Effort slot pays itself, then Effort as :func:`_effort_left` says), reading and moving only the slots
    asked for, the Effort and the gain."""
    res = state.res
    left = _effort_left(res, need.se, need.me, need.le, state.large_first)
    if left is None:
        return None
    out = list(res)
    for r, n in need.others:
        t = res[r]
        v = t.value - n
        if v < 0:
            return None
        out[r] = track_at(t, r, v)
    _set_effort(res, out, left)
    if gains is not None:
        t = res[gains]
        v = min(t.high, out[gains].value + 1)
        out[gains] = t if v == t.value else track_at(t, gains, v)
    return tuple(out)


def _effort_left(res: Res, se_need: int, me_need: int, le_need: int, large_first: Cover) -> tuple[int, int, int] | None:
    """The Small, Medium and Large Effort left once these amounts are paid as :func:`_plan` pays them (``None``:
    they cannot be)."""
    return _cover(res[SE].value - se_need, res[ME].value - me_need, res[LE].value - le_need, large_first)


def _cover(se: int, me: int, le: int, large_first: Cover) -> tuple[int, int, int] | None:
    """The Small, Medium and Large Effort left when each category has paid for itself, leaving ``se``, ``me`` and
    ``le`` (below 0: a shortfall), and the higher categories then cover the lower ones' shortfalls (``None``: they
    cannot); a Small Effort shortfall as ``large_first`` says (see :data:`Cover`)."""
    # Large first: higher categories are universal substitutes, so paying the scarcer demands first is optimal.
    if le < 0:
        return None
    if me < 0:  # Large Effort covers the Medium shortfall
        le += me
        if le < 0:
            return None
        me = 0
    if se < 0:  # the Small shortfall: Medium then Large Effort, Large then Medium, or a split
        if large_first is True:
            le += se
            if le < 0:
                me += le
                le = 0
        elif large_first is not False:  # an int: that much Large Effort, within what each category can cover
            large = min(max(large_first, -se - me, 0), le, -se)
            le -= large
            me += se + large
        else:
            me += se
            if me < 0:
                le += me
                me = 0
        if me < 0 or le < 0:
            return None
        se = 0
    return se, me, le


def _set_effort(res: Res, out: list[Track], left: tuple[int, int, int]) -> None:
    """Move ``out``'s Effort tracks (``res``'s until now) to the values ``left``, as :func:`_moved` moves them."""
    se, me, le = left
    t = res[SE]
    if se != t.value:
        out[SE] = track_at(t, SE, se)
    t = res[ME]
    if me != t.value:
        out[ME] = track_at(t, ME, me)
    t = res[LE]
    if le != t.value:
        out[LE] = track_at(t, LE, le)


def _moved(state: State, have: list[int]) -> Res:
    """The state's tracks at the values ``have``."""
    return tuple([t if t.value == v else track_at(t, r, v) for r, t, v in zip(_SLOTS, state.res, have, strict=True)])


_SLOTS = range(N_RESOURCES)


def may_choose(state: State) -> bool:
    """Whether some cost could leave the player a choice of how to pay (see :func:`ambiguous`): only with both
    Medium and Large Effort in hand. With either at 0 the two orders of covering a Small Effort shortfall are one
    (``_plan``: with no Medium Effort, Medium first passes the whole shortfall on to Large Effort, as Large first
    does; with no Large Effort, Large first passes it all on to Medium Effort, as Medium first takes it), so no
    cost is :func:`ambiguous` and a decision need not look its cost up."""
    res = state.res
    return res[ME].value > 0 and res[LE].value > 0


def shortfall_covers(state: State, ops: tuple[Op, ...], extra: list[int] | None = None) -> list[tuple[int, int]]:
    """Every way Medium and Large Effort can cover the Small Effort shortfall of paying the ``spend`` ops (plus
    ``extra``), as (Medium, Large) amounts: from the least Large Effort (Medium Effort first) to the most (Large
    Effort first), each a distinct payment. Empty when there is no shortfall or the cost cannot be paid."""
    need = _needs(state, ops, extra)
    if _plan(state, need) is None:
        return []
    short = need[SE] - state.amount(SE)
    shares = _shares(-short, state.amount(ME) - need[ME], state.amount(LE) - need[LE])
    return [(short - large, large) for large in shares]


def _shares(se: int, me: int, le: int) -> range:
    """The Large Effort amounts that can cover a Small Effort shortfall (``se`` below 0) once Medium and Large
    Effort have paid for themselves, leaving ``me`` and ``le`` (Large Effort first covering a Medium shortfall)."""
    if me < 0:
        le += me
        me = 0
    if se >= 0 or le < 0:
        return range(0)
    return range(max(0, -se - me), min(le, -se) + 1)


def ambiguous(state: State, ops: tuple[Op, ...], extra: list[int] | None = None) -> bool:
    """Whether the player has a real choice of how to pay: a Small Effort shortfall that Medium or Large Effort
    could each cover ("you can spend Effort of a higher category in place of Effort of a lower category")."""
    if not extra:
        known = cost_need(ops)
        if known is not None and known.se <= state.res[SE].value:  # no Small Effort shortfall: no choice
            return False
    need = _needs(state, ops, extra)
    if need[SE] <= state.amount(SE):
        return False
    a, b = _plan(state, need, False), _plan(state, need, True)
    return a is not None and b is not None and a != b


def lose_effort(state: State, r: Resource, n: int) -> State | None:
    """Lose ``n`` Effort of category ``r`` (higher categories cover a shortfall); ``None`` if it cannot be paid."""
    need = no_resources()
    need[r] = n
    have = _plan(state, need)
    if have is None:
        return None
    return replace(state, res=_moved(state, have))


def loss_plans(state: State, r: Resource, n: int) -> list[tuple[int, int, int]]:
    """The distinct ways to lose ``n`` Effort of category ``r``, as (Small, Medium, Large) amounts taken.

    Several when a shortfall of Small Effort could be covered by Medium Effort first or by Large Effort first with
    different results: those two, then every split of the shortfall between them (the player chooses, as when
    paying); one when there is no choice; none when it cannot be paid (the player dies).
    """
    return [
        (state.amount(SE) - res[SE].value, state.amount(ME) - res[ME].value, state.amount(LE) - res[LE].value)
        for res in loss_ways(state, r, n)
    ]


def loss_ways(state: State, r: Resource, n: int) -> list[Res]:
    """The tracks after each of the distinct ways to lose ``n`` Effort of category ``r`` (see :func:`loss_plans`):
    Medium Effort covering a Small Effort shortfall first, then (if the result differs) Large Effort first, then
    each split of the shortfall between them, least Large Effort first."""
    if r in EFFORT:  # the Effort tracks alone move (see ``_effort_left``)
        res = state.res
        se, me, le = (n, 0, 0) if r == SE else (0, n, 0) if r == ME else (0, 0, n)
        left = _effort_left(res, se, me, le, False)
        if left is None:
            return []
        out = list(res)
        _set_effort(res, out, left)
        ways = [tuple(out)]
        if r == SE and res[SE].value < n:  # only a Small Effort shortfall leaves a choice (see ``_plan``)
            other = _effort_left(res, se, me, le, True)
            if other is not None and other != left:
                out = list(res)
                _set_effort(res, out, other)
                ways.append(tuple(out))
                # then the splits between them, least Large Effort first (after the two orders, whose places
                # records keep)
                shares = _shares(res[SE].value - n, res[ME].value, res[LE].value)
                for large in shares[1:-1]:
                    split = _effort_left(res, se, me, le, large)
                    assert split is not None  # within what each category can cover
                    out = list(res)
                    _set_effort(res, out, split)
                    ways.append(tuple(out))
        return ways
    need = no_resources()
    need[r] = n
    low = _plan(state, need, False)
    if low is None:
        return []
    # Which higher category covers a shortfall first is a choice only for Small Effort (see ``_plan``).
    high = _plan(state, need, True) if r == SE else low
    ways = [_moved(state, low)]
    if high is not None and high != low:
        ways.append(_moved(state, high))
    return ways


def spend_time(state: State, n: int, *, combat: bool) -> State | None:
    """Lose ``n`` Time. In combat it counts against the next Level, or costs Small Effort on Level 4.

    Returns ``None`` when Level 4's Small Effort cannot be paid (the player dies).
    """
    if n <= 0:
        return state
    if combat and state.level == LAST_LEVEL:
        return lose_effort(state, SE, n)
    return lose(state, TIME, n)
