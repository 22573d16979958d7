"""Two servers on one database (two processes, each with its own store): a move is committed by one of them only.

Each server reads the match, applies the move and commits it only if the stored match is still at the move it read
(one conditional UPDATE). These tests make the other server commit in the gap between one server's read and its
commit, on an SQLite file and on PostgreSQL (skipped where it is not installed), through the same code.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tabletop_core.server.app import build_app
from tabletop_core.server.store import MatchRow, Store


@contextmanager
def _servers(url: str) -> Iterator[tuple[Any, Any]]:
    """Two apps on the database at ``url``, as two ``tabletop serve`` processes would be."""
    with warnings.catch_warnings():
        # Starlette's test client asks for another HTTP client package; httpx is the one installed.
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient

    apps = [build_app(url, rate=1000) for _ in range(2)]
    try:
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            yield a, b
    finally:
        for app in apps:
            app.state.store.engine.dispose()


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _first_in_the_gap(loser: Any, winner_move: Callable[[], Any]) -> list[Any]:
    """Make ``loser``'s next commit find the match moved on: ``winner_move`` runs just before it; its answers."""
    store: Store = loser.app.state.store
    commit = store.commit
    answers: list[Any] = []

    def late(row: MatchRow, *, read_at: int) -> bool:
        if not answers:
            answers.append(winner_move())
        return commit(row, read_at=read_at)

    store.commit = late  # type: ignore[method-assign]  # this one store, for this test: the other server's timing
    return answers


def _match(a: Any, seats: list[str]) -> tuple[str, list[str], list[dict[str, Any]]]:
    made = a.post("/api/matches", json={"game": "unrest", "seats": seats}).json()
    tokens = [s["token"] for s in made["seats"] if s["token"]]
    legal = a.get(f"/api/matches/{made['match']}", headers=_auth(tokens[0])).json()["legal"]
    return made["match"], tokens, legal


def test_two_servers_never_both_accept_a_move_for_one_match(database_url: str) -> None:
    """Two different moves for move 0 reach two servers at once: one is applied, the other refused with why."""
    with _servers(database_url) as (a, b):
        mid, tokens, legal = _match(a, ["human", "human"])
        assert len(legal) >= 2
        first, second = legal[0]["id"], legal[1]["id"]
        won = _first_in_the_gap(
            b, lambda: a.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[0]), json={"move": 0, "action": first})
        )
        lost = b.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[0]), json={"move": 0, "action": second})
        assert won[0].status_code == 200 and won[0].json()["applied"] is True
        assert lost.status_code == 409
        assert lost.json()["error"] == "another move was committed first: move 0 is already played; the next is 1"
        for server in (a, b):
            view = server.get(f"/api/matches/{mid}").json()
            assert view["move"] == 1 and len(view["log"]) == 1
        row = a.app.state.store.get(mid)
        assert row is not None and [e["action"] for e in row.log] == [first]


def test_a_move_retried_on_the_other_server_is_applied_once(database_url: str) -> None:
    """The same move sent to both servers (a client retrying through another one): applied once, the copy told so."""
    with _servers(database_url) as (a, b):
        mid, tokens, legal = _match(a, ["human", "bot:random"])
        move = {"move": 0, "action": legal[0]["id"]}
        won = _first_in_the_gap(b, lambda: a.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[0]), json=move))
        copy = b.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[0]), json=move)
        assert won[0].status_code == 200 and won[0].json()["applied"] is True
        assert copy.status_code == 200 and copy.json()["applied"] is False
        row = a.app.state.store.get(mid)
        assert row is not None
        assert copy.json()["view"] == won[0].json()["view"]  # the copy is answered with the committed match
        assert row.move_no == copy.json()["view"]["move"] and row.log[0]["action"] == legal[0]["id"]
        assert sum(e["seat"] == 0 for e in row.log) == 1  # the person's move is in the log once


def test_a_stale_commit_changes_nothing(database_url: str) -> None:
    """The store's conditional commit: a row read at a move the match has left is not written."""
    with _servers(database_url) as (a, _):
        mid, tokens, legal = _match(a, ["human", "human"])
        store: Store = a.app.state.store
        before = store.get(mid)
        assert before is not None
        a.post(f"/api/matches/{mid}/moves", headers=_auth(tokens[0]), json={"move": 0, "action": legal[0]["id"]})
        after = store.get(mid)
        assert after is not None and after.move_no == 1
        assert store.commit(before, read_at=0) is False
        assert store.get(mid) == after
        assert store.commit(after, read_at=1) is True
