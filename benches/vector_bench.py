"""Batched-environment throughput: ``vncards.vector.VectorEnv`` steps per second with
``num_envs`` tables (1024 by default) stepped with ``sample_actions()``, beside the PettingZoo
environments (one Python step per move, random play) and RLCard's Dou Dizhu env (its random
agents), all in the same run, with the memory each table takes. Run with a release build:

    maturin develop --release && pip install rlcard && python benches/vector_bench.py

``--seconds`` sets each measurement's length, ``--envs`` the number of tables, ``--games`` which games;
steps per CPU-second (every thread of the process counted) stand beside steps per second. The load of the
machine (``uptime``) is printed first: on a shared machine the figures move with it.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from envs_bench import rlcard_rate, vncards_rate

from vncards.vector import GAMES, VectorEnv

#: The issue's goals, steps per second at 1024 tables.
GOALS = {
    "tienlen": 1_000_000,
    "tienlen-north": 1_000_000,
    "samloc": 300_000,
    "tusac": 300_000,
    "maubinh": 50_000,
}
#: PettingZoo variant of each game.
PETTINGZOO = {
    "tienlen": "tienlen_v0",
    "tienlen-north": "tienlen_north_v0",
    "samloc": "samloc_v0",
    "tusac": "tusac_v0",
    "maubinh": "maubinh_v0",
}


def vector_rate(game: str, envs: int, seconds: float, copy: bool) -> tuple[float, float, int, float]:
    """(steps/s, hands/s, bytes per table, steps per CPU-second of this process, every thread
    counted) of ``envs`` tables under ``sample_actions()``."""
    env = VectorEnv(game, envs, seed=0, copy=copy)
    env.reset()
    for _ in range(20):  # warm up: every table's move buffers reach their size
        env.step(env.sample_actions())
    steps = hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        _, _, terminated, _, _ = env.step(env.sample_actions())
        steps += envs
        hands += int(terminated.sum())
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    return steps / elapsed, hands / elapsed, env.memory_per_table, steps / max(used, 1e-9)


def traced_bytes(make: Callable[[], Any], play: Callable[[Any], None]) -> int:
    """Python heap bytes one environment holds once made and played a little (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    env = make()
    play(env)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    size = sum(s.size_diff for s in after.compare_to(before, "filename"))
    del env
    return max(size, 0)


def pettingzoo_bytes(variant: str) -> int:
    from vncards.integrations.pettingzoo import VARIANTS

    def play(env: Any) -> None:
        env.reset(seed=0)
        for _ in range(10):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                break
            env.step(int(obs["action_mask"].argmax()))

    return traced_bytes(VARIANTS[variant].raw_env, play)


def rlcard_bytes() -> int | None:
    try:
        import rlcard
    except ImportError:
        return None

    def play(env: Any) -> None:
        state, _ = env.reset()
        for _ in range(10):
            if env.is_over():
                break
            state, _ = env.step(next(iter(state["legal_actions"])))

    return traced_bytes(lambda: rlcard.make("doudizhu", config={"seed": 1}), play)


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "uptime: not available"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each measurement")
    parser.add_argument("--envs", type=int, default=1024, help="tables per VectorEnv")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES), help="games to measure")
    args = parser.parse_args()
    print(load())
    print(
        f"cores: {os.cpu_count()}; VectorEnv with {args.envs} tables, sample_actions(); {args.seconds:g} s each"
    )
    header = f"{'environment':<44} {'steps/s':>12} {'steps/CPU-s':>12} {'hands/s':>10} {'B/table':>9} {'vs PZ':>7} {'vs RLCard':>9} {'goal':>6}"
    print(header)
    print("-" * len(header))
    peer = rlcard_rate()
    peer_steps = peer[0] if peer else None
    for game in args.games:
        pz_steps, pz_hands = vncards_rate(PETTINGZOO[game])
        pz_mem = pettingzoo_bytes(PETTINGZOO[game])
        for copy in (False, True):
            steps, hands, mem, per_cpu = vector_rate(game, args.envs, args.seconds, copy)
            goal = GOALS.get(game)
            label = f"vncards VectorEnv {game}" + (" (copy=True)" if copy else "")
            vs_peer = f"{steps / peer_steps:>8.0f}x" if peer_steps else f"{'-':>9}"
            met = f"{'met' if goal and steps >= goal else 'not met' if goal else '-':>6}"
            print(
                f"{label:<44} {steps:>12,.0f} {per_cpu:>12,.0f} {hands:>10,.0f} {mem:>9,} {steps / pz_steps:>6.0f}x {vs_peer} {met}"
            )
        print(
            f"{'vncards PettingZoo ' + PETTINGZOO[game]:<44} {pz_steps:>12,.0f} {'':>12} {pz_hands:>10,.1f} {pz_mem:>9,}"
        )
    if peer is None:
        print("rlcard doudizhu: not installed (pip install rlcard)")
    else:
        mem = rlcard_bytes() or 0
        print(f"{'rlcard doudizhu (peer)':<44} {peer[0]:>12,.0f} {'':>12} {peer[1]:>10,.1f} {mem:>9,}")
    print(load())


if __name__ == "__main__":
    main()
