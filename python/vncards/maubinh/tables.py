"""The opponent tables behind ``objective="expected"`` and ``objective="equilibrium"``: their
file, and the generators that sample them on any :class:`concurrent.futures.Executor` (a Ray
cluster for 10⁸ deals).

For each position (back, middle, front) the tables count the strength classes opponents end
up playing there. :func:`generate` measures the expected tables by dealing seeded 4-player
deals and arranging every hand with the solver itself:

1. iteration 0 arranges with ``"strongest"`` (no tables needed);
2. each later iteration arranges the same deals with ``"expected"``, using as tables the *sum*
   of the histograms of every ``"expected"`` iteration so far (iteration 0's for the first): a
   best response to the average opponent, as in fictitious play (using only the last iteration
   oscillates: strong fronts make weak fronts pay, and back);
3. the summed histograms are the result.

Six such iterations leave the tables away from the strategy they make: the solver, best
responding to them, plays a front distribution several percent away from the one it assumes,
and a best response exploits that (see :func:`vncards.maubinh.exploitability`).
:func:`equilibrium` continues from them. Each iteration arranges fresh deals
with the current tables and moves the tables part of the way toward what was played, ``T ← (1 − a)·T + a·played``
(the anchor's blend of a strategy with its counter-strategy, a = 1/2 at first, then
fictitious play's shrinking steps ``1/(k + 1)``), measures the exploitability of the new
tables' strategy on a fixed set of evaluation deals, and keeps the least exploitable tables,
stopping when ``patience`` iterations in a row have not improved on them. With ``split=True``
it also corrects for card removal (the cards a player holds are cards no opponent holds): the
tables are kept per class of the player's own hand (aces 0, 1, 2, 3+; kings 0, 1, 2+; fewer
than 10 distinct ranks or not: 24 classes; ``scheme=2`` puts the longest suit, up to 4 or 5+,
in place of the distinct ranks; ``scheme=3`` splits the 24 by the longest suit: 48 classes),
counting each other seat's arrangement in the class of each seat's hand. The shipped
equilibrium tables of both scorings are such files of 48 classes in the compact form (one
round from the previous one-population tables, measured less exploitable on a seed they were
not made on: see their headers).

Every deal is seeded on its own by ``(seed, deal number)``, so the deals can be cut into
batches and run anywhere: the summed counts are exactly the same.

The file (``MBT2``): the magic, a little-endian u32 length and that many bytes of UTF-8 JSON,
the header (``deals`` per iteration, ``iterations``, ``seed``, ``hands`` counted per position,
the ``rules`` the solver used; the equilibrium tables add their run: steps, measured
exploitability per iteration, the evaluation's size), then little-endian u64 counts: back and
middle over the 7,462 five-card classes in ``wheel="second"`` order, front over the 455
three-card classes. ``MBT3`` (split, exact): the same header, then the scheme's id (one
byte) and per class of hands little-endian u32 counts, back, middle, front.

The compact file (``MBT4``, what the equilibrium tables ship as, ``to_bytes(compact=True)``):
the same header and scheme byte, the quantization's bits (16), then per class and position the
counts quantized so that every cumulative share is the exact one rounded to the nearest
multiple of 2⁻¹⁶ (so every win and lose probability the solver reads is within 2⁻¹⁷ ≈ 7.6·10⁻⁶
of the exact counts'), as unsigned LEB128 numbers where a 0 is followed by the length of its
run of zeros (about half of the classes are never played at a position). 48 classes take
about 0.47 MB, against 2.95 MB of u32 counts. Read back, each position totals 2³¹, the blended
tables' scale. A version of vncards that does not know a file's format refuses it with an error
that names the format.

Under 4-2 the equilibrium also reads the **joint cells** (``MBJ1``, :func:`joint_cells`,
``scripts/gen_maubinh_joint.py``): where an opponent's back, middle and front fall in the
player's class tables, counted on a 16³ grid over the equilibrium's own play, which correct
the 4-2 majority for an opponent's three hands being played together (the solver guide's
"joint term").

>>> header = shipped_header()
>>> header["deals"] * header["iterations"] >= 1_000_000
True
>>> shipped_header("equilibrium")["iterations"] >= 1
True
"""

