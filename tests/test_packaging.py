"""What the installed distribution promises: one version everywhere, and a core that needs no
numpy (the ``numpy`` extra serves only the functions that return arrays, and they say so)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import vncards


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300
    )


def test_one_version_everywhere() -> None:
    version = metadata.version("vncards")
    assert vncards.__version__ == version
    assert vncards._core.__version__ == version
    out = subprocess.run(
        [sys.executable, "-m", "vncards", "--version"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stdout.strip() == f"vncards {version}"


def test_runtime_dependencies_are_lean() -> None:
    requires = [r.replace("'", '"') for r in metadata.requires("vncards") or []]
    core = sorted(r.split(";")[0].strip() for r in requires if "extra ==" not in r)
    assert core == ["rich>=13"]
    assert any(r.startswith("numpy") and 'extra == "numpy"' in r for r in requires)


def test_importing_the_games_does_not_import_numpy() -> None:
    out = run_python(
        """
        import sys
        import vncards, vncards.games, vncards.bots, vncards.simulate, vncards.cli
        from vncards import tienlen, samloc, maubinh, tusac
        print(sorted(m for m in ("numpy",) if m in sys.modules))
        """
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]"]


NO_NUMPY = Path(__file__).resolve().parent / "support" / "no_numpy.py"


def test_the_core_works_without_numpy() -> None:
    out = subprocess.run(
        [sys.executable, str(NO_NUMPY), "--block-numpy"], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
