"""What a valid state of Unrest is: checked when a state is loaded and by the conformance run.

:func:`validate_state` runs the checks below in order and raises ``ValueError`` naming the first broken one.
Setup's own rules decide which rows are possible (:data:`unrest.setup.ROWS`), and the determinizer's
reasoning which draw logs are (:func:`unrest.determinization.draws_fit`), so neither is written twice.
"""

from __future__ import annotations

import operator
from typing import Any, cast

from unrest import setup
from unrest.actions import (
    DECISIONS,
    NUM_MOVE_CODES,
    Blockade,
    Decision,
    Destroy,
    Place,
    Plan,
    Reroute,
    Reveal,
    Surveil,
    Target,
)
from unrest.determinization import draws_fit, history_fits
from unrest.knowledge import ProofWorlds, before_proof
from unrest.limits import MAX_MOVES
from unrest.rules.cards import DECK_SIZE, KINDS, MISDIRECTION
from unrest.rules.liberation import met_missions, minimal_proofs, missions_for
from unrest.setup import ROWS, deck_for
from unrest.state import (
    BLOCKADE,
    CAPITOL,
    DESTROY,
    DRAW_SIZE,
    EMPIRE,
    EMPIRE_ACTIONS,
    FLOW,
    FRAMES,
    HAND_SIZE,
    LAST_ROUND,
    MISSIONS_DEALT,
    N_DISTRICTS,
    N_MISSIONS,
    N_POWERS,
    NO_DISTRICT,
    PLAN_SIZE,
    REBELLION,
    REROUTE,
    SURVEIL,
    WIN_LIBERATED,
    UnrestState,
)

__all__ = ["validate_state", "validate_table"]


def validate_state(state: UnrestState) -> None:
    """Check the invariants of a (deserialized) state: those of its table (:func:`validate_table`) and of its
    history, the table held to the move log (a state with an empty log is at setup or the start of round 1).

    Raises:
        ValueError: naming the first invariant ``state`` breaks (for the log, the move where it breaks).
    """
    validate_table(state)
    _check_history(state)


def validate_table(state: UnrestState) -> None:
    """Check the invariants of a state's table alone: the flow position and rounds, card conservation, the row,
    the Missions, the round's parts, the pending proof and the logs' own form. Every reachable state passes; so do
    hand-laid analysis positions that no play reaches (many destroyed cards, say), which :func:`validate_state`
    refuses for their history. Loading a state runs :func:`validate_state`.

    Raises:
        ValueError: naming the first invariant ``state`` breaks.
    """
    _check_rounds(state)
    _check_sizes(state)
    _check_cards(state)
    _check_row(state)
    _check_missions(state)
    _check_round_parts(state)
    _check_winner(state)
    _check_proof(state)
    _check_logs(state)


def _final_round(state: UnrestState) -> int:
    """The round that is the Final Encounter: the last, or the research game's only round."""
    return 1 if state.options.research else LAST_ROUND


def _check_history(state: UnrestState) -> None:
    """What a played game's history fixes: the cards drawn by this round, the Final Encounter, the Area of
    Interest and the whole plan from targeting to the liberation, the plan's facings as the log shows them, and
    the liberation checks of earlier rounds (what the determinizer infers from the table holds of the truth).

    A state with no logged decision is held to all of it as the start of the game (setup or round 1's start).
    """
    _check_draw_count(state)
    step, now = state.pos.step, state.pos.round
    final = state.options.research or now == LAST_ROUND or (now == LAST_ROUND - 1 and step == "draw")
    if now >= 1 and state.final != final:
        raise ValueError(
            f"the Final Encounter is round {_final_round(state)} (triggered by the draw before it), not {now}"
        )
    marked = step in ("plan", "defend", "place", "liberate") and not state.final and state.winner != EMPIRE
    if len(state.aoi) != (2 if marked else 0):
        raise ValueError(f"the Area of Interest marks two Districts from targeting to the liberation, not {state.aoi}")
    full = step in ("defend", "place") or (step == "liberate" and state.winner != EMPIRE)
    if (full and len(state.plan) != PLAN_SIZE) or (step not in ("plan", "liberate") and not full and state.plan):
        raise ValueError(f"the plan has {PLAN_SIZE} slots from defence to liberation, none before (not {state.plan})")
    _check_moves(state)
    if not history_fits(state):
        # The determinizer's inferences from the table (a District meeting a Mission is liberated at the round's
        # end, left to right) must hold of the truth itself, or no deal of the hidden cards could explain it.
        raise ValueError("the stacks and Missions contradict the liberation checks of earlier rounds")


