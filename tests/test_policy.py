"""The learned policy: its weights file (read and refused by the Rust core), the Rust forward
pass against a numpy one written here, the ``policy`` bot (rules, determinism, honesty), and the
whole path from ``vncards train`` to a bot playing a game (skipped only without JAX)."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import importlib.util
import json
import random
import shlex
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import _core, games
from vncards.bots import bot_names, decide, make_bot
from vncards.bots.honesty import decides_honestly, redeal
from vncards.bots.policy import SUFFIX, rules_record, shipped_weights
from vncards.bots.strength import bench_bots
from vncards.errors import RulesError, SnapshotError
from vncards.integrations.encoding import action_cards, observation
from vncards.learn.config import TrainConfig, check, parse_opponents
from vncards.learn.distill import action_rows, merge, teacher_data
from vncards.learn.model import Architecture, from_net, init_layers, to_net
from vncards.session import Seat, Session
from vncards.shedding.game import SheddingGame
from vncards.simulate import play_game

GAMES = ("tienlen", "tienlen-north", "samloc", "tusac")
ARCH = Architecture(tower=(24, 12), join=10, head=(6,))
HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("optax") is not None


def _net(game: str, seed: int = 1, players: int = 4, rules: Any = None) -> Any:
    _, _, _, d, a = _core.policy_encoding(game, players)
    layers = init_layers(ARCH, d, a, seed)
    # Non-zero biases, so that the test sees them used.
    layers = [(w, np.linspace(-0.2, 0.2, len(b)).astype(np.float32)) for w, b in layers]
    r = games.spec(game).rules() if rules is None else rules
    return to_net(game, players, ARCH, layers, rules_record(game, r), {"made by": "tests"})


def _file(tmp_path: Path, game: str, **kw: Any) -> Path:
    path = tmp_path / f"{game}{SUFFIX}"
    path.write_bytes(_net(game, **kw).to_bytes())
    return path


# -- the numpy forward pass the Rust one must agree with ---------------------------------------


def numpy_scores(net: Any, obs: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """The network of ``net`` written out in numpy: tower with ReLU, join, ReLU, head."""
    flat = np.frombuffer(net.data(), "<f4").astype(np.float64)
    layers, at = [], 0
    for rows, cols in net.shapes:
        w = flat[at : at + rows * cols].reshape(rows, cols)
        at += rows * cols
        layers.append((w, flat[at : at + rows]))
        at += rows
    t = net.tower
    x = np.broadcast_to(obs.astype(np.float64), (len(actions), obs.shape[-1]))
    for w, b in layers[:t]:
        x = np.maximum(x @ w.T + b, 0)
    z = np.maximum(x @ layers[t][0].T + layers[t][1] + actions @ layers[t + 1][0].T + layers[t + 1][1], 0)
    head = layers[t + 2 :]
    for k, (w, b) in enumerate(head):
        z = z @ w.T + b
        if k < len(head) - 1:
            z = np.maximum(z, 0)
    return np.asarray(z[:, 0])


def _walk(game: Any, steps: int, seed: int) -> Any:
    """``game`` after ``steps`` random moves, at a decision with a choice."""
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.pending_seats[0]
        before = copy.deepcopy(game)
        game.apply(rng.choice(game.legal_actions(seat)))
        if game.is_over:
            return before
    while not game.is_over and len(game.legal_actions(game.pending_seats[0])) < 2:
        game.apply(game.legal_actions(game.pending_seats[0])[0])
    return game


def _fresh(game: str, seed: int) -> Any:
    while (g := games.new_game(game, 4, seed=seed)).is_over:
        seed += 1000
    return g


# -- the weights file ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_weights_file_round_trips_with_its_header(game: str) -> None:
    net = _net(game)
    back = _core.PolicyNet.from_bytes(net.to_bytes())
    assert back.to_bytes() == net.to_bytes()
    assert (back.game, back.players, back.shapes, back.tower) == (game, 4, net.shapes, 2)
    name, version, digest = back.encoding
    assert (name, version, digest) == _core.policy_encoding(game, 4)[:3]
    assert json.loads(back.provenance) == {"made by": "tests"}
    assert json.loads(back.rules)["game"] == game
    assert [w.tolist() for w, _ in from_net(back)] == [w.tolist() for w, _ in from_net(net)]


def test_damaged_truncated_or_foreign_files_are_refused() -> None:
    data = bytearray(_net("tienlen").to_bytes())
    with pytest.raises(SnapshotError, match="bad magic"):
        _core.PolicyNet.from_bytes(b"PK\x03\x04" + bytes(data[4:]))
    with pytest.raises(SnapshotError, match="truncated"):
        _core.PolicyNet.from_bytes(bytes(data[:-5]))
    damaged = bytearray(data)
    damaged[-3] ^= 0x10
    with pytest.raises(SnapshotError, match="checksum"):
        _core.PolicyNet.from_bytes(bytes(damaged))
    later = bytearray(data)
    later[8:12] = struct.pack("<I", 99)
    with pytest.raises(SnapshotError, match="format version 99"):
        _core.PolicyNet.from_bytes(bytes(later))
    with pytest.raises(SnapshotError, match="after the numbers"):
        _core.PolicyNet.from_bytes(bytes(data) + b"\0")
    # SnapshotError is a ValueError: bad input.
    assert issubclass(SnapshotError, ValueError)


def test_weights_of_another_encoding_are_refused() -> None:
    data = bytearray(_net("tienlen").to_bytes())
    digest = bytes.fromhex(_core.policy_encoding("tienlen", 4)[2])[::-1]  # stored little-endian
    at = bytes(data).index(digest)
    data[at] ^= 0xFF
    with pytest.raises(SnapshotError, match="encoding"):
        _core.PolicyNet.from_bytes(bytes(data))


def test_shapes_that_do_not_fit_the_encoding_are_refused() -> None:
    _, _, _, d, a = _core.policy_encoding("tienlen", 4)
    good = init_layers(ARCH, d, a, 0)
    with pytest.raises(SnapshotError, match="tower layer 0"):
        to_net("tienlen", 4, ARCH, init_layers(ARCH, d + 1, a, 0), "{}", {})
    with pytest.raises(SnapshotError, match="join"):
        to_net("tienlen", 4, ARCH, init_layers(ARCH, d, a + 1, 0), "{}", {})
    with pytest.raises(RulesError, match="no learned policy"):
        to_net("maubinh", 4, ARCH, good, "{}", {})
    with pytest.raises(RulesError, match="players"):
        to_net("tienlen", 6, ARCH, good, "{}", {})
    bad = [(w.copy(), b.copy()) for w, b in good]
    bad[0][1][0] = np.nan
    with pytest.raises(SnapshotError, match="finite"):
        to_net("tienlen", 4, ARCH, bad, "{}", {})


# -- the Rust forward pass against numpy ---------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_rust_scores_match_a_numpy_forward_pass_on_self_play_positions(game: str) -> None:
    net = _net(game, seed=3)
    obs, acts, returns, hands, truncated, _ = net.selfplay(games.spec(game).rules().flow, [1, 2, 3], 0.2)
    assert hands == 3 and truncated == 0 and len(obs) == len(acts) == len(returns) > 0
    offsets = np.arange(len(obs) + 1, dtype=np.int64)
    rust = net.scores_batch(obs, acts, offsets)
    want = np.array([numpy_scores(net, o, a[None, :])[0] for o, a in zip(obs, acts, strict=True)])
    np.testing.assert_allclose(rust, want, rtol=1e-4, atol=1e-5)


@given(st.integers(0, 2**32 - 1), st.sampled_from(GAMES), st.integers(0, 60))
def test_bot_scores_equal_numpy_on_the_view_encoding(seed: int, game: str, steps: int) -> None:
    net = _net(game, seed=seed % 7)
    g = _walk(_fresh(game, seed % 1000), steps, seed)
    if g.is_over:
        return
    seat = g.pending_seats[0]
    legal = g.legal_actions(seat)
    bot = make_bot("policy", game, seed=0, weights=net)
    rust = np.array(bot.scores(g.view(seat), legal))
    # The rows distillation writes in Python (vncards.learn.distill) are those Rust scores.
    obs = observation(g.view(seat), 4)
    want = numpy_scores(net, obs, action_rows(game, g.view(seat), legal).astype(np.float64))
    np.testing.assert_allclose(rust, want, rtol=1e-4, atol=1e-5)


def test_batch_scores_are_the_single_position_scores() -> None:
    net = _net("tienlen", seed=4)
    g = _fresh("tienlen", 8)
    obs, acts, offsets, singles = [], [], [0], []
    for step in range(5):
        g = _walk(g, 3, step)
        seat = g.pending_seats[0]
        legal = g.legal_actions(seat)
        bot = make_bot("policy", "tienlen", weights=net)
        singles += bot.scores(g.view(seat), legal)
        obs.append(observation(g.view(seat), 4))
        rows = action_cards("tienlen", legal).astype(np.float32)
        flags = np.array([[a["type"] == "pass", 0, 0] for a in legal], np.float32)
        acts.append(np.hstack([rows, flags]))
        offsets.append(offsets[-1] + len(legal))
    out = net.scores_batch(np.array(obs), np.vstack(acts), np.array(offsets, np.int64))
    np.testing.assert_allclose(out, singles, rtol=1e-6)
    with pytest.raises(RulesError, match="offsets"):
        net.scores_batch(np.array(obs), np.vstack(acts), np.array(offsets[:-1], np.int64))


def test_self_play_is_a_function_of_its_seeds() -> None:
    net = _net("tienlen")
    flow = games.spec("tienlen").rules().flow
    a = net.selfplay(flow, [5, 6, 7, 8], 0.1)
    b = net.selfplay(flow, [5, 6, 7, 8], 0.1)
    assert all(np.array_equal(x, y) for x, y in zip(a[:3], b[:3], strict=True)) and a[3:] == b[3:]
    c = net.selfplay(flow, [5, 6], 0.1)
    assert np.array_equal(c[0], a[0][: len(c[0])])  # hands are independent, in seed order
    assert set(np.unique(a[2])) <= set(range(-60, 61))
    with pytest.raises(RulesError, match="rules"):
        net.selfplay(games.spec("samloc").rules().flow, [1], 0.1)
    with pytest.raises(RulesError, match="epsilon"):
        net.selfplay(flow, [1], 1.5)


# -- the bot --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_policy_bot_plays_whole_games_and_repeats_itself(tmp_path: Path, game: str) -> None:
    path = _file(tmp_path, game)
    for seed in (1, 2):
        g = play_game(_fresh(game, seed), [make_bot("policy", game, seed=s, weights=path) for s in range(4)])
        again = play_game(
            _fresh(game, seed), [make_bot("policy", game, seed=9, weights=path) for s in range(4)]
        )
        assert g.is_over and again.is_over
        assert g.to_json() == again.to_json()  # the seed does not enter its decisions


@pytest.mark.parametrize("game", GAMES)
def test_the_policy_bot_is_honest(game: str) -> None:
    net = _net(game, seed=5)
    for trial in range(3):
        g = _walk(_fresh(game, 40 + trial), 6 + 7 * trial, trial)
        if g.is_over:
            continue
        seat = g.pending_seats[0]
        other = redeal(g, seat, seed=trial)
        assert other.view(seat) == g.view(seat)
        assert decides_honestly(lambda: make_bot("policy", game, seed=1, weights=net), g, seat, redeals=3)


def test_rules_and_tables_it_was_not_trained_for_are_refused(tmp_path: Path) -> None:
    path = _file(tmp_path, "tienlen")
    with pytest.raises(RulesError, match="finish_on_two"):
        make_bot("policy", "tienlen-north", weights=path)  # trained on the Miền Nam preset
    custom = games.spec("tienlen").rules({"scoring": "ranked", "ending": "ranked"})
    with pytest.raises(RulesError, match="scoring"):
        make_bot("policy", "tienlen", rules=custom, weights=path)
    with pytest.raises(RulesError, match="play tienlen, not samloc"):
        make_bot("policy", "samloc", weights=path)
    # The table size is checked when the bot is made for a table, or else at its first decision.
    with pytest.raises(RulesError, match="4 players, not 3"):
        make_bot("policy", "tienlen", weights=path, players=3)
    with pytest.raises(RulesError, match="4 players, not 3"):
        bench_bots("tienlen", [f"policy:weights={path}", "greedy"], deals=1, players=3)
    with pytest.raises(RulesError, match="4 players, not 3"):
        Session("tienlen", players=["An", Seat(bot="policy"), None], seed=1).bot(1)  # the shipped weights
    assert make_bot("policy", "tienlen", weights=path, players=4).net.players == 4
    bot = make_bot("policy", "tienlen", weights=path)
    g = games.new_game("tienlen", 3, seed=1)
    seat = g.pending_seats[0]
    with pytest.raises(RulesError, match="4 players, not 3"):
        bot.choose(g.view(seat), g.legal_actions(seat))
    with pytest.raises(RulesError, match="cannot read"):
        make_bot("policy", "tienlen", weights=tmp_path / "missing.vnpolicy")
    with pytest.raises(TypeError, match="weights must be"):
        make_bot("policy", "tienlen", weights=3.5)
    # Weights trained for the custom rules play them.
    trained = tmp_path / f"ranked{SUFFIX}"
    trained.write_bytes(_net("tienlen", rules=custom).to_bytes())
    g = games.new_game("tienlen", 4, custom, seed=2)
    seat = g.pending_seats[0]
    assert decide(make_bot("policy", "tienlen", rules=custom, weights=trained), g, seat) in g.legal_actions(
        seat
    )


@pytest.mark.parametrize(
    ("game", "option"), [("samloc", {"low_straights": True}), ("tusac", {"payment": "flat"})]
)
def test_samloc_and_tusac_weights_refuse_rules_and_tables_they_were_not_trained_for(
    tmp_path: Path, game: str, option: dict[str, Any]
) -> None:
    path = _file(tmp_path, game)
    other = "tusac" if game == "samloc" else "samloc"
    with pytest.raises(RulesError, match=f"play {game}, not {other}"):
        make_bot("policy", other, weights=path)
    custom = games.spec(game).rules(option)
    (name,) = option
    with pytest.raises(RulesError, match=name):
        make_bot("policy", game, rules=custom, weights=path)
    for players in (2, 3):
        with pytest.raises(RulesError, match=f"4 players, not {players}"):
            make_bot("policy", game, weights=path, players=players)
        with pytest.raises(RulesError, match=f"4 players, not {players}"):
            bench_bots(game, [f"policy:weights={path}", "greedy"], deals=1, players=players)
        # Made without the table size, the bot refuses at its first decision.
        g = games.new_game(game, players, seed=3)
        while not g.is_over and len(g.legal_actions(g.pending_seats[0])) < 2:
            g.apply(g.legal_actions(g.pending_seats[0])[0])
        assert not g.is_over
        seat = g.pending_seats[0]
        with pytest.raises(RulesError, match=f"4 players, not {players}"):
            make_bot("policy", game, weights=path).choose(g.view(seat), g.legal_actions(seat))
    if game in shipped_weights():  # the shipped weights refuse them as well
        with pytest.raises(RulesError, match="preset rules"):
            make_bot("policy", game, rules=custom)
        with pytest.raises(RulesError, match="4 players, not 3"):
            Session(game, players=["An", Seat(bot="policy"), None], seed=1).bot(1)
    # Weights trained for the custom rules play them.
    trained = tmp_path / f"custom{SUFFIX}"
    trained.write_bytes(_net(game, rules=custom).to_bytes())
    g = games.new_game(game, 4, custom, seed=5)
    while not g.is_over and len(g.legal_actions(g.pending_seats[0])) < 2:
        g.apply(g.legal_actions(g.pending_seats[0])[0])
    assert not g.is_over
    seat = g.pending_seats[0]
    bot = make_bot("policy", game, rules=custom, weights=trained, players=4)
    assert decide(bot, g, seat) in g.legal_actions(seat)


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_weights_play_and_without_them_the_error_says_how_to_train_them(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = make_bot("policy", game)
    assert json.loads(bot.net.provenance)["command"].startswith(f"vncards train {game}")
    assert "policy" in bot_names(game)
    # A build that ships no weights for the game says how to make them, and does not offer the bot.
    monkeypatch.setattr("vncards.bots.policy.shipped_weights", dict)
    with pytest.raises(RulesError, match=f"no policy weights ship for {game} yet.*vncards train {game}"):
        make_bot("policy", game)
    assert "policy" not in bot_names(game)


def test_shipped_weights_say_how_they_were_made() -> None:
    for game, entry in shipped_weights().items():
        net = _core.PolicyNet.from_bytes(entry.read_bytes())
        prov = json.loads(net.provenance)
        assert net.game == game
        assert (
            prov["command"].startswith(f"vncards train {game} ") and prov["steps"] > 0 and prov["seconds"] > 0
        )
        assert prov["seed"] == prov["config"]["seed"]
        assert json.loads(net.rules) == json.loads(rules_record(game, games.spec(game).rules()))
        assert len(entry.read_bytes()) < 2_000_000


# -- training, end to end ---------------------------------------------------------------------------


def _train(*args: str) -> subprocess.CompletedProcess[str]:
    """``vncards train ...`` as a person types it, in its own process: JAX's threads then
    never share a process with the tests that fork (multiprocessing, Ray)."""
    return subprocess.run(
        [sys.executable, "-m", "vncards", "train", *args], capture_output=True, text=True, timeout=300
    )


def _resume(game: str, steps: int, out: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """``vncards train GAME --steps STEPS --out OUT --resume OUT's checkpoint FLAGS...``: a
    stopped run continued, as a person continues one."""
    ckpt = out.with_name(out.name.removesuffix(".vnpolicy") + ".ckpt.npz")
    return _train(game, "--steps", str(steps), "--out", str(out), "--resume", str(ckpt), *flags)


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_sizes_the_network_from_its_flags(tmp_path: Path) -> None:
    out = tmp_path / "wide.vnpolicy"
    args = ["--steps", "2", "--seed", "1", "--hands", "2", "--updates", "1", "--batch", "16"]
    args += ["--eval-every", "2", "--eval-deals", "1", "--out", str(out)]
    done = _train("tienlen", *args, "--tower", "12,10,9", "--join", "6", "--head", "5,3")
    assert done.returncode == 0, done.stderr
    net = _core.PolicyNet.from_bytes(out.read_bytes())
    *_, obs_width, action_width = _core.policy_encoding("tienlen", 4)
    assert net.shapes == Architecture((12, 10, 9), 6, (5, 3)).shapes(obs_width, action_width)
    assert net.tower == 3
    config = json.loads(net.provenance)["config"]
    assert (config["tower"], config["join"], config["head"]) == ([12, 10, 9], 6, [5, 3])
    assert "--tower 12,10,9 --join 6 --head 5,3" in json.loads(net.provenance)["command"]
    # A width left out keeps its default.
    assert _train("tienlen", *args, "--join", "7").returncode == 0
    net = _core.PolicyNet.from_bytes(out.read_bytes())
    assert net.shapes == Architecture(join=7).shapes(obs_width, action_width)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tower", "0,8"], "widths must be positive ints, not '0,8'"),
        (["--tower", "8,x"], "write widths as positive ints with commas"),
        (["--head", ""], "write widths as positive ints with commas"),
        (["--join", "8,8"], "one width, a positive int; not '8,8'"),
        (["--tiny", "--join", "8"], "--tiny is a size of its own"),
    ],
)
def test_vncards_train_refuses_widths_it_cannot_build(flags: list[str], message: str, tmp_path: Path) -> None:
    done = _train("tienlen", "--steps", "1", "--out", str(tmp_path / "x.vnpolicy"), *flags)
    assert done.returncode == 2 and message in done.stderr
    assert not (tmp_path / "x.vnpolicy").exists()


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_writes_weights_a_bot_plays_and_resume_continues_the_same_run(tmp_path: Path) -> None:
    common = ["--seed", "3", "--tiny", "--hands", "6", "--updates", "2", "--batch", "32"]
    common += ["--eval-every", "4", "--eval-deals", "2"]
    # Exploration and learning rate decaying over the run, as the shipped runs use them.
    common += ["--epsilon-start", "0.5", "--lr-end", "1e-4", "--decay-steps", "6"]
    whole = tmp_path / "whole.vnpolicy"
    done = _train("tienlen", "--steps", "8", "--out", str(whole), *common)
    assert done.returncode == 0, done.stderr
    assert "Wrote" in done.stdout
    net = _core.PolicyNet.from_bytes(whole.read_bytes())
    prov = json.loads(net.provenance)
    assert prov["steps"] == 8 and prov["seed"] == 3 and prov["hands"] == 24
    assert prov["config"]["epsilon_start"] == 0.5 and prov["config"]["decay_steps"] == 6
    # The returns were learned divided by their first round's spread; the file scores in units.
    assert prov["return_scale"] >= 1.0
    figures = json.loads((tmp_path / "whole.curve.json").read_text())
    assert [p["step"] for p in figures["curve"]] == [0, 4, 8]
    assert all(p["low"] <= p["lead"] <= p["high"] for p in figures["curve"])
    assert (tmp_path / "whole.curve.png").read_bytes()[:4] == b"\x89PNG"
    # The bot plays a game with the trained weights.
    g = play_game(
        _fresh("tienlen", 5), [make_bot("policy", "tienlen", seed=s, weights=whole) for s in range(4)]
    )
    assert g.is_over
    # Half the run, then resumed from its checkpoint: the same weights and curve.
    half = tmp_path / "half.vnpolicy"
    assert _train("tienlen", "--steps", "4", "--out", str(half), *common).returncode == 0
    ckpt = tmp_path / "half.ckpt.npz"
    resumed_run = _train("tienlen", "--steps", "8", "--out", str(half), "--resume", str(ckpt), *common)
    assert resumed_run.returncode == 0, resumed_run.stderr
    resumed = _core.PolicyNet.from_bytes(half.read_bytes())
    assert resumed.data() == net.data()
    again = json.loads((tmp_path / "half.curve.json").read_text())
    strip = [{k: v for k, v in p.items() if k != "seconds"} for p in again["curve"]]
    assert strip == [{k: v for k, v in p.items() if k != "seconds"} for p in figures["curve"]]
    # Another run's checkpoint is refused.
    other = _train(
        "tienlen", "--steps", "8", "--out", str(half), "--resume", str(ckpt), "--seed", "4", "--tiny"
    )
    assert other.returncode == 2 and "another run" in other.stderr


def test_the_exploration_rate_goes_from_its_start_to_its_end_over_the_decay_steps() -> None:
    cfg = TrainConfig("tienlen", 100, epsilon=0.05, epsilon_start=0.45, decay_steps=40)
    assert [round(cfg.epsilon_at(s), 4) for s in (0, 20, 40, 80)] == [0.45, 0.25, 0.05, 0.05]
    assert TrainConfig("tienlen", 100, epsilon=0.1).epsilon_at(0) == 0.1
    assert TrainConfig.from_dict(cfg.to_dict()) == cfg
    # Checkpoints written before the return scale existed learned raw units.
    legacy = {k: v for k, v in cfg.to_dict().items() if k != "return_scale"}
    assert TrainConfig.from_dict(legacy).return_scale == 1.0
    for bad in ({"epsilon_start": 1.5}, {"lr_end": 0.0}, {"decay_steps": -1}, {"return_scale": -2.0}):
        with pytest.raises(RulesError, match=next(iter(bad))):
            check(dataclasses.replace(cfg, **bad))


# -- greedy opponents in self-play -----------------------------------------------------------------


def _replay_with_greedy(game: str, net: Any, seed: int, mask: int, frozen: Any = None) -> tuple[int, int]:
    """One hand of ``net.selfplay`` with ``greedy`` (or the network ``frozen``) at the seats of
    ``mask``, replayed in Python with the ``greedy`` bot (or the ``policy`` bot of ``frozen``) at
    those seats and the samples' actions at the others: checks every sample's observation is
    the replay's, and returns (samples, decisions the replay asked of the network's seats)."""
    rules = games.spec(game).rules()
    seats = {"greedy_seats": [mask]} if frozen is None else {"frozen": frozen, "frozen_seats": [mask]}
    obs, acts, rets, hands, truncated, _ = net.selfplay(rules.flow, [seed], 0.0, **seats)
    assert hands == 1 and truncated == 0
    g = games.new_game(game, 4, rules, seed=seed)
    greedy = (
        make_bot("greedy", game, rules=rules)
        if frozen is None
        else make_bot("policy", game, rules=rules, weights=frozen)
    )
    k = 0
    learners: list[int] = []
    while not g.is_over:
        seat = g.pending_seats[0]
        legal = g.legal_actions(seat)
        if len(legal) > 1 and mask >> seat & 1:
            g.apply(greedy.choose(g.view(seat), legal))
            continue
        if len(legal) > 1:
            view = g.view(seat)
            assert k < len(obs) and np.array_equal(observation(view, 4), obs[k])
            rows = action_rows(game, view, legal)
            (i,) = [j for j in range(len(legal)) if np.array_equal(rows[j], acts[k])]
            g.apply(legal[i])
            learners.append(seat)
            k += 1
            continue
        g.apply(legal[0])
    units = g.hand_settlement if isinstance(g, SheddingGame) else g.settlement
    assert units is not None and list(rets) == [units[s] for s in learners]
    return len(obs), k


@pytest.mark.parametrize("game", ["tienlen", "tienlen-north", "tusac"])
def test_self_play_seats_given_to_greedy_play_as_the_greedy_bot_and_are_not_learned(game: str) -> None:
    net = _net(game, seed=3)
    seen = 0
    for seed in range(1, 13):
        mask = (0b1110, 0b0101, 0b1010, 0b0111)[seed % 4]
        samples, asked = _replay_with_greedy(game, net, seed, mask)
        assert samples == asked
        seen += samples
    assert seen > 50
    # No greedy seat: the plain self-play, sample for sample.
    flow = games.spec(game).rules().flow
    plain, zero = net.selfplay(flow, [4, 5], 0.1), net.selfplay(flow, [4, 5], 0.1, greedy_seats=[0, 0])
    assert all(np.array_equal(x, y) for x, y in zip(plain[:3], zero[:3], strict=True))
    # Every seat greedy: hands played, nothing learned.
    obs, _, _, hands, _, decisions = net.selfplay(flow, [4, 5], 0.1, greedy_seats=[15, 15])
    assert len(obs) == 0 and hands == 2 and decisions > 0


def test_greedy_seats_are_refused_where_self_play_cannot_play_them() -> None:
    net, flow = _net("tienlen"), games.spec("tienlen").rules().flow
    with pytest.raises(RulesError, match="one mask per seed"):
        net.selfplay(flow, [1, 2], 0.1, greedy_seats=[1])
    with pytest.raises(RulesError, match="past the table's 4"):
        net.selfplay(flow, [1], 0.1, greedy_seats=[16])
    other = _net("samloc")
    rules = games.spec("samloc").rules().flow
    with pytest.raises(RulesError, match="Tiến Lên and Tứ Sắc only"):
        other.selfplay(rules, [1], 0.1, greedy_seats=[2])
    assert other.selfplay(rules, [1], 0.1, greedy_seats=[0])[3] == 1


@pytest.mark.parametrize("game", ["tienlen", "samloc", "tusac"])
def test_self_play_seats_given_to_a_frozen_network_play_as_its_policy_bot_and_are_not_learned(
    game: str,
) -> None:
    net, frozen = _net(game, seed=3), _net(game, seed=8)
    seen = 0
    for seed in range(1, 9):
        mask = (0b1110, 0b0101, 0b1010, 0b0111)[seed % 4]
        samples, asked = _replay_with_greedy(game, net, seed, mask, frozen=frozen)
        assert samples == asked
        seen += samples
    assert seen > 10
    flow = games.spec(game).rules().flow
    # The learner's own network frozen at some seats plays as the learner would (no
    # exploration): the samples are those of the plain self-play less those seats'.
    plain = net.selfplay(flow, [4, 5], 0.0)
    part = net.selfplay(flow, [4, 5], 0.0, frozen=net, frozen_seats=[0b0101, 0b0101])
    rows = [r.tobytes() for r in plain[0]]
    it = iter(rows)
    assert 0 < len(part[0]) < len(rows) and all(r.tobytes() in it for r in part[0])
    # Every seat frozen: hands played, nothing learned.
    obs, _, _, hands, _, decisions = net.selfplay(flow, [4, 5], 0.1, frozen=frozen, frozen_seats=[15, 15])
    assert len(obs) == 0 and hands == 2 and decisions > 0


def test_frozen_seats_are_refused_where_self_play_cannot_play_them() -> None:
    net, flow = _net("tienlen"), games.spec("tienlen").rules().flow
    with pytest.raises(RulesError, match="needs the frozen network"):
        net.selfplay(flow, [1], 0.1, frozen_seats=[1])
    with pytest.raises(RulesError, match="one mask per seed"):
        net.selfplay(flow, [1, 2], 0.1, frozen=net, frozen_seats=[1])
    with pytest.raises(RulesError, match="past the table's 4"):
        net.selfplay(flow, [1], 0.1, frozen=net, frozen_seats=[16])
    with pytest.raises(RulesError, match="both greedy's and the frozen network's"):
        net.selfplay(flow, [1, 2], 0.1, greedy_seats=[1, 6], frozen=net, frozen_seats=[1, 1])
    with pytest.raises(RulesError, match="the frozen network plays samloc"):
        net.selfplay(flow, [1], 0.1, frozen=_net("samloc"), frozen_seats=[1])
    with pytest.raises(RulesError, match="at 3 seats"):
        net.selfplay(flow, [1], 0.1, frozen=_net("tienlen", players=3), frozen_seats=[1])


def test_opponents_are_written_bot_share_and_checked() -> None:
    assert parse_opponents("greedy:0.25") == (("greedy", 0.25),)
    assert parse_opponents("greedy:0.3,policy:weights=a.vnpolicy:0.2, self:0.5") == (
        ("greedy", 0.3),
        ("policy:weights=a.vnpolicy", 0.2),
    )
    assert parse_opponents("policy:0.25") == (("policy", 0.25),)
    assert parse_opponents("greedy:0.5, self:0.5") == (("greedy", 0.5),)
    for text, message in (
        ("greedy", "BOT:SHARE"),
        ("greedy:x", "BOT:SHARE"),
        ("greedy:0.5,self:0.4", "add up to 1"),
    ):
        with pytest.raises(RulesError, match=message):
            parse_opponents(text)
    cfg = TrainConfig("tienlen", 100, opponents=(("greedy", 0.5),))
    check(cfg)
    assert TrainConfig.from_dict(json.loads(json.dumps(cfg.to_dict()))) == cfg
    for bad, message in (
        ({"opponents": (("random", 0.5),)}, "may be greedy"),
        ({"opponents": (("greedy", 1.0),)}, "in \\(0, 1\\)"),
        ({"opponents": (("greedy", 0.5),), "game": "samloc"}, "tienlen, tienlen-north, tusac only"),
        ({"opponents": (("policy:wights=a", 0.5),)}, "policy or policy:weights=FILE"),
        ({"opponents": (("policy:weights=", 0.5),)}, "policy or policy:weights=FILE"),
        ({"opponents": (("policy", 0.2), ("policy:weights=a", 0.2))}, "one frozen network"),
        ({"opponents": (("greedy", 0.5), ("policy", 0.5))}, "shares below 1"),
    ):
        with pytest.raises(RulesError, match=message):
            check(dataclasses.replace(cfg, **bad))
    # A frozen network plays in every game's self-play.
    for game in GAMES:
        check(TrainConfig(game, 100, opponents=(("policy:weights=a.vnpolicy", 0.25),)))


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
@pytest.mark.parametrize("game", ["tienlen", "tusac"])
def test_vncards_train_with_greedy_opponents_learns_from_the_other_seats(game: str, tmp_path: Path) -> None:
    common = ["--seed", "5", "--tiny", "--hands", "8", "--updates", "2", "--batch", "32"]
    common += ["--eval-every", "4", "--eval-deals", "2"]
    plain, mixed = tmp_path / "plain.vnpolicy", tmp_path / "mixed.vnpolicy"
    assert _train(game, "--steps", "4", "--out", str(plain), *common).returncode == 0
    done = _train(game, "--steps", "8", "--out", str(mixed), "--opponents", "greedy:0.5", *common)
    assert done.returncode == 0, done.stderr
    prov = json.loads(_core.PolicyNet.from_bytes(mixed.read_bytes()).provenance)
    first = json.loads(_core.PolicyNet.from_bytes(plain.read_bytes()).provenance)
    assert prov["config"]["opponents"] == [["greedy", 0.5]] and "--opponents greedy:0.5" in prov["command"]
    assert "greedy 0.5" in prov["method"]
    # The same deals, half the seats greedy: fewer samples than every seat learning.
    assert prov["hands"] == 32 and first["hands"] == 16 and 0 < prov["samples"] < 2 * first["samples"]
    # Resumed from half the run: the same weights (the greedy seats are drawn per round).
    half = tmp_path / "half.vnpolicy"
    assert (
        _train(game, "--steps", "4", "--out", str(half), "--opponents", "greedy:0.5", *common).returncode == 0
    )
    resumed = _resume(game, 8, half, "--opponents", "greedy:0.5", *common)
    assert resumed.returncode == 0, resumed.stderr
    assert (
        _core.PolicyNet.from_bytes(half.read_bytes()).data()
        == _core.PolicyNet.from_bytes(mixed.read_bytes()).data()
    )
    for flags, message in (
        (["--opponents", "greedy"], "BOT:SHARE"),
        (["--opponents", "random:0.5"], "may be greedy"),
    ):
        bad = _train(game, "--steps", "4", "--out", str(tmp_path / "bad.vnpolicy"), *flags, *common)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    bad = _train(
        "samloc", "--steps", "4", "--out", str(tmp_path / "bad.vnpolicy"), "--opponents", "greedy:0.5"
    )
    assert bad.returncode == 2 and "tienlen, tienlen-north, tusac only" in bad.stderr


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_starts_from_a_weights_file_and_resume_continues_the_same_run(tmp_path: Path) -> None:
    common = ["--seed", "7", "--tiny", "--hands", "6", "--updates", "2", "--batch", "32"]
    common += ["--eval-every", "4", "--eval-deals", "2", "--opponents", "greedy:0.5"]
    first = tmp_path / "first.vnpolicy"
    assert _train("tienlen", "--steps", "4", "--out", str(first), *common).returncode == 0
    start = _core.PolicyNet.from_bytes(first.read_bytes())
    start_prov = json.loads(start.provenance)
    more = tmp_path / "more.vnpolicy"
    done = _train("tienlen", "--steps", "8", "--out", str(more), "--init", str(first), *common)
    assert done.returncode == 0, done.stderr
    net = _core.PolicyNet.from_bytes(more.read_bytes())
    prov = json.loads(net.provenance)
    digest = hashlib.sha256(first.read_bytes()).hexdigest()
    assert prov["init"] == {"file": "first.vnpolicy", "sha256": digest, "steps": 4}
    assert prov["method"].startswith(f"starting from the weights first.vnpolicy (SHA-256 {digest}, 4 steps")
    assert "--init" in prov["command"] and prov["config"]["init"] == str(first)
    # The returns keep the scale the first weights learned them in.
    assert prov["return_scale"] == start_prov["return_scale"]
    # Its curve's first point is the starting weights' play: the first run's last point.
    curve = json.loads((tmp_path / "more.curve.json").read_text())["curve"]
    last = json.loads((tmp_path / "first.curve.json").read_text())["curve"][-1]
    assert {k: curve[0][k] for k in ("lead", "low", "high")} == {k: last[k] for k in ("lead", "low", "high")}
    assert net.data() != start.data()
    # Half the run, then resumed: the same weights (the start is read once, at the start).
    half = tmp_path / "half.vnpolicy"
    assert (
        _train("tienlen", "--steps", "4", "--out", str(half), "--init", str(first), *common).returncode == 0
    )
    resumed = _resume("tienlen", 8, half, "--init", str(first), *common)
    assert resumed.returncode == 0, resumed.stderr
    assert _core.PolicyNet.from_bytes(half.read_bytes()).data() == net.data()
    # Weights a run cannot start from are refused, naming why.
    (tmp_path / "junk.vnpolicy").write_bytes(b"not weights")
    for flags, message in (
        (["--init", str(tmp_path / "missing.vnpolicy"), *common], "cannot start from the weights"),
        (["--init", str(tmp_path / "junk.vnpolicy"), *common], "cannot start from the weights"),
        (["--init", str(first), *common[:2], "--join", "8", *common[3:]], "this run trains tienlen"),
        (["--init", str(first), *common, "--rules", "scoring=ranked", "ending=ranked"], "other rules"),
    ):
        bad = _train("tienlen", "--steps", "4", "--out", str(tmp_path / "bad.vnpolicy"), *flags)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    north = _train(
        "tienlen-north",
        "--steps",
        "2",
        "--out",
        str(tmp_path / "north.vnpolicy"),
        "--init",
        str(first),
        "--tiny",
        "--hands",
        "2",
        "--eval-deals",
        "1",
    )
    assert north.returncode == 2 and "a network of tienlen," in north.stderr, north.stderr


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_with_a_league_of_greedy_and_a_frozen_network(tmp_path: Path) -> None:
    common = ["--seed", "6", "--tiny", "--hands", "8", "--updates", "2", "--batch", "32"]
    common += ["--eval-every", "4", "--eval-deals", "2"]
    old = tmp_path / "old.vnpolicy"
    assert _train("tienlen", "--steps", "2", "--out", str(old), *common).returncode == 0
    league = ["--opponents", f"greedy:0.3,policy:weights={old}:0.3"]
    whole, half = tmp_path / "whole.vnpolicy", tmp_path / "half.vnpolicy"
    done = _train("tienlen", "--steps", "8", "--out", str(whole), *league, *common)
    assert done.returncode == 0, done.stderr
    prov = json.loads(_core.PolicyNet.from_bytes(whole.read_bytes()).provenance)
    assert prov["config"]["opponents"] == [["greedy", 0.3], [f"policy:weights={old}", 0.3]]
    digest = hashlib.sha256(old.read_bytes()).hexdigest()
    assert prov["opponent_weights"] == {"file": "old.vnpolicy", "sha256": digest}
    assert f"policy:weights={old} 0.3" in prov["method"]
    # Resumed from half the run: the same weights.
    assert _train("tienlen", "--steps", "4", "--out", str(half), *league, *common).returncode == 0
    resumed = _resume("tienlen", 8, half, *league, *common)
    assert resumed.returncode == 0, resumed.stderr
    assert (
        _core.PolicyNet.from_bytes(half.read_bytes()).data()
        == _core.PolicyNet.from_bytes(whole.read_bytes()).data()
    )
    # The frozen weights changed under a run: refused on resume.
    old.write_bytes(_core.PolicyNet.from_bytes(half.read_bytes()).to_bytes())
    moved = _resume("tienlen", 12, half, *league, *common)
    assert moved.returncode == 2 and "not those the run started with" in moved.stderr, moved.stderr
    # The shipped network as the frozen opponent, in a game without greedy seats.
    shipped = _train(
        "samloc", "--steps", "2", "--out", str(tmp_path / "s.vnpolicy"), "--opponents", "policy:0.5", *common
    )
    if "samloc" in shipped_weights():
        assert shipped.returncode == 0, shipped.stderr
        prov = json.loads(_core.PolicyNet.from_bytes((tmp_path / "s.vnpolicy").read_bytes()).provenance)
        assert prov["opponent_weights"]["file"] == "samloc.vnpolicy"
    for flags, message in (
        (
            ["--opponents", f"policy:weights={tmp_path / 'none.vnpolicy'}:0.3"],
            "cannot read the opponents' weights",
        ),
        (["--opponents", "policy:weight=x:0.3"], "policy or policy:weights=FILE"),
    ):
        bad = _train("tienlen", "--steps", "4", "--out", str(tmp_path / "bad.vnpolicy"), *flags, *common)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr
    north = _train(
        "tienlen-north",
        "--steps",
        "2",
        "--out",
        str(tmp_path / "bad.vnpolicy"),
        "--opponents",
        f"policy:weights={old}:0.3",
        *common,
    )
    assert north.returncode == 2 and "not this run's table" in north.stderr, north.stderr


# -- distillation ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_teacher_rows_are_the_rows_the_rust_core_scores(game: str) -> None:
    data = teacher_data(game, 4, {}, "greedy", hands=2, seed=5)
    net = _net(game, seed=2)
    for i in range(0, len(data["choice"]), 7):
        lo, hi = data["offsets"][i], data["offsets"][i + 1]
        obs, rows = data["obs"][i].astype(np.float32), data["rows"][lo:hi].astype(np.float32)
        assert 0 <= data["choice"][i] < hi - lo
        rust = net.scores_batch(obs[None], rows, np.array([0, hi - lo], np.int64))
        np.testing.assert_allclose(rust, numpy_scores(net, obs, rows), rtol=1e-4, atol=1e-5)


def test_teacher_data_made_in_parts_is_the_data_made_at_once() -> None:
    whole = teacher_data("tienlen", 4, {}, "greedy", hands=4, seed=9)
    parts = merge([teacher_data("tienlen", 4, {}, "greedy", hands=k + 2, seed=9, start=k) for k in (0, 2)])
    assert whole.keys() == parts.keys()
    for key, value in whole.items():
        assert np.array_equal(value, parts[key]), key
    assert int(whole["hands"]) == 4
    assert not np.array_equal(
        whole["choice"], teacher_data("tienlen", 4, {}, "greedy", hands=4, seed=10)["choice"]
    )


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_distills_a_teacher_then_plays_itself(tmp_path: Path) -> None:
    out, ckpt = tmp_path / "d.vnpolicy", tmp_path / "d.ckpt.npz"
    common = shlex.split(
        "--seed 2 --hands 4 --updates 2 --batch 32 --eval-deals 2 --eval-every 40 --lr 0.003"
    )
    teacher = shlex.split("--distill greedy --distill-hands 3 --distill-steps 40 --distill-batch 16")
    done = _train("tienlen", "--steps", "0", "--out", str(out), *common, *teacher)
    assert done.returncode == 0, done.stderr
    prov = json.loads(_core.PolicyNet.from_bytes(out.read_bytes()).provenance)
    assert prov["teacher_hands"] == 3 and prov["teacher_decisions"] > 20 and prov["hands"] == 0
    assert prov["steps"] == 40 and prov["config"]["distill"] == "greedy"
    assert prov["method"].startswith("distillation of greedy") and "self-play" not in prov["method"]
    losses = json.loads(bytes(np.load(ckpt)["meta"]).decode())["losses"]
    assert len(losses) == 40 and np.mean(losses[-5:]) < np.mean(losses[:5])  # it learns the teacher
    # Self-play continues the same run from its checkpoint.
    more = _train("tienlen", "--steps", "4", "--out", str(out), "--resume", str(ckpt), *common, *teacher)
    assert more.returncode == 0, more.stderr
    figures = json.loads((tmp_path / "d.curve.json").read_text())
    phases = [(p["step"], p["phase"]) for p in figures["curve"]]
    assert phases == [(0, "distill"), (40, "distill"), (44, "self-play")]
    assert figures["provenance"]["hands"] == 8
    assert figures["provenance"]["method"].startswith("distillation of greedy")
    assert "; then deep Monte-Carlo self-play" in figures["provenance"]["method"]
    # A teacher without its hands and steps is refused.
    bad = _train("tienlen", "--steps", "0", "--out", str(out), *common, "--distill", "greedy")
    assert bad.returncode == 2 and "all three" in bad.stderr
    # Training ran in its own processes: no JAX backend started in this one (JAX then warns at
    # every fork, and the tests after this one fork worker processes).
    bridge = sys.modules.get("jax._src.xla_bridge")
    assert bridge is None or not bridge._backends
