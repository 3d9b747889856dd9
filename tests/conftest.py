"""Hypothesis profiles: "ci" (default, fast) and "slow" (thorough, by hand), picked by the
VNCARDS_PROFILE environment variable. Long simulations are marked ``slow`` and deselected by
default (see pyproject.toml); run them with ``make test-slow``."""

from __future__ import annotations

import os
import sysconfig
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from support.tree import IN_SOURCE_TREE, REASON

#: ``VNCARDS_NO_SKIPS=1`` (``.ci/run``) fails a run that skipped a test.
pytest_plugins = ["support.no_skips", "pytester"]

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile(
    "slow",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("VNCARDS_PROFILE", "ci"))


def slow_profile() -> bool:
    """True when the thorough profile is selected (simulations scale their counts up)."""
    return os.environ.get("VNCARDS_PROFILE", "ci") == "slow"


# ---- running against an installed wheel (`make check-wheel`) ----------------------------------


def pytest_report_header(config: pytest.Config) -> str:
    """Which vncards the run tests: the checkout's build or an installed wheel."""
    import vncards

    where = "source tree" if IN_SOURCE_TREE else "installed package"
    return f"vncards {vncards.__version__} from {Path(vncards.__file__).parent} ({where})"


def pytest_sessionstart(session: pytest.Session) -> None:
    """With VNCARDS_EXPECT_INSTALLED=1 (set by the wheel check) refuse to test any vncards but
    the one installed in this interpreter's site-packages."""
    if os.environ.get("VNCARDS_EXPECT_INSTALLED") != "1":
        return
    import vncards

    package = Path(vncards.__file__).resolve().parent
    site = {Path(sysconfig.get_paths()[key]).resolve() for key in ("purelib", "platlib")}
    if package.parent not in site:
        raise pytest.UsageError(f"vncards imported from {package}, not from site-packages {sorted(site)}")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Outside a checkout, say how many tests skipped because they need it."""
    if IN_SOURCE_TREE:
        return
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple) and REASON in str(report.longrepr[2])
    ]
    terminalreporter.write_line(f"source-tree skips: {len(skipped)} tests skipped ({REASON})")
