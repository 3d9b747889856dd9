"""Learning-environment throughput: PettingZoo env steps per second and hands per second under
random play (observation + action mask at every step, as an agent loop reads them), next to
RLCard's Dou Dizhu env under random play (the peer the issue names). Run with a release build:

    maturin develop --release && pip install rlcard && python benches/envs_bench.py
"""

from __future__ import annotations

import random
import time

import numpy as np

from vncards.integrations.pettingzoo import VARIANTS

SECONDS = 3.0


def vncards_rate(name: str) -> tuple[float, float]:
    """(steps/s, hands/s) of random play through ``name``'s env for about SECONDS."""
    env = VARIANTS[name].raw_env()
    rnd = random.Random(1)
    steps = hands = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < SECONDS:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, hands / elapsed


def rlcard_rate() -> tuple[float, float] | None:
    """(steps/s, games/s) of RLCard's Dou Dizhu env with its random agents, or None."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("doudizhu", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        state, player = env.reset()
        while not env.is_over():
            action = env.agents[player].step(state)
            state, player = env.step(action)
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, games / elapsed


def main() -> None:
    print(f"{'environment (random play)':<40} {'steps/s':>10} {'hands/s':>10}")
    for name in VARIANTS:
        steps, hands = vncards_rate(name)
        print(f"{'vncards ' + name:<40} {steps:>10,.0f} {hands:>10,.1f}")
    peer = rlcard_rate()
    if peer is None:
        print("rlcard doudizhu: not installed (pip install rlcard)")
    else:
        print(f"{'rlcard doudizhu (peer)':<40} {peer[0]:>10,.0f} {peer[1]:>10,.1f}")


if __name__ == "__main__":
    main()
