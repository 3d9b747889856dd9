"""Where the Mậu Binh equilibrium's tables lose to a best response under 4-2, and how much of it
each refinement wins back (the solver guide's "joint term" figures, docs/guides/solver.md).

Per hand, the best ``--top`` splits (distinct strengths) by the equilibrium's class tables
alone, the positions taken as independent (the solver's pruned search before any refinement;
the bench re-sorts the splits by that value, since ``ranked_arrangements`` lists the refined
candidates first), are scored against opponents dealt from the 39 cards the hand does not hold
(hands of a pool of random hands arranged by the shipped equilibrium, half to choose on, half
held out to score). The gain over the tables' first split is measured for:

- ``response``: the best of the splits on the choosing half (a best response restricted to
  them);
- ``card removal``: the most by the tables' model with each split's win, tie and lose
  probabilities counted exactly on the choosing half, the positions independent;
- ``joint outcome``: the tables' value plus (the majority counted exactly on the choosing half
  minus the majority of independent positions with those probabilities);
- ``both``: the card-removal model plus the copula's correction (below), among all the splits;
- ``copula K`` (K = 2, 4, 8, 16, up to ``--top``): the tables' value plus the correction of a
  16³ copula counted on the pool, among the best K splits only.

The shipped solver (``src/maubinh/solver.rs``, ``search_refined``) refines among the tables'
best ``CANDIDATES_42`` = 6 splits under 4-2 that are within ``MARGIN`` = 0.1 points of the
first (four under the default scoring), and plays the one with the most refined value: each
position's entries corrected for the cards the hand holds (estimated from the shipped
card-removal pool, ``src/maubinh/removal.rs``, where ``card removal`` here counts them
exactly) plus the copula's correction from the shipped cells (``src/maubinh/joint.rs``). It
is the ``both`` pick made among those six, between the ``copula 4`` and ``copula 8`` rows.

It also counts the response's changes by the direction of each position's strength.
Dev seeds only (not 2026 or 2035):

    python benches/maubinh_diagnose.py [--seed 7] [--pool 1000000] [--hands 2000] [--top 16]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections import Counter

import numpy as np
import numpy.typing as npt
from maubinh_removal_estimate import arranged_pool

from vncards import _core
from vncards.cards import from_mask
from vncards.maubinh import Rules, hand_rank, ranked_arrangements

GRID = 16
Array = npt.NDArray[np.float64]


def points_42(c: npt.NDArray[np.int64], opponents: npt.NDArray[np.int32]) -> Array:
    """4-2 points of ranks ``c`` against each opponent's ranks."""
    d = (c[None, :] > opponents).sum(1) - (c[None, :] < opponents).sum(1)
    out: Array = (d + np.sign(d)).astype(np.float64)
    return out


def two_of_three(x: float, y: float, z: float) -> float:
    return float(x * y + x * z + y * z - 2 * x * y * z)


def independent_majority(win: Array, tie: Array, lose: Array) -> float:
    def more(p: Array) -> float:
        return float(
            two_of_three(*p) + p[0] * tie[1] * tie[2] + tie[0] * p[1] * tie[2] + tie[0] * tie[1] * p[2]
        )

    return float((win - lose).sum() + more(win) - more(lose))


