"""Mậu Binh benchmarks, side by side in one run (use a release build: ``maturin develop``).

- ``hand_ranks`` on a numpy batch of 5-card hands against the per-call speed of pip poker
  evaluators (treys, phevaluator, eval7, each if installed; install them in the bench venv
  only: ``pip install treys phevaluator eval7``);
- ``best_arrangement`` in µs per hand from Python, for every objective;
- ``best_arrangements`` hands per second on all cores;
- ``head_to_head``: units per seat per deal that ``"expected"`` wins against ``"strongest"``.

    python benches/maubinh_bench.py [--hands N] [--deals N] [--scorings units 4-2]

The arrangement costs are measured once per scoring (each objective reads that scoring's
tables: the equilibrium's are kept per class of the player's hand).
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from vncards import Card
from vncards.maubinh import (
    Arrangement,
    Objective,
    Rules,
    best_arrangement,
    best_arrangements,
    hand_rank,
    hand_ranks,
    head_to_head,
)

RANK_ASCII = "23456789TJQKA"
SUIT_ASCII = "scdh"
OBJECTIVES: tuple[Objective, ...] = ("strongest", "expected", "equilibrium")


def ascii_card(index: int) -> str:
    """Card.index (Tiến Lên order) to the usual "As" text."""
    rank, suit = divmod(index, 4)
    mb = (rank + 1) % 13  # Tiến Lên rank 0 is the 3; Mậu Binh (and poker) rank 0 is the 2
    return RANK_ASCII[mb] + SUIT_ASCII[suit]


def rate(fn: Callable[[], Any], items: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` items per second."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return items / best


def peer_evaluators(hands: np.ndarray) -> dict[str, Callable[[], Any] | str]:
    texts = [[ascii_card(int(i)) for i in row] for row in hands]
    out: dict[str, Callable[[], Any] | str] = {}
    try:
        from treys import Card as TCard
        from treys import Evaluator

        ev = Evaluator()
        tcards = [[TCard.new(c) for c in row] for row in texts]
        out["treys (per call)"] = lambda: [ev.evaluate(r[:2], r[2:]) for r in tcards]
    except Exception as e:
        out["treys"] = f"not available ({type(e).__name__})"
    try:
        from phevaluator import evaluate_cards

        out["phevaluator (per call)"] = lambda: [evaluate_cards(*r) for r in texts]
    except Exception as e:
        out["phevaluator"] = f"not available ({type(e).__name__})"
    try:
        import eval7

        ecards = [[eval7.Card(c) for c in row] for row in texts]
        out["eval7 (per call)"] = lambda: [eval7.evaluate(r) for r in ecards]
    except Exception as e:
        out["eval7"] = f"not available ({type(e).__name__})"
    return out


def one_by_one(hands: list[list[Card]], rules: Rules, objective: Objective) -> list[Arrangement]:
    """``best_arrangement`` called once per hand, as a table's suggestion is."""
    return [best_arrangement(h, rules, objective=objective) for h in hands]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="13-card hands to solve")
    parser.add_argument("--deals", type=int, default=100_000, help="head-to-head deals")
    parser.add_argument("--scorings", nargs="+", choices=("units", "4-2"), default=["units", "4-2"])
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()}")

    n5 = 1_000_000
    fives = np.argsort(rng.random((n5, 52)), axis=1)[:, :5].astype(np.uint8)
    print("\n5-card evaluation (hands/s)")
    batch = rate(lambda: hand_ranks(fives), n5)
    print(f"  vncards hand_ranks, numpy batch   {batch:>14,.0f}")
    small = fives[:100_000]
    card_lists = [[Card(int(i)) for i in row] for row in small[:20_000]]
    single = rate(lambda: [hand_rank(h) for h in card_lists], len(card_lists))
    print(f"  vncards hand_rank, per call        {single:>14,.0f}")
    best_peer = 0.0
    for name, fn in peer_evaluators(small).items():
        if isinstance(fn, str):
            print(f"  {name:<33} {fn}")
            continue
        r = rate(fn, len(small))
        best_peer = max(best_peer, r)
        print(f"  {name:<33} {r:>14,.0f}")
    if best_peer:
        print(f"  batch / fastest peer per call:     {batch / best_peer:>13.1f}x")

    thirteen = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :13].astype(np.uint8)
    lists = [[Card(int(i)) for i in row] for row in thirteen]
    sample = lists[:5_000]
    for scoring in args.scorings:
        rules = Rules(scoring=scoring)
        print(f"\nbest arrangement, scoring {scoring}")
        per_hand: dict[str, float] = {}
        batch_rate: dict[str, float] = {}
        for obj in OBJECTIVES:
            per_hand[obj] = rate(functools.partial(one_by_one, sample, rules, obj), len(sample))
            print(f"  best_arrangement({obj!r}) from Python: {1e6 / per_hand[obj]:8.1f} µs/hand")
        for obj in OBJECTIVES:
            batch_rate[obj] = rate(functools.partial(best_arrangements, thirteen, rules, obj), len(thirteen))
            print(f"  best_arrangements({obj!r}) numpy batch: {batch_rate[obj]:>10,.0f} hands/s")
        # The decision cost goal (issue 38): the equilibrium at most 2x the expected solve.
        print(
            f"  equilibrium / expected cost: single {per_hand['expected'] / per_hand['equilibrium']:.2f}x, "
            f"batch {batch_rate['expected'] / batch_rate['equilibrium']:.2f}x (goal <= 2x; "
            f"load {os.getloadavg()[0]:.1f})"
        )

    start = time.perf_counter()
    units = head_to_head(args.deals, seed=2026)
    took = time.perf_counter() - start
    print(f"\nhead-to-head, 4 players, {args.deals:,} deals (each played twice, seats swapped):")
    print(f"  'expected' vs 'strongest': {units:+.4f} units per seat per deal ({took:.1f} s)")


if __name__ == "__main__":
    main()