def _check_rounds(state: UnrestState) -> None:
    FLOW.at(state.pos.phase, state.pos.step)
    now = state.pos.round
    if not 0 <= now <= LAST_ROUND:
        raise ValueError(f"round {now} is outside the game's rounds 0..{LAST_ROUND}")
    placed = [c.round for s in state.stacks for c in s]
    placed += [x.round for x in state.destroyed]
    if placed and (min(placed) < 1 or max(placed) > now):
        raise ValueError(f"a card was placed or destroyed in a round outside 1..{now} (the current round)")


def _check_sizes(state: UnrestState) -> None:
    if len(state.deck) != KINDS or min(state.deck) < 0 or max(state.deck) > DECK_SIZE:
        raise ValueError(f"deck must give a count in 0..{DECK_SIZE} for each of the {KINDS} card kinds")
    if len(state.stacks) != N_DISTRICTS or len(state.freed) != N_DISTRICTS or len(state.tokens) != N_POWERS:
        raise ValueError(f"stacks and freed need {N_DISTRICTS} entries, tokens {N_POWERS}")
    if list(state.hand) != sorted(state.hand):
        raise ValueError("hand must be sorted")
    now = state.pos.round
    for d, r in enumerate(state.freed):
        if not 0 <= r <= now or (r == now and r and state.pos.step not in ("liberate", "draw")):
            raise ValueError(f"District {d} freed in round {r}: a District is liberated at the end of a round 1..{now}")


def _check_cards(state: UnrestState) -> None:
    """Every one of the 24 cards is in exactly one place; Misdirection is never face down beside the table nor
    planned face up."""
    counts = list(state.deck)
    for k in state.hand:
        counts[k] += 1
    for stack in state.stacks:
        for c in stack:
            counts[c.card] += 1
    for p in state.plan:
        if p is not None:
            counts[p.card] += 1
            if p.revealed and p.card == MISDIRECTION:
                raise ValueError("a Misdirection card is never planned revealed")
    for x in state.destroyed:
        counts[x.card] += 1
        if x.card == MISDIRECTION and not x.revealed:
            raise ValueError("a destroyed Misdirection card is revealed")
    if tuple(counts) != deck_for(state.options):
        raise ValueError(f"cards are not conserved: {counts} != {list(deck_for(state.options))}")


def _check_row(state: UnrestState) -> None:
    """The row is one that setup lays (being laid, or whole and without the liberated Districts)."""
    in_play = [d for d in range(N_DISTRICTS) if not state.freed[d]]
    if state.pos.round > 0 and sorted(state.row) != in_play:
        raise ValueError(f"row {state.row} must hold exactly the unliberated Districts {in_play}")
    laying = state.pos.round == 0 and state.pos.step == "districts"
    if laying and state.laid != state.row:
        raise ValueError(f"laid {state.laid} must be the row {state.row} while the row is being laid")
    partial, whole = ROWS[state.options.variant]
    if laying and state.laid not in partial:
        raise ValueError(f"row {state.row} being laid is not a row setup lays ({state.options.variant} variant)")
    if not laying:
        if state.laid not in whole:
            raise ValueError(f"laid {state.laid} must be the {N_DISTRICTS} Districts as setup lays them")
        if state.row != tuple(d for d in state.laid if not state.freed[d]):
            raise ValueError(f"row {state.row} must be the row as laid {state.laid} without liberated Districts")


def _check_missions(state: UnrestState) -> None:
    if len(set(state.missions)) != len(state.missions) or state.missions[:1] != (0,):
        raise ValueError("missions must be distinct, Revolution first")
    if len(state.missions) > 1 + MISSIONS_DEALT or any(not 0 <= m < N_MISSIONS for m in state.missions):
        raise ValueError(f"missions must be the Revolution and at most {MISSIONS_DEALT} of the {N_MISSIONS} ids")
    if state.winner not in (-1, REBELLION, EMPIRE):
        raise ValueError("winner must be -1, 0 or 1")


