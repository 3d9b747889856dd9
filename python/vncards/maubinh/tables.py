"""The opponent tables behind ``objective="expected"``: their file, and the generator that
samples them on any :class:`concurrent.futures.Executor` (a Ray cluster for 10⁸ deals).

For each position (back, middle, front) the tables count the strength classes opponents end
up playing there. :func:`generate` measures them by dealing seeded 4-player deals and arranging
every hand with the solver itself:

1. iteration 0 arranges with ``"strongest"`` (no tables needed);
2. each later iteration arranges the same deals with ``"expected"``, using as tables the *sum*
   of the histograms of every ``"expected"`` iteration so far (iteration 0's for the first): a
   best response to the average opponent, as in fictitious play (using only the last iteration
   oscillates: strong fronts make weak fronts pay, and back);
3. the summed histograms are the result.

Every deal is seeded on its own by ``(seed, deal number)``, so the deals can be cut into
batches and run anywhere: the summed counts are exactly the same.

The file (``MBT2``): the magic, a little-endian u32 length and that many bytes of UTF-8 JSON,
the header (``deals`` per iteration, ``iterations``, ``seed``, ``hands`` counted per position,
the ``rules`` the solver used), then little-endian u64 counts: back and middle over the 7,462
five-card classes in ``wheel="second"`` order, front over the 455 three-card classes.

>>> header = shipped_header()
>>> header["deals"] * header["iterations"] >= 1_000_000
True
"""

from __future__ import annotations

import functools
import json
import math
import struct
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as e:  # numpy is optional (the `numpy` extra); table generation needs it
    raise ModuleNotFoundError(
        "vncards.maubinh.tables needs numpy: pip install 'vncards[numpy]'", name="numpy"
    ) from e

from .. import _core
from ..parallel import batch_ranges, run_batches

__all__ = ["CLASSES5", "CLASSES3", "Histograms", "shipped_header", "sample", "generate"]

CLASSES5, CLASSES3 = 7462, 455
_MAGIC = b"MBT2"
#: Deals per batch at most (a few seconds of solving per core).
BATCH_DEALS = 20_000


@dataclass
class Histograms:
    """Counts of the classes played at each position, with the header saying how they were
    sampled. ``counts`` holds back, middle and front one after the other."""

    header: dict[str, Any]
    counts: npt.NDArray[np.uint64] = field(repr=False)

    @classmethod
    def from_bytes(cls, blob: bytes) -> Histograms:
        """Reads the file format (see the module docs)."""
        if blob[:4] != _MAGIC or len(blob) < 8:
            raise ValueError("Mậu Binh tables must start with MBT2")
        (size,) = struct.unpack_from("<I", blob, 4)
        counts = np.frombuffer(blob, dtype="<u8", offset=8 + size).astype(np.uint64)
        if counts.size != 2 * CLASSES5 + CLASSES3:
            raise ValueError(f"Mậu Binh tables hold {2 * CLASSES5 + CLASSES3} counts, not {counts.size}")
        return cls(json.loads(blob[8 : 8 + size].decode()), counts)

    def to_bytes(self) -> bytes:
        """The file format (see the module docs): what :meth:`from_bytes` reads back."""
        header = json.dumps(self.header, ensure_ascii=False).encode()
        return _MAGIC + struct.pack("<I", len(header)) + header + self.counts.astype("<u8").tobytes()

    def positions(self) -> tuple[npt.NDArray[np.uint64], ...]:
        """The counts of the back, the middle and the front."""
        c = self.counts
        return c[:CLASSES5], c[CLASSES5 : 2 * CLASSES5], c[2 * CLASSES5 :]

    def distance(self, other: Histograms) -> list[float]:
        """Largest change of a win probability per position (back, middle, front) between the
        two: the Kolmogorov distance of the class distributions."""
        return [
            float(np.abs(np.cumsum(p / p.sum()) - np.cumsum(q / q.sum())).max())
            for p, q in zip(self.positions(), other.positions(), strict=True)
        ]


def shipped_header() -> dict[str, Any]:
    """The header of the tables compiled into this build: deals, iterations, seed, hands."""
    header: dict[str, Any] = json.loads(_core.maubinh_tables_header())
    return header


@dataclass(frozen=True)
class _Deals:
    """Deals ``deals`` of a sample: the unit of work shipped to a worker."""

    deals: range
    seed: int
    objective: str
    model: bytes | None = field(repr=False)

    def __str__(self) -> str:
        return (
            f"Mậu Binh deals {self.deals.start}..{self.deals.stop - 1} (seed {self.seed}, {self.objective})"
        )


def _sample_batch(batch: _Deals) -> bytes:
    return _core.maubinh_position_histograms(
        len(batch.deals), batch.seed, batch.objective, batch.model, start=batch.deals.start
    )


def sample(
    deals: int,
    seed: int,
    objective: str,
    model: Histograms | None = None,
    *,
    executor: Executor | None = None,
    jobs: int | None = 1,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Histograms:
    """Histograms of deals ``0 .. deals - 1`` under ``seed``, every hand arranged with
    ``objective`` (``model`` replaces the shipped tables). The batches run on ``executor``, or
    on ``jobs`` local processes (default 1: this process, whose solver already uses every
    core). ``progress`` is called with the deals of each batch as it completes. The counts do
    not depend on the executor or the batch size.

    >>> h = sample(4, seed=1, objective="strongest", batch_size=3)
    >>> h.header["deals"], int(h.positions()[2].sum()) <= 16
    (4, True)
    """
    size = batch_size or max(1, min(BATCH_DEALS, math.ceil(deals / 64)))
    blob = model.to_bytes() if model is not None else None
    batches = [_Deals(r, seed, objective, blob) for r in batch_ranges(deals, size)]
    counts = np.zeros(2 * CLASSES5 + CLASSES3, dtype=np.uint64)
    rules = None
    for batch, part in run_batches(_sample_batch, batches, executor=executor, jobs=jobs):
        h = Histograms.from_bytes(part)
        counts += h.counts
        rules = h.header["rules"]
        if progress:
            progress(len(batch.deals))
    header = {"deals": deals, "seed": seed, "objective": objective, "rules": rules}
    return Histograms(header, counts)


def generate(
    deals: int = 500_000,
    iterations: int = 6,
    seed: int = 20261129,
    *,
    executor: Executor | None = None,
    jobs: int | None = 1,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> Histograms:
    """The tables by fictitious play (see the module docs): ``deals`` deals per iteration,
    one ``"strongest"`` iteration then ``iterations`` ``"expected"`` ones, all on the same
    deals of ``seed``. The header records ``deals``, ``iterations``, ``seed``, ``hands`` (per
    position) and ``rules``; ``log`` receives one line per iteration, with how far the averaged
    tables moved.
    """
    if deals < 1 or iterations < 1:
        raise ValueError("need at least one deal and one iteration")
    draw = functools.partial(
        sample, deals, seed, executor=executor, jobs=jobs, batch_size=batch_size, progress=progress
    )
    model = draw("strongest")
    if log:
        log("iteration 0 (strongest) done")
    total: Histograms | None = None
    for k in range(1, iterations + 1):
        new = draw("expected", model)
        if total is not None:
            new.counts += total.counts
        total = new
        if log:
            moved = ", ".join(f"{d:.4f}" for d in model.distance(total))
            log(
                f"iteration {k} (expected): largest win probability change of the average back/middle/front {moved}"
            )
        model = total
    assert total is not None
    total.header = {
        "deals": deals,
        "iterations": iterations,
        "seed": seed,
        "hands": int(total.positions()[0].sum()),
        "rules": total.header["rules"],
    }
    return total
