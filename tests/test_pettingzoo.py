"""PettingZoo environments: the API checks of PettingZoo itself, seeding, truncation,
instant wins at the deal (the action-count bound: test_action_bounds.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from support.tree import source_tree

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from vncards.integrations.pettingzoo import VARIANTS, VncardsEnv, tienlen_v0
from vncards.integrations.spaces import ACTION_BOUND

NAMES = list(VARIANTS)
# api_test's advice for plain Box observations; the dict with an action mask is intended.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize("name", NAMES)
def test_api_test(name: str) -> None:
    api_test(VARIANTS[name].env(), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("name", NAMES)
def test_seed_test(name: str) -> None:
    seed_test(VARIANTS[name].env, num_cycles=100)


def _play(env: VncardsEnv, rnd: random.Random) -> int:
    steps = 0
    for _agent in env.agent_iter(10_000):
        obs, _r, terminated, truncated, _i = env.last()
        if terminated or truncated:
            action = None
        else:
            action = rnd.choice(np.flatnonzero(obs["action_mask"]).tolist())
            steps += 1
        env.step(action)
    return steps


@pytest.mark.parametrize("name", NAMES)
def test_max_cycles_truncates_every_agent(name: str) -> None:
    env = VARIANTS[name].raw_env(max_cycles=3)
    env.reset(seed=1)
    if env.game.is_over:
        env.reset(seed=2)
    steps = _play(env, random.Random(0))
    assert steps <= 3 and env.agents == []


@pytest.mark.parametrize("name", NAMES)
def test_full_hands_pay_the_settlement(name: str) -> None:
    rnd = random.Random(4)
    env = VARIANTS[name].raw_env()
    for seed in range(3):
        env.reset(seed=seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter(10_000):
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            mask = obs["action_mask"]
            assert mask.shape == (ACTION_BOUND[env.name],)
            if terminated or truncated:
                env.step(None)
                continue
            assert mask.sum() == len(env.legal_actions(agent)) > 0
            assert env.action_features(agent).shape[0] == mask.sum()
            env.step(rnd.choice(np.flatnonzero(mask).tolist()))
        settlement = env.game.settlement
        assert settlement is not None and sum(settlement) == 0
        assert [totals[a] for a in env.possible_agents] == [float(u) for u in settlement]


def test_instant_win_at_the_deal_is_a_terminal_first_step() -> None:
    env = tienlen_v0.raw_env()
    for seed in range(2000):
        env.reset(seed=seed)
        if env.game.is_over:
            break
    else:
        pytest.fail("no instant win in 2000 deals")
    assert all(env.terminations.values()) and all(env.infos[a]["instant_win"] for a in env.agents)
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    assert sum(rewards) == 0 and any(rewards)
    assert not env.observe(env.agent_selection)["action_mask"].any()
    assert _play(env, random.Random(0)) == 0 and env.agents == []
    api_test(tienlen_v0.env(), num_cycles=10, verbose_progress=False)


def test_observation_key_is_configurable() -> None:
    env = tienlen_v0.raw_env(observation_key="observations")
    env.reset(seed=0)
    obs = env.observe(env.agent_selection)
    assert set(obs) == {"observations", "action_mask"}
    assert env.observation_space(env.agent_selection).contains(obs)


@source_tree
def test_example_random_vs_greedy_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "random_vs_greedy.py"
    module = runpy.run_path(str(path))
    module["main"]("samloc_v0", 3)
    out = capsys.readouterr().out
    assert "player_0 (random)" in out
    try:
        import ray.rllib.env.wrappers.pettingzoo_env  # noqa: F401
    except ImportError:
        assert "RLlib not available" in out
    else:
        assert "RLlib env: PettingZooEnv" in out


@pytest.mark.parametrize("name", NAMES)
def test_reset_from_given_hands(name: str) -> None:
    from vncards import VncardsError, games

    env = VARIANTS[name].raw_env(players=2)
    game_name = VARIANTS[name].game
    source = games.new_game(game_name, players=2, seed=3).to_dict()["state"]
    if game_name == "tusac":
        hand = " ".join([*source["hands"][0].split(), *(c for m in source["exposed"][0] for c in m["cards"])])
    else:
        hand = " ".join(str(c) for c in games.new_game(game_name, players=2, seed=3).hand(0))
    for seed in range(3):
        env.reset(seed=seed, options={"hands": [hand, None]})
        state = env.game.to_dict()["state"]
        if game_name == "tusac":
            got = [*state["hands"][0].split(), *(c for m in state["exposed"][0] for c in m["cards"])]
        else:
            got = [str(c) for c in env.game.hand(0)]
        assert sorted(got) == sorted(hand.split())
        _play(env, random.Random(seed))
        assert env.agents == []
    with pytest.raises(VncardsError):
        env.reset(seed=0, options={"hands": [hand, hand]})
    with pytest.raises(VncardsError):
        env.reset(seed=0, options={"hands": [hand]})


def _env_state(env: VncardsEnv) -> tuple[object, ...]:
    return (
        env.game.to_json(),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(env.truncations),
        list(env.legal_actions(env.agent_selection)),
    )


@pytest.mark.parametrize("name", NAMES)
def test_non_integer_and_out_of_range_actions_raise_and_change_nothing(name: str) -> None:
    """Issue 30, item 4: the raw env took ``"0"``, ``0.9`` and ``True`` as actions."""
    from vncards import IllegalMoveError

    env = VARIANTS[name].raw_env(players=2)
    env.reset(seed=5)
    rnd = random.Random(5)
    steps = 0
    while env.agents and steps < 30:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        count = len(env.legal_actions(agent))
        for bad in (
            "0",
            0.9,
            1.0,
            True,
            False,
            np.bool_(True),
            np.float32(0),
            None,
            -1,
            -2,
            count,
            2**70,
            [0],
        ):
            before = _env_state(env)
            with pytest.raises(IllegalMoveError) as info:
                env.step(bad)  # type: ignore[arg-type]  # bad actions on purpose
            assert info.value.reason == "invalid_action"
            assert isinstance(info.value, ValueError)
            assert _env_state(env) == before, bad
        choice = rnd.randrange(count)
        env.step(np.int64(choice) if steps % 2 else choice)  # NumPy integers are indices too
        steps += 1


def test_env_keywords_are_checked_when_the_env_is_made() -> None:
    from vncards import RulesError

    for kwargs in (
        {"players": 9},
        {"players": 1},
        {"players": "4"},
        {"players": True},
        {"max_cycles": 0},
        {"max_cycles": 2.5},
        {"observation_key": ""},
        {"observation_key": "action_mask"},
        {"render_mode": "human"},
        {"rules": {"no_such_option": 1}},
    ):
        with pytest.raises(RulesError):
            tienlen_v0.raw_env(**kwargs)
    assert VARIANTS["samloc_v0"].raw_env(players=5).players == 5
