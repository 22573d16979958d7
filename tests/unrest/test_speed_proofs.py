"""The shortcuts of the liberation proof against the Empire's knowledge, each held to its plain definition.

- A stack's first round whose cards up to it meet a Mission, found in one pass with a running tally, is the one a
  tally per round finds, for stacks in round order and out of it, and for any window of rounds.
- The near worlds (:meth:`unrest.knowledge.ProofWorlds.rejects_near`) answer each Mission by a world of its own:
  wherever they find that a set of cards proves none of the met Missions, the full search over the Empire's
  knowledge finds it too, including where the District's own snapshots hold a card left to deal and where a card
  is exchanged with a checked one.
- The search that asks the worlds of each candidate again (where the worlds prove more than the worst case) skips
  the sets found to prove nothing, and gives the proofs of the search that asks every candidate.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from tests.unrest.helpers import random_states
from unrest import knowledge
from unrest.knowledge import ProofWorlds
from unrest.rules import liberation
from unrest.rules.cards import KINDS
from unrest.rules.missions import _FEWEST, MISSIONS, REVOLUTION_CAPITOL, Mission, Tally, missions_for
from unrest.state import LAST_ROUND, StackCard, UnrestState


def _tables(games: int, seed: int) -> list[UnrestState]:
    """The tables as the liberation check finds each District it asks a proof of, along seeded random games."""
    tables = [s for s in random_states(games, seed) if s.pending.top is not None and not s.pending.top.chosen]
    return [knowledge.before_proof(s) for s in tables]


def _first_plainly(stack: tuple[StackCard, ...], missions: tuple[Mission, ...], first: int, last: int) -> int:
    """The definition: each round from ``first`` to ``last`` in turn, every card of the stack placed up to it."""
    for r in range(first, last + 1):
        if not any(c.round == r for c in stack):
            continue
        cards = [c for c in stack if c.round <= r]
        if len(cards) >= _FEWEST and any(m.holds(Tally(cards)) for m in missions):
            return r
    return LAST_ROUND + 1


def test_a_stacks_first_met_round_is_the_one_a_tally_per_round_finds() -> None:
    # private: the one-pass round check is compared with its round-by-round definition
    rng = np.random.default_rng(11)
    tables = (*MISSIONS, REVOLUTION_CAPITOL)
    ordered = shuffled = 0
    for _ in range(3000):
        n = int(rng.integers(0, 9))
        rounds = sorted(int(r) for r in rng.integers(1, LAST_ROUND + 1, size=n))
        if rng.random() < 0.25 and n > 1:  # out of round order: a hand-laid table
            rng.shuffle(rounds)
        stack = tuple(
            StackCard(int(rng.integers(KINDS)), bool(rng.random() < 0.5), r, bool(rng.random() < 0.1)) for r in rounds
        )
        picked = rng.choice(len(tables), size=int(rng.integers(1, 5)), replace=False)
        missions = tuple(tables[int(i)] for i in picked)
        first = int(rng.integers(0, LAST_ROUND + 1))
        last = int(rng.integers(first, LAST_ROUND + 2))
        want = _first_plainly(stack, missions, first, last)
        assert knowledge._first_prefix_met(stack, missions, first, last) == want, (stack, missions, first, last)
        assert knowledge._prefixes_meet(stack, missions, first, last) == (want <= LAST_ROUND)
        whole = _first_plainly(stack, missions, 0, LAST_ROUND + 1)
        knowledge._FIRST_MET.clear()
        assert knowledge._first_met(stack, missions) == whole
        assert knowledge._first_met(stack, missions) == whole  # asked again: from the memo
        if rounds == sorted(rounds):
            ordered += want <= LAST_ROUND
        else:
            shuffled += want <= LAST_ROUND
    assert ordered >= 300 and shuffled >= 50, (ordered, shuffled)


def _snapshot_holds_a_free_card(worlds: ProofWorlds, shown: tuple[int, ...]) -> bool:
    # private: the worlds' exchanges are what this check reads
    swaps = worlds._swaps()
    if swaps is None:
        return False
    free = [i for i in worlds.indices if i not in shown]
    return any(i in own for own in swaps[1] for i in free)


class _NoExchanges(ProofWorlds):
    """The near worlds without the exchanges with a checked card: what they answer alone."""

    __slots__ = ()

    def _exchanged(self, stack: object, i: int, fits: object) -> bool:
        return False


def test_the_near_worlds_reject_only_sets_the_full_search_rejects() -> None:
    """Every set of a District's unknown cards, at every proof of seeded games: where the near worlds find that
    it proves none of the met Missions, so does the full search (a fresh :class:`ProofWorlds` each, so that no
    world found by one serves the other). Counted: the answers where the District's own snapshots hold a card left
    to deal (the deals searched), and those that only an exchange with a checked card finds."""
    near = snapshot = exchanged = 0
    for t in _tables(100, 141):
        top = t.pending.top
        assert top is not None
        d = top.district
        stack = t.stacks[d]
        met = [m for m in missions_for(t, d) if m.is_met(list(stack))]
        quick, alone = ProofWorlds(t, d), _NoExchanges(t, d)
        for size in range(len(quick.indices) + 1):
            for shown in combinations(quick.indices, size):
                if not quick.rejects_near(stack, shown, met):
                    assert not alone.rejects_near(stack, shown, met)
                    continue
                near += 1
                # private: the proof search's own steps are compared with the full search
                assert liberation._rejected(stack, met, shown, ProofWorlds(t, d)), (t, shown)
                snapshot += _snapshot_holds_a_free_card(quick, shown)
                exchanged += not alone.rejects_near(stack, shown, met)
    assert near >= 500 and snapshot >= 300 and exchanged >= 10, (near, snapshot, exchanged)


def test_the_search_asking_the_worlds_again_gives_the_proofs_of_asking_every_candidate() -> None:
    """Where the worlds prove a set the worst case leaves open, the proofs skip the sets found to prove nothing
    and ask the near worlds first; they are those of the search that asks the full search of every candidate the
    worst case leaves open, without either shortcut."""
    compared = 0
    for t in _tables(300, 142):
        top = t.pending.top
        assert top is not None
        d = top.district
        stack = t.stacks[d]
        met = [m for m in missions_for(t, d) if m.is_met(list(stack))]
        worlds = ProofWorlds(t, d)
        base, hidden = worlds.pool.copy(), list(worlds.indices)
        face_up = Tally([c for c in stack if c.revealed])
        if any(m.certain(face_up, len(hidden), base) for m in met):
            continue
        # private: the proof search's own steps are compared with the full search
        _, masks = liberation._proven_by_pool(stack, met, base, hidden, face_up, worlds=None)
        # private: the proof search's own steps are compared with the full search
        if liberation._no_more(stack, met, hidden, masks, ProofWorlds(t, d)):
            continue
        every = ProofWorlds(t, d)
        found: list[tuple[int, ...]] = []
        for size in range(1, len(hidden) + 1):
            for shown in combinations(hidden, size):
                if any(set(f) <= set(shown) for f in found):
                    continue
                pool = base.copy()
                for i in shown:
                    pool[stack[i].card] -= 1
                t_shown = face_up.plus([stack[i].card for i in shown])
                # private: the proof search's own steps are compared with the full search
                if any(m.certain(t_shown, len(hidden) - size, pool) for m in met) or not liberation._rejected(
                    stack, met, shown, every
                ):
                    found.append(shown)
        # private: the proof search's own steps are compared with the full search
        plain = tuple(sorted(found)) if liberation._rejected(stack, met, (), every) else ((),)
        assert liberation.proofs_at(t, d) == plain, t
        compared += 1
    assert compared >= 10, compared
