"""Tứ Sắc benchmarks: min_rac / can_win calls per second on 20-card hands from Python, and
full random 4-player games per second. Run with a release build:

    maturin develop --release && python benches/tusac_bench.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from vncards import _core, tusac
from vncards.tusac import TuSacCard

DECK = [TuSacCard(k) for k in range(28) for _ in range(4)]


def rate(label: str, fn: Callable[[], object], n: int) -> None:
    start = time.perf_counter()
    for _ in range(n):
        fn()
    elapsed = time.perf_counter() - start
    print(f"{label:<52} {n / elapsed:>12,.0f} /s")


def main() -> None:
    rng = random.Random(1)
    deals = [rng.sample(DECK, 21) for _ in range(1000)]
    hands = [d[:20] for d in deals]
    offers = [d[20] for d in deals]
    packed = [_core.tusac_pack(h) for h in hands]
    n = 300_000

    i = 0

    def min_rac_list() -> int:
        nonlocal i
        i = (i + 1) % 1000
        return tusac.min_rac(hands[i])

    def can_win_list() -> bool:
        nonlocal i
        i = (i + 1) % 1000
        return tusac.can_win(hands[i], offer=offers[i])

    def min_rac_packed() -> int:
        nonlocal i
        i = (i + 1) % 1000
        return _core.tusac_min_rac_packed(packed[i])

    def can_win_packed() -> object:
        nonlocal i
        i = (i + 1) % 1000
        return _core.tusac_win_total_packed(packed[i], 0, offers[i].index, "hand", 1)

    rate("tusac.min_rac(20 TuSacCard)", min_rac_list, n)
    rate("tusac.can_win(20 TuSacCard, offer=card)", can_win_list, n)
    rate("_core.tusac_min_rac_packed (game's internal form)", min_rac_packed, n)
    rate("_core.tusac_win_total_packed (game's internal form)", can_win_packed, n)

    games = 1000
    seeds = iter(range(games))

    def one_game() -> None:
        g = tusac.Game(players=4, seed=next(seeds))
        while not g.is_over:
            g.auto_play(g.pending_seats[0])

    rate("full 4-player games (auto_play every seat)", one_game, games)


if __name__ == "__main__":
    main()
