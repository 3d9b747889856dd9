"""Learning-environment encoders: the Rust card rows against a slow Python reference, and
observations that encode nothing another seat hides."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from vncards import Card, SnapshotError, games
from vncards.integrations import encoding
from vncards.integrations.spaces import ACTION_BOUND, legal_list
from vncards.tusac.game import CODES

VARIANTS = list(games.GAMES)


# -- a slow reference: one Python step per card -------------------------------------------------


def _ref_index(text: str, deck: str) -> int:
    return CODES.index(text) if deck == "tusac" else Card(text).index


def _ref_cards(group: Any) -> list[str]:
    if group is None:
        return []
    if isinstance(group, str):
        return group.split()
    return [c for g in group for c in _ref_cards(g)]


def _ref_rows(groups: list[Any], deck: str) -> np.ndarray:
    width = 28 if deck == "tusac" else 52
    out = np.zeros((len(groups), width), np.uint8)
    for i, g in enumerate(groups):
        for text in _ref_cards(g):
            out[i, _ref_index(text, deck)] += 1
    return out


def _ref_observation(view: dict[str, Any], players: int) -> np.ndarray:
    """The observation spelled out field by field (the layout in encoding's docstring)."""
    seat = view["seat"]
    order = [(seat + i) % players for i in range(players)]

    def flags(seats: Any) -> list[float]:
        return [float(s in set(seats or ())) for s in order]

    name = view["game"]
    rows: np.ndarray
    if name == "tusac":
        offer = view["offer"]
        groups = [view["hand"], view["dead"], offer and offer["card"]]
        groups += [[m["cards"] for m in view["exposed"][s]] for s in order]
        rows = _ref_rows(groups, "tusac").astype(np.float32).ravel() / 4
        scalars = [view["hand_counts"][s] / 28 for s in order] + flags(view["pending_seats"])
        scalars += [*flags([offer["seat"]] if offer else []), min(view["stock"] / 100, 1.0)]
        scalars += [float(view["phase"] == "claim")]
    elif name == "maubinh":
        rows = (
            _ref_rows([view["hand"], *(view["arrangement"] or [None] * 3)], "52").astype(np.float32).ravel()
        )
        scalars = [float(view["arranged"][s]) for s in order] + [float(view["confirmed"][s]) for s in order]
        scalars += [*flags(view["pending_seats"]), float(view["fouled"])]
    else:
        table = view["table"]
        groups = [view["hand"], table and table["cards"], view["must_include"]]
        groups += [view["played"][s] for s in order]
        rows = _ref_rows(groups, "52").astype(np.float32).ravel()
        scalars = [view["hand_counts"][s] / 13 for s in order] + flags(view["passed"]) + flags(view["out"])
        scalars += flags(view["pending_seats"]) + flags([table["seat"]] if table else [])
        if name == "samloc":
            scalars += [float(view["phase"] == "play")]
    return np.concatenate([rows, np.asarray(scalars, np.float32)])


def _states(name: str, seed: int, players: int = 4, limit: int = 400) -> Any:
    """Games along one random playout (the same object, moved on after each yield)."""
    rnd = random.Random(seed)
    game = games.new_game(name, players=players, seed=seed)
    for _ in range(limit):
        if game.is_over:
            return
        yield game
        seat = rnd.choice(game.pending_seats)
        game.apply(rnd.choice(game.legal_actions(seat)))


# -- tests -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("players", [2, 4])
def test_observation_matches_the_reference(name: str, players: int) -> None:
    size = encoding.observation_size(name, players)
    seen = 0
    for seed in range(3):
        for game in _states(name, seed, players, limit=120):
            for seat in range(players):
                view = game.view(seat)
                obs = encoding.observation(view, players)
                assert obs.dtype == np.float32 and obs.shape == (size,)
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                np.testing.assert_array_equal(obs, _ref_observation(view, players))
                seen += 1
    assert seen >= 6 * players


@pytest.mark.parametrize("name", VARIANTS)
def test_action_cards_match_the_reference(name: str) -> None:
    for game in _states(name, 5, limit=150):
        seat = game.pending_seats[0]
        actions = legal_list(name, game, seat)
        got = encoding.action_cards(name, actions)
        if name == "maubinh":
            groups = [a.get(k) for a in actions for k in ("back", "middle", "front")]
            want = _ref_rows(groups, "52").reshape(len(actions), 3, 52)
            assert all(int(a.sum()) == 13 for a in got)
        else:
            want = _ref_rows([a.get("cards", a.get("card")) for a in actions], encoding.DECKS[name])
        np.testing.assert_array_equal(got, want)
        assert len(actions) <= ACTION_BOUND[name]


def test_card_rows_refuse_junk() -> None:
    from vncards import VncardsError

    with pytest.raises(VncardsError):
        encoding.card_rows([["zz"]])
    with pytest.raises(TypeError):
        encoding.card_rows([[1.5]])
    with pytest.raises(TypeError):
        encoding.card_rows([[[[[["3♠"]]]]]])
    with pytest.raises(VncardsError):
        encoding.card_rows([["3♠"]], "uno")
    assert encoding.card_rows([], "tusac").shape == (0, 28)
    assert encoding.card_rows([0b111, "KR KR"][0:1]).sum() == 3


# -- hidden cards ------------------------------------------------------------------------------


def _rerandomised(game: Any, seat: int, rnd: random.Random) -> Any:
    """A copy of ``game`` whose hidden cards (other hands, Tứ Sắc's stock) are dealt anew,
    each hand keeping its size: the same view for ``seat``."""
    state = game._dump_state()
    other = [s for s in range(game.players) if s != seat]
    if game.GAME == "maubinh":  # an arranged hand is pinned by its arrangement
        other = [s for s in other if state["arrangements"][s] is None]
    if game.GAME == "tusac":
        pool = [c for s in other for c in state["hands"][s].split()] + list(state["stock"])
        rnd.shuffle(pool)
        for s in other:
            k = len(state["hands"][s].split())
            state["hands"][s], pool = " ".join(pool[:k]), pool[k:]
        state["stock"] = pool
    else:
        pinned = state.get("must", 0)  # the card the leader must play stays with the leader
        free = [state["hands"][s] & ~pinned for s in other]
        cards = [1 << i for m in free for i in range(52) if m >> i & 1]
        rnd.shuffle(cards)
        for s, m in zip(other, free, strict=True):
            k = m.bit_count()
            state["hands"][s], cards = (state["hands"][s] & pinned) | sum(cards[:k]), cards[k:]
    copy = game.clone()
    try:
        copy._load_state(state)
    except SnapshotError:  # recorded answers in a claim window pin the hands: keep them
        return game.clone()
    return copy


@pytest.mark.parametrize("name", VARIANTS)
def test_observation_hides_other_seats_cards(name: str) -> None:
    rnd = random.Random(9)
    checked = 0
    for game in _states(name, 2, limit=60):
        for seat in range(game.players):
            other = _rerandomised(game, seat, rnd)
            assert other.view(seat) == game.view(seat)
            np.testing.assert_array_equal(
                encoding.observation(other.view(seat), game.players),
                encoding.observation(game.view(seat), game.players),
            )
            if any(other.hand(s) != game.hand(s) for s in range(game.players) if s != seat):
                checked += 1
    assert checked > 0
