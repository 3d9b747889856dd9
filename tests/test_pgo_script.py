"""scripts/pgo.py, the profile-guided build: it reads LLVM versions, takes only an llvm-profdata
of rustc's LLVM major version (an older one cannot read rustc's raw profiles), and says which
ones it saw when none fits; `make wheel-pgo` builds with the profile it trains."""

from __future__ import annotations

import importlib.util
import stat
from pathlib import Path
from types import ModuleType

import pytest

from support.tree import ROOT, source_tree

pytestmark = source_tree


def _pgo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pgo", ROOT / "scripts" / "pgo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_profdata(folder: Path, name: str, version: str) -> str:
    exe = folder / name
    exe.write_text(f"#!/bin/sh\necho 'Debian LLVM version {version}'\necho '  Optimized build.'\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return str(exe)


def test_llvm_versions_are_read_from_rustc_and_llvm_profdata() -> None:
    pgo = _pgo()
    rustc = "rustc 1.95.0 (59807616e 2026-04-14)\nhost: x86_64-unknown-linux-gnu\nLLVM version: 22.1.2\n"
    assert pgo.llvm_major(rustc) == 22
    assert pgo.llvm_major("Debian LLVM version 14.0.6\n  Optimized build.") == 14
    assert pgo.llvm_major("llvm-profdata: Unknown command!") is None


def test_only_an_llvm_profdata_of_rustcs_major_version_is_taken(tmp_path: Path) -> None:
    pgo = _pgo()
    old = _fake_profdata(tmp_path, "llvm-profdata-14", "14.0.6")
    new = _fake_profdata(tmp_path, "llvm-profdata-22", "22.1.8")
    missing = str(tmp_path / "llvm-profdata-nowhere")
    exe, seen = pgo.find_profdata(22, [missing, old, new])
    assert exe == new
    assert seen == [f"{missing}: not found", f"{old}: LLVM 14", f"{new}: LLVM 22"]
    exe, seen = pgo.find_profdata(22, [old])
    assert exe is None and seen == [f"{old}: LLVM 14"]


def test_the_profile_is_used_by_the_build_flags(tmp_path: Path) -> None:
    flags = _pgo().use_flags(tmp_path / "merged.profdata")
    assert f"-Cprofile-use={tmp_path / 'merged.profdata'}" in flags.split()


@pytest.mark.parametrize("target", ["wheel-pgo"])
def test_the_makefile_target_trains_then_builds_with_the_profile(target: str) -> None:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = text.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]
    assert "scripts/pgo.py profile" in recipe and "scripts/pgo.py flags" in recipe
    assert "maturin build --release --zig --compatibility manylinux2014" in recipe
