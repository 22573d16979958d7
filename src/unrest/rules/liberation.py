"""Liberation and the end of the round (rulebook "Missions + Liberating Districts", "The End of the Round",
"The Final Encounter", "Game End").

At the end of every round the Rebellion checks each District, left to right. A District whose stack meets one of the
Missions on the table is liberated: "The Rebellion immediately reveals enough cards to prove to the Empire that the
Mission card's conditions have been met (they do not have to reveal more cards than necessary)". The proof is an
inclusion-minimal set of hidden cards, minimal against the Empire's whole information state
(:mod:`unrest.knowledge`, the model the determinizer samples too): a card needs revealing only if some world of
positive posterior probability fails the Mission without it, so what earlier liberation checks told the Empire
counts. The Rebellion reveals the set one card at a time in stack order (a :class:`Proof` frame on the pending
stack), choosing among the minimal proofs when several exist. Each reveal is a decision even when only one card can
come next, so the Empire cannot tell from the turn order whether the Rebellion had a choice. Then the District and
its stack leave the row with their facings, and its neighbours become adjacent. Three liberated Districts (or the
Capitol, in the Capitol variant) end the game at once.

The core driver runs the check (:class:`LiberateStep`, an automatic step frame, one District per resolution), the
proof (:class:`Proof`, a decision frame on the pending stack) and the draws (:class:`DrawStep`, a chance frame).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import ClassVar

import attrs

from tabletop_core.fastcopy import accelerate, replace, replacer
from tabletop_core.flow import Automatic, Chance, Decision, Position
from unrest import setup
from unrest.actions import REVEALS, Draw, Reveal
from unrest.knowledge import ProofWorlds
from unrest.rules.cards import DECK, CardKind
from unrest.rules.missions import _FEWEST, Mission, Tally, _missions, missions_for, stack_unseen
from unrest.state import (
    CAPITOL,
    DRAW_SIZE,
    EMPIRE,
    FRAMES,
    LAST_ROUND,
    N_DISTRICTS,
    NO_DISTRICT,
    REBELLION,
    WIN_LIBERATED,
    District,
    StackCard,
    UnrestOptions,
    UnrestState,
    next_step,
    position,
)

__all__ = [
    "_FEWEST",
    "DrawStep",
    "LiberateStep",
    "Proof",
    "end_round",
    "met_missions",
    "minimal_proofs",
    "missions_for",
    "next_reveals",
    "next_round",
    "outside",
    "proofs_at",
    "reveal_actions",
]


def met_missions(state: UnrestState, district: int) -> tuple[Mission, ...]:
    """The Missions on the table that ``district``'s stack meets."""
    stack = state.stacks[district]
    if not stack:
        return ()
    tally = Tally(stack)
    return tuple([m for m in missions_for(state, district) if m.holds(tally)])


#: The answers of :func:`_meets` by the identity of the stack: ``id(stack) -> (stack, missions, met)``. A stack is
#: an immutable tuple that every later state shares until a card joins it, so each round's end (and each search
#: that replays it) asks again about the same tuples. An entry holds its stack and its Missions, so neither id can be
#: reused while the entry lives; a hit must find both by identity. Emptied when full (a cache of a pure function).
_MET: dict[int, tuple[tuple[StackCard, ...], tuple[Mission, ...], bool]] = {}
#: Small for the reason given at ``setup._OUTCOMES_SIZE``: the entries a search asks about again are its newest.
_MET_SIZE = 1 << 9


def _meets(state: UnrestState, district: int) -> bool:
    """Whether ``district``'s stack meets a Mission on the table (:func:`met_missions` is not empty)."""
    stack = state.stacks[district]
    if len(stack) < _FEWEST:
        return False
    return _met_by(stack, missions_for(state, district))


