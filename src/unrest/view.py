"""What each player may know (``observe``), its fixed-size tensors, the table as text and the narration.

The Rebellion sees everything but the deck (whose contents follow from what it sees: the deck is a multiset
with no order to hide). The Empire sees the revealed cards, where every hidden card lies (and when it was
placed), the hand and deck sizes, and nothing else: a hidden card shows as a :class:`HiddenCard` (its
``card`` reads :data:`HIDDEN`). What the Empire can infer about a hidden card (a destroyed card that stayed
hidden is not a Misdirection; see :mod:`unrest.determinization`) follows from the view and the rules.
"""

from __future__ import annotations

from typing import ClassVar

import attrs
import numpy as np

from tabletop_core.tensor import TensorLayout
from unrest.actions import (
    NUM_MOVE_CODES,
    Blockade,
    DealMission,
    Destroy,
    Draw,
    Place,
    Plan,
    Reroute,
    Reveal,
    SetDistrict,
    Surveil,
    Target,
)
from unrest.content import CONTENT
from unrest.limits import MAX_DRAWS, MAX_MOVES, MAX_PILE
from unrest.rules.cards import DECK_SIZE, KINDS, MISDIRECTION, SUITS, card_name, suit_of, value_of
from unrest.state import (
    EMPIRE,
    EMPIRE_ACTIONS,
    FLOW,
    HAND_SIZE,
    LAST_ROUND,
    MISSIONS_DEALT,
    N_DISTRICTS,
    N_MISSIONS,
    N_POWERS,
    PLAN_SIZE,
    POWERS,
    REBELLION,
    Destroyed,
    Planned,
    StackCard,
    UnrestState,
)

__all__ = [
    "HIDDEN",
    "INFORMATION_STATE_SHAPE",
    "OBSERVATION_SHAPE",
    "SeenCard",
    "UnrestInformation",
    "UnrestView",
    "card_words",
    "check_player",
    "describe",
    "describe_step",
    "describe_transition",
    "information_state",
    "information_state_tensor",
    "observation_tensor",
    "observe",
    "render",
    "seat_name",
]

#: The kind shown for a card the viewer cannot see.
HIDDEN = -1


@attrs.frozen
class HiddenCard:
    """A face-down card as the Empire sees it: only when it was placed (or destroyed) and whether it was later
    revealed by a proof (never, while it shows as hidden). Its ``card`` reads :data:`HIDDEN`."""

    card: ClassVar[int] = HIDDEN
    revealed: ClassVar[bool] = False
    proved: ClassVar[bool] = False
    round: int = 0


# One shared marker per round: observing allocates nothing for hidden cards.
_HIDDEN = tuple(HiddenCard(r) for r in range(LAST_ROUND + 1))

#: A card in a stack, as a player sees it.
SeenCard = StackCard | HiddenCard


