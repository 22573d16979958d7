"""Heuristic bots for both sides, cheap enough to seat in thousands of games.

Both score a District by how close its cards come to a Mission on the table (:func:`district_value`: 2 for a
met Mission, else the squared progress fraction of the nearest one), from what their player sees.

- :class:`RebellionBot` marks the adjacent pair where its hand makes the most progress, plans the cards that
  help most (hiding the best, revealing the least useful numbered card), and places each card where it helps
  most.
- :class:`EmpireBot` destroys or surveils the hidden planned cards (the Rebellion hides what matters),
  reroutes a revealed card where it helps least, and blockades the most threatened District.

>>> from tabletop_core import play
>>> import unrest
>>> final, _ = play(unrest.GAME, [RebellionBot(), EmpireBot()], seed=1)
>>> unrest.is_terminal(final)
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from unrest.actions import Blockade, Destroy, Place, Plan, Reroute, Surveil, Target
from unrest.rules.cards import DISRUPTION, INTELLIGENCE, MISDIRECTION, SUPPLIES, UPHEAVAL, suit_of, value_of
from unrest.rules.missions import (
    CIVIL_DISOBEDIENCE,
    COORDINATED_PLOT,
    COUP,
    ENERGIZED_PRESS,
    ESPIONAGE,
    FORTIFIED_ORGANIZERS,
    MISSIONS,
    POLITICAL_SURGE,
    REVOLUTION,
    REVOLUTION_CAPITOL,
    SLEEPER_CELL,
)
from unrest.state import CAPITOL, PLAN_SIZE
from unrest.view import HIDDEN, SeenCard, UnrestView

__all__ = ["EmpireBot", "RebellionBot", "district_value"]

_SUIT = tuple(suit_of(k) for k in range(MISDIRECTION + 1))
_VALUE = tuple(value_of(k) for k in range(MISDIRECTION + 1))
MET = 1.0

# A tally is a list of 17 ints: suit sums (0-3), suit counts (4-7), value counts (8-12), face-up suit counts
# (13-16).


def _tally(cards: Sequence[SeenCard]) -> list[int]:
    t = [0] * 17
    for c in cards:
        if c.card != HIDDEN:
            _add(t, c.card, c.revealed and not c.proved)
    return t


def _add(t: list[int], kind: int, up: bool) -> None:
    if kind == MISDIRECTION:
        return
    s = _SUIT[kind]
    v = _VALUE[kind]
    t[s] += v
    t[4 + s] += 1
    t[6 + v] += 1
    if up:
        t[13 + s] += 1


def _revolution_progress(t: Sequence[int], revolution: int) -> float:
    return min(1.0, (t[0] + t[1] + t[2] + t[3]) / revolution)


def _surge_progress(t: Sequence[int], revolution: int) -> float:
    return min(1.0, max(t[13:17]) / POLITICAL_SURGE.count)


def _fortified_progress(t: Sequence[int], revolution: int) -> float:
    s, d = t[SUPPLIES], t[DISRUPTION]
    above = FORTIFIED_ORGANIZERS.above
    if d > s > above:
        return 1.0
    return 0.5 * min(s, above + 1) / (above + 1) + 0.45 * min(d, s + 1) / (s + 1)


def _coup_progress(t: Sequence[int], revolution: int) -> float:
    return sum(1 for i in range(4) if t[4 + i]) / 4


def _plot_progress(t: Sequence[int], revolution: int) -> float:
    return min(1.0, max(t[8:13]) / COORDINATED_PLOT.count)


def _sleeper_progress(t: Sequence[int], revolution: int) -> float:
    v = t[8:13]
    n = SLEEPER_CELL.run
    return max(sum(1 for x in v[i : i + n] if x) for i in range(len(v) - n + 1)) / n


def _espionage_progress(t: Sequence[int], revolution: int) -> float:
    least = ESPIONAGE.least
    return (min(t[INTELLIGENCE], least) + min(t[DISRUPTION], least)) / (2 * least)


def _press_progress(t: Sequence[int], revolution: int) -> float:
    i, u = t[INTELLIGENCE], t[UPHEAVAL]
    least = ENERGIZED_PRESS.least
    if i > u >= least:
        return 1.0
    return 0.5 * min(u, least) / least + 0.45 * min(i, u + 1) / (u + 1)


def _civil_progress(t: Sequence[int], revolution: int) -> float:
    if t[4 + DISRUPTION]:
        return 0.0
    return min(1.0, t[UPHEAVAL] / CIVIL_DISOBEDIENCE.least)


#: How close a tally is to each Mission condition, by the condition's key (the content binds ids to keys).
_PROGRESS: dict[str, Callable[[Sequence[int], int], float]] = {
    REVOLUTION.key: _revolution_progress,
    POLITICAL_SURGE.key: _surge_progress,
    FORTIFIED_ORGANIZERS.key: _fortified_progress,
    COUP.key: _coup_progress,
    COORDINATED_PLOT.key: _plot_progress,
    SLEEPER_CELL.key: _sleeper_progress,
    ESPIONAGE.key: _espionage_progress,
    ENERGIZED_PRESS.key: _press_progress,
    CIVIL_DISOBEDIENCE.key: _civil_progress,
}
#: The progress measure of each Mission id of the pack.
_BY_ID = tuple(_PROGRESS[m.key] for m in MISSIONS)


def _progress(m: int, t: Sequence[int], revolution: int) -> float:
    """How close tally ``t`` is to Mission ``m`` (1.0 when met)."""
    return _BY_ID[m](t, revolution)


def district_value(t: Sequence[int], missions: Sequence[int], revolution: int = REVOLUTION.target) -> float:
    """The best progress of a tally toward the Missions on the table (squared, so near-complete counts
    most)."""
    return _value(tuple(t), tuple(missions), revolution)


# The bots' cost is these two pure functions of a tally and the table, asked again and again for the same
# tallies (a search asks the bot for a prior at every node of every iteration): each is cached. A game's tallies
# are those of stacks of at most a few dozen cards over three Missions, so the caches stay warm; the answers are
# the same floats computed the same way (tests/unrest/test_bots.py checks them against the plain definitions).
@functools.lru_cache(maxsize=1 << 16)  # a pure function of a tally, the Missions dealt and the Revolution's target
def _value(t: tuple[int, ...], missions: tuple[int, ...], revolution: int) -> float:
    best = 0.0
    for m in missions:
        p = _BY_ID[m](t, revolution)
        if p >= MET:
            return 2.0
        best = max(best, p)
    return best * best


@functools.lru_cache(maxsize=1 << 16)  # a pure function of a tally, the Missions dealt, and the card added
def _gain_of(t: tuple[int, ...], missions: tuple[int, ...], kind: int, up: bool, capitol: bool) -> float:
    """:func:`_gain` on a tally (``capitol``: the District is the Capitol variant's Capitol)."""
    revolution = (REVOLUTION_CAPITOL if capitol else REVOLUTION).target
    after = list(t)
    _add(after, kind, up)
    gain = _value(tuple(after), missions, revolution) - _value(t, missions, revolution)
    return gain + (1.0 if capitol and gain > 1.0 else 0.0)


def _revolution(view: UnrestView, district: int) -> int:
    """The Revolution's target in ``district`` (the Capitol variant's Capitol needs more)."""
    capitol = view.variant == "capitol" and district == CAPITOL
    return (REVOLUTION_CAPITOL if capitol else REVOLUTION).target


def _gain(view: UnrestView, tallies: dict[int, list[int]], district: int, kind: int, up: bool) -> float:
    """What adding ``kind`` (face up or not) to ``district``'s tally adds to its :func:`district_value` (plus 1 for
    meeting a Mission in the Capitol variant's Capitol)."""
    capitol = view.variant == "capitol" and district == CAPITOL
    return _gain_of(tuple(tallies[district]), view.missions, kind, up, capitol)


class RebellionBot:
    """A greedy Rebellion: progress toward Missions, best cards hidden."""

    #: The seats this bot can play (the Rebellion's); simulation never seats it elsewhere.
    seats: ClassVar[tuple[int, ...]] = (0,)

    def act(self, view: UnrestView, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose the Rebellion's action from its view."""
        first = legal_actions[0]
        if isinstance(first, Target):
            return self._target(view, legal_actions)
        if isinstance(first, Plan):
            return self._plan(view, legal_actions)
        if isinstance(first, Place):
            return self._place(view, legal_actions)
        return first

    @staticmethod
    def _tallies(view: UnrestView) -> dict[int, list[int]]:
        return {d: _tally(view.stacks[d]) for d in view.row}

    def _greedy(
        self,
        view: UnrestView,
        districts: Sequence[int],
        hand: list[int],
        picks: int,
        tallies: dict[int, list[int]],
    ) -> tuple[float, list[tuple[int, float]]]:
        """Pick ``picks`` cards one by one, each into its best District; return total gain and (card,
        gain)."""
        total = 0.0
        chosen: list[tuple[int, float]] = []
        hand = list(hand)
        for _ in range(picks):
            best: tuple[float, int, int] | None = None
            for k in set(hand):
                for d in districts:
                    g = _gain(view, tallies, d, k, False) if k != MISDIRECTION else 0.0
                    if best is None or g > best[0]:
                        best = (g, k, d)
            if best is None:
                break
            g, k, d = best
            hand.remove(k)
            _add(tallies[d], k, False)
            total += g
            chosen.append((k, g))
        return total, chosen

    def _target(self, view: UnrestView, legal: Sequence[Any]) -> Any:
        best, best_score = legal[0], -1e9
        row = view.row
        for a in legal:
            pair = (a.district, row[row.index(a.district) + 1])
            score, _ = self._greedy(view, pair, list(view.hand), PLAN_SIZE, self._tallies(view))
            if score > best_score:
                best, best_score = a, score
        return best

    def _plan(self, view: UnrestView, legal: Sequence[Any]) -> Any:
        districts = view.aoi or view.row
        tallies = self._tallies(view)
        planned = [p for p in view.plan if p is not None]
        for p in planned:  # count the cards already planned into their best District
            d = max(districts, key=lambda d: _gain(view, tallies, d, p.card, p.revealed))
            _add(tallies[d], p.card, p.revealed)
        left = PLAN_SIZE - len(view.plan)
        _, chosen = self._greedy(view, districts, list(view.hand), left, tallies)
        need_reveal = not any(p.revealed for p in planned)
        numbered = [(k, g) for k, g in chosen if k != MISDIRECTION]
        reveal = min(numbered, key=lambda kg: kg[1])[0] if need_reveal and numbered else None
        legal_set = set(legal)
        order = sorted(chosen, key=lambda kg: -kg[1])
        for k, _g in order:
            if k == reveal:
                continue
            if Plan(k, True) in legal_set:
                return Plan(k, True)
        if reveal is not None and Plan(reveal, False) in legal_set:
            return Plan(reveal, False)
        return legal[0]

    def _place(self, view: UnrestView, legal: Sequence[Any]) -> Any:
        slot = legal[0].slot
        card = view.plan[slot]
        assert card is not None
        tallies = {a.district: _tally(view.stacks[a.district]) for a in legal}
        return max(legal, key=lambda a: _gain(view, tallies, a.district, card.card, card.revealed))


class EmpireBot:
    """A defensive Empire: strike the hidden planned cards, move revealed ones where they help least, blockade
    the most threatened District."""

    #: The seats this bot can play (the Empire's); simulation never seats it elsewhere.
    seats: ClassVar[tuple[int, ...]] = (1,)

    def act(self, view: UnrestView, legal_actions: Sequence[Any], rng: np.random.Generator) -> Any:
        """Choose the Empire's action from its view."""
        tallies = {d: _tally(view.stacks[d]) for d in view.row}
        hidden = {d: sum(1 for c in view.stacks[d] if c.card == HIDDEN) for d in view.row}
        targets = view.aoi or view.row

        capitol = view.variant == "capitol"

        def threat(d: int) -> float:
            base = district_value(tallies[d], view.missions, _revolution(view, d)) + 0.12 * hidden[d]
            return base + (0.6 if capitol and d == CAPITOL else 0.0)  # losing the Capitol loses the game

        def card_threat(kind: int, up: bool) -> float:
            return max(_gain(view, tallies, d, kind, up) for d in targets)

        def score(a: Any) -> float:
            if isinstance(a, Blockade):
                if a.district not in targets:
                    return -1.0
                return 0.3 + threat(a.district)
            p = view.plan[a.slot]
            assert p is not None
            known = p.card != HIDDEN
            if isinstance(a, Destroy):
                return 0.2 + card_threat(p.card, p.revealed) if known else 0.55
            if isinstance(a, Surveil):
                return 0.5
            assert isinstance(a, Reroute)
            if known:
                there = _gain(view, tallies, a.district, p.card, p.revealed)
                if there > 1.0:
                    return -2.0
                return card_threat(p.card, p.revealed) - there - 0.05 * threat(a.district)
            return 0.25 - 0.3 * threat(a.district) - (0.2 if a.district in targets else 0.0)

        return max(legal_actions, key=score)
