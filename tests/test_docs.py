"""Runs the examples in every vncards module's docstrings, in README.md and in the docs pages."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from support.modules import module_names

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("name", module_names())
def test_module_doctests(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_readme_examples() -> None:
    result = doctest.testfile(str(README), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0


@pytest.mark.parametrize("page", [p.relative_to(ROOT).as_posix() for p in PAGES])
def test_docs_page_examples(page: str) -> None:
    result = doctest.testfile(str(ROOT / page), module_relative=False, optionflags=FLAGS)
    assert result.failed == 0
