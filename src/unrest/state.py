"""The state of a game of Unrest: the whole truth, as immutable values.

Player 0 is the Rebellion, player 1 the Empire. Districts are numbered by their token (see
:mod:`unrest.content`); ``row`` lists the Districts still in play from left to right, and ``stacks[d]`` is
District ``d``'s stack, kept (with its facings) after ``d`` is liberated. The deck is a multiset (copies per
card kind): a draw is a chance node over the remaining cards, so there is no deck order to hide.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from tabletop_core.flow import Flow, Pending, Phase, Position
from unrest.rules.cards import KINDS

__all__ = [
    "BLOCKADE",
    "CAPITOL",
    "DESTROY",
    "EMPIRE",
    "FLOW",
    "NO_DISTRICT",
    "POWERS",
    "REBELLION",
    "REROUTE",
    "SURVEIL",
    "Destroyed",
    "Planned",
    "Proof",
    "StackCard",
    "UnrestOptions",
    "UnrestState",
]

REBELLION, EMPIRE = 0, 1
#: The Capitol's District id.
CAPITOL = 2
NO_DISTRICT = -1
SURVEIL, DESTROY, REROUTE, BLOCKADE = 0, 1, 2, 3
#: The Empire Power tokens, indexed by power.
POWERS = ("Surveil", "Destroy", "Reroute", "Blockade")
VARIANTS = ("standard", "capitol")

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


def _kind(_inst: object, attr: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or not 0 <= value < KINDS:
        raise ValueError(f"{attr.name} must be a card kind 0..{KINDS - 1}, not {value!r}")


@attrs.frozen
class UnrestOptions:
    """Options of a game of Unrest.

    Attributes:
        variant: ``"standard"``, or ``"capitol"`` for the Capitol variant (the Capitol in the centre;
        liberating
            it wins at once; its Revolution needs 25).
    """

    TAG: ClassVar[str] = "unrest.options"
    variant: str = attrs.field(default="standard", validator=attrs.validators.in_(VARIANTS))


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
    card: int = attrs.field(validator=_kind)
    revealed: bool
    round: int
    proved: bool = False


@attrs.frozen
class Planned:
    """A card planned this round behind the Area of Interest token, hidden or revealed."""

    TAG: ClassVar[str] = "unrest.planned"
    card: int = attrs.field(validator=_kind)
    revealed: bool


@attrs.frozen
class Destroyed:
    """A destroyed card beside the play area, keeping its facing (a destroyed Misdirection is revealed)."""

    TAG: ClassVar[str] = "unrest.destroyed"
    card: int = attrs.field(validator=_kind)
    revealed: bool
    round: int


@attrs.frozen
class Proof:
    """A pending liberation proof (a :class:`~tabletop_core.flow.Pending` frame).

    Attributes:
        district: the District being liberated.
        chosen: stack indices the Rebellion has revealed for this proof so far (ascending).
        proofs: every minimal proof still open, as ascending stack indices, each extending ``chosen``.
    """

    TAG: ClassVar[str] = "unrest.proof"
    district: int
    chosen: tuple[int, ...]
    proofs: tuple[tuple[int, ...], ...]


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
        pending: pending liberation proofs.
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
    row: tuple[int, ...]
    missions: tuple[int, ...]
    deck: tuple[int, ...]
    hand: tuple[int, ...]
    stacks: tuple[tuple[StackCard, ...], ...]
    freed: tuple[int, ...]
    tokens: tuple[bool, ...]
    aoi: tuple[int, ...] = ()
    plan: tuple[Planned | None, ...] = ()
    blockade: int = NO_DISTRICT
    used: tuple[int, ...] = ()
    destroyed: tuple[Destroyed, ...] = ()
    to_draw: int = 0
    final: bool = False
    pending: Pending[Proof] = attrs.field(factory=Pending)
    winner: int = -1
    moves: tuple[int, ...] = ()
    draws: tuple[int, ...] = ()
    laid: tuple[int, ...] = ()

    def logged(self, code: int) -> UnrestState:
        """This state with ``code`` appended to ``moves``: one copy per decision, so written out rather than
        ``attrs.evolve``d (its fields have no validators to run)."""
        return UnrestState(
            self.options,
            self.pos,
            self.row,
            self.missions,
            self.deck,
            self.hand,
            self.stacks,
            self.freed,
            self.tokens,
            self.aoi,
            self.plan,
            self.blockade,
            self.used,
            self.destroyed,
            self.to_draw,
            self.final,
            self.pending,
            self.winner,
            (*self.moves, code),
            self.draws,
            self.laid,
        )

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
    def liberated(self) -> tuple[int, ...]:
        """The liberated Districts, by District id."""
        return tuple(d for d, r in enumerate(self.freed) if r)
