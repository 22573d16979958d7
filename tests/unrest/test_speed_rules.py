"""These fast paths give what the long way gives (see ``docs/performance.md``, "Unrest").

Unrest's own driver loop against the core driver over the same frames, the liberation check's memo against the
check made afresh, and the proof search against its plain definition.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import attrs
import numpy as np
import pytest

import unrest
from tabletop_core import from_json, to_json
from tabletop_core.errors import IllegalActionError, TabletopError
from tabletop_core.flow import Driver
from tabletop_core.game import Game
from tabletop_core.spec import CHANCE, TERMINAL
from tests.unrest.helpers import random_states
from unrest import setup
from unrest.actions import DECISIONS, DRAWS, Action, Draw, Reveal
from unrest.rules import flow, liberation, round
from unrest.rules.cards import DECK, KINDS
from unrest.rules.missions import MISSIONS, REVOLUTION_CAPITOL, Mission, Tally, unseen_pool
from unrest.state import FLOW, POSITIONS, StackCard, UnrestState


def _core_driver() -> Driver[UnrestState, Action]:
    """The core driver over Unrest's frames, with the readers Unrest gave it before it had a loop of its own."""
    return Driver(
        "unrest",
        FLOW,
        flow.STEPS,
        position=lambda s: s.pos,
        top=lambda s: s.pending.top,
        over=lambda s: s.winner >= 0,
    )


def test_unrests_driver_is_the_core_driver_event_for_event() -> None:
    # Unrest runs on the core driver itself (no loop of its own), with C-level readers; it gives what the core
    # driver with the plain readers gives.
    core = _core_driver()
    fast = flow.DRIVER
    assert type(fast) is Driver
    rng = np.random.default_rng(21)
    for g in range(12):
        state = fast.run(unrest.new_game(variant="capitol" if g % 2 else "standard"))
        while True:
            assert core.run(state) == state  # the state the fast loop rested at is a rest of the core's too
            assert fast.current_player(state) == core.current_player(state)
            assert fast.legal_actions(state) == core.legal_actions(state)
            assert fast.chance_outcomes(state) == core.chance_outcomes(state)
            assert fast.locate(state) is core.locate(state)
            if core.current_player(state) == TERMINAL:
                break
            legal = core.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
            nxt = fast.apply(state, action)
            assert nxt == core.apply(state, action)
            state = nxt


def test_a_loaded_state_finds_its_frame_by_phase_and_step() -> None:
    # A loaded state's position is a new value (not one of the shared positions): its frame is found by its phase
    # and step, as a played state's.
    missed = 0
    for state in random_states(4, 22)[::5]:
        loaded = from_json(unrest.GAME, to_json(state))
        missed += loaded.pos is not POSITIONS.get((loaded.pos.round, loaded.pos.step))
        assert unrest.current_player(loaded) == unrest.current_player(state)
        if unrest.current_player(state) != TERMINAL:
            assert flow.DRIVER.frame(loaded) == flow.DRIVER.frame(state)
            assert unrest.legal_actions(loaded) == unrest.legal_actions(state)
    assert missed > 0


def test_the_liberation_memo_answers_as_the_check_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    # private: the memo is emptied and compared with the check made afresh
    states = [s for s in random_states(10, 23) if s.round >= 3]
    liberation._MET.clear()
    for state in states:
        for district in state.row:
            fresh = bool(liberation.met_missions(state, district))
            assert liberation._meets(state, district) == fresh
            assert liberation._meets(state, district) == fresh  # the second answer from the memo
    # A stack asked about twice is checked once; an equal stack that is another tuple is checked again.
    checked: list[object] = []
    holds = liberation._holds

    def counted(stack: tuple[StackCard, ...], missions: tuple[Mission, ...]) -> bool:
        checked.append(stack)
        return holds(stack, missions)

    monkeypatch.setattr(liberation, "_holds", counted)
    liberation._MET.clear()
    state = next(s for s in states if any(len(st) >= 2 for st in s.stacks))
    district = next(d for d, st in enumerate(state.stacks) if len(st) >= 2)
    liberation._meets(state, district)
    liberation._meets(state, district)
    assert len(checked) == 1
    copy = from_json(unrest.GAME, to_json(state))  # the load's replay checks stacks of its own
    del checked[:]
    assert copy.stacks[district] is not state.stacks[district]
    assert liberation._meets(copy, district) == liberation._meets(state, district)
    assert len(checked) == 1


