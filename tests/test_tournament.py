"""vncards.tournament: places, points, prize splits (integer units that sum exactly) and
duplicate seating, as properties."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import tournament
from vncards.errors import RulesError
from vncards.tournament import duplicate_seating, places, points, prizes, split_prize

scores = st.lists(st.integers(-50, 50), min_size=1, max_size=9)


@given(scores)
def test_places_are_a_competition_ranking(s: list[int]) -> None:
    r = places(s)
    for i, j in itertools.permutations(range(len(s)), 2):
        assert (s[i] > s[j]) == (r[i] < r[j])
        assert (s[i] == s[j]) == (r[i] == r[j])
    assert min(r) == 1 and all(1 <= p <= len(s) for p in r)
    for p in set(r):
        assert sum(q < p for q in r) == p - 1  # a place counts every entry placed above it


@given(scores, st.lists(st.integers(0, 100), max_size=6))
def test_points_follow_the_table(s: list[int], table: list[int]) -> None:
    r = places(s)
    best, worst = points(r, table), points(r, table, ties="worst")
    for i, p in enumerate(r):

        def at(q: int) -> int:
            return table[q - 1] if q <= len(table) else 0

        assert best[i] == at(p) and worst[i] == at(p + r.count(p) - 1)
    if len(set(s)) == len(s):
        assert best == worst


@given(st.integers(0, 10**9), st.lists(st.integers(0, 1000), min_size=1, max_size=12).filter(any))
def test_split_prize_sums_exactly_and_stays_within_a_unit(pool: int, shares: list[int]) -> None:
    out = split_prize(pool, shares)
    assert sum(out) == pool and all(isinstance(x, int) and x >= 0 for x in out)
    total = sum(shares)
    for units, w in zip(out, shares, strict=True):
        exact = Fraction(pool * w, total)
        assert abs(units - exact) < 1
    for i, j in itertools.combinations(range(len(shares)), 2):
        if shares[i] >= shares[j]:
            assert out[i] >= out[j]  # a larger share never gets less


@given(st.integers(0, 10**6), st.lists(st.integers(0, 100), min_size=1, max_size=6).filter(any), scores)
def test_prizes_share_ties_and_sum_exactly(pool: int, shares: list[int], s: list[int]) -> None:
    shares = sorted(shares, reverse=True)
    r = places(s)
    out = prizes(pool, shares, r)
    by_place = split_prize(pool, shares)
    assert sum(out) == sum(by_place[: len(s)])
    for i, j in itertools.permutations(range(len(s)), 2):
        if r[i] == r[j]:
            assert abs(out[i] - out[j]) <= 1  # tied entries split evenly
        if r[i] < r[j]:
            assert out[i] >= out[j] - 1 if r[i] + r.count(r[i]) > r[j] else out[i] >= out[j]
    if len(s) >= len(shares):
        assert sum(out) == pool


def test_bad_input_is_refused() -> None:
    for call in (
        lambda: split_prize(-1, [1]),
        lambda: split_prize(10, [0, 0]),
        lambda: split_prize(10, [1, -1]),
        lambda: split_prize(10, [True]),
        lambda: points([1, 1, 2], [3, 2, 1]),
        lambda: points([0], [1]),
        lambda: prizes(10, [1], [2, 2]),
        lambda: duplicate_seating(9, 2),
        lambda: duplicate_seating(8, 0),
        lambda: duplicate_seating(8, 2, rounds=0),
    ):
        with pytest.raises(RulesError):
            call()


@given(st.integers(1, 7), st.integers(2, 5), st.integers(1, 8))
def test_duplicate_seating(tables: int, seats: int, rounds: int) -> None:
    players = tables * seats
    plan = duplicate_seating(players, tables, rounds)
    assert len(plan) == rounds
    for round_tables in plan:
        assert len(round_tables) == tables and all(len(t) == seats for t in round_tables)
        assert sorted(p for t in round_tables for p in t) == list(range(players))
        for seat in range(seats):
            # the players holding one seat (the same cards) in a round are one group
            holders = {t[seat] // tables for t in round_tables}
            assert len(holders) == 1
    for p in range(players):
        held = [next(t.index(p) for t in rt if p in t) for rt in plan[:seats]]
        if rounds >= seats:
            assert sorted(held) == list(range(seats))  # every seat (hand) once
    if tables in (2, 3, 5, 7) and tables >= seats:
        met: dict[tuple[int, int], int] = {}
        for start in range(max(1, rounds - tables + 1)):
            met.clear()
            for rt in plan[start : start + tables]:
                for t in rt:
                    for a, b in itertools.combinations(sorted(t), 2):
                        met[a, b] = met.get((a, b), 0) + 1
            assert max(met.values()) <= 1


def test_one_table_rotates_the_seats() -> None:
    assert duplicate_seating(4, 1) == [[(0, 1, 2, 3)], [(3, 0, 1, 2)], [(2, 3, 0, 1)], [(1, 2, 3, 0)]]


@pytest.mark.parametrize(
    ("players", "tables", "rounds", "message"),
    [
        (8, 2, 10**9, "rounds must be an int in 1..10000, not 1000000000"),
        (10**9, 1, 1, "players must be an int in 1..10000, not 1000000000"),
        (8, 10**9, 1, "tables must be an int in 1..10000, not 1000000000"),
        (10_000, 2, 1_000, "at most 1000000 seats (players × rounds), not 10000000"),
        (10_000, 1, None, "(players × rounds), not 100000000"),
        (8, 2, 2.0, "rounds must be an int"),
        ("8", 2, 1, "players must be an int"),
    ],
)
def test_duplicate_seating_is_bounded(players: object, tables: object, rounds: object, message: str) -> None:
    """Players, tables and rounds have bounds, and so has the plan they make (issue 37.5: a
    billion rounds built the plan until MemoryError); the bounds are in the docstring."""
    with pytest.raises(RulesError, match=re.escape(message)):
        duplicate_seating(players, tables, rounds)  # type: ignore[arg-type]  # bad values on purpose
    doc = duplicate_seating.__doc__ or ""
    for bound in (tournament.MAX_PLAYERS, tournament.MAX_ROUNDS, tournament.MAX_SEATINGS):
        assert f"{bound:,}" in doc
    assert len(duplicate_seating(1_000, 1, 1_000)) == 1_000  # the largest plan there is


def test_sequences_that_are_not_lists_of_ints_are_refused() -> None:
    # Each call passes what the annotations refuse (the ignores): the run-time check is under test.
    calls: tuple[Callable[[], object], ...] = (
        lambda: places(5),  # type: ignore[arg-type]  # not a sequence
        lambda: places(None),  # type: ignore[arg-type]  # not a sequence
        lambda: points([1], 3),  # type: ignore[arg-type]  # a table that is an int
        lambda: split_prize(10, object()),  # type: ignore[arg-type]  # not a sequence
        lambda: prizes(10, [1], {1: 2}),  # type: ignore[arg-type]  # a dict for a list
        lambda: places("123"),  # type: ignore[arg-type]  # a str, not ints
    )
    for call in calls:
        with pytest.raises(RulesError, match="must be"):
            call()
