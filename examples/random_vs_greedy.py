"""Random against greedy through the PettingZoo env, with no training: the agent loop a
learner plugs into. Greedy scores each legal action by its card features (the number of cards
it puts down) and plays the largest; random picks any legal action.

    pip install 'vncards[pettingzoo]' && python examples/random_vs_greedy.py [GAME_v0] [HANDS]

The last lines show how RLlib would take the env (its ``PettingZooEnv`` wrapper, with the
observation under the key its action-masking modules read), if Ray is installed.
"""

from __future__ import annotations

import random
import sys

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
    except ImportError:
        print("(Ray RLlib not installed: skipping the PettingZooEnv wrapper)")
        return
    rllib_env = PettingZooEnv(VARIANTS[name].env(observation_key="observations"))
    print("RLlib env:", type(rllib_env).__name__, sorted(rllib_env.get_agent_ids()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tienlen_v0", int(sys.argv[2]) if len(sys.argv) > 2 else 200)
