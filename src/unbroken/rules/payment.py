"""The player's decisions and how they are paid: "you can spend Effort of a higher category in place of Effort of
a lower category".

Every decision frame of the game is a :class:`Decide`: it lists its options, says what each costs
(:meth:`Decide.cost`) and what it does (:meth:`Decide.decide`); the registry's decision hook, :func:`pay_or_decide`,
applies it. When paying a cost leaves the player a real choice of Effort (a Small Effort shortfall that Medium or
Large Effort could each cover, with different results), a :class:`PayChoice` comes first: Medium or Large Effort
first, or any split of the shortfall between them; then the decision is made with that payment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

import attrs

from tabletop_core.fastcopy import replace
from tabletop_core.flow import Decision
from unbroken.actions import (
    ATTACK_IDS,
    CRAFT_IDS,
    EAT_IDS,
    PICK_IDS,
    RESPOND_IDS,
    USE_IDS,
    VERBS,
    Act,
    Action,
    Attack,
    Craft,
    Eat,
    Pick,
    Respond,
    Use,
    action_id,
    decision_from_id,
)
from unbroken.content.schema import Op
from unbroken.rules.resources import Cover, ambiguous, may_choose, shortfall_covers
from unbroken.state import FRAMES, State

if TYPE_CHECKING:
    from unbroken.rules.flow import Frame

__all__ = [
    "ACT",
    "ATTACK",
    "CRAFT",
    "EAT",
    "PICK",
    "RESPOND",
    "USE",
    "Cost",
    "Decide",
    "PayChoice",
    "one",
    "pay_or_decide",
    "upto",
]

#: What a decision spends: ``spend`` ops and extra amounts per resource slot (a surcharge, a Craft's Time).
Cost = tuple[tuple[Op, ...], list[int] | None]
T = TypeVar("T")
_PAY_LABELS = ("medium effort first", "large effort first")

# One shared instance per decision (values: equal to a new one), so listing the options builds no actions.
#: ``Act(verb)`` for every verb, by verb.
ACT = tuple(Act(v) for v in range(len(VERBS)))
#: ``Pick(i)``, ``Craft(i)``, ``Attack(i)``, ``Use(i)``, ``Respond(i)``, ``Eat(n)`` for every id, by index.
PICK = tuple(Pick(i) for i in range(PICK_IDS))
CRAFT = tuple(Craft(i) for i in range(CRAFT_IDS))
ATTACK = tuple(Attack(i) for i in range(ATTACK_IDS))
USE = tuple(Use(i) for i in range(USE_IDS))
RESPOND = tuple(Respond(i) for i in range(RESPOND_IDS))
EAT = tuple(Eat(n) for n in range(EAT_IDS))
#: The id of each shared action, by the object's identity (the shared actions live as long as the module).
_SHARED: tuple[Action, ...] = (*ACT, *PICK, *CRAFT, *ATTACK, *USE, *RESPOND, *EAT)
_SHARED_IDS = {id(a): action_id(a) for a in _SHARED}


def _id(action: Action) -> int:
    """``action_id(action)``, read from :data:`_SHARED_IDS` for a shared action."""
    found = _SHARED_IDS.get(id(action))
    return action_id(action) if found is None else found


def one(shared: tuple[T, ...], cls: Callable[[int], T], i: int) -> T:
    """The shared action ``cls(i)`` from ``shared`` (past its ids, the constructor refuses it as before)."""
    return shared[i] if 0 <= i < len(shared) else cls(i)


def upto(shared: tuple[T, ...], cls: Callable[[int], T], n: int) -> tuple[T, ...]:
    """The shared actions ``cls(0) .. cls(n - 1)`` (past its ids, the constructor refuses them as before)."""
    return shared[:n] if n <= len(shared) else tuple(cls(i) for i in range(n))


class Decide(Decision[State, Action]):
    """What Unbroken's rules read of a decision of the (one) player: its options, their costs and labels, and the
    rule it runs (:meth:`decide`). Every decision kind is registered in :data:`~unbroken.state.FRAMES`, whose decision
    hook (:func:`pay_or_decide`) is its ``apply``."""

    __slots__ = ()

    #: The player (Unbroken is solo).
    seat: ClassVar[int] = 0
    #: Whether :meth:`options` lists the actions in id order already (the listing is then not sorted again;
    #: ``tests/unbroken/test_speed.py`` checks the claim of every class that makes it).
    in_id_order: ClassVar[bool] = False

    def options(self, state: State) -> list[Action]:
        """The legal actions, in any order."""
        raise NotImplementedError(type(self).__name__)

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """The legal actions sorted by id (the driver keeps the last state's: see ``Driver.legal_actions``)."""
        options = self.options(state)
        return tuple(options) if self.in_id_order else tuple(sorted(options, key=_id))

    def is_legal(self, state: State, action: object) -> bool:
        """Whether ``action`` is one of the options."""
        return action in self.legal_actions(state)

    def label(self, state: State, i: int) -> str:
        """What ``Pick(i)`` chooses here (empty when this frame offers no such pick)."""
        return ""

    def cost(self, state: State, action: Action) -> Cost | None:
        """What taking ``action`` spends, if anything."""
        return None

    def decide(self, state: State, action: Action) -> State:
        """Take ``action`` (paid as ``state.large_first`` says)."""
        raise NotImplementedError(type(self).__name__)


@FRAMES.on_decision
def pay_or_decide(frame: Decide, state: State, action: Action) -> State:
    """Every decision of the game (its kind's ``apply``): take ``action``, or first ask how to pay for it when the
    choice of Effort makes a difference (never without both Medium and Large Effort in hand: the cost is then not
    looked up, see ``may_choose``)."""
    if not may_choose(state):
        return frame.decide(state, action)
    cost = frame.cost(state, action)
    if cost is not None and ambiguous(state, *cost):
        lifted = state.pending.top is None
        # A step's decision is lifted onto the stack under the payment choice, which hands the action back to it.
        state = state.push(cast("Frame", frame)) if lifted else state
        return state.push(PayChoice(action_id(action), lifted))
    return frame.decide(state, action)


@FRAMES.register("unbroken.pay", slot=5)
@attrs.frozen
class PayChoice(Decide):
    """Frame: how to pay for decision ``action`` (an action id) when Medium or Large Effort may cover a Small
    Effort shortfall: Medium Effort first (``Pick(0)``), Large Effort first (``Pick(1)``), then each split of the
    shortfall between them (``Pick(2)`` on, least Large Effort first), every one a distinct payment ("you can
    spend Effort of a higher category in place of Effort of a lower category"); ``lifted`` when the deciding
    frame was a step's, put under it."""

    in_id_order: ClassVar[bool] = True
    action: int
    lifted: bool = False

    def payments(self, state: State) -> list[tuple[int, int]]:
        """The (Medium, Large) Effort each option puts toward the shortfall, in option order (see
        :func:`~unbroken.rules.resources.shortfall_covers`); the decision it pays for is the frame under this one."""
        owner = state.pending.frames[-2]
        assert isinstance(owner, Decide)
        cost = owner.cost(state, decision_from_id(self.action))
        covers = shortfall_covers(state, *cost) if cost is not None else []
        return [covers[0], covers[-1], *covers[1:-1]] if len(covers) > 1 else covers

    def options(self, state: State) -> list[Action]:
        """Medium Effort first, Large Effort first, then the splits between them."""
        return list(PICK[: max(len(_PAY_LABELS), len(self.payments(state)))])

    def label(self, state: State, i: int) -> str:
        """``medium effort first`` / ``large effort first`` / ``1 medium effort and 1 large effort``."""
        if i < len(_PAY_LABELS):
            return _PAY_LABELS[i]
        payments = self.payments(state)
        return f"{payments[i][0]} medium effort and {payments[i][1]} large effort" if i < len(payments) else ""

    def decide(self, state: State, action: Action) -> State:
        """Hand the decision back to the frame that owns it, paid as chosen."""
        assert isinstance(action, Pick)
        cover: Cover = action.i == 1 if action.i < len(_PAY_LABELS) else self.payments(state)[action.i][1]
        state = state.pop()
        owner = state.pending.top
        assert isinstance(owner, Decide)
        if self.lifted:
            state = state.pop()
        return owner.decide(replace(state, large_first=cover), decision_from_id(self.action))
