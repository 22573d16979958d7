"""Game records (every action id, chance outcomes included), the one playout loop, the runner ``play`` and ``replay``.

:func:`playout` is the loop every runner shares (``play``, the CLI's printed game, the conformance suite): it
yields one :class:`Step` per action, chance sampled from the runner's generator, decisions from the agents.

>>> from tabletop_core.agents import FirstAgent
>>> from tabletop_core.testing.kuhn import GAME
>>> state = GAME.initial_state(GAME.make_options())
>>> [(s.player, GAME.action_to_str(s.before, s.action)) for s in playout(GAME, [FirstAgent()] * 2, state, seed=3)]
[(-1, 'deal J'), (-1, 'deal Q'), (0, 'pass'), (1, 'pass')]
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar, overload

import attrs
import numpy as np

from tabletop_core.agents import Agent, SearchAgent, choose_action
from tabletop_core.chance import sample_outcome
from tabletop_core.errors import IllegalActionError, OptionError, StateFormatError, TabletopError
from tabletop_core.game import Game
from tabletop_core.serialize import FORMAT_VERSION, TAG_KEY, parse_document, structure, tag_of, unstructure
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = [
    "RECORD_FORMAT",
    "OptionsTyped",
    "Record",
    "Step",
    "library_version",
    "options_from_json",
    "options_json",
    "play",
    "playout",
    "record_seat",
    "replay",
]

S = TypeVar("S")
A = TypeVar("A")
Opt = TypeVar("Opt")
Opt_co = TypeVar("Opt_co", covariant=True)

RECORD_FORMAT = "tabletop-rules/record"


@functools.cache
def library_version() -> str:
    """The installed version of tabletop-rules (read once: the package metadata is parsed on each lookup)."""
    try:
        return version("tabletop-rules")
    except PackageNotFoundError:  # running from a source tree without installing
        return "0+unknown"


@attrs.frozen
class Record:
    """A complete, replayable game: options, seed and every action id (decisions and chance outcomes).

    Attributes:
        game: the game's short name.
        options: the options as their JSON form.
        seed: the seed the runner used (informative; replay needs only the action ids).
        actions: every action id in order, chance outcomes included, from the first chance node of setup.
        returns: the final returns (``None`` if the game was stopped early).
        library: the library version that wrote the record.
    """

    TAG: ClassVar[str] = "record"
    game: str
    options: dict[str, Any]
    seed: int | None
    actions: tuple[int, ...]
    returns: tuple[float, ...] | None
    library: str = attrs.field(factory=library_version)

    def to_json(self, *, seat: int | None = None) -> str:
        """The record as a JSON document.

        Args:
            seat: the seat of the person who played it at the table, kept beside the record (``"seat"``) so that
                a replay shows that seat's view unless asked for the whole truth.
        """
        doc: dict[str, Any] = {"format": RECORD_FORMAT, "version": FORMAT_VERSION, "record": unstructure(self)}
        if seat is not None:
            doc["seat"] = seat
        return json.dumps(doc, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record; a record of another format version or a corrupted one raises ``StateFormatError``."""
        doc = parse_document(text, expected_format=RECORD_FORMAT)
        if not {"format", "version", "record"} <= set(doc) <= {"format", "version", "record", "seat"}:
            raise StateFormatError(f"record keys must be format, version, record (and seat); got {sorted(doc)}")
        seat = doc.get("seat")
        if "seat" in doc and (type(seat) is not int or seat < 0):
            raise StateFormatError(f"record seat must be a seat number, not {seat!r}")
        try:
            rec: Record = structure(doc["record"], cls)
        except RecursionError:
            raise StateFormatError("record nested too deeply") from None
        return rec


def record_seat(text: str | bytes) -> int | None:
    """The seat a record was played from at the table (its ``"seat"``), or ``None`` (bots only, or not said).

    Raises:
        StateFormatError: as :meth:`Record.from_json`.
    """
    doc = parse_document(text, expected_format=RECORD_FORMAT)
    seat = doc.get("seat")
    if seat is not None and (type(seat) is not int or seat < 0):
        raise StateFormatError(f"record seat must be a seat number, not {seat!r}")
    return seat


def options_json(options: object) -> dict[str, Any]:
    """The JSON form of a game's options object (what a record stores)."""
    data = unstructure(options)
    data.pop(TAG_KEY, None)
    return dict(data)


class OptionsTyped(Protocol[Opt_co]):
    """What :func:`options_from_json` needs of a game: its options class (every ``Game`` has one)."""

    @property
    def options_type(self) -> type[Opt_co]:
        """The frozen attrs class of the game's options."""
        ...


def options_from_json(game: OptionsTyped[Opt], data: Mapping[str, Any]) -> Opt:
    """Rebuild a game's options object from :func:`options_json`'s form (types restored by the converter)."""
    body = dict(data)
    tag = tag_of(game.options_type)
    if tag is not None:
        body[TAG_KEY] = tag
    options: Opt = structure(body, game.options_type)
    return options


@attrs.frozen
class Step(Generic[S, A]):
    """One action of a playout: who acted, what, and the states either side.

    Attributes:
        index: the action's position in the game (0 for the first).
        before: the state the action was taken in.
        player: the player who acted, or ``CHANCE``.
        action: the action (a decision or a chance outcome).
        action_id: its id, as the record stores it.
        after: the state the action led to.
    """

    index: int
    before: S
    player: int
    action: A
    action_id: int
    after: S


