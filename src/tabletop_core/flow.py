"""The phase/step machine: phases and steps declared as data, typed frames, and the driver that runs them.

A game declares its turn structure once as a :class:`Flow` (phases, each a sequence of steps) and keeps (or derives)
a :class:`Position`. Sub-decisions that interrupt the flow ("reveal 2, choose 1, then resolve or rest"; "respond to
this trigger") are frames pushed on a :class:`Pending` stack: while the stack is not empty its top frame owns who
acts and what may be done; popping the last frame hands control back to the flow position.

The behaviour half: every frame is an instance of one of three bases, :class:`Decision` (a player acts),
:class:`Chance` (chance acts) or :class:`Automatic` (the rules act by themselves). A :class:`Driver` maps each
``(phase, step)`` to the frame that owns it when the stack is empty, and :meth:`Driver.run` resolves automatic
frames until a decision, a chance node or the end, with the end checks in their declared order before every frame
and a loop guard. A game built on :class:`Driven` then needs no loop of its own (see ``tabletop_core.testing``).

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

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, Union

import attrs
import numpy as np

from tabletop_core.chance import settle
from tabletop_core.errors import FrameRegistryError, IllegalActionError, TabletopError
from tabletop_core.fastcopy import accelerate
from tabletop_core.game import ActionT, Game, OptionsT, StateT
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = [
    "LOOP_LIMIT",
    "Automatic",
    "Chance",
    "Decision",
    "Driven",
    "Driver",
    "Flow",
    "Frame",
    "FrameRegistry",
    "Pending",
    "Phase",
    "Position",
    "pending_top",
]

F = TypeVar("F")


def pending_top(state: Any) -> Any:  # Any: a game's state with a ``pending`` field
    """The top frame of ``state.pending`` (a :class:`Pending`), or ``None`` when it is empty: the ``top`` reader of
    a :class:`Driver` whose state keeps its stack in a field named ``pending`` (what ``state.pending.top`` reads,
    without the property's call: the driver asks before every frame).

    >>> class S:
    ...     pending = Pending(("ask",))
    >>> pending_top(S()), pending_top(type("E", (), {"pending": Pending()})())
    ('ask', None)
    """
    frames = state.pending.frames
    return frames[-1] if frames else None


@attrs.frozen
class Phase:
    """A named phase and its steps, in order."""

    name: str
    steps: tuple[str, ...] = attrs.field()

    @steps.validator
    def _check(self, _attr: object, steps: tuple[str, ...]) -> None:
        if not steps or len(set(steps)) != len(steps):
            raise ValueError(f"phase {self.name!r}: steps must be non-empty and distinct")


@accelerate
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
    _where: dict[tuple[str, str], int] = attrs.field(init=False, repr=False, eq=False)

    @phases.validator
    def _check(self, _attr: object, phases: tuple[Phase, ...]) -> None:
        names = [p.name for p in phases]
        if not phases or len(set(names)) != len(names):
            raise ValueError("flow: phases must be non-empty with distinct names")

    def __attrs_post_init__(self) -> None:
        order = tuple((p.name, s) for p in self.phases for s in p.steps)
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_where", {key: i for i, key in enumerate(order)})

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
        i = self._where.get((pos.phase, pos.step))
        if i is None:
            raise ValueError(f"flow: no step {pos.step!r} in phase {pos.phase!r}")
        return i

    def steps(self) -> tuple[tuple[str, str], ...]:
        """Every ``(phase, step)`` pair in play order."""
        return self._order


@accelerate
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


# ----- frames: who acts, what may be done, what it does -------------------------------------------------------------

S = TypeVar("S")
A = TypeVar("A")

#: The default bound on automatic resolutions in one :meth:`Driver.run` (a loop in the rules or the content).
LOOP_LIMIT = 100_000


class Frame(Generic[S, A]):
    """What owns the next event: one class per kind of sub-decision (or per step), usually frozen attrs.

    Subclass one of :class:`Decision`, :class:`Chance` or :class:`Automatic`, not this class. A frame's data (the
    card being explored, the trigger being answered) are its attrs fields; a step's frame is usually a stateless
    singleton. Every method receives the whole state, so a frame reads what it needs from it. A game registers
    each kind of frame in its :class:`FrameRegistry`, which gives the kind its ``TAG`` (its name in a state's JSON).
    """

    __slots__ = ()

    #: The kind's stable name in JSON, set by :meth:`FrameRegistry.register` (never declared by the class itself).
    TAG: ClassVar[str]

    #: Whether the frame keeps the default :meth:`auto` (it always waits): :meth:`Driver.run` then stops at it
    #: without calling ``auto``. Set for every subclass when it is defined.
    waits: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.waits = cls.auto is Frame.auto

    def __repr__(self) -> str:
        # Stateless step frames print by name; attrs frames replace this with their generated repr (with fields).
        return f"{type(self).__name__}()"

    def auto(self, state: S) -> S | None:
        """Resolve the frame by itself when the rules leave nothing to choose, else ``None`` (wait for an action).

        :meth:`Driver.run` calls it before it stops at a decision or a chance node: a choice with a single
        option, a draw from an empty pile. :class:`Automatic` frames always resolve.
        """
        return None

    def actor(self, state: S) -> int:
        """The player to act here (``CHANCE`` at a chance frame)."""
        raise TabletopError(f"{type(self).__name__} resolves by itself: nobody acts on it (was the state run?)")

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """Every legal action here, sorted by action id (at a chance frame, the outcomes)."""
        return ()

    def chance_outcomes(self, state: S) -> tuple[tuple[A, float], ...]:
        """The ``(outcome, probability)`` pairs of a chance frame, sorted by id; empty at any other frame."""
        return ()

    def is_legal(self, state: S, action: object) -> bool:
        """Whether ``action`` (any object) is legal here. Override with a fast check that builds no list."""
        return action in self.legal_actions(state)

    def apply(self, state: S, action: A) -> S:
        """The state after the (legal) ``action``, before the driver runs the rules on."""
        raise TabletopError(f"{type(self).__name__} takes no action")


class Decision(Frame[S, A]):
    """A player decides: say who (:attr:`seat`, or :meth:`actor` when it depends on the state), implement
    :meth:`legal_actions` and :meth:`apply` (and maybe :meth:`~Frame.is_legal`, :meth:`~Frame.auto`).

    A game whose every decision does one thing more (logs the decision, first asks how to pay for it) says so once,
    as its registry's decision hook (:meth:`FrameRegistry.on_decision`): the hook is then the ``apply`` of each
    registered decision kind that defines none, and calls the kind's own rule.

    >>> class Guess(Decision[int, int]):
    ...     seat = 1
    ...     def legal_actions(self, state: int) -> tuple[int, ...]:
    ...         return (0, 1)
    ...     def apply(self, state: int, action: int) -> int:
    ...         return state + action
    >>> Guess().actor(5), Guess().is_legal(5, 1), Guess().is_legal(5, 2), Guess().apply(5, 1)
    (1, True, False, 6)
    """

    __slots__ = ()

    #: The player who decides here, when that is fixed by the kind of frame (what :meth:`actor` returns).
    seat: ClassVar[int]

    def actor(self, state: S) -> int:
        """The frame's :attr:`seat` (override it when who acts depends on the state)."""
        try:
            return self.seat
        except AttributeError:
            raise NotImplementedError(f"{type(self).__name__} must say who acts (a seat, or actor)") from None

    def legal_actions(self, state: S) -> tuple[A, ...]:
        raise NotImplementedError(f"{type(self).__name__} must list its actions")

    def apply(self, state: S, action: A) -> S:
        raise NotImplementedError(f"{type(self).__name__} must apply its actions")


class Chance(Frame[S, A]):
    """Chance acts: implement :meth:`chance_outcomes` and :meth:`apply` (the outcome's effect).

    >>> class Coin(Chance[int, int]):
    ...     def chance_outcomes(self, state: int) -> tuple[tuple[int, float], ...]:
    ...         return ((0, 0.5), (1, 0.5))
    ...     def apply(self, state: int, action: int) -> int:
    ...         return state * 2 + action
    >>> Coin().actor(0) == CHANCE, Coin().legal_actions(0), Coin().is_legal(0, 1), Coin().is_legal(0, 2)
    (True, (0, 1), True, False)
    """

    __slots__ = ()

    def actor(self, state: S) -> int:
        return CHANCE

    def legal_actions(self, state: S) -> tuple[A, ...]:
        return tuple(outcome for outcome, _ in self.chance_outcomes(state))

    def chance_outcomes(self, state: S) -> tuple[tuple[A, float], ...]:
        raise NotImplementedError(f"{type(self).__name__} must list its outcomes")

    def is_legal(self, state: S, action: object) -> bool:
        return any(outcome == action for outcome, _ in self.chance_outcomes(state))

    def apply(self, state: S, action: A) -> S:
        raise NotImplementedError(f"{type(self).__name__} must apply its outcomes")


class Automatic(Frame[S, Any]):
    """The rules act by themselves: implement :meth:`resolve` (it must make progress: pop the frame, move the
    position or change what the end checks read; a frame that resolves to itself trips the driver's loop guard).

    >>> class Tick(Automatic[int]):
    ...     def resolve(self, state: int) -> int:
    ...         return state + 1
    >>> Tick().auto(1)
    2
    """

    __slots__ = ()

    def resolve(self, state: S) -> S:
        """The state after the frame has done its work."""
        raise NotImplementedError(f"{type(self).__name__} must resolve")

    def auto(self, state: S) -> S | None:
        return self.resolve(state)


# ----- the registry of a game's frames ------------------------------------------------------------------------------

K = TypeVar("K", bound=type)

#: How a registry's decision hook is called: ``hook(frame, state, action)``, the state after the decision.
DecisionHook = Callable[[Any, Any, Any], Any]


class FrameRegistry(Generic[S]):
    """Every kind of frame of one game, each under its stable JSON tag: filled at import time by :meth:`register`
    (a class decorator), frozen by the game's :class:`Driver` (``Driver(..., frames=registry)``).

    What reads the kinds of frame of a game reads them here, so a new frame is one class, registered where it is
    defined: the state's JSON (:attr:`union` is the tagged union of the pending stack's frames), a tensor's one-hot
    of the frame on top (:meth:`index`, in the order of :attr:`pending`), a state's checks (:meth:`check_stack`),
    the documentation's listing of the frames (:meth:`listing`) and the conformance suite (every frame the driver
    meets is a registered kind).

    A kind is *pending* (the default) when the rules may push it on the pending stack: it is then an attrs class,
    part of a saved state. ``pending=False`` declares a step's frame that never leaves the driver's ``steps``.

    >>> FRAMES: FrameRegistry[int] = FrameRegistry("dice")
    >>> @FRAMES.register("dice.roll")
    ... @attrs.frozen
    ... class Roll(Chance[int, int]):
    ...     sides: int
    ...     def chance_outcomes(self, state: int) -> tuple[tuple[int, float], ...]:
    ...         return tuple((face, 1 / self.sides) for face in range(1, self.sides + 1))
    ...     def apply(self, state: int, action: int) -> int:
    ...         return state + action
    >>> @FRAMES.register("dice.again", pending=False)
    ... class Again(Decision[int, int]):
    ...     seat = 0
    ...     def legal_actions(self, state: int) -> tuple[int, ...]:
    ...         return (0, 1)
    ...     def apply(self, state: int, action: int) -> int:
    ...         return state
    >>> driver = Driver("dice", Flow((Phase("play", ("again",)),)), {("play", "again"): Again()},
    ...                 position=lambda s: Position(1, "play", "again"), over=lambda s: s > 6, frames=FRAMES)
    >>> FRAMES.frozen, Roll.TAG, FRAMES.tag(Again), [kind.__name__ for kind in FRAMES.pending], FRAMES.index(Roll)
    (True, 'dice.roll', 'dice.again', ['Roll'], 0)
    >>> @FRAMES.register("dice.late")
    ... @attrs.frozen
    ... class Late(Automatic[int]):
    ...     def resolve(self, state: int) -> int:
    ...         return state
    Traceback (most recent call last):
    ...
    tabletop_core.errors.FrameRegistryError: dice: cannot register Late: the frames are frozen (register every kind \
at import, before the driver is built)
    """

    __slots__ = ("_hook", "_index", "_kinds", "_order", "_slots", "_tags", "frozen", "name")

    def __init__(self, name: str) -> None:
        self.name = name
        #: Whether the registry is frozen (by :meth:`freeze`): no kind may be registered any more.
        self.frozen = False
        self._kinds: dict[type, bool] = {}  # every kind (in registration order) -> whether it may be pending
        self._tags: dict[str, type] = {}
        self._slots: dict[type, int] = {}
        self._hook: DecisionHook | None = None
        self._order: tuple[type, ...] = ()
        self._index: dict[type, int] = {}

    def register(self, tag: str, *, pending: bool = True, slot: int | None = None) -> Callable[[K], K]:
        """A class decorator (above ``@attrs.frozen``): the frame kind ``tag`` of this game.

        Args:
            tag: the kind's stable name in JSON (``"game.kind"``), set as the class's ``TAG``; a renamed class
                keeps it, so old files still load.
            pending: whether the rules may push the kind on the pending stack (then it must be an attrs class);
                ``False`` for a step's frame only.
            slot: the kind's fixed place in :attr:`pending` (the index of its one-hot in a tensor): kinds given a
                slot come first, in slot order from 0 without a gap, then the others in registration order.

        Raises:
            FrameRegistryError: naming the class, when the registry is frozen, the class is no :class:`Frame`
                (or a pending kind no attrs class), declares a ``TAG`` of its own, or it or the tag is taken.
        """

        def add(cls: K) -> K:
            who = f"{self.name}: cannot register {cls.__name__}"
            if self.frozen:
                raise FrameRegistryError(
                    f"{who}: the frames are frozen (register every kind at import, before the driver is built)"
                )
            if not (isinstance(cls, type) and issubclass(cls, Frame)):
                raise FrameRegistryError(f"{who}: it is not a Frame (a Decision, Chance or Automatic)")
            if cls in self._kinds:
                raise FrameRegistryError(f"{who}: it is registered already, as {self.tag(cls)!r}")
            if "TAG" in cls.__dict__:
                raise FrameRegistryError(f"{who}: it declares TAG {cls.__dict__['TAG']!r}; its tag is the registry's")
            if not isinstance(tag, str) or not tag:
                raise FrameRegistryError(f"{who}: its tag {tag!r} is not a non-empty string")
            if tag in self._tags:
                raise FrameRegistryError(f"{who}: the tag {tag!r} is {self._tags[tag].__name__}'s")
            if pending and not attrs.has(cls):
                raise FrameRegistryError(f"{who}: a kind that may be pending is saved, so it must be an attrs class")
            if slot is not None and (not pending or type(slot) is not int or slot < 0):
                raise FrameRegistryError(f"{who}: a slot is a place among the pending kinds, not {slot!r}")
            if slot is not None and slot in self._slots.values():
                taken = next(k for k, v in self._slots.items() if v == slot)
                raise FrameRegistryError(f"{who}: slot {slot} is {taken.__name__}'s")
            cls.TAG = tag
            self._kinds[cls] = pending
            self._tags[tag] = cls
            if slot is not None:
                self._slots[cls] = slot
            return cls

        return add

    def on_decision(self, hook: DecisionHook) -> DecisionHook:
        """A decorator: ``hook(frame, state, action)`` applies every decision of the game (it calls the frame's own
        rule); at :meth:`freeze` it becomes the ``apply`` of each registered :class:`Decision` kind that defines
        none. One hook a registry.

        Raises:
            FrameRegistryError: when the registry is frozen or has a hook already.
        """
        if self.frozen or self._hook is not None:
            raise FrameRegistryError(f"{self.name}: the decision hook must be given once, before the driver is built")
        self._hook = hook
        return hook

    def freeze(self) -> None:
        """Close the registry (the :class:`Driver` given it does; again is a no-op): fix the order of the pending
        kinds and give the decision hook to the decision kinds.

        Raises:
            FrameRegistryError: when the slots given do not run from 0 without a gap.
        """
        if self.frozen:
            return
        slotted = sorted(self._slots, key=self._slots.__getitem__)
        if [self._slots[k] for k in slotted] != list(range(len(slotted))):
            have = sorted(self._slots.values())
            raise FrameRegistryError(f"{self.name}: the slots {have} do not run from 0 without a gap")
        rest = [k for k, pending in self._kinds.items() if pending and k not in self._slots]
        self._order = (*slotted, *rest)
        self._index = {k: i for i, k in enumerate(self._order)}
        hook = self._hook
        if hook is not None:
            for kind in self._kinds:
                if issubclass(kind, Decision) and _own_apply(kind) is None:
                    setattr(kind, "apply", hook)  # noqa: B010  # the game's one way to apply a decision (mypy refuses assigning a method)
        self.frozen = True

    def _frozen(self, what: str) -> None:
        if not self.frozen:
            raise FrameRegistryError(f"{self.name}: {what} is known once the frames are frozen (the driver is built)")

    @property
    def kinds(self) -> tuple[type[Frame[S, Any]], ...]:
        """Every registered kind, in registration order."""
        return tuple(self._kinds)

    @property
    def pending(self) -> tuple[type[Frame[S, Any]], ...]:
        """The kinds that may be pending, slotted ones first (the order of :meth:`index`); once frozen."""
        self._frozen("the order of the pending kinds")
        return self._order

    @property
    def union(self) -> Any:  # Any: a type form (a union of classes), which is no ``type``
        """The tagged union of the pending kinds: the type of a pending stack's frames, for the JSON converter
        (see :meth:`bind`); once frozen."""
        self._frozen("the union of the pending kinds")
        if not self._order:
            raise FrameRegistryError(f"{self.name}: no kind of frame may be pending")
        return Union[self._order]  # noqa: UP007  # a union built from a tuple of classes

    def bind(self, cls: type, name: str = "Frame") -> None:
        """Resolve the annotations of the attrs class ``cls`` (the state), where ``name`` stands for the pending
        kinds: ``pending: Pending[Frame]`` is then a stack of :attr:`union` for the JSON converter."""
        attrs.resolve_types(cls, localns={name: self.union})

    def tag(self, cls: type) -> str:
        """The tag of the registered kind ``cls``.

        Raises:
            FrameRegistryError: when ``cls`` is not registered here.
        """
        if cls not in self._kinds:
            raise FrameRegistryError(f"{self.name}: {getattr(cls, '__name__', cls)} is no registered kind of frame")
        tag: str = cls.TAG  # type: ignore[attr-defined]  # a registered kind is a Frame, given its TAG
        return tag

    def index(self, cls: type) -> int:
        """The place of the pending kind ``cls`` in :attr:`pending` (a tensor's one-hot index).

        Raises:
            FrameRegistryError: when ``cls`` is not a pending kind of this registry (or it is not frozen).
        """
        found = self._index.get(cls)
        if found is None:
            self._frozen("the index of a kind")
            raise FrameRegistryError(f"{self.name}: {getattr(cls, '__name__', cls)} is no pending kind of frame")
        return found

    def check_stack(self, frames: Sequence[object]) -> None:
        """Refuse a pending stack holding a frame of no pending kind of this game (for ``validate_state``).

        Raises:
            ValueError: naming the frame and its place on the stack.
        """
        self._frozen("the kinds that may be pending")
        index = self._index
        for i, frame in enumerate(frames):
            if type(frame) not in index:
                raise ValueError(f"pending frame {i} ({frame!r}) is no kind of frame {self.name} may hold pending")

    def listing(self) -> tuple[tuple[str, str, str, bool], ...]:
        """Each kind as ``(tag, class name, what it is, pending)``, by tag: what the documentation lists.

        What it is: ``decision``, ``chance`` or ``automatic``.
        """
        rows = [(cls.TAG, cls.__name__, _kind_word(cls), pending) for cls, pending in self._kinds.items()]  # type: ignore[attr-defined]  # a registered kind has its TAG
        return tuple(sorted(rows))

    def __contains__(self, cls: object) -> bool:
        return cls in self._kinds

    def __iter__(self) -> Iterator[type[Frame[S, Any]]]:
        return iter(self._kinds)

    def __len__(self) -> int:
        return len(self._kinds)

    def __repr__(self) -> str:
        state = "frozen" if self.frozen else "open"
        return f"FrameRegistry({self.name!r}, {len(self._kinds)} kinds, {state})"


def _own_apply(kind: type) -> object | None:
    """The ``apply`` a decision kind or a class between it and :class:`Decision` defines, else ``None``."""
    for klass in kind.__mro__:
        if klass is Decision:
            return None
        found: object = klass.__dict__.get("apply")
        if found is not None:
            return found
    return None


def _kind_word(cls: type) -> str:
    if issubclass(cls, Decision):
        return "decision"
    if issubclass(cls, Chance):
        return "chance"
    return "automatic" if issubclass(cls, Automatic) else "frame"


# ----- the driver ---------------------------------------------------------------------------------------------------

_NO_STEPS: Mapping[str, Any] = {}
_UNSET = object()  # the key of an empty memo (no state is this object)


class _Words(Generic[S, A]):
    """What a driver says: where play stands in words, and the errors of a missing frame and of a loop."""

    __slots__ = ()

    name: str
    limit: int
    _over: Callable[[S], bool]
    _position: Callable[[S], Position]
    frame: Callable[[S], Frame[S, Any]]

    def _missing_frame(self, state: S) -> Frame[S, Any]:
        raise TabletopError(f"{self.name}: no frame declared for step {self._where(state)}")

    def describe(self, state: S) -> str:
        """Where play stands, in words: the position and the frame (for error messages)."""
        if self._over(state):
            return f"the end ({self._where(state)})"
        return f"{self._where(state)} ({self.frame(state)!r})"

    def _where(self, state: S) -> str:
        try:
            pos = self._position(state)
        except (AttributeError, TypeError, ValueError) as exc:  # a derived position may not exist everywhere
            return f"<no position: {exc}>"
        return f"{pos.phase}/{pos.step}, round {pos.round}"

    def no_rest(self, state: S) -> TabletopError:
        """The error of a loop that resolved :attr:`limit` automatic frames from ``state`` without coming to rest
        (a loop in the rules or the content); for a subclass's own loop to raise as :meth:`run` does."""
        return TabletopError(
            f"{self.name}: the rules did not come to rest after {self.limit} automatic steps "
            f"(a loop in the rules or the content?); at {self._where(state)}, frame {self.frame(state)!r}"
        )


class _Loop(_Words[S, A]):
    """The hot half of :class:`Driver` in Python: where play stands, the loop, the protocol read from the frame.

    It stays in Python on every path: a compiled copy of it bought about a tenth of the speed of a playout, and
    the C accelerator keeps only what pays (the constructors, copies, hashes and equality of the states).

    Memos of a pure function of the state, keyed by identity (states are immutable values, and a memo holds its
    state, so the identity cannot be reused): the last state located with its owning frame (``None`` when over),
    its legal actions and its chance outcomes. A random playout or a search asks ``current_player``,
    ``legal_actions`` and the checked ``step`` of one state in turn; each is derived once.
    """

    __slots__ = (
        "__weakref__",
        "_checks",
        "_legal",
        "_on_over",
        "_outcomes",
        "_over",
        "_position",
        "_rest",
        "_steps",
        "_top",
        "frame",
        "limit",
    )

    _checks: tuple[Callable[[S], S | None], ...]
    _on_over: Callable[[S], S] | None
    _over: Callable[[S], bool]
    _position: Callable[[S], Position]
    _top: Callable[[S], Frame[S, Any] | None] | None
    _steps: dict[str, dict[str, Frame[S, Any]]]
    frame: Callable[[S], Frame[S, Any]]
    limit: int
    _rest: tuple[object, Frame[S, Any] | None]
    _legal: tuple[object, tuple[A, ...]]
    _outcomes: tuple[object, tuple[tuple[A, float], ...]]

    def _forget(self) -> None:
        """Empty the three memos."""
        self._rest = (_UNSET, None)
        self._legal = (_UNSET, ())
        self._outcomes = (_UNSET, ())

    # ``frame(state)``: the frame that owns the next event, the top pending frame, else the current step's
    # (bound at construction to one of the two methods below, so a game without a stack pays for no top lookup).

    def _frame_on_top(self, state: S) -> Frame[S, Any]:
        top = self._top(state)  # type: ignore[misc]  # bound only when a top reader was given
        if top is not None:
            return top
        return self._frame_of_step(state)

    def _frame_of_step(self, state: S) -> Frame[S, Any]:
        pos = self._position(state)
        frame = self._steps.get(pos.phase, _NO_STEPS).get(pos.step)
        if frame is None:
            return self._missing_frame(state)
        return frame

    def locate(self, state: S) -> Frame[S, Any] | None:
        """The frame that owns the next event of ``state``, or ``None`` when the game is over (memoized)."""
        rest = self._rest
        if rest[0] is state:
            return rest[1]
        frame = None if self._over(state) else self.frame(state)
        self._rest = (state, frame)
        return frame

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        rest = self._rest
        if rest[0] is state:
            return rest[1] is None
        return self._over(state)

    def run(self, state: S) -> S:
        """Resolve automatic frames until a decision, a chance node or the end; return that resting state.

        Before every frame: ``over`` first (the game has ended: return it, through ``on_over``), then each end
        check in its declared order (the first that fires replaces the state and the checks start again).

        Raises:
            TabletopError: when the rules resolve more than ``limit`` frames without coming to rest (a loop); the
                message names the game, the position and the frame.
        """
        over = self._over
        checks = self._checks
        frame_of = self.frame
        for _ in range(self.limit):
            if over(state):
                if self._on_over is None:
                    self._rest = (state, None)
                    return state
                return self._on_over(state)
            for check in checks:
                fired = check(state)
                if fired is not None:
                    state = fired
                    break  # a check fired: the checks start again, from the first
            else:
                frame = frame_of(state)
                nxt = None if frame.waits else frame.auto(state)
                if nxt is None:
                    self._rest = (state, frame)  # the caller asks who acts here next: it is known
                    return state
                state = nxt
        raise self.no_rest(state)

    def apply(self, state: S, action: A) -> S:
        """Apply ``action`` (known to be legal) through the owning frame, then :meth:`run` to the next rest."""
        rest = self._rest
        frame = rest[1] if rest[0] is state and rest[1] is not None else self.frame(state)
        return self.run(frame.apply(state, action))

    def current_player(self, state: S) -> int:
        """``TERMINAL`` when over, else the owning frame's actor (``CHANCE`` at a chance frame)."""
        rest = self._rest  # the rest memo read here, not through ``locate``: one call less per question
        frame = rest[1] if rest[0] is state else self.locate(state)
        return TERMINAL if frame is None else frame.actor(state)

    def legal_actions(self, state: S) -> tuple[A, ...]:
        """The owning frame's actions (the outcomes at a chance frame); empty when over (memoized)."""
        memo = self._legal
        if memo[0] is state:
            return memo[1]
        rest = self._rest
        frame = rest[1] if rest[0] is state else self.locate(state)
        actions: tuple[A, ...] = () if frame is None else frame.legal_actions(state)
        self._legal = (state, actions)
        return actions

    def chance_outcomes(self, state: S) -> tuple[tuple[A, float], ...]:
        """The outcomes of a chance frame; empty anywhere else (memoized)."""
        memo = self._outcomes
        if memo[0] is state:
            return memo[1]
        rest = self._rest
        frame = rest[1] if rest[0] is state else self.locate(state)
        outcomes: tuple[tuple[A, float], ...] = () if frame is None else frame.chance_outcomes(state)
        self._outcomes = (state, outcomes)
        return outcomes

    def is_legal(self, state: S, action: object) -> bool:
        """Whether ``action`` is legal in ``state`` (``False`` when over, when the frame cannot read it, or when
        comparing it raises: whatever an action's ``__eq__`` raises, ``is_legal`` answers).

        When the legal actions (or the outcomes) of ``state`` were just derived, this is a membership test in
        them; otherwise the frame's own check, which builds no list.
        """
        try:
            legal = self._legal
            if legal[0] is state:
                for listed in legal[1]:  # identity first: a caller usually passes one of the listed actions
                    if listed is action:
                        return True
                return action in legal[1]
            outcomes = self._outcomes
            if outcomes[0] is state:
                for outcome, _ in outcomes[1]:  # a loop: no generator per checked step
                    if outcome is action:  # identity first: a sampled outcome is the very one listed
                        return True
                for outcome, _ in outcomes[1]:  # noqa: SIM110  # then by value (no __eq__ call before a match)
                    if outcome == action:
                        return True
                return False
            frame = self.locate(state)
            return frame is not None and frame.is_legal(state, action)
        except Exception:  # an object's own __eq__ may raise anything: it is not a legal action
            return False


class Driver(_Loop[S, A]):
    """Runs a game's frames: the top pending frame, else the frame declared for the current ``(phase, step)``.

    Args:
        name: the game's short name, for error messages.
        flow: the game's phases and steps; every key of ``steps`` must be one of its steps.
        steps: the frame that owns each ``(phase, step)`` while no frame is pending (usually a stateless singleton).
        position: reads the position from a state (stored, or derived from the state's facts).
        top: reads the top pending frame (``None`` when nothing is pending); omit it for a game without a stack.
        over: whether the game has ended; checked first, before every frame.
        end_checks: checks run in this fixed order after ``over`` and before every frame; each returns the state
            after it fired (a combatant defeated ends the fight) or ``None``. A check that fires restarts the round
            of checks, so the first check always sees the newest state.
        on_over: applied to a finished state before :meth:`run` returns it (tidy pending frames away); it must be
            idempotent, since ``run`` of a finished state applies it again.
        limit: how many automatic resolutions one :meth:`run` may make before it raises (the loop guard).
        frames: the game's :class:`FrameRegistry`, every kind of its frames; the driver freezes it, and every
            frame of ``steps`` must be of a registered kind. It is :attr:`frames` (``None`` without one).

    Raises:
        FrameRegistryError: when a step's frame is of no kind ``frames`` registers (naming the class).

    A driven game's protocol methods are one-line delegations (:class:`Driven` writes them): ``current_player``
    is the frame's actor, ``legal_actions`` its actions, ``_apply`` the frame's ``apply`` followed by :meth:`run`.
    With the C accelerator built, the loop, the frame lookup and these methods run in C (``_Loop`` is the same in
    Python, used without it).

    >>> flow = Flow((Phase("play", ("roll", "count")),))
    >>> class Roll(Chance[tuple[int, int], int]):
    ...     def chance_outcomes(self, s): return ((1, 0.5), (2, 0.5))
    ...     def apply(self, s, face): return (s[0] + face, 1)
    >>> class Count(Automatic[tuple[int, int]]):
    ...     def resolve(self, s): return (s[0], 0)
    >>> driver = Driver("dice", flow, {("play", "roll"): Roll(), ("play", "count"): Count()},
    ...                 position=lambda s: Position(1, "play", ("roll", "count")[s[1]]), over=lambda s: s[0] >= 3)
    >>> state = driver.apply((0, 0), 2)
    >>> state, driver.current_player(state), driver.legal_actions(state)
    ((2, 0), -1, (1, 2))
    >>> driver.current_player(driver.apply(state, 1)) == TERMINAL
    True
    """

    __slots__ = ("flow", "frames", "name")

    def __init__(
        self,
        name: str,
        flow: Flow,
        steps: Mapping[tuple[str, str], Frame[S, Any]],
        *,
        position: Callable[[S], Position],
        over: Callable[[S], bool],
        top: Callable[[S], Frame[S, Any] | None] | None = None,
        end_checks: Sequence[Callable[[S], S | None]] = (),
        on_over: Callable[[S], S] | None = None,
        limit: int = LOOP_LIMIT,
        frames: FrameRegistry[S] | None = None,
    ) -> None:
        known = set(flow.steps())
        unknown = [key for key in steps if key not in known]
        if unknown:
            raise ValueError(f"{name}: steps {unknown} are not in the flow (steps: {flow.steps()})")
        if limit < 1:
            raise ValueError(f"{name}: the loop limit must be positive, not {limit}")
        if frames is not None:
            frames.freeze()
            for key, frame in steps.items():
                if type(frame) not in frames:
                    raise FrameRegistryError(
                        f"{name}: the frame of step {key}, {type(frame).__name__}, is no kind {frames.name} registers"
                    )
        self.name = name
        self.flow = flow
        self.frames = frames
        self.limit = limit
        # Two levels of str keys: cheaper per lookup than building and hashing a (phase, step) tuple.
        by_phase: dict[str, dict[str, Frame[S, Any]]] = {}
        for (phase, step), frame in steps.items():
            by_phase.setdefault(phase, {})[step] = frame
        self._steps = by_phase
        self._position = position
        self._over = over
        self._top = top
        self._checks = tuple(end_checks)
        self._on_over = on_over
        self.frame = self._frame_of_step if top is None else self._frame_on_top
        self._forget()

    def __repr__(self) -> str:
        steps = sum(len(s) for s in self._steps.values())
        return f"Driver({self.name!r}, {steps} steps, {len(self._checks)} end checks)"


class Driven(Game[StateT, ActionT, OptionsT]):
    """A :class:`~tabletop_core.game.Game` whose protocol is its :class:`Driver`: set the class attribute
    ``driver`` and implement the rest of the game (setup, returns, views, codec, notation).

    ``current_player``, ``legal_actions``, ``chance_outcomes``, ``is_legal``, ``is_terminal`` and ``_apply``
    delegate to the driver; ``describe_step`` names the position and the frame. ``initial_state`` should end with
    ``driver.run(state)``.

    Every protocol call of a search or a playout goes through these delegations, so a subclass that sets ``driver``
    in its class body gets them bound straight to the driver's methods (one call instead of two; ``apply_unchecked``
    becomes ``driver.apply`` itself). A method the subclass (or a class between it and :class:`Driven`) overrides
    keeps the override.
    """

    driver: ClassVar[Driver[Any, Any]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        driver = cls.__dict__.get("driver")
        if isinstance(driver, Driver):
            for name, target in _DELEGATED:
                if _delegates(getattr(cls, name), getattr(Driven, name)):
                    setattr(cls, name, getattr(driver, target))
        # ``apply_unchecked`` is ``_apply`` unchecked: the driver's apply while ``_apply`` is, else the base's.
        applied: object = cls._apply
        if _delegates(cls.apply_unchecked, Game.apply_unchecked):
            bound = isinstance(getattr(applied, "__self__", None), Driver)
            unchecked = applied if bound else Game.apply_unchecked
            setattr(cls, "apply_unchecked", unchecked)  # noqa: B010  # mypy refuses assigning to a method

    def current_player(self, state: StateT) -> int:
        return self.driver.current_player(state)

    def legal_actions(self, state: StateT) -> tuple[ActionT, ...]:
        actions: tuple[ActionT, ...] = self.driver.legal_actions(state)
        return actions

    def chance_outcomes(self, state: StateT) -> tuple[tuple[ActionT, float], ...]:
        outcomes: tuple[tuple[ActionT, float], ...] = self.driver.chance_outcomes(state)
        return outcomes

    def is_legal(self, state: StateT, action: ActionT) -> bool:
        return self.driver.is_legal(state, action)

    def is_terminal(self, state: StateT) -> bool:
        return self.driver.is_over(state)

    def _apply(self, state: StateT, action: ActionT) -> StateT:
        nxt: StateT = self.driver.apply(state, action)
        return nxt

    def step(self, state: StateT, action: ActionT, *, rng: np.random.Generator | None = None) -> StateT:
        """:meth:`~tabletop_core.game.Game.step` with one legality test instead of two: a driven game's
        ``is_legal`` is ``False`` once the game is over (the driver's is), so whether it is over is asked only of a
        refused action, to say why.

        Raises:
            IllegalActionError: if the game is over or ``action`` is not legal; ``state`` is unchanged and usable.
        """
        if not self.is_legal(state, action):
            if self.is_terminal(state):
                raise IllegalActionError(f"{self.spec.short_name}: cannot apply {action!r}: the game is over")
            raise IllegalActionError(self._illegal_message(state, action, "illegal action"))
        nxt = self._apply(state, action)
        if rng is not None:
            nxt = settle(self, nxt, rng)
        return nxt

    def describe_step(self, state: StateT) -> str:
        return self.driver.describe(state)


#: The protocol methods :class:`Driven` delegates, each with the driver method it binds to.
_DELEGATED = (
    ("current_player", "current_player"),
    ("legal_actions", "legal_actions"),
    ("chance_outcomes", "chance_outcomes"),
    ("is_legal", "is_legal"),
    ("is_terminal", "is_over"),
    ("_apply", "apply"),
)


def _delegates(method: object, own: object) -> bool:
    """Whether a class's ``method`` is still the delegation ``own`` (the function of :class:`Driven` or
    :class:`~tabletop_core.game.Game`), or a driver's method a parent class bound (rebound to the new driver; a
    method of the compiled driver is a builtin bound method, not a ``MethodType``)."""
    return method is own or isinstance(getattr(method, "__self__", None), Driver)
