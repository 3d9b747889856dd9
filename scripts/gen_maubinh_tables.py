"""Regenerate the Mậu Binh opponent tables shipped as ``src/maubinh/position_tables.bin``.

The method and the file format are described in :mod:`vncards.maubinh.tables`; the file's
header records the deals per iteration, the iterations, the seed and the rules.

Defaults: 500,000 deals (2,000,000 hands, instant wins left out) per iteration, 6
``"expected"`` iterations (12,000,000 arranged hands in the shipped tables), seed 20261129:
about 5 minutes on 2 idle cores with a release build. The batches run in this process (the
solver uses every core), on ``--jobs`` local processes, or on a Ray cluster with ``--ray
[ADDRESS]`` (``auto``, ``ray://host:10001``; none: a local cluster), e.g. 10⁸ deals:

    python scripts/gen_maubinh_tables.py --deals 100000000 --ray auto

Rebuild afterwards (``maturin develop``) so the new file is compiled in.

    python scripts/gen_maubinh_tables.py [--deals N] [--iterations K] [--seed S] [--out PATH]
        [--jobs J | --ray [ADDRESS]] [--batch-size B]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import Executor
from contextlib import nullcontext
from pathlib import Path

from vncards.maubinh.tables import generate

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "maubinh" / "position_tables.bin"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500_000, help="deals per iteration")
    parser.add_argument("--iterations", type=int, default=6, help='"expected" iterations')
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--jobs", type=int, default=1, help="local processes (default: this one)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS", help="run on Ray")
    parser.add_argument("--batch-size", type=int, default=None, help="deals per task")
    args = parser.parse_args()

    cluster: Executor | None = None
    if args.ray is not None:
        from vncards.ray_executor import RayExecutor

        cluster = RayExecutor(args.ray or None)
    start = time.perf_counter()
    with cluster or nullcontext():
        tables = generate(
            args.deals,
            args.iterations,
            args.seed,
            executor=cluster,
            jobs=args.jobs,
            batch_size=args.batch_size,
            log=lambda line: print(f"{time.perf_counter() - start:7.1f} s  {line}", flush=True),
        )
    args.out.write_bytes(tables.to_bytes())
    print(f"wrote {args.out}: {tables.header} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