def _met_by(stack: tuple[StackCard, ...], missions: tuple[Mission, ...]) -> bool:
    """Whether ``stack`` meets one of ``missions``, answered from :data:`_MET` when it holds both."""
    known = _MET.get(id(stack))
    if known is not None and known[0] is stack and known[1] is missions:
        return known[2]
    met = _holds(stack, missions)
    if len(_MET) >= _MET_SIZE:
        _MET.clear()
    _MET[id(stack)] = (stack, missions, met)
    return met


def _holds(stack: tuple[StackCard, ...], missions: tuple[Mission, ...]) -> bool:
    """Whether ``stack`` meets one of ``missions``."""
    tally = Tally(stack)
    for m in missions:  # noqa: SIM110  # a loop: no generator per District checked
        if m.holds(tally):
            return True
    return False


@functools.lru_cache(maxsize=8)  # a pure function of the options (two decks)
def _lacking(options: UnrestOptions) -> tuple[CardKind, ...]:
    """Every card of the full deck that the deck of a game with ``options`` lacks."""
    return tuple(
        k for k, (full, here) in enumerate(zip(DECK, setup.deck_for(options), strict=True)) for _ in range(full - here)
    )


def outside(state: UnrestState, district: District) -> tuple[CardKind, ...]:
    """The kinds of every card face up outside ``district``'s stack (other stacks, liberated ones too, the plan and
    the destroyed cards), and every card of the full deck that this game's deck lacks (the research game's small
    deck): what the Empire knows the stack's hidden cards are not."""
    out = list(_lacking(state.options))
    out.extend(c.card for d, stack in enumerate(state.stacks) if d != district for c in stack if c.revealed)
    out.extend(p.card for p in state.plan if p is not None and p.revealed)
    out.extend(x.card for x in state.destroyed if x.revealed)
    return tuple(out)


def minimal_proofs(
    stack: Sequence[StackCard],
    missions: Sequence[Mission],
    seen: Iterable[CardKind] = (),
    *,
    worlds: ProofWorlds | None = None,
) -> tuple[tuple[int, ...], ...]:
    """Every inclusion-minimal set of hidden cards (as ascending stack indices) whose reveal proves a Mission.

    A set proves a Mission when the condition holds in every world the Empire allows that shows those cards there.
    With ``worlds`` (:class:`unrest.knowledge.ProofWorlds`: the Empire's whole information state as the liberation
    check finds the District, which :func:`proofs_at` gives), those are the worlds of positive posterior
    probability, and a card the Empire already knows (a Misdirection of an all-Misdirection round) is never shown.
    Without it, a plainer Empire that knows only the cards face up: each other hidden card may be any card not among
    the stack's face-up cards nor ``seen`` (the kinds face up elsewhere, :func:`outside`). Only Missions the stack
    meets can be proven. Sorted; empty when no Mission is met.

    The candidate sets are tried smallest first, each as a bit mask (a superset of a proof found is skipped), and
    each one's totals are those of the face-up cards plus its own cards (the definition, a :class:`Tally` of the
    seen cards per candidate, is checked against this in ``tests/unrest/test_speed.py``). Each Mission's worst case
    over the unseen pool (``certain``) settles a candidate first. With ``worlds``, the sets it proves are proofs
    against the worlds too, and the worlds prove more in few tables: whether they prove any set that contains none
    of those is asked of the largest such sets only (:func:`_no_more`; proving is monotone), each first of worlds
    that differ from the given one in this stack, the hand, the deck and at most a card elsewhere
    (:meth:`~unrest.knowledge.ProofWorlds.fails_all_by_swaps`, no model of the other places needed). Only where the
    worlds prove more is each candidate the worst case leaves open asked of the worlds: whether one world meets none
    of the met Missions (:meth:`~unrest.knowledge.ProofWorlds.fails_all`), then each Mission alone
    (:meth:`~unrest.knowledge.ProofWorlds.fails`).
    """
    tally = Tally(stack)
    met = [m for m in missions if m.holds(tally)]
    if not met:
        return ()
    if worlds is None:
        base, hidden = stack_unseen(stack, seen)
    else:
        base, hidden = worlds.pool.copy(), list(worlds.indices)
    # The tally of the face-up cards (``Tally(stack, up)``: a hidden card is never face up, so leaving the hidden
    # cards out changes no count).
    face_up = Tally([c for c in stack if c.revealed])
    for m in met:  # the empty set first: the cards face up prove it, and every other set is a superset
        if m.certain(face_up, len(hidden), base):
            return ((),)
    found, masks = _proven_by_pool(stack, met, base, hidden, face_up, worlds=None)
    cleared: list[int] = []
    if worlds is None or _no_more(stack, met, hidden, masks, worlds, cleared=cleared):
        return tuple(sorted(found))
    # The worlds prove a set the pool's worst case leaves open: the search again, asking the worlds of each set the
    # worst case leaves open (smallest first, so that only minimal ones are kept). A set within one that
    # :func:`_no_more` found to prove nothing proves nothing either (proving is monotone): the empty set among them.
    if not cleared and not (len(met) > 1 and worlds.fails_all(stack, (), met)):
        for m in met:
            if not worlds.fails(stack, (), m):
                return ((),)
    found, _ = _proven_by_pool(stack, met, base, hidden, face_up, worlds=worlds, cleared=cleared)
    return tuple(sorted(found))