def _check_round_parts(state: UnrestState) -> None:
    """The Area of Interest, the Blockade, the used tokens, the plan, the cards to draw, the Final Encounter and
    the pending proof fit the step."""
    step, now = state.pos.step, state.pos.round
    if state.final and now < LAST_ROUND - 1 and not state.options.research:
        raise ValueError(
            f"the Final Encounter is round {_final_round(state)} (triggered by the draw before it), not {now}"
        )
    if len(state.aoi) not in (0, 2) or len(set(state.aoi)) != len(state.aoi):
        raise ValueError(f"the Area of Interest marks two distinct Districts or none, not {state.aoi}")
    aoi = state.aoi
    if aoi and step != "liberate" and aoi not in {state.row[i : i + 2] for i in range(len(state.row) - 1)}:
        raise ValueError(f"the Area of Interest {state.aoi} must mark two adjacent Districts of the row {state.row}")
    blockading = step in ("defend", "place", "liberate")
    if state.blockade != NO_DISTRICT and (not blockading or state.blockade not in range(N_DISTRICTS)):
        raise ValueError(f"a Blockade on {state.blockade} at {step}: only a District, from defence to liberation")
    if state.blockade not in (NO_DISTRICT, *state.row) and step != "liberate":
        raise ValueError(f"the Blockade {state.blockade} is on a District out of play")
    most = {"defend": EMPIRE_ACTIONS - 1, "place": EMPIRE_ACTIONS, "liberate": EMPIRE_ACTIONS}.get(step, 0)
    used = state.used
    if len(used) > most or (used and (min(used) < 0 or max(used) >= N_POWERS)):
        raise ValueError(f"powers used {state.used}: at most {most} of the {N_POWERS} powers at the {step} step")
    drawing = step in ("hand", "draw") and state.winner < 0
    if not 0 <= state.to_draw <= min(state.deck_size, DRAW_SIZE if step == "draw" else HAND_SIZE):
        raise ValueError(f"{state.to_draw} cards to draw with {state.deck_size} in the deck")
    if (state.to_draw > 0) != (step == "draw" and drawing) and now != 0:
        raise ValueError(f"{state.to_draw} cards to draw at the {step} step (cards are drawn at the draw step only)")
    if used and (any(state.tokens[p] for p in used) or len(set(used)) != len(used)):
        raise ValueError("powers used this round are distinct and face down")
    planned = any(p is not None for p in state.plan)
    if len(state.plan) > PLAN_SIZE or (planned and step not in ("plan", "defend", "place")):
        raise ValueError(f"at most {PLAN_SIZE} planned cards, only between planning and placement")
    if step == "plan" and None in state.plan:
        raise ValueError("no planned card leaves the plan during planning")
    if step == "place" and state.winner < 0 and not planned:
        raise ValueError("the placement step needs a planned card left to place")
    if (state.pending.top is not None) != (step == "liberate" and state.winner < 0):
        raise ValueError("a pending proof exists exactly at an undecided liberation step")


def _check_draw_count(state: UnrestState) -> None:
    """The Rebellion drew the opening hand, then three cards at each round's end (the rest when fewer are left)."""
    now, step = state.pos.round, state.pos.step
    total = sum(deck_for(state.options))
    hand = setup.RESEARCH_HAND if state.options.research else HAND_SIZE
    drawn = total - state.deck_size
    if now == 0:
        if drawn > hand or (drawn and step == "districts"):
            raise ValueError(f"{drawn} cards drawn during setup (the opening hand is {hand})")
        return
    before = min(total, hand + DRAW_SIZE * (now - 1))
    due = before + (min(DRAW_SIZE, total - before) - state.to_draw if step == "draw" else 0)
    if drawn != due:
        raise ValueError(f"{drawn} cards drawn by round {now} at the {step} step, the rules draw {due}")


def _check_winner(state: UnrestState) -> None:
    """A winner is decided at the liberation check: three Districts liberated (or the Capitol, in its variant)
    for the Rebellion; at the end of the Final Encounter, the Empire holding three or more."""
    freed = [d for d in range(N_DISTRICTS) if state.freed[d]]
    capitol = state.options.variant == "capitol" and CAPITOL in freed
    liberated = len(freed) >= WIN_LIBERATED or capitol
    if state.winner < 0:
        if liberated:
            raise ValueError(f"Districts {freed} are liberated but the game goes on")
        return
    if state.pos.step != "liberate" or state.pending:
        raise ValueError("a winner is decided at the liberation check, with no proof pending")
    held = N_DISTRICTS - len(freed)
    if state.winner == EMPIRE and not (state.final and held >= WIN_LIBERATED and not liberated):
        raise ValueError(f"the Empire wins only after the Final Encounter holding {WIN_LIBERATED} Districts")
    if state.winner == REBELLION and not (liberated or (state.final and held < WIN_LIBERATED)):
        raise ValueError(f"the Rebellion wins only with Districts liberated, not with {freed}")