from __future__ import annotations

import functools
import json
import math
import struct
from collections.abc import Callable, Sequence
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
from .._args import count_arg
from ..errors import RulesError
from ..parallel import batch_ranges, run_batches

__all__ = ["CLASSES5", "CLASSES3", "Histograms", "shipped_header", "sample", "generate", "equilibrium"]

CLASSES5, CLASSES3 = 7462, 455
_PER = 2 * CLASSES5 + CLASSES3
_MAGIC, _SPLIT = b"MBT2", b"MBT3"
#: Bits of the compact form's quantization (``MBT4``, ``src/maubinh/population.rs``): each
#: position's cumulative shares are kept to the nearest multiple of 2⁻¹⁶.
COMPACT_BITS = 16
#: Population schemes and their classes of hands: 0 one population, 1 split by high cards and
#: distinct ranks, 2 by high cards and the longest suit, 3 by all three (the shipped
#: equilibrium tables': 0.47 MB compact, 2.95 MB of exact counts).
SCHEMES = {0: 1, 1: 24, 2: 24, 3: 48}
#: How each split scheme divides the player's hands (the tables' header says it).
SCHEME_NAMES = {
    1: "by aces (0-3+), kings (0-2+) and distinct ranks (<10, 10+) held: 24 classes",
    2: "by aces (0-3+), kings (0-2+) and the longest suit (<5, 5+) held: 24 classes",
    3: "by aces (0-3+), kings (0-2+), distinct ranks (<10, 10+) and the longest suit (<5, 5+) held: 48 classes",
}
#: Deals per batch at most (a few seconds of solving per core).
BATCH_DEALS = 20_000
#: Most deals one generation run plays, over all its iterations (``deals × iterations``):
#: about a day on two idle cores (some 10,000 four-player deals a second), minutes on a cluster.
MAX_TABLE_DEALS = 1_000_000_000
#: Most iterations of :func:`generate` and :func:`equilibrium`.
MAX_ITERATIONS = 1_000


def _work_args(deals: object, iterations: object, rounds: int) -> tuple[int, int]:
    """``deals`` and ``iterations`` checked, with their product (``rounds`` dealings of
    ``deals`` per iteration, plus ``rounds - 1`` fixed ones) within :data:`MAX_TABLE_DEALS`."""
    deals = count_arg("deals", deals, minimum=1, maximum=MAX_TABLE_DEALS)
    iterations = count_arg("iterations", iterations, minimum=1, maximum=MAX_ITERATIONS)
    total = deals * (iterations + rounds - 1)
    if total > MAX_TABLE_DEALS:
        raise RulesError(
            f"deals × iterations = {total:,} deals; one generation plays at most {MAX_TABLE_DEALS:,}"
        )
    return deals, iterations


def _counts(blob: bytes, dtype: str, offset: int) -> npt.NDArray[np.uint64]:
    if (len(blob) - offset) % np.dtype(dtype).itemsize:
        raise RulesError("Mậu Binh tables end inside a count")
    return np.frombuffer(blob, dtype=dtype, offset=offset).astype(np.uint64)


