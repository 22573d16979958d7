"""The state of a game of Unrest: the whole truth, as immutable values.

Player 0 is the Rebellion, player 1 the Empire. Districts are numbered by their token (see
:mod:`unrest.content`); ``row`` lists the Districts still in play from left to right, and ``stacks[d]`` is
District ``d``'s stack, kept (with its facings) after ``d`` is liberated. The deck is a multiset (copies per
card kind): a draw is a chance node over the remaining cards, so there is no deck order to hide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeAlias

import attrs

from tabletop_core.fastcopy import accelerate, replacer
from tabletop_core.flow import Flow, FrameRegistry, Pending, Phase, Position
from unrest.content import CONTENT
from unrest.rules.cards import DECK_SIZE, KINDS, CardKind

if TYPE_CHECKING:
    # The frames live with the rules they run, each registered in FRAMES; ``unrest.rules.flow`` binds the pending
    # stack's annotation to the registry's pending kinds once the driver has frozen it.
    from unrest.rules.flow import Frame

__all__ = [
    "BLOCKADE",
    "CAPITOL",
    "DESTROY",
    "DRAW_SIZE",
    "EMPIRE",
    "EMPIRE_ACTIONS",
    "FLOW",
    "FRAMES",
    "HAND_SIZE",
    "LAST_ROUND",
    "MISSIONS_DEALT",
    "NO_DISTRICT",
    "N_DISTRICTS",
    "N_MISSIONS",
    "N_POWERS",
    "PLAN_SIZE",
    "POSITIONS",
    "POWERS",
    "REBELLION",
    "REROUTE",
    "SURVEIL",
    "WIN_LIBERATED",
    "Destroyed",
    "District",
    "MissionId",
    "Planned",
    "Player",
    "Power",
    "Round",
    "Slot",
    "StackCard",
    "UnrestOptions",
    "UnrestState",
    "next_phase",
    "next_step",
    "position",
]

#: A seat: :data:`REBELLION` (0) or :data:`EMPIRE` (1).
Player: TypeAlias = int
#: A District token's id: its index in the content pack (``CONTENT.districts``).
District: TypeAlias = int
#: A Mission card's id: its index in the content pack (``CONTENT.missions``; 0 is the Revolution).
MissionId: TypeAlias = int
#: An Empire Power token: :data:`SURVEIL`, :data:`DESTROY`, :data:`REROUTE` or :data:`BLOCKADE`.
Power: TypeAlias = int
#: A plan slot, 0 to :data:`PLAN_SIZE` - 1, in the order the Rebellion planned its cards.
Slot: TypeAlias = int
#: A round number: 0 is the setup, 1 to :data:`LAST_ROUND` the game's rounds.
Round: TypeAlias = int

REBELLION, EMPIRE = 0, 1
#: The Capitol's District id.
CAPITOL: District = 2
NO_DISTRICT: District = -1
SURVEIL, DESTROY, REROUTE, BLOCKADE = 0, 1, 2, 3
#: The Empire Power tokens, indexed by power.
POWERS = ("Surveil", "Destroy", "Reroute", "Blockade")
VARIANTS = ("standard", "capitol")

# ----- the rulebook's numbers, each defined once ------------------------------------------------------------------

#: District tokens in the pack ("5 District tokens").
N_DISTRICTS = len(CONTENT.districts)
#: Mission cards in the pack (the Revolution and the 8 the reference names).
N_MISSIONS = len(CONTENT.missions)
#: Empire Power tokens ("4 Empire Power tokens").
N_POWERS = len(POWERS)
#: "The Rebellion draws 5 cards from this deck for their starting hand".
HAND_SIZE = 5
#: "randomly deal three of them" (beneath the Revolution).
MISSIONS_DEALT = 3
#: "selects three cards from their hand": the plan's slots.
PLAN_SIZE = 3
#: "The Empire will now take two actions".
EMPIRE_ACTIONS = 2
#: "The Rebellion draws three cards from the Rebel deck" at the end of a round.
DRAW_SIZE = 3
#: "complete Missions in 3 or more Districts"; the Empire wins holding as many.
WIN_LIBERATED = 3
#: The last round, the Final Encounter: the opening hand leaves ``DECK_SIZE - HAND_SIZE`` cards, drawn 3 a round;
#: the round whose end finds fewer than 3 left draws the rest, and the next is the last (24 cards: round 8).
LAST_ROUND: Round = (DECK_SIZE - HAND_SIZE) // DRAW_SIZE + 2

#: The turn structure as data: round 0 is the setup; every later round runs the four round phases.
FLOW = Flow(
    (
        Phase("setup", ("districts", "hand", "missions")),
        Phase("rebellion", ("target", "plan")),
        Phase("empire", ("defend",)),
        Phase("execute", ("place",)),
        Phase("end", ("liberate", "draw")),
    )
)
#: Every kind of frame of the game, each registered where it is defined and frozen by the driver
#: (:data:`unrest.rules.flow.DRIVER`); only the liberation proof may be pending.
FRAMES: FrameRegistry[UnrestState] = FrameRegistry("unrest")


#: Every position of :data:`FLOW` a game can reach (rounds 0 to :data:`LAST_ROUND`), one shared instance each.
#: Positions are values: the rules hand out these instead of building a new one at every step change.
POSITIONS: dict[tuple[Round, str], Position] = {
    (r, step): Position(r, phase, step) for r in range(LAST_ROUND + 1) for phase, step in FLOW.steps()
}
#: By ``(round, step)``, the position after it in :data:`FLOW` (``FLOW.next``) and the first of the next phase.
_NEXT: dict[tuple[Round, str], Position] = {
    key: POSITIONS.get((n.round, n.step), n) for key, pos in POSITIONS.items() for n in (FLOW.next(pos),)
}
_NEXT_PHASE: dict[tuple[Round, str], Position] = {
    key: POSITIONS.get((n.round, n.step), n) for key, pos in POSITIONS.items() for n in (FLOW.next_phase(pos),)
}


def position(round_: Round, step: str) -> Position:
    """The position of ``step`` (a step name of :data:`FLOW`, each unique) in round ``round_``: ``FLOW.at``."""
    pos = POSITIONS.get((round_, step))
    if pos is None:
        phase = next(p.name for p in FLOW.phases if step in p.steps)
        return FLOW.at(phase, step, round_)
    return pos


def next_step(pos: Position) -> Position:
    """The step after ``pos`` in :data:`FLOW` (``FLOW.next``), from a table."""
    nxt = _NEXT.get((pos.round, pos.step))
    return FLOW.next(pos) if nxt is None else nxt


def next_phase(pos: Position) -> Position:
    """The first step of the phase after ``pos``'s (``FLOW.next_phase``), from a table."""
    nxt = _NEXT_PHASE.get((pos.round, pos.step))
    return FLOW.next_phase(pos) if nxt is None else nxt


