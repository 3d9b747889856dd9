"""Issue 36: the layers of the code (docs/architecture.md), checked from the imports.

The Python check reads every module of ``python/vncards`` with the standard library's ``ast``
(nothing is imported), draws an arrow from a module to each vncards module it imports, and
fails on a circle (modules that import each other, directly or round a loop) and on an arrow
from a lower layer up to a higher one. Every import counts: at the top of a module, inside a
function (a lazy import only hides a dependency until it runs: a reader still needs the other
module to understand this one) and under ``if TYPE_CHECKING:`` (an annotation that names
another module's type depends on it as much as a call does).

An arrow goes to the module the import names: ``import vncards.a.b`` and ``from vncards.a.b
import x`` to ``vncards.a.b``; ``from vncards.a import b`` (or ``from . import b``) to the
submodule ``vncards.a.b`` where there is one, else to the package ``vncards.a``. The packages
above the module named are not counted (Python runs their ``__init__`` too, but every module
would otherwise import ``vncards`` itself).

Run it as a script to print the figures of any copy of the tree::

    python tests/test_architecture.py [PATH/TO/python/vncards]
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from support.tree import ROOT, source_tree

pytestmark = source_tree

PACKAGE = ROOT / "python" / "vncards"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

#: The layers, lowest first: a module may import modules of its own layer and of the layers below
#: it, never one above. An entry names a module and, if a package, everything in it; a module
#: takes the layer of the longest entry that names it. The same table is in docs/architecture.md.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("vncards._core",)),
    (
        "foundation",
        (
            "vncards",
            "vncards._args",
            "vncards.atomic",
            "vncards.cards",
            "vncards.errors",
            "vncards.inputs",
            "vncards.journal",
            "vncards.ledger",
            "vncards.parallel",
            "vncards.ray_executor",
            "vncards.rules",
            "vncards.runs",
            "vncards.snapshot",
            "vncards.surface",
            "vncards.tournament",
            "vncards.words",
        ),
    ),
    ("table", ("vncards.table",)),
    (
        "games",
        (
            "vncards.shedding",
            "vncards.tienlen",
            "vncards.samloc",
            "vncards.maubinh",
            "vncards.tusac",
            "vncards.games",
        ),
    ),
    ("bots", ("vncards.bots",)),
    (
        "matches",
        (
            "vncards.hands",
            "vncards.history",
            "vncards.session",
            "vncards.simulate",
            "vncards.ratings",
            "vncards.vector",
            "vncards.integrations",
            "vncards.learn",
        ),
    ),
    ("server", ("vncards.server",)),
    ("cli", ("vncards.cli", "vncards.__main__")),
)


@dataclass(frozen=True)
class Arrow:
    """``importer`` imports ``imported`` at ``line`` (``lazy``: inside a function)."""

    importer: str
    imported: str
    line: int
    lazy: bool


# -- Python (python/vncards) -----------------------------------------------------------------------


def python_modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name, not ``__init__``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement of a module, anywhere in it, and whether it is inside a function."""

    def walk(node: ast.AST, lazy: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, lazy
            inner = lazy or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from walk(child, inner)

    yield from walk(tree, False)


def python_arrows(package: Path = PACKAGE) -> list[Arrow]:
    """The arrows between the package's modules (``vncards._core``, the compiled Rust core,
    counts as a module), sorted, one per import of a name."""
    modules = python_modules(package)
    known = set(modules) | {"vncards._core"}
    arrows = set()
    for name, path in modules.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node, lazy in _imports(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    source = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    source = node.module or ""
                targets = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names
                ]
            for target in targets:
                if target != name and (target == "vncards" or target.startswith("vncards.")):
                    assert target in known, f"{name} line {node.lineno} imports {target}, which is no module"
                    arrows.add(Arrow(name, target, node.lineno, lazy))
    return sorted(arrows, key=lambda a: (a.importer, a.imported, a.line))


def circles(arrows: list[Arrow]) -> list[list[str]]:
    """The circles of the graph: each set of two or more modules that reach each other through
    the arrows (a strongly connected component, Tarjan's algorithm), sorted."""
    graph: dict[str, set[str]] = {}
    for a in arrows:
        graph.setdefault(a.importer, set()).add(a.imported)
        graph.setdefault(a.imported, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def entry_of(module: str) -> tuple[int, str]:
    """The layer (its index in :data:`LAYERS`) and the entry that place ``module``: the longest
    entry naming it; ``(-1, "")`` if none does."""
    best = (-1, "")
    for i, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            if (module == entry or module.startswith(entry + ".")) and len(entry) > len(best[1]):
                best = (i, entry)
    return best


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the layer of ``module``."""
    return entry_of(module)[0]


def arrows_up(arrows: list[Arrow]) -> list[Arrow]:
    """The arrows from a module to one of a higher layer."""
    return [a for a in arrows if layer_of(a.imported) > layer_of(a.importer)]


def python_figures(package: Path = PACKAGE) -> str:
    """One line of figures: modules, arrows, circles, arrows up."""
    arrows = python_arrows(package)
    pairs = {(a.importer, a.imported) for a in arrows}
    up = {(a.importer, a.imported) for a in arrows_up(arrows)}
    return (
        f"{len(python_modules(package))} modules, {len(pairs)} arrows, "
        f"{len(circles(arrows))} circles, {len(up)} arrows up"
    )


def _describe(arrows: list[Arrow]) -> list[str]:
    return [
        f"{a.importer} (line {a.line}{', in a function' if a.lazy else ''}) -> {a.imported}: "
        f"{LAYERS[layer_of(a.importer)][0]} -> {LAYERS[layer_of(a.imported)][0]}"
        for a in arrows
    ]


def test_python_modules_form_no_circle() -> None:
    arrows = python_arrows()
    found = circles(arrows)
    inside = [_describe([a for a in arrows if a.importer in c and a.imported in c]) for c in found]
    assert found == [], f"{python_figures()}; the arrows of each circle: {inside}"


def test_python_imports_never_run_up_a_layer() -> None:
    up = arrows_up(python_arrows())
    assert up == [], f"{python_figures()}:\n" + "\n".join(_describe(up))


def test_every_python_module_has_a_layer() -> None:
    """A new module is placed on purpose (an entry of :data:`LAYERS` and of the docs' table):
    the root entry ``vncards`` names the package's ``__init__`` only."""
    unplaced = [m for m in python_modules() if m != "vncards" and entry_of(m)[1] in ("", "vncards")]
    assert unplaced == []


def test_the_layers_are_those_of_docs_architecture() -> None:
    """The table of docs/architecture.md lists the same layers, in the same order, with the
    same modules (each row: ``| N. name | `vncards.x`, `vncards.y` |``)."""
    rows = []
    for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*(\d+)\.\s*([a-z]+)\s*\|(.*)\|\s*$", line)
        if match:
            rows.append((match.group(2), tuple(re.findall(r"`(vncards[\w.]*)`", match.group(3)))))
    assert [(name, sorted(entries)) for name, entries in rows] == [
        (name, sorted(entries)) for name, entries in LAYERS
    ]


@pytest.mark.parametrize("entry", [e for _, entries in LAYERS for e in entries])
def test_every_layer_entry_names_a_module(entry: str) -> None:
    assert entry == "vncards._core" or entry in python_modules()


def test_the_check_sees_each_kind_of_import(tmp_path: Path) -> None:
    """A copy of a small tree with every kind of import: top-level, relative, ``from . import
    submodule``, inside a function and under TYPE_CHECKING; one circle and one arrow up."""
    pkg = tmp_path / "vncards"
    (pkg / "games").mkdir(parents=True)
    files = {
        "__init__.py": "from .errors import E\n",
        "errors.py": "E = 1\n",
        "cards.py": "import vncards.errors\n",
        "table.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .games import a\n",
        "games/__init__.py": "from . import a\n",
        "games/a.py": "from ..cards import x\ndef f():\n    from vncards.games.b import y\n",
        "games/b.py": "from .a import z\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text, encoding="utf-8")
    arrows = python_arrows(pkg)
    assert {(a.importer, a.imported, a.lazy) for a in arrows} == {
        ("vncards", "vncards.errors", False),
        ("vncards.cards", "vncards.errors", False),
        ("vncards.table", "vncards.games.a", False),
        ("vncards.games", "vncards.games.a", False),
        ("vncards.games.a", "vncards.cards", False),
        ("vncards.games.a", "vncards.games.b", True),
        ("vncards.games.b", "vncards.games.a", False),
    }
    assert circles(arrows) == [["vncards.games.a", "vncards.games.b"]]
    assert [(a.importer, a.imported) for a in arrows_up(arrows)] == [("vncards.table", "vncards.games.a")]


# -- Rust (src/) -----------------------------------------------------------------------------------
# The Rust core's modules form layers and no circle: a top-level module of src/ (src/x.rs or
# src/x/) imports only modules of its own layer or of a layer below (`use crate::...`,
# `crate::x::...` and `super::` paths that leave it, read from src/**/*.rs without comments or
# strings), and no set of them imports itself round a circle. src/python/ (the bindings) is the
# top: it may import anything and nothing imports it.

RUST_SRC = ROOT / "src"

#: The layers of ``src/``, bottom first: the top-level modules (``src/x.rs`` or ``src/x/``) in each.
RUST_LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    # Cards as bits, and the error type.
    ("foundation", frozenset({"cards", "error"})),
    # Mechanisms every game shares: the random stream, the table records and draws, the
    # shedding family's combinations, moves and turn machinery (the hooks a member provides).
    ("mechanisms", frozenset({"rng", "table", "shedding"})),
    # The games: each one's rules, on the mechanisms.
    ("games", frozenset({"tienlen", "samloc", "maubinh", "tusac"})),
    # The shedding family's members as one type chosen at run time.
    ("family", frozenset({"family"})),
    # What plays hands quickly: observation encodings, and the rollouts with their greedy
    # policies (which the `greedy` bots, the vector tables' greedy seats and the searches play).
    ("rollouts", frozenset({"encode", "rollout"})),
    # Batched environments: many tables stepped at once.
    ("tables", frozenset({"vector"})),
    # The learned policy: its network, its features of the tables' actions, self-play.
    ("policy", frozenset({"policy"})),
    # The bots' searches, over the rollouts (and the policy where it guides them).
    ("search", frozenset({"search"})),
    # The Python bindings, and the test-only fuzz table: import anything, imported by nothing.
    ("bindings", frozenset({"python", "fuzz"})),
)

_RS_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_RS_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
# `crate::x`, `crate::{x, y::z}`, `super::super::x`, `super::{x, y}`.
_RS_PATH = re.compile(r"\b(crate|(?:super::)*super)::(\{[^}]*\}|\w+)")
_RS_GROUP = re.compile(r"(?:^|[{,])\s*(\w+)")
_RS_REEXPORT = re.compile(r"^pub use (\w+)::(\{[^}]*\}|\w+)\s*;", re.M)
_RS_BRACE = re.compile(r"\bmod\s+\w+\s*\{|[{}]")


def _rust_inline_depths(text: str) -> list[tuple[int, int]]:
    """(offset, number of inline ``mod x { … }`` blocks open there) at every brace."""
    open_blocks: list[bool] = []
    out = [(0, 0)]
    for hit in _RS_BRACE.finditer(text):
        if hit.group() == "}":
            if open_blocks:
                open_blocks.pop()
        else:
            open_blocks.append(hit.group() != "{")
        out.append((hit.end(), sum(open_blocks)))
    return out


def rust_module_path(src: Path, file: Path) -> tuple[str, ...]:
    """The module a source file is (``src/lib.rs``: the crate root, ``()``)."""
    parts = file.relative_to(src).with_suffix("").parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def _rust_names(group: str) -> list[str]:
    return _RS_GROUP.findall(group) if group.startswith("{") else [group]


def rust_imports(src: Path) -> dict[str, set[str]]:
    """Top-level module → the other top-level modules its files name (comments and strings are
    not read; the crate root's re-exports, such as ``crate::Error``, count as their module)."""
    root = (src / "lib.rs").read_text(encoding="utf-8")
    alias = {name: mod for mod, group in _RS_REEXPORT.findall(root) for name in _rust_names(group)}
    out: dict[str, set[str]] = {}
    for file in sorted(src.rglob("*.rs")):
        here = rust_module_path(src, file)
        if not here:
            continue
        text = _RS_STRING.sub('""', _RS_COMMENT.sub("", file.read_text(encoding="utf-8")))
        deps = out.setdefault(here[0], set())
        depths = _rust_inline_depths(text)
        for hit in _RS_PATH.finditer(text):
            head, group = hit.groups()
            if head != "crate":
                inline = max(d for at, d in depths if at <= hit.start())
                if head.count("super") < len(here) + inline:
                    continue  # inside its own top-level module
            for name in _rust_names(group):
                deps.add(alias.get(name, name))
        deps.discard(here[0])
    return out


def rust_layer_of(layers: Iterable[tuple[str, frozenset[str]]]) -> dict[str, int]:
    return {mod: i for i, (_, mods) in enumerate(layers) for mod in mods}


def rust_arrows_up(
    graph: Mapping[str, set[str]], layers: tuple[tuple[str, frozenset[str]], ...]
) -> list[str]:
    """Every import of a module in a higher layer (or of one in no layer)."""
    level = rust_layer_of(layers)
    bad = []
    for mod, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if mod not in level or dep not in level:
                bad.append(f"{mod} -> {dep}: not in a layer")
            elif level[dep] > level[mod]:
                bad.append(f"{mod} ({layers[level[mod]][0]}) -> {dep} ({layers[level[dep]][0]})")
    return bad


def rust_circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles among the top-level modules (:func:`circles` of the graph's arrows)."""
    return circles([Arrow(mod, dep, 0, False) for mod, deps in graph.items() for dep in deps])


def test_every_rust_module_is_in_one_layer() -> None:
    modules = {
        rust_module_path(RUST_SRC, f)[0] for f in RUST_SRC.rglob("*.rs") if rust_module_path(RUST_SRC, f)
    }
    level = rust_layer_of(RUST_LAYERS)
    assert sum(len(mods) for _, mods in RUST_LAYERS) == len(level), "a module in two layers"
    assert modules == set(level)


def test_the_rust_modules_form_no_circle() -> None:
    assert rust_circles(rust_imports(RUST_SRC)) == []


def test_no_rust_module_imports_one_above_it() -> None:
    assert rust_arrows_up(rust_imports(RUST_SRC), RUST_LAYERS) == []


def test_nothing_imports_the_python_bindings() -> None:
    graph = rust_imports(RUST_SRC)
    assert [m for m, deps in graph.items() if "python" in deps] == []


@pytest.mark.parametrize(
    ("files", "found_circles", "found_up"),
    [
        # The old tree's circle: the shedding core calls into its members.
        (
            {
                "shedding/flow.rs": "use crate::{samloc, tienlen};\n",
                "tienlen/flow.rs": "use crate::shedding::flow::Flow;\n",
                "samloc/mod.rs": "pub mod flow;\n",
                "samloc/flow.rs": "use super::super::shedding::Seats;\n",
            },
            [["samloc", "shedding", "tienlen"]],
            ["shedding (mechanisms) -> samloc (games)", "shedding (mechanisms) -> tienlen (games)"],
        ),
        # Comments, doc links and strings are not imports; a re-export counts as its module.
        (
            {
                "cards.rs": '//! see [`crate::tienlen`]\nconst S: &str = "crate::python";\n',
                "tienlen/mod.rs": "fn f() -> crate::Error { todo!() }\n",
            },
            [],
            [],
        ),
        (
            {"vector/mod.rs": "use crate::python::x;\n"},
            [],
            ["vector (tables) -> python (bindings)"],
        ),
        # The tables' greedy seats reading the search's greedy, and rollouts naming a table.
        (
            {
                "vector/tusac.rs": "use crate::search::tusac::greedy_action;\n",
                "rollout/tusac.rs": "fn f(t: &crate::vector::tusac::TuSacTable) {}\n",
            },
            [],
            ["rollout (rollouts) -> vector (tables)", "vector (tables) -> search (search)"],
        ),
    ],
)
def test_the_rust_check_finds_circles_and_arrows_up(
    tmp_path: Path, files: dict[str, str], found_circles: list[list[str]], found_up: list[str]
) -> None:
    (tmp_path / "lib.rs").write_text("pub use error::{Error, Result};\n", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = rust_imports(tmp_path)
    assert rust_circles(graph) == found_circles
    assert rust_arrows_up(graph, RUST_LAYERS) == found_up


if __name__ == "__main__":
    print(python_figures(Path(sys.argv[1]) if len(sys.argv) > 1 else PACKAGE))
