"""The Tứ Sắc policy's meld cells (``src/policy/features.rs``, encoding ``tusac-view`` v2):
each cell against a brute-force meld decomposition written here, a linear score of them
against the ``greedy`` bot's picks, the refusal of weights of the first encoding, honesty,
and a tiny ``vncards train tusac`` run through the CLI."""

from __future__ import annotations

import copy
import functools
import importlib.util
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import _core, games
from vncards._core import TuSacCard
from vncards.bots import decide, make_bot
from vncards.bots.honesty import decides_honestly
from vncards.bots.policy import SUFFIX, rules_record
from vncards.bots.tusac import TuSacGreedyBot
from vncards.errors import RulesError, SnapshotError
from vncards.learn.distill import action_rows
from vncards.learn.model import Architecture, init_layers, to_net
from vncards.simulate import play_game

KINDS = 28
FLAGS = ("discard", "claim", "win", "pass")
MELD = KINDS + len(FLAGS)  # the first meld cell
HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("optax") is not None


# -- a brute-force meld decomposition -------------------------------------------------------------


def _melds_with(k: int, counts: Sequence[int]) -> list[tuple[int, ...]]:
    """Every concealed meld that holds kind ``k`` and fits in ``counts`` (kind = piece * 4 + colour)."""
    piece, colour = divmod(k, 4)
    out: list[tuple[int, ...]] = [(k,) * n for n in (2, 3, 4)]
    if piece == 0:
        out.append((k,))  # a lone Tướng
    if piece < 6:
        trio = range(0, 3) if piece < 3 else range(3, 6)
        out.append(tuple(p * 4 + colour for p in trio))  # Tướng–Sĩ–Tượng or Xe–Pháo–Mã
    else:
        others = [c for c in range(4) if c != colour]
        for n in (2, 3):  # three or four Chốt of different colours
            out += [(k, *(24 + c for c in cs)) for cs in combinations(others, n)]
    return [m for m in out if all(counts[j] >= n for j, n in Counter(m).items())]


@functools.cache
def brute_rac(counts: tuple[int, ...]) -> int:
    """The fewest cards in no meld over every way to split ``counts``: the lowest kind held is
    either a rác or in one of the melds it can join."""
    k = next((i for i, c in enumerate(counts) if c), None)
    if k is None:
        return 0
    rest = list(counts)
    rest[k] -= 1
    best = 1 + brute_rac(tuple(rest))
    for meld in _melds_with(k, counts):
        left = list(counts)
        for j in meld:
            left[j] -= 1
        best = min(best, brute_rac(tuple(left)))
    return best


def _counts(cards: Sequence[str]) -> list[int]:
    out = [0] * KINDS
    for c in cards:
        out[TuSacCard(c).index] += 1
    return out


def _minus(counts: Sequence[int], cards: Sequence[str]) -> list[int]:
    out = list(counts)
    for c in cards:
        out[TuSacCard(c).index] -= 1
    return out


def _seen(view: Mapping[str, Any]) -> list[int]:
    """Copies of each kind in the seat's sight, as the greedy bot counts them."""
    seen = _counts(view["hand"])
    for card in view["dead"] + [c for melds in view["exposed"] for m in melds for c in m["cards"]]:
        seen[TuSacCard(card).index] += 1
    return seen


def _outs(left: Sequence[int], seen: Sequence[int], offer: int | None) -> tuple[int, int]:
    rac = brute_rac(tuple(left))
    better = done = 0
    for k in range(KINDS):
        live = max(0, 4 - seen[k] - (k == offer))
        if not live or left[k] >= 4:
            continue
        with_k = list(left)
        with_k[k] += 1
        r = brute_rac(tuple(with_k))
        better += live * (r < rac)
        done += live * (r == 0)
    return better, done