@dataclass
class Histograms:
    """Counts of the classes played at each position, with the header saying how they were
    sampled. ``counts`` holds back, middle and front one after the other, once per class of
    the player's own hand: one population (``scheme`` 0, the expected tables' ``MBT2`` file)
    or split by a :data:`SCHEME_NAMES` scheme (``MBT3``, exact, or the compact ``MBT4`` of the
    shipped equilibrium tables: 48 classes, ``scheme`` 3; see ``src/maubinh/population.rs``)."""

    header: dict[str, Any]
    counts: npt.NDArray[np.uint64] = field(repr=False)
    scheme: int = 0

    @classmethod
    def from_bytes(cls, blob: bytes) -> Histograms:
        """Reads the file formats (see the module docs), the compact ``MBT4`` as the counts it
        decodes to; a damaged file, or one of a format newer than this version reads, raises
        :class:`~vncards.RulesError`."""
        if isinstance(blob, (bytes, bytearray)) and blob[:4] not in (_MAGIC, _SPLIT):
            # The compact form (and any other) is decoded, or refused by name, by the core.
            blob = _core.maubinh_tables_recode(bytes(blob), compact=False)
        if not isinstance(blob, (bytes, bytearray)) or blob[:4] not in (_MAGIC, _SPLIT) or len(blob) < 8:
            raise RulesError("Mậu Binh tables must start with MBT2, MBT3 or MBT4")
        (size,) = struct.unpack_from("<I", blob, 4)
        try:
            header = json.loads(blob[8 : 8 + size].decode())
        except ValueError as e:  # not UTF-8, not JSON
            raise RulesError(f"Mậu Binh tables have a damaged header: {e}") from None
        if not isinstance(header, dict) or len(blob) < 8 + size:
            raise RulesError("Mậu Binh tables have a damaged header")
        if blob[:4] == _MAGIC:
            counts = _counts(blob, "<u8", 8 + size)
            scheme, parts = 0, 1
        else:
            if len(blob) < 9 + size or blob[8 + size] not in SCHEMES:
                raise RulesError("Mậu Binh split tables need a known scheme after the header")
            scheme = blob[8 + size]
            parts = SCHEMES[scheme]
            counts = _counts(blob, "<u4", 9 + size)
        if counts.size != parts * _PER:
            raise RulesError(f"Mậu Binh tables hold {parts * _PER} counts, not {counts.size}")
        return cls(header, counts, scheme)

    def to_bytes(self, *, compact: bool = False) -> bytes:
        """The file format (see the module docs): what :meth:`from_bytes` reads back. With
        ``compact``, the quantized ``MBT4`` form the equilibrium tables ship in (every
        cumulative share within 2⁻¹⁷ of these counts'; the tables read back are those
        quantized counts); otherwise the exact counts (``MBT2``, or ``MBT3`` when split)."""
        header = json.dumps(self.header, ensure_ascii=False).encode()
        if self.scheme == 0:
            exact = _MAGIC + struct.pack("<I", len(header)) + header + self.counts.astype("<u8").tobytes()
        else:
            if int(self.counts.max(initial=0)) >= 2**32:
                raise ValueError("split tables hold 32-bit counts")
            exact = (
                _SPLIT
                + struct.pack("<I", len(header))
                + header
                + bytes([self.scheme])
                + self.counts.astype("<u4").tobytes()
            )
        return _core.maubinh_tables_recode(exact, compact=True) if compact else exact

    @property
    def parts(self) -> int:
        """Classes of the player's hand the counts are split by."""
        return self.counts.size // _PER

    def positions(self, part: int = 0) -> tuple[npt.NDArray[np.uint64], ...]:
        """The counts of the back, the middle and the front (of one class of hands)."""
        c = self.counts[part * _PER : (part + 1) * _PER]
        return c[:CLASSES5], c[CLASSES5 : 2 * CLASSES5], c[2 * CLASSES5 :]

    def distance(self, other: Histograms) -> list[float]:
        """Largest change of a win probability per position (back, middle, front) between the
        two, over the classes of hands: the Kolmogorov distance of the class distributions
        (one population stands for every class)."""
        out = [0.0, 0.0, 0.0]
        for k in range(max(self.parts, other.parts)):
            mine = self.positions(min(k, self.parts - 1))
            theirs = other.positions(min(k, other.parts - 1))
            for i, (p, q) in enumerate(zip(mine, theirs, strict=True)):
                if p.sum() and q.sum():
                    out[i] = max(out[i], float(np.abs(np.cumsum(p / p.sum()) - np.cumsum(q / q.sum())).max()))
        return out