def _proven_by_pool(
    stack: Sequence[StackCard],
    met: Sequence[Mission],
    base: list[int],
    hidden: list[int],
    face_up: Tally,
    *,
    worlds: ProofWorlds | None,
    cleared: Sequence[int] = (),
) -> tuple[list[tuple[int, ...]], list[int]]:
    """The minimal non-empty sets of ``hidden`` (stack indices) that prove one of ``met``, smallest first, and their
    bit masks over the positions in ``hidden``: by each Mission's worst case over ``base`` alone, or with ``worlds``
    also by the worlds where the worst case leaves a set open: a set within one of ``cleared`` (bit masks of sets
    known to prove none of ``met``) proves none, else the worlds near the table are asked
    (:meth:`~unrest.knowledge.ProofWorlds.rejects_near`), then all of them (:func:`_rejected`)."""
    hidden_kinds = [stack[i].card for i in hidden]
    found: list[tuple[int, ...]] = []
    masks: list[int] = []
    for mask, positions, left in _subsets(len(hidden)):
        for f in masks:  # a loop, not ``any``: no generator per candidate
            if f & mask == f:
                break
        else:
            pool = base.copy()
            shown = [hidden_kinds[p] for p in positions]
            for k in shown:
                pool[k] -= 1
            t = face_up.plus(shown)
            for m in met:
                if m.certain(t, left, pool):
                    break
            else:
                if worlds is None:
                    continue
                for c in cleared:
                    if mask & c == mask:
                        break
                else:
                    shown_at = [hidden[p] for p in positions]
                    if not worlds.rejects_near(stack, shown_at, met) and not _rejected(stack, met, shown_at, worlds):
                        found.append(tuple(shown_at))
                        masks.append(mask)
                continue
            found.append(tuple([hidden[p] for p in positions]))
            masks.append(mask)
    return found, masks


def _rejected(stack: Sequence[StackCard], met: Sequence[Mission], indices: Sequence[int], worlds: ProofWorlds) -> bool:
    """Whether showing the cards at ``indices`` proves none of ``met`` against ``worlds``: one world agreeing with
    them meets none of the Missions (:meth:`~unrest.knowledge.ProofWorlds.fails_all`, one search for most sets), or
    each Mission has a world that fails it."""
    if len(met) > 1 and worlds.fails_all(stack, indices, met):
        return True
    return all(worlds.fails(stack, indices, m) for m in met)


