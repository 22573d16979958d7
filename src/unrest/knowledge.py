"""What the Empire knows of the cards it cannot see: the one model behind the determinizer and the liberation proofs.

The Empire sees every card face up. Of the others, the *unseen* cards (the deck less every card face up anywhere),
it knows where each lies (a hidden planned, stacked or destroyed card, the hand, the deck) and what the rules let it
infer:

- a destroyed card that stayed hidden is not a Misdirection (a destroyed Misdirection is revealed);
- a complete plan with no revealed numbered card among this round's cards was planned with no numbered card in
  hand, so every hidden card of this round is a Misdirection (only possible in the Final Encounter);
- the *checks*: every stack the liberation check has passed over met no Mission (the check is not optional). At the
  end of each finished round each District left in play, as its stack stood then (a *snapshot*); during a
  liberation proof, the Districts left of the one being proven (the check goes left to right); when the Rebellion
  has won by a liberation, the Districts left in play to the left of the last one liberated;
- a planning Rebellion can complete its plan (its plan step has a legal action).

A *world* is a deal of the unseen cards to the unseen places that obeys all of these (:class:`Knowledge`). Under a
fair shuffle every world is equally likely: that is the Empire's exact posterior, which
:func:`unrest.determinization.determinize_empire` samples. A liberation proof is minimal against the same worlds
(rulebook: "they do not have to reveal more cards than necessary"): :class:`ProofWorlds` holds the worlds as the
liberation check finds a District, before its proof begins, and answers exactly whether some world that agrees with
the cards a proof would show fails a Mission (:meth:`ProofWorlds.fails`), so that a card needs revealing only if
some world of positive probability fails the Mission without it. Whether the District itself meets a Mission is not
part of that knowledge: that is what the proof must show.

>>> import unrest
>>> state = unrest.new_game(seed=3)
>>> known = knowledge(state)
>>> len(known.unseen), known.checks
(24, ())
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from tabletop_core.fastcopy import replace
from unrest.rules.cards import KINDS, MISDIRECTION, CardKind, value_of
from unrest.rules.missions import _FEWEST, _SUIT_VALUE, Mission, Tally, missions_for
from unrest.rules.round import plan_actions
from unrest.setup import deck_for
from unrest.state import EMPIRE, LAST_ROUND, N_DISTRICTS, REBELLION, StackCard, UnrestState
from unrest.view import all_misdirection_round

__all__ = [
    "Check",
    "Knowledge",
    "Place",
    "ProofWorlds",
    "before_proof",
    "done_round",
    "knowledge",
    "left_of",
    "passed_checks",
    "snapshot_checks",
    "snapshot_rounds",
    "unseen_cards",
    "unseen_counts",
    "won_passed",
]

#: A check: a District, the stack indices of the cards it covered, and the Missions those cards met none of.
Check = tuple[int, tuple[int, ...], tuple[Mission, ...]]
#: An unseen place: ``(0, slot)`` a hidden planned card, ``(1, district, index)`` a hidden stack card, ``(2, index)``
#: a hidden destroyed card, ``(3,)`` a card of the hand, ``(4,)`` a card of the deck.
Place = tuple[int, ...]


def unseen_cards(state: UnrestState) -> list[CardKind]:
    """The kinds of every card the Empire has not seen face up, one entry per physical card."""
    counts = unseen_counts(state)
    return [k for k in range(KINDS) for _ in range(counts[k])]


def unseen_counts(state: UnrestState) -> list[int]:
    """Copies per kind of the cards the Empire has not seen face up (the game's deck less every card face up)."""
    counts = list(deck_for(state.options))
    for stack in state.stacks:
        for c in stack:
            if c.revealed:
                counts[c.card] -= 1
    for p in state.plan:
        if p is not None and p.revealed:
            counts[p.card] -= 1
    for x in state.destroyed:
        if x.revealed:
            counts[x.card] -= 1
    return counts


def _unproved(stack: tuple[StackCard, ...]) -> tuple[StackCard, ...]:
    return tuple(replace(c, revealed=False, proved=False) if c.proved else c for c in stack)


def before_proof(state: UnrestState) -> UnrestState:
    """The table as the liberation check found the District of the pending proof: its reveals so far undone (a
    proof reveals hidden cards only). ``state`` itself when no proof is pending."""
    frame = state.pending.top
    if frame is None:
        return state
    d = frame.district
    stacks = (*state.stacks[:d], _unproved(state.stacks[d]), *state.stacks[d + 1 :])
    return replace(state, stacks=stacks)


def done_round(state: UnrestState) -> int:
    """The last finished round: the current one from its draw step on (or once the Empire has won), else the one
    before."""
    cur = state.pos.round
    return cur if state.pos.step == "draw" or state.winner == EMPIRE else cur - 1


def snapshot_rounds(stack: tuple[StackCard, ...], freed: int, done: int) -> list[int]:
    """The rounds ``r`` whose end's liberation check saw ``stack`` (of a District liberated in round ``freed``, or
    0) in play with a card hidden from the Empire among its cards of rounds up to ``r``, ascending: the finished
    rounds (up to ``done``) before the liberation that some card was placed in, from the first one holding a hidden
    card on. A card the District's proof revealed later was hidden then."""
    last = min(done, freed - 1) if freed else done
    first = last + 1
    for c in stack:
        if c.round < first and (not c.revealed or (freed and c.proved)):
            first = c.round
    if first > last:  # most stacks: no hidden card in a finished round's snapshot
        return []
    return sorted({r for c in stack if first <= (r := c.round) <= last})


def snapshot_checks(state: UnrestState) -> tuple[Check, ...]:
    """The end-of-round snapshots: each stack as it stood at the end of each finished round while its District was
    in play, those with a card hidden from the Empire (the others every world passes, being all seen).

    Which cards each snapshot holds, and whether one is hidden, is public (rounds, facings, proofs), so every world
    of the same table has the same checks. A proof reveal undone changes no tally (a proved card counts in the sums,
    and as face up before the proof in neither case), only whether the snapshot holds a hidden card.
    """
    done = done_round(state)
    out: list[Check] = []
    for d, stack in enumerate(state.stacks):
        if stack:
            for r in snapshot_rounds(stack, state.freed[d], done):
                out.append((d, tuple(i for i, c in enumerate(stack) if c.round <= r), missions_for(state, d)))
    return tuple(out)


def won_passed(state: UnrestState) -> tuple[int, ...]:
    """When the Rebellion has won by a liberation, the Districts in play that the winning round's check had passed
    over (left of the last one liberated: the game ends at once, and a round's liberations go left to right)."""
    if state.winner != REBELLION:
        return ()
    cur = state.pos.round
    last = max((state.laid.index(d) for d in range(N_DISTRICTS) if state.freed[d] == cur), default=-1)
    out = []
    for d in state.row:
        if state.laid.index(d) > last:
            break
        out.append(d)
    return tuple(out)


def left_of(state: UnrestState, district: int) -> tuple[int, ...]:
    """The Districts in play left of ``district``: those the liberation check passed over to reach it."""
    row = state.row
    return row[: row.index(district)] if district in row else row


def passed_checks(state: UnrestState, districts: Iterable[int]) -> tuple[Check, ...]:
    """A check of each whole stack of ``districts`` (Districts the liberation check passed over)."""
    return tuple((d, tuple(range(len(state.stacks[d]))), missions_for(state, d)) for d in districts if state.stacks[d])


def _places(state: UnrestState) -> tuple[list[Place], list[Place], list[Place]]:
    """The unseen places: those known to hold a Misdirection (this round's hidden cards, when they all are), those
    known not to (the hidden destroyed cards) and the others."""
    r = state.pos.round
    all_m = all_misdirection_round(state)
    forced_m: list[Place] = []
    not_m: list[Place] = []
    free: list[Place] = []
    for s, p in enumerate(state.plan):
        if p is not None and not p.revealed:
            (forced_m if all_m else free).append((0, s))
    for d, stack in enumerate(state.stacks):
        for i, c in enumerate(stack):
            if not c.revealed:
                (forced_m if all_m and c.round == r else free).append((1, d, i))
    for j, x in enumerate(state.destroyed):
        if not x.revealed:
            not_m.append((2, j))
    free.extend([(3,)] * len(state.hand))
    free.extend([(4,)] * sum(state.deck))
    return forced_m, not_m, free


class Knowledge:
    """The Empire's information state about the unseen cards of a table (see the module docstring).

    Built by :func:`knowledge`; a world is a deal of :attr:`unseen` to the places (:attr:`forced_m` each a
    Misdirection, :attr:`not_m` none, :attr:`free` any) that :meth:`fits` accepts and, at a pending proof, whose own
    proof the cards revealed so far begin (:attr:`proof`, checked by :func:`unrest.determinization.consistent`).

    Attributes:
        unseen: the kinds of the unseen cards, one entry per physical card.
        forced_m, not_m, free: the unseen places (:data:`Place`), by what the Empire knows of their cards.
        checks: the stacks (as index sets) that met no Mission: snapshots and the Districts the check passed over.
        planning: whether the Rebellion is planning (its plan must be completable).
        proof: at a pending proof, the worlds as the check found its District (before any reveal); else ``None``.
        memo: the pending proof's minimal proofs by the District's hidden kinds (filled by the determinizer).
    """

    __slots__ = ("checks", "forced_m", "free", "memo", "not_m", "planning", "proof", "unseen")

    def __init__(
        self,
        unseen: tuple[CardKind, ...],
        places: tuple[list[Place], list[Place], list[Place]],
        checks: tuple[Check, ...],
        planning: bool,
        proof: ProofWorlds | None,
    ) -> None:
        self.unseen = unseen
        self.forced_m, self.not_m, self.free = (tuple(p) for p in places)
        self.checks = checks
        self.planning = planning
        self.proof = proof
        self.memo: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}

    def fits(self, deal: UnrestState) -> bool:
        """Whether ``deal`` (a state with the unseen cards dealt to :attr:`forced_m`, :attr:`not_m` and
        :attr:`free`) obeys the checks and, when planning, can complete its plan."""
        stacks = deal.stacks
        for d, indices, missions in self.checks:
            stack = stacks[d]
            tally = Tally([stack[i] for i in indices])
            for m in missions:
                if m.holds(tally):
                    return False
        return not (self.planning and not plan_actions(deal))


