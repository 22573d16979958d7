"""Determinization for the Empire: a full state drawn uniformly among those consistent with its view.

"Uniformly" is over the ways the 24 physical cards could lie (the four Misdirection cards are distinct objects
with the same face), which is the exact posterior of a fair shuffle given what the Empire saw. The unseen
cards (the deck minus every revealed card) are dealt to the unseen places: the hand, the deck, hidden planned
cards, hidden stack cards (liberated stacks too) and hidden destroyed cards. What the rules let the Empire infer
is :mod:`unrest.knowledge` (the one model the liberation proofs use too): a hidden destroyed card is not a
Misdirection; in an all-Misdirection round every hidden card of the round is one; every stack the liberation check
passed over met no Mission (each finished round's snapshots, the Districts left of a proof, those left of the
last liberation of a won game); a planning Rebellion can complete its plan. At a pending liberation proof the
world's own proofs, minimal against the same knowledge as the truth's, must have the cards revealed so far begin
one that is not yet complete (every reveal is a decision, so the Empire learns nothing from whether the Rebellion
had a choice).

The Misdirection inferences are dealt exactly; the others by rejection (the true state always passes, so the loop
ends).

The Empire's information state also holds every decision so far (``moves``, public: kept as it is), and the
sampled world needs the Rebellion's draws too (``draws``, which the Empire never saw): they are drawn
uniformly among the orders of the world's drawn cards that history allows, a card planned in round ``r``
having been drawn in the opening hand or at the end of a round before ``r`` (:func:`sample_draws`). Every deal
allows the same number of such orders (it depends only on where cards lie and when they were planned, which
the Empire sees), so drawing the deal first and then the order is uniform over the whole history as well.
"""

from __future__ import annotations

import numpy as np

from tabletop_core.errors import TabletopError
from tabletop_core.fastcopy import replace
from unrest.knowledge import (
    Knowledge,
    before_proof,
    done_round,
    knowledge,
    snapshot_checks,
    snapshot_rounds,
    unseen_cards,
    won_passed,
)
from unrest.limits import MAX_TRIES
from unrest.rules.cards import DECK_SIZE, KINDS, MISDIRECTION, card_name
from unrest.rules.liberation import _FEWEST, Proof, met_missions, minimal_proofs, missions_for
from unrest.rules.missions import Tally
from unrest.rules.round import plan_actions
from unrest.setup import deck_for
from unrest.state import (
    DRAW_SIZE,
    HAND_SIZE,
    LAST_ROUND,
    Destroyed,
    Planned,
    StackCard,
    UnrestState,
)

__all__ = [
    "batch_of",
    "consistent",
    "determinize_empire",
    "draw_deadlines",
    "draws_fit",
    "history_fits",
    "sample_draws",
    "snapshot_checks",
    "unseen_cards",
]


def consistent(state: UnrestState, truth: UnrestState, known: Knowledge | None = None) -> UnrestState | None:
    """``state`` (a deal of ``truth``'s unseen cards) if it is a world of the Empire's knowledge of ``truth``
    (:func:`unrest.knowledge.knowledge`, or ``known`` when already derived), with its proof frame recomputed;
    ``None`` if it breaks an inference. At a pending proof the world's own minimal proofs, found against the same
    knowledge as the truth's were (:attr:`unrest.knowledge.Knowledge.proof`), must have the cards revealed so far
    begin one that is not yet complete."""
    k = knowledge(truth) if known is None else known
    if not k.fits(state):
        return None
    frame = state.pending.top
    if frame is not None:
        d = frame.district
        before = before_proof(state).stacks[d]
        key = tuple([c.card for c in before])
        proofs = k.memo.get(key)
        if proofs is None:
            proofs = minimal_proofs(before, missions_for(state, d), worlds=k.proof)
            k.memo[key] = proofs
        chosen = frame.chosen
        n = len(chosen)
        open_ = tuple(p for p in proofs if p[:n] == chosen)
        if not open_ or chosen in open_:
            return None
        state = replace(state, pending=state.pending.replace_top(Proof(d, chosen, open_)))
    return state


#: The Empire's knowledge of the states determinized last, by identity (an ISMCTS search determinizes its root
#: again at every iteration): ``id(state) -> (state, knowledge)``, the state held so that its id is not reused.
_KNOWN: dict[int, tuple[UnrestState, Knowledge]] = {}
_KNOWN_SIZE = 64


def _knowledge(state: UnrestState) -> Knowledge:
    """:func:`unrest.knowledge.knowledge` of ``state``, from :data:`_KNOWN` when it holds the very state."""
    hit = _KNOWN.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    k = knowledge(state)
    if len(_KNOWN) >= _KNOWN_SIZE:
        _KNOWN.clear()
    _KNOWN[id(state)] = (state, k)
    return k