def _no_more(
    stack: Sequence[StackCard],
    met: Sequence[Mission],
    hidden: list[int],
    masks: list[int],
    worlds: ProofWorlds,
    *,
    cleared: list[int] | None = None,
) -> bool:
    """Whether the worlds prove no set that contains none of the proofs ``masks`` (bit masks over the positions in
    ``hidden``) found by the unseen pool's worst case: then those are the minimal proofs against the worlds too.

    Proving is monotone (showing more cards leaves fewer worlds), so it is enough to ask of the largest such sets:
    the complements of the minimal sets that meet every proof found (:func:`_largest_misses`). The worlds prove more
    than the worst case in few tables, so this mostly answers with a handful of searches of few free cards each,
    where asking the worlds of every set the worst case leaves open takes one search per set."""
    for miss in _largest_misses(masks, len(hidden)):
        shown = [hidden[p] for p in range(len(hidden)) if miss >> p & 1]
        if not worlds.rejects_near(stack, shown, met) and not _rejected(stack, met, shown, worlds):
            return False
        if cleared is not None:
            cleared.append(miss)
    return True


def _largest_misses(masks: Sequence[int], n: int) -> list[int]:
    """The largest subsets of ``range(n)`` (as bit masks) that contain none of ``masks`` (non-empty sets): the
    complements of the minimal sets meeting every one of ``masks`` (Berge's algorithm, one mask at a time)."""
    cover = [0]
    for e in masks:
        grown: set[int] = set()
        for c in cover:
            if c & e:
                grown.add(c)
            else:
                b = e
                while b:
                    low = b & -b
                    grown.add(c | low)
                    b ^= low
        cover = []
        for c in sorted(grown, key=int.bit_count):
            for kept in cover:
                if kept & c == kept:
                    break
            else:
                cover.append(c)
    full = (1 << n) - 1
    return [full & ~c for c in cover]


def proofs_at(state: UnrestState, district: District) -> tuple[tuple[int, ...], ...]:
    """The minimal proofs of ``district``'s stack as the liberation check finds it (no card revealed for it yet):
    minimal against the Empire's whole information state (:class:`unrest.knowledge.ProofWorlds`)."""
    return minimal_proofs(state.stacks[district], missions_for(state, district), worlds=ProofWorlds(state, district))


#: The most hidden cards whose subsets :func:`_subsets` keeps in a table (1,023 subsets); more are generated.
_TABLED = 10


def _subsets(n: int) -> Iterable[tuple[int, tuple[int, ...], int]]:
    """Every non-empty subset of ``range(n)``, smallest first and in ``combinations`` order within a size, each as
    ``(bit mask, positions, n - size)``."""
    return _subset_table(n) if n <= _TABLED else _subsets_of(n)


@functools.lru_cache(maxsize=_TABLED + 1)  # a pure function of n <= _TABLED
def _subset_table(n: int) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    return tuple(_subsets_of(n))


def _subsets_of(n: int) -> Iterator[tuple[int, tuple[int, ...], int]]:
    for size in range(1, n + 1):
        for positions in combinations(range(n), size):
            yield sum(1 << p for p in positions), positions, n - size


def next_reveals(frame: Proof) -> tuple[int, ...]:
    """The stack indices the Rebellion may reveal next in a proof, ascending."""
    k = len(frame.chosen)
    return tuple(sorted({p[k] for p in frame.proofs}))


def reveal_actions(state: UnrestState) -> tuple[Reveal, ...]:
    """The Rebellion's next reveal in the pending proof."""
    frame = state.pending.top
    assert frame is not None
    return frame.legal_actions(state)


#: By round and kind, a stack card turned face up to prove a Mission: shared values, not a copy at every reveal.
_PROVED = tuple(tuple(StackCard(k, True, r, True) for k in range(len(DECK))) for r in range(LAST_ROUND + 1))


