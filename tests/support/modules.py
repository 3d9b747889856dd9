"""The names of every vncards module, for the tests that walk the whole package."""

from __future__ import annotations

import importlib.util
import pkgutil

import vncards

# Integrations whose framework is an optional extra: walked only where it is installed.
OPTIONAL = {
    "vncards.integrations.pettingzoo": "pettingzoo",
    "vncards.integrations.openspiel": "pyspiel",
    "vncards.learn.train": "jax",
}


def module_names() -> list[str]:
    """``vncards``, ``vncards._core`` and every submodule (``__main__`` left out), sorted."""
    names = {"vncards", "vncards._core"}
    for info in pkgutil.walk_packages(vncards.__path__, "vncards."):
        if info.name.split(".")[-1] != "__main__":
            names.add(info.name)
    return sorted(n for n in names if n not in OPTIONAL or importlib.util.find_spec(OPTIONAL[n]))