def playout(
    game: Game[S, A, Any],
    agents: Sequence[Agent | SearchAgent],
    state: S,
    rng: np.random.Generator | None = None,
    *,
    seed: int | None = None,
    chance_rng: np.random.Generator | None = None,
    max_steps: int | None = None,
) -> Iterator[Step[S, A]]:
    """Play from ``state`` and yield each :class:`Step`, until the game ends or ``max_steps`` actions were taken.

    Chance outcomes are drawn from ``rng`` (or ``np.random.default_rng(seed)``); decisions come from ``agents``
    (one per player) through :func:`~tabletop_core.agents.choose_action`, sharing the same generator, so a seed
    fixes the whole game. Every action goes through the checked ``game.step``. The generator is lazy: a consumer
    may check or print each step, stop early, or read the last ``step.after`` as the final state.

    Args:
        chance_rng: draw the chance outcomes from this generator instead, leaving ``rng`` to the agents: the
            separate chance stream. The ``k``-th chance event then uses the ``k``-th number of ``chance_rng``
            whatever the agents do, so games with different players meet the same dice, casts and draws as long
            as they reach the same chance nodes (common random numbers; a draw from a deck whose contents the
            players changed maps the same number to another card). Default: one stream for both, as ever.
        max_steps: the most actions to take (default ``game.spec.max_game_length``); a game still running then
            simply stops (the caller decides whether that is an error).
    """
    if rng is None:
        rng = np.random.default_rng(seed)
    elif seed is not None:
        raise OptionError("give playout an rng or a seed, not both")
    chance = rng if chance_rng is None else chance_rng
    limit = max_steps if max_steps is not None else game.spec.max_game_length
    index = 0
    while index < limit:
        player = game.current_player(state)
        if player == TERMINAL:
            return
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), chance)
        else:
            action = choose_action(agents[player], game, state, player, rng)
        after = game.step(state, action)
        yield Step(index, state, player, action, game.action_id(action), after)
        state = after
        index += 1


def play(
    game: Game[S, A, Any],
    agents: Sequence[Agent | SearchAgent],
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    chance_seed: int | None = None,
    max_steps: int | None = None,
    on_step: Callable[[Step[S, A]], None] | None = None,
) -> tuple[S, Record]:
    """Play one game: chance from ``np.random.default_rng(seed)``, decisions from ``agents`` (one per player).

    Agents share the runner's generator, so a seed fixes the whole game. With ``chance_seed`` the chance
    outcomes come from their own generator, ``np.random.default_rng(chance_seed)``, and ``seed`` seeds the agents
    alone (see ``chance_rng`` of :func:`playout`): the same chance seed with other players is the same luck.
    Without it (the default) a seed gives the game it always gave. ``on_step`` sees every :class:`Step` as it
    happens (to print or check it). Returns the final state and its record (``returns`` is ``None`` when
    ``max_steps`` stopped the game first); the record's format is the same either way, since replay needs only
    its action ids (``seed`` in it is the agents' seed when a chance seed was given).

    Raises:
        OptionError: for bad options or a wrong number of agents.
    """
    opts = game.make_options(**dict(options or {}))
    state = game.initial_state(opts)
    n = game.num_players(state)
    if len(agents) != n:
        raise OptionError(f"{game.spec.short_name}: {n} players need {n} agents, got {len(agents)}")
    ids: list[int] = []
    chance_rng = None if chance_seed is None else np.random.default_rng(chance_seed)
    for step in playout(game, agents, state, seed=seed, chance_rng=chance_rng, max_steps=max_steps):
        ids.append(step.action_id)
        state = step.after
        if on_step is not None:
            on_step(step)
    returns = tuple(game.returns(state)) if game.is_terminal(state) else None
    record = Record(game.spec.short_name, options_json(opts), seed, tuple(ids), returns)
    return state, record


@overload
def replay(record: Record | str, game: Game[S, Any, Any], *, states: Literal[False] = False) -> S: ...
@overload
def replay(record: Record | str, game: Game[S, Any, Any], *, states: Literal[True]) -> tuple[S, ...]: ...
@overload
def replay(record: Record | str, game: None = None, *, states: bool = False) -> Any: ...
def replay(record: Record | str, game: Game[Any, Any, Any] | None = None, *, states: bool = False) -> Any:
    """Replay a record and return its final state (or every state when ``states=True``).

    ``game`` defaults to the installed game named by the record (:func:`~tabletop_core.registry.installed_game`:
    a record never makes the library import a module it names). A record whose actions are illegal, whose game
    differs or whose stated returns do not match raises ``StateFormatError``.
    """
    if isinstance(record, str):
        record = Record.from_json(record)
    if game is None:
        from tabletop_core.registry import installed_game

        game = installed_game(record.game)
    if record.game != game.spec.short_name:
        raise StateFormatError(f"record is of game {record.game!r}, not {game.spec.short_name!r}")
    try:
        state = game.initial_state(options_from_json(game, record.options))
    except (TabletopError, ValueError) as exc:  # a game's setup refuses options it cannot lay (an unknown hero)
        raise StateFormatError(f"record options are invalid: {exc}") from exc
    seen = [state]
    for i, action_id in enumerate(record.actions):
        try:
            action = game.action_from_id(state, action_id)
            state = game.step(state, action)
        except (IllegalActionError, ValueError) as exc:
            raise StateFormatError(f"record action {i} (id {action_id}) does not apply: {exc}") from exc
        seen.append(state)
    if record.returns is not None:
        if not game.is_terminal(state):
            raise StateFormatError("record states returns but its actions do not finish the game")
        got = tuple(game.returns(state))
        if len(got) != len(record.returns) or any(abs(a - b) > 1e-9 for a, b in zip(got, record.returns, strict=True)):
            raise StateFormatError(f"record states returns {record.returns}, replay gives {got}")
    return tuple(seen) if states else state
