"""Sphinx configuration of the vncards documentation (``make docs``)."""

from __future__ import annotations

import importlib
import inspect
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

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
# Inherited members are shown (every Game page lists what TableGame gives it), those of classes
# outside vncards (Exception, str, a framework's base class) are not: see _skip_foreign.
autodoc_default_options = {"members": True, "show-inheritance": True, "inherited-members": True}
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


def _origin(obj: Any) -> str | None:
    """The module a member was defined in, where it can be told (None for plain data)."""
    for part in (obj, getattr(obj, "fget", None), getattr(obj, "__func__", None)):
        owner = getattr(part, "__objclass__", None)
        if owner is not None:
            return getattr(owner, "__module__", None)
        if inspect.isroutine(part) or inspect.isclass(part):
            return getattr(part, "__module__", None)
    return None


def _skip_foreign(app: object, what: str, name: str, obj: object, skip: bool, options: object) -> bool | None:
    """Members a class inherits from outside vncards are not documented."""
    if what in ("class", "exception"):
        origin = _origin(obj)
        if origin is not None and origin != "vncards" and not origin.startswith("vncards."):
            return True
    return None


# -- every object once, at its public path ---------------------------------------------------------

HERE = Path(__file__).resolve().parent
_AUTOMODULE = re.compile(r"^\.\. automodule:: (\S+)\s*$")


def _documented_modules() -> list[str]:
    """The modules the API reference pages document."""
    names = []
    for page in sorted((HERE / "api").glob("*.md")):
        for line in page.read_text(encoding="utf-8").splitlines():
            match = _AUTOMODULE.match(line)
            if match:
                names.append(match.group(1))
    return names


