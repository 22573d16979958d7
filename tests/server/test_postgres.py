"""The server on PostgreSQL through the same code as on SQLite: migrations, the API, retries, a server killed mid-match.

The cluster is a throwaway one made for the session (tests/server/postgres.py); where PostgreSQL is not installed
these tests are skipped, and where it is installed but does not start they fail.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import threading
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, select, text, update

from tabletop_core.server import store as store_module
from tabletop_core.server.app import build_app
from tabletop_core.server.store import MATCHES, METADATA, Store
from tests.server import test_api, test_live
from tests.server.postgres import Cluster, start_serve

#: The API tests of test_api.py and test_live.py that touch the database, run again on PostgreSQL.
REUSED: list[Callable[[Any], None]] = [
    test_api.test_a_seat_plays_a_whole_match_against_a_built_in_bot,
    test_api.test_a_retried_move_number_is_applied_once,
    test_api.test_wrong_and_other_seats_tokens_are_refused_with_nothing_changed,
    test_api.test_malformed_and_oversized_messages_are_refused_with_nothing_changed,
    test_api.test_a_seat_is_told_nothing_of_what_it_may_not_know,
    test_live.test_websocket_moves_are_acknowledged_and_every_watcher_is_sent_its_own_view,
]


def _head() -> str:
    """The newest committed migration."""
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(store_module.__file__).parent / "_migrations"))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


def test_the_migrations_build_the_stores_schema_on_an_empty_database(database_url: str) -> None:
    """alembic upgrade head on an empty database gives exactly the tables and columns the store's code declares."""
    engine = create_engine(database_url)
    try:
        assert inspect(engine).get_table_names() == []
        Store(database_url).engine.dispose()
        Store(database_url).engine.dispose()  # a restart on a migrated database changes nothing
        with engine.connect() as conn:
            assert sorted(inspect(conn).get_table_names()) == ["alembic_version", "matches"]
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all() == [_head()]
            assert compare_metadata(MigrationContext.configure(conn), METADATA) == []
    finally:
        engine.dispose()


@pytest.mark.parametrize("check", REUSED, ids=lambda f: f.__name__.removeprefix("test_"))
def test_the_api_tests_pass_on_postgresql(postgres_client: Any, check: Callable[[Any], None]) -> None:
    check(postgres_client)
    store: Store = postgres_client.app.state.store
    assert store.engine.dialect.name == "postgresql" and store.ids()  # the matches were stored in PostgreSQL


def test_concurrent_copies_of_one_move_are_applied_once(database_url: str) -> None:
    """Eight copies of one move sent at once (a bot retrying a lost answer): one is applied, seven are told so."""
    app = build_app(database_url, rate=1000)

    async def run() -> tuple[list[httpx.Response], dict[str, Any]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            made = (await http.post("/api/matches", json={"game": "unrest", "seats": ["human", "human"]})).json()
            mid, auth = made["match"], {"authorization": f"Bearer {made['seats'][0]['token']}"}
            view = (await http.get(f"/api/matches/{mid}", headers=auth)).json()
            move = {"move": 0, "action": view["legal"][0]["id"]}
            answers = await asyncio.gather(
                *(http.post(f"/api/matches/{mid}/moves", headers=auth, json=move) for _ in range(8))
            )
            return list(answers), (await http.get(f"/api/matches/{mid}")).json()

    # In a thread of its own: an xdist worker that ran the browser tests before has Playwright's loop running here.
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(asyncio.run(run())))
    try:
        worker.start()
        worker.join(120)
        assert done, "the concurrent moves did not finish"
        answers, after = done[0]
    finally:
        app.state.store.engine.dispose()
    assert [r.status_code for r in answers] == [200] * 8
    assert sorted(r.json()["applied"] for r in answers) == [False] * 7 + [True]
    assert after["move"] == 1 and len(after["log"]) == 1


def _play(http: httpx.Client, mid: str, tokens: list[str], moves: int) -> dict[str, Any]:
    """As test_live._play, on one connection: up to ``moves`` moves (each seat's last legal one); the final view."""
    for _ in range(moves):
        views = [http.get(f"/api/matches/{mid}", headers={"authorization": f"Bearer {t}"}).json() for t in tokens]
        if views[0]["finished"]:
            break
        seat = next(p for p, v in enumerate(views) if v["legal"])
        move = {"move": views[seat]["move"], "action": views[seat]["legal"][-1]["id"]}
        r = http.post(f"/api/matches/{mid}/moves", headers={"authorization": f"Bearer {tokens[seat]}"}, json=move)
        assert r.status_code == 200, r.text
    view: dict[str, Any] = http.get(f"/api/matches/{mid}").json()
    return view


