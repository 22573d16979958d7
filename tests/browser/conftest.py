"""A real headless Chromium for the page tests: Debian's ``chromium`` (``make test`` installs it when it can), driven
by Playwright. Where neither is there, the tests skip and say why."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def chromium_path() -> str | None:
    """The browser to drive: ``$CHROMIUM``, else the first installed of :data:`CANDIDATES`."""
    given = os.environ.get("CHROMIUM")
    if given:
        return given if os.access(given, os.X_OK) else None
    for path in CANDIDATES:
        if os.access(path, os.X_OK):
            return path
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole session (starting it costs about a second)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test-browser]' or make test)"
    )
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: `make test` installs Debian's chromium when run as root; set CHROMIUM=PATH otherwise")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield b
        finally:
            b.close()


class LiveServer:
    """A real ``tabletop serve`` app under uvicorn on loopback, in a thread: its ``base`` URL and its ``store``.

    :meth:`stop` shuts the server down (its WebSockets are closed) and :meth:`start` starts it again on the same
    port and database, as a restarted server would be.
    """

    def __init__(self, app: Any, port: int) -> None:
        self.app, self.port = app, port
        self.base, self.store = f"http://127.0.0.1:{port}", app.state.store
        self.server: Any = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        import uvicorn

        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and self.thread.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.server.started, "the server did not start"

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(timeout=30)
            assert not self.thread.is_alive(), "the server did not stop"
        self.server = self.thread = None


@pytest.fixture
def live_server(tmp_path: Any) -> Iterator[LiveServer]:
    """The server on an SQLite file in ``tmp_path``, on a free loopback port, stopped after the test."""
    import importlib.util

    pytest.importorskip("starlette", reason="the server extra is not installed")
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    from tabletop_core.server.app import build_app

    # Without one of these uvicorn refuses every WebSocket upgrade, and the match pages never get a view.
    assert importlib.util.find_spec("websockets") or importlib.util.find_spec("wsproto"), (
        "uvicorn has no WebSocket library: the server extra must bring websockets (or wsproto)"
    )
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    # A page plays every move of its seat; the default rate (100 in 10 s) is for the open internet, not this test.
    live = LiveServer(build_app(f"sqlite:///{tmp_path / 'matches.db'}", rate=100_000), port)
    live.start()
    try:
        yield live
    finally:
        live.stop()
