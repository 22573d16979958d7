"""These fast paths give what the long way gives (see ``docs/performance.md``, "Unrest").

Each shortcut is checked against the plain computation it replaced, on the states of seeded random playouts or on
random inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import numpy as np

import unrest
from tabletop_core.fastcopy import replace
from tabletop_core.spec import CHANCE
from tests.unrest.helpers import random_states
from tests.unrest.test_speed_rules import _minimal_proofs_plainly
from tests.unrest.test_speed_shortcuts import _coup_plainly as _coup
from tests.unrest.test_speed_shortcuts import _plot_plainly as _plot
from unrest.rules import liberation, missions
from unrest.rules.cards import DECK, DISRUPTION, INTELLIGENCE, KINDS, SUPPLIES, UPHEAVAL, kinds_of
from unrest.rules.missions import Mission, Tally, unseen_pool
from unrest.state import LAST_ROUND, StackCard

# ----- the Missions' worst cases, against the plain forms -------------------------------------------------------------


def _count(pool: Sequence[int], kinds: Sequence[int] | range) -> int:
    return sum(max(pool[k], 0) for k in kinds)


def _least_plainly(pool: Sequence[int], hidden: int, weight: Sequence[int]) -> int:
    """The least total ``weight`` of ``hidden`` cards of ``pool``: the lightest ``hidden`` cards, one by one."""
    cards = sorted(weight[k] for k in range(KINDS) for _ in range(max(pool[k], 0)))
    return sum(cards[:hidden]) if hidden > 0 else 0


def _in_suit(suit: int) -> tuple[int, ...]:
    # private: the plain form reads the Mission's own tables
    return missions._IN_SUIT[suit]


def _margin(above: int, below: int) -> tuple[int, ...]:
    return tuple(a - b for a, b in zip(_in_suit(above), _in_suit(below), strict=True))


def _runs_plainly(values: Sequence[int]) -> bool:
    return any(all(values[i : i + 4]) for i in range(len(values) - 3))


def _revolution(target: int) -> Callable[[Tally, int, list[int]], bool]:
    # private: the plain form reads the Mission's own tables
    def certain(t: Tally, hidden: int, pool: list[int]) -> bool:
        return t.total() + _least_plainly(pool, hidden, missions._VALUES) >= target

    return certain


def _fortified(t: Tally, hidden: int, pool: list[int]) -> bool:
    supplies = t.sums[SUPPLIES] + _least_plainly(pool, hidden, _in_suit(SUPPLIES))
    margin = t.sums[DISRUPTION] - t.sums[SUPPLIES] + _least_plainly(pool, hidden, _margin(DISRUPTION, SUPPLIES))
    return supplies > 3 and margin > 0


def _sleeper(t: Tally, hidden: int, pool: list[int]) -> bool:
    """Every set of values meeting every run (not only the least ones), as the plain forms check."""
    # private: the plain form reads the Mission's own tables
    if _runs_plainly(t.values):
        return True
    total = _count(pool, range(KINDS))
    for absent in missions._BREAKERS:
        if any(t.values[i] for i in absent):
            continue
        if total - sum(_count(pool, missions._OF_VALUE[i]) for i in absent) >= hidden:
            return False
    return True


def _espionage(t: Tally, hidden: int, pool: list[int]) -> bool:
    intel = t.sums[INTELLIGENCE] + _least_plainly(pool, hidden, _in_suit(INTELLIGENCE))
    return intel >= 4 and t.sums[DISRUPTION] + _least_plainly(pool, hidden, _in_suit(DISRUPTION)) >= 4


def _press(t: Tally, hidden: int, pool: list[int]) -> bool:
    upheaval = t.sums[UPHEAVAL] + _least_plainly(pool, hidden, _in_suit(UPHEAVAL))
    margin = t.sums[INTELLIGENCE] - t.sums[UPHEAVAL] + _least_plainly(pool, hidden, _margin(INTELLIGENCE, UPHEAVAL))
    return upheaval >= 3 and margin > 0


def _civil(t: Tally, hidden: int, pool: list[int]) -> bool:
    if t.counts[DISRUPTION] or (hidden and _count(pool, kinds_of(DISRUPTION))):
        return False
    return t.sums[UPHEAVAL] + _least_plainly(pool, hidden, _in_suit(UPHEAVAL)) >= 8


_PLAIN: dict[Mission, Callable[[Tally, int, list[int]], bool]] = {
    missions.REVOLUTION: _revolution(21),
    missions.REVOLUTION_CAPITOL: _revolution(25),
    missions.POLITICAL_SURGE: lambda t, hidden, pool: max(t.up) >= 3,
    missions.FORTIFIED_ORGANIZERS: _fortified,
    missions.COUP: _coup,
    missions.COORDINATED_PLOT: _plot,
    missions.SLEEPER_CELL: _sleeper,
    missions.ESPIONAGE: _espionage,
    missions.ENERGIZED_PRESS: _press,
    missions.CIVIL_DISOBEDIENCE: _civil,
}


def test_each_missions_worst_case_is_its_plain_form() -> None:
    # Random seen sets and pools (a table's, and pools with entries below 0, which count as 0), every Mission: the
    # worst cases with their kinds' orders passed in, the early answers and Sleeper Cell's least ways to break a run
    # give what the plain forms give.
    rng = np.random.default_rng(81)
    deck = [k for k in range(KINDS) for _ in range(DECK[k])]
    answers: dict[Mission, set[bool]] = {m: set() for m in _PLAIN}
    for trial in range(8000):
        cards = rng.permutation(deck)
        n = int(rng.integers(0, 12))
        seen = [StackCard(int(k), bool(rng.random() < 0.5), 1) for k in cards[:n]]
        t = Tally(seen)
        pool = unseen_pool(int(k) for k in cards[n : n + int(rng.integers(0, 12))])
        for c in seen:
            pool[c.card] -= 1
        if trial % 3 == 0:
            for k in rng.choice(KINDS, size=int(rng.integers(1, 6))):
                pool[int(k)] -= int(rng.integers(1, 3))
        hidden = int(rng.integers(0, 9))
        assert missions.SLEEPER_CELL.holds(t) == _runs_plainly(t.values)
        for m, plain in _PLAIN.items():
            got = m.certain(t, hidden, pool)
            assert got == plain(t, hidden, pool), (m, seen, hidden, pool)
            answers[m].add(got)
    assert all(a == {True, False} for a in answers.values())  # each Mission answered both ways


def test_sleeper_cells_least_breakers_are_the_minimal_sets() -> None:
    # private: the precomputed breaker tables are what this test is about
    least = {frozenset(b) for b in missions._LEAST_BREAKERS}
    every = {frozenset(b) for b in missions._BREAKERS}
    assert least <= every
    assert all(any(small <= big for small in least) for big in every)  # each way holds a least one
    assert not any(a < b for a in least for b in least)


# ----- the proof search on the tables of random games ---------------------------------------------------------------


def test_the_proof_search_of_random_games_is_its_plain_definition() -> None:
    searched = 0
    kinds: set[int] = set()
    for state in random_states(24, 82):
        for district in state.row:
            if not liberation.met_missions(state, district):
                continue
            stack = state.stacks[district]
            found = liberation.minimal_proofs(
                stack, liberation.missions_for(state, district), liberation.outside(state, district)
            )
            plain = _minimal_proofs_plainly(
                stack, liberation.missions_for(state, district), liberation.outside(state, district)
            )
            assert found == plain, (stack, state.missions)
            searched += 1
            kinds.add(len(found))
    assert searched > 60 and kinds >= {1, 2}


def test_the_subsets_are_the_combinations_by_size() -> None:
    # private: the tabled subsets are what this test is about
    from itertools import combinations

    for n in (0, 1, 3, liberation._TABLED, liberation._TABLED + 2):
        plain = [c for size in range(1, n + 1) for c in combinations(range(n), size)]
        got = list(liberation._subsets(n))
        assert [positions for _, positions, _ in got] == plain
        assert all(mask == sum(1 << p for p in positions) for mask, positions, _ in got)
        assert all(left == n - len(positions) for _, positions, left in got)


# ----- the shared cards and copies ----------------------------------------------------------------------------------


def test_a_proved_card_is_the_card_turned_face_up() -> None:
    # private: the reveal step of a proof is what this test is about
    revealed = 0
    for state in random_states(24, 83):
        top = state.pending.top
        if not isinstance(top, liberation.Proof) or unrest.current_player(state) == CHANCE:
            continue
        for index in liberation.next_reveals(top):
            stacks = liberation._reveal(state, top.district, (index,))
            plain = list(state.stacks[top.district])
            plain[index] = replace(plain[index], revealed=True, proved=True)
            assert stacks == (*state.stacks[: top.district], tuple(plain), *state.stacks[top.district + 1 :])
            assert all(a is b for a, b in zip(stacks[top.district], state.stacks[top.district], strict=True) if a == b)
            revealed += 1
    assert revealed > 40
    # A card of a round outside the table's (hand-made) is copied, not looked up.
    odd = StackCard(3, False, LAST_ROUND + 5)
    assert liberation._reveal(attrs.evolve(random_states(1, 84)[-1], stacks=((odd,), (), (), (), ())), 0, (0,))[0] == (
        StackCard(3, True, LAST_ROUND + 5, True),
    )
