"""Game records (every action id, chance outcomes included), the runner ``play`` and ``replay``."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Any, ClassVar

import attrs
import numpy as np

from tabletop_core.agents import Agent, SearchAgent, choose_action
from tabletop_core.chance import sample_outcome
from tabletop_core.errors import IllegalActionError, OptionError, StateFormatError, TabletopError
from tabletop_core.serialize import FORMAT_VERSION, TAG_KEY, parse_document, structure, tag_of, unstructure
from tabletop_core.spec import CHANCE, TERMINAL

__all__ = ["RECORD_FORMAT", "Record", "library_version", "options_from_json", "options_json", "play", "replay"]

RECORD_FORMAT = "tabletop-rules/record"


def library_version() -> str:
    """The installed version of tabletop-rules."""
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

    def to_json(self) -> str:
        """The record as a JSON document."""
        doc = {"format": RECORD_FORMAT, "version": FORMAT_VERSION, "record": unstructure(self)}
        return json.dumps(doc, separators=(",", ":"), allow_nan=False)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Read a record; a record of another format version or a corrupted one raises ``StateFormatError``."""
        doc = parse_document(text, expected_format=RECORD_FORMAT)
        if set(doc) != {"format", "version", "record"}:
            raise StateFormatError(f"record keys must be format, version, record; got {sorted(doc)}")
        rec: Record = structure(doc["record"], cls)
        return rec


def options_json(options: Any) -> dict[str, Any]:
    """The JSON form of a game's options object (what a record stores)."""
    data = unstructure(options)
    data.pop(TAG_KEY, None)
    return dict(data)


def options_from_json(game: Any, data: Mapping[str, Any]) -> Any:
    """Rebuild a game's options object from :func:`options_json`'s form (types restored by the converter)."""
    body = dict(data)
    tag = tag_of(game.options_type)
    if tag is not None:
        body[TAG_KEY] = tag
    return structure(body, game.options_type)


def play(
    game: Any,
    agents: Sequence[Agent | SearchAgent],
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int | None = None,
) -> tuple[Any, Record]:
    """Play one game: chance from ``np.random.default_rng(seed)``, decisions from ``agents`` (one per player).

    Agents share the runner's generator, so a seed fixes the whole game. Returns the final state and its record.
    """
    opts = game.make_options(**dict(options or {}))
    state = game.initial_state(opts)
    n = game.num_players(state)
    if len(agents) != n:
        raise OptionError(f"{game.spec.short_name}: {n} players need {n} agents, got {len(agents)}")
    rng = np.random.default_rng(seed)
    ids: list[int] = []
    limit = max_steps if max_steps is not None else game.spec.max_game_length
    while True:
        player = game.current_player(state)
        if player == TERMINAL or len(ids) >= limit:
            break
        if player == CHANCE:
            action = sample_outcome(game.chance_outcomes(state), rng)
        else:
            action = choose_action(agents[player], game, state, player, rng)
        state = game.step(state, action)
        ids.append(game.action_id(action))
    returns = tuple(game.returns(state)) if game.is_terminal(state) else None
    record = Record(game.spec.short_name, options_json(opts), seed, tuple(ids), returns)
    return state, record


def replay(record: Record | str, game: Any = None, *, states: bool = False) -> Any:
    """Replay a record and return its final state (or every state when ``states=True``).

    ``game`` defaults to the installed game named by the record. A record whose actions are illegal, whose
    game differs or whose stated returns do not match raises ``StateFormatError``.
    """
    if isinstance(record, str):
        record = Record.from_json(record)
    if game is None:
        from tabletop_core.registry import load_game

        game = load_game(record.game)
    if record.game != game.spec.short_name:
        raise StateFormatError(f"record is of game {record.game!r}, not {game.spec.short_name!r}")
    try:
        state = game.initial_state(options_from_json(game, record.options))
    except TabletopError as exc:
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
