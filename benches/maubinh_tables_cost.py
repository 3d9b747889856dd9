"""CPU cost of a Mậu Binh decision under table files, side by side in one run: each file
(any form, e.g. the tables of an earlier commit from ``git show``) is the solver's model for
the four seats of the same seeded deals (``_core.maubinh_position_histograms``, all cores),
against the shipped expected tables on the same deals. CPU time (process), not wall time, so
other load distorts it less; the rounds alternate the files.

    git show c4c1f61:src/maubinh/equilibrium_tables.bin > before.bin
    python benches/maubinh_tables_cost.py before.bin [--shipped] [--scoring units] [--deals N] [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from vncards import _core


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--shipped", action="store_true", help="also the shipped equilibrium tables")
    parser.add_argument("--scoring", choices=("units", "4-2"), default="units")
    parser.add_argument("--deals", type=int, default=5_000, help="4-player deals a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    models: dict[str, tuple[str, bytes | None]] = {"expected (shipped)": ("expected", None)}
    if args.shipped:
        models["equilibrium (shipped)"] = ("equilibrium", None)
    for path in args.files:
        models[path.name] = ("equilibrium", path.read_bytes())
    cpu = dict.fromkeys(models, 0.0)
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()}")
    # A first small run per model, untimed: the shipped equilibrium builds its card-removal
    # pool on first use (once per process), which is not a decision's cost.
    for objective, blob in models.values():
        _core.maubinh_position_histograms(10, 99, objective, blob, scoring=args.scoring)
    for r in range(args.rounds):
        for name, (objective, blob) in models.items():
            start = time.process_time()
            _core.maubinh_position_histograms(args.deals, r, objective, blob, scoring=args.scoring)
            cpu[name] += time.process_time() - start
    solves = 4 * args.deals * args.rounds
    base = cpu["expected (shipped)"]
    for name, took in cpu.items():
        print(f"  {name:<28} {1e6 * took / solves:7.1f} µs CPU a hand  {took / base:5.2f}x expected")
    print(f"load average now {os.getloadavg()}")


if __name__ == "__main__":
    main()
