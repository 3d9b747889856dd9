"""The batched environment (``vncards.vector``): its trajectories against the PettingZoo
environments' (the differential test: same seeds, same actions, random option sets: the same
observations, masks, rewards and instant wins at every step of every table), gymnasium's
next-step autoreset, truncation, illegal actions, seeding, copies, and ``env.game(i)``."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from conftest import slow_profile
from support.tree import source_tree
from vncards import IllegalMoveError, RulesError
from vncards.integrations import encoding
from vncards.integrations.spaces import ACTION_BOUND
from vncards.vector import GAMES, VectorEnv

pettingzoo = pytest.importorskip("pettingzoo")

from vncards.integrations.pettingzoo import VARIANTS, VncardsEnv  # noqa: E402

ENV_OF = {v.game: v for v in VARIANTS.values()}

#: A rules option's value (the games' options are bools, ints and names).
Option = bool | int | str

TIENLEN: dict[str, list[Option]] = {
    "ending": ["first_out", "ranked"],
    "first_lead": ["three_of_spades", "random"],
    "bomb_after_pass": ["none", "four_pair_sequence", "any_bomb"],
    "quad_beats_pair_of_twos": [True, False],
    "ket_3_bich": [True, False],
    "finish_on_two": ["allowed", "penalized", "forbidden"],
    "thoi_to": ["above", "winner"],
    "same_colour_instant_win": [False, True],
    "first_hand_extras": [False, True],
    "single_follows_suit": [False, True],
    "triple_follows_suits": [False, True],
    "same_colour_pairs": [False, True],
    "same_suit_straights": [False, True],
    "pair_sequences": [True, False],
}
SAMLOC: dict[str, list[Option]] = {
    "low_straights": [False, True],
    "quad_beats_pair_of_twos": [False, True],
    "sam_block_pays": ["blocker", "each"],
    "bao_mot_scope": ["all", "previous_seat"],
    "bao_mot_mode": ["penalize", "enforce"],
    "bao_mot_den": ["cards", "payments"],
    "finish_on_two": ["forbidden", "penalized", "allowed"],
    "sam_may_finish_on_two": [False, True],
}
TUSAC: dict[str, list[Option]] = {
    "triple_optional": [False, True],
    "forbidden_triple": ["other_claims", "no_claim"],
    "discard_rule": ["penalize", "enforce"],
    "bung_rule": ["seed", "min_rac", "off"],
    "odd_total": ["hand", "with_toi", "off"],
    "set_lenh": [1, 0],
    "tuong_as_ty": [True, False],
    "draw_at_stock": [7, 0, 30],
    "payment": ["per_lenh", "flat"],
    "claim_window": ["every_seat", "eligible_seats"],
}
MAUBINH: dict[str, list[Option]] = {
    "wheel": ["second", "lowest"],
    "scoop": [False, True],
    "scoop_all": [False, True],
    "back_straight_flush_units": [1, 5, 24],
}
OPTIONS = {"samloc": SAMLOC, "tusac": TUSAC, "maubinh": MAUBINH}
# Option sets per game (the fast profile; the slow one plays many more).
CASES = 40 if slow_profile() else 10
STEPS = 800 if slow_profile() else 200


def random_rules(game: str, rnd: random.Random) -> dict[str, Any]:
    """A random option set of ``game`` (half the time the preset)."""
    if rnd.random() < 0.3:
        return {}
    options = OPTIONS.get(game, TIENLEN)
    rules = {k: rnd.choice(v) for k, v in options.items() if rnd.random() < 0.6}
    if game in ("tienlen", "tienlen-north"):
        if "ending" in rules:
            rules["scoring"] = "ranked" if rules["ending"] == "ranked" else "count"
        pair_sequences = rules.get("pair_sequences", game == "tienlen")  # the north has none
        if rules.get("bomb_after_pass") == "four_pair_sequence" and not pair_sequences:
            rules["bomb_after_pass"] = "any_bomb"
    return rules


class Reference:
    """Table ``i`` replayed through a PettingZoo environment: the PettingZoo env reset with
    ``seed + i`` and then reset again after each hand, skipping the hands over at the deal
    (whose settlement it adds to ``deal``)."""

    def __init__(self, game: str, players: int, rules: Any, seed: int, max_cycles: int) -> None:
        self.env: VncardsEnv = ENV_OF[game].raw_env(players=players, rules=rules, max_cycles=max_cycles)
        self.players = players
        self.deal = np.zeros(players, np.float32)
        self.new_hand(seed)

    def new_hand(self, seed: int | None = None) -> None:
        self.deal[:] = 0
        self.env.reset(seed=seed)
        while self.env.game.is_over:  # an instant win at the deal
            self.deal += [self.env.rewards[a] for a in self.env.possible_agents]
            self.env.reset()

    def seat(self) -> int:
        return VncardsEnv.seat_of(self.env.agent_selection)

    def observe(self, seat: int) -> tuple[np.ndarray, np.ndarray]:
        o = self.env.observe(f"player_{seat}")
        return o["observation"], o["action_mask"]

    def step(self, action: int) -> tuple[np.ndarray, bool, bool, int]:
        """Carries ``action`` out; (rewards of every seat, terminated, truncated, the seat
        observed next)."""
        seat = self.seat()
        self.env.step(action)
        agent = f"player_{seat}"
        rewards = np.asarray([self.env.rewards[a] for a in self.env.possible_agents], np.float32)
        terminated = self.env.terminations[agent]
        truncated = self.env.truncations[agent]
        return rewards, terminated, truncated, seat if terminated or truncated else self.seat()


def unpacked(mask: np.ndarray, bound: int) -> np.ndarray:
    return np.unpackbits(mask, axis=-1, count=bound, bitorder="little").astype(np.int8)


def compare(env: VectorEnv, refs: list[Reference], obs: np.ndarray, info: dict[str, Any], where: str) -> None:
    bound = ACTION_BOUND[env.name]
    for i, ref in enumerate(refs):
        seat = int(info["seat"][i])
        r_obs, r_mask = ref.observe(seat)
        assert np.array_equal(obs[i], r_obs), f"{where}: table {i} observation"
        assert np.array_equal(unpacked(info["action_mask"][i], bound), r_mask), f"{where}: table {i} mask"
        assert int(info["num_actions"][i]) == int(r_mask.sum())
        assert np.array_equal(info["deal_rewards"][i], ref.deal), f"{where}: table {i} instant wins"


def run_differential(
    game: str, players: int, rules: Any, seed: int, steps: int, max_cycles: int = 100_000
) -> tuple[int, int]:
    """Steps a 3-table VectorEnv and its PettingZoo references side by side; the hands ended
    and truncated."""
    env = VectorEnv(game, 3, players=players, rules=rules, seed=seed, max_cycles=max_cycles)
    refs = [Reference(game, players, rules, seed + i, max_cycles) for i in range(3)]
    obs, info = env.reset()
    compare(env, refs, obs, info, "reset")
    done = [False] * 3
    ended = cut = 0
    for step in range(steps):
        actions = env.sample_actions()
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i, ref in enumerate(refs):
            if done[i]:  # the next-step autoreset: a new hand, nothing paid
                ref.new_hand()
                assert not terminated[i] and not truncated[i] and not rewards[i].any()
                done[i] = False
                continue
            ref.deal[:] = 0
            r_rewards, r_term, r_trunc, seat = ref.step(int(actions[i]))
            where = f"{game} {rules} step {step} table {i}"
            assert np.array_equal(rewards[i], r_rewards), where
            assert (bool(terminated[i]), bool(truncated[i])) == (r_term, r_trunc), where
            assert int(info["seat"][i]) == seat, where
            assert rewards[i].sum() == 0
            done[i] = bool(terminated[i] or truncated[i])
            ended += bool(terminated[i])
            cut += bool(truncated[i])
        compare(env, refs, obs, info, f"{game} {rules} step {step}")
    return ended, cut


@pytest.mark.parametrize("game", GAMES)
def test_trajectories_equal_the_pettingzoo_envs(game: str) -> None:
    rnd = random.Random(f"vector/{game}")
    ended = 0
    high = 5 if game == "samloc" else 4  # Tứ Sắc and Tiến Lên seat 2-4
    # Mậu Binh runs the solver at every step (a few ms): fewer cases, still whole hands.
    cases, steps = (max(2, CASES // 3), 12) if game == "maubinh" else (CASES, STEPS)
    for case in range(cases):
        players = rnd.randint(2, high)
        ended += run_differential(game, players, random_rules(game, rnd), seed=case * 10, steps=steps)[0]
    assert ended >= cases  # whole hands were played, so rewards and autoresets were compared


@pytest.mark.parametrize("game", [g for g in GAMES if g != "maubinh"])  # its hands: 2-4 steps
def test_truncation_matches_max_cycles(game: str) -> None:
    assert run_differential(game, 4, {}, seed=3, steps=40, max_cycles=7)[1] > 0


def test_instant_wins_at_the_deal_are_paid_in_deal_rewards() -> None:
    # Four 2s win at once: a table of 2 seats dealt many hands meets some.
    env = VectorEnv("tienlen", 64, players=2, seed=11)
    _, info = env.reset()
    seen = info["deal_rewards"].any(axis=1).sum()
    for _ in range(300):
        *_, info = env.step(env.sample_actions())
        seen += info["deal_rewards"].any(axis=1).sum()
        assert (info["deal_rewards"].sum(axis=1) == 0).all()
    assert seen > 0


def test_a_bad_action_changes_nothing() -> None:
    env = VectorEnv("samloc", 4, seed=2)
    _, info = env.reset()
    actions = env.sample_actions()
    actions[2] = int(info["num_actions"][2])
    before = [env.game(i).to_json() for i in range(4)]
    with pytest.raises(IllegalMoveError, match="table 2: action"):
        env.step(actions)
    assert [env.game(i).to_json() for i in range(4)] == before
    with pytest.raises(RulesError):
        env.step(actions[:3])


def test_seeds_replay_and_streams_go_on() -> None:
    a, b = VectorEnv("tienlen", 5, seed=7), VectorEnv("tienlen", 5)
    obs_a, _ = a.reset()
    obs_b, _ = b.reset(seed=7)
    assert np.array_equal(obs_a, obs_b)
    for _ in range(50):
        ra = a.step(a.sample_actions())
        rb = b.step(b.sample_actions())
        assert all(np.array_equal(x, y) for x, y in zip(ra[:4], rb[:4], strict=True))
    again, _ = a.reset(seed=7)
    assert np.array_equal(again, obs_a)
    goes_on, _ = a.reset()
    assert not np.array_equal(goes_on, obs_a)
    fresh = VectorEnv("tienlen", 5)
    assert not np.array_equal(fresh.reset()[0], obs_a)  # OS entropy


def test_copies_and_shared_arrays() -> None:
    shared = VectorEnv("tienlen", 4, seed=1, copy=False)
    first, _ = shared.reset()
    second, *_ = shared.step(shared.sample_actions())
    assert first is second  # the environment's own array, overwritten
    copied = VectorEnv("tienlen", 4, seed=1)
    first, _ = copied.reset()
    second, *_ = copied.step(copied.sample_actions())
    assert first is not second and not np.array_equal(first, second)


def test_game_i_is_an_ordinary_game() -> None:
    env = VectorEnv("samloc", 3, players=3, seed=5)
    obs, info = env.reset()
    for _ in range(25):
        obs, _, terminated, _, info = env.step(env.sample_actions())
    for i in range(3):
        game = env.game(i)
        seat = int(info["seat"][i])
        assert np.array_equal(encoding.observation(game.view(seat), 3), obs[i])
        assert game.is_over == bool(terminated[i])
        restored = type(game).from_json(game.to_json())
        assert restored.to_json() == game.to_json()


def test_gymnasium_vector_env_conventions() -> None:
    gym_vector = pytest.importorskip("gymnasium.vector")
    env = VectorEnv("tienlen-north", 6, seed=0)
    assert isinstance(env, gym_vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == gym_vector.AutoresetMode.NEXT_STEP
    assert env.single_action_space.n == ACTION_BOUND["tienlen-north"]
    assert env.observation_space.shape == (6, encoding.observation_size("tienlen-north", 4))
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (6, ACTION_BOUND["tienlen-north"] // 8)
    assert env.memory_per_table > 0


def test_bad_arguments() -> None:
    with pytest.raises(RulesError):
        VectorEnv("uno", 2)
    with pytest.raises(RulesError):
        VectorEnv("tienlen", 0)
    with pytest.raises(RulesError):
        VectorEnv("tienlen", 2, players=5)
    with pytest.raises(RulesError):
        VectorEnv("samloc", 2).step([0, 0])
    with pytest.raises(RulesError):
        VectorEnv("tienlen", 2, rules={"ending": "ranked"})  # scoring must match


@source_tree
def test_example_learn_vector_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """examples/learn_vector.py trains and measures (here for a second and two deals)."""
    import runpy
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "learn_vector.py"
    module = runpy.run_path(str(path))
    module["main"](["--minutes", "0.02", "--deals", "2"])
    out = capsys.readouterr().out
    assert "hands of self-play" in out
    for line in ("learned vs random", "learned vs greedy", "first legal action vs greedy"):
        assert line in out and "95% CI" in out


BAD_ACTIONS: list[tuple[Any, str]] = [
    (0.9, "table 1: action must be an integer index 0..N, not 0.9 (float)"),
    ("0", "table 1: action must be an integer index 0..N, not '0' (str)"),
    ("x", "table 1: action must be an integer index 0..N, not 'x' (str)"),
    (True, "table 1: action must be an integer index 0..N, not True"),
    (False, "table 1: action must be an integer index 0..N, not False"),
    (np.bool_(True), "table 1: action must be an integer index 0..N, not "),  # its repr: numpy's
    (float("nan"), "table 1: action must be an integer index 0..N, not nan (float)"),
    (float("inf"), "table 1: action must be an integer index 0..N, not inf (float)"),
    (float("-inf"), "table 1: action must be an integer index 0..N, not -inf (float)"),
    (np.float64(1.0), "table 1: action must be an integer index 0..N, not"),
    (None, "table 1: action must be an integer index 0..N, not None (NoneType)"),
    ([0], "table 1: action must be an integer index 0..N, not [0] (list)"),
    (2**63, f"table 1: action {2**63} is out of range 0..N"),
    (2**64, f"table 1: action {2**64} is out of range 0..N"),
    (-(2**63) - 1, f"table 1: action {-(2**63) - 1} is out of range 0..N"),
    (-1, "table 1: action -1 is out of range 0..N"),
]


def _twins() -> tuple[VectorEnv, VectorEnv, np.ndarray]:
    a, b = VectorEnv("tienlen", 4, seed=5), VectorEnv("tienlen", 4, seed=5)
    a.reset()
    b.reset()
    for _ in range(3):
        actions = a.sample_actions()
        a.step(actions)
        b.step(actions)
    return a, b, a.sample_actions()


def _refused_unmoved(env: VectorEnv, twin: VectorEnv, good: np.ndarray, bad: Any, message: str) -> None:
    before = [env.game(i).to_json() for i in range(env.num_envs)]
    with pytest.raises(IllegalMoveError) as e:
        env.step(bad)
    assert message.replace("0..N", f"0..{env.action_bound - 1}") in str(e.value), str(e.value)
    assert e.value.reason == "invalid_action"
    assert [env.game(i).to_json() for i in range(env.num_envs)] == before  # no table moved
    got, want = env.step(good), twin.step(good)
    assert all(np.array_equal(x, y) for x, y in zip(got[:4], want[:4], strict=True))


@pytest.mark.parametrize(("value", "message"), BAD_ACTIONS)
def test_only_integer_indices_are_actions(value: Any, message: str) -> None:
    """A list holding anything but an int (or a NumPy integer) in range is refused with an
    IllegalMoveError naming the table and the value, before any table moves (issue 37.4:
    ``0.9`` and ``"0"`` were action 0, ``True`` action 1; NaN, ±inf, 2**63 and ``"x"`` raised
    bare ValueError / OverflowError)."""
    env, twin, good = _twins()
    bad = [int(x) for x in good]
    bad[1] = value
    _refused_unmoved(env, twin, good, bad, message)


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.zeros(4, dtype=np.float64), "actions must be an integer array, not float64"),
        (np.zeros(4, dtype=np.float32), "actions must be an integer array, not float32"),
        (np.zeros(4, dtype=np.bool_), "actions must be an integer array, not bool"),
        (np.array(["0"] * 4), "actions must be an integer array, not <U1"),
        (np.zeros(4, dtype=np.complex128), "actions must be an integer array, not complex128"),
        (np.array([0, 2**63, 0, 0], dtype=np.uint64), f"table 1: action {2**63} is out of range 0..N"),
        (np.array([0, 2**64 - 1, 0, 0], dtype=np.uint64), f"table 1: action {2**64 - 1} is out of range"),
        (np.array([0, 2**64, 0, 0], dtype=object), f"table 1: action {2**64} is out of range 0..N"),
        (np.array([0, 0.5, 0, 0], dtype=object), "table 1: action must be an integer index 0..N, not 0.5"),
    ],
)
def test_only_integer_arrays_are_actions(array: np.ndarray, message: str) -> None:
    env, twin, good = _twins()
    _refused_unmoved(env, twin, good, array, message)


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: a.astype(np.uint8),
        lambda a: a.astype(np.int32),
        lambda a: a.astype(np.uint64),
        lambda a: a.astype(np.int16)[::-1][::-1],
        lambda a: np.repeat(a, 2)[::2],  # not contiguous
        lambda a: [int(x) for x in a],
        lambda a: tuple(int(x) for x in a),
        lambda a: [np.int8(x) for x in a],
        lambda a: a.astype(object),
    ],
)
def test_integer_arrays_and_lists_of_ints_are_actions(convert: Any) -> None:
    env, twin, good = _twins()
    got, want = env.step(convert(good)), twin.step(good)
    assert all(np.array_equal(x, y) for x, y in zip(got[:4], want[:4], strict=True))


def test_num_envs_is_bounded() -> None:
    """``num_envs`` past the core's bound (or past a machine int) is a RulesError with the
    bound, not an OverflowError (issue 37.4); the bound is the core's own."""
    from vncards import _core, vector

    for n in (2**64, 2**20 + 1, 10**30):
        with pytest.raises(RulesError, match=rf"num_envs must be an int in 1\.\.{vector.MAX_ENVS}, not {n}"):
            VectorEnv("tienlen", n)
    assert f"{vector.MAX_ENVS:,}" in (VectorEnv.__doc__ or "")
    flow = VectorEnv("tienlen", 1).rules.flow
    with pytest.raises(RulesError, match=f"1..{vector.MAX_ENVS}, not {vector.MAX_ENVS + 1}"):
        _core.VectorCore.shedding(flow, 4, vector.MAX_ENVS + 1, 100)
