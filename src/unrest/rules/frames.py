"""How Unrest applies a decision: the decision is logged as both players saw it.

Every decision frame of Unrest (the round's steps in :mod:`unrest.rules.round`, the liberation proof in
:mod:`unrest.rules.liberation`) is a core :class:`~tabletop_core.flow.Decision` registered in
:data:`unrest.state.FRAMES`: it names its ``seat`` and implements ``act(state, action, moves)``, the rule the
decision runs. The registry's decision hook, :func:`logged` (each decision kind's ``apply``), hands the rule the move
log with the decision's public code appended (the information state, :func:`unrest.actions.public_code`), which the
rule stores in the one copy of the state it makes.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

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
from unrest.state import FRAMES, UnrestState

__all__ = ["Logged", "logged"]

A = TypeVar("A", bound=Act)
A_contra = TypeVar("A_contra", bound=Act, contravariant=True)

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


class Logged(Protocol[A_contra]):
    """A decision frame of Unrest, as :func:`logged` applies it."""

    def act(self, state: UnrestState, action: A_contra, moves: tuple[int, ...], /) -> UnrestState:
        """The state after the rule of ``action``, its ``moves`` set to ``moves`` (the driver then runs what follows
        by itself).

        The log rides in the rule's own copy of the state: a decision makes one copy, not two (the step path copies
        the whole state at every copy; see ``docs/performance.md``).
        """
        ...


@FRAMES.on_decision
def logged(frame: Logged[A], state: UnrestState, action: A) -> UnrestState:
    """Every decision of the game (its kind's ``apply``): run the rule, logging the decision as both players saw it."""
    code = _CODES.get(id(action))
    return frame.act(state, action, (*state.moves, public_code(action) if code is None else code))
