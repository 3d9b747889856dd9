"""Sphinx configuration of the vncards documentation (``make docs``)."""

from __future__ import annotations

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


def setup(app: object) -> None:
    app.connect("autodoc-skip-member", _skip_rules_alias)  # type: ignore[attr-defined]