class Copula:
    """Opponents' quantile cells, uniform within each cell (as in ``src/maubinh/joint.rs``)."""

    def __init__(self, ranks: npt.NDArray[np.int32]) -> None:
        u = np.empty(ranks.shape)
        for p in range(3):
            x = ranks[:, p]
            s = np.sort(x)
            u[:, p] = (np.searchsorted(s, x, "left") + np.searchsorted(s, x, "right")) / 2 / len(x)
        cell = np.minimum((u * GRID).astype(int), GRID - 1)
        counts = np.zeros((GRID,) * 3)
        np.add.at(counts, (cell[:, 0], cell[:, 1], cell[:, 2]), 1)
        self.cdf = np.zeros((GRID + 1,) * 3)
        self.cdf[1:, 1:, 1:] = (counts / len(ranks)).cumsum(0).cumsum(1).cumsum(2)

    def __call__(self, x: float, y: float, z: float) -> float:
        at = [(min(int(u * GRID), GRID - 1), u * GRID - min(int(u * GRID), GRID - 1)) for u in (x, y, z)]
        out = 0.0
        for corner in itertools.product((0, 1), repeat=3):
            w = np.prod([f if d else 1 - f for (_, f), d in zip(at, corner, strict=True)])
            out += w * self.cdf[tuple(i + d for (i, _), d in zip(at, corner, strict=True))]
        return float(out)

    def correction(self, win: Array, lose: Array) -> float:
        c = self
        wins = (
            c(win[0], win[1], 1)
            + c(win[0], 1, win[2])
            + c(1, win[1], win[2])
            - 2 * c(*win)
            - two_of_three(*win)
        )
        a = 1 - lose
        cbm, cbf, cmf = c(a[0], a[1], 1), c(a[0], 1, a[2]), c(1, a[1], a[2])
        pairs = (1 - a[0] - a[1] + cbm) + (1 - a[0] - a[2] + cbf) + (1 - a[1] - a[2] + cmf)
        every = 1 - a.sum() + cbm + cbf + cmf - c(*a)
        return float(wins - (pairs - 2 * every - two_of_three(*lose)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pool", type=int, default=1_000_000)
    parser.add_argument("--hands", type=int, default=2_000)
    parser.add_argument("--top", type=int, default=16)
    args = parser.parse_args()
    if args.seed in (2026, 2035):
        parser.error("seeds 2026 and 2035 are kept for the shipped figures")
    rules = Rules(scoring="4-2")
    started = time.perf_counter()
    _, held, pool = arranged_pool(args.pool, args.seed, rules)
    copula = Copula(pool)
    print(f"pool of {len(pool):,} arranged hands, {time.perf_counter() - started:.0f} s", flush=True)
    tops = [k for k in (2, 4, 8, 16) if k <= args.top]
    gains: dict[str, list[float]] = {
        k: [] for k in ["response", "card removal", "joint outcome", "both", *(f"copula {k}" for k in tops)]
    }
    changes: Counter[tuple[int, ...]] = Counter()
    change_gain: Counter[tuple[int, ...]] = Counter()
    tested = np.argsort(np.random.default_rng(args.seed + 1000).random((args.hands, 52)), axis=1)[:, :13]
    for row in tested:
        hand = int((np.uint64(1) << row.astype(np.uint64)).sum(dtype=np.uint64))
        cands = ranked_arrangements(from_mask(hand), rules, "equilibrium", count=args.top)
        ranks = np.array([[hand_rank(part, rules) for part in (a.back, a.middle, a.front)] for a in cands])
        # The tables' own values (the shipped solver lists its candidates, the first six
        # within 0.1 of the best, by the refined value): the hand's class tables, the
        # positions independent, best first.
        t = _core.maubinh_position_tables(rules.core, "equilibrium", hand)
        rows = [[t[p][r] for p, r in zip(("back", "middle", "front"), c, strict=True)] for c in ranks]
        model = np.array(
            [independent_majority(*(np.array([e[i] for e in r]) for i in range(3))) for r in rows]
        )
        order = np.argsort(-model, kind="stable")
        ranks, model = ranks[order], model[order]
        opponents = pool[(held & np.uint64(hand)) == 0]
        choose, score = opponents[: len(opponents) // 2], opponents[len(opponents) // 2 :]
        chosen = np.array([points_42(c, choose).mean() for c in ranks])
        scored = np.array([points_42(c, score).mean() for c in ranks])
        win = np.array([(c[None] > choose).mean(0) for c in ranks])
        lose = np.array([(c[None] < choose).mean(0) for c in ranks])
        exact = np.array([independent_majority(w, 1 - w - lo, lo) for w, lo in zip(win, lose, strict=True)])
        corrected = model + np.array([copula.correction(w, lo) for w, lo in zip(win, lose, strict=True)])
        both = exact + np.array([copula.correction(w, lo) for w, lo in zip(win, lose, strict=True)])
        picks = {
            "response": chosen,
            "card removal": exact,
            "joint outcome": model + chosen - exact,
            "both": both,
        }
        for name, values in picks.items():
            gains[name].append(scored[int(np.argmax(values))] - scored[0])
        for k in tops:
            gains[f"copula {k}"].append(scored[int(np.argmax(corrected[:k]))] - scored[0])
        best = int(np.argmax(chosen))
        if best:
            direction = tuple(int(x) for x in np.sign(ranks[best] - ranks[0]))
            changes[direction] += 1
            change_gain[direction] += scored[best] - scored[0]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"seed {args.seed}, {args.hands:,} hands, best {args.top} by the tables, load {load}")
    for name, g in gains.items():
        v = np.array(g)
        half = 1.96 * v.std(ddof=1) / np.sqrt(len(v))
        print(
            f"  {name:<14} {v.mean():.5f} ± {half:.5f} points per hand, {np.mean(v != 0):.1%} of hands changed"
        )
    print("the response's changes by direction (back, middle, front: +1 stronger): count, points per hand")
    for direction, n in changes.most_common():
        print(f"  {direction}: {n}, {change_gain[direction] / args.hands:.5f}")


if __name__ == "__main__":
    main()
