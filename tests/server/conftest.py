"""The server under test, in process, on an SQLite file in a temporary folder."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tests.server.postgres import Cluster

pytest.importorskip("starlette", reason="the server extra is not installed")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with warnings.catch_warnings():
        # Starlette's test client asks for another HTTP client package; httpx is the one installed.
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient

        from tabletop_core.server.app import build_app

        app = build_app(f"sqlite:///{tmp_path / 'matches.db'}", rate=60)
        with TestClient(app) as c:
            yield c


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A throwaway PostgreSQL cluster for the session (see tests/server/postgres.py), stopped and removed after.

    Skipped where PostgreSQL or its driver is not installed; a PostgreSQL that is installed but does not start fails.
    """
    pytest.importorskip("psycopg", reason="psycopg 3, PostgreSQL's driver (pip install 'psycopg[binary]'), is missing")
    from tests.server.postgres import ENV, ClusterError, find_binaries, running_cluster

    try:
        binaries = find_binaries()
    except ClusterError as exc:
        pytest.fail(str(exc))
    if binaries is None:
        pytest.skip(
            f"PostgreSQL is not installed: no initdb and pg_ctl on PATH, in /usr/lib/postgresql/*/bin or ${ENV}"
        )
    try:
        with running_cluster(binaries) as cluster:
            yield cluster
    except ClusterError as exc:
        pytest.fail(f"PostgreSQL is installed in {binaries} but its throwaway cluster failed: {exc}")


@pytest.fixture
def postgres_url(postgres_cluster: Cluster) -> str:
    """The URL of a new, empty database in the session's PostgreSQL cluster."""
    return postgres_cluster.create_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL: an SQLite file, then a PostgreSQL database (skipped where PostgreSQL is missing)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'matches.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def postgres_client(postgres_url: str) -> Iterator[Any]:
    """The server under test, in process, on a new PostgreSQL database (as ``client`` is on SQLite)."""
    with warnings.catch_warnings():
        # Starlette's test client asks for another HTTP client package; httpx is the one installed.
        warnings.simplefilter("ignore", DeprecationWarning)
        from starlette.testclient import TestClient

    from tabletop_core.server.app import build_app

    app = build_app(postgres_url, rate=60)
    try:
        with TestClient(app) as c:
            yield c
    finally:
        app.state.store.engine.dispose()