def _useful(checks: Iterable[Check]) -> tuple[Check, ...]:
    """The checks that can fail: those of at least :data:`unrest.rules.missions._FEWEST` cards."""
    return tuple(c for c in checks if len(c[1]) >= _FEWEST)


def knowledge(state: UnrestState) -> Knowledge:
    """The Empire's information state at ``state`` (see :class:`Knowledge`), read from what the Empire sees only:
    every world of the same view has the same knowledge."""
    frame = state.pending.top
    proof = None
    if frame is None:
        checks = _useful((*snapshot_checks(state), *passed_checks(state, won_passed(state))))
    else:
        table = before_proof(state)
        checks = _useful((*snapshot_checks(table), *passed_checks(table, left_of(table, frame.district))))
        proof = ProofWorlds(table, frame.district, checks)
    planning = state.pos.step == "plan" and state.winner < 0
    return Knowledge(tuple(unseen_cards(state)), _places(state), checks, planning, proof)


# ----- the worlds at a liberation proof ------------------------------------------------------------------------------

#: The kinds in the order the feasibility search tries them: a Misdirection first (it counts toward no Mission).
_M_FIRST = (MISDIRECTION, *range(MISDIRECTION))
#: The most unknown cards :meth:`ProofWorlds.fails_all_by_swaps` deals (beyond, the full search answers).
_SWAPPED = 3
#: The kinds lightest first: a Misdirection, then by value.
_LIGHT_FIRST = (MISDIRECTION, *sorted(range(MISDIRECTION), key=lambda k: (value_of(k), k)))