def history_fits(state: UnrestState) -> bool:
    """Whether ``state``, taken as the truth, obeys what :func:`consistent` infers of a deal from the table (the
    end-of-round snapshots with a hidden card, a win by liberation, the planning), its pending proof aside: that
    one :func:`unrest.invariants.validate_table` checks already, exactly as :func:`consistent` recomputes it.

    The same checks as ``consistent(state, state) is not None`` would make but the proof's, in one pass over the
    stacks: each snapshot's tally is taken from the stack's cards, with no list of indices built, and a snapshot
    of fewer cards than any Mission needs (:data:`unrest.rules.liberation._FEWEST`) is passed without one.
    """
    done = done_round(state)
    for d, stack in enumerate(state.stacks):
        if not stack:
            continue
        rounds = snapshot_rounds(stack, state.freed[d], done)
        if rounds:
            missions = missions_for(state, d)
            for r in rounds:
                cards = [c for c in stack if c.round <= r]
                if len(cards) < _FEWEST:  # too few cards to meet any Mission, whatever they are
                    continue
                tally = Tally(cards)
                for m in missions:
                    if m.holds(tally):
                        return False
    # The winning round's check passed over the Districts left of the last one liberated; a planning Rebellion can
    # complete its plan.
    for d in won_passed(state):
        if met_missions(state, d):
            return False
    return not (state.pos.step == "plan" and state.winner < 0 and not plan_actions(state))


def determinize_empire(state: UnrestState, rng: np.random.Generator) -> UnrestState:
    """A full state drawn uniformly among those consistent with the Empire's view of ``state``."""
    known = _knowledge(state)
    unseen = list(known.unseen)
    r = state.pos.round
    forced_m, not_m, free = known.forced_m, known.not_m, known.free
    if len(free) + len(forced_m) + len(not_m) != len(unseen):
        raise ValueError("unrest: determinize: unseen cards and unseen places disagree")
    numbered = [k for k in unseen if k != MISDIRECTION]
    n_m = len(unseen) - len(numbered) - len(forced_m)
    n_num, n_not_m = len(numbered), len(not_m)
    n_rest = n_num - n_not_m + n_m
    places = [*forced_m, *not_m, *free]
    forced = [MISDIRECTION] * len(forced_m)
    for _ in range(MAX_TRIES):
        # The deal: an ordered sample of numbered cards for the hidden destroyed places (a partial Fisher-Yates
        # shuffle), then the other numbered cards and the free Misdirections shuffled over the free places (a
        # full one), from one call for uniform draws: as uniform as two permutations, at a fraction of the
        # cost of the arrays (the index of a draw ``u`` among ``n`` is ``int(u * n)``, as in :func:`sample_draws`).
        u = rng.random(n_not_m + n_rest).tolist()
        cards = numbered[:]
        for t in range(n_not_m):
            j = t + int(u[t] * (n_num - t))
            cards[t], cards[j] = cards[j], cards[t]
        rest = cards[n_not_m:]
        rest += [MISDIRECTION] * n_m
        for t in range(n_rest):
            j = t + int(u[n_not_m + t] * (n_rest - t))
            rest[t], rest[j] = rest[j], rest[t]
        deal = _build(state, places, [*forced, *cards[:n_not_m], *rest])
        ok = consistent(deal, state, known)
        if ok is not None:
            return replace(ok, draws=sample_draws(ok, rng))
    raise TabletopError(
        f"unrest: determinize found no consistent deal in {MAX_TRIES} tries at round {r}; "
        "refusing to return the true state, which would leak the hidden cards"
    )


def batch_of(index: int) -> int:
    """The draw batch of the ``index``-th card drawn: 0 for the opening hand, ``r`` for the end of round ``r``."""
    return 0 if index < HAND_SIZE else 1 + (index - HAND_SIZE) // DRAW_SIZE


def draw_deadlines(state: UnrestState) -> list[tuple[int, int]]:
    """``(kind, deadline)`` of every card the Rebellion has drawn: it came from a draw batch no later than
    ``deadline`` (a card planned in round ``r`` was in hand by then: ``r - 1``; a card in hand: any batch)."""
    last = batch_of(len(state.draws) - 1) if state.draws else 0
    out = [(c.card, c.round - 1) for stack in state.stacks for c in stack]
    out.extend((p.card, state.pos.round - 1) for p in state.plan if p is not None)
    out.extend((x.card, x.round - 1) for x in state.destroyed)
    out.extend((k, last) for k in state.hand)
    return out