def test_the_liberation_memo_is_bounded() -> None:
    # private: the memo and its bound are what this test is about
    liberation._MET.clear()
    for state in random_states(20, 24):
        for district in state.row:
            liberation._meets(state, district)
            assert len(liberation._MET) <= liberation._MET_SIZE


def _minimal_proofs_plainly(
    stack: tuple[StackCard, ...], missions: tuple[Mission, ...], seen: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """The definition: every set of hidden cards, smallest first, that makes a met Mission certain given the cards
    seen (its own tally of the seen cards), and contains no smaller such set."""
    tally = Tally(stack)
    met = [m for m in missions if m.holds(tally)]
    if not met:
        return ()
    base = unseen_pool(seen)
    up: set[int] = set()
    hidden: list[int] = []
    for i, c in enumerate(stack):
        if c.revealed:
            up.add(i)
            base[c.card] -= 1
        else:
            hidden.append(i)
    found: list[frozenset[int]] = []
    for size in range(len(hidden) + 1):
        for combo in combinations(hidden, size):
            shown = frozenset(combo)
            if any(f <= shown for f in found):
                continue
            pool = list(base)
            for i in combo:
                pool[stack[i].card] -= 1
            if any(m.certain(Tally(stack, up | shown), len(hidden) - size, pool) for m in met):
                found.append(shown)
    return tuple(sorted(tuple(sorted(f)) for f in found))


def test_the_proof_search_is_its_plain_definition() -> None:
    rng = np.random.default_rng(25)
    deck = [k for k in range(KINDS) for _ in range(DECK[k])]
    everything = (*MISSIONS, REVOLUTION_CAPITOL)
    proofs_found = 0
    for _ in range(1500):
        cards = rng.permutation(deck)
        n = int(rng.integers(1, 9))
        stack = tuple(StackCard(int(k), bool(rng.random() < 0.35), 1) for k in cards[:n])
        seen = tuple(int(k) for k in cards[n : n + int(rng.integers(0, 6))])
        missions = tuple(everything[int(i)] for i in rng.choice(len(everything), size=4, replace=False))
        fast = liberation.minimal_proofs(stack, missions, seen)
        assert fast == _minimal_proofs_plainly(stack, missions, seen), (stack, missions, seen)
        proofs_found += bool(fast) and fast != ((),)
    assert proofs_found >= 50  # the sample reaches the search, not only its early answers


def test_a_tally_plus_cards_is_the_tally_of_the_larger_set() -> None:
    rng = np.random.default_rng(26)
    for _ in range(500):
        n = int(rng.integers(0, 10))
        stack = tuple(StackCard(int(rng.integers(KINDS)), bool(rng.random() < 0.5), 1) for _ in range(n))
        only = [i for i in range(n) if rng.random() < 0.5]
        more = [i for i in range(n) if i not in only and rng.random() < 0.5]
        t = Tally(stack, only).plus(stack[i].card for i in more)
        plain = Tally(stack, set(only) | set(more))
        assert (t.sums, t.counts, t.values, t.up) == (plain.sums, plain.counts, plain.values, plain.up)
        assert sorted(t.kinds) == sorted(plain.kinds)


#: The fields each rule's copy may change (every other field must be the very value it was).
_CHANGES: dict[Callable[..., UnrestState], set[str]] = {
    round.apply_target: {"aoi", "pos", "moves"},
    round.apply_plan: {"hand", "plan", "pos", "moves"},
    round.apply_power: {"stacks", "tokens", "plan", "blockade", "used", "destroyed", "pos", "moves"},
    round.apply_place: {"plan", "stacks", "pos", "moves"},
}


def test_the_field_by_field_copies_keep_every_other_field() -> None:
    # The rules on the step path copy through prepared replacers; attrs' field order is pinned here too.
    assert [f.name for f in attrs.fields(UnrestState)] == [
        "options", "pos", "row", "missions", "deck", "hand", "stacks", "freed", "tokens", "aoi", "plan",
        "blockade", "used", "destroyed", "to_draw", "final", "pending", "winner", "moves", "draws", "laid",
    ]  # fmt: skip
    names = [f.name for f in attrs.fields(UnrestState)]
    by_step: dict[str, Callable[..., UnrestState]] = {
        "target": round.apply_target,
        "plan": round.apply_plan,
        "defend": round.apply_power,
        "place": round.apply_place,
    }
    seen: set[object] = set()
    for state in random_states(16, 28):
        player = unrest.current_player(state)
        if player == CHANCE and state.step in ("draw", "hand"):
            for draw, _ in unrest.chance_outcomes(state):
                assert isinstance(draw, Draw)
                after = setup.draw(state, draw.card)
                changed = {n for n in names if getattr(after, n) is not getattr(state, n)}
                assert changed <= {"deck", "hand", "to_draw", "draws"}, changed
                assert after.deck[draw.card] == state.deck[draw.card] - 1 and after.draws[-1] == draw.card
                assert after.to_draw == state.to_draw - 1 and type(after) is UnrestState
                seen.add(setup.draw)
        top = state.pending.top
        if isinstance(top, liberation.Proof) and player >= 0:
            for action in unrest.legal_actions(state):
                assert isinstance(action, Reveal)
                moves = (*state.moves, 0)
                after = top.act(state, action, moves)
                changed = {n for n in names if getattr(after, n) is not getattr(state, n)}
                assert changed <= {"stacks", "pending", "moves", "freed", "row", "winner"}, changed
                assert after.moves is moves and type(after) is UnrestState
                assert after.stacks[top.district][action.index].proved
                seen.add(liberation.Proof)
        if player < 0 or state.pending or state.step not in by_step:
            continue
        rule = by_step[state.step]
        for action in unrest.legal_actions(state):
            moves = (*state.moves, 0)
            after = rule(state, action, moves)
            changed = {n for n in names if getattr(after, n) is not getattr(state, n)}
            assert changed <= _CHANGES[rule], (rule, changed)
            assert after.moves is moves and type(after) is UnrestState
            assert after == attrs.evolve(state, **{n: getattr(after, n) for n in changed})
            seen.add(rule)
    assert seen == {*_CHANGES, setup.draw, liberation.Proof}


def test_unrests_checked_step_is_the_cores() -> None:
    rng = np.random.default_rng(30)
    states = random_states(3, 30)
    for state in states:
        if unrest.current_player(state) == TERMINAL:
            with pytest.raises(IllegalActionError, match="the game is over"):
                unrest.step(state, Reveal(0))
            with pytest.raises(IllegalActionError, match="the game is over"):
                Game.step(unrest.GAME, state, Reveal(0))
            continue
        legal = unrest.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        assert unrest.step(state, action) == Game.step(unrest.GAME, state, action)
        wrong = next(a for a in (*DECISIONS, *DRAWS) if a not in legal)
        with pytest.raises(IllegalActionError, match="illegal action") as ours:
            unrest.step(state, wrong)
        with pytest.raises(IllegalActionError) as cores:
            Game.step(unrest.GAME, state, wrong)
        assert str(ours.value) == str(cores.value)
        assert unrest.legal_actions(state) == legal  # the state stays usable


def test_the_rounds_end_is_the_rule_by_replace() -> None:
    checked = 0
    for state in random_states(6, 31):
        if state.final or state.winner >= 0:
            continue
        size = sum(state.deck)
        tokens = state.tokens if any(state.tokens) else (True,) * len(state.tokens)
        plain = attrs.evolve(
            state,
            tokens=tokens,
            aoi=(),
            plan=(),
            blockade=-1,
            used=(),
            pos=FLOW.next(state.pos),
            to_draw=min(size, 3),
            final=size < 3,
        )
        after = liberation.end_round(state)
        assert after == plain and type(after) is UnrestState
        checked += 1
    assert checked > 100


def test_unrests_driver_raises_the_cores_error_on_a_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    # A frame that never comes to rest (a loop in the rules): the driver stops at the guard.
    state = next(
        s for s in random_states(2, 24) if unrest.current_player(s) not in (CHANCE, TERMINAL) and not s.pending
    )
    kind = type(flow.DRIVER.frame(state))
    monkeypatch.setattr(kind, "waits", False)
    monkeypatch.setattr(kind, "auto", lambda self, s: s)
    for driver in (flow.DRIVER, _core_driver()):
        with pytest.raises(TabletopError, match=r"^unrest: the rules did not come to rest after \d+ automatic steps"):
            driver.run(state)
