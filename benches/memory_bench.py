"""Memory of live Tiến Lên games (Python heap, measured with ``tracemalloc``):

- growth per move: the heap a game gains over its moves, divided by the number of moves
  (random legal moves from a seeded ``Rng``), averaged over many games;
- the heap held by N live games after 20 moves each (default 10,000), in MiB.

    python benches/memory_bench.py [--games 10000] [--moves 20]
"""

from __future__ import annotations

import argparse
import gc
import tracemalloc

from vncards import Rng
from vncards.games import new_game


def play(game: object, rng: Rng, moves: int) -> int:
    """Up to ``moves`` random legal moves; returns how many were made."""
    made = 0
    while made < moves and not game.is_over:  # type: ignore[attr-defined]
        seat = game.pending_seats[0]  # type: ignore[attr-defined]
        legal = game.legal_actions(seat)  # type: ignore[attr-defined]
        game.apply(legal[rng.below(len(legal))])  # type: ignore[attr-defined]
        made += 1
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()

    # Growth per move: heap after the moves minus heap of the freshly dealt games.
    sample = 500
    games = [new_game("tienlen", seed=i) for i in range(sample)]
    rngs = [Rng(i) for i in range(sample)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    moves = sum(play(g, r, args.moves) for g, r in zip(games, rngs, strict=True))
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(
        f"growth per move (Tiến Lên, {sample} games, {moves:,} moves): {(after - before) / moves:,.0f} bytes"
    )
    del games, rngs

    gc.collect()
    tracemalloc.start()
    live = []
    for i in range(args.games):
        g = new_game("tienlen", seed=i)
        play(g, Rng(i), args.moves)
        live.append(g)
    gc.collect()
    heap = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    print(
        f"{args.games:,} live Tiến Lên games after {args.moves} moves each: {heap / 2**20:,.1f} MiB of Python heap"
    )


if __name__ == "__main__":
    main()