def _reveal(state: UnrestState, district: int, indices: Sequence[int]) -> tuple[tuple[StackCard, ...], ...]:
    """The stacks with the cards at ``indices`` of ``district``'s stack turned face up to prove a Mission."""
    stack = list(state.stacks[district])
    for i in indices:
        c = stack[i]
        r = c.round
        stack[i] = _PROVED[r][c.card] if 0 <= r <= LAST_ROUND else replace(c, revealed=True, proved=True)
    return (*state.stacks[:district], tuple(stack), *state.stacks[district + 1 :])


def _freed(state: UnrestState, district: int) -> tuple[tuple[int, ...], tuple[District, ...], int]:
    """``freed``, ``row`` and ``winner`` once the District (already proven) leaves play: its neighbours become
    adjacent, and the game may end."""
    freed = (*state.freed[:district], state.pos.round, *state.freed[district + 1 :])
    row = tuple(d for d in state.row if d != district)
    capitol = state.options.variant == "capitol" and district == CAPITOL
    won = capitol or sum(1 for r in freed if r) >= WIN_LIBERATED
    return freed, row, REBELLION if won else state.winner


# The round's end's copies of the state, one prepared copy per set of fields changed (see ``unrest.rules.round``).
_liberated = replacer(UnrestState, "row", "freed", "winner")
_ended = replacer(UnrestState, "tokens", "aoi", "plan", "blockade", "used", "winner")
_cleared = replacer(UnrestState, "pos", "tokens", "aoi", "plan", "blockade", "used", "to_draw", "final")
_moved = replacer(UnrestState, "pos")
_pushed = replacer(UnrestState, "pending")
_proven = replacer(UnrestState, "row", "stacks", "freed", "pending", "winner", "moves")
_revealed = replacer(UnrestState, "stacks", "pending", "moves")


def _liberate(state: UnrestState, district: int) -> UnrestState:
    """The District (already proven) leaves play; its neighbours become adjacent. May end the game."""
    freed, row, winner = _freed(state, district)
    return _liberated(state, row, freed, winner)


def end_round(state: UnrestState) -> UnrestState:
    """The rest of "The End of the Round" after the liberation check.

    "If all of the Empire Power tokens are face down, flip them all to their face up side"; the Area of
    Interest, plan and Blockade are cleared. After the Final Encounter the game ends: "If the Empire still has
    control of at least 3 Districts, they win". Otherwise the Rebellion draws three cards (:class:`DrawStep`), or,
    "If there are not 3 cards remaining in the Rebel deck, the Rebellion draws the last remaining card" and the
    next round is the Final Encounter.
    """
    tokens = state.tokens if any(state.tokens) else (True,) * len(state.tokens)
    if state.final:
        controlled = N_DISTRICTS - len(state.liberated)
        winner = EMPIRE if controlled >= WIN_LIBERATED else REBELLION
        return _ended(state, tokens, (), (), NO_DISTRICT, (), winner)
    size = sum(state.deck)
    return _cleared(
        state, next_step(state.pos), tokens, (), (), NO_DISTRICT, (), min(size, DRAW_SIZE), size < DRAW_SIZE
    )


def next_round(state: UnrestState) -> UnrestState:
    """Start the next round (at planning in the Final Encounter, which has no Area of Interest)."""
    return _moved(state, _next_round_at(state))


def _next_round_at(state: UnrestState) -> Position:
    """Where the next round starts: its target step, or its plan step in the Final Encounter."""
    return position(state.pos.round + 1, "plan" if state.final else "target")


# ----- the end of the round as frames -------------------------------------------------------------------------------