def _meets(tally: Tally, missions: Sequence[Mission]) -> bool:
    for m in missions:  # noqa: SIM110  # a loop: no generator per check
        if m.holds(tally):
            return True
    return False


#: :func:`_first_met` by the identity of the stack: ``id(stack) -> (stack, missions, round)``, each entry holding
#: its stack and Missions so that neither id is reused while it lives (a stack is shared by every later state until a
#: card joins it). Emptied when full (a cache of a pure function).
_FIRST_MET: dict[int, tuple[tuple[StackCard, ...], tuple[Mission, ...], int]] = {}
_FIRST_MET_SIZE = 1 << 9
#: Later than any round.
_NEVER = LAST_ROUND + 1


def _first_met(stack: tuple[StackCard, ...], missions: tuple[Mission, ...]) -> int:
    """The first round whose cards of ``stack`` up to it (all of them, hidden or not) meet one of ``missions``, or
    :data:`_NEVER`."""
    known = _FIRST_MET.get(id(stack))
    if known is not None and known[0] is stack and known[1] is missions:
        return known[2]
    first = _first_prefix_met(stack, missions, 0, _NEVER)
    if len(_FIRST_MET) >= _FIRST_MET_SIZE:
        _FIRST_MET.clear()
    _FIRST_MET[id(stack)] = (stack, missions, first)
    return first


def _first_prefix_met(stack: Sequence[StackCard], missions: Sequence[Mission], first: int, last: int) -> int:
    """The first round from ``first`` to ``last`` whose cards of ``stack`` up to it meet one of ``missions``, or
    :data:`_NEVER`. A stack's cards join it in round order, so each round's cards up to it are a prefix of the
    stack: one pass adds each card to one running tally (never handed out) and asks the Missions at the end of each
    round; a stack out of round order (a hand-laid table) is asked round by round
    (:func:`_first_prefix_met_plainly`)."""
    before = -1
    for c in stack:
        r = c.round
        if r < before:
            return _first_prefix_met_plainly(stack, missions, first, last)
        before = r
    t = Tally(())
    sums, counts, values, up, kinds = t.sums, t.counts, t.values, t.up, t.kinds
    n = len(stack)
    for j, c in enumerate(stack):
        r = c.round
        if r > last:
            break
        k = c.card
        if k != MISDIRECTION:
            s, v = _SUIT_VALUE[k]
            if c.revealed and not c.proved:
                up[s] += 1
            sums[s] += v
            counts[s] += 1
            values[v - 2] += 1
            kinds.append(k)
        if r >= first and j + 1 >= _FEWEST and (j + 1 == n or stack[j + 1].round != r) and _meets(t, missions):
            return r
    return _NEVER


