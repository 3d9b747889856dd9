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
  ``--split`` keeps them per class of the player's hand (card removal, ``--scheme``). They are
  written in the compact form (``MBT4``; ``--exact`` writes the exact counts). The shipped files
  of both scorings are one such round (``--split --scheme 3 --deals 250000 --iterations 1
  --seed 20261204``: 48 classes) from the one-population tables (``--start``: ``git show
  e215099:src/maubinh/equilibrium_tables.bin``, ``git show
  1420e0d:src/maubinh/equilibrium_tables_42.bin``), about 2 minutes each on two cores at a
  load average of 6; each header holds its command.

The batches run in this process (the solver uses every core), on ``--jobs`` local processes,
or on a Ray cluster with ``--ray [ADDRESS]`` (``auto``, ``ray://host:10001``; none: a local
cluster), e.g. 10⁸ deals:

    python scripts/gen_maubinh_tables.py --deals 100000000 --ray auto

Rebuild afterwards (``maturin develop``) so the new file is compiled in. The script prints its
wall time and the machine's load average (a shared machine slows it down).

    python scripts/gen_maubinh_tables.py [--objective expected|equilibrium] [--scoring units|4-2]
        [--deals N] [--iterations K] [--seed S] [--out PATH] [--jobs J | --ray [ADDRESS]]
        [--batch-size B] [--start TABLES] [--split [--scheme 1|2|3]] [--exact] [--steps A,B,...]
        [--eval-deals N --eval-samples K] [--measure-seed S --measure-deals N --measure-samples K]

The header records the command that made the file, the start tables (their SHA-256 and their
own header, so a chain of continued runs can be followed back: the start is the version of the
file, among those ``git log -- src/maubinh`` lists, with that SHA-256) and, with
``--measure-seed``, the exploitability and agreement of the start and of the result measured
heads-up on that seed (one the tables are neither built nor chosen on; the shipped figures use
2026): ``--measure-deals`` duplicate pairs, ``--measure-samples`` samples and as many held out
per decision.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor
from contextlib import nullcontext
from pathlib import Path

from vncards import _core
from vncards.maubinh import Rules, exploitability
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
        help="equilibrium: tables per class of the player's hand (--scheme)",
    )
    parser.add_argument(
        "--scheme",
        type=int,
        choices=(1, 2, 3),
        default=1,
        help="with --split: 1 by aces, kings and distinct ranks; 2 by aces, kings and the longest suit; "
        "3 by all four (48 classes, 0.47 MB compact)",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="equilibrium: write the exact counts (MBT2/MBT3) rather than the compact MBT4 that ships",
    )
    parser.add_argument(
        "--steps",
        type=lambda text: [float(a) for a in text.split(",")],
        default=None,
        help="equilibrium: the blend step of each iteration, e.g. 0.333,0.25 (default 1/2 x4, then 1/(k-2))",
    )
    parser.add_argument(
        "--measure-seed", type=int, default=None, help="measure start and result on this seed"
    )
    parser.add_argument(
        "--eval-deals",
        type=int,
        default=2_000,
        help="equilibrium: duplicate pairs that choose the round kept",
    )
    parser.add_argument(
        "--eval-samples", type=int, default=5_000, help="equilibrium: samples per decision there"
    )
    parser.add_argument("--measure-deals", type=int, default=1_000)
    parser.add_argument("--measure-samples", type=int, default=5_000)
    args = parser.parse_args()
    command = shlex.join(["python", "scripts/gen_maubinh_tables.py", *sys.argv[1:]])
    deals, iterations, seed = DEFAULTS[args.objective]
    deals = args.deals or deals
    iterations = args.iterations or (len(args.steps) if args.steps else iterations)
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
            blob = args.start.read_bytes() if args.start else None
            first = Histograms.from_bytes(blob) if blob else None
            # Kept apart: when no round improves on the start, the start is returned re-headed.
            first_header = dict(first.header) if first else None
            tables = equilibrium(
                deals,
                iterations,
                seed,
                start=first,
                split=args.split,
                scheme=args.scheme,
                steps=args.steps,
                eval_deals=args.eval_deals,
                eval_samples=args.eval_samples,
                log=log,
                **common,
            )
            tables.header["command"] = command
            if blob:
                tables.header["start"] = {
                    "file": args.start.name,
                    "sha256": hashlib.sha256(blob).hexdigest(),
                    "header": first_header,
                }
            if args.measure_seed is not None:
                tables.header["measured"] = measured(first, tables, args, log)
    out.write_bytes(tables.to_bytes(compact=args.objective == "equilibrium" and not args.exact))
    took = time.perf_counter() - start
    print(f"wrote {out}: {tables.header}")
    print(f"wall time {took:.1f} s ({took / 60:.1f} min); load average now {os.getloadavg()}")


def measured(
    first: Histograms | None, tables: Histograms, args: argparse.Namespace, log: Callable[[str], None]
) -> dict[str, object]:
    """Heads-up exploitability ``[points, low, high]`` and agreement of the start (default: the
    shipped expected tables) and of the result on ``--measure-seed``: the same deals and
    samples for both."""
    start = first or Histograms.from_bytes(_core.maubinh_tables_file("expected", args.scoring))
    size = {"deals": args.measure_deals, "samples": args.measure_samples, "seed": args.measure_seed}
    out: dict[str, object] = {**size, "held_out": args.measure_samples, "players": 2}
    for name, model in (("start", start), ("these", tables)):
        e = exploitability("equilibrium", rules=Rules(scoring=args.scoring), tables=model, **size)
        out[name] = [round(e.points, 5), round(e.interval[0], 5), round(e.interval[1], 5)]
        out[f"agreement_{name}"] = round(e.agreement, 4)
        log(f"measured {name} on seed {args.measure_seed}: {out[name]}, agreement {e.agreement:.1%}")
    return out


if __name__ == "__main__":
    main()