def _public(module: Any) -> dict[str, Any]:
    """What autodoc documents of a module: its ``__all__``, else its own definitions."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            n
            for n, v in vars(module).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__
        ]
    return {n: getattr(module, n) for n in names if hasattr(module, n) and n != "__version__"}


def _elsewhere(modules: list[str]) -> dict[str, set[str]]:
    """For each documented module, the names it exports that are documented at another path.

    An object exported by several documented modules is documented once, at its public path:
    the shallowest of those modules that is (a package of) the module defining it, so
    ``vncards.tienlen.Game`` rather than ``vncards.tienlen.game.Game``, ``vncards.Card``
    rather than ``vncards.cards.Card``; plain data goes to the shallowest module exporting it.
    """
    places: dict[object, list[tuple[str, str, Any]]] = defaultdict(list)
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:  # an optional integration that is not installed
            continue
        for member, obj in _public(module).items():
            key: object = id(obj) if (inspect.isclass(obj) or inspect.isroutine(obj)) else (member, id(obj))
            places[key].append((name, member, obj))
    skip: dict[str, set[str]] = defaultdict(set)
    for found in places.values():
        if len(found) < 2:
            continue
        home = _origin(found[0][2]) or ""

        def rank(place: tuple[str, str, Any], home: str = home) -> tuple[bool, int, str]:
            module = place[0]
            inside = home == module or home.startswith(module + ".")
            return (not inside, module.count("."), module)

        best = min(found, key=rank)
        for place in found:
            if place is not best:
                skip[place[0]].add(place[1])
    return skip


def _once(app: object, docname: str, source: list[str]) -> None:
    """Add ``:exclude-members:`` to each ``automodule`` of the API pages for the names
    documented at another path (see :func:`_elsewhere`)."""
    if not docname.startswith("api/"):
        return
    skip = _elsewhere(_documented_modules())
    lines = source[0].split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _AUTOMODULE.match(lines[i])
        out.append(lines[i])
        i += 1
        if not match or not skip.get(match.group(1)):
            continue
        names = set(skip[match.group(1)])
        while i < len(lines) and lines[i].startswith("   :"):
            option = lines[i]
            if option.startswith("   :exclude-members:"):
                names |= {n.strip() for n in option.split(":", 2)[2].split(",") if n.strip()}
            else:
                out.append(option)
            i += 1
        out.append(f"   :exclude-members: {', '.join(sorted(names))}")
    source[0] = "\n".join(out)


# -- no raw object reprs -------------------------------------------------------------------------

_RAW = re.compile(r"<[\w.]+ object|<function |<built-in |<bound |<class ")


def _quiet_values() -> None:
    """A module's or class's data is shown with its value (``MAX_TEXT = 512``) unless the value
    is a long or raw repr (a table of codecs, a dict of word lists): its doc comment says what it
    holds instead."""
    import sphinx.util.inspect as sphinx_inspect

    describe = sphinx_inspect.object_description

    def short(obj: Any, *args: Any, **kwargs: Any) -> str:
        text: str = describe(obj, *args, **kwargs)
        if isinstance(obj, (dict, list, tuple, set, frozenset)):
            return "" if len(text) > 100 or _RAW.search(text) else text
        # An instance without a repr of its own (a codec); functions and classes, as defaults
        # in signatures, keep theirs.
        plain = inspect.isroutine(obj) or inspect.isclass(obj)
        return "" if _RAW.search(text) and not plain else text

    sphinx_inspect.object_description = short  # type: ignore[assignment]
    try:  # Sphinx < 9 binds the name in autodoc itself
        import sphinx.ext.autodoc as autodoc

        if hasattr(autodoc, "object_description"):
            autodoc.object_description = short  # type: ignore[attr-defined]
    except ImportError:
        pass


def _check_reference(app: Any, exception: Exception | None) -> None:
    """After a build, warn (an error under ``-W``) for a raw repr in a signature and for an
    object documented at two paths of the API reference."""
    if exception is not None or app.builder.format != "html":
        return
    import html

    from sphinx.util import logging

    log = logging.getLogger(__name__)
    homes: dict[int, str] = {}
    for page in sorted((Path(app.outdir) / "api").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        for anchor, signature in re.findall(
            r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', text, re.S
        ):
            shown = html.unescape(re.sub(r"<[^>]+>", "", signature))
            if re.search(r"<[\w.]+ object>", shown):
                log.warning(f"{page.name}: {anchor} shows a raw repr: {shown.strip()[:120]}")
            module, _, member = anchor.rpartition(".")
            try:
                obj = getattr(importlib.import_module(module), member)
            except (ImportError, AttributeError, ValueError):
                continue  # a class's member, or a module not importable here
            if inspect.isclass(obj) or inspect.isfunction(obj):
                other = homes.setdefault(id(obj), anchor)
                if other != anchor:
                    log.warning(f"{page.name}: {anchor} is documented again (as {other})")


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
    ``.name``, and warn when two do, e.g. ``vncards.session`` and ``vncards.server.table``)."""
    module = name if what == "module" else getattr(obj, "__module__", None) or name.rpartition(".")[0]
    package = module if what == "module" and hasattr(obj, "__path__") else module.rpartition(".")[0]
    for i, line in enumerate(lines):
        lines[i] = _RELATIVE_MODULE.sub(lambda m: f":mod:`{m.group(1)}{package}.{m.group(2)}`", line)


def setup(app: object) -> None:
    _quiet_values()
    app.connect("autodoc-process-docstring", _absolute_module_refs)  # type: ignore[attr-defined]
    app.connect("autodoc-skip-member", _skip_rules_alias)  # type: ignore[attr-defined]
    app.connect("autodoc-skip-member", _skip_foreign)  # type: ignore[attr-defined]
    app.connect("source-read", _once)  # type: ignore[attr-defined]
    app.connect("build-finished", _check_reference)  # type: ignore[attr-defined]
    app.connect("source-read", _list_optional_pages)  # type: ignore[attr-defined]
    # The index depends on which optional pages exist: read it again on every build.
    app.connect("env-get-outdated", lambda *args: ["index"])  # type: ignore[attr-defined]
