"""vncards.ratings: openskill ratings from hands, sessions, histories and plain results."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from vncards import history
from vncards.errors import RulesError
from vncards.ratings import MODELS, Ratings, hand_results, rate
from vncards.session import Seat, Session


def _session(hands: int = 6, seed: int = 1) -> Session:
    s = Session("samloc", players=["An", "Bình", Seat(bot="greedy"), None], seed=seed)
    for _ in range(hands):
        while not s.game.is_over:
            s.play_bots()
            if not s.game.is_over:
                s.game.auto_play(s.game.pending_seats[0])
        s.next_hand()
    return s


def test_a_stronger_player_rates_higher() -> None:
    rng = random.Random(3)
    results = []
    for _ in range(300):
        skill = {"expert": 3.0, "hard": 2.0, "normal": 1.0, "easy": 0.0}
        draws = {p: s + rng.gauss(0, 1.5) for p, s in skill.items()}
        winner = max(draws, key=lambda p: draws[p])
        results.append({p: (3 if p == winner else -1) for p in skill})
    board = rate(results)
    assert [r.player for r in board] == ["expert", "hard", "normal", "easy"]
    assert all(r.hands == 300 for r in board) and sum(r.units for r in board) == 0
    assert board[0].sigma < 25 / 3 and board[0].ordinal == board[0].mu - 3 * board[0].sigma


@pytest.mark.parametrize("model", list(MODELS))
def test_every_model_rates(model: str) -> None:
    board = rate([{"a": 2, "b": -1, "c": -1}] * 10, model=model)
    assert board[0].player == "a" and board[1].mu == pytest.approx(board[2].mu)  # a tie stays a tie


def test_sessions_histories_and_hands_rate_alike() -> None:
    s = _session()
    from_session = rate(s)
    from_history = rate(history.loads(history.dumps(s)))
    from_hands = rate(s.hands)
    assert from_session == from_history == from_hands
    assert {r.player for r in from_session} == {"An", "Bình", "bot greedy"}  # the open seat is not rated
    results = list(hand_results(s))
    assert len(results) == 6 and all(set(r) == {"An", "Bình", "bot greedy"} for r in results)


def test_one_player_at_two_seats_is_refused() -> None:
    s = Session("tienlen", players=[Seat(bot="greedy")] * 4, seed=2)
    s.play_bots()
    with pytest.raises(RulesError, match="two seats"):
        rate(s)
    ids = rate(s, identify=lambda seat, occupant: f"{occupant.label} #{seat}" if occupant else None)
    assert len(ids) == 4


def test_games_outside_a_session_rate_by_seat() -> None:
    s = _session(1)
    board = rate(s.hands[0].game)
    assert {r.player for r in board} == {"seat 0", "seat 1", "seat 2", "seat 3"}


def test_persistence_and_prediction() -> None:
    r = Ratings(tau=0.1)
    r.add(_session(4))
    back = Ratings.from_dict(json.loads(json.dumps(r.to_dict())))
    assert back.leaderboard() == r.leaderboard()
    chances = r.predict_win(["An", "Bình", "newcomer"])
    assert sum(chances) == pytest.approx(1.0) and len(r) == 4  # predicting adds the newcomer
    assert "newcomer" in r and r["nobody"].hands == 0


def test_bad_input_is_refused() -> None:
    with pytest.raises(RulesError):
        Ratings("elo")
    with pytest.raises(RulesError):
        Ratings(sigma=-1)
    with pytest.raises(RulesError):
        rate([{"a": 1.5, "b": 0}])
    with pytest.raises(RulesError):
        rate("not results")
    with pytest.raises(RulesError):
        Ratings.from_dict({"model": "plackett_luce", "params": {}, "players": {"a": [1, 0, 1, 1]}})
    assert rate([{"alone": 5}]) == []


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([], "predict_win needs 2..100 distinct player ids, not 0"),
        (["An"], "predict_win needs 2..100 distinct player ids, not 1"),
        (["An", "An"], "predict_win: 'An' is listed twice"),
        ([f"p{i}" for i in range(101)], "predict_win needs 2..100 distinct player ids, not 101"),
        (["An", 5], "player ids are str, not int"),
        ([None, "An"], "player ids are str, not NoneType"),
        ("AB", "predict_win takes a list of player ids, not str"),
        (5, "predict_win takes a list of player ids, not int"),
    ],
)
def test_predict_win_refuses_what_it_cannot_predict(players: object, message: str) -> None:
    """The rating library's ValueError / TypeError for no players, one player or a non-str id
    is a RulesError saying what is wrong (issue 37.7)."""
    r = Ratings()
    r.add({"An": 3, "Bình": -3})
    with pytest.raises(RulesError, match=re.escape(message)):
        r.predict_win(players)  # type: ignore[arg-type]  # bad players on purpose
    assert len(r) == 2 and r.to_dict()["players"].keys() == {"An", "Bình"}


def test_predicted_newcomers_survive_to_dict() -> None:
    r = Ratings()
    r.predict_win(["An", "newcomer"])
    data = r.to_dict()
    assert data["players"]["newcomer"][2:] == [0, 0]
    assert Ratings.from_dict(json.loads(json.dumps(data))).leaderboard() == r.leaderboard()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Ratings(["x"]), "unknown rating model ['x']"),  # type: ignore[arg-type]  # wrong types on purpose
        (lambda: Ratings(mu=1e308), "mu must be a finite number in 0.001..1000000.0, not 1e+308"),
        (lambda: Ratings(sigma=1e308), "sigma must be a finite number in 0.001..1000000.0"),
        (lambda: Ratings(tau=1e300), "tau must be a finite number in 0.001..1000000.0"),
        (lambda: Ratings(beta=1e-300), "beta must be a finite number in 0.001..1000000.0"),
        (lambda: Ratings(mu="25"), "mu must be a finite number"),  # type: ignore[arg-type]  # wrong types on purpose
        (lambda: Ratings().rate_hand(5), "a hand's result is a mapping {player: units}, not int"),  # type: ignore[arg-type]  # wrong types on purpose
        (lambda: Ratings().rate_hand({f"p{i}": i for i in range(101)}), "at most 100 players, not 101"),
        (lambda: Ratings()[5], "player ids are str, not int"),  # type: ignore[index]  # wrong types on purpose
        (lambda: rate("not results"), "cannot rate str"),
        (lambda: rate(5), "cannot rate int"),
        (lambda: Ratings.from_dict([]), "ratings data is a mapping"),  # type: ignore[arg-type]  # wrong types on purpose
        (lambda: Ratings.from_dict({"model": "plackett_luce", "params": {}, "players": []}), "players"),
        (
            lambda: Ratings.from_dict(
                {"model": "plackett_luce", "params": {}, "players": {"a": [1, 2, 1e400, 0]}}
            ),
            "ratings data: players['a'] hands must be an int",
        ),
        (
            lambda: Ratings.from_dict(
                {"model": "plackett_luce", "params": {}, "players": {"a": [1, 2, 1.5, 0]}}
            ),
            "ratings data: players['a'] hands must be an int",
        ),
        (
            lambda: Ratings.from_dict({"model": "plackett_luce", "params": {"mu": 1e308}, "players": {}}),
            "mu must be a finite number",
        ),
        (
            lambda: Ratings.from_dict({"model": "plackett_luce", "params": {"x": 1}, "players": {}}),
            "ratings data: params: unknown 'x'",
        ),
    ],
)
def test_bad_arguments_are_rules_errors(call: Any, message: str) -> None:
    """Every other method refuses its bad arguments the same way: a RulesError that says
    what is wrong, never the rating library's errors, an OverflowError or NaN ratings."""
    with pytest.raises(RulesError) as e:
        call()
    assert message in str(e.value), str(e.value)