def draws_fit(state: UnrestState) -> str | None:
    """Why ``state.draws`` cannot be the Rebellion's draws of ``state`` (``None`` if they can): they must be the
    cards gone from the deck, and each card drawn by its deadline (:func:`draw_deadlines`)."""
    draws = state.draws
    # Checked at C speed (every item an int, no bool, then the range); the first bad item is named.
    if draws and (not _ONLY_INT.issuperset(map(type, draws)) or min(draws) < 0 or max(draws) >= KINDS):
        bad = next(k for k in draws if type(k) is not int or not 0 <= k < KINDS)
        return f"draws hold {bad!r}, not a card kind"
    deck = deck_for(state.options)
    drawn = [deck[k] - state.deck[k] for k in range(KINDS)]
    counts = [0] * KINDS
    for k in draws:
        counts[k] += 1
    if counts != drawn:
        return f"draws {list(draws)} are not the cards gone from the deck"
    # Per kind, match the soonest deadline to the soonest draw (a greedy match is a perfect one if any is): both
    # lists sorted by (kind, batch) and (kind, deadline) pair the k-th draw of a kind with its k-th deadline.
    batches = _BATCHES[len(draws)] if len(draws) < len(_BATCHES) else tuple(map(batch_of, range(len(draws))))
    got = sorted(zip(draws, batches, strict=True))
    due = sorted(draw_deadlines(state))
    if len(got) != len(due):
        return f"draws {list(draws)} are not the cards gone from the deck"
    for (k, batch), (kind, deadline) in zip(got, due, strict=True):
        if k != kind:
            return f"draws {list(draws)} are not the cards gone from the deck"
        if batch > deadline:
            return (
                f"no order of the draws has every {card_name(k)} in hand before it was planned "
                f"(one was due by draw batch {deadline}: the opening hand is batch 0, round r's draw batch r)"
            )
    return None


_ONLY_INT = frozenset({int})
#: By number of draws, the draw batch of each (:func:`batch_of`), for every count a deck allows.
_BATCHES = tuple(tuple(batch_of(i) for i in range(n)) for n in range(DECK_SIZE + 1))


def sample_draws(state: UnrestState, rng: np.random.Generator) -> tuple[int, ...]:
    """An order of ``state``'s drawn cards, uniform among those history allows (each card drawn by its
    deadline; as many cards per batch as ``state.draws`` holds).

    Batches are filled from the last to the first, each with an ordered sample of the cards not yet placed whose
    deadline allows that batch: the number of choices at each batch does not depend on the earlier choices (the
    cards a later batch may take, a sooner one may take too), so the result is uniform over every allowed order.

    Raises:
        ValueError: when no order fits (an impossible hand-made state).
    """
    n = len(state.draws)
    if n == 0:
        return ()
    cards = draw_deadlines(state)
    if len(cards) != n:
        raise ValueError(f"unrest: {len(cards)} drawn cards for {n} draws")
    last = batch_of(n - 1)
    due: list[list[int]] = [[] for _ in range(last + 1)]
    for k, deadline in cards:
        due[min(deadline, last)].append(k)
    starts = [batch_of(i) for i in range(n)]
    u = rng.random(n).tolist()
    out = [0] * n
    pool: list[int] = []
    end = n
    for b in range(last, -1, -1):
        pool.extend(due[b])
        size = end - starts.index(b)
        if len(pool) < size:
            raise ValueError(f"unrest: no order of the drawn cards fits draw batch {b}")
        # An ordered sample of `size` cards from the pool (a partial Fisher-Yates shuffle) is the batch, in order.
        start = end - size
        for t in range(size):
            j = t + int(u[start + t] * (len(pool) - t))
            pool[t], pool[j] = pool[j], pool[t]
            out[start + t] = pool[t]
        del pool[:size]
        end = start
    return tuple(out)


#: By card kind, the card planned face down; by round and kind, the face-down stack card placed and the face-down
#: destroyed card of that round: shared values (a deal builds no new one).
_HIDDEN_PLANNED = tuple(Planned(k, False) for k in range(KINDS))
_HIDDEN_STACKED = tuple(tuple(StackCard(k, False, r) for k in range(KINDS)) for r in range(LAST_ROUND + 1))
_HIDDEN_DESTROYED = tuple(tuple(Destroyed(k, False, r) for k in range(KINDS)) for r in range(LAST_ROUND + 1))


def _build(state: UnrestState, places: list[tuple[int, ...]], cards: list[int]) -> UnrestState:
    """``state`` with ``cards[i]`` dealt to ``places[i]`` (the unseen places of :func:`determinize_empire`)."""
    plan = list(state.plan)
    stacks = [list(s) for s in state.stacks]
    destroyed = list(state.destroyed)
    hand: list[int] = []
    deck = [0] * KINDS
    for place, card in zip(places, cards, strict=True):
        kind = place[0]
        if kind == 4:
            deck[card] += 1
        elif kind == 3:
            hand.append(card)
        elif kind == 1:
            # A hidden card keeps its round and facing; only its kind is dealt.
            row = stacks[place[1]]
            old = row[place[2]]
            r = old.round
            fresh = old.proved or not 0 <= r <= LAST_ROUND
            row[place[2]] = StackCard(card, False, r, old.proved) if fresh else _HIDDEN_STACKED[r][card]
        elif kind == 0:
            plan[place[1]] = _HIDDEN_PLANNED[card]
        else:
            r = destroyed[place[1]].round
            destroyed[place[1]] = _HIDDEN_DESTROYED[r][card] if 0 <= r <= LAST_ROUND else Destroyed(card, False, r)
    hand.sort()
    return replace(
        state,
        plan=tuple(plan),
        stacks=tuple([tuple(s) for s in stacks]),
        destroyed=tuple(destroyed),
        hand=tuple(hand),
        deck=tuple(deck),
    )
