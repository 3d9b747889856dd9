"""Hypothesis profiles: "ci" (default, fast) and "slow" (thorough, by hand), picked by the
VNCARDS_PROFILE environment variable. Long simulations are marked ``slow`` and deselected by
default (see pyproject.toml); run them with ``make test-slow``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