def joint_cells(
    deals: int, seed: int, *, start: int = 0, cells: bytes | None = None, play: str = "tables"
) -> bytes:
    """The 4-2 joint term's counts (the ``MBJ1`` file, see ``src/maubinh/joint.rs``): in the
    seeded 4-player deals ``start .. start + deals``, every seat's opponents, arranged by the
    shipped 4-2 equilibrium tables without the correction (``play="tables"``) or by the shipped
    strategy itself, card removal and joint term included (``play="corrected"``: one step of
    fictitious play on the cells), counted at the quantiles their back, middle and front have
    under the seat's own class tables, on a 16 × 16 × 16 grid.
    ``cells`` are the counts of deals ``0 .. start`` (a checkpoint; given exactly when
    ``start > 0``) and are added in, so the result is the file of deals ``0 .. start + deals``
    and a long run can stop and resume (``scripts/gen_maubinh_joint.py``).

    >>> first = joint_cells(20, seed=1)
    >>> joint_header(joint_cells(30, seed=1, start=20, cells=first))["deals"]
    50
    """
    return bytes(_core.maubinh_joint_cells(deals, seed, start=start, cells=cells, play=play))


def joint_header(blob: bytes) -> dict[str, Any]:
    """The JSON header of a joint-cells file (``MBJ1``)."""
    if blob[:4] != b"MBJ1" or len(blob) < 8:
        raise RulesError("joint tables must start with MBJ1 and a header")
    (length,) = struct.unpack_from("<I", blob, 4)
    header: dict[str, Any] = json.loads(blob[8 : 8 + length])
    return header


def shipped_joint_header() -> dict[str, Any]:
    """The header of the 4-2 joint cells compiled into this build: deals, seed, grid, rules
    and the command that made them."""
    return joint_header(_core.maubinh_joint_file())


def shipped_header(objective: str = "expected", scoring: str = "units") -> dict[str, Any]:
    """The header of an objective's tables compiled into this build, for a scoring
    (``"units"`` or ``"4-2"``): deals, iterations, seed, hands, rules."""
    header: dict[str, Any] = json.loads(_core.maubinh_tables_header(objective, scoring))
    return header


@dataclass(frozen=True)
class _Deals:
    """Deals ``deals`` of a sample: the unit of work shipped to a worker."""

    deals: range
    seed: int
    objective: str
    model: bytes | None = field(repr=False)
    scoring: str = "units"
    split: bool = False
    scheme: int = 1

    def __str__(self) -> str:
        return (
            f"Mậu Binh deals {self.deals.start}..{self.deals.stop - 1} (seed {self.seed}, {self.objective}, "
            f"scoring {self.scoring})"
        )


def _sample_batch(batch: _Deals) -> bytes:
    return _core.maubinh_position_histograms(
        len(batch.deals),
        batch.seed,
        batch.objective,
        batch.model,
        start=batch.deals.start,
        scoring=batch.scoring,
        split=batch.split,
        scheme=batch.scheme,
    )


