"""Matches held by the server: created, moved through the game's ``step``, bots played, each seat's view built.

The server alone holds states. Chance is resolved with the server's own generator, seeded per match and per move
(the same seed and move always draw the same), so a match reloaded from the database goes on as it would have.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from typing import Any, TypeVar

import attrs
import numpy as np

from tabletop_core.agents.specs import parse_agent_spec
from tabletop_core.errors import TabletopError
from tabletop_core.game import Game
from tabletop_core.registry import available_games, installed_game
from tabletop_core.serialize import state_from_json, to_json
from tabletop_core.server.store import MatchRow, Store

__all__ = ["MatchError", "Matches"]

HUMAN, OPEN, BOT = "human", "open", "bot"

S = TypeVar("S")
A = TypeVar("A")


class MatchError(TabletopError):
    """A request the server refuses; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class _MovedOnError(Exception):
    """Another writer committed a move to the match after it was read."""


def _rng(seed: int, step: int, stream: int) -> np.random.Generator:
    return np.random.default_rng((seed, step, stream))


class Matches:
    """The matches of one store.

    The installed games are looked up once per ``Matches`` (a process's server holds one): resolving a name through
    the entry points costs more than a move.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self.names = available_games()
        self._games: dict[str, Game[Any, Any, Any]] = {}

    def game(self, name: str) -> Game[Any, Any, Any]:
        """The installed game ``name``, resolved on first use and kept; a name no installed game has is refused."""
        found = self._games.get(name)
        if found is None:
            if name not in self.names:
                raise MatchError(f"no installed game named {name[:40]!r}; installed: {', '.join(self.names)}")
            found = self._games[name] = installed_game(name)
        return found

    def seat_names(self, game_name: str, options: dict[str, Any]) -> list[str]:
        """The seats a match of ``game_name`` with ``options`` has, by name (the game's own player count).

        Raises:
            MatchError: for a game that is not installed or options the game refuses.
        """
        game = self.game(game_name)
        try:
            state = game.initial_state(game.make_options(**options))
        except (TabletopError, TypeError) as exc:
            raise MatchError(str(exc)) from None
        return [game.seat_name(state, p) for p in range(game.num_players(state))]

    def create(
        self, game_name: str, options: dict[str, Any], seats: Sequence[str], seed: int | None = None
    ) -> MatchRow:
        game = self.game(game_name)
        match_seed = secrets.randbits(31) if seed is None else seed
        try:
            state = game.new_game(rng=_rng(match_seed, 0, 0), **options)
        except (TabletopError, TypeError) as exc:
            raise MatchError(str(exc)) from None
        n = game.num_players(state)
        if len(seats) != n:
            names = ", ".join(game.seat_name(state, p) for p in range(n))
            raise MatchError(
                f"{game_name} with these options has {n} seat{'s' if n != 1 else ''} ({names}); {len(seats)} given"
            )
        filled: list[dict[str, Any]] = []
        for seat, spec in enumerate(seats):
            kind, _, agent = spec.partition(":")
            if kind == BOT:
                try:
                    parse_agent_spec(agent, allow_import=False).build(game, state, seat)
                except TabletopError as exc:
                    raise MatchError(f"seat {seat}: {exc}") from None
                filled.append({"kind": BOT, "agent": agent, "token": ""})
            elif kind in (HUMAN, OPEN):
                filled.append({"kind": kind, "agent": "", "token": secrets.token_urlsafe(24)})
            else:
                raise MatchError(f"seat {seat}: {spec[:40]!r} is not human, open or bot:SPEC")
        row = MatchRow(
            id=secrets.token_hex(8),
            game=game_name,
            options=dict(options),
            seed=match_seed,
            seats=tuple(filled),
            state=to_json(state),
            log=(),
            move_no=0,
            finished=game.is_terminal(state),
        )
        row = self._play_bots(row)
        self.store.insert(row)
        return row

    def get(self, match_id: str) -> MatchRow:
        row = self.store.get(match_id) if len(match_id) <= 32 else None
        if row is None:
            raise MatchError("no such match", 404)
        return row

    def seat_of(self, row: MatchRow, token: str | None) -> int | None:
        """The seat a token holds (``None`` for a spectator); a wrong token is refused."""
        if not token:
            return None
        for seat, s in enumerate(row.seats):
            if s["token"] and secrets.compare_digest(s["token"], token):
                return seat
        raise MatchError("the token holds no seat of this match", 403)

    def move(self, match_id: str, token: str | None, move_no: object, action_id: object) -> tuple[MatchRow, bool]:
        """Apply a seat's move; returns the stored match and whether this call applied it (False for a retry).

        The move is committed only if the stored match is still at the move it was read at. When another server on
        the same database committed one in between, the match is read again and the move answered as if it had
        come after that one: a copy of the same move is a retry (not applied again), any other move is refused.
        """
        try:
            return self._move(match_id, token, move_no, action_id)
        except _MovedOnError:
            pass
        # Read again, the match is past ``move_no``: the same move is a retry, another one is refused.
        try:
            return self._move(match_id, token, move_no, action_id)
        except MatchError as exc:
            raise MatchError(f"another move was committed first: {exc}", exc.status) from None

    def _move(self, match_id: str, token: str | None, move_no: object, action_id: object) -> tuple[MatchRow, bool]:
        row = self.get(match_id)
        seat = self.seat_of(row, token)
        if seat is None:
            raise MatchError("a spectator cannot move", 403)
        if not isinstance(move_no, int) or isinstance(move_no, bool) or not isinstance(action_id, int):
            raise MatchError("a move needs whole numbers 'move' and 'action'")
        if move_no < row.move_no:
            done = row.log[move_no] if move_no < len(row.log) else None
            if done is not None and done["seat"] == seat and done["action"] == action_id:
                return row, False
            raise MatchError(f"move {move_no} is already played; the next is {row.move_no}", 409)
        if move_no != row.move_no:
            raise MatchError(f"the next move is number {row.move_no}, not {move_no}", 409)
        game = self.game(row.game)
        state = state_from_json(game, row.state)
        if game.is_terminal(state):
            raise MatchError("the match is over", 409)
        if game.current_player(state) != seat:
            raise MatchError("it is not your seat's turn", 409)
        if action_id not in game.legal_action_ids(state):
            raise MatchError(f"action {action_id} is not legal now", 422)
        read_at = row.move_no
        row = self._apply(row, game, state, seat, game.action_from_id(state, action_id))
        row = self._play_bots(row)
        if not self.store.commit(row, read_at=read_at):
            raise _MovedOnError
        return row, True

    def _apply(self, row: MatchRow, game: Game[S, A, Any], state: S, seat: int, action: A) -> MatchRow:
        after = game.step(state, action, rng=_rng(row.seed, row.move_no + 1, 0))
        n = game.num_players(state)
        texts = [list(game.describe(state, action, after, p)) for p in range(n)]
        # What a spectator is told: the game's public description (describe(None) would be the whole truth).
        public = list(game.describe_public(state, action, after))
        entry = {"seat": seat, "action": game.action_id(action), "texts": texts, "public": public}
        return attrs.evolve(
            row,
            state=to_json(after),
            log=(*row.log, entry),
            move_no=row.move_no + 1,
            finished=game.is_terminal(after),
        )

    def _play_bots(self, row: MatchRow) -> MatchRow:
        game = self.game(row.game)
        state = state_from_json(game, row.state)
        while not game.is_terminal(state):
            seat = game.current_player(state)
            spec = row.seats[seat]
            if spec["kind"] != BOT:
                break
            agent = parse_agent_spec(spec["agent"], allow_import=False).build(game, state, seat)
            rng = _rng(row.seed, row.move_no + 1, 1)
            if hasattr(agent, "act_in"):
                action = agent.act_in(game, state, seat, rng)
            else:
                action = agent.act(game.observe(state, seat), game.legal_actions(state), rng)
            row = self._apply(row, game, state, seat, action)
            state = state_from_json(game, row.state)
        return row

    def view(self, row: MatchRow, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may know: its picture, text, log, and its legal moves."""
        game = self.game(row.game)
        state = state_from_json(game, row.state)
        n = game.num_players(state)
        seen = game.public_observation(state) if seat is None else game.observe(state, seat)
        svg = seen.svg() if hasattr(seen, "svg") else ""
        legal: list[dict[str, Any]] = []
        current = game.current_player(state)
        if seat is not None and current == seat:
            legal = [{"id": game.action_id(a), "text": game.action_to_str(state, a)} for a in game.legal_actions(state)]
        log = [e["public"] if seat is None else e["texts"][seat] for e in row.log]
        return {
            "match": row.id,
            "game": row.game,
            "seat": seat,
            "seats": [
                {"name": game.seat_name(state, p), "kind": row.seats[p]["kind"], "agent": row.seats[p]["agent"]}
                for p in range(n)
            ],
            "move": row.move_no,
            "to_move": current if current >= 0 else None,
            "finished": row.finished,
            "returns": list(game.returns(state)) if row.finished else None,
            "picture": svg,
            "log": log,
            "legal": legal,
        }

    def record(self, row: MatchRow) -> dict[str, Any]:
        """The finished match's record: game, options, seed and every move (refused before the end)."""
        if not row.finished:
            raise MatchError("the record is shown once the match is over", 409)
        game = self.game(row.game)
        state = state_from_json(game, row.state)
        return {
            "game": row.game,
            "options": row.options,
            "seed": row.seed,
            "moves": [{"seat": e["seat"], "action": e["action"]} for e in row.log],
            "returns": list(game.returns(state)),
            "final_state": json.loads(row.state),
        }
