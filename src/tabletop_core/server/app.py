"""The ASGI application of ``tabletop serve``: a JSON API, a WebSocket per watcher, and the lobby and match pages."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from tabletop_core.server.matches import MatchError, Matches
from tabletop_core.server.pages import LOBBY, MATCH
from tabletop_core.server.store import Store

__all__ = ["MAX_MESSAGE", "RATE", "build_app"]

#: The largest request body or WebSocket message accepted, in bytes.
MAX_MESSAGE = 4096
#: At most this many requests a client (its token, else its address) in any 10 s.
RATE = 100


class _Limiter:
    def __init__(self, rate: int, window: float = 10.0) -> None:
        self.rate, self.window = rate, window
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def wait(self, who: str) -> int:
        """0 if ``who`` may make a request now (and count it); else the whole seconds until it may."""
        now = time.monotonic()
        q = self.seen[who]
        while q and q[0] <= now - self.window:
            q.popleft()
        if len(q) >= self.rate:
            return max(1, math.ceil(q[0] + self.window - now))
        q.append(now)
        return 0


def _error(message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def build_app(database: str, *, rate: int = RATE, window: float = 10.0) -> Starlette:
    """The server on the database at ``database`` (an SQLAlchemy URL), migrated to the current schema.

    A client (its seat token, else its address) may make ``rate`` requests in any ``window`` seconds; past that it
    is answered 429 with a ``Retry-After`` header (on a WebSocket: an error message with ``retry_after``).
    """
    matches = Matches(Store(database))
    limiter = _Limiter(rate, window)
    watchers: dict[str, set[tuple[WebSocket, int | None]]] = defaultdict(set)
    locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def body(request: Request) -> dict[str, Any]:
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE:
                raise MatchError(f"the request is larger than {MAX_MESSAGE} bytes", 413)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise MatchError("the request is not JSON") from None
        if not isinstance(data, dict):
            raise MatchError("the request must be a JSON object")
        return data

    def client(request: Request | WebSocket, token: str | None) -> str:
        return token or (request.client.host if request.client else "?")

    async def broadcast(match_id: str) -> None:
        row = matches.get(match_id)
        for ws, seat in list(watchers[match_id]):
            try:
                await ws.send_json({"type": "view", "view": matches.view(row, seat)})
            except (RuntimeError, WebSocketDisconnect):
                watchers[match_id].discard((ws, seat))

    async def guarded(request: Request, token: str | None, work: Callable[[], Awaitable[Response]]) -> Response:
        wait = limiter.wait(client(request, token))
        if wait:
            return _error("too many requests; slow down", 429, {"retry-after": str(wait)})
        try:
            return await work()
        except MatchError as exc:
            return _error(str(exc), exc.status)

    async def lobby(request: Request) -> Response:
        return HTMLResponse(LOBBY)

    async def match_page(request: Request) -> Response:
        return HTMLResponse(MATCH)

    async def games(request: Request) -> Response:
        return JSONResponse({"games": list(matches.names)})

    async def seats(request: Request) -> Response:
        async def work() -> Response:
            game, raw = request.path_params["game"], request.query_params.get("options") or "{}"
            if len(raw.encode()) > MAX_MESSAGE:
                raise MatchError(f"the options are larger than {MAX_MESSAGE} bytes", 413)
            try:
                options = json.loads(raw)
            except ValueError:
                raise MatchError("the options are not JSON") from None
            if not isinstance(options, dict):
                raise MatchError("the options must be a JSON object")
            names = matches.seat_names(game, options)
            return JSONResponse({"game": game, "seats": [{"seat": p, "name": n} for p, n in enumerate(names)]})

        return await guarded(request, None, work)

    async def create(request: Request) -> Response:
        async def work() -> Response:
            data = await body(request)
            game, options, seats = data.get("game"), data.get("options", {}), data.get("seats")
            if not isinstance(game, str) or not isinstance(options, dict) or not isinstance(seats, list):
                raise MatchError("create needs 'game' (text), 'seats' (a list) and optional 'options' (an object)")
            if not all(isinstance(s, str) for s in seats):
                raise MatchError("each seat is 'human', 'open' or 'bot:SPEC'")
            row = matches.create(game, options, seats)
            base = str(request.base_url).rstrip("/")
            return JSONResponse(
                {
                    "match": row.id,
                    "seats": [
                        {
                            "seat": p,
                            "kind": s["kind"],
                            "token": s["token"] or None,
                            "link": f"{base}/match/{row.id}#token={s['token']}" if s["token"] else None,
                        }
                        for p, s in enumerate(row.seats)
                    ],
                    "watch": f"{base}/match/{row.id}",
                },
                status_code=201,
            )

        return await guarded(request, None, work)

    async def show(request: Request) -> Response:
        token = request.headers.get("authorization", "").removeprefix("Bearer ").strip() or None

        async def work() -> Response:
            row = matches.get(request.path_params["match_id"])
            return JSONResponse(matches.view(row, matches.seat_of(row, token)))

        return await guarded(request, token, work)

    async def move(request: Request) -> Response:
        token = request.headers.get("authorization", "").removeprefix("Bearer ").strip() or None
        match_id = request.path_params["match_id"]

        async def work() -> Response:
            data = await body(request)
            async with locks[match_id]:
                row, applied = matches.move(match_id, token, data.get("move"), data.get("action"))
            if applied:
                await broadcast(match_id)
            return JSONResponse(
                {"applied": applied, "view": matches.view(row, matches.seat_of(row, token))}, status_code=200
            )

        return await guarded(request, token, work)

    async def record(request: Request) -> Response:
        async def work() -> Response:
            return JSONResponse(matches.record(matches.get(request.path_params["match_id"])))

        return await guarded(request, None, work)

    async def socket(ws: WebSocket) -> None:
        match_id = ws.path_params["match_id"]
        token = ws.query_params.get("token") or None
        await ws.accept()
        try:
            row = matches.get(match_id)
            seat = matches.seat_of(row, token)
        except MatchError as exc:
            await ws.send_json({"type": "error", "error": str(exc)})
            await ws.close(code=1008)
            return
        watchers[match_id].add((ws, seat))
        try:
            await ws.send_json({"type": "view", "view": matches.view(row, seat)})
            while True:
                raw = await ws.receive_text()
                wait = limiter.wait(client(ws, token))
                if wait:
                    await ws.send_json({"type": "error", "error": "too many messages; slow down", "retry_after": wait})
                    continue
                if len(raw.encode()) > MAX_MESSAGE:
                    await ws.send_json({"type": "error", "error": f"the message is larger than {MAX_MESSAGE} bytes"})
                    continue
                try:
                    data = json.loads(raw)
                    if not isinstance(data, dict):
                        raise MatchError("a message must be a JSON object")
                    async with locks[match_id]:
                        row, applied = matches.move(match_id, token, data.get("move"), data.get("action"))
                except MatchError as exc:
                    await ws.send_json({"type": "error", "error": str(exc)})
                    continue
                except ValueError:
                    await ws.send_json({"type": "error", "error": "the message is not JSON"})
                    continue
                await ws.send_json({"type": "ack", "move": data.get("move"), "applied": applied})
                if applied:
                    await broadcast(match_id)
                else:
                    await ws.send_json({"type": "view", "view": matches.view(row, seat)})
        except WebSocketDisconnect:
            pass
        finally:
            watchers[match_id].discard((ws, seat))

    routes = [
        Route("/", lobby),
        Route("/match/{match_id}", match_page),
        Route("/api/games", games),
        Route("/api/games/{game}/seats", seats),
        Route("/api/matches", create, methods=["POST"]),
        Route("/api/matches/{match_id}", show),
        Route("/api/matches/{match_id}/moves", move, methods=["POST"]),
        Route("/api/matches/{match_id}/record", record),
        WebSocketRoute("/ws/matches/{match_id}", socket),
    ]
    app = Starlette(routes=routes)
    app.state.store = matches.store
    app.state.matches = matches
    return app
