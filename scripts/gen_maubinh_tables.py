"""Regenerate the Mậu Binh opponent tables shipped in ``src/maubinh/``.

The methods and the file format are described in :mod:`vncards.maubinh.tables`; every file's
header records the deals per iteration, the iterations, the seed and the rules.

- ``--objective expected`` (default): fictitious play from ``"strongest"``; defaults 500,000
  deals (2,000,000 hands, instant wins left out) per iteration, 6 ``"expected"`` iterations,
  seed 20261129: about 5 minutes on 2 idle cores with a release build.
  Files: ``position_tables.bin`` (``--scoring units``), ``position_tables_42.bin`` (``4-2``).
- ``--objective equilibrium``: from the compiled-in expected tables of the same scoring, moved
  toward what their strategy plays until its measured exploitability stops falling; defaults
  250,000 deals per iteration, at most 16 iterations, patience 4, seed 20261130, evaluation
  2,000 duplicate pairs with 5,000 samples per decision. Files: ``equilibrium_tables.bin``,
  ``equilibrium_tables_42.bin``. Build the expected tables of that scoring (and rebuild) first.

The batches run in this process (the solver uses every core), on ``--jobs`` local processes,
or on a Ray cluster with ``--ray [ADDRESS]`` (``auto``, ``ray://host:10001``; none: a local
cluster), e.g. 10⁸ deals:

    python scripts/gen_maubinh_tables.py --deals 100000000 --ray auto

Rebuild afterwards (``maturin develop``) so the new file is compiled in. The script prints its
wall time and the machine's load average (a shared machine slows it down).

    python scripts/gen_maubinh_tables.py [--objective expected|equilibrium] [--scoring units|4-2]
        [--deals N] [--iterations K] [--seed S] [--out PATH] [--jobs J | --ray [ADDRESS]]
        [--batch-size B] [--start TABLES] [--split]
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import Executor
from contextlib import nullcontext
from pathlib import Path

from vncards.maubinh.tables import Histograms, equilibrium, generate

SOURCE = Path(__file__).resolve().parent.parent / "src" / "maubinh"
FILES = {
    ("expected", "units"): "position_tables.bin",
    ("expected", "4-2"): "position_tables_42.bin",
    ("equilibrium", "units"): "equilibrium_tables.bin",
    ("equilibrium", "4-2"): "equilibrium_tables_42.bin",
}
DEFAULTS = {"expected": (500_000, 6, 20261129), "equilibrium": (250_000, 16, 20261130)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objective", choices=("expected", "equilibrium"), default="expected")
    parser.add_argument("--scoring", choices=("units", "4-2"), default="units")
    parser.add_argument("--deals", type=int, default=None, help="deals per iteration")
    parser.add_argument("--iterations", type=int, default=None, help="iterations (at most, for equilibrium)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--jobs", type=int, default=1, help="local processes (default: this one)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help="run on Ray")
    parser.add_argument("--batch-size", type=int, default=None, help="deals per task")
    parser.add_argument(
        "--start", type=Path, default=None, help="equilibrium: the first tables (a table file)"
    )
    parser.add_argument(
        "--split",
        action="store_true",
        help="equilibrium: tables per class of the player's hand (MBT3, 12x larger)",
    )
    args = parser.parse_args()
    deals, iterations, seed = DEFAULTS[args.objective]
    deals = args.deals or deals
    iterations = args.iterations or iterations
    seed = seed if args.seed is None else args.seed
    out = args.out or SOURCE / FILES[args.objective, args.scoring]

    cluster: Executor | None = None
    if args.ray is not None:
        from vncards.ray_executor import RayExecutor

        cluster = RayExecutor(args.ray or None)
    start = time.perf_counter()

    def log(line: str) -> None:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(f"{time.perf_counter() - start:7.1f} s  load {load}  {line}", flush=True)

    common = {"scoring": args.scoring, "executor": cluster, "jobs": args.jobs, "batch_size": args.batch_size}
    with cluster or nullcontext():
        if args.objective == "expected":
            tables = generate(deals, iterations, seed, log=log, **common)
        else:
            first = Histograms.from_bytes(args.start.read_bytes()) if args.start else None
            tables = equilibrium(deals, iterations, seed, start=first, split=args.split, log=log, **common)
    out.write_bytes(tables.to_bytes())
    took = time.perf_counter() - start
    print(f"wrote {out}: {tables.header}")
    print(f"wall time {took:.1f} s ({took / 60:.1f} min); load average now {os.getloadavg()}")


if __name__ == "__main__":
    main()
