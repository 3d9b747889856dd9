"""The Rust core's modules form layers and no circle: a module imports only modules of its own
layer or of a layer below (``use crate::…``, ``crate::x::…`` and ``super::`` paths read from
``src/**/*.rs``), and no set of top-level modules imports itself round a circle.

The layers, bottom first, are the data :data:`LAYERS`. A new module goes in the layer of what it
is (a new game with the games, a new search with the engines); ``src/python/`` (the bindings) is
the top: it may import anything and nothing imports it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

#: The layers of ``src/``, bottom first: the top-level modules (``src/x.rs`` or ``src/x/``) in each.
LAYERS: tuple[tuple[str, frozenset[str]], ...] = (
    # Cards as bits, and the error type.
    ("foundation", frozenset({"cards", "error"})),
    # Mechanisms every game shares: the random stream, the table records and draws, the
    # shedding family's combinations, moves and turn machinery (the hooks a member provides).
    ("mechanisms", frozenset({"rng", "table", "shedding"})),
    # The games: each one's rules, on the mechanisms.
    ("games", frozenset({"tienlen", "samloc", "maubinh", "tusac"})),
    # The shedding family's members as one type chosen at run time.
    ("family", frozenset({"family"})),
    # What runs games: search, rollouts, vector tables, observation encodings.
    ("engines", frozenset({"search", "rollout", "vector", "encode"})),
    # The Python bindings, and the test-only fuzz table: import anything, imported by nothing.
    ("bindings", frozenset({"python", "fuzz"})),
)

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
# `crate::x`, `crate::{x, y::z}`, `super::super::x`, `super::{x, y}`.
_PATH = re.compile(r"\b(crate|(?:super::)*super)::(\{[^}]*\}|\w+)")
_GROUP = re.compile(r"(?:^|[{,])\s*(\w+)")
_REEXPORT = re.compile(r"^pub use (\w+)::(\{[^}]*\}|\w+)\s*;", re.M)
_BRACE = re.compile(r"\bmod\s+\w+\s*\{|[{}]")


def _inline_depths(text: str) -> list[tuple[int, int]]:
    """(offset, number of inline ``mod x { … }`` blocks open there) at every brace."""
    open_blocks: list[bool] = []
    out = [(0, 0)]
    for hit in _BRACE.finditer(text):
        if hit.group() == "}":
            if open_blocks:
                open_blocks.pop()
        else:
            open_blocks.append(hit.group() != "{")
        out.append((hit.end(), sum(open_blocks)))
    return out


def module_path(src: Path, file: Path) -> tuple[str, ...]:
    """The module a source file is (``src/lib.rs``: the crate root, ``()``)."""
    parts = file.relative_to(src).with_suffix("").parts
    if parts[-1] in ("mod", "lib"):
        parts = parts[:-1]
    return tuple(parts)


def _names(group: str) -> list[str]:
    return _GROUP.findall(group) if group.startswith("{") else [group]


def imports(src: Path) -> dict[str, set[str]]:
    """Top-level module → the other top-level modules its files name (comments and strings are
    not read; the crate root's re-exports, such as ``crate::Error``, count as their module)."""
    root = (src / "lib.rs").read_text(encoding="utf-8")
    alias = {name: mod for mod, group in _REEXPORT.findall(root) for name in _names(group)}
    out: dict[str, set[str]] = {}
    for file in sorted(src.rglob("*.rs")):
        here = module_path(src, file)
        if not here:
            continue
        text = _STRING.sub('""', _COMMENT.sub("", file.read_text(encoding="utf-8")))
        deps = out.setdefault(here[0], set())
        depths = _inline_depths(text)
        for hit in _PATH.finditer(text):
            head, group = hit.groups()
            if head != "crate":
                inline = max(d for at, d in depths if at <= hit.start())
                if head.count("super") < len(here) + inline:
                    continue  # inside its own top-level module
            for name in _names(group):
                deps.add(alias.get(name, name))
        deps.discard(here[0])
    return out


def layer_of(layers: Iterable[tuple[str, frozenset[str]]]) -> dict[str, int]:
    return {mod: i for i, (_, mods) in enumerate(layers) for mod in mods}


def arrows_up(graph: Mapping[str, set[str]], layers: tuple[tuple[str, frozenset[str]], ...]) -> list[str]:
    """Every import of a module in a higher layer (or of one in no layer)."""
    level = layer_of(layers)
    bad = []
    for mod, deps in sorted(graph.items()):
        for dep in sorted(deps):
            if mod not in level or dep not in level:
                bad.append(f"{mod} -> {dep}: not in a layer")
            elif level[dep] > level[mod]:
                bad.append(f"{mod} ({layers[level[mod]][0]}) -> {dep} ({layers[level[dep]][0]})")
    return bad


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_of_src_is_in_one_layer() -> None:
    modules = {module_path(SRC, f)[0] for f in SRC.rglob("*.rs") if module_path(SRC, f)}
    level = layer_of(LAYERS)
    assert sum(len(mods) for _, mods in LAYERS) == len(level), "a module in two layers"
    assert modules == set(level)


def test_the_rust_modules_form_no_circle() -> None:
    assert circles(imports(SRC)) == []


def test_no_rust_module_imports_one_above_it() -> None:
    assert arrows_up(imports(SRC), LAYERS) == []


def test_nothing_imports_the_python_bindings() -> None:
    graph = imports(SRC)
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
            ["vector (engines) -> python (bindings)"],
        ),
    ],
)
def test_the_reading_finds_circles_and_arrows_up(
    tmp_path: Path, files: dict[str, str], found_circles: list[list[str]], found_up: list[str]
) -> None:
    (tmp_path / "lib.rs").write_text("pub use error::{Error, Result};\n", encoding="utf-8")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    graph = imports(tmp_path)
    assert circles(graph) == found_circles
    assert arrows_up(graph, LAYERS) == found_up
