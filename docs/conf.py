"""Sphinx configuration of the vncards documentation (``make docs``)."""

from __future__ import annotations

import re
from pathlib import Path

import vncards

project = "vncards"
author = "The vncards authors"
copyright = "The vncards authors"
release = vncards.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# Pages other parts of the project add (the reference server, scaling out, learning environments,
# benchmarks): the index's guides list each one that exists, in this order.
OPTIONAL_PAGES = ("server", "scaling", "learning", "benchmarks")
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"vncards {release}"
html_static_path: list[str] = []
autodoc_typehints_format = "fully-qualified"


def _skip_rules_alias(
    app: object, what: str, name: str, obj: object, skip: bool, options: object
) -> bool | None:
    """Each ``Game.Rules`` is the game's ``Rules`` class again: document it once, in its module."""
    if what == "class" and name == "Rules":
        return True
    return None


def _list_optional_pages(app: object, docname: str, source: list[str]) -> None:
    """Replace the ``OPTIONAL_PAGES`` line of the index's toctree by the pages that exist."""
    if docname == "index":
        here = Path(__file__).resolve().parent
        pages = [p for p in OPTIONAL_PAGES if (here / f"{p}.md").exists()]
        source[0] = source[0].replace("OPTIONAL_PAGES\n", "".join(f"{p}\n" for p in pages))


_RELATIVE_MODULE = re.compile(r":mod:`(~?)\.([\w.]+)`")


def _absolute_module_refs(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """A relative ``:mod:`.name``` reference means what a relative import means: the module
    ``name`` of the documented object's package (Sphinx would search every module ending in
    ``.name``, and warn when two do, e.g. ``vncards.session`` and ``vncards.server.session``)."""
    module = name if what == "module" else getattr(obj, "__module__", None) or name.rpartition(".")[0]
    package = module if what == "module" and hasattr(obj, "__path__") else module.rpartition(".")[0]
    for i, line in enumerate(lines):
        lines[i] = _RELATIVE_MODULE.sub(lambda m: f":mod:`{m.group(1)}{package}.{m.group(2)}`", line)


def setup(app: object) -> None:
    app.connect("autodoc-process-docstring", _absolute_module_refs)  # type: ignore[attr-defined]
    app.connect("autodoc-skip-member", _skip_rules_alias)  # type: ignore[attr-defined]
    app.connect("source-read", _list_optional_pages)  # type: ignore[attr-defined]
    # The index depends on which optional pages exist: read it again on every build.
    app.connect("env-get-outdated", lambda *args: ["index"])  # type: ignore[attr-defined]
