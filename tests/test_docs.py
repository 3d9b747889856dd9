"""Runs the examples in every vncards module's docstrings, in README.md and in the docs pages."""

from __future__ import annotations

import doctest
import importlib
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