def brute_cells(view: Mapping[str, Any], action: Mapping[str, Any]) -> list[float]:
    """The meld cells of ``action`` as ``features.rs`` documents them, computed here by brute force."""
    hand = _counts(view["hand"])
    seen = _seen(view)
    offer = None if view["offer"] is None else TuSacCard(view["offer"]["card"]).index
    now = brute_rac(tuple(hand))
    general = used = 0
    if action["type"] == "discard":
        left = _minus(hand, [action["card"]])
        rac, copies = brute_rac(tuple(left)), seen[TuSacCard(action["card"]).index]
        general = int(TuSacCard(action["card"]).index < 4)
    elif action["type"] == "claim":
        left = _minus(hand, action["cards"])
        used = len(action["cards"])
        options = [
            (brute_rac(tuple(_minus(left, [str(TuSacCard(k))]))), -seen[k], k)
            for k in range(4, KINDS)
            if left[k]
        ]
        if options:
            rac, minus_copies, k = min(options, key=lambda o: o[:2])
            copies = -minus_copies
            left[k] -= 1
        else:
            rac, copies = sum(left) + 1, 0
    elif action["type"] == "pass":
        left, rac, copies = hand, now, 0
    else:
        return [0.0] * 8
    better, done = _outs(left, seen, offer)
    return [rac / 8, (rac - now) / 4, copies / 4, general, now / 8, better / 16, done / 8, used / 3]


def _walk(seed: int, steps: int) -> Any:
    """A Tứ Sắc game after ``steps`` greedy moves, at a decision with a choice (None if over)."""
    g = games.new_game("tusac", 4, seed=seed)
    bots = [TuSacGreedyBot() for _ in range(4)]
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            return None
        seat = g.pending_seats[0]
        legal = g.legal_actions(seat)
        # Mostly greedy, sometimes random: positions greedy would not reach too.
        g.apply(rng.choice(legal) if rng.random() < 0.3 else bots[seat].choose(g.view(seat), legal))
    while not g.is_over and len(g.legal_actions(g.pending_seats[0])) < 2:
        g.apply(g.legal_actions(g.pending_seats[0])[0])
    return None if g.is_over else g


# -- the cells ---------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 80))
def test_meld_cells_equal_a_brute_force_decomposition(seed: int, steps: int) -> None:
    g = _walk(seed, steps)
    if g is None:
        return
    seat = g.pending_seats[0]
    view, legal = g.view(seat), g.legal_actions(seat)
    rows = action_rows("tusac", view, legal)
    assert rows.shape == (len(legal), _core.policy_encoding("tusac", 4)[4])
    for row, action in zip(rows, legal, strict=True):
        assert row[KINDS + FLAGS.index(action["type"])] == 1.0
        np.testing.assert_allclose(row[MELD:], brute_cells(view, action), atol=1e-6, err_msg=str(action))


def test_the_brute_force_agrees_with_the_cores_fewest_rac() -> None:
    """The brute force above is itself checked against ``_core.tusac_min_rac`` on random hands."""
    rng = random.Random(7)
    deck = [str(TuSacCard(k)) for k in range(KINDS) for _ in range(4)]
    for _ in range(200):
        hand = rng.sample(deck, rng.randint(0, 21))
        assert brute_rac(tuple(_counts(hand))) == _core.tusac_min_rac(hand)


def test_a_linear_score_of_the_cells_makes_greedys_every_choice() -> None:
    """Win first, then fewest rác after, then no Tướng, then most copies in sight, a pass
    after every claim that leaves as few rác: ``greedy`` itself, which a network can represent."""
    decisions = 0
    for seed in range(6):
        g = games.new_game("tusac", 4, seed=seed)
        bots = [TuSacGreedyBot() for _ in range(4)]
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            pick = bots[seat].choose(g.view(seat), legal)
            if len(legal) > 1:
                rows = action_rows("tusac", g.view(seat), legal)
                score = 1000 * rows[:, KINDS + 2] - 1000 * rows[:, MELD] - 50 * rows[:, MELD + 3]
                score += 10 * rows[:, MELD + 2] - rows[:, KINDS + 3]
                assert legal[int(np.argmax(score))] == pick
                decisions += 1
            g.apply(pick)
    assert decisions > 100


# -- the encoding ------------------------------------------------------------------------------------


ARCH = Architecture(tower=(16,), join=8, head=(4,))


def _net(seed: int = 1) -> Any:
    _, _, _, d, a = _core.policy_encoding("tusac", 4)
    layers = init_layers(ARCH, d, a, seed)
    return to_net("tusac", 4, ARCH, layers, rules_record("tusac", games.spec("tusac").rules()), {"t": 1})


def test_tusac_encoding_is_version_2_with_the_meld_cells() -> None:
    name, version, _, obs, action = _core.policy_encoding("tusac", 4)
    assert (name, version, action) == ("tusac-view", 2, KINDS + 4 + 8)
    assert obs == _core.policy_encoding("tusac", 4)[3]
    # The shedding games' encoding did not change (their shipped weights still load).
    assert _core.policy_encoding("tienlen", 4)[1] == 1