def _first_prefix_met_plainly(stack: Sequence[StackCard], missions: Sequence[Mission], first: int, last: int) -> int:
    """:func:`_first_prefix_met` by its definition: each round's cards of ``stack`` up to it, round by round."""
    for r in sorted({c.round for c in stack if first <= c.round <= last}):
        cards = [c for c in stack if c.round <= r]
        if len(cards) >= _FEWEST and _meets(Tally(cards), missions):
            return r
    return _NEVER


def _swap_fits(
    rest: Tally,
    snaps: Sequence[tuple[Tally, list[int]]],
    kinds: list[int],
    missions: Sequence[Mission],
    mine: Sequence[Mission],
) -> bool:
    """Whether the stack with ``kinds`` dealt (to the totals ``rest`` of its other cards) meets none of
    ``missions``, and each own snapshot (its other cards' totals, and which dealt cards it holds) none of ``mine``."""
    if _meets(rest.plus(kinds), missions):
        return False
    for base, dealt in snaps:  # noqa: SIM110  # a loop: no generator per deal tried
        if dealt and _meets(base.plus([kinds[t] for t in dealt]), mine):
            return False
    return True


def _prefixes_meet(stack: Sequence[StackCard], missions: Sequence[Mission], first: int, last: int) -> bool:
    """Whether the cards of ``stack`` up to some round from ``first`` to ``last`` meet one of ``missions``."""
    return _first_prefix_met(stack, missions, first, last) != _NEVER


