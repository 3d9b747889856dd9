"""Time budgets: does a search bot given ``think_ms`` per decision keep to it? Per game and
budget, the ``expert`` level with ``think_ms=B`` and no rollout count (the deadline alone stops
each search) plays alone against three ``greedy`` bots; the report gives the wall-clock
milliseconds per decision (median, 99th percentile, maximum) against the goal p99 <= B + 5 ms,
and the load of the machine.

``python benches/bots_think_bench.py`` (default budgets 10 and 50 ms, 30 deals per game). A
decision's time counts everything the bot does for it (reading the view and the events,
listing the candidates, the search), as a server waiting for the bot would see it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from vncards.bots.strength import bench_bots

GAMES = ("tienlen", "tienlen-north", "samloc", "tusac", "maubinh")
#: What a decision may overrun its budget by (the goal).
SLACK_MS = 5.0


def measure(game: str, budget: float, deals: int, seed: int, jobs: int | None) -> dict[str, Any]:
    """The decision times of ``expert`` at ``think_ms=budget`` in ``game``."""
    bot = f"expert:think_ms={budget:g}:rollouts=none"
    report = bench_bots(
        game, [bot, "greedy"], deals=deals, seed=seed, field="solo", pairings="first", jobs=jobs
    )
    cost = report.pairings[0].bots[bot].cost
    return {
        "game": game,
        "think_ms": budget,
        "decisions": cost.decisions,
        "p50_ms": cost.p50_ms,
        "p99_ms": cost.p99_ms,
        "max_ms": cost.max_ms,
        "cpu_p99_ms": cost.cpu_p99_ms,
        "within": cost.p99_ms <= budget + SLACK_MS,
    }


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, action="append", help="think_ms budgets (default 10 and 50)")
    p.add_argument("--deals", type=int, default=30)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--jobs", type=int, default=1, help="processes (default 1: timings without contention)")
    p.add_argument("--game", action="append", choices=list(GAMES))
    args = p.parse_args(argv)
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| game | think_ms | decisions | p50 ms | p99 ms | max ms | CPU p99 ms | p99 <= budget + 5 |")
    print("|---|---|---|---|---|---|---|---|")
    out = []
    for game in args.game or GAMES:
        for budget in args.budget or [10.0, 50.0]:
            r = measure(game, budget, args.deals, args.seed, args.jobs)
            out.append(r)
            print(
                f"| {game} | {budget:g} | {r['decisions']} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
                f"{r['max_ms']:.1f} | {r['cpu_p99_ms']:.1f} | {'yes' if r['within'] else 'no'} |",
                flush=True,
            )
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return out


if __name__ == "__main__":
    main()
