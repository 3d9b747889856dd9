"""Throughput of ``simulate`` per executor: this process, this process with one local worker
(``jobs=2``, the worker's start-up counted), pools of local worker processes (1 and 2), and a
local Ray cluster (extra ``ray``; skipped without it), in games/s and games/s per worker.
Each figure is the best of ``--rounds`` runs; Ray's start-up (seconds) is printed apart and not
counted. The machine's load average is printed first: on a shared machine the figures move
with it.

    python benches/scaling_bench.py [--game tienlen] [--bots greedy,random] [--games 2000]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from vncards.parallel import worker_context
from vncards.simulate import simulate


def timed(run: Callable[[], object], rounds: int) -> float:
    """The best wall time of ``rounds`` calls of ``run``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tienlen")
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    n = args.rounds
    bots = args.bots.split(",")
    run = {"game_name": args.game, "games": args.games, "bot_names": bots, "seed": 1}
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.games} {args.game} "
        f"games, bots {bots}, best of {n}"
    )

    def report(label: str, seconds: float, workers: int) -> None:
        rate = args.games / seconds
        print(f"{label:<34} {rate:>9,.0f} games/s {rate / workers:>9,.0f} per worker")

    report("this process (jobs=1)", timed(lambda: simulate(**run, jobs=1), n), 1)
    report("it and 1 worker (jobs=2, start-up)", timed(lambda: simulate(**run, jobs=2), n), 2)
    for workers in (1, 2):
        with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
            pool.submit(abs, 0).result()  # workers started before the clock
            report(
                f"ProcessPoolExecutor({workers})", timed(lambda: simulate(**run, executor=pool), n), workers
            )
    if importlib.util.find_spec("ray") is None:
        print("ray: not installed (pip install 'vncards[ray]')")
        return
    from vncards.ray_executor import RayExecutor

    for cpus in (1, 2):
        start = time.perf_counter()
        with RayExecutor(None, num_cpus=cpus, include_dashboard=False, log_to_driver=False) as cluster:
            cluster.submit(abs, 0).result()
            print(f"ray: local cluster of {cpus} CPU(s) up in {time.perf_counter() - start:.1f} s")
            report(f"Ray, {cpus} CPU(s)", timed(lambda: simulate(**run, executor=cluster), n), cpus)


if __name__ == "__main__":
    main()
