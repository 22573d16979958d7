"""What a valid state of Unrest is: checked when a state is loaded and by the conformance run.

:func:`validate_state` runs the checks below in order and raises ``ValueError`` naming the first broken one.
Setup's own rules decide which rows are possible (:data:`unrest.setup.ROWS`), and the determinizer's
reasoning which draw logs are (:func:`unrest.determinization.draws_fit`), so neither is written twice.
"""

from __future__ import annotations

import attrs

from unrest import setup
from unrest.actions import DECISIONS, NUM_MOVE_CODES, PLAN_HIDDEN, Plan, Surveil
from unrest.determinization import consistent, draws_fit
from unrest.rules.cards import DECK_SIZE, KINDS, MISDIRECTION
from unrest.rules.liberation import met_missions, minimal_proofs, missions_for, outside
from unrest.setup import ROWS, deck_for
from unrest.state import (
    CAPITOL,
    DRAW_SIZE,
    EMPIRE,
    EMPIRE_ACTIONS,
    FLOW,
    HAND_SIZE,
    LAST_ROUND,
    MISSIONS_DEALT,
    N_DISTRICTS,
    N_MISSIONS,
    N_POWERS,
    NO_DISTRICT,
    PLAN_SIZE,
    REBELLION,
    WIN_LIBERATED,
    UnrestState,
)
from unrest.view import MAX_MOVES

__all__ = ["validate_state"]


def validate_state(state: UnrestState) -> None:
    """Check the invariants of a (deserialized) state: the flow position and rounds, card conservation, the row,
    the Missions, the round's parts, the pending proof and the logs.

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
    if state.moves:
        _check_history(state)


def _final_round(state: UnrestState) -> int:
    """The round that is the Final Encounter: the last, or the research game's only round."""
    return 1 if state.options.research else LAST_ROUND


def _check_history(state: UnrestState) -> None:
    """What a played game's history fixes: the cards drawn by this round, the Final Encounter, the Area of
    Interest and the whole plan from targeting to the liberation, the plan's facings as the log shows them, and
    the liberation checks of earlier rounds (what the determinizer infers from the table holds of the truth).

    A position with no logged decision is a set-up position (the tests and analyses lay such tables by hand);
    it is held to every other invariant but not to these.
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
    _check_plan_log(state)
    if consistent(state, state) is None:
        # The determinizer's inferences from the table (a District meeting a Mission is liberated at the round's
        # end, left to right) must hold of the truth itself, or no deal of the hidden cards could explain it.
        raise ValueError("the stacks and Missions contradict the liberation checks of earlier rounds")


def _check_rounds(state: UnrestState) -> None:
    FLOW.at(state.pos.phase, state.pos.step)
    now = state.pos.round
    if not 0 <= now <= LAST_ROUND:
        raise ValueError(f"round {now} is outside the game's rounds 0..{LAST_ROUND}")
    placed = [c.round for s in state.stacks for c in s] + [x.round for x in state.destroyed]
    if any(not 1 <= r <= now for r in placed):
        raise ValueError(f"a card was placed or destroyed in a round outside 1..{now} (the current round)")


def _check_sizes(state: UnrestState) -> None:
    if len(state.deck) != KINDS or any(not 0 <= n <= DECK_SIZE for n in state.deck):
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
    pairs = {state.row[i : i + 2] for i in range(len(state.row) - 1)}
    if state.aoi and step != "liberate" and state.aoi not in pairs:
        raise ValueError(f"the Area of Interest {state.aoi} must mark two adjacent Districts of the row {state.row}")
    blockading = step in ("defend", "place", "liberate")
    if state.blockade != NO_DISTRICT and (not blockading or state.blockade not in range(N_DISTRICTS)):
        raise ValueError(f"a Blockade on {state.blockade} at {step}: only a District, from defence to liberation")
    if state.blockade not in (NO_DISTRICT, *state.row) and step != "liberate":
        raise ValueError(f"the Blockade {state.blockade} is on a District out of play")
    most = {"defend": EMPIRE_ACTIONS - 1, "place": EMPIRE_ACTIONS, "liberate": EMPIRE_ACTIONS}.get(step, 0)
    if len(state.used) > most or any(not 0 <= p < N_POWERS for p in state.used):
        raise ValueError(f"powers used {state.used}: at most {most} of the {N_POWERS} powers at the {step} step")
    drawing = step in ("hand", "draw") and state.winner < 0
    if not 0 <= state.to_draw <= min(state.deck_size, DRAW_SIZE if step == "draw" else HAND_SIZE):
        raise ValueError(f"{state.to_draw} cards to draw with {state.deck_size} in the deck")
    if (state.to_draw > 0) != (step == "draw" and drawing) and now != 0:
        raise ValueError(f"{state.to_draw} cards to draw at the {step} step (cards are drawn at the draw step only)")
    if any(state.tokens[p] for p in state.used) or len(set(state.used)) != len(state.used):
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
    frame = state.pending.top
    for x, stack in enumerate(state.stacks):
        if not state.freed[x] and (frame is None or frame.district != x) and any(c.proved for c in stack):
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
    # The proofs were found before the chosen cards were revealed (a proof reveals hidden cards only).
    before = tuple(attrs.evolve(c, revealed=False, proved=False) if c.proved else c for c in stack)
    k = len(chosen)
    open_ = tuple(p for p in minimal_proofs(before, missions_for(state, d), outside(state, d)) if p[:k] == chosen)
    if frame.proofs != open_ or not open_ or chosen in open_:
        raise ValueError(f"proof of District {d}: the open proofs must be {open_}, the minimal ones extending {chosen}")


def _check_plan_log(state: UnrestState) -> None:
    """The planned cards' facings are what the log says: face up when planned face up (the log shows the card)
    or surveilled since; a card planned face up is the one the log names."""
    if not state.plan:
        return
    moves = state.moves
    end = len(moves)
    while end and moves[end - 1] != PLAN_HIDDEN and not isinstance(DECISIONS[moves[end - 1]], Plan):
        end -= 1
    start = end
    while start and (moves[start - 1] == PLAN_HIDDEN or isinstance(DECISIONS[moves[start - 1]], Plan)):
        start -= 1
    plans = moves[max(start, end - len(state.plan)) : end]
    if len(plans) != len(state.plan):
        raise ValueError(f"the plan holds {len(state.plan)} cards but the log shows {len(plans)} planned this round")
    watched = {a.slot for a in (DECISIONS[m] for m in moves[end:] if m != PLAN_HIDDEN) if isinstance(a, Surveil)}
    for slot, (card, code) in enumerate(zip(state.plan, plans, strict=True)):
        if card is None:
            continue
        shown = DECISIONS[code] if code != PLAN_HIDDEN else None
        if shown is not None and (not card.revealed or Plan(card.card, hidden=False) != shown):
            raise ValueError(f"plan slot {slot}: the log shows {shown} planned face up, the plan holds {card}")
        if shown is None and card.revealed != (slot in watched):
            raise ValueError(f"plan slot {slot}: a card planned face down is face up exactly once surveilled")


def _check_logs(state: UnrestState) -> None:
    """The move log fits the tensor and the setup, and the draw log fits the cards' history."""
    moves = state.moves
    if len(moves) > MAX_MOVES or any(type(m) is not int or not 0 <= m < NUM_MOVE_CODES for m in moves):
        raise ValueError(f"moves must be at most {MAX_MOVES} public codes in 0..{NUM_MOVE_CODES - 1}")
    if state.pos.round == 0 and moves:
        raise ValueError("no decision is taken during setup, so no move is logged")
    why = draws_fit(state)
    if why is not None:
        raise ValueError(why)
