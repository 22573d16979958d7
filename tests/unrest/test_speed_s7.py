"""The seventh session's fast paths give what the long way gives (see ``docs/performance.md``, "Unrest").

Each shortcut is checked against the plain computation on the states of seeded random playouts.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable

import attrs
import numpy as np

from tabletop_core.flow import Pending
from tests.unrest.helpers import random_states
from unrest.rules import missions
from unrest.rules.cards import DECK, DISRUPTION, KINDS, MISDIRECTION, UPHEAVAL, kinds_of
from unrest.rules.missions import Mission, Tally, unseen_pool
from unrest.state import StackCard, UnrestState

_NAMES = tuple(f.name for f in attrs.fields(UnrestState))


def _stored_one_by_one(values: tuple[object, ...]) -> UnrestState:
    """A state made the long way: a bare instance, each field stored by name through ``object.__setattr__``."""
    state: UnrestState = object.__new__(UnrestState)
    for name, value in zip(_NAMES, values, strict=True):
        object.__setattr__(state, name, value)
    return state


def test_the_states_constructor_stores_every_field_as_attrs_would() -> None:
    # The hand-written constructor takes attrs' fields in attrs' order, with attrs' defaults.
    params = inspect.signature(UnrestState.__init__).parameters
    assert tuple(params)[1:] == _NAMES
    for f in attrs.fields(UnrestState):
        p = params[f.name]
        assert f.validator is None and f.converter is None and f.init and not f.kw_only
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if f.name == "pending":
            assert f.default == attrs.Factory(Pending) and p.default is not inspect.Parameter.empty
        elif f.default is attrs.NOTHING:
            assert p.default is inspect.Parameter.empty
        else:
            assert p.default == f.default and type(p.default) is type(f.default)
    states = random_states(6, 71)
    for state in states:
        values = tuple(getattr(state, n) for n in _NAMES)
        made = UnrestState(*values)
        assert made == _stored_one_by_one(values)
        assert all(getattr(made, n) is v for n, v in zip(_NAMES, values, strict=True))
        assert UnrestState(**dict(zip(_NAMES, values, strict=True))) == made
        assert attrs.evolve(state, moves=()) == _stored_one_by_one((*values[:-3], (), *values[-2:]))
    # The defaults: a new empty pending stack each time, as attrs' factory gave.
    first = states[0]
    bare = UnrestState(*(getattr(first, n) for n in _NAMES[:9]))
    assert (
        bare.pending == Pending() and bare.pending is not UnrestState(*(getattr(first, n) for n in _NAMES[:9])).pending
    )
    assert bare == _stored_one_by_one((*(getattr(first, n) for n in _NAMES[:9]), (), (), -1, (), (), 0, False,
                                       Pending(), -1, (), (), ()))  # fmt: skip


# ----- the Missions' worst cases, against the plain sums they replace -----------------------------------------------


def _count_plainly(pool: list[int], kinds: Iterable[int]) -> int:
    return sum(max(pool[k], 0) for k in kinds)


def _coup_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    total = _count_plainly(pool, range(KINDS))
    return all(t.counts[s] or total - _count_plainly(pool, kinds_of(s)) < hidden for s in range(4))


def _plot_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    if max(t.values) >= 3:
        return True
    room = max(pool[MISDIRECTION], 0)
    for i, seen in enumerate(t.values):
        room += min(_count_plainly(pool, missions._OF_VALUE[i]), max(0, 3 - 1 - seen))
    return room < hidden


def _sleeper_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    if missions.SLEEPER_CELL.holds(t):
        return True
    total = _count_plainly(pool, range(KINDS))
    for absent in missions._BREAKERS:
        if any(t.values[i] for i in absent):
            continue
        if total - sum(_count_plainly(pool, missions._OF_VALUE[i]) for i in absent) >= hidden:
            return False
    return True


def _civil_plainly(t: Tally, hidden: int, pool: list[int]) -> bool:
    if t.counts[DISRUPTION] or (hidden and _count_plainly(pool, kinds_of(DISRUPTION))):
        return False
    return t.sums[UPHEAVAL] + missions._least(pool, hidden, missions._IN_SUIT[UPHEAVAL]) >= 8


def test_the_missions_worst_cases_are_the_plain_sums() -> None:
    # Random seen sets and pools (a table's, and pools with entries below 0, which the sums count as 0).
    rng = np.random.default_rng(72)
    deck = [k for k in range(KINDS) for _ in range(DECK[k])]
    plain = {
        missions.COUP: _coup_plainly,
        missions.COORDINATED_PLOT: _plot_plainly,
        missions.SLEEPER_CELL: _sleeper_plainly,
        missions.CIVIL_DISOBEDIENCE: _civil_plainly,
    }
    answers: dict[Mission, set[bool]] = {m: set() for m in plain}
    for trial in range(6000):
        cards = rng.permutation(deck)
        n = int(rng.integers(0, 10))
        seen = [StackCard(int(k), bool(rng.random() < 0.5), 1) for k in cards[:n]]
        t = Tally(seen)
        pool = unseen_pool(int(k) for k in cards[n : n + int(rng.integers(0, 12))])
        for c in seen:
            pool[c.card] -= 1
        if trial % 3 == 0:
            for k in rng.choice(KINDS, size=int(rng.integers(1, 6))):
                pool[int(k)] -= int(rng.integers(1, 3))
        hidden = int(rng.integers(0, 8))
        assert missions._total(pool) == _count_plainly(pool, range(KINDS))
        for s in range(4):
            assert missions._of_suit(pool, s) == _count_plainly(pool, kinds_of(s))
        for i in range(len(missions._OF_VALUE)):
            assert missions._of_value(pool, i) == _count_plainly(pool, missions._OF_VALUE[i])
        for m, definition in plain.items():
            got = m.certain(t, hidden, pool)
            assert got == definition(t, hidden, pool), (m, seen, hidden, pool)
            answers[m].add(got)
    assert all(a == {True, False} for a in answers.values())  # each Mission answered both ways