def test_weights_of_the_first_tusac_encoding_are_refused_with_a_clear_error() -> None:
    """A file trained on tusac-view v1 (the rows without the meld cells) says to retrain."""
    data = bytearray(_net().to_bytes())
    name = b"tusac-view"
    at = bytes(data).index(name) + len(name)
    assert data[at : at + 4] == (2).to_bytes(4, "little")
    data[at : at + 4] = (1).to_bytes(4, "little")
    with pytest.raises(
        SnapshotError, match=r"tusac-view v1 .*tusac-view v2 .*retrain them with `vncards train`"
    ):
        _core.PolicyNet.from_bytes(bytes(data))


def test_rows_are_a_function_of_the_seats_view() -> None:
    """The same view gives the same rows, and re-dealing the other seats' hidden cards changes
    neither the rows nor the bot's choice."""
    net = _net(seed=3)
    checked = 0
    for seed in range(12):
        g = _walk(seed, 10 + 5 * seed)
        if g is None:
            continue
        seat = g.pending_seats[0]
        view, legal = g.view(seat), g.legal_actions(seat)
        rows = action_rows("tusac", view, legal)
        np.testing.assert_array_equal(rows, action_rows("tusac", copy.deepcopy(view), legal))
        assert decides_honestly(lambda: make_bot("policy", "tusac", weights=net), g, seat, redeals=3)
        checked += 1
    assert checked >= 6


# -- the search playing the policy -------------------------------------------------------------------


def test_the_search_plays_the_policy_where_the_weights_fit_and_searches_elsewhere() -> None:
    net = _net(seed=4)
    for seed in range(8):
        g = _walk(seed, 6 + 9 * seed)
        if g is None:
            continue
        seat = g.pending_seats[0]
        want = decide(make_bot("policy", "tusac", weights=net), g, seat)
        for opts in ({"policy_play": True}, {"guided": {"policy_play": True}}):
            bot = make_bot("search", "tusac", 2, g.rules, rollouts=10, weights=net, **opts)
            assert decide(bot, g, seat) == want
    # Given by hand, weights of another table size are refused, not dropped.
    three = games.new_game("tusac", 3, seed=1)
    with pytest.raises(RulesError, match="4 players, not 3"):
        decide(make_bot("search", "tusac", 2, three.rules, weights=net, policy_play=True), three, 0)
    # Without weights that fit (three seats; house rules), the guided search is the plain one.
    house = games.spec("tusac").rules({"payment": "flat"})
    for players, rules in ((3, None), (4, house)):
        g = games.new_game("tusac", players, rules, seed=2)
        plain = decide(make_bot("search", "tusac", 2, g.rules, rollouts=20), g, 0)
        guided = {"policy_play": True}
        assert decide(make_bot("search", "tusac", 2, g.rules, rollouts=20, guided=guided), g, 0) == plain
    with pytest.raises(RulesError, match="guided options"):
        make_bot("search", "tusac", rules=house, guided={"guided": {}})


# -- training through the CLI -----------------------------------------------------------------------


@pytest.mark.skipif(not HAS_JAX, reason="the train extra (jax, optax) is not installed")
def test_vncards_train_tusac_distils_greedy_and_the_bot_plays(tmp_path: Path) -> None:
    out = tmp_path / f"tusac{SUFFIX}"
    args = ["--steps", "2", "--seed", "2", "--tiny", "--hands", "2", "--updates", "1", "--batch", "16"]
    args += ["--distill", "greedy", "--distill-hands", "2", "--distill-steps", "3", "--distill-batch", "8"]
    args += ["--eval-every", "2", "--eval-deals", "1", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "vncards", "train", "tusac", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    net = _core.PolicyNet.from_bytes(out.read_bytes())
    assert net.encoding[:2] == ("tusac-view", 2)
    prov = json.loads(net.provenance)
    assert prov["method"].startswith("distillation of greedy") and "self-play" in prov["method"]
    assert prov["teacher_hands"] == 2 and prov["steps"] == 5
    g = play_game(
        games.new_game("tusac", 4, seed=3), [make_bot("policy", "tusac", weights=out) for _ in range(4)]
    )
    assert g.is_over
