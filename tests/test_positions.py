"""``Game.from_position`` checks every field on the way in (issue 30, item 3): a position it
accepts plays on like any game. Property: from any position it accepts (real positions of
every game under varied options, with one field of the state, the ledger or the RNG position
edited), random play ends; every action listed is accepted, every refused action is a
``VncardsError`` that leaves the game unchanged; no state has a pending seat without a legal
action; views and snapshots work all the way."""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vncards import SnapshotError, VncardsError, games, samloc, tienlen
from vncards.shedding.game import SheddingGame
from vncards.table import TableGame

#: (game, players, rules) of the positions the property starts from.
TABLES = [
    ("tienlen", 4, {}),
    ("tienlen", 3, {"ending": "ranked", "scoring": "ranked", "bomb_after_pass": "any_bomb"}),
    ("tienlen-north", 2, {"finish_on_two": "forbidden"}),
    ("samloc", 4, {}),
    ("samloc", 3, {"bao_mot_mode": "enforce", "finish_on_two": "penalized"}),
    ("maubinh", 3, {}),
    ("tusac", 4, {}),
    ("tusac", 2, {"claim_window": "eligible_seats", "triple_optional": True, "draw_at_stock": 0}),
]
#: Most steps random play may take from a position before it must have ended (a Tứ Sắc hand
#: takes a few hundred; shedding hands fewer than a hundred).
MAX_STEPS = 1500


def _policy(game: TableGame, rnd: random.Random) -> dict[str, Any]:
    seat = rnd.choice(game.pending_seats)
    actions = game.legal_actions(seat)
    assert actions, f"seat {seat} is pending with no legal action"
    if game.GAME == "samloc" and actions[-1]["type"] == "decline_sam" and rnd.random() < 0.8:
        return actions[-1]
    if game.GAME == "maubinh" and len(actions) > 1 and rnd.random() < 0.8:
        actions = actions[:-1]  # forfeit less often
    return rnd.choice(actions)


@functools.cache
def positions() -> list[tuple[str, dict[str, Any]]]:
    """Snapshots (``to_dict()``) of real games at several points, the end included."""
    out = []
    for i, (name, players, rules) in enumerate(TABLES):
        for seed in range(2):
            game = games.new_game(name, players=players, rules=rules, seed=100 * i + seed)
            rnd = random.Random(seed)
            stops = {0, 3, 12, 40}
            step = 0
            while True:
                if step in stops or game.is_over:
                    out.append((name, game.to_dict()))
                if game.is_over:
                    break
                game.apply(_policy(game, rnd))
                step += 1
    return out


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (containers included)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_leaves(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_leaves(v, (*path, i)))
    return out


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    data = copy.deepcopy(data)
    node = data
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return data


def _values(old: Any, rnd: random.Random) -> list[Any]:
    """Edits worth trying in place of ``old``."""
    out: list[Any] = [
        None,
        True,
        False,
        0,
        1,
        2,
        3,
        -1,
        2**31,
        2**53,
        2**63 - 1,
        2**64 - 1,
        2**64,
        "",
        [],
        {},
    ]
    if isinstance(old, bool):
        out.append(not old)
    elif isinstance(old, int):
        out += [old + 1, old - 1, old * 2, old ^ (1 << rnd.randrange(52)), old | (1 << rnd.randrange(52))]
        out += [old & ~(1 << rnd.randrange(52)), (1 << 52) - 1, rnd.getrandbits(52)]
    elif isinstance(old, list):
        out += [old[:-1], old + old[-1:], list(reversed(old)), [old[0]] * len(old) if old else [0]]
    elif isinstance(old, str):
        out += [old[::-1], old.split()[0] if old.split() else "KR", old + " " + old, "KR KR KR KR"]
    return out


