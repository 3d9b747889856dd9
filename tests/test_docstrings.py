"""Every public name of vncards has a docstring: each module, each name in its ``__all__``
(the public modules' own definitions where there is no ``__all__``), each public method and
property of a public class, and every function and class of the compiled ``_core``."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any, get_origin

import pytest

from support.modules import module_names
from support.tree import source_tree


def _modules() -> list[ModuleType]:
    return [importlib.import_module(n) for n in module_names()]


def _public(module: ModuleType) -> dict[str, Any]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [
            n
            for n, v in vars(module).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__
        ]
    return {n: getattr(module, n) for n in names if n != "__version__"}


def _own_doc(obj: Any) -> bool:
    doc = inspect.getdoc(obj)
    return bool(doc and doc.strip())


def _documentable(obj: Any) -> bool:
    # A type alias (``Run = Callable[...]``) has no docstring of its own: a ``#:`` comment
    # documents it. Python 3.10 calls ``collections.abc.Callable[...]`` a class.
    if get_origin(obj) is not None:
        return False
    return inspect.isclass(obj) or inspect.isroutine(obj) or isinstance(obj, ModuleType)


def _missing() -> list[str]:
    missing: list[str] = []
    seen: set[int] = set()
    for module in _modules():
        if not _own_doc(module):
            missing.append(module.__name__)
        for name, obj in _public(module).items():
            if not _documentable(obj) or id(obj) in seen:
                continue
            seen.add(id(obj))
            where = f"{module.__name__}.{name}"
            if not _own_doc(obj):
                missing.append(where)
            if not inspect.isclass(obj):
                continue
            for member, value in vars(obj).items():
                if member.startswith("_") or not (
                    inspect.isroutine(value)
                    or isinstance(value, (property, classmethod, staticmethod))
                    or type(value).__name__ in ("getset_descriptor", "method_descriptor")
                ):
                    continue
                # An override inherits its base's docstring, as autodoc shows it.
                if not _own_doc(getattr(obj, member)) and not _own_doc(value):
                    missing.append(f"{where}.{member}")
    return missing


def test_every_public_name_has_a_docstring() -> None:
    assert _missing() == []


@pytest.mark.parametrize("module", ["vncards.tienlen", "vncards.maubinh", "vncards._core"])
def test_the_check_sees_the_modules(module: str) -> None:
    assert any(m.__name__ == module for m in _modules())


@source_tree
def test_every_module_is_in_the_api_reference() -> None:
    pages = Path(__file__).resolve().parent.parent / "docs" / "api"
    documented = {
        line.split("::", 1)[1].strip()
        for page in pages.glob("*.md")
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith(".. automodule::")
    }
    public = [m.__name__ for m in _modules() if m.__name__ == "vncards._core" or "._" not in m.__name__]
    assert sorted(name for name in public if name not in documented) == []
