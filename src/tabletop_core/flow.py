"""The phase/step machine: phases and steps declared as data, plus a stack of pending sub-decisions.

A game declares its turn structure once as a :class:`Flow` (phases, each a sequence of steps) and keeps a
:class:`Position` in its state. Sub-decisions that interrupt the flow ("reveal 2, choose 1, then resolve or rest";
"respond to this trigger") are frames pushed on a :class:`Pending` stack: while the stack is not empty its top frame
owns who acts and what may be done; popping the last frame hands control back to the flow position.

>>> flow = Flow((Phase("travel", ("preparation", "decision", "exploration")), Phase("combat", ("battle",))))
>>> pos = flow.start()
>>> pos = flow.next(flow.next(flow.next(pos)))
>>> pos.phase, pos.step, pos.round
('combat', 'battle', 1)
>>> flow.next(pos).round
2
>>> stack = Pending[str]().push("choose").push("respond")
>>> stack.top, stack.pop().top, len(stack)
('respond', 'choose', 2)
"""

from __future__ import annotations

from typing import Generic, TypeVar

import attrs

__all__ = ["Flow", "Pending", "Phase", "Position"]

F = TypeVar("F")


@attrs.frozen
class Phase:
    """A named phase and its steps, in order."""

    name: str
    steps: tuple[str, ...] = attrs.field()

    @steps.validator
    def _check(self, _attr: object, steps: tuple[str, ...]) -> None:
        if not steps or len(set(steps)) != len(steps):
            raise ValueError(f"phase {self.name!r}: steps must be non-empty and distinct")


@attrs.frozen(order=True)
class Position:
    """Where play stands: a round number, a phase and a step of that phase."""

    round: int
    phase: str
    step: str


@attrs.frozen
class Flow:
    """A turn structure declared as data: phases in play order; after the last step play wraps to a new round."""

    phases: tuple[Phase, ...] = attrs.field()
    _order: tuple[tuple[str, str], ...] = attrs.field(init=False, repr=False, eq=False)

    @phases.validator
    def _check(self, _attr: object, phases: tuple[Phase, ...]) -> None:
        names = [p.name for p in phases]
        if not phases or len(set(names)) != len(names):
            raise ValueError("flow: phases must be non-empty with distinct names")

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_order", tuple((p.name, s) for p in self.phases for s in p.steps))

    def start(self, round_: int = 1) -> Position:
        """The first step of the first phase."""
        phase, step = self._order[0]
        return Position(round_, phase, step)

    def at(self, phase: str, step: str | None = None, round_: int = 1) -> Position:
        """The position of ``step`` (default: the phase's first step) in ``phase``; unknown names raise."""
        for p in self.phases:
            if p.name == phase:
                if step is None:
                    return Position(round_, phase, p.steps[0])
                if step in p.steps:
                    return Position(round_, phase, step)
                raise ValueError(f"flow: phase {phase!r} has no step {step!r} (steps: {p.steps})")
        raise ValueError(f"flow: no phase {phase!r}")

    def next(self, pos: Position) -> Position:
        """The step after ``pos``: the next step of its phase, else the next phase, else round + 1."""
        i = self._index(pos)
        if i + 1 < len(self._order):
            phase, step = self._order[i + 1]
            return Position(pos.round, phase, step)
        return self.start(pos.round + 1)

    def next_phase(self, pos: Position) -> Position:
        """The first step of the phase after ``pos``'s phase (wrapping to a new round)."""
        names = [p.name for p in self.phases]
        i = names.index(self.at(pos.phase, pos.step).phase)
        if i + 1 < len(self.phases):
            return self.at(self.phases[i + 1].name, round_=pos.round)
        return self.start(pos.round + 1)

    def _index(self, pos: Position) -> int:
        try:
            return self._order.index((pos.phase, pos.step))
        except ValueError:
            raise ValueError(f"flow: no step {pos.step!r} in phase {pos.phase!r}") from None


@attrs.frozen
class Pending(Generic[F]):
    """A stack of pending sub-decision frames; the top frame owns the next decision."""

    frames: tuple[F, ...] = ()

    def __len__(self) -> int:
        return len(self.frames)

    def __bool__(self) -> bool:
        return bool(self.frames)

    @property
    def top(self) -> F | None:
        """The frame that owns the next decision, or ``None`` when the flow position does."""
        return self.frames[-1] if self.frames else None

    def push(self, frame: F) -> Pending[F]:
        """The stack with ``frame`` on top."""
        return Pending((*self.frames, frame))

    def pop(self) -> Pending[F]:
        """The stack without its top frame."""
        if not self.frames:
            raise ValueError("pending: pop from an empty stack")
        return Pending(self.frames[:-1])

    def replace_top(self, frame: F) -> Pending[F]:
        """The stack with its top frame replaced (a sub-decision that moved on a step)."""
        if not self.frames:
            raise ValueError("pending: no top frame to replace")
        return Pending((*self.frames[:-1], frame))