def _edited(data: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    paths = [("state", *p) for p in _leaves(data["state"])]
    paths += [("rng", "position"), ("ledger",)] + [("ledger", *p) for p in _leaves(data["ledger"])[1:]]
    path = rnd.choice(paths)
    node: Any = data
    for k in path:
        node = node[k]
    edited: dict[str, Any] = _set(data, path, rnd.choice(_values(node, rnd)))
    return edited


def _try_refused(game: TableGame, action: Any) -> None:
    """``action`` is either accepted or refused with a VncardsError that changes nothing."""
    before = game.to_json()
    try:
        game.apply(action)
    except VncardsError:
        assert game.to_json() == before, f"a refused {action!r} changed the game"


def _wrong_actions(game: TableGame, rnd: random.Random) -> list[Any]:
    """Actions of other seats or shapes, most of them illegal now."""
    out: list[Any] = [{"type": "pass", "seat": s} for s in range(game.players)]
    out += [{"type": "next_hand"}, {"type": "win", "seat": 0}, {"type": "confirm", "seat": 1}]
    for s in range(game.players):
        if s not in game.pending_seats:
            out.append({"type": "discard", "seat": s, "card": "PW"})
            out.append({"type": "play", "seat": s, "cards": "3♠"})
    return rnd.sample(out, 3)


def play_out(game: TableGame, rnd: random.Random, hands: int = 2) -> None:
    """Random play from ``game`` (and, for the shedding games, into ``hands`` more hands),
    checking every state on the way."""
    steps = 0
    while True:
        view = game.public_view()
        json.dumps(view)
        for seat in range(game.players):
            game.view(seat)
            game.events_for(seat)
        if game.is_over:
            assert view["pending_seats"] == [] and sum(game.settlement or [0]) == 0
            if hands and isinstance(game, SheddingGame):  # Tiến Lên and Sâm Lốc
                game.next_hand()
                hands -= 1
                continue
            break
        assert game.pending_seats, "a game that is not over has a seat to act"
        for wrong in _wrong_actions(game, rnd):
            _try_refused(game, wrong)
            if game.is_over:
                break
        if game.is_over:
            continue
        action = _policy(game, rnd)
        game.apply(action)  # a listed action is always accepted
        steps += 1
        assert steps < MAX_STEPS, "random play did not end"
    text = game.to_json()
    assert type(game).from_json(text).to_json() == text


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(0, 3))
def test_from_any_accepted_position_play_ends_cleanly(seed: int, edits: int) -> None:
    rnd = random.Random(seed)
    name, data = rnd.choice(positions())
    for _ in range(edits):
        data = _edited(data, rnd)
    cls = games.spec(name).game_class()
    try:
        game = cls.from_position(data)
    except SnapshotError:
        return
    except VncardsError as e:  # pragma: no cover - the contract says SnapshotError
        pytest.fail(f"from_position raised {type(e).__name__}, not SnapshotError: {e}")
    play_out(game, rnd)


def test_every_real_position_is_accepted_and_plays_on() -> None:
    rnd = random.Random(0)
    for name, data in positions():
        game = games.spec(name).game_class().from_position(data)
        assert game.to_dict()["state"] == data["state"]
        play_out(game, rnd, hands=1)


# -- the positions -----------------------------------------------------------------


def _midround() -> dict[str, Any]:
    game = tienlen.Game(players=4, seed=5)
    rnd = random.Random(5)
    while game.table is None or game.is_over:
        game.apply(_policy(game, rnd))
    return game.to_dict()


def test_a_chain_a_seat_pays_to_itself_is_refused() -> None:
    d = _midround()
    seat = d["state"]["table_seat"]
    for chain in (
        [9, seat, seat],
        [0, seat, (seat + 1) % 4],
        [-3, seat, (seat + 1) % 4],
        [9, (seat + 1) % 4, seat],
    ):
        d["state"]["chain"] = chain
        with pytest.raises(SnapshotError, match="chain"):
            tienlen.Game.from_position(d)


def test_a_lead_card_that_is_the_whole_hand_is_refused() -> None:
    d = tienlen.Game(players=4, seed=5).to_dict()
    st_ = d["state"]
    st_["must"] = st_["hands"][st_["turn"]]
    with pytest.raises(SnapshotError, match="must"):
        tienlen.Game.from_position(d)
    d = samloc.Game(players=4, seed=2).to_dict()
    d["state"]["must"] = d["state"]["hands"][0] & -d["state"]["hands"][0]
    with pytest.raises(SnapshotError, match="must"):
        samloc.Game.from_position(d)


@pytest.mark.parametrize("value", [2**64 - 1, 2**63 - 1, 2**31, 0, -1])
def test_a_hand_number_out_of_range_is_refused(value: int) -> None:
    game = tienlen.Game(players=4, seed=5)
    while not game.is_over:
        game.auto_play(game.pending_seats[0])
    d = game.to_dict()
    d["state"]["hand_number"] = value
    with pytest.raises(SnapshotError, match="hand_number"):
        tienlen.Game.from_position(d)


def test_ledger_units_are_bounded() -> None:
    d = tienlen.Game(players=4, seed=5).to_dict()
    d["ledger"] = [{"from": 0, "to": 1, "units": 2**63, "reason": "gift"}]
    with pytest.raises(SnapshotError, match="units"):
        tienlen.Game.from_position(d)


def test_tusac_a_discarding_seat_holds_a_card_it_may_discard() -> None:
    """A seat to discard whose hidden cards are all Tướng (never discarded after the tỳ)
    would be pending with no legal action."""
    from support.tusac_positions import build

    quads = [("quad", f"{k} {k} {k} {k}") for k in ("RW", "PW", "RG", "HR")]
    with pytest.raises(SnapshotError, match="to_discard"):
        build(["KR KY KG KW KR", "", "", ""], exposed=[quads, [], [], []], to_discard=0)
    build(["KR KY KG KW KR", "", "", ""], exposed=[quads, [], [], []], to_discard=0, opening=True)


def test_tusac_no_concealed_quad() -> None:
    """Four identical cards are laid face up when dealt (quằn) and exposed when the fourth is
    claimed (khui): a concealed four is no position of the game."""
    from support.tusac_positions import build

    with pytest.raises(SnapshotError, match="four"):
        build(["AR HY PW", "HG HG HG HG", "", ""])
