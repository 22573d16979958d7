"""Unbroken's state: options, resources as bounded tracks, the flow position and the pending-frame stack.

States are immutable values; rules return copies made with the core's one fast copy,
:func:`tabletop_core.fastcopy.replace`. The turn structure is the core's
:class:`~tabletop_core.flow.Flow` (phases and steps as data, the round is the Level) plus a
:class:`~tabletop_core.flow.Pending` stack of typed frames (defined with the rules that own them, see
:mod:`unbroken.rules.flow`) that own the next decision or chance event.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import attrs

from tabletop_core.components import Pile, Track
from tabletop_core.content import check_pack_name
from tabletop_core.fastcopy import accelerate, replace, replacer
from tabletop_core.flow import Flow, FrameRegistry, Pending, Phase, Position
from unbroken.content.loader import Pack, get_pack
from unbroken.content.schema import RESOURCES

if TYPE_CHECKING:
    # The frames live with the rules that own them, each registered in FRAMES; the pending stack's union of the
    # kinds is bound by ``unbroken.rules.flow`` once the driver has frozen the registry.
    from unbroken.rules.flow import Frame

__all__ = [
    "CAPS",
    "DIFFICULTIES",
    "EFFORT",
    "FLOW",
    "FRAMES",
    "LAST_LEVEL",
    "LEVEL_TIME",
    "NON_EFFORT",
    "N_RESOURCES",
    "RESOURCES",
    "TRACKS",
    "Combat",
    "Cond",
    "Options",
    "Resource",
    "State",
    "new_tracks",
    "no_resources",
    "track_at",
]

#: A resource: its slot in :data:`RESOURCES` (tracker order), the index of its track in ``State.res``.
Resource: TypeAlias = int
SE, ME, LE, CUNNING, FOOD, WOOD, METAL, TREASURE, TIME = range(len(RESOURCES))
N_RESOURCES = len(RESOURCES)
#: The three Effort categories, lowest first ("you can spend Effort of a higher category in place of a lower").
EFFORT: tuple[Resource, ...] = (SE, ME, LE)
#: Every resource that is not Effort (each paid only by itself).
NON_EFFORT: tuple[Resource, ...] = tuple(r for r in range(N_RESOURCES) if r not in EFFORT)
RES: dict[str, Resource] = {name: i for i, name in enumerate(RESOURCES)}
#: Track caps (stand-ins: the rulebook's bars are not printed in the text); gains past a cap are lost.
CAPS = (20, 8, 5, 8, 8, 8, 8, 8, 10)
#: Time at the start of each Level (Level 1: 7 is public; the others are stand-ins).
LEVEL_TIME = (7, 9, 10, 10)
#: The last Level (its monster is the final one).
LAST_LEVEL = len(LEVEL_TIME)


def no_resources() -> list[Resource]:
    """A zero amount per resource slot (to add costs and surcharges into)."""
    return [0] * N_RESOURCES


DIFFICULTIES = ("easy", "normal", "hard")
#: The turn structure: a setup phase, then per Level (the round) the Travel and Combat Phases.
FLOW = Flow(
    (
        Phase("setup", ("setup",)),
        Phase("travel", ("preparation", "decision", "exploration")),
        Phase("combat", ("ambush", "trickery", "battle", "rewards", "hunger")),
    )
)
#: Every kind of frame of the game, each registered where it is defined (with the rule it runs) and frozen by the
#: driver (:data:`unbroken.rules.flow.DRIVER`). A pending kind's slot is its place in the observation tensor's
#: one-hot of the frame on top; a kind registered without one comes after them.
FRAMES: FrameRegistry[State] = FrameRegistry("unbroken")


def _check_pack(_inst: Options, _attr: object, value: object) -> None:
    if value != "default":
        check_pack_name(value)


def _check_digest(_inst: Options, _attr: object, value: object) -> None:
    if type(value) is not str or (value and not _HEX64.fullmatch(value)):
        raise ValueError(f"pack_sha256 {value!r:.40} is not empty or a SHA-256 (64 lowercase hex digits)")


_HEX64 = re.compile(r"[0-9a-f]{64}")


#: Every position of the flow in the Levels (and the round after the last), built once.
_POSITIONS: Mapping[tuple[str, str, int], Position] = {
    (phase, step, r): FLOW.at(phase, step, r) for phase, step in FLOW.steps() for r in range(1, LAST_LEVEL + 2)
}


def _check_options(inst: Options, _attr: object, _value: object) -> None:
    if inst.easy_se15 and inst.difficulty != "easy":
        raise ValueError("easy_se15 (begin with 15 Small Effort) is an Easy option")


@attrs.frozen
class Options:
    """The game's options.

    A custom pack is given to ``new_game``/``make_options`` as the pack itself (``unbroken.load_pack(path)``) or
    the pack file's ``pathlib.Path``: it is made available (:data:`unbroken.content.loader.PACKS`) and named here by
    its name and the SHA-256 of its content (:func:`unbroken.setup.bind_pack`); a string is a pack's name only,
    never read as a path. A saved game names its pack by both and refuses any other pack, and nothing a saved game
    says makes the library read a file.

    Attributes:
        difficulty: how hard the game is: easy (an extra starting resource, and a choice of two starting skills),
            normal, or hard (10 Small Effort instead of 13, and the monster acts first in combat).
        character: the character you play, from the pack (the built-in pack's four are listed).
        easy_se15: Easy only (with difficulty=easy): start with 15 Small Effort instead of 13, the rulebook's
            "easier game" (the name reads "Easy: Small Effort 15").
        pack: the content pack played: default, the built-in one (tabletop compare --pack FILE plays another).
        pack_sha256: leave it empty: the game fills in a fingerprint of the pack's content, so that a saved game
            plays only the pack it was made with.
    """

    TAG: ClassVar[str] = "unbroken.options"
    difficulty: str = attrs.field(default="normal", validator=attrs.validators.in_(DIFFICULTIES))
    character: str = attrs.field(default="sneak", validator=attrs.validators.instance_of(str))
    easy_se15: bool = attrs.field(default=False, validator=[attrs.validators.instance_of(bool), _check_options])
    pack: str = attrs.field(default="default", validator=_check_pack)
    pack_sha256: str = attrs.field(default="", validator=_check_digest)


@accelerate
@attrs.frozen
class Cond:
    """A condition in play and its red tokens (0 = untimed)."""

    TAG: ClassVar[str] = "unbroken.cond"
    id: str
    tokens: int = 0


@accelerate
@attrs.frozen
class Combat:
    """The monster on the Monster Tracker and the state of the battle."""

    TAG: ClassVar[str] = "unbroken.combat"
    monster: str
    armor: int
    max_armor: int
    health: int
    max_health: int
    started: bool = False
    defend: bool = False
    roll: int = 0
    power: int = 0
    skip: bool = False
    rerolls: int = 0
    stolen: tuple[int, ...] = (0,) * N_RESOURCES


#: Every value of every resource's track, built once: ``TRACKS[r][v]`` is resource ``r``'s track at ``v`` (tracks
#: are values, so states share them instead of building new ones).
TRACKS: tuple[tuple[Track, ...], ...] = tuple(
    tuple(Track(name, v, high=cap) for v in range(cap + 1)) for name, cap in zip(RESOURCES, CAPS, strict=True)
)


def track_at(track: Track, r: Resource, value: int) -> Track:
    """``track`` (resource ``r``'s) moved to ``value`` (within its bounds): the shared track when ``track`` has
    the standard name and bounds, else a copy."""
    shared = TRACKS[r]
    if track.low == 0 and track.high == len(shared) - 1 and track.name == RESOURCES[r] and 0 <= value < len(shared):
        return shared[value]
    return attrs.evolve(track, value=value)


def new_tracks(se: int) -> tuple[Track, ...]:
    """Fresh resource tracks with ``se`` Small Effort and Level 1's Time."""
    values = no_resources()
    values[SE], values[TIME] = se, LEVEL_TIME[0]
    return tuple(TRACKS[r][min(v, cap)] for r, (v, cap) in enumerate(zip(values, CAPS, strict=True)))


@accelerate
@attrs.frozen
class State:
    """The whole truth of a game of Unbroken (perfect information apart from future chance)."""

    TAG: ClassVar[str] = "unbroken.state"
    options: Options
    pos: Position
    res: tuple[Track, ...]
    uses: int
    encounters: Pile[int]
    skill_deck: Pile[int]
    weapons: tuple[str, ...] = ("bare_hands",)
    aside: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    conditions: tuple[Cond, ...] = ()
    next_conditions: tuple[Cond, ...] = ()
    revealed: tuple[int, ...] = ()
    offered: tuple[int, ...] = ()
    reveal_bonus: int = 0
    committed: bool = False
    monster: str = ""
    combat: Combat | None = None
    tricked: bool = False
    pending: Pending[Frame] = attrs.field(factory=Pending)
    outcome: int = 0
    #: How the next payment covers a Small Effort shortfall, set by the ``pay`` sub-decision and used once:
    #: ``False`` Medium Effort first, ``True`` Large Effort first, an ``int`` that much Large Effort and the rest
    #: Medium (``unbroken.rules.resources.Cover``; a bool for the two orders, as saved games hold them).
    large_first: bool | int = False

    @property
    def level(self) -> int:
        """The current Level (1-4)."""
        r = self.pos.round
        return r if 1 <= r <= LAST_LEVEL else max(1, min(LAST_LEVEL, r))

    @property
    def pack(self) -> Pack:
        """The content pack in play."""
        return get_pack(self.options.pack, self.options.pack_sha256)

    @property
    def weapon(self) -> str:
        """The equipped weapon's id."""
        return self.weapons[-1]

    def amount(self, r: Resource) -> int:
        """The current value of resource ``r``."""
        return self.res[r].value

    def with_res(self, r: Resource, track: Track) -> State:
        """This state with resource ``r``'s track replaced."""
        res = list(self.res)
        res[r] = track
        return replace(self, res=tuple(res))

    def res_at(self, r: Resource, value: int) -> tuple[Track, ...]:
        """The tracks with resource ``r``'s at ``value`` (within its bounds)."""
        res = list(self.res)
        res[r] = track_at(res[r], r, value)
        return tuple(res)

    # Each of these makes one copy, with ``changes`` to other fields in the same copy (see ``fastcopy.replace``);
    # a change of the stack alone (most of them) goes through the one-field copy ``_with_pending``.

    def push(self, *frames: Frame, **changes: Any) -> State:
        """This state with ``frames`` pushed in order (the last one ends on top)."""
        pending = Pending((*self.pending.frames, *frames))
        return replace(self, pending=pending, **changes) if changes else _with_pending(self, pending)

    def pop(self, **changes: Any) -> State:
        """This state without its top frame."""
        pending = self.pending.pop()
        return replace(self, pending=pending, **changes) if changes else _with_pending(self, pending)

    def replace_top(self, frame: Frame, **changes: Any) -> State:
        """This state with its top frame replaced."""
        pending = self.pending.replace_top(frame)
        return replace(self, pending=pending, **changes) if changes else _with_pending(self, pending)

    def restack(self, *frames: Frame, **changes: Any) -> State:
        """This state with its top frame replaced by ``frames`` (none: popped), pushed in order."""
        stack = self.pending.frames
        if not stack:
            raise ValueError("pending: no top frame to replace")
        pending = Pending((*stack[:-1], *frames))
        return replace(self, pending=pending, **changes) if changes else _with_pending(self, pending)

    def at(self, phase: str, step: str, level: int | None = None, **changes: Any) -> State:
        """This state moved to ``phase``/``step`` (of ``level``, default the current Level)."""
        return replace(self, pos=self.position(phase, step, level), **changes)

    def position(self, phase: str, step: str, level: int | None = None) -> Position:
        """The position of ``phase``/``step`` (of ``level``, default the current Level)."""
        key = (phase, step, level or self.pos.round)
        pos = _POSITIONS.get(key)
        return FLOW.at(*key) if pos is None else pos

    def svg(self, *, reveal: bool = False, width: int = 800) -> str:
        """The table as an SVG picture: the player's view, which hides nothing; with ``reveal``, the whole truth.

        The picture says which it is.
        """
        from unbroken import picture
        from unbroken.view import View

        return picture.truth(self, width=width) if reveal else picture.picture(View(0, self), width=width)

    def _repr_svg_(self) -> str:
        """The public picture, for notebooks."""
        return self.svg()

    def _repr_html_(self) -> str:
        """The picture inside a ``<div>``, for notebooks that prefer HTML."""
        return f'<div class="tabletop-picture">{self.svg()}</div>'


#: ``replace(state, pending=...)``, the copy plan made once (see :func:`tabletop_core.fastcopy.replacer`).
_with_pending = replacer(State, "pending")