class ProofWorlds:
    """The worlds of positive posterior probability as the liberation check finds ``district`` (before its proof
    reveals anything), projected on the District's stack.

    Its unknown cards (:attr:`indices`: hidden, and not known to be a Misdirection) may be any deal of :attr:`pool`
    such that the District's own snapshots meet no Mission and the rest of the unseen cards can still be dealt to the
    other places by the rules (the other checks met by none, the hidden destroyed cards numbered): exactly the deals
    of :class:`Knowledge`, by a search that deals the constrained places only (the hand, the deck and unchecked
    hidden cards take any card). Positions of one round in one stack are alike to every check, so each round's cards
    are searched as a multiset.

    Built from a world (the truth, or a determinized one); what it answers depends only on what the Empire sees,
    the world serving only to try its own deal of the other places first.

    Attributes:
        indices: the stack indices of the unknown cards, ascending.
        pool: copies per kind of what an unknown card may be (the unseen cards less those known to be Misdirection).
    """

    __slots__ = (
        "_all_m",
        "_at",
        "_checks",
        "_face_up",
        "_groups",
        "_missions",
        "_other",
        "_own",
        "_ready",
        "_rounds",
        "_slot",
        "_stack",
        "_state",
        "_swap",
        "_witnesses",
        "district",
        "indices",
        "pool",
    )

    def __init__(self, state: UnrestState, district: int, checks: tuple[Check, ...] | None = None) -> None:
        self._state = state
        self.district = district
        self._checks = checks
        stack = state.stacks[district]
        self._stack = stack
        r = state.pos.round
        all_m = all_misdirection_round(state)
        self._all_m = all_m
        pool = unseen_counts(state)
        forced = sum(1 for p in state.plan if p is not None and not p.revealed) if all_m else 0
        if all_m:
            forced += sum(1 for s in state.stacks for c in s if not c.revealed and c.round == r)
        pool[MISDIRECTION] -= forced
        self.pool = pool
        unknown = [i for i, c in enumerate(stack) if not c.revealed and not (all_m and c.round == r)]
        self.indices = tuple(unknown)
        #: Worlds found (a kind per slot), each with the ids of the Missions it meets none of and those Missions
        #: (held, so that no id is reused while the world is kept).
        self._witnesses: list[tuple[tuple[int, ...], frozenset[int], tuple[Mission, ...]]] = []
        self._ready = False
        self._own: tuple[tuple[Tally, tuple[int, ...], tuple[Mission, ...]], ...] = ()
        self._other: _Others | None = None
        self._swap: tuple[list[int], tuple[tuple[int, ...], ...]] | bool | None = False
        self._missions = missions_for(state, district)

    def _prepare(self) -> None:
        """The checks, split into the District's own (by slot) and the rest (:class:`_Others`), made when first
        needed (most proofs are settled by the unseen pool alone)."""
        state, d = self._state, self.district
        stack = self._stack
        # Slots: the unknown cards by round (then index); a round's slots are one group.
        order = sorted(self.indices, key=lambda i: (stack[i].round, i))
        self._slot = {i: j for j, i in enumerate(order)}
        self._at = tuple(order)
        self._rounds = tuple(stack[i].round for i in order)
        groups: dict[int, list[int]] = {}
        for j, rnd in enumerate(self._rounds):
            groups.setdefault(rnd, []).append(j)
        self._groups = tuple(tuple(g) for g in groups.values())
        self._face_up = Tally([c for c in stack if c.revealed])
        checks = self._checks
        if checks is None:
            checks = _useful((*snapshot_checks(state), *passed_checks(state, left_of(state, d))))
        own = []
        slot = self._slot
        for e, indices, missions in checks:
            if e == d:
                base = Tally([stack[i] for i in indices if stack[i].revealed])
                own.append((base, tuple(slot[i] for i in indices if i in slot), missions))
        self._own = tuple(own)
        self._other = _Others(state, d, [c for c in checks if c[0] != d])
        self._ready = True

    def _swaps(self) -> tuple[list[int], tuple[tuple[int, ...], ...]] | None:
        """What :meth:`fails_all_by_swaps` deals from: the kinds of the hand and the deck (copies per kind), and the
        District's own snapshots (stack indices); ``None`` where the world itself may not be one of the worlds (an
        all-Misdirection round, a hidden destroyed Misdirection, or a stack elsewhere whose cards of some finished
        round met a Mission: a hand-laid table), which a world changed in this District's stack, the hand and the
        deck only needs."""
        swap = self._swap
        if swap is not False:
            return swap  # type: ignore[return-value]  # made once: a tuple, or None
        state, d = self._state, self.district
        out: tuple[list[int], tuple[tuple[int, ...], ...]] | None = None
        if not self._all_m and not any(not x.revealed and x.card == MISDIRECTION for x in state.destroyed):
            done = done_round(state)
            left = left_of(state, d)
            clean = True
            for e, stack in enumerate(state.stacks):
                if e == d or len(stack) < _FEWEST:
                    continue
                freed = state.freed[e]
                last = LAST_ROUND if e in left else (min(done, freed - 1) if freed else done)
                if _first_met(stack, missions_for(state, e)) <= last:
                    clean = False
                    break
            if clean:
                counts = list(state.deck)
                for k in state.hand:
                    counts[k] += 1
                for p in state.plan:
                    if p is not None and not p.revealed:
                        counts[p.card] += 1
                # This round's hidden cards of the Districts right of this one: no check has covered them yet.
                r = state.pos.round
                for e in state.row:
                    if e != d and e not in left:
                        for c in state.stacks[e]:
                            if c.round == r and not c.revealed:
                                counts[c.card] += 1
                stack = self._stack
                own = tuple(
                    tuple(i for i, c in enumerate(stack) if c.round <= r)
                    for r in snapshot_rounds(stack, state.freed[d], done)
                )
                out = (counts, tuple(o for o in own if len(o) >= _FEWEST))
        self._swap = out
        return out

    def rejects_near(self, stack: Sequence[StackCard], shown: Sequence[int], missions: Sequence[Mission]) -> bool:
        """Whether showing the cards at ``shown`` is found to prove none of ``missions``: each has a world that
        agrees with them and fails it. The worlds asked are those :meth:`fails_all_by_swaps` deals (the stack's
        unknown cards not at ``shown`` dealt from the cards no check covers, the rest of the table the world's own),
        each Mission by a world of its own. Where no snapshot of the District's own holds a card left to deal, each
        Mission's worst case over those cards answers exactly; else a search deals them (at most :data:`_SWAPPED`),
        holding each own snapshot to the District's Missions as its last dealt card is dealt and dropping a branch
        once every Mission still unanswered holds whatever the cards left to deal are (its worst case). A Mission no
        such deal fails is asked of :meth:`fails_all_by_swaps`'s exchanges with a checked card. ``False`` may still
        have worlds elsewhere."""
        swaps = self._swaps()
        if swaps is None:
            return False
        at: dict[int, int] = {}
        for i in self.indices:
            if i not in shown:
                at[i] = len(at)
        counts, own = swaps
        mine = self._missions
        snaps: list[tuple[Tally, list[int]]] = []
        for indices in own:
            dealt = [at[i] for i in indices if i in at]
            base = Tally([stack[i] for i in indices if i not in at])
            if dealt:
                snaps.append((base, dealt))
            elif _meets(base, mine):
                return False  # no world shows these cards here
        pool = counts.copy()
        for i in at:
            pool[stack[i].card] += 1
        rest = Tally([c for i, c in enumerate(stack) if i not in at])
        n = len(at)
        left: list[Mission] = []  # the Missions no deal found fails
        open_: list[Mission] = []
        for m in missions:
            (left if m.certain(rest, n, pool) else open_).append(m)
        if open_ and snaps:
            if n <= _SWAPPED:
                left += self._near_deals(stack, list(at), pool, rest, snaps=snaps, missions=open_)
            else:
                left += open_
        if not left:
            return True
        if n != 1:
            return False
        # One card, and no deal from the cards no check covers fails these Missions: each asked of the exchanges
        # with a checked card, a world of its own (the snapshots' side of a kind asked once for all).
        i = next(iter(at))
        kinds = [0]
        clear: dict[int, bool] = {}
        for m in left:
            one = (m,)
            answers: dict[int, bool] = {}

            def fits(k: int, one: tuple[Mission] = one, answers: dict[int, bool] = answers) -> bool:
                known = answers.get(k)
                if known is None:
                    kinds[0] = k
                    ok = clear.get(k)
                    if ok is None:
                        ok = clear[k] = _swap_fits(rest, snaps, kinds, (), mine)
                    known = answers[k] = ok and not _meets(rest.plus1(k), one)
                return known

            if not self._exchanged(stack, i, fits):
                return False
        return True

    def _near_deals(
        self,
        stack: Sequence[StackCard],
        free: list[int],
        pool: list[int],
        rest: Tally,
        *,
        snaps: Sequence[tuple[Tally, list[int]]],
        missions: list[Mission],
    ) -> list[Mission]:
        """Of ``missions``, those that no deal of the stack's cards at ``free`` from ``pool`` (the cards no check
        covers) fails while each own snapshot (``snaps``: the totals of its other cards, and which dealt cards it
        holds) meets none of the District's Missions: :meth:`rejects_near`'s search. ``pool`` is left as it was."""
        mine = self._missions
        n = len(free)
        kinds = [0] * n
        rounds = [stack[i].round for i in free]
        # Each own snapshot asked once its last dealt card is dealt (the snapshots' dealt cards are positions).
        trig: list[list[tuple[Tally, list[int]]]] = [[] for _ in range(n)]
        for snap in snaps:
            trig[max(snap[1])].append(snap)
        left = missions

        def deal(depth: int, lo: int, t: Tally) -> bool:
            nonlocal left
            if depth == n:
                left = [m for m in left if m.holds(t)]
                return not left
            start = lo if depth and rounds[depth - 1] == rounds[depth] else 0
            after = n - depth - 1
            for r in range(start, KINDS):
                k = _LIGHT_FIRST[r]
                if pool[k] <= 0:
                    continue
                pool[k] -= 1
                kinds[depth] = k
                ok = True
                for base, dealt in trig[depth]:
                    if _meets(base.plus([kinds[j] for j in dealt]), mine):
                        ok = False
                        break
                if ok:
                    u = t.plus1(k)
                    for m in left:
                        if not m.certain(u, after, pool):
                            break
                    else:
                        ok = False  # every Mission left holds whatever the rest are dealt
                    if ok and deal(depth + 1, r, u):
                        pool[k] += 1
                        return True
                pool[k] += 1
            return False

        deal(0, 0, rest)
        return left

    def fails_all_by_swaps(self, stack: Sequence[StackCard], shown: Sequence[int], missions: Sequence[Mission]) -> bool:
        """Whether a world of :meth:`fails_all` is found near the world itself: the stack's unknown cards not at
        ``shown`` (at most :data:`_SWAPPED`) exchanged with cards no check covers (the hand, the deck, a hidden plan,
        this round's hidden cards right of the District), or one such card exchanged with a hidden destroyed card
        or with a hidden card a check covers (that stack's checks asked again). ``True`` answers :meth:`fails_all`
        (such a deal is one of the worlds, the rest of the table being the world's own, which :meth:`_swaps` holds
        to every check first); ``False`` may still have a world elsewhere. It needs none of the model of the other
        places that :meth:`fails_all` builds."""
        swaps = self._swaps()
        if swaps is None:
            return False
        free = [i for i in self.indices if i not in shown]
        if len(free) > _SWAPPED:
            return False
        counts, own = swaps
        pool = counts.copy()
        for i in free:
            pool[stack[i].card] += 1
        mine = self._missions
        n = len(free)
        kinds = [0] * n
        # The totals of the cards that stay, of the stack and of each own snapshot, and where the dealt ones join.
        at = {i: t for t, i in enumerate(free)}
        rest = Tally([c for i, c in enumerate(stack) if i not in at])
        snaps = [
            (Tally([stack[i] for i in indices if i not in at]), [at[i] for i in indices if i in at]) for indices in own
        ]
        rounds = [stack[i].round for i in free]

        def deal(depth: int, lo: int) -> bool:
            if depth == n:
                return _swap_fits(rest, snaps, kinds, missions, mine)
            # One round's cards of the stack are alike to every snapshot: its kinds ascending, as a multiset.
            start = lo if depth and rounds[depth - 1] == rounds[depth] else 0
            for r in range(start, KINDS):
                k = _LIGHT_FIRST[r]
                if pool[k] <= 0:
                    continue
                pool[k] -= 1
                kinds[depth] = k
                found = deal(depth + 1, r)
                pool[k] += 1
                if found:
                    return True
            return False

        if n != 1:
            return deal(0, 0)
        # One card: the stack's side of a deal depends on its kind alone, asked once per kind.
        answers: dict[int, bool] = {}

        def fits(k: int) -> bool:
            known = answers.get(k)
            if known is None:
                kinds[0] = k
                known = answers[k] = _swap_fits(rest, snaps, kinds, missions, mine)
            return known

        for k in _LIGHT_FIRST:
            if pool[k] > 0 and fits(k):
                return True
        return self._exchanged(stack, free[0], fits)

    def _exchanged(self, stack: Sequence[StackCard], i: int, fits: Callable[[int], bool]) -> bool:
        """Whether the stack's card at ``i`` (its one unknown card not shown) exchanged with a hidden destroyed card
        (the card going there numbered) or with a hidden card that a check covers (another stack's, each of its
        checks asked again) gives a world that :meth:`fails_all_by_swaps` looks for: ``fits(kind)`` says whether
        the stack holding ``kind`` at ``i`` fails what is asked and keeps its own snapshots clear."""
        k0 = stack[i].card
        state = self._state
        if k0 != MISDIRECTION:
            for x in state.destroyed:
                if not x.revealed and fits(x.card):
                    return True
        d = self.district
        done = done_round(state)
        left = left_of(state, d)
        for e, other in enumerate(state.stacks):
            if e == d:
                continue
            freed = state.freed[e]
            last = LAST_ROUND if e in left else (min(done, freed - 1) if freed else done)
            for j, c in enumerate(other):
                if c.revealed or c.round > last or not fits(c.card):
                    continue  # a card no check covers is among the pool's above
                moved = (*other[:j], StackCard(k0, False, c.round), *other[j + 1 :])
                if not _prefixes_meet(moved, missions_for(state, e), c.round, last):
                    return True
        return False

    def fails(self, stack: Sequence[StackCard], shown: Sequence[int], mission: Mission) -> bool:
        """Whether some world whose cards at the stack indices ``shown`` (unknown ones) are ``stack``'s fails
        ``mission``: then showing them does not prove it."""
        return self.fails_all(stack, shown, (mission,))

    def fails_all(self, stack: Sequence[StackCard], shown: Sequence[int], missions: Sequence[Mission]) -> bool:
        """Whether some world whose cards at the stack indices ``shown`` (unknown ones) are ``stack``'s meets none
        of ``missions``: then showing them proves none of them (one search where a Mission at a time would take
        one each; most candidate proofs have such a world)."""
        if not self._ready:
            self._prepare()
        h = len(self._rounds)
        kinds = [-1] * h
        pool = self.pool.copy()
        fixed = []
        slot = self._slot
        for i in shown:
            k = stack[i].card
            kinds[slot[i]] = k
            pool[k] -= 1
            fixed.append(k)
        ids = [id(m) for m in missions]  # by identity: a Mission's attrs hash is computed at every call
        for w, failed, _ in self._witnesses:
            for mid in ids:
                if mid not in failed:
                    break
            else:
                if self._agrees(w, kinds):
                    return True
        free = [j for j in range(h) if kinds[j] < 0]
        depth_of = {j: t for t, j in enumerate(free)}
        n = len(free)
        triggers: list[list[tuple[Tally, tuple[int, ...], tuple[Mission, ...]]]] = [[] for _ in range(n)]
        for check in self._own:
            base, slots, ms = check
            last = max((depth_of[j] for j in slots if j in depth_of), default=-1)
            if last >= 0:
                triggers[last].append(check)
            elif _meets(base.plus([kinds[j] for j in slots]), ms):
                return False  # no world shows these cards here
        tally = self._face_up.plus(fixed)
        for m in missions:
            if m.certain(tally, n, pool):
                return False
        # Lightest first (a Misdirection, then by value): most Missions need more or larger cards, so a world that
        # fails them is found early; the kinds the other places' own deal leaves spare before the others (a world of
        # them passes ``feasible`` at once). The order finds a different world first, never a different answer.
        others = self._other
        assert others is not None
        need = others.truth
        if need is None:
            order = list(_LIGHT_FIRST)
        else:
            order = [k for k in _LIGHT_FIRST if pool[k] > need[k]]
            order += [k for k in _LIGHT_FIRST if pool[k] <= need[k]]
        rounds = self._rounds

        def search(depth: int, t: Tally, lo: int) -> bool:
            if depth == n:
                return not _meets(t, missions) and others.feasible(pool)
            j = free[depth]
            start = lo if depth and rounds[free[depth - 1]] == rounds[j] else 0
            left = n - depth - 1
            for r in range(start, len(order)):
                k = order[r]
                if pool[k] <= 0:
                    continue
                pool[k] -= 1
                kinds[j] = k
                u = t.plus1(k)
                ok = True
                for base, slots, ms in triggers[depth]:
                    if _meets(base.plus([kinds[s] for s in slots]), ms):
                        ok = False
                        break
                if ok:
                    for m in missions:
                        if m.certain(u, left, pool):
                            ok = False
                            break
                if ok and search(depth + 1, u, r):
                    pool[k] += 1
                    return True
                pool[k] += 1
            kinds[j] = -1
            return False

        if search(0, tally, 0):
            self._witnesses.append((tuple(kinds), frozenset(ids), tuple(missions)))
            return True
        return False

    def _agrees(self, world: tuple[int, ...], kinds: list[int]) -> bool:
        """Whether ``world`` (a kind per slot) can show the kinds fixed in ``kinds`` at their slots: per round, the
        fixed kinds are among the world's (the slots of a round being alike)."""
        for g in self._groups:
            have: list[int] | None = None
            for j in g:
                k = kinds[j]
                if k >= 0:
                    if have is None:
                        have = [world[s] for s in g]
                    if k not in have:
                        return False
                    have.remove(k)
        return True


