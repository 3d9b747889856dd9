"""Runs the examples in every vncards module's docstrings, in README.md and in the docs pages."""

from __future__ import annotations

import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support.modules import module_names
from support.tree import IN_SOURCE_TREE, source_tree

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# Outside a checkout one placeholder stands for the pages, so their skip is counted.
PAGES = (
    [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "docs").rglob("*.md"))]
    if IN_SOURCE_TREE
    else ["docs"]
)


@pytest.mark.parametrize("name", module_names())
def test_module_doctests(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


@source_tree
def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0


@source_tree
@pytest.mark.parametrize("page", PAGES)
def test_docs_page_examples(page: str) -> None:
    result = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0


@source_tree
def test_readme_counts_the_browser_tests() -> None:
    """The README says how many browser tests skip without Chromium: every test of the
    modules that drive Selenium."""
    pytest.importorskip("selenium")
    pytest.importorskip("starlette")
    tests = Path(__file__).resolve().parent
    drives = re.compile(r"^\s*(from|import) selenium|importorskip\(\"selenium\.", re.M)
    modules = sorted(str(p) for p in tests.glob("test_*.py") if drives.search(p.read_text(encoding="utf-8")))
    assert modules
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *modules],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tests.parent,
    ).stdout
    count = sum(1 for line in collected.splitlines() if "::" in line)
    match = re.search(
        r"Its (\d+) browser tests need Chromium", " ".join(README.read_text(encoding="utf-8").split())
    )
    assert match and int(match.group(1)) == count, (match and match.group(1), count)
