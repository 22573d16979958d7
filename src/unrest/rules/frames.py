"""The base of Unrest's decision frames: a seat decides, and the decision is logged as both players saw it.

Every decision frame of Unrest (the round's steps in :mod:`unrest.rules.round`, the liberation proof in
:mod:`unrest.rules.liberation`) derives from :class:`Choice`: it names its seat and implements :meth:`Choice.act`,
the rule the decision runs; :meth:`Choice.apply` hands the rule the move log with the decision's public code
appended (the information state, :func:`unrest.actions.public_code`), which the rule stores in the one copy of the
state it makes.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from tabletop_core.flow import Decision
from unrest.actions import (
    BLOCKADES,
    DESTROYS,
    PLACES,
    PLANS,
    REROUTES,
    REVEALS,
    SURVEILS,
    TARGETS,
    public_code,
)
from unrest.actions import Decision as Act
from unrest.state import REBELLION, Player, UnrestState

__all__ = ["Choice"]

A = TypeVar("A", bound=Act)

#: The public code of every decision value the rules hand out (``legal_actions`` returns these shared instances),
#: by identity: a decision's code without hashing it. The values are module constants, so their ids are never
#: reused; any other instance (built by a caller) is coded by :func:`public_code`.
_HANDED_OUT: tuple[Act, ...] = (
    *TARGETS,
    *(p for pair in PLANS for p in pair),
    *SURVEILS,
    *DESTROYS,
    *(r for row in REROUTES for r in row),
    *BLOCKADES,
    *(p for row in PLACES for p in row),
    *REVEALS,
)
_CODES: dict[int, int] = {id(a): public_code(a) for a in _HANDED_OUT}


class Choice(Decision[UnrestState, A]):
    """A decision of :attr:`seat`: :meth:`act` runs its rule, :meth:`apply` also logs it."""

    __slots__ = ()

    #: The seat that decides here (the Rebellion unless a frame says otherwise).
    seat: ClassVar[Player] = REBELLION

    def actor(self, state: UnrestState) -> int:
        """The frame's seat."""
        return self.seat

    def act(self, state: UnrestState, action: A, moves: tuple[int, ...]) -> UnrestState:
        """The state after the rule of ``action``, its ``moves`` set to ``moves`` (the driver then runs what follows
        by itself).

        The log rides in the rule's own copy of the state: a decision makes one copy, not two (the step path copies
        the whole state at every copy; see ``docs/performance.md``).
        """
        raise NotImplementedError(f"{type(self).__name__} must apply its decisions")

    def apply(self, state: UnrestState, action: A) -> UnrestState:
        """Run the rule, logging the decision as both players saw it."""
        code = _CODES.get(id(action))
        return self.act(state, action, (*state.moves, public_code(action) if code is None else code))
