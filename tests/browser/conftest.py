"""A real headless Chromium for the page tests: Debian's ``chromium`` (``make test`` installs it when it can), driven
by Playwright. Where neither is there, the tests skip and say why."""

from __future__ import annotations

import os
import shutil
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
