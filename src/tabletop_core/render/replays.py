"""A recorded game's pictures and descriptions, per seat, through the game protocol only.

A seat's pictures are drawn from that seat's view (``game.observe(state, seat).svg()``), so a replay page cannot show
what the seat did not know; the public view (a spectator's) is drawn from the public observation
(``game.public_observation(state)``) with the public descriptions (``game.describe_public``), and the whole truth
(``state.svg(reveal=True)``) is only built when asked for.
A game whose views do not draw themselves shows its text rendering instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import attrs

from tabletop_core.render.svg import esc

if TYPE_CHECKING:
    from tabletop_core.spec import GameSpec

__all__ = ["PUBLIC", "TRUTH", "ReplayData", "Replayable", "SeatView", "build_replay", "picture_of"]

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
A = TypeVar("A")


class Replayable(Protocol[S_contra, A]):
    """What a replay reads of a game over states ``S_contra`` and actions ``A``: part of the game protocol, named
    here because rendering sits below it (every :class:`~tabletop_core.game.Game` is one)."""

    @property
    def spec(self) -> GameSpec:
        """The game's declared facts."""
        ...

    def render(self, state: S_contra, player: int | None = None) -> str:
        """A text picture of the table."""
        ...

    def observe(self, state: S_contra, player: int) -> object:
        """What ``player`` may know."""
        ...

    def public_observation(self, state: S_contra) -> object:
        """What every seat knows."""
        ...

    def action_from_id(self, state: S_contra, action_id: int) -> A:
        """The action an id stands for."""
        ...

    def seat_name(self, state: S_contra, player: int) -> str:
        """A seat's name."""
        ...

    def describe(self, before: S_contra, action: A, after: S_contra, player: int | None = None) -> tuple[str, ...]:
        """What ``player`` learns from a transition."""
        ...

    def describe_public(self, before: S_contra, action: A, after: S_contra) -> tuple[str, ...]:
        """What a spectator learns from a transition."""
        ...

    def end_reason(self, state: S_contra) -> str:
        """Why a finished game ended."""
        ...


PUBLIC = -1
TRUTH = -2


@attrs.frozen
class SeatView:
    """One choice of the seat switch: its name, a note said on the page, a picture per position, the lines of
    each move."""

    name: str
    note: str
    truth: bool
    pictures: tuple[str, ...]
    lines: tuple[tuple[str, ...], ...]


@attrs.frozen
class ReplayData:
    """Everything a replay page shows."""

    title: str
    subtitle: str
    moves: int
    start: int
    end: str
    views: tuple[SeatView, ...]
    default_view: int

    def to_json(self) -> dict[str, Any]:
        """The page's data block."""
        return {
            "moves": self.moves,
            "start": self.start,
            "end": self.end,
            "default_view": self.default_view,
            "views": [
                {"name": v.name, "note": v.note, "truth": v.truth, "pictures": list(v.pictures), "lines": v.lines}
                for v in self.views
            ],
        }


def _text_picture(text: str) -> str:
    return f'<pre class="text-picture">{esc(text)}</pre>'


def picture_of(game: Replayable[S, A], state: S, seat: int) -> str:
    """The picture of ``state`` for ``seat`` (``PUBLIC``: the public view; ``TRUTH``: the whole truth)."""
    if seat == TRUTH:
        draw = getattr(state, "svg", None)
        return draw(reveal=True) if callable(draw) else _text_picture(game.render(state, None))
    if seat == PUBLIC:
        from tabletop_core.spec import Information

        seen = state if game.spec.information == Information.PERFECT else game.public_observation(state)
        draw = getattr(seen, "svg", None)
        if callable(draw):
            return str(draw())
        if seen is state:
            return _text_picture(game.render(state, None))
        return _text_picture(str(seen))
    view = game.observe(state, seat)
    draw = getattr(view, "svg", None)
    return draw() if callable(draw) else _text_picture(game.render(state, seat))


def build_replay(
    game: Replayable[S, A], states: Sequence[S], ids: Sequence[int], *, seats: Sequence[int], default: int, source: str
) -> ReplayData:
    """The replay of ``states`` (reached by the action ids ``ids``) for each of ``seats`` (seat indexes,
    ``PUBLIC``: a spectator, or ``TRUTH``), ``default`` the one shown first."""
    from tabletop_core.spec import Information

    actions = [game.action_from_id(states[i], a) for i, a in enumerate(ids)]
    hidden = game.spec.information != Information.PERFECT
    views = []
    for seat in seats:
        if seat == TRUTH:
            name, note = "the whole truth", "the whole truth: every seat's hidden cards are shown"
            who: int | None = None
        elif seat == PUBLIC:
            name = "a spectator" if hidden else "the table"
            note = "as a spectator saw it: only what every seat knows" if hidden else "the table (nothing is hidden)"
            who = None
        else:
            name, who = game.seat_name(states[0], seat), seat
            note = f"as {name} saw it" + (": other seats' hidden cards are not shown" if hidden else "")
        if seat == PUBLIC:
            lines = tuple(
                tuple(game.describe_public(states[i], actions[i], states[i + 1])) for i in range(len(actions))
            )
        else:
            lines = tuple(tuple(game.describe(states[i], actions[i], states[i + 1], who)) for i in range(len(actions)))
        pictures = tuple(picture_of(game, s, seat) for s in states)
        views.append(SeatView(name, note, seat == TRUTH, pictures, lines))
    n = len(actions)
    end = game.end_reason(states[n]) or f"the game stops here, unfinished, after {n} moves"
    return ReplayData(
        title=f"{game.spec.long_name}: replay of {source}",
        subtitle=f"{n} moves; made by tabletop replay --html",
        moves=n,
        start=0,
        end=end,
        views=tuple(views),
        default_view=list(seats).index(default),
    )