@attrs.frozen
class UnrestView:
    """One player's knowledge of the table (hashable; hidden facts are absent).

    Attributes mirror :class:`~unrest.state.UnrestState`. The Rebellion's view holds the state's own cards; in
    the Empire's, every face-down card is a :class:`HiddenCard` (when it was placed, nothing more). ``hand``
    is empty for the Empire (``hand_size`` says how many cards the Rebellion holds), ``deck_size`` replaces
    the deck, and the pending proof shows only its District (``proving``, -1 if none), the cards revealed for
    it so far (``chosen``) and, to the Rebellion only, the cards it may reveal next (``may_reveal``).

    The Misdirection implications of what was seen are stated too: ``not_misdirection`` counts the destroyed
    cards that stayed hidden (none of them is a Misdirection, which would have been revealed), and
    ``all_misdirection`` says this round's complete plan held no revealed numbered card, so its hidden cards
    are all Misdirection (possible only in the Final Encounter).
    """

    player: int
    variant: str
    round: int
    phase: str
    step: str
    row: tuple[int, ...]
    missions: tuple[int, ...]
    freed: tuple[int, ...]
    stacks: tuple[tuple[StackCard | HiddenCard, ...], ...]
    hand: tuple[int, ...]
    hand_size: int
    deck_size: int
    tokens: tuple[bool, ...]
    aoi: tuple[int, ...]
    plan: tuple[Planned | HiddenCard | None, ...]
    blockade: int
    used: tuple[int, ...]
    destroyed: tuple[Destroyed | HiddenCard, ...]
    to_draw: int
    final: bool
    proving: int
    chosen: tuple[int, ...]
    may_reveal: tuple[int, ...]
    winner: int
    not_misdirection: int = 0
    all_misdirection: bool = False

    def svg(self, *, width: int = 800) -> str:
        """This view as an SVG picture, ``width`` pixels wide (:func:`unrest.picture.picture`)."""
        from unrest.picture import picture

        return picture(self, width=width)

    def _repr_svg_(self) -> str:
        """The picture, for notebooks (Jupyter shows it inline)."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


def all_misdirection_round(state: UnrestState) -> bool:
    """Whether this round's complete plan held no revealed numbered card: then it was planned from a hand of
    Misdirection only (a numbered card must be planned revealed), and every hidden card of the round is
    one."""
    if state.pos.round == 0 or state.pos.step not in ("defend", "place", "liberate"):
        return False
    r = state.pos.round
    if any(p is not None and p.revealed and p.card != MISDIRECTION for p in state.plan):
        return False
    for stack in state.stacks:
        if any(c.round == r and c.revealed and not c.proved and c.card != MISDIRECTION for c in stack):
            return False
    return not any(x.round == r and x.revealed and x.card != MISDIRECTION for x in state.destroyed)


def _hide_stack(stack: tuple[StackCard, ...]) -> tuple[StackCard | HiddenCard, ...]:
    for c in stack:
        if not c.revealed:
            return tuple(c if c.revealed else _HIDDEN[c.round] for c in stack)
    return stack


def check_player(player: object) -> None:
    """Raise ``ValueError`` unless ``player`` is a seat: 0 (the Rebellion) or 1 (the Empire).

    ``CHANCE`` and ``TERMINAL`` are not seats: a view or determinization for them would hand back the truth.
    """
    if type(player) is not int or player not in (REBELLION, EMPIRE):
        raise ValueError(f"unrest: no player {player!r}: the players are 0 (Rebellion) and 1 (Empire)")


def observe(state: UnrestState, player: int) -> UnrestView:
    """``player``'s view of ``state``.

    Raises:
        ValueError: if ``player`` is not 0 or 1.
    """
    check_player(player)
    full = player == REBELLION
    frame = state.pending.top
    rnd = state.pos.round
    if full:
        stacks: tuple[tuple[StackCard | HiddenCard, ...], ...] = state.stacks
        plan: tuple[Planned | HiddenCard | None, ...] = state.plan
        destroyed: tuple[Destroyed | HiddenCard, ...] = state.destroyed
        hand = state.hand
    else:
        stacks = tuple(_hide_stack(s) for s in state.stacks)
        hidden = _HIDDEN[rnd]
        plan = tuple(p if p is None or p.revealed else hidden for p in state.plan)
        destroyed = tuple(x if x.revealed else _HIDDEN[x.round] for x in state.destroyed)
        hand = ()
    if frame is not None and full:
        k = len(frame.chosen)
        may = tuple(sorted({p[k] for p in frame.proofs}))
    else:
        may = ()
    return UnrestView(
        player=player,
        variant=state.options.variant,
        round=rnd,
        phase=state.pos.phase,
        step=state.pos.step,
        row=state.row,
        missions=state.missions,
        freed=state.freed,
        stacks=stacks,
        hand=hand,
        hand_size=len(state.hand),
        deck_size=sum(state.deck),
        tokens=state.tokens,
        aoi=state.aoi,
        plan=plan,
        blockade=state.blockade,
        used=state.used,
        destroyed=destroyed,
        to_draw=state.to_draw,
        final=state.final,
        proving=frame.district if frame is not None else -1,
        chosen=frame.chosen if frame is not None else (),
        may_reveal=may,
        winner=state.winner,
        not_misdirection=sum(1 for x in state.destroyed if not x.revealed),
        all_misdirection=all_misdirection_round(state),
    )


_STEPS = tuple(s for p in FLOW.phases for s in p.steps)
#: Where a card kind is counted in a piece of :data:`KINDS` + 1 entries: its kind, or the last entry for a hidden card.
_SEEN = KINDS + 1


#: One District's row of the observation tensor.
DISTRICT_LAYOUT = TensorLayout(
    (
        ("in_play", (1,)),
        ("position", (N_DISTRICTS,)),  # one-hot of its place in the row
        ("liberated", (1,)),
        ("area_of_interest", (1,)),
        ("blockaded", (1,)),
        ("proving", (1,)),
        ("cards", (_SEEN,)),  # its stack's cards by kind seen, then the hidden ones
    )
)
#: One plan slot's row of the observation tensor.
SLOT_LAYOUT = TensorLayout((("present", (1,)), ("revealed", (1,)), ("kind", (KINDS,))))
#: The observation tensor, piece by piece (counts as counts; sizes and fractions normalised by their maxima).
OBSERVATION_LAYOUT = TensorLayout(
    (
        ("player", (2,)),
        ("step", (len(_STEPS),)),
        ("round", (1,)),  # round / LAST_ROUND
        ("final", (1,)),
        ("capitol_variant", (1,)),
        ("missions", (N_MISSIONS,)),
        ("tokens", (N_POWERS,)),  # face up
        ("actions_taken", (1,)),  # / EMPIRE_ACTIONS
        ("not_misdirection", (1,)),  # destroyed cards known not Misdirection
        ("all_misdirection", (1,)),
        ("districts", (N_DISTRICTS, DISTRICT_LAYOUT.size)),
        ("plan", (PLAN_SIZE, SLOT_LAYOUT.size)),
        ("hand", (KINDS,)),
        ("hand_size", (1,)),  # / HAND_SIZE
        ("deck_size", (1,)),  # / DECK_SIZE
        ("destroyed", (_SEEN,)),
    )
)
OBSERVATION_SHAPE = OBSERVATION_LAYOUT.shape
_D = DISTRICT_LAYOUT.slices
_IN_PLAY, _POSITION, _LIBERATED = _D["in_play"].start, _D["position"].start, _D["liberated"].start
_AOI, _BLOCKADED, _PROVING, _CARDS = (_D[k].start for k in ("area_of_interest", "blockaded", "proving", "cards"))
_PRESENT, _REVEALED, _KIND = (SLOT_LAYOUT.slices[k].start for k in ("present", "revealed", "kind"))
# Flat offsets of the pieces, read from the layout once: the encoders write straight into a flat buffer (a piece
# view per call costs more than the writes themselves).
_O = {name: piece.start for name, piece in OBSERVATION_LAYOUT.slices.items()}
_O_PLAYER, _O_STEP, _O_ROUND, _O_FINAL, _O_CAPITOL = (
    _O[k] for k in ("player", "step", "round", "final", "capitol_variant")
)
_O_MISSIONS, _O_TOKENS, _O_TAKEN, _O_NOT_M, _O_ALL_M = (
    _O[k] for k in ("missions", "tokens", "actions_taken", "not_misdirection", "all_misdirection")
)
_O_DISTRICTS, _O_PLAN, _O_HAND, _O_HAND_SIZE, _O_DECK_SIZE, _O_DESTROYED = (
    _O[k] for k in ("districts", "plan", "hand", "hand_size", "deck_size", "destroyed")
)
_PER_DISTRICT, _PER_SLOT = DISTRICT_LAYOUT.size, SLOT_LAYOUT.size
_STEP_INDEX = {step: i for i, step in enumerate(_STEPS)}


def observation_tensor(view: UnrestView) -> np.ndarray:
    """Encode a view as a float32 vector of shape :data:`OBSERVATION_SHAPE`, laid out by :data:`OBSERVATION_LAYOUT`
    (per District by :data:`DISTRICT_LAYOUT`, per plan slot by :data:`SLOT_LAYOUT`)."""
    out = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    out[_O_PLAYER + view.player] = 1.0
    out[_O_STEP + _STEP_INDEX[view.step]] = 1.0
    out[_O_ROUND] = view.round / LAST_ROUND
    out[_O_FINAL] = float(view.final)
    out[_O_CAPITOL] = float(view.variant == "capitol")
    for m in view.missions:
        out[_O_MISSIONS + m] = 1.0
    for t, up in enumerate(view.tokens):
        out[_O_TOKENS + t] = float(up)
    out[_O_TAKEN] = len(view.used) / EMPIRE_ACTIONS
    out[_O_NOT_M] = float(view.not_misdirection)
    out[_O_ALL_M] = float(view.all_misdirection)
    row, aoi, freed, stacks = view.row, view.aoi, view.freed, view.stacks
    for d in range(N_DISTRICTS):
        at = _O_DISTRICTS + d * _PER_DISTRICT
        if d in row:
            out[at + _IN_PLAY] = 1.0
            out[at + _POSITION + row.index(d)] = 1.0
        if freed[d] > 0:
            out[at + _LIBERATED] = 1.0
        if d in aoi:
            out[at + _AOI] = 1.0
        if d == view.blockade:
            out[at + _BLOCKADED] = 1.0
        if d == view.proving:
            out[at + _PROVING] = 1.0
        cards = at + _CARDS
        for c in stacks[d]:
            k = c.card
            out[cards + (KINDS if k == HIDDEN else k)] += 1.0
    for s, p in enumerate(view.plan[:PLAN_SIZE]):
        if p is not None:
            at = _O_PLAN + s * _PER_SLOT
            out[at + _PRESENT] = 1.0
            out[at + _REVEALED] = float(p.revealed)
            if p.card != HIDDEN:
                out[at + _KIND + p.card] = 1.0
    for k in view.hand:
        out[_O_HAND + k] += 1.0
    out[_O_HAND_SIZE] = view.hand_size / HAND_SIZE
    out[_O_DECK_SIZE] = view.deck_size / DECK_SIZE
    for x in view.destroyed:
        k = x.card
        out[_O_DESTROYED + (KINDS if k == HIDDEN else k)] += 1.0
    return out


# ----- the information state ------------------------------------------------------------------------------------

#: One stack card, by position, in the information state tensor.
STACK_CARD_LAYOUT = TensorLayout((("kind", (_SEEN,)), ("proved", (1,)), ("round", (LAST_ROUND,))))
#: One destroyed card, in the order destroyed, in the information state tensor.
DESTROYED_LAYOUT = TensorLayout((("kind", (_SEEN,)), ("round", (LAST_ROUND,))))
#: The information state tensor: the observation, the logs as one-hot rows, and what the observation only counts.
INFORMATION_STATE_LAYOUT = TensorLayout(
    (
        ("observation", OBSERVATION_SHAPE),
        ("laid", (N_DISTRICTS, N_DISTRICTS)),  # by position, its District
        ("moves", (MAX_MOVES, NUM_MOVE_CODES)),
        ("draws", (MAX_DRAWS, KINDS)),
        ("dealt", (MISSIONS_DEALT, N_MISSIONS)),
        ("liberated_round", (N_DISTRICTS, LAST_ROUND)),
        ("stacks", (N_DISTRICTS, MAX_PILE, STACK_CARD_LAYOUT.size)),
        ("destroyed", (MAX_PILE, DESTROYED_LAYOUT.size)),
        ("winner", (2,)),
    )
)
INFORMATION_STATE_SHAPE = INFORMATION_STATE_LAYOUT.shape
_PROVED, _CARD_ROUND = STACK_CARD_LAYOUT.slices["proved"].start, STACK_CARD_LAYOUT.slices["round"].start
_GONE_ROUND = DESTROYED_LAYOUT.slices["round"].start
_I = {name: piece.start for name, piece in INFORMATION_STATE_LAYOUT.slices.items()}
_I_OBSERVATION, _I_LAID, _I_MOVES, _I_DRAWS, _I_DEALT = (
    _I[k] for k in ("observation", "laid", "moves", "draws", "dealt")
)
_I_LIBERATED, _I_STACKS, _I_DESTROYED, _I_WINNER = (_I[k] for k in ("liberated_round", "stacks", "destroyed", "winner"))
_PER_CARD, _PER_GONE = STACK_CARD_LAYOUT.size, DESTROYED_LAYOUT.size
_PER_STACK = MAX_PILE * _PER_CARD
_MOVE_ROWS = _I_MOVES + np.arange(MAX_MOVES) * NUM_MOVE_CODES
_DRAW_ROWS = _I_DRAWS + np.arange(MAX_DRAWS) * KINDS


@attrs.frozen
class UnrestInformation:
    """Everything a player has seen and done: its view now, every decision as both players saw it, and (to the
    Rebellion only) every card it drew, in order.

    This is perfect recall. The view keeps whatever was ever shown face up, where every card lies and the round
    it was placed in; ``moves`` adds what the table forgets (each round's Area of Interest and Blockade, which
    slot went where, the order of proof reveals); a hidden plan shows no card in ``moves``, but the Rebellion
    still knows it (the card lies where the later moves took it, and the Rebellion sees it there); ``draws``
    gives the Rebellion the order of its draws. The rest of setup chance is public: the Missions stay in the
    view in the order they were dealt, and ``laid`` keeps the row as it was laid (``row`` forgets where a
    liberated District lay).

    Attributes:
        view: :func:`observe` of the state.
        laid: ``UnrestState.laid``.
        moves: ``UnrestState.moves``.
        draws: ``UnrestState.draws`` for the Rebellion; empty for the Empire.
    """

    view: UnrestView
    laid: tuple[int, ...]
    moves: tuple[int, ...]
    draws: tuple[int, ...]


def information_state(state: UnrestState, player: int) -> UnrestInformation:
    """``player``'s information state of ``state`` (perfect recall; see :class:`UnrestInformation`).

    Raises:
        ValueError: if ``player`` is not 0 or 1.
    """
    view = observe(state, player)
    return UnrestInformation(view, state.laid, state.moves, state.draws if player == REBELLION else ())


def information_state_tensor(info: UnrestInformation) -> np.ndarray:
    """Encode an information state as a float32 vector of shape :data:`INFORMATION_STATE_SHAPE`.

    Layout: the view's :func:`observation_tensor`; the row as laid (for each of the 5 positions, a one-hot of its
    District; all zero before setup lays it); then, for each of the :data:`MAX_MOVES` decisions a game can
    hold, a one-hot of its public code (:data:`~unrest.actions.NUM_MOVE_CODES` wide; all zero once the game has
    had fewer decisions); then, for each of the :data:`MAX_DRAWS` draws, a one-hot of the card kind drawn (all
    zero for the Empire, and past the draws made so far); then what the observation tensor sums up but the
    information state keeps: the Missions in the order they were dealt, the round each
    District was liberated in, every stack card by position and the destroyed cards in order, and the winner.

    Raises:
        ValueError: if the information state holds more moves, draws or cards than a game can (a malformed
            state).
    """
    if len(info.moves) > MAX_MOVES or len(info.draws) > MAX_DRAWS:
        raise ValueError(f"unrest: {len(info.moves)} moves and {len(info.draws)} draws exceed a game's bounds")
    view = info.view
    if len(view.destroyed) > MAX_PILE or any(len(s) > MAX_PILE for s in view.stacks):
        raise ValueError(f"unrest: a stack or the destroyed cards exceed the {MAX_PILE} cards of the deck")
    placed = [c.round for s in view.stacks for c in s] + [x.round for x in view.destroyed]
    if any(not 1 <= r <= LAST_ROUND for r in placed) or any(not 0 <= r <= LAST_ROUND for r in view.freed):
        raise ValueError(f"unrest: a card or liberation dated outside rounds 1..{LAST_ROUND}")
    out = np.zeros(INFORMATION_STATE_SHAPE, dtype=np.float32)
    out[_I_OBSERVATION : _I_OBSERVATION + OBSERVATION_LAYOUT.size] = observation_tensor(view)
    # Every other entry is a one-hot 1.0: the logs by row, the rest gathered as flat indices and set at once.
    if info.moves:
        out[_MOVE_ROWS[: len(info.moves)] + np.asarray(info.moves)] = 1.0
    if info.draws:
        out[_DRAW_ROWS[: len(info.draws)] + np.asarray(info.draws)] = 1.0
    ones = [_I_LAID + i * N_DISTRICTS + d for i, d in enumerate(info.laid)]
    ones += [_I_DEALT + i * N_MISSIONS + m for i, m in enumerate(view.missions[1:])]
    ones += [_I_LIBERATED + d * LAST_ROUND + r - 1 for d, r in enumerate(view.freed) if r]
    for d, stack in enumerate(view.stacks):
        base = _I_STACKS + d * _PER_STACK
        for j, c in enumerate(stack):
            at = base + j * _PER_CARD
            k = c.card
            ones.append(at + (KINDS if k == HIDDEN else k))
            ones.append(at + _CARD_ROUND + c.round - 1)
            if c.proved:
                ones.append(at + _PROVED)
    for j, x in enumerate(view.destroyed):
        at = _I_DESTROYED + j * _PER_GONE
        k = x.card
        ones.append(at + (KINDS if k == HIDDEN else k))
        ones.append(at + _GONE_ROUND + x.round - 1)
    if view.winner >= 0:
        ones.append(_I_WINNER + view.winner)
    out[ones] = 1.0
    return out


# ----- the table as text ----------------------------------------------------------------------------------------

_NAME = tuple(d.name for d in CONTENT.districts)
_SIDE = ("Rebellion", "Empire")


def describe_step(state: UnrestState) -> str:
    """Round, phase and step (and the Final Encounter)."""
    if state.winner >= 0:
        return f"game over ({_SIDE[state.winner]} won)"
    if state.pos.round == 0:
        return f"setup: {state.pos.step}"
    final = " (Final Encounter)" if state.final and state.pos.step != "draw" else ""
    return f"round {state.pos.round}{final}: {state.pos.phase} phase, {state.pos.step} step"


def describe_transition(before: UnrestState, after: UnrestState) -> tuple[str, ...]:
    """Liberations and the end of the game, which the rules bring about inside a step."""
    lines = [
        f"{_NAME[d]} is liberated (round {after.freed[d]})"
        for d in range(N_DISTRICTS)
        if after.freed[d] and not before.freed[d]
    ]
    if after.winner >= 0 and before.winner < 0:
        lines.append(f"the {_SIDE[after.winner]} wins")
    return tuple(lines)


def render(state: UnrestState, player: int | None = None) -> str:
    """The table as text: the row with stacks, the plan, the tokens, the hand, as ``player`` sees it (the whole
    truth, deck included, when ``player`` is ``None``)."""
    view = observe(state, REBELLION if player is None else player)
    lines = [f"Unrest, {describe_step(state)}"]
    missions = ", ".join(CONTENT.missions[m].name for m in view.missions)
    lines.append(f"Missions: {missions}")
    # A game won by a liberation ends inside its round: the round's Area of Interest and Blockade mark nothing.
    aoi, blockade = (view.aoi, view.blockade) if view.winner < 0 else ((), -1)
    for d in view.row:
        marks = "".join([" [AoI]" if d in aoi else "", " [Blockade]" if d == blockade else ""])
        lines.append(f"  {_NAME[d]}{marks}: {_cards(view.stacks[d])}")
    for d in range(N_DISTRICTS):
        if view.freed[d]:
            lines.append(f"  liberated in round {view.freed[d]}: {_NAME[d]}: {_cards(view.stacks[d])}")
    if any(p is not None for p in view.plan):
        plan = ", ".join(
            f"{i + 1}:{_card(p.card, p.revealed)}" if p is not None else f"{i + 1}:-" for i, p in enumerate(view.plan)
        )
        lines.append(f"Plan: {plan}")
    if view.proving >= 0:
        stack = view.stacks[view.proving]
        shown = " ".join(card_name(stack[i].card) for i in view.chosen)
        so_far = f"revealed {shown} so far" if shown else "nothing revealed yet"
        lines.append(f"Proving {_NAME[view.proving]}: {so_far}")
    up = [POWERS[t] for t, face_up in enumerate(view.tokens) if face_up]
    lines.append(f"Empire tokens face up: {', '.join(up) or 'none'}")
    hand = " ".join(card_name(k) for k in view.hand) or "-" if view.player == REBELLION else f"{view.hand_size} cards"
    lines.append(f"Hand: {hand}; deck: {view.deck_size} cards")
    if player is None and view.deck_size:
        lines.append("Deck (unordered): " + " ".join(card_name(k) for k, n in enumerate(state.deck) for _ in range(n)))
    if view.destroyed:
        lines.append(f"Destroyed: {_cards(view.destroyed)}")
    return "\n".join(lines)


def _card(kind: int, revealed: bool) -> str:
    name = "??" if kind == HIDDEN else card_name(kind)
    return name if revealed else f"({name})"


def _cards(cards: tuple[SeenCard, ...] | tuple[Destroyed | HiddenCard, ...]) -> str:
    return " ".join(_card(c.card, c.revealed) for c in cards) or "-"


# ----- the public view (what OpenSpiel's public observers show) -------------------------------------------------


def public_view(state: UnrestState) -> UnrestView:
    """What both players see and know the other sees: the Empire's view, as no seat's (``player`` is -1).

    The Rebellion sees everything the Empire sees, and the Empire learns nothing the Rebellion does not know, so the
    Empire's view is exactly the public information; the Rebellion's hand, its face-down cards and the proofs it may
    reveal are its private information.
    """
    return attrs.evolve(observe(state, EMPIRE), player=-1)


# ----- what each seat learns from a transition ------------------------------------------------------------------

_SEAT = ("the Rebellion", "the Empire")


def seat_name(player: int) -> str:
    """The seat's role: "Rebellion" or "Empire" ("chance" for chance)."""
    return _SIDE[player] if player in (REBELLION, EMPIRE) else "chance"


