"""The player's decisions and how they are paid: "you can spend Effort of a higher category in place of Effort of
a lower category".

Every decision frame of the game is a :class:`Decide`: it lists its options, says what each costs
(:meth:`Decide.cost`) and what it does (:meth:`Decide.decide`). When paying a cost leaves the player a real choice
of Effort (a Small Effort shortfall that Medium or Large Effort could each cover, with different results), a
:class:`PayChoice` comes first: Medium or Large Effort first; then the decision is made with that payment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Decision
from unbroken.actions import Action, Pick, action_id, decision_from_id
from unbroken.content.schema import Op
from unbroken.rules.resources import ambiguous
from unbroken.state import State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = ["Cost", "Decide", "PayChoice"]

#: What a decision spends: ``spend`` ops and extra amounts per resource slot (a surcharge, a Craft's Time).
Cost = tuple[tuple[Op, ...], list[int] | None]
_PAY_LABELS = ("medium effort first", "large effort first")


class Decide(Decision[State, Action]):
    """A decision of the (one) player: its options, their costs and their effects."""

    __slots__ = ()

    def actor(self, state: State) -> int:
        """The player (Unbroken is solo)."""
        return 0

    def options(self, state: State) -> list[Action]:
        """The legal actions, in any order."""
        raise NotImplementedError(type(self).__name__)

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """The legal actions sorted by id."""
        return tuple(sorted(self.options(state), key=action_id))

    def is_legal(self, state: State, action: object) -> bool:
        """Whether ``action`` is one of the options."""
        return action in self.options(state)

    def label(self, state: State, i: int) -> str:
        """What ``Pick(i)`` chooses here (empty when this frame offers no such pick)."""
        return ""

    def cost(self, state: State, action: Action) -> Cost | None:
        """What taking ``action`` spends, if anything."""
        return None

    def decide(self, state: State, action: Action) -> State:
        """Take ``action`` (paid as ``state.large_first`` says)."""
        raise NotImplementedError(type(self).__name__)

    def apply(self, state: State, action: Action) -> State:
        """Take ``action``, or first ask how to pay for it when the choice of Effort makes a difference."""
        cost = self.cost(state, action)
        if cost is not None and ambiguous(state, *cost):
            lifted = state.pending.top is None
            # A step's decision is lifted onto the stack under the payment choice, which hands the action back to it.
            state = state.push(cast("Frame", self)) if lifted else state
            return state.push(PayChoice(action_id(action), lifted))
        return self.decide(state, action)


@attrs.frozen
class PayChoice(Decide):
    """Frame: how to pay for decision ``action`` (an action id): Medium (``Pick(0)``) or Large (``Pick(1)``)
    Effort first for a Small Effort shortfall; ``lifted`` when the deciding frame was a step's, put under it."""

    TAG: ClassVar[str] = "unbroken.pay"
    action: int
    lifted: bool = False

    def options(self, state: State) -> list[Action]:
        """Medium Effort first, or Large Effort first."""
        return [Pick(0), Pick(1)]

    def label(self, state: State, i: int) -> str:
        """``medium effort first`` / ``large effort first``."""
        return _PAY_LABELS[i] if i < len(_PAY_LABELS) else ""

    def decide(self, state: State, action: Action) -> State:
        """Hand the decision back to the frame that owns it, paid as chosen."""
        assert isinstance(action, Pick)
        state = state.pop()
        owner = state.pending.top
        assert isinstance(owner, Decide)
        if self.lifted:
            state = state.pop()
        return owner.decide(replace(state, large_first=action.i == 1), decision_from_id(self.action))