def _check_proof(state: UnrestState) -> None:
    """A pending proof is for the leftmost District in play whose Missions are met, and holds exactly the minimal
    proofs that extend the cards revealed for it so far."""
    FRAMES.check_stack(state.pending.frames)  # every frame of a kind the game registers as one that may be pending
    frame = state.pending.top
    for x, stack in enumerate(state.stacks):
        if stack and not state.freed[x] and (frame is None or frame.district != x) and True in map(_PROVED, stack):
            raise ValueError(f"District {x} holds a card revealed to prove it but is neither liberated nor proving")
    if frame is None:
        return
    if len(state.pending) != 1:
        raise ValueError("one liberation proof is pending at a time")
    d = frame.district
    if d not in state.row or not met_missions(state, d):
        raise ValueError(f"a proof pending for District {d}, which is not in play with its Missions met")
    first = next(x for x in state.row if met_missions(state, x))
    if first != d:
        raise ValueError(f"a proof pending for District {d} while District {first} left of it is liberated first")
    stack = state.stacks[d]
    chosen = frame.chosen
    if list(chosen) != sorted(set(chosen)) or any(not 0 <= i < len(stack) for i in chosen):
        raise ValueError(f"proof of District {d}: chosen {chosen} are not ascending indices of its stack")
    if [i for i, c in enumerate(stack) if c.proved] != list(chosen) or any(not stack[i].revealed for i in chosen):
        raise ValueError(f"proof of District {d}: exactly the chosen cards {chosen} are revealed to prove it")
    # The proofs were found before the chosen cards were revealed (a proof reveals hidden cards only), against the
    # Empire's knowledge of the table as the check found it.
    table = before_proof(state)
    k = len(chosen)
    proofs = minimal_proofs(table.stacks[d], missions_for(state, d), worlds=ProofWorlds(table, d))
    open_ = tuple(p for p in proofs if p[:k] == chosen)
    if frame.proofs != open_ or not open_ or chosen in open_:
        raise ValueError(f"proof of District {d}: the open proofs must be {open_}, the minimal ones extending {chosen}")


# Move codes by kind, in the order a round takes them: the Area of Interest, the plan, the Empire's powers, the
# placement, the liberation proofs' reveals.
_TARGET, _PLAN, _POWER, _PLACE, _REVEAL = range(5)
_PARTS = ("Area of Interest", "plan", "powers", "placement", "reveals")
_KIND_OF = {Target: _TARGET, Plan: _PLAN, Surveil: _POWER, Destroy: _POWER, Reroute: _POWER, Blockade: _POWER}
_KIND_OF.update({Place: _PLACE, Reveal: _REVEAL})
_POWER_OF = {Surveil: SURVEIL, Destroy: DESTROY, Reroute: REROUTE, Blockade: BLOCKADE}


def _code(action: Decision | None) -> tuple[int, int, int, int, int, int]:
    """A public code as plain ints: kind, power (or -1), slot, District, card shown, stack index (-1 if none)."""
    if action is None:  # a hidden plan
        return (_PLAN, -1, -1, NO_DISTRICT, -1, -1)
    kind = _KIND_OF[type(action)]
    power = _POWER_OF.get(type(action), -1)
    slot = getattr(action, "slot", -1)
    district = getattr(action, "district", NO_DISTRICT)
    card = action.card if isinstance(action, Plan) else -1
    return (kind, power, slot, district, card, getattr(action, "index", -1))


#: Each public code (decision ids, then the hidden plan) as :func:`_code` ints.
_CODES = (*(_code(a) for a in DECISIONS), _code(None))
#: The kinds of move a step can follow in its own round.
_STEP_KINDS = {
    "plan": (_TARGET, _PLAN),
    "defend": (_PLAN, _POWER),
    "place": (_PLAN, _POWER, _PLACE),
    "liberate": (_PLAN, _POWER, _PLACE, _REVEAL),
    "draw": (_PLAN, _POWER, _PLACE, _REVEAL),
}
# A plan slot as the log shows it, a list [face up (planned so or surveilled), the card if planned face up (or -1),
# left the plan (None while a surveil may have destroyed a Misdirection there), where in the destroyed cards that
# Misdirection would lie]; a card that reached the destroyed pile, a list [round, face up, card or -1, destroyed by
# a surveil (so a Misdirection), dropped (a surveil's possible destruction that did not happen)]; one that reached
# a stack, a tuple (round, face up, card or -1): nothing the walk learns later changes it.
_UP, _CARD, _LEFT, _SURVEIL = range(4)
_ROUND, _MISDIRECTION, _DROPPED = 0, 3, 4


