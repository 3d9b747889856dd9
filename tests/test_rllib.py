"""RLlib's ``PettingZooEnv`` wrapper around the vncards envs (extra ``rllib``; CI installs
it): construction, spaces, reset and masked steps through whole hands. No training and no
Ray cluster: the wrapper is plain Python."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pettingzoo_env = pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")

from vncards.integrations.pettingzoo import VARIANTS  # noqa: E402
from vncards.integrations.spaces import ACTION_BOUND  # noqa: E402


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pettingzoo_env_wrapper_plays_masked_hands(name: str) -> None:
    variant = VARIANTS[name]
    env = pettingzoo_env.PettingZooEnv(variant.env(observation_key="observations"))
    agents = [f"player_{s}" for s in range(4)]
    assert sorted(env.possible_agents) == agents
    space = env.observation_space[agents[0]]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert env.action_space[agents[0]].n == ACTION_BOUND[variant.game]
    rnd = random.Random(name)
    hands = 0
    for seed in range(10):
        obs, _ = env.reset(seed=seed)
        if env.env.unwrapped.game.is_over:  # an instant win at the deal: nothing to act on
            continue
        totals = dict.fromkeys(agents, 0.0)
        for _ in range(10_000):
            (agent,) = obs
            assert space.contains(obs[agent])
            mask = obs[agent]["action_mask"]
            obs, rewards, terminated, truncated, _ = env.step(
                {agent: rnd.choice(np.flatnonzero(mask).tolist())}
            )
            for a, r in rewards.items():
                totals[a] += r
            if terminated["__all__"]:
                break
        else:
            pytest.fail("the hand did not end")
        assert not truncated["__all__"]
        settlement = env.env.unwrapped.game.settlement
        assert [totals[a] for a in agents] == [float(u) for u in settlement]
        hands += 1
        if hands == 2:
            break
    assert hands == 2
