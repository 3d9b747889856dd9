"""Random against greedy through the PettingZoo env, with no training: the agent loop a
learner plugs into. Greedy scores each legal action by its card features (the number of cards
it puts down) and plays the largest; random picks any legal action.

    pip install 'vncards[pettingzoo]' && python examples/random_vs_greedy.py [GAME_v0] [HANDS]

The last lines build RLlib's ``PettingZooEnv`` wrapper around the env (the observation under
the key RLlib's action-masking modules read) and take a few masked steps through it, if RLlib
is installed (``pip install 'vncards[rllib]'``; no torch is needed until you train).
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np

from vncards.integrations.pettingzoo import VARIANTS


def greedy(env: object, agent: str) -> int:
    """The legal index that puts down the most cards (the first on a tie)."""
    features = env.action_features(agent)  # type: ignore[attr-defined]
    sizes = features.reshape(len(features), -1).sum(axis=1)
    return int(np.argmax(sizes))


def main(name: str = "tienlen_v0", hands: int = 200) -> None:
    env = VARIANTS[name].raw_env()
    rnd = random.Random(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for hand in range(hands):
        env.reset(seed=hand)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
            elif agent == "player_0":  # the random seat
                env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            else:
                env.step(greedy(env, agent))
    print(f"{name}: {hands} hands, units per hand")
    for agent, units in totals.items():
        print(f"  {agent} ({'random' if agent == 'player_0' else 'greedy'}): {units / hands:+.2f}")

    try:
        from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    except ImportError as e:
        print(f"(RLlib not available: {e}; pip install 'vncards[rllib]')")
        return
    # RLlib's wrapper has no annotations: its environment is read as Any.
    wrap: Any = PettingZooEnv
    rllib_env: Any = wrap(VARIANTS[name].env(observation_key="observations"))
    obs, _ = rllib_env.reset(seed=1)
    for _ in range(4):
        (agent,) = obs  # the agent to act, with its observation and action mask
        action = rnd.choice(np.flatnonzero(obs[agent]["action_mask"]).tolist())
        obs, _rewards, terminated, _, _ = rllib_env.step({agent: action})
        if terminated["__all__"]:
            break
    print(
        "RLlib env:",
        type(rllib_env).__name__,
        sorted(rllib_env.possible_agents),
        rllib_env.action_space[agent],
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tienlen_v0", int(sys.argv[2]) if len(sys.argv) > 2 else 200)
