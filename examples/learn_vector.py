"""A small Tiến Lên policy learned with the vector environment on a CPU, numpy only, then
measured against ``random`` and ``greedy`` on duplicate deals with 95% confidence intervals.

    pip install 'vncards[pettingzoo]' && python examples/learn_vector.py [--minutes 5] [--deals 300]

**The policy** is a linear softmax over each table's legal actions (self-play: every seat
plays it). An action's features are its place in the legal list (the move generator's order:
lower plays first, pass last when a table is open: first, last, relative position) crossed
with a few facts of the observation (bias, the seat's cards, the fewest cards another seat
holds, whether a table is open): 12 weights in all.

**Training** is REINFORCE on ``VectorEnv("tienlen", 256)``: each seat's score-function terms
are summed over a hand and weighed by that seat's settlement (the reward's column) minus a
running mean, once the hand ends.

**Measuring**: the learned seat plays one seat against three copies of the opponent on the
same deal four times, once from every seat (duplicate deals), through the PettingZoo
environment (its observations are the vector environment's); the figure is its mean
settlement units per hand, 0 when it plays as well as the opponent.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from random_vs_greedy import greedy

from vncards.bots.strength import t_interval
from vncards.integrations.pettingzoo import VARIANTS
from vncards.vector import VectorEnv

PLAYERS = 4
CARDS = 52
#: Where the scalar part of the Tiến Lên observation starts: the card rows (hand, table,
#: required card, each seat's played cards) come first; then each seat's count / 13.
COUNTS = (3 + PLAYERS) * CARDS
FEATURES = 12


def state_facts(obs: np.ndarray) -> np.ndarray:
    """``[..., 4]``: bias, own cards / 13, fewest cards of another seat / 13, a table is open."""
    counts = obs[..., COUNTS : COUNTS + PLAYERS]
    table_open = obs[..., CARDS : 2 * CARDS].max(axis=-1)
    return np.stack(
        [np.ones_like(table_open), counts[..., 0], counts[..., 1:].min(axis=-1), table_open], axis=-1
    )


def action_features(obs: np.ndarray, num_actions: np.ndarray, width: int) -> np.ndarray:
    """``[tables, width, FEATURES]``: each legal index's place crossed with the state's facts."""
    j = np.arange(width, dtype=np.float32)[None, :]
    last = np.maximum(num_actions, 1).astype(np.float32)[:, None] - 1
    place = np.stack(np.broadcast_arrays(j == 0, j == last, j / np.maximum(last, 1)), axis=-1).astype(
        np.float32
    )  # [tables, width, 3]
    facts = state_facts(obs)[:, None, None, :]  # [tables, 1, 1, 4]
    features: np.ndarray = (place[..., :, None] * facts).reshape(len(obs), width, FEATURES).astype(np.float32)
    return features


def policy(theta: np.ndarray, obs: np.ndarray, num_actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(probabilities ``[tables, width]``, features) of the legal actions of every table."""
    width = max(int(num_actions.max()), 1)
    phi = action_features(obs, num_actions, width)
    logits = phi @ theta
    logits[np.arange(width)[None, :] >= np.maximum(num_actions, 1)[:, None]] = -np.inf
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    return p, phi


def train(seconds: float, envs: int = 256, seed: int = 0, lr: float = 0.02) -> tuple[np.ndarray, int]:
    """Weights learned in ``seconds`` of self-play; and the hands played."""
    rng = np.random.default_rng(seed)
    env = VectorEnv("tienlen", envs, players=PLAYERS, seed=seed, copy=False)
    obs, info = env.reset()
    theta = np.zeros(FEATURES, np.float32)
    grads = np.zeros((envs, PLAYERS, FEATURES), np.float32)
    rows = np.arange(envs)
    baseline, hands = 0.0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        n = info["num_actions"]
        acting = n > 0
        p, phi = policy(theta, obs, n)
        u = rng.random((envs, 1))
        actions = np.minimum((p.cumsum(axis=1) < u).sum(axis=1), np.maximum(n - 1, 0))
        score = phi[rows, actions] - np.einsum("ew,ewf->ef", p, phi)  # grad log pi
        seats = info["seat"]
        grads[rows[acting], seats[acting]] += score[acting]
        obs, rewards, terminated, truncated, info = env.step(actions)
        done = np.flatnonzero(terminated | truncated)
        if len(done):
            r = rewards[done]  # [done, players] settlement units
            advantage = r - baseline
            theta += lr * np.einsum("dp,dpf->f", advantage, grads[done]) / len(done)
            baseline = 0.99 * baseline + 0.01 * float(np.abs(r).mean())
            grads[done] = 0
            hands += len(done)
    return theta, hands


def choose(theta: np.ndarray, obs: dict[str, np.ndarray]) -> int:
    """The learned policy's most likely legal action."""
    n = np.asarray([int(obs["action_mask"].sum())])
    p, _ = policy(theta, obs["observation"][None, :], n)
    return int(p[0].argmax())


def duplicate(theta: np.ndarray, opponent: str, deals: int, seed: int = 10_000) -> list[float]:
    """The learned seat's units per hand on each deal, averaged over its four seats."""
    env = VARIANTS["tienlen_v0"].raw_env(players=PLAYERS)
    rnd = random.Random(seed)
    out = []
    for deal in range(deals):
        total = 0.0
        for me in range(PLAYERS):
            env.reset(seed=seed + deal)
            mine = f"player_{me}"
            for agent in env.agent_iter():
                obs, reward, terminated, truncated, _ = env.last()
                if agent == mine:
                    total += reward
                if terminated or truncated:
                    env.step(None)
                elif agent == mine:
                    env.step(choose(theta, obs))
                elif opponent == "greedy":
                    env.step(greedy(env, agent))
                else:
                    env.step(rnd.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        out.append(total / PLAYERS)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0, help="training time")
    parser.add_argument("--deals", type=int, default=300, help="duplicate deals per opponent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    theta, hands = train(args.minutes * 60, seed=args.seed)
    print(
        f"trained {args.minutes:g} min: {hands:,} hands of self-play; weights {[round(float(w), 1) for w in theta]}"
    )
    for opponent in ("random", "greedy"):
        # Zero weights: every legal action equally likely, so the most likely is the first.
        for name, weights in (("learned", theta), ("first legal action", np.zeros_like(theta))):
            mean, ci = t_interval(duplicate(weights, opponent, args.deals))
            print(
                f"{name} vs {opponent}: {mean:+.2f} units per hand, 95% CI {ci} ({args.deals} deals x 4 seats)"
            )


if __name__ == "__main__":
    main()
