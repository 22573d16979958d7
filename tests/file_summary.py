"""A pytest plugin that prints one line per test file as soon as all of the file's tests have run.

``make test`` loads it (``-p tests.file_summary``) so that a long run reads as a list of files with their counts
and times, instead of minutes of dots. It works with and without ``pytest-xdist``: under xdist, the controller
learns each file's tests from the workers' collections and counts the reports they send back.

A line reads ``tests/core/test_flow.py  41 passed  3.2 s``, with failures, errors and skips counted when there are
any, and the time the sum of the file's test durations (on all workers).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import pytest

OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


class FileSummary:
    """Counts the reports of each file's tests and writes a line for a file once its last test has reported."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.expected: dict[str, set[str]] = {}
        self.seen: dict[str, set[str]] = defaultdict(set)
        self.counts: dict[str, Counter[str]] = defaultdict(Counter)
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.printed: set[str] = set()

    def expect(self, nodeids: Sequence[str]) -> None:
        """Record the tests to wait for (every worker collects the same tests; the first collection is kept)."""
        if self.expected:
            return
        for nodeid in nodeids:
            self.expected.setdefault(_file_of(nodeid), set()).add(nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if not hasattr(self.config, "workerinput"):  # the process that runs the tests itself (no xdist)
            self.expect([item.nodeid for item in session.items])

    def pytest_xdist_node_collection_finished(self, node: Any, ids: Sequence[str]) -> None:
        self.expect(ids)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        name = _file_of(report.nodeid)
        self.seconds[name] += report.duration
        outcome = ""
        if report.when == "call" or (report.when == "setup" and not report.passed):
            if hasattr(report, "wasxfail"):
                outcome = "xfailed" if report.skipped else "xpassed"
            elif report.when == "setup" and report.failed:
                outcome = "error"
            else:
                outcome = report.outcome
        elif report.when == "teardown" and report.failed:
            outcome = "error"
        if outcome:
            self.counts[name][outcome] += 1
        if report.when == "teardown":
            self.seen[name].add(report.nodeid)
            self._maybe_print(name)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_report_teststatus(self, report: pytest.TestReport, config: pytest.Config) -> Any:
        """Keep each test's category and word, drop its progress letter: the file lines replace the dots."""
        outcome = yield
        result = outcome.get_result()
        if isinstance(result, tuple) and len(result) == 3 and config.get_verbosity() <= 0:
            outcome.force_result((result[0], "", result[2]))

    def _maybe_print(self, name: str) -> None:
        expected = self.expected.get(name)
        if name in self.printed or expected is None or not expected <= self.seen[name]:
            return
        self.printed.add(name)
        counts = self.counts[name]
        parts = [f"{counts[o]} {o}" for o in OUTCOMES if counts[o]]
        bad = counts["failed"] or counts["error"]
        line = f"{name}  {', '.join(parts) or 'no tests'}  {self.seconds[name]:.1f} s"
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(line, red=bool(bad), green=not bad)


def pytest_configure(config: pytest.Config) -> None:
    """Register the summary in the process that reports (not in xdist's workers)."""
    if hasattr(config, "workerinput"):
        return
    config.pluginmanager.register(FileSummary(config), "tabletop-file-summary")