def _kind(_inst: object, attr: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value < KINDS:
        raise ValueError(f"{attr.name} must be a card kind 0..{KINDS - 1}, not {value!r}")


def _research(inst: UnrestOptions, _attr: attrs.Attribute[bool], value: bool) -> None:
    if type(value) is not bool:
        raise ValueError(f"research must be true or false, not {value!r}")
    if value and inst.variant != "capitol":
        raise ValueError(
            "the research game is a Capitol game (the Capitol's liberation is its only win): give variant='capitol'"
        )


@attrs.frozen
class UnrestOptions:
    """Options of a game of Unrest (the research game's deck: :data:`unrest.setup.RESEARCH_DECK`).

    Attributes:
        variant: which game: standard, or capitol for the Capitol variant (the Capitol in the centre; liberating
            it wins at once; its Revolution needs 25).
        research: a small game for study, not the published game (only with variant=capitol): the Districts laid
            and the Missions dealt in a fixed order, a Rebel deck of four cards, an opening hand of three, the
            Empire's Surveil and Destroy face up, and the first round the Final Encounter (the deck holds fewer than
            three cards), so the game is one round.
    """

    TAG: ClassVar[str] = "unrest.options"
    variant: str = attrs.field(default="standard", validator=attrs.validators.in_(VARIANTS))
    research: bool = attrs.field(default=False, validator=_research)


@attrs.frozen
class StackCard:
    """A Rebel card in a District's stack.

    Attributes:
        card: the card kind.
        revealed: face up.
        round: the round it was placed in the District (by the Rebellion or by a Reroute).
        proved: turned face up by the Rebellion to prove a Mission when the District was liberated.
    """

    TAG: ClassVar[str] = "unrest.stack_card"
    card: CardKind = attrs.field(validator=_kind)
    revealed: bool
    round: Round
    proved: bool = False


@accelerate
@attrs.frozen
class Planned:
    """A card planned this round behind the Area of Interest token, hidden or revealed."""

    TAG: ClassVar[str] = "unrest.planned"
    card: CardKind = attrs.field(validator=_kind)
    revealed: bool


@accelerate
@attrs.frozen
class Destroyed:
    """A destroyed card beside the play area, keeping its facing (a destroyed Misdirection is revealed)."""

    TAG: ClassVar[str] = "unrest.destroyed"
    card: CardKind = attrs.field(validator=_kind)
    revealed: bool
    round: Round


@accelerate
@attrs.frozen
class UnrestState:
    """The whole truth of a game of Unrest.

    Attributes:
        options: the game's options.
        pos: where play stands in :data:`FLOW` (round 0 is the setup).
        row: Districts in play, left to right (adjacent entries are adjacent Districts).
        missions: Mission ids on the table, Revolution first.
        deck: copies of each card kind left in the Rebel deck.
        hand: the Rebellion's hand, sorted card kinds.
        stacks: each District's stack (by District id), bottom first.
        freed: by District id, the round it was liberated in, or 0.
        tokens: by power, whether that Empire Power token is face up.
        aoi: the two Districts under the Area of Interest token (empty in the Final Encounter and between
            rounds).
        plan: this round's planned cards by slot; ``None`` once a card has left the plan.
        blockade: the blockaded District this round, or -1.
        used: the powers the Empire has used this round, in order.
        destroyed: destroyed cards, in the order they were destroyed.
        to_draw: cards still to draw in the current draw step.
        final: whether the Final Encounter is triggered (set when the Rebellion draws the last cards: the
            round after that draw, and only it, is the Final Encounter).
        pending: pending liberation proofs (:class:`unrest.rules.liberation.Proof` frames).
        winner: the winning player once the game is over, else -1.
        moves: every decision so far as both players saw it, in order (:func:`unrest.actions.public_code`: the
            decision id, a hidden plan's card masked); what the players remember of the game beyond the table.
        draws: every card kind the Rebellion has drawn, in order (5 for the opening hand, then up to 3 at each
            round's end); only the Rebellion saw them.
        laid: the District row as it was laid at setup, left to right (``row`` loses liberated Districts; both
            players saw where they lay).
    """

    TAG: ClassVar[str] = "unrest.state"
    options: UnrestOptions
    pos: Position
    row: tuple[District, ...]
    missions: tuple[MissionId, ...]
    deck: tuple[int, ...]
    hand: tuple[CardKind, ...]
    stacks: tuple[tuple[StackCard, ...], ...]
    freed: tuple[Round, ...]
    tokens: tuple[bool, ...]
    aoi: tuple[District, ...] = ()
    plan: tuple[Planned | None, ...] = ()
    blockade: District = NO_DISTRICT
    used: tuple[Power, ...] = ()
    destroyed: tuple[Destroyed, ...] = ()
    to_draw: int = 0
    final: bool = False
    pending: Pending[Frame] = attrs.field(factory=Pending)
    winner: Player = -1
    moves: tuple[int, ...] = ()
    draws: tuple[CardKind, ...] = ()
    laid: tuple[District, ...] = ()

    def logged(self, code: int) -> UnrestState:
        """This state with ``code`` appended to ``moves`` (one copy per decision, by the core's fast copy)."""
        return _logged(self, (*self.moves, code))

    @property
    def round(self) -> int:
        """The current round (0 during setup)."""
        return self.pos.round

    @property
    def step(self) -> str:
        """The current step name of :data:`FLOW`."""
        return self.pos.step

    @property
    def deck_size(self) -> int:
        """Cards left in the Rebel deck."""
        return sum(self.deck)

    @property
    def liberated(self) -> tuple[District, ...]:
        """The liberated Districts, by District id."""
        return tuple(d for d, r in enumerate(self.freed) if r)

    def svg(self, *, reveal: bool = False, width: int = 800) -> str:
        """The table as an SVG picture: the public view (what both players see); with ``reveal``, the whole truth.

        The picture says which it is.
        """
        from unrest import picture

        return picture.truth(self, width=width) if reveal else picture.public(self, width=width)

    def _repr_svg_(self) -> str:
        """The public picture, for notebooks."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


_logged = replacer(UnrestState, "moves")