def test_a_match_killed_mid_way_on_postgresql_ends_as_an_uninterrupted_one(postgres_url: str) -> None:
    """test_live's restart test on PostgreSQL: SIGKILL the real server three times mid-match, start it again on the
    same database; the match ends exactly as its twin (same seed) played without a break."""
    # private: a helper of the live-server tests, shared with them
    port = test_live._free_port()
    proc = start_serve(postgres_url, port)
    engine = create_engine(postgres_url)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            made = [
                http.post("/api/matches", json={"game": "unrest", "seats": ["human", "human"]}).json() for _ in "ab"
            ]
        ids = [m["match"] for m in made]
        toks = [[s["token"] for s in m["seats"]] for m in made]
        with engine.begin() as conn:  # the twin: the second match gets the first's seed and state
            seed, state = conn.execute(select(MATCHES.c.seed, MATCHES.c.state).where(MATCHES.c.id == ids[0])).one()
            conn.execute(update(MATCHES).where(MATCHES.c.id == ids[1]).values(seed=seed, state=state))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            whole = _play(http, ids[0], toks[0], 10_000)
        played = []
        for _ in range(3):
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                played.append(_play(http, ids[1], toks[1], 7)["move"])
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            proc = start_serve(postgres_url, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            cut = _play(http, ids[1], toks[1], 10_000)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        engine.dispose()
    assert played == [7, 14, 21]  # the kills came mid-match, each after its acknowledged moves were kept
    assert whole["finished"] and cut["finished"] and cut["move"] > played[-1]
    assert {**whole, "match": ""} == {**cut, "match": ""}


def test_a_postgresql_restarted_under_a_running_server_fails_no_request(
    postgres_cluster: Cluster, postgres_url: str
) -> None:
    """The database goes away and comes back (a restart, a failover): the server's next requests all succeed, on
    fresh connections, and the match goes on from its last move."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Starlette's test client asks for another httpx
        from starlette.testclient import TestClient

    app = build_app(postgres_url, rate=1000)
    try:
        with TestClient(app, raise_server_exceptions=False) as http:
            made = http.post("/api/matches", json={"game": "unrest", "seats": ["human", "human"]}).json()
            mid, auth = made["match"], {"authorization": f"Bearer {made['seats'][0]['token']}"}
            view = http.get(f"/api/matches/{mid}", headers=auth).json()
            postgres_cluster.restart()
            r = http.post(f"/api/matches/{mid}/moves", headers=auth, json={"move": 0, "action": view["legal"][0]["id"]})
            assert r.status_code == 200 and r.json()["applied"] is True, r.text
            assert [http.get(f"/api/matches/{mid}").status_code for _ in range(3)] == [200] * 3
    finally:
        app.state.store.engine.dispose()


def test_a_pg_dump_backup_restored_into_a_new_database_goes_on(postgres_cluster: Cluster, postgres_client: Any) -> None:
    """The backup of docs/serve.md: pg_dump while the server runs, pg_restore into an empty database, a server
    started on it has every match at its last move, and plays on."""
    # private: helpers of the API tests, shared with them
    made = test_api._create(postgres_client, ["human", "human"])
    mid, auth = made["match"], test_api._auth(made["seats"][0]["token"])
    view = postgres_client.get(f"/api/matches/{mid}", headers=auth).json()
    postgres_client.post(f"/api/matches/{mid}/moves", headers=auth, json={"move": 0, "action": view["legal"][0]["id"]})
    before = postgres_client.get(f"/api/matches/{mid}").json()
    dump = postgres_cluster.folder / f"{mid}.dump"
    source = postgres_client.app.state.store.url
    restored = postgres_cluster.create_database()
    libpq = [u.replace("postgresql+psycopg://", "postgresql://") for u in (source, restored)]
    tools = postgres_cluster.binaries
    for command in (
        [tools / "pg_dump", "--format=custom", "--file", dump, libpq[0]],
        [tools / "pg_restore", "--no-owner", "--exit-on-error", "--dbname", libpq[1], dump],
    ):
        done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
    app = build_app(restored, rate=1000)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            from starlette.testclient import TestClient

        with TestClient(app) as http:
            assert http.get(f"/api/matches/{mid}").json() == before
            seats = [test_api._auth(s["token"]) for s in made["seats"]]
            views = [http.get(f"/api/matches/{mid}", headers=h).json() for h in seats]
            seat = next(p for p, v in enumerate(views) if v["legal"])
            move = {"move": 1, "action": views[seat]["legal"][0]["id"]}
            r = http.post(f"/api/matches/{mid}/moves", headers=seats[seat], json=move)
            assert r.status_code == 200 and r.json()["view"]["move"] == 2, r.text
    finally:
        app.state.store.engine.dispose()
