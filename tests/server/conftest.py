"""The server under test, in process, on an SQLite file in a temporary folder."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
