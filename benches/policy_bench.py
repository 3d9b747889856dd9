"""The learned ``policy`` bot's cost per decision beside every level's (and the ``expert`` level
before issue 33, a 1,500-iteration own-seat tree with greedy rollouts), side by side on the same
positions, and the batch inference rate of the Rust network.

Positions come from games played by ``greedy`` bots on the deals of ``--seed`` (every decision
with a choice); at each, every bot decides in turn (the order rotating), timed
as a server waiting for a bot sees it (``decide``: the view, the legal actions, the choice),
wall-clock and thread CPU. Printed: mean, median and 99th percentile per bot, the ratios
expert / policy, and the load. Then ``PolicyNet.scores_batch`` (no GIL, parallel): positions
and action rows scored per second on self-play positions.

``python benches/policy_bench.py [--game tienlen] [--positions 300] [--weights FILE]``
(default: the weights the package ships for the game).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from vncards import games
from vncards.bots import decide, make_bot

#: The ``expert`` level before the learned policy guided it (issue 33's baseline).
EXPERT_BEFORE = "expert before"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def positions(game: str, count: int, seed: int) -> list[tuple[Any, int]]:
    """``count`` positions (game copies and the seat to act) from greedy games."""
    import copy

    out: list[tuple[Any, int]] = []
    deal = seed
    while len(out) < count:
        g = games.new_game(game, 4, seed=deal)
        deal += 1
        walkers = [make_bot("greedy", game, seed=deal * 4 + s) for s in range(4)]
        while not g.is_over and len(out) < count:
            seat = g.pending_seats[0]
            if len(g.legal_actions(seat)) > 1:
                out.append((copy.deepcopy(g), seat))
            g.apply(decide(walkers[seat], g, seat))
    return out


def _stats(ms: list[float]) -> dict[str, float]:
    s = sorted(ms)
    return {
        "mean": statistics.fmean(s),
        "p50": s[len(s) // 2],
        "p99": s[min(len(s) - 1, int(0.99 * len(s)))],
    }


def side_by_side(game: str, count: int, seed: int, weights: Any) -> dict[str, dict[str, float]]:
    """Per bot: wall and CPU milliseconds per decision (mean, p50, p99)."""
    bots = {
        "policy": make_bot("policy", game, seed=1, weights=weights),
        **{level: make_bot(level, game, seed=1) for level in ("easy", "normal", "hard", "expert")},
        EXPERT_BEFORE: make_bot("search", game, seed=1, rollouts=1500, tree="own_seat"),
    }
    wall: dict[str, list[float]] = {k: [] for k in bots}
    cpu: dict[str, list[float]] = {k: [] for k in bots}
    names = list(bots)
    for i, (g, seat) in enumerate(positions(game, count, seed)):
        order = names[i % len(names) :] + names[: i % len(names)]
        for name in order:
            t, c = time.perf_counter(), time.thread_time()
            decide(bots[name], g, seat)
            cpu[name].append((time.thread_time() - c) * 1e3)
            wall[name].append((time.perf_counter() - t) * 1e3)
    out = {}
    for name in bots:
        out[name] = {**_stats(wall[name]), **{f"cpu_{k}": v for k, v in _stats(cpu[name]).items()}}
    return out


def batch_rate(game: str, weights: Any, hands: int = 64) -> tuple[float, float]:
    """(positions/s, action rows/s) of ``PolicyNet.scores_batch`` on self-play positions."""
    net = make_bot("policy", game, weights=weights).net
    obs, acts, _, _, _, _ = net.selfplay(games.spec(game).rules().flow, list(range(hands)), 0.0)
    n = len(obs)
    reps = np.repeat(np.arange(n), 8)  # 8 action rows per position
    offsets = np.arange(0, 8 * n + 1, 8, dtype=np.int64)
    rows = acts[reps]
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        net.scores_batch(obs, rows, offsets)
        best = min(best, time.perf_counter() - t)
    return n / best, 8 * n / best


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="tienlen", choices=["tienlen", "tienlen-north", "samloc", "tusac"])
    p.add_argument("--positions", type=int, default=300)
    p.add_argument("--seed", type=int, default=31_000)
    p.add_argument("--weights", default=None, help="a weights file (default: the shipped one)")
    args = p.parse_args(argv)
    print(
        f"{args.game}: {args.positions} positions from greedy games, seed {args.seed}; load before: {_load()}"
    )
    figures = side_by_side(args.game, args.positions, args.seed, args.weights)
    print("| bot | mean ms | p50 ms | p99 ms | CPU mean ms | CPU p99 ms |")
    print("|---|---|---|---|---|---|")
    for name, f in figures.items():
        print(
            f"| {name} | {f['mean']:.3f} | {f['p50']:.3f} | {f['p99']:.3f} | {f['cpu_mean']:.3f} | {f['cpu_p99']:.3f} |"
        )
    q = figures["policy"]
    for name in ("expert", EXPERT_BEFORE):
        e = figures[name]
        print(
            f"{name} / policy: mean {e['mean'] / q['mean']:.0f}x, p99 {e['p99'] / q['p99']:.0f}x "
            f"(CPU: mean {e['cpu_mean'] / q['cpu_mean']:.0f}x, p99 {e['cpu_p99'] / q['cpu_p99']:.0f}x)"
        )
    pos, rows = batch_rate(args.game, args.weights)
    print(f"scores_batch: {pos:,.0f} positions/s, {rows:,.0f} action rows/s (8 rows a position)")
    print(f"load after: {_load()}")
    return {"decisions": figures, "batch_positions_per_s": pos, "batch_rows_per_s": rows}


if __name__ == "__main__":
    main()
