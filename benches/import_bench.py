"""Cold import time of vncards, in fresh interpreter processes (the target: ``import vncards``
within 100 ms in a fresh virtual environment).

For each module: the median over ``--runs`` fresh processes of the wall-clock time of
``python -c "import MODULE"`` less that of ``python -c "pass"`` started just before (so the
interpreter's own start does not count; the minimum is printed too, as load only adds), and the median of ``-X importtime``'s cumulative
figure for the module. ``vncards`` is what every user pays; ``vncards.games`` loads the five
engines (what a game server imports); ``vncards.cli`` is the command's start. Standard library
only: ``make check-wheel`` runs it with each fresh environment's interpreter.

    python benches/import_bench.py [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

MODULES = ("vncards", "vncards.games", "vncards.cli")


def measure(module: str, runs: int) -> dict[str, float]:
    walls: list[float] = []
    cumulative: list[float] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        t1 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            check=True,
            capture_output=True,
            text=True,
        )
        t2 = time.perf_counter()
        walls.append((t2 - t1) - (t1 - t0))
        own = [ln for ln in proc.stderr.splitlines() if ln.rstrip().endswith(f"| {module}")]
        cumulative.append(int(own[-1].split("|")[1]) / 1000)
    return {
        "wall_ms": statistics.median(walls) * 1000,
        "wall_min_ms": min(walls) * 1000,
        "importtime_ms": statistics.median(cumulative),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per module (default 15)")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = parser.parse_args(argv)
    figures = {module: measure(module, args.runs) for module in MODULES}
    if args.json:
        print(json.dumps(figures))
        return 0
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {sys.version.split()[0]} ({sys.prefix}); load {load:.2f}; median of {args.runs} fresh processes"
    )
    print(f"{'module':16} {'wall over bare start (min)':>30} {'-X importtime':>15}")
    for module, f in figures.items():
        print(
            f"{module:16} {f['wall_ms']:16.1f} ms ({f['wall_min_ms']:6.1f} ms) {f['importtime_ms']:12.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