def card_words(kind: int) -> str:
    """A card in words: ``5 of Supplies``, ``a Misdirection card``."""
    if kind == MISDIRECTION:
        return "a Misdirection card"
    return f"{value_of(kind)} of {SUITS[suit_of(kind)]}"


PUBLIC = -1
"""The spectator's seat in :func:`describe`: it learns what the Empire learns, told in the third person."""


def describe(before: UnrestState, action: object, after: UnrestState, player: int | None = None) -> tuple[str, ...]:
    """What ``player`` learns from ``before --action--> after``, in words (``None``: the whole truth; ``PUBLIC``:
    a spectator).

    The Empire never reads a card it has not seen face up: a hidden plan is "a hidden card", a draw "a card"; the
    Rebellion reads its own cards. A spectator learns exactly what the Empire learns, since the Empire's knowledge
    is the public information (:func:`public_view`). Liberations and the end of the game follow
    (:func:`describe_transition`).
    """
    blind = player in (EMPIRE, PUBLIC)

    def who(seat: int) -> str:
        return "you" if player == seat else _SEAT[seat]

    def sees(kind: int, revealed: bool) -> bool:
        return revealed or not blind

    def card(kind: int, revealed: bool, hidden_words: str) -> str:
        return card_words(kind) if sees(kind, revealed) else hidden_words

    rebels, empire = who(REBELLION), who(EMPIRE)
    lines: list[str] = []
    if isinstance(action, Draw):
        drawn = "a card" if blind else card_words(action.card)
        lines.append(f"{rebels} {'draw' if player == REBELLION else 'draws'} {drawn}")
    elif isinstance(action, SetDistrict):
        lines.append(f"{_NAME[action.district]} is laid in the row")
    elif isinstance(action, DealMission):
        lines.append(f"the Mission {CONTENT.missions[action.mission].name} is dealt")
    elif isinstance(action, Target):
        pair = " and ".join(_NAME[d] for d in after.aoi)
        lines.append(f"{rebels} {'target' if player == REBELLION else 'targets'} {pair}")
    elif isinstance(action, Plan):
        what = card(action.card, not action.hidden, "a hidden card")
        facing = " hidden" if action.hidden and not blind else "" if action.hidden else " face up"
        lines.append(f"{rebels} {'plan' if player == REBELLION else 'plans'} {what}{facing}")
    elif isinstance(action, Surveil | Destroy | Reroute):
        p = before.plan[action.slot]
        assert p is not None
        verb = {Surveil: "surveil", Destroy: "destroy", Reroute: "reroute"}[type(action)]
        verb = verb if player == EMPIRE else verb + "s"
        shown = p.revealed or isinstance(action, Surveil) or (isinstance(action, Destroy) and p.card == MISDIRECTION)
        target = card_words(p.card) if sees(p.card, shown) else f"the hidden card {action.slot + 1}"
        tail = f" to {_NAME[action.district]}" if isinstance(action, Reroute) else ""
        lines.append(f"{empire} {verb} {target}{tail}")
        if isinstance(action, Surveil) and p.card == MISDIRECTION:
            lines.append("the Misdirection card is destroyed")
    elif isinstance(action, Blockade):
        lines.append(f"{empire} {'blockade' if player == EMPIRE else 'blockades'} {_NAME[action.district]}")
    elif isinstance(action, Place):
        p = before.plan[action.slot]
        assert p is not None
        what = card(p.card, p.revealed, "a hidden card")
        lines.append(f"{rebels} {'place' if player == REBELLION else 'places'} {what} in {_NAME[action.district]}")
    elif isinstance(action, Reveal):
        frame = before.pending.top
        assert frame is not None
        kind = before.stacks[frame.district][action.index].card
        verb = "reveal" if player == REBELLION else "reveals"
        lines.append(f"{rebels} {verb} {card_words(kind)} in {_NAME[frame.district]} to prove a Mission")
    return (*lines, *describe_transition(before, after))
