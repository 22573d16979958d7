"""The base of Unrest's decision frames: a seat decides, and the decision is logged as both players saw it.

Every decision frame of Unrest (the round's steps in :mod:`unrest.rules.round`, the liberation proof in
:mod:`unrest.rules.liberation`) derives from :class:`Choice`: it names its seat and implements :meth:`Choice.act`,
the rule the decision runs; :meth:`Choice.apply` appends the decision's public code to the move log (the
information state, :func:`unrest.actions.public_code`) after the rule.
"""

from __future__ import annotations

from typing import ClassVar, TypeVar

from tabletop_core.flow import Decision
from unrest.actions import Decision as Act
from unrest.actions import public_code
from unrest.state import REBELLION, Player, UnrestState

__all__ = ["Choice"]

A = TypeVar("A", bound=Act)


class Choice(Decision[UnrestState, A]):
    """A decision of :attr:`seat`: :meth:`act` runs its rule, :meth:`apply` also logs it."""

    __slots__ = ()

    #: The seat that decides here (the Rebellion unless a frame says otherwise).
    seat: ClassVar[Player] = REBELLION

    def actor(self, state: UnrestState) -> int:
        """The frame's seat."""
        return self.seat

    def act(self, state: UnrestState, action: A) -> UnrestState:
        """The state after the rule of ``action`` (the driver then runs what follows by itself)."""
        raise NotImplementedError(f"{type(self).__name__} must apply its decisions")

    def apply(self, state: UnrestState, action: A) -> UnrestState:
        """Run the rule, then log the decision as both players saw it."""
        return self.act(state, action).logged(public_code(action))
