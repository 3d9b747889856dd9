"""Tiến Lên speed figures (run with a release build: ``maturin develop --release``):

- Python ``tienlen.legal_plays`` calls/s on the 82-lead hand of issue 3 (a lazy ``PlayList``),
  and with every Combo built (``list(...)``: what the call cost when it returned a list);
- ``tienlen.legal_play_masks`` (a numpy array of masks) against the Rust move generator alone
  (a timing loop inside ``_core``, GIL released), medians of 3 interleaved rounds;
- complete 4-player hands with random bots through the public ``Game`` API;
- the same generator in pure Python (the brute-force oracle of the tests), for the ratio.

    python benches/tienlen_bench.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from vncards import _core, parse_cards, tienlen
from vncards.cards import to_mask

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_tienlen_oracle import oracle_legal_plays

HAND = "3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥"


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls per second of ``fn`` over about ``seconds``."""
    n, batch = 0, 1
    start = time.perf_counter()
    while True:
        for _ in range(batch):
            fn()
        n += batch
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed
        batch *= 2


def random_game(seed: int) -> None:
    rng = random.Random(seed)
    g = tienlen.Game(4, seed=seed)
    while not g.is_over:
        seat = g.current_seat
        plays = g.legal_plays()
        if g.table is not None and (not plays or rng.random() < 0.25):
            g.pass_turn(seat)  # type: ignore[arg-type]
        else:
            g.play(seat, rng.choice(plays))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    s = parser.parse_args().seconds
    mask = to_mask(HAND)
    cards = parse_cards(HAND)
    assert len(tienlen.legal_plays(HAND)) == 82
    rows = []
    py_mask = rate(lambda: tienlen.legal_plays(mask), s)
    rows.append(("Python legal_plays, hand as a mask (lazy PlayList of 82)", py_mask, "calls/s"))
    rows.append(
        ("Python legal_plays, hand as Card list", rate(lambda: tienlen.legal_plays(cards), s), "calls/s")
    )
    rows.append(("Python legal_plays, hand as text", rate(lambda: tienlen.legal_plays(HAND), s), "calls/s"))
    table = tienlen.classify("9♠")
    rows.append(
        ("Python legal_plays on a single 9♠", rate(lambda: tienlen.legal_plays(mask, table), s), "calls/s")
    )
    core = tienlen.Rules.south().core
    iterations = 400_000

    def rust_loop() -> float:
        start = time.perf_counter()
        _core.shedding_legal_plays_loop(mask, None, core, iterations)
        return iterations / (time.perf_counter() - start)

    rounds: dict[str, list[float]] = {"rust": [], "masks": [], "eager": []}
    for _ in range(3):
        rounds["rust"].append(rust_loop())
        rounds["masks"].append(rate(lambda: tienlen.legal_play_masks(mask), s / 3))
        rounds["eager"].append(rate(lambda: list(tienlen.legal_plays(mask)), s / 3))
    rust, masks, eager = (statistics.median(rounds[k]) for k in ("rust", "masks", "eager"))
    rows.append(("Python legal_plays with every Combo built (list(...))", eager, "calls/s"))
    rows.append(("Python legal_play_masks (numpy uint64 array)", masks, "calls/s"))
    rows.append(("Rust core legal_plays (loop in _core, no GIL)", rust, "calls/s"))
    seed = iter(range(10**9))
    rows.append(
        ("4-player random-bot hands via the public API", rate(lambda: random_game(next(seed)), s), "games/s")
    )
    indices = [c.index for c in cards]
    oracle = rate(lambda: oracle_legal_plays(indices, None, tienlen.Rules.south()), s)
    rows.append(("pure-Python oracle generator (all subsets)", oracle, "calls/s"))
    print(f"load average {os.getloadavg()[0]:.1f}")
    width = max(len(r[0]) for r in rows)
    for label, value, unit in rows:
        print(f"{label:<{width}}  {value:>14,.1f} {unit}")
    print(f"{'ratio: lazy legal_plays / every Combo built':<{width}}  {py_mask / eager:>14.2f} x")
    print(f"{'ratio: legal_play_masks / Rust loop':<{width}}  {masks / rust:>14.2f} x")
    print(f"{'ratio: Python API / pure-Python oracle':<{width}}  {py_mask / oracle:>14,.0f} x")
    print(f"{'ratio: Rust core / pure-Python oracle':<{width}}  {rust / oracle:>14,.0f} x")


if __name__ == "__main__":
    main()
