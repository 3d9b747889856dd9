"""The ``VNCARDS_NO_SKIPS`` plugin (``tests/support/no_skips.py``): CI fails a run that skipped
a test, so an optional integration cannot silently stop being tested."""

from __future__ import annotations

import pytest

SUITE = """
import pytest

def test_runs():
    pass

def test_skips():
    pytest.skip("an optional dependency is missing")
"""


def test_a_skip_fails_the_run_under_the_flag(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(SUITE)
    monkeypatch.setenv("VNCARDS_NO_SKIPS", "1")
    result = pytester.runpytest("-p", "support.no_skips")
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["*VNCARDS_NO_SKIPS=1: skipped*test_skips*an optional dependency is missing*"]
    )


def test_without_the_flag_a_skip_is_a_skip(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(SUITE)
    monkeypatch.delenv("VNCARDS_NO_SKIPS", raising=False)
    result = pytester.runpytest("-p", "support.no_skips")
    result.assert_outcomes(passed=1, skipped=1)
    assert result.ret == pytest.ExitCode.OK


def test_a_run_without_skips_passes_under_the_flag(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile("def test_runs():\n    pass\n")
    monkeypatch.setenv("VNCARDS_NO_SKIPS", "1")
    assert pytester.runpytest("-p", "support.no_skips").ret == pytest.ExitCode.OK