class _Others:
    """Whether the cards left once a District's unknown cards are dealt can be dealt to the other places: the
    unknown cards the other checks cover, so that each meets no Mission, and then a numbered card to each hidden
    destroyed card (the hand, the deck and the unchecked hidden cards take whatever is left)."""

    __slots__ = ("groups", "memo", "n_not_m", "orders", "slots", "triggers", "truth")

    def __init__(self, state: UnrestState, district: int, checks: Sequence[Check]) -> None:
        r = state.pos.round
        all_m = all_misdirection_round(state)
        self.n_not_m = sum(1 for x in state.destroyed if not x.revealed)
        places: dict[tuple[int, int], int] = {}
        for e, indices, _ in checks:
            stack = state.stacks[e]
            for i in indices:
                c = stack[i]
                if not c.revealed and not (all_m and c.round == r):
                    places[(e, i)] = 0
        order = sorted(places, key=lambda p: (p[0], state.stacks[p[0]][p[1]].round, p[1]))
        for s, p in enumerate(order):
            places[p] = s
        self.slots = len(order)
        self.groups = tuple((e, state.stacks[e][i].round) for e, i in order)
        triggers: list[list[tuple[Tally, tuple[int, ...], tuple[Mission, ...]]]] = [[] for _ in order]
        for e, indices, missions in checks:
            stack = state.stacks[e]
            slots = tuple(places[(e, i)] for i in indices if (e, i) in places)
            if slots:
                base = Tally([stack[i] for i in indices if stack[i].revealed])
                triggers[max(slots)].append((base, slots, missions))
        self.triggers = triggers
        self.memo: dict[tuple[int, ...], bool] = {}
        # The world's own deal of these places, if it passes the checks (a hand-made table may not).
        truth = [state.stacks[e][i].card for e, i in order]
        need = [0] * KINDS
        for k in truth:
            need[k] += 1
        ok = all(not _meets(base.plus([truth[s] for s in slots]), ms) for trig in triggers for base, slots, ms in trig)
        self.truth = need if ok else None
        # The kinds each place tries, in order: its group's own kinds (the world's deal passes the checks, so a
        # search mostly keeps it), a Misdirection (it counts toward no Mission), then the rest. One order per group,
        # so that a group's places still take its kinds as a multiset.
        orders: dict[tuple[int, int], tuple[int, ...]] = {}
        for g, k in zip(self.groups, truth, strict=True):
            orders.setdefault(g, ())
            if k not in orders[g]:
                orders[g] = (*orders[g], k)
        for g, first in orders.items():
            rest = [k for k in _M_FIRST if k not in first]
            orders[g] = (*first, *rest)
        self.orders = tuple(orders[g] for g in self.groups)

    def feasible(self, pool: list[int]) -> bool:
        """Whether the other places can be dealt from ``pool`` (copies per kind; left as it was)."""
        truth = self.truth
        if truth is not None:
            for k in range(KINDS):
                if pool[k] < truth[k]:
                    break
            else:
                numbered = sum(pool) - pool[MISDIRECTION] - (sum(truth) - truth[MISDIRECTION])
                if numbered >= self.n_not_m:
                    return True
        key = tuple(pool)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._search(list(pool))
        return known

    def _search(self, pool: list[int]) -> bool:
        n = self.slots
        kinds = [0] * n
        groups = self.groups
        triggers = self.triggers
        need = self.n_not_m
        orders = self.orders

        def search(depth: int, lo: int) -> bool:
            if depth == n:
                return sum(pool) - pool[MISDIRECTION] >= need
            start = lo if depth and groups[depth - 1] == groups[depth] else 0
            order = orders[depth]
            for r in range(start, KINDS):
                k = order[r]
                if pool[k] <= 0:
                    continue
                pool[k] -= 1
                kinds[depth] = k
                ok = True
                for base, slots, missions in triggers[depth]:
                    if _meets(base.plus([kinds[s] for s in slots]), missions):
                        ok = False
                        break
                found = ok and search(depth + 1, r)
                pool[k] += 1
                if found:
                    return True
            return False

        return search(0, 0)