def sample(
    deals: int,
    seed: int,
    objective: str,
    model: Histograms | None = None,
    *,
    scoring: str = "units",
    split: bool = False,
    scheme: int = 1,
    executor: Executor | None = None,
    jobs: int | None = 1,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Histograms:
    """Histograms of deals ``0 .. deals - 1`` under ``seed``, every hand arranged with
    ``objective`` (at most :data:`MAX_TABLE_DEALS`) under the default rules with ``scoring`` (``model`` replaces the objective's
    shipped tables; ``split`` counts them per class of each seat's own hand, 24 classes of
    ``scheme`` 1 or 2, 48 of 3 (see :data:`SCHEME_NAMES` and :class:`Histograms`)). The batches run on ``executor``, or on ``jobs`` local processes (default 1: this process, whose solver already uses every
    core). ``progress`` is called with the deals of each batch as it completes. The counts do
    not depend on the executor or the batch size.

    >>> h = sample(4, seed=1, objective="strongest", batch_size=3)
    >>> h.header["deals"], int(h.positions()[2].sum()) <= 16
    (4, True)
    """
    deals = count_arg("deals", deals, minimum=1, maximum=MAX_TABLE_DEALS)
    if split and (isinstance(scheme, bool) or scheme not in SCHEME_NAMES):
        raise RulesError(f"a split population's scheme is one of {sorted(SCHEME_NAMES)}, not {scheme!r}")
    size = batch_size or max(1, min(BATCH_DEALS, math.ceil(deals / 64)))
    blob = model.to_bytes() if model is not None else None
    batches = [_Deals(r, seed, objective, blob, scoring, split, scheme) for r in batch_ranges(deals, size)]
    counts: npt.NDArray[np.uint64] | None = None
    rules, scheme = None, 0
    for batch, part in run_batches(_sample_batch, batches, executor=executor, jobs=jobs):
        h = Histograms.from_bytes(part)
        counts = h.counts if counts is None else counts + h.counts
        rules, scheme = h.header["rules"], h.scheme
        if progress:
            progress(len(batch.deals))
    assert counts is not None
    header = {"deals": deals, "seed": seed, "objective": objective, "rules": rules}
    return Histograms(header, counts, scheme)


def generate(
    deals: int = 500_000,
    iterations: int = 6,
    seed: int = 20261129,
    *,
    scoring: str = "units",
    executor: Executor | None = None,
    jobs: int | None = 1,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> Histograms:
    """The expected tables by fictitious play (see the module docs): ``deals`` deals per
    iteration, one ``"strongest"`` iteration then ``iterations`` ``"expected"`` ones, all on
    the same deals of ``seed``. The header records ``deals``, ``iterations``, ``seed``,
    ``hands`` (per position) and ``rules``; ``log`` receives one line per iteration, with how
    far the averaged tables moved. ``deals × (iterations + 1)`` is at most
    :data:`MAX_TABLE_DEALS` (1,000,000,000), ``iterations`` at most 1,000; Ctrl-C stops a run
    within a fraction of a second (``KeyboardInterrupt``).
    """
    deals, iterations = _work_args(deals, iterations, 2)
    draw = functools.partial(
        sample,
        deals,
        seed,
        scoring=scoring,
        executor=executor,
        jobs=jobs,
        batch_size=batch_size,
        progress=progress,
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


#: Total count per position (and class of hands) of blended tables: fits the split file's
#: 32-bit counts, fine enough that rounding moves no win probability by 10⁻⁹.
_BLEND_SCALE = 2**31


def _shares(h: Histograms, parts: int) -> npt.NDArray[np.float64]:
    """Each position's counts, per class of hands, as a probability distribution (one
    population stands for every class; an empty class is NaN)."""
    out = []
    for k in range(parts):
        for p in h.positions(min(k, h.parts - 1)):
            total = float(p.sum())
            out.append(p.astype(np.float64) / total if total else np.full(p.size, np.nan))
    return np.concatenate(out)


def blend(old: Histograms, new: Histograms, step: float) -> npt.NDArray[np.uint64]:
    """Counts of ``(1 - step)·old + step·new``, position by position (and class by class) as
    distributions; where ``new`` saw no hand of a class, ``old`` is kept."""
    parts = max(old.parts, new.parts)
    before, after = _shares(old, parts), _shares(new, parts)
    mix = np.where(np.isnan(after), before, (1.0 - step) * before + step * after)
    counts: npt.NDArray[np.uint64] = np.rint(mix * _BLEND_SCALE).astype(np.uint64)
    return counts


def measure(
    model: Histograms, *, scoring: str = "units", deals: int = 2_000, samples: int = 5_000, seed: int = 0
) -> tuple[float, float]:
    """Exploitability (points per hand, heads-up) of the solver's strategy with ``model`` as
    its tables, and the half-width of its 95% interval: see :func:`vncards.maubinh.exploitability`."""
    from .core import Rules
    from .exploit import exploitability

    r = Rules(scoring="4-2" if scoring == "4-2" else "units")
    e = exploitability("equilibrium", rules=r, deals=deals, samples=samples, seed=seed, tables=model)
    return e.points, e.points - e.interval[0]


def equilibrium(
    deals: int = 250_000,
    iterations: int = 16,
    seed: int = 20261130,
    *,
    scoring: str = "units",
    start: Histograms | None = None,
    split: bool = False,
    scheme: int = 1,
    steps: Sequence[float] | None = None,
    patience: int = 4,
    eval_deals: int = 2_000,
    eval_samples: int = 5_000,
    eval_seed: int = 7,
    executor: Executor | None = None,
    jobs: int | None = 1,
    batch_size: int | None = None,
    progress: Callable[[int], None] | None = None,
    log: Callable[[str], None] | None = None,
) -> Histograms:
    """The equilibrium tables (see the module docs). ``start``: the first tables (default: the
    shipped expected ones for ``scoring``); ``split`` and ``scheme`` as for :func:`sample`.
    Iteration ``k`` (from 1) arranges the ``deals`` 4-player deals of seed ``seed + k`` with the
    current tables, blends the tables toward what
    was played with step 1/2 for the first four, then ``1/(k - 2)`` (or ``steps[k - 1]``: a
    continued run goes on with the shrinking steps), and measures the new
    tables' heads-up exploitability (:func:`measure` with ``eval_deals``, ``eval_samples`` and
    ``eval_seed``, the same evaluation deals every time). Stops after ``iterations``, or when
    ``patience`` in a row have not improved on the best. Returns the best tables; their header
    records ``deals``, ``iterations`` (run), ``best`` (the iteration kept), ``seed``, ``rules``,
    the ``steps``, the ``exploitability`` measured at every iteration (``[points,
    half-width]``, iteration 0 = ``start``) and the evaluation's size. ``deals × iterations``
    is at most :data:`MAX_TABLE_DEALS` (1,000,000,000), ``iterations`` and ``patience`` at most
    1,000, and each measurement is bounded as :func:`~vncards.maubinh.exploitability` is; Ctrl-C
    stops a run within a fraction of a second (``KeyboardInterrupt``).
    """
    deals, iterations = _work_args(deals, iterations, 1)
    patience = count_arg("patience", patience, minimum=1, maximum=MAX_ITERATIONS)
    schedule = None if steps is None else list(steps)
    if schedule is not None and (
        len(schedule) != iterations
        or not all(
            isinstance(a, (int, float)) and not isinstance(a, bool) and 0.0 < a <= 1.0 for a in schedule
        )
    ):
        raise RulesError(f"steps must be {iterations} numbers in (0, 1], one per iteration")
    draw = functools.partial(
        sample,
        deals,
        scoring=scoring,
        split=split,
        scheme=scheme,
        executor=executor,
        jobs=jobs,
        batch_size=batch_size,
        progress=progress,
    )
    model = (
        start if start is not None else Histograms.from_bytes(_core.maubinh_tables_file("expected", scoring))
    )
    judge = functools.partial(
        measure, scoring=scoring, deals=eval_deals, samples=eval_samples, seed=eval_seed
    )
    scores = [judge(model)]
    taken: list[float] = []
    best, best_k, run = model, 0, 0
    if log:
        log(f"iteration 0 (start): exploitability {scores[0][0]:.5f} ± {scores[0][1]:.5f}")
    rules = None
    for k in range(1, iterations + 1):
        played = draw(seed + k, "equilibrium", model)
        rules = played.header["rules"]
        step = float(schedule[k - 1]) if schedule is not None else 0.5 if k <= 4 else 1.0 / (k - 2)
        moved = model.distance(played)
        model = Histograms({}, blend(model, played, step), played.scheme)
        taken.append(step)
        scores.append(judge(model))
        run = k
        if log:
            shown = ", ".join(f"{d:.4f}" for d in moved)
            log(
                f"iteration {k} (step {step:.3f}): played vs assumed win probabilities (back/middle/front) "
                f"{shown}; exploitability {scores[-1][0]:.5f} ± {scores[-1][1]:.5f}"
            )
        if scores[-1][0] < scores[best_k][0]:
            best, best_k = model, k
        elif k - best_k >= patience:
            break
    best.header = {
        "deals": deals,
        "iterations": run,
        "best": best_k,
        "seed": seed,
        "rules": rules,
        "population": SCHEME_NAMES.get(best.scheme, "one"),
        "steps": taken,
        "exploitability": [[round(p, 6), round(h, 6)] for p, h in scores],
        "evaluation": {"deals": eval_deals, "samples": eval_samples, "seed": eval_seed, "players": 2},
    }
    return best
