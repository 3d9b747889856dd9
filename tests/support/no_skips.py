"""A pytest plugin: with ``VNCARDS_NO_SKIPS=1`` a skipped test fails the run. ``.ci/run``
installs every extra and starts every service the suite uses, so there a skip means an
optional integration silently stopped being tested (a dependency renamed, a service missing),
which would otherwise pass as green."""

from __future__ import annotations

import os
from typing import Any

import pytest

ENV = "VNCARDS_NO_SKIPS"


def _skipped(config: pytest.Config) -> list[Any]:
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    return list(reporter.stats.get("skipped", [])) if reporter is not None else []


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name each skip that fails the run, with its reason."""
    if os.environ.get(ENV) != "1":
        return
    for report in _skipped(config):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        terminalreporter.write_line(f"{ENV}=1: skipped {report.nodeid}: {reason}", red=True)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail a run that passed but skipped a test."""
    if os.environ.get(ENV) == "1" and exitstatus == pytest.ExitCode.OK and _skipped(session.config):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