@FRAMES.register("unrest.proof")
@accelerate
@attrs.frozen
class Proof(Decision[UnrestState, Reveal]):
    """Frame (on the pending stack): the Rebellion proving a Mission in ``district``, one reveal per decision.

    Attributes:
        district: the District being liberated.
        chosen: stack indices the Rebellion has revealed for this proof so far (ascending).
        proofs: every minimal proof still open, as ascending stack indices, each extending ``chosen``.
    """

    seat: ClassVar[int] = REBELLION
    district: District
    chosen: tuple[int, ...]
    proofs: tuple[tuple[int, ...], ...]

    def legal_actions(self, state: UnrestState) -> tuple[Reveal, ...]:
        """A ``Reveal`` of each card that comes next in some open proof (:func:`next_reveals`)."""
        return tuple(REVEALS[i] for i in next_reveals(self))

    def act(self, state: UnrestState, action: Reveal, moves: tuple[int, ...]) -> UnrestState:
        """Reveal the card; a complete proof liberates the District (the check then goes on by itself). The
        decision is logged as ``moves``."""
        chosen = (*self.chosen, action.index)
        k = len(chosen)
        district = self.district
        proofs = tuple(p for p in self.proofs if p[:k] == chosen)
        stacks = _reveal(state, district, (action.index,))
        if chosen in proofs:
            # The proof is complete: the District is liberated, in the one copy of the state.
            freed, row, winner = _freed(state, district)
            return _proven(state, row, stacks, freed, state.pending.pop(), winner, moves)
        # Every reveal is the Rebellion's decision, even a forced one: the Empire at the table cannot tell whether
        # another proof existed, so the game must not show it by stopping only when one did.
        return _revealed(state, stacks, state.pending.replace_top(Proof(district, chosen, proofs)), moves)


@FRAMES.register("unrest.liberate_step", pending=False)
@attrs.frozen
class LiberateStep(Automatic[UnrestState]):
    """Step frame of "The Rebellion checks to see if any Districts have been liberated": the leftmost District
    whose stack meets a Mission is liberated at once when the face-up cards prove it, else its :class:`Proof`
    is pushed; with none left, the rest of the round's end (:func:`end_round`)."""

    def resolve(self, state: UnrestState) -> UnrestState:
        """Liberate, ask for a proof, or end the round."""
        # ``_meets`` for each District in the row, its Missions found once per resolution (the Capitol's own only
        # in the Capitol variant), the memo read inline.
        plain = _missions(state.missions, False)
        at_capitol = _missions(state.missions, True) if state.options.variant == "capitol" else plain
        stacks = state.stacks
        memo = _MET
        for district in state.row:
            stack = stacks[district]
            if len(stack) < _FEWEST:
                continue
            missions = at_capitol if district == CAPITOL else plain
            known = memo.get(id(stack))
            if known is not None and known[0] is stack and known[1] is missions:
                if known[2]:
                    break
            elif _met_by(stack, missions):
                break
        else:
            return end_round(state)
        proofs = proofs_at(state, district)
        if () in proofs:
            return _liberate(state, district)
        return _pushed(state, state.pending.push(Proof(district, (), proofs)))


@FRAMES.register("unrest.draw_step", pending=False)
@attrs.frozen
class DrawStep(Chance[UnrestState, Draw]):
    """Step frame of "The Rebellion draws three cards from the Rebel deck": one chance node per card; after the
    last, the next round begins by itself."""

    def auto(self, state: UnrestState) -> UnrestState | None:
        """Every card drawn: the next round."""
        return next_round(state) if state.to_draw == 0 else None

    def chance_outcomes(self, state: UnrestState) -> tuple[tuple[Draw, float], ...]:
        """Each card kind left, by its copies (see :func:`unrest.setup.draw_outcomes`)."""
        return setup.draw_outcomes(state.deck)

    def is_legal(self, state: UnrestState, action: object) -> bool:
        """A ``Draw`` of a kind left in the deck."""
        return isinstance(action, Draw) and state.deck[action.card] > 0

    def apply(self, state: UnrestState, action: Draw) -> UnrestState:
        """The card goes to the hand (see :func:`unrest.setup.draw`); after the last, the next round begins in the
        same copy of the state (as :meth:`auto` would move on)."""
        if state.to_draw == 1:
            return setup.draw(state, action.card, pos=_next_round_at(state))
        return setup.draw(state, action.card)
