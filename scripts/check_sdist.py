"""Install the sdist with no network for cargo, then play from it: ``make check-sdist``.

In a fresh virtual environment, ``CARGO_NET_OFFLINE=true pip install dist/vncards-*.tar.gz``
with ``CARGO_HOME`` pointed at an empty folder, so cargo has neither the network nor a local
registry cache and must build from the crates vendored in the sdist (scripts/build_sdist.py).
Then ``vncards --version``, every game played to the end by bots without numpy
(tests/support/no_numpy.py) and a short ``vncards simulate``.

    python scripts/check_sdist.py [--sdist dist/X.tar.gz] [--keep]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dist import ROOT, newest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sdist", type=Path, help="the sdist to install (default: the newest in dist/)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    sdist = (args.sdist or newest("vncards-*.tar.gz", "sdist")).resolve()
    version = sdist.name.removeprefix("vncards-").removesuffix(".tar.gz")
    scratch = Path(tempfile.mkdtemp(prefix="vncards-sdist-check-"))
    try:
        venv, cargo_home = scratch / "venv", scratch / "cargo-home"
        cargo_home.mkdir()
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH", "CARGO_HOME"}}
        env.update(
            PATH=os.pathsep.join([str(venv / "bin"), env.get("PATH", "")]),
            VIRTUAL_ENV=str(venv),
            CARGO_NET_OFFLINE="true",
            CARGO_HOME=str(cargo_home),
        )
        python = str(venv / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"], env=env, check=True)
        print(
            f"installing {sdist.name} ({sdist.stat().st_size / 1e6:.1f} MB) with CARGO_NET_OFFLINE=true and an empty CARGO_HOME"
        )
        start = time.perf_counter()
        subprocess.run(
            [python, "-m", "pip", "install", "--quiet", str(sdist)], env=env, check=True, cwd=scratch
        )
        print(f"built and installed from the sdist in {time.perf_counter() - start:.0f} s")
        if any(cargo_home.glob("registry/*/*")):
            raise SystemExit("cargo filled its registry cache: it did not build from the vendored crates")
        out = subprocess.run(
            [str(venv / "bin" / "vncards"), "--version"], env=env, check=True, capture_output=True, text=True
        ).stdout.strip()
        if out != f"vncards {version}":
            raise SystemExit(f"vncards --version says {out!r}, expected 'vncards {version}'")
        print(out)
        subprocess.run(
            [python, str(ROOT / "tests" / "support" / "no_numpy.py")], env=env, check=True, cwd=scratch
        )
        print("every game played to the end from the sdist's build (no numpy installed)")
        simulate = ["simulate", "tienlen", "--games", "40", "--jobs", "1", "--seed", "1"]
        bots = ["--bots", "montecarlo,greedy,greedy,greedy"]
        subprocess.run(
            [str(venv / "bin" / "vncards"), *simulate, *bots],
            env=env,
            check=True,
            cwd=scratch,
        )
    finally:
        if args.keep:
            print(f"scratch folder kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
