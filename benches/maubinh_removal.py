"""What the player's own hand says about the other seats' arrangements (card removal), by
feature of the hand: the share of the three opponents' backs and middles that are flushes (or
straight flushes) and of their fronts holding a pair or better, by the player's longest suit,
aces, kings and distinct ranks. Every seat arranges with ``objective`` (default
``equilibrium``, default scoring), on ``--deals`` seeded four-player deals:

    python benches/maubinh_removal.py [--deals 20000] [--seed 7]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from vncards.maubinh import best_arrangements

SUITS = [sum(1 << c for c in range(52) if c % 4 == s) for s in range(4)]


def flush(mask: int) -> bool:
    return any(mask & ~s == 0 for s in SUITS)


def paired(mask: int) -> bool:
    ranks = [c >> 2 for c in range(52) if mask >> c & 1]
    return len(set(ranks)) < len(ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--objective", default="equilibrium")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    n = args.deals
    hands = np.argsort(rng.random((n, 52)), axis=1).astype(np.uint8).reshape(n * 4, 13)
    arranged = best_arrangements(hands, objective=args.objective)
    rows = [(flush(a.masks[0]), flush(a.masks[1]), paired(a.masks[2])) for a in arranged]
    shown = np.array(rows, dtype=float).reshape(n, 4, 3)
    ranks = hands >> 2
    features: dict[str, npt.NDArray[np.int64]] = {
        "longest suit": np.array([np.bincount(h % 4, minlength=4).max() for h in hands]),
        "aces": (ranks == 12).sum(axis=1),
        "kings": (ranks == 11).sum(axis=1),
        "distinct ranks >= 10": np.array([len(set(r.tolist())) >= 10 for r in ranks], dtype=np.int64),
    }
    groups: dict[str, list[tuple[str, Callable[[npt.NDArray[np.int64]], npt.NDArray[np.bool_]]]]] = {
        "longest suit": [
            ("4", lambda x: x <= 4),
            ("5", lambda x: x == 5),
            ("6", lambda x: x == 6),
            ("7+", lambda x: x >= 7),
        ],
        "aces": [
            ("0", lambda x: x == 0),
            ("1", lambda x: x == 1),
            ("2", lambda x: x == 2),
            ("3+", lambda x: x >= 3),
        ],
        "kings": [("0", lambda x: x == 0), ("1", lambda x: x == 1), ("2+", lambda x: x >= 2)],
        "distinct ranks >= 10": [("no", lambda x: x == 0), ("yes", lambda x: x == 1)],
    }
    print(f"{n:,} four-player deals (seed {args.seed}), every seat '{args.objective}'")
    print("the three opponents' share of flush backs, flush middles and fronts with a pair or better")
    for name, feature in features.items():
        print(f"by the player's {name}:")
        own = feature.reshape(n, 4)[:, 0]
        for label, test in groups[name]:
            sel = test(own)
            o = shown[sel][:, 1:, :].reshape(-1, 3)
            print(
                f"  {label:<4} {sel.mean():6.1%} of hands   back {o[:, 0].mean():.4f}   middle {o[:, 1].mean():.4f}   front {o[:, 2].mean():.4f}"
            )


if __name__ == "__main__":
    main()
