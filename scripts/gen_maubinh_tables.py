"""Regenerate the Mậu Binh opponent tables shipped as ``src/maubinh/position_tables.bin``.

The ``"expected"`` objective scores an arrangement with, for each position (back, middle,
front), the distribution of the hands opponents play there. This script measures those
distributions by dealing seeded 4-player deals and arranging every hand with the solver
itself:

1. iteration 0 arranges with ``"strongest"`` (no tables needed);
2. each later iteration arranges with ``"expected"`` on the same deals, using as tables the
   *sum* of the histograms of every ``"expected"`` iteration so far (iteration 0's for the
   first): a best response to the average opponent, as in fictitious play. (Using only the
   last iteration oscillates: strong fronts make weak fronts pay, and back.) It prints how far
   the averaged tables moved: the largest change of any win probability;
3. the averaged histograms are written (``MBT1`` + little-endian u32 counts: back and middle
   over the 7,462 five-card classes in ``wheel="second"`` order, front over the 455 three-card
   classes).

Defaults: 500,000 deals (2,000,000 hands, instant wins left out) per iteration, 6
``"expected"`` iterations (12,000,000 arranged hands in the shipped tables), seed 20261129:
about 5 minutes on 2 cores with a release build.
Rebuild afterwards (``maturin develop``) so the new file is compiled in.

    python scripts/gen_maubinh_tables.py [--deals N] [--iterations K] [--seed S] [--out PATH]
"""

from __future__ import annotations

import argparse
import struct
import time
from pathlib import Path

from vncards import _core

CLASSES5, CLASSES3 = 7462, 455
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "src" / "maubinh" / "position_tables.bin"


def split(blob: bytes) -> list[list[float]]:
    """The three normalised histograms of a tables blob."""
    counts = struct.unpack(f"<{2 * CLASSES5 + CLASSES3}I", blob[4:])
    parts = [counts[:CLASSES5], counts[CLASSES5 : 2 * CLASSES5], counts[2 * CLASSES5 :]]
    return [[c / sum(p) for c in p] for p in parts]


def add(a: bytes, b: bytes) -> bytes:
    """Two tables blobs with their counts summed."""
    n = 2 * CLASSES5 + CLASSES3
    summed = [x + y for x, y in zip(struct.unpack(f"<{n}I", a[4:]), struct.unpack(f"<{n}I", b[4:]))]
    return a[:4] + struct.pack(f"<{n}I", *summed)


def distance(a: bytes, b: bytes) -> list[float]:
    """Largest change of a win probability per position (back, middle, front): the
    Kolmogorov distance between the class distributions (their running sums)."""
    out = []
    for p, q in zip(split(a), split(b)):
        cp = cq = worst = 0.0
        for x, y in zip(p, q):
            cp, cq = cp + x, cq + y
            worst = max(worst, abs(cp - cq))
        out.append(worst)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500_000)
    parser.add_argument("--iterations", type=int, default=6)
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()

    start = time.perf_counter()
    blob = _core.maubinh_position_histograms(args.deals, args.seed, "strongest")
    print(f"iteration 0 (strongest): {time.perf_counter() - start:.1f} s", flush=True)
    total: bytes | None = None
    for k in range(1, args.iterations + 1):
        start = time.perf_counter()
        new = _core.maubinh_position_histograms(args.deals, args.seed, "expected", blob)
        total = new if total is None else add(total, new)
        moved = ", ".join(f"{d:.4f}" for d in distance(blob, total))
        print(f"iteration {k} (expected): {time.perf_counter() - start:.1f} s; largest win "
              f"probability change of the average back/middle/front {moved}", flush=True)
        blob = total
    args.out.write_bytes(blob)
    print(f"wrote {args.out} ({len(blob)} bytes, {args.deals} deals per iteration)")


if __name__ == "__main__":
    main()
