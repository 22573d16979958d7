"""Shared test settings: hypothesis runs without deadlines (2-core CI) and derandomized under CI."""

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None, max_examples=60)
settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def sigint_for_children() -> Iterator[None]:
    """Let the processes a test starts receive Ctrl-C (SIGINT) as from a person's terminal.

    A test run started in the background of a shell without job control (``make test &``, ``nohup ... &``)
    ignores SIGINT, and a child inherits an ignored signal across ``exec``: the command under test would never see
    the Ctrl-C the test sends. A handled signal is reset to its default in the child, so the fixture installs
    Python's own handler here for the test's length.
    """
    before = signal.getsignal(signal.SIGINT)
    if before is not signal.SIG_IGN:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
