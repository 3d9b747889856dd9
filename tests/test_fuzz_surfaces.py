"""Fuzzing the newer public surfaces: sessions, hand histories, ratings, tournaments and the
vector environment (issue 37).

The contract is stricter than :mod:`test_fuzz`'s: whatever the arguments (junk of every type,
NaN and the infinities, integers at and past every machine width, lone surrogates, edited
snapshots and histories), a call returns or raises a :class:`VncardsError`; never a
``TypeError``, ``ValueError``, ``OverflowError``, ``RecursionError`` or ``MemoryError`` from
underneath. Work counts are drawn small or out of range, never in range and huge, so every
call ends quickly.

The fast profile (CI) runs a few dozen examples per surface, a few seconds each;
``VNCARDS_PROFILE=slow`` (``make fuzz``) runs thousands.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.tables import random_step
from vncards import VncardsError, games, history, ratings, tournament
from vncards.session import Seat, Session
from vncards.vector import VectorEnv

EDGE_INTS = [0, 1, 2, 3, 4, 5, 6, 13, 52, 100, 101, 2**31, 2**32, 2**32 + 1, 2**53 + 1, 2**63 - 1, 2**63]
EDGE_INTS += [2**64, 2**200, -1, -(2**63), -(2**64)]
FLOATS = [0.0, 0.5, 1.0, 2.5, -1.0, 1e-300, 1e300, 1e308, float("nan"), float("inf"), float("-inf")]
TEXTS = ["", " ", "x", "An", "\udcff", "a\ud800b", "\x00", "🂡", "0", "1.5", "NaN", "x" * 200, " An "]
GAMES = list(games.GAMES)

atoms = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(EDGE_INTS),
    st.integers(-10, 10),
    st.sampled_from(FLOATS),
    st.sampled_from(TEXTS),
    st.text(max_size=8),
    st.sampled_from([b"", b"\xff", b"{}", bytearray(b"x"), object(), int, Seat(), ()]),
)
#: Anything a caller might pass: atoms, and lists, tuples and dicts of them (nested a little).
junk = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=4), st.sampled_from(EDGE_INTS)), inner, max_size=4),
    ),
    max_leaves=12,
)
#: A count: small, at a bound, past it, or not a count at all.
counts = st.one_of(st.integers(-2, 8), st.sampled_from([2**32, 2**63, 2**64, 10**30, -(2**64)]), junk)


def _typed_only(call: Callable[[], Any]) -> Any:
    """``call()``; a VncardsError is an answer, anything else escapes and fails the test."""
    try:
        return call()
    except VncardsError:
        return None


def _finished_game(name: str, seed: int) -> Any:
    game = games.new_game(name, seed=seed)
    rng = random.Random(seed)
    while random_step(game, rng):
        pass
    return game


def _session(name: str, seed: int, hands: int = 2) -> Session:
    players: list[str | Seat | None] = ["An", Seat(bot="greedy"), None]
    s = Session(name, players=players[: max(2, 4 - (name == "samloc"))], seed=seed)
    rng = random.Random(seed)
    for _ in range(hands):
        while random_step(s.game, rng):
            pass
        s.next_hand()
    return s


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into JSON data (keys and indices)."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _edited(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``data`` with the value at ``path`` replaced (or, at the root, ``value`` itself)."""
    if not path:
        return value
    copy = json.loads(json.dumps(data))
    node = copy
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return copy


