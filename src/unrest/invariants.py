"""What a valid state of Unrest is: checked when a state is loaded and by the conformance run.

:func:`validate_state` runs the checks below in order and raises ``ValueError`` naming the first broken one.
Setup's own rules decide which rows are possible (:data:`unrest.setup.ROWS`), and the determinizer's
reasoning which draw logs are (:func:`unrest.determinization.draws_fit`), so neither is written twice.
"""

from __future__ import annotations

from unrest.actions import NUM_MOVE_CODES
from unrest.determinization import draws_fit
from unrest.rules.cards import KINDS, MISDIRECTION
from unrest.setup import ROWS, deck_for
from unrest.state import (
    EMPIRE,
    FLOW,
    LAST_ROUND,
    MISSIONS_DEALT,
    N_DISTRICTS,
    N_MISSIONS,
    N_POWERS,
    PLAN_SIZE,
    REBELLION,
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
    _check_logs(state)


def _check_rounds(state: UnrestState) -> None:
    FLOW.at(state.pos.phase, state.pos.step)
    now = state.pos.round
    if not 0 <= now <= LAST_ROUND:
        raise ValueError(f"round {now} is outside the game's rounds 0..{LAST_ROUND}")
    placed = [c.round for s in state.stacks for c in s] + [x.round for x in state.destroyed]
    if any(not 1 <= r <= now for r in placed):
        raise ValueError(f"a card was placed or destroyed in a round outside 1..{now} (the current round)")


def _check_sizes(state: UnrestState) -> None:
    if len(state.deck) != KINDS or any(n < 0 for n in state.deck):
        raise ValueError(f"deck must give a non-negative count for each of the {KINDS} card kinds")
    if len(state.stacks) != N_DISTRICTS or len(state.freed) != N_DISTRICTS or len(state.tokens) != N_POWERS:
        raise ValueError(f"stacks and freed need {N_DISTRICTS} entries, tokens {N_POWERS}")
    if list(state.hand) != sorted(state.hand):
        raise ValueError("hand must be sorted")


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
    """The Area of Interest, the used tokens, the plan and the pending proof fit the step."""
    step = state.pos.step
    for d in state.aoi if step not in ("liberate", "draw") else ():
        if d not in state.row:
            raise ValueError("the Area of Interest marks Districts in play")
    if any(state.tokens[p] for p in state.used) or len(set(state.used)) != len(state.used):
        raise ValueError("powers used this round are distinct and face down")
    planned = any(p is not None for p in state.plan)
    if len(state.plan) > PLAN_SIZE or (planned and step not in ("plan", "defend", "place")):
        raise ValueError(f"at most {PLAN_SIZE} planned cards, only between planning and placement")
    if step == "place" and state.winner < 0 and not planned:
        raise ValueError("the placement step needs a planned card left to place")
    if (state.pending.top is not None) != (step == "liberate" and state.winner < 0):
        raise ValueError("a pending proof exists exactly at an undecided liberation step")


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