_ALL_UP = (True,) * N_POWERS
_ONLY_INT = frozenset({int})
_PROVED = operator.attrgetter("proved")


def _bad(moves: tuple[int, ...], i: int, why: str) -> ValueError:
    """The error for ``moves[i]``, named with its decision."""
    code = moves[i]
    return ValueError(f"moves[{i}]: {DECISIONS[code] if code < len(DECISIONS) else 'a hidden plan'} {why}")


def _end_round(slots: list[list[Any]], tokens: list[bool], rnd: int, at: str | int) -> None:
    """Close round ``rnd`` of the log walk (at ``moves[at]``, or the place ``at`` names): every planned card has
    left the plan, and the Power tokens turn face up again once all are face down."""
    for s, slot in enumerate(slots):
        if slot[_LEFT] is None:  # surveilled and never moved again: a Misdirection, destroyed on sight
            slot[_LEFT] = True
        elif not slot[_LEFT]:
            where = f"moves[{at}]" if type(at) is int else at
            raise ValueError(f"{where}: plan slot {s + 1} of round {rnd} never left the plan")
    if not any(tokens):
        tokens[:] = _ALL_UP


def _check_moves(state: UnrestState) -> None:
    """Walk the move log once and hold the table to it: the log's rounds are the state's (a state with an empty
    log is at setup or the start of round 1), each round takes its moves in the rules' order (the Area of
    Interest, except in the Final Encounter; the plan; the powers, each once, face up, at most two; the placement,
    lowest slot first, into the Area of Interest off the Blockade; the proofs' reveals), and what the moves did is
    on the table: every stack's cards and the destroyed pile in order with their rounds and facings, the cards
    the log shows, the tokens, the powers used, the Blockade, the Area of Interest, this round's plan, the hand's
    size and the cards revealed to liberate each District. Linear in the log's length.
    """
    moves = state.moves
    now, step = state.pos.round, state.pos.step
    final_round = _final_round(state)
    laid, freed = state.laid, state.freed
    tokens = list(setup.RESEARCH_TOKENS if state.options.research else _ALL_UP)  # as setup lays them
    stacks: list[list[tuple[int, bool, int]]] = [[] for _ in range(N_DISTRICTS)]  # (round, face up, card or -1)
    gone: list[list[Any]] = []
    reveals: dict[int, list[int]] = {}  # by round, the stack indices revealed
    planned = 0
    rnd, kind = 0, _REVEAL
    row: list[int] = []
    slots: list[list[Any]] = []
    used: list[int] = []
    blockade, aoi = NO_DISTRICT, cast(tuple[int, ...], ())
    codes = _CODES
    liberations = {r for r in freed if r > 0}
    # One branch per kind of move, the commonest first; each takes its checks in the order they are named.
    for i, code in enumerate(moves):
        kind_i, power, slot_n, district, card, index = codes[code]
        if kind_i == _TARGET or rnd == 0 or (kind_i == _PLAN and kind >= _POWER):
            if rnd:
                _end_round(slots, tokens, rnd, i)
            rnd += 1
            if rnd > now:
                raise _bad(moves, i, f"reaches round {rnd}, but the state is in round {now}")
            if (kind_i == _TARGET) != (rnd != final_round):
                raise _bad(
                    moves, i, f"begins round {rnd}: a round begins with the Area of Interest but the Final Encounter"
                )
            if rnd == 1 or rnd - 1 in liberations:  # the row as it was in round rnd: the same unless one left it
                row = [d for d in laid if not 0 < freed[d] < rnd]
            slots, used, blockade, aoi = [], [], NO_DISTRICT, ()
        elif kind_i < kind:
            raise _bad(moves, i, f"cannot follow round {rnd}'s {_PARTS[kind]}")
        kind = kind_i
        if kind_i == _PLAN:
            if len(slots) == PLAN_SIZE:
                raise _bad(moves, i, f"plans a card past the {PLAN_SIZE} of round {rnd}")
            slots.append([card >= 0, card, False, -1])
            planned += 1
        elif kind_i == _PLACE:
            if slot_n >= len(slots) or slots[slot_n][_LEFT]:
                raise _bad(moves, i, f"in round {rnd} names a slot with no planned card")
            slot = slots[slot_n]
            for s in range(slot_n):
                lower = slots[s]
                if lower[_LEFT] is False:
                    raise _bad(moves, i, f"in round {rnd} skips a lower slot still planned")
                lower[_LEFT] = True  # a placement skipped a surveilled slot: a Misdirection, destroyed on sight
            if district not in (aoi or row) or district == blockade:
                raise _bad(moves, i, f"in round {rnd}: cards go behind the Area of Interest {aoi}, off the Blockade")
            if slot[_LEFT] is None:  # it was surveilled and is moved on: not a Misdirection
                gone[slot[_SURVEIL]][_DROPPED] = True
            slot[_LEFT] = True
            stacks[district].append((rnd, slot[_UP], slot[_CARD]))
        elif kind_i == _POWER:
            if slot_n >= 0:
                if slot_n >= len(slots) or slots[slot_n][_LEFT]:
                    raise _bad(moves, i, f"in round {rnd} names a slot with no planned card")
                slot = slots[slot_n]
            if power in used or not tokens[power] or len(used) == EMPIRE_ACTIONS:
                raise _bad(
                    moves, i, f"in round {rnd} needs a face-up token unused this round (at most {EMPIRE_ACTIONS})"
                )
            tokens[power] = False
            used.append(power)
            if power == BLOCKADE:
                if district not in row:
                    raise _bad(moves, i, f"in round {rnd} names a District out of play")
                blockade = district
                continue
            if power == REROUTE:
                if district not in row:
                    raise _bad(moves, i, f"in round {rnd} names a District out of play")
            elif power == SURVEIL:
                if slot[_UP]:
                    raise _bad(moves, i, f"in round {rnd} surveils a card already face up")
                slot[_UP], slot[_LEFT], slot[_SURVEIL] = True, None, len(gone)
                gone.append([rnd, True, -1, True, False])
                continue
            if slot[_LEFT] is None:  # it was surveilled and is moved on: not a Misdirection
                gone[slot[_SURVEIL]][_DROPPED] = True
            slot[_LEFT] = True
            if power == DESTROY:
                gone.append([rnd, slot[_UP], slot[_CARD], False, False])
            else:
                stacks[district].append((rnd, slot[_UP], slot[_CARD]))
        elif kind_i == _REVEAL:
            revealed = reveals.get(rnd)
            if revealed is None:
                reveals[rnd] = [index]
            else:
                revealed.append(index)
        else:  # the Area of Interest: a District of the row and its right neighbour
            if district not in row or district == row[-1]:
                raise _bad(moves, i, f"in round {rnd} marks no two adjacent Districts of the row {row}")
            aoi = (district, row[row.index(district) + 1])
    at = f"moves (the log's end, {len(moves)} moves)"
    started = 0 < rnd == now
    if now > 0 and rnd not in (now - 1, now):
        raise ValueError(f"{at}: the log shows {rnd} rounds played, but the state is in round {now}")
    opening = step == "target" or (step == "plan" and now == final_round and not state.plan)
    if now > 0 and not started and not opening:
        raise ValueError(f"{at}: round {now} at the {step} step has no move logged")
    if started and kind not in _STEP_KINDS.get(step, ()):
        raise ValueError(f"{at}: round {now}'s last move is of its {_PARTS[kind]}, which the {step} step cannot follow")
    if rnd and (not started or step == "draw" or state.winner == EMPIRE):  # the round's end is behind
        _end_round(slots, tokens, rnd, at)
        slots, used, blockade, aoi = [], [], NO_DISTRICT, ()
    plan = state.plan
    if plan and len(plan) != len(slots):
        raise ValueError(f"{at}: the plan holds {len(plan)} slots, the log shows {len(slots)} planned this round")
    for s, (planned_card, slot) in enumerate(zip(plan, slots, strict=False)):
        if slot[_LEFT] is None:  # surveilled: an empty slot held a Misdirection, destroyed on sight
            slot[_LEFT] = planned_card is None
            gone[slot[_SURVEIL]][_DROPPED] = planned_card is not None
        if (planned_card is None) != slot[_LEFT]:
            raise ValueError(
                f"{at}: plan slot {s + 1} is {planned_card}, the log {'moved' if slot[_LEFT] else 'left'} it"
            )
        if planned_card is not None and (
            planned_card.revealed != slot[_UP] or slot[_CARD] not in (-1, planned_card.card)
        ):
            shown = f"face up as {slot[_CARD]}" if slot[_CARD] >= 0 else "face up" if slot[_UP] else "face down"
            raise ValueError(f"{at}: plan slot {s + 1} holds {planned_card}; the log shows it {shown}")
    _match_table(state, at, stacks, [c for c in gone if not c[_DROPPED]], reveals)
    if tuple(tokens) != state.tokens or tuple(used) != state.used or blockade != state.blockade:
        raise ValueError(
            f"{at}: the log leaves tokens {tuple(tokens)}, powers used {tuple(used)} and Blockade {blockade}, "
            f"not {state.tokens}, {state.used} and {state.blockade}"
        )
    if state.aoi and aoi != state.aoi:
        raise ValueError(f"{at}: the log marks the Area of Interest {aoi}, the table {state.aoi}")
    if len(state.hand) != len(state.draws) - planned:
        raise ValueError(f"{at}: {len(state.draws)} cards drawn, {planned} planned: not {len(state.hand)} in hand")