def _text(value: Any) -> str:
    """``value`` as JSON text where it has one (NaN included), else its repr."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


#: Hand-made texts no generator would find soon: deep nesting, NaN, huge numbers.
NASTY_JSON = ["[" * 1200 + "]" * 1200, '{"a":' * 600 + "1" + "}" * 600, "NaN", "-Infinity", "1e400"]
NASTY_JSON += [
    "9" * 5000,
    '"\\ud800"',
    "{",
    "[1,",
    "",
    "null",
    '{"": {}}',
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]",
]


# -- sessions ---------------------------------------------------------------------------------------


@given(
    name=st.one_of(st.sampled_from(GAMES), junk),
    players=st.one_of(
        counts, st.lists(st.one_of(st.sampled_from(["An", "Bình", None, Seat(bot="greedy")]), junk))
    ),
    rules=st.one_of(st.none(), junk),
    seed=st.one_of(st.none(), st.integers(0, 2**64), junk),
    setup=st.one_of(st.none(), junk),
    keep_hands=st.one_of(st.none(), counts),
)
def test_session_constructor(
    name: Any, players: Any, rules: Any, seed: Any, setup: Any, keep_hands: Any
) -> None:
    _typed_only(lambda: Session(name, players, rules, seed, setup=setup, keep_hands=keep_hands))


@given(seed=st.integers(0, 2**32), data=st.data())
def test_session_methods(seed: int, data: st.DataObject) -> None:
    s = Session(data.draw(st.sampled_from(GAMES)), players=["An", Seat(bot="random"), None], seed=seed)
    rng = random.Random(seed)
    seat = st.one_of(st.integers(-1, 4), junk)
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["sit", "leave", "view", "bot", "play", "next", "step", "json"]))
        if op == "sit":
            _typed_only(
                lambda: s.sit(data.draw(seat), data.draw(junk), bot=data.draw(st.one_of(st.none(), junk)))
            )
        elif op == "leave":
            _typed_only(lambda: s.leave(data.draw(seat), bot=data.draw(st.one_of(st.none(), junk))))
        elif op == "view":
            _typed_only(lambda: s.view(data.draw(seat)))
        elif op == "bot":
            _typed_only(lambda: s.bot(data.draw(seat)))
        elif op == "play":
            _typed_only(lambda: s.play_bots(data.draw(counts)))
        elif op == "next":
            _typed_only(s.next_hand)
        elif op == "step":
            random_step(s.game, rng)
        else:
            key = data.draw(st.one_of(st.none(), st.just(b"k"), junk))

            def restore(k: object = key) -> Session:
                text = s.to_json(key=k, hands=data.draw(st.booleans()))  # type: ignore[arg-type]  # junk keys too
                return Session.from_json(text, key=k)  # type: ignore[arg-type]  # junk keys too

            _typed_only(restore)


@pytest.fixture(scope="module")
def session_texts() -> list[tuple[Any, Session]]:
    return [(json.loads(s.to_json()), s) for s in (_session(g, 3) for g in GAMES)]


@given(data=st.data())
def test_session_from_json_of_edited_snapshots(data: st.DataObject, session_texts: list[Any]) -> None:
    """A session snapshot with one value replaced by junk (or its text cut or spliced), read
    back with or without its finished hands (also edited)."""
    snapshot, s = data.draw(st.sampled_from(session_texts))
    path = data.draw(st.sampled_from(_paths(snapshot)))
    edited = _edited(snapshot, path, data.draw(junk))
    text = _text(edited)
    how = data.draw(st.integers(0, 3))
    if how == 1:
        cut = data.draw(st.integers(0, len(text)))
        text = text[:cut] + data.draw(st.sampled_from(NASTY_JSON)) + text[cut:]
    elif how == 2:
        text = text[: data.draw(st.integers(0, len(text)))]
    hands = data.draw(
        st.one_of(
            st.none(),
            st.just(s.hands),
            st.just(history.dumps(s.hands)),
            st.just(history.dumps(s.hands, format="json")),
            st.lists(junk, max_size=3),
            junk,
        )
    )
    _typed_only(lambda: Session.from_json(text, hands=hands))
    _typed_only(lambda: Session.from_dict(edited, hands=hands))
    _typed_only(lambda: Session.from_json(data.draw(st.one_of(junk, st.sampled_from(NASTY_JSON)))))


# -- histories --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def history_texts() -> list[str]:
    texts = [history.dumps(_finished_game(g, 5)) for g in GAMES]
    return [*texts, history.dumps(_session("tienlen", 4).hands), history.dumps(_finished_game("maubinh", 2))]


@given(data=st.data())
def test_history_loads_of_edited_lines(data: st.DataObject, history_texts: list[str]) -> None:
    """A text history with one line replaced, cut, duplicated or spliced with junk."""
    lines = data.draw(st.sampled_from(history_texts)).split("\n")
    i = data.draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    head = line.split(": ", 1)[0] + ": " if ": " in line else ""
    how = data.draw(st.integers(0, 4))
    if how == 0:
        lines[i] = head + data.draw(st.one_of(st.sampled_from(NASTY_JSON), st.sampled_from(TEXTS), st.text()))
    elif how == 1:
        lines[i] = head + _text(data.draw(junk))
    elif how == 2:
        lines[i] = line[: data.draw(st.integers(0, len(line)))]
    elif how == 3:
        lines.insert(i, line)
    else:
        del lines[i]
    _typed_only(lambda: history.loads("\n".join(lines)))
    _typed_only(lambda: history.loads("\n".join(lines).encode("utf-8", "surrogatepass")))


@given(data=st.data())
def test_history_loads_of_edited_json(data: st.DataObject, history_texts: list[str]) -> None:
    parsed = json.loads(
        history.dumps(history.loads(data.draw(st.sampled_from(history_texts))), format="json")
    )
    edited = _edited(parsed, data.draw(st.sampled_from(_paths(parsed))), data.draw(junk))
    _typed_only(lambda: history.loads(_text(edited)))


@given(source=st.one_of(junk, st.sampled_from(NASTY_JSON)), form=junk, seed=junk)
def test_history_junk(source: Any, form: Any, seed: Any) -> None:
    _typed_only(lambda: history.loads(source))
    _typed_only(lambda: history.dumps(source, format=form, seed=seed))
    _typed_only(lambda: history.dumps(_finished_game("tienlen", 1), format=form))


# -- ratings ----------------------------------------------------------------------------------------

player_ids = st.one_of(st.sampled_from(["An", "Bình", "Chi", "Dũng", "", "\udcff"]), junk)
#: Keys of a result mapping: ids, and hashable junk.
result_keys = st.one_of(
    st.sampled_from(["An", "Bình", "Chi", "Dũng", "", "\udcff"]),
    st.sampled_from([*EDGE_INTS, *FLOATS, None, True, b"An", ()]),
    st.text(max_size=4),
)
results = st.one_of(
    st.dictionaries(
        result_keys, st.one_of(st.integers(-(10**6), 10**6), st.sampled_from(EDGE_INTS), junk), max_size=6
    ),
    junk,
)
params = st.one_of(st.none(), st.sampled_from([*FLOATS, 1e-3, 1e6, 1e6 + 1, 25, 0, -1, 10**400]), junk)


@given(
    model=st.one_of(
        st.sampled_from(["plackett_luce", "bradley_terry_full", "thurstone_mosteller_part"]), junk
    ),
    mu=params,
    sigma=params,
    beta=params,
    tau=params,
    hands=st.lists(results, max_size=6),
    data=st.data(),
)
def test_ratings(
    model: Any, mu: Any, sigma: Any, beta: Any, tau: Any, hands: list[Any], data: st.DataObject
) -> None:
    r = _typed_only(lambda: ratings.Ratings(model, mu=mu, sigma=sigma, beta=beta, tau=tau))
    if r is None:
        r = ratings.Ratings()
    for hand in hands:
        _typed_only(lambda: r.rate_hand(hand))  # noqa: B023
    _typed_only(lambda: r.add(data.draw(st.one_of(junk, st.lists(results, max_size=3)))))
    _typed_only(lambda: r.predict_win(data.draw(st.one_of(st.lists(player_ids, max_size=5), junk))))
    _typed_only(lambda: r[data.draw(player_ids)])
    board = r.leaderboard()
    assert all(p.mu == p.mu and p.sigma == p.sigma for p in board)  # never NaN
    data_dict = r.to_dict()
    back = ratings.Ratings.from_dict(json.loads(json.dumps(data_dict)))
    assert back.leaderboard() == board
    edited = _edited(data_dict, data.draw(st.sampled_from(_paths(data_dict))), data.draw(junk))
    _typed_only(lambda: ratings.Ratings.from_dict(edited))
    _typed_only(
        lambda: ratings.rate(data.draw(st.one_of(junk, st.lists(results, max_size=3))), model=data.draw(junk))
    )


@given(source=junk, hands=st.lists(st.integers(0, 3), max_size=3))
def test_rating_sources(source: Any, hands: list[int]) -> None:
    _typed_only(lambda: list(ratings.hand_results(source)))
    sources = [_finished_game("samloc", h) for h in hands]
    _typed_only(lambda: ratings.rate([*sources, source]))


# -- tournaments ------------------------------------------------------------------------------------

int_lists = st.one_of(st.lists(st.one_of(st.integers(-5, 10), st.sampled_from(EDGE_INTS)), max_size=8), junk)


@given(
    scores=int_lists,
    table=int_lists,
    ties=st.one_of(st.sampled_from(["best", "worst"]), junk),
    pool=st.one_of(st.integers(-5, 10**6), st.sampled_from(EDGE_INTS), junk),
    shares=int_lists,
    players=counts,
    tables=counts,
    rounds=st.one_of(st.none(), counts),
)
def test_tournament(
    scores: Any, table: Any, ties: Any, pool: Any, shares: Any, players: Any, tables: Any, rounds: Any
) -> None:
    ranks = _typed_only(lambda: tournament.places(scores))
    _typed_only(lambda: tournament.points(ranks if ranks is not None else scores, table, ties=ties))
    _typed_only(lambda: tournament.split_prize(pool, shares))
    _typed_only(lambda: tournament.prizes(pool, shares, ranks if ranks is not None else scores))
    _typed_only(lambda: tournament.duplicate_seating(players, tables, rounds))


# -- the vector environment -------------------------------------------------------------------------

VECTOR_GAMES = ["tienlen", "tienlen-north", "samloc", "tusac", "maubinh"]
#: num_envs: small, or out of range (never in range and huge: a million tables is real work).
env_counts = st.one_of(st.integers(-1, 3), st.sampled_from([2**20 + 1, 2**32, 2**63, 2**64, 10**30]), junk)


def _actions(draw: Any, n: int, bound: int) -> Any:
    """One action per table, as an array of any dtype or a list of anything."""
    kind = draw(st.integers(0, 4))
    values = draw(
        st.lists(
            st.one_of(
                st.integers(0, 3),
                st.integers(-3, bound + 3),
                st.sampled_from(EDGE_INTS),
                st.sampled_from(FLOATS),
            ),
            min_size=n,
            max_size=n + (kind == 4),
        )
    )
    if kind == 0:
        return values
    if kind == 1:
        dtype = draw(
            st.sampled_from(
                ["int64", "int8", "uint8", "uint64", "float64", "bool", "object", "U3", "complex64"]
            )
        )
        try:
            with warnings.catch_warnings():  # numpy's overflow in the cast: wrapped values are fine
                warnings.simplefilter("ignore")
                return np.array(values, dtype=object).astype(dtype)
        except (OverflowError, ValueError, TypeError):
            return np.array(values, dtype=object)
    if kind == 2:
        return [draw(junk) for _ in range(n)]
    if kind == 3:
        return draw(junk)
    return np.array(values[: n + 1], dtype=object).reshape(-1, 1) if values else np.zeros((0,))


@given(
    game=st.one_of(st.sampled_from(VECTOR_GAMES), junk),
    num_envs=env_counts,
    players=st.one_of(st.integers(1, 7), junk),
    rules=st.one_of(st.none(), junk),
    seed=st.one_of(st.none(), st.integers(0, 2**64), junk),
    max_cycles=st.one_of(st.integers(-1, 50), st.sampled_from([2**32 - 1, 2**32, 2**64]), junk),
    copy=junk,
)
def test_vector_env_constructor(
    game: Any, num_envs: Any, players: Any, rules: Any, seed: Any, max_cycles: Any, copy: Any
) -> None:
    env = _typed_only(
        lambda: VectorEnv(
            game, num_envs, players=players, rules=rules, seed=seed, max_cycles=max_cycles, copy=copy
        )
    )
    if env is not None:
        _typed_only(env.reset)


@given(game=st.sampled_from(VECTOR_GAMES), n=st.integers(1, 3), seed=st.integers(0, 2**32), data=st.data())
def test_vector_env_reset_and_step(game: str, n: int, seed: int, data: st.DataObject) -> None:
    """Steps with actions of every form; a refused step moves no table (the next legal step
    gives what a twin stepped with the same legal actions gives)."""
    env = VectorEnv(game, n, players=3 if game == "samloc" else 4, seed=seed, max_cycles=30)
    twin = VectorEnv(game, n, players=3 if game == "samloc" else 4, seed=seed, max_cycles=30)
    _typed_only(lambda: env.step([0] * n))  # before reset
    _typed_only(lambda: env.reset(seed=data.draw(st.one_of(st.sampled_from(EDGE_INTS), junk))))
    env.reset(seed=seed)
    twin.reset(seed=seed)
    for _ in range(data.draw(st.integers(1, 6))):
        if _typed_only(lambda: env.step(_actions(data.draw, n, env.action_bound))) is not None:
            break  # a junk step that happened to be legal: the twins part ways
        good = env.sample_actions()
        got, want = env.step(good), twin.step(good)
        assert all(np.array_equal(a, b) for a, b in zip(got[:4], want[:4], strict=True))
    _typed_only(lambda: env.game(data.draw(st.one_of(st.integers(-1, n), junk))))