def _match_table(
    state: UnrestState,
    at: str,
    stacks: list[list[tuple[int, bool, int]]],
    gone: list[list[Any]],
    reveals: dict[int, list[int]],
) -> None:
    """The stacks, the destroyed pile and the liberations' reveals are what the log's moves made them."""
    for d, (cards, logged) in enumerate(zip(state.stacks, stacks, strict=True)):
        if len(cards) != len(logged):
            raise ValueError(f"{at}: District {d} holds {len(cards)} cards, the log placed {len(logged)} there")
        for i, (c, (rnd, up, card)) in enumerate(zip(cards, logged, strict=True)):
            # A card placed face down is face up only once revealed to prove its District; one face up stays so.
            facing = (c.revealed and not c.proved) if up else c.revealed == c.proved
            if c.round != rnd or not facing or card not in (-1, c.card):
                raise ValueError(
                    f"{at}: District {d}'s card {i + 1} is {c}; the log placed a card "
                    f"{'face up' if up else 'face down'}{f' (kind {card})' if card >= 0 else ''} in round {rnd}"
                )
    if len(state.destroyed) != len(gone):
        raise ValueError(f"{at}: {len(state.destroyed)} destroyed cards, the log destroyed {len(gone)}")
    for j, (y, (rnd, up, card, misdirection, _d)) in enumerate(zip(state.destroyed, gone, strict=True)):
        m = y.card == MISDIRECTION
        if y.round != rnd or y.revealed != (up or m) or (misdirection and not m) or card not in (-1, y.card):
            raise ValueError(f"{at}: destroyed card {j + 1} is {y}; the log destroyed it in round {rnd}")
    # A round's liberations go left to right, each proof revealing its cards in stack order.
    frame = state.pending.top
    proving = NO_DISTRICT if frame is None else frame.district
    due: dict[int, list[int]] = {}
    for d in state.laid:
        r = state.freed[d] or (state.pos.round if d == proving else 0)
        if r:
            shown = [i for i, c in enumerate(state.stacks[d]) if c.proved]
            if shown:
                due.setdefault(r, []).extend(shown)
    if due != reveals:
        r = min(r for r in {*due, *reveals} if due.get(r) != reveals.get(r))
        raise ValueError(
            f"{at}: the log reveals stack cards {reveals.get(r, [])} in round {r}'s liberations, "
            f"the stacks {due.get(r, [])}"
        )


def _check_logs(state: UnrestState) -> None:
    """The move log fits the tensor and the setup, and the draw log fits the cards' history."""
    moves = state.moves
    # Every code an int (no bool) in range, checked at C speed.
    if len(moves) > MAX_MOVES or (
        moves and (not _ONLY_INT.issuperset(map(type, moves)) or min(moves) < 0 or max(moves) >= NUM_MOVE_CODES)
    ):
        raise ValueError(f"moves must be at most {MAX_MOVES} public codes in 0..{NUM_MOVE_CODES - 1}")
    if state.pos.round == 0 and moves:
        raise ValueError("no decision is taken during setup, so no move is logged")
    why = draws_fit(state)
    if why is not None:
        raise ValueError(why)
