"""Tournaments as pure functions: places from results, places to points, duplicate seating of
players over tables, and prize pools split in integer units that sum exactly.

>>> places([5, -2, 5, -8])                       # ties share a place
[1, 3, 1, 4]
>>> points([1, 3, 1, 4], [4, 2, 1, 0])           # two firsts score a first's points
[4, 1, 4, 0]
>>> split_prize(100, [50, 30, 20, 0])
[50, 30, 20, 0]
>>> prizes(100, [50, 30, 20], [1, 1, 3, 4])      # two firsts share 1st and 2nd prizes: 80
[40, 40, 20, 0]
>>> duplicate_seating(8, tables=2)[0]           # round 0: tables of 4, player ids by seat
[(0, 2, 4, 6), (1, 3, 5, 7)]
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from ._args import count_arg
from .errors import RulesError

__all__ = [
    "places",
    "points",
    "split_prize",
    "prizes",
    "duplicate_seating",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_SEATINGS",
]


#: Most players (and tables) :func:`duplicate_seating` seats.
MAX_PLAYERS = 10_000
#: Most rounds :func:`duplicate_seating` plans.
MAX_ROUNDS = 10_000
#: Most seats (players × rounds) in one :func:`duplicate_seating` plan.
MAX_SEATINGS = 1_000_000


def _ints(values: Sequence[int], name: str, low: int | None = None) -> list[int]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise RulesError(f"{name} must be a sequence of ints, not {type(values).__name__}")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise RulesError(f"{name} must be ints, not {v!r}")
        if low is not None and v < low:
            raise RulesError(f"{name} must be at least {low}, not {v}")
        out.append(v)
    return out


def places(scores: Sequence[int]) -> list[int]:
    """Each entry's place (1 = best) when higher scores place higher; equal scores share the
    better place and the next place skips past them (standard competition ranking,
    "1224")."""
    s = _ints(scores, "scores")
    ordered = sorted(s)
    return [1 + len(s) - bisect.bisect_right(ordered, mine) for mine in s]


def _check_places(ranks: Sequence[int]) -> list[int]:
    r = _ints(ranks, "places", 1)
    if r != places([-x for x in r]):
        raise RulesError(f"places {r} are not a competition ranking (a tie skips the places it fills)")
    return r


def points(
    ranks: Sequence[int], table: Sequence[int], *, ties: Literal["best", "worst"] = "best"
) -> list[int]:
    """Points per entry for its place, from ``table`` (the points of 1st, 2nd…; places past
    its end score 0). Entries tied on a place all score that place's points (``ties="best"``)
    or the points of the last place the tie fills (``"worst"``)."""
    r = _check_places(ranks)
    t = _ints(table, "points table")
    if ties not in ("best", "worst"):
        raise RulesError(f"ties must be 'best' or 'worst', not {ties!r}")

    def at(place: int) -> int:
        return t[place - 1] if place <= len(t) else 0

    if ties == "best":
        return [at(p) for p in r]
    tied = Counter(r)
    return [at(p + tied[p] - 1) for p in r]


def split_prize(pool: int, shares: Sequence[int]) -> list[int]:
    """``pool`` units split in proportion to ``shares`` (non-negative ints, e.g. percents), in
    whole units that sum to ``pool`` exactly: each gets the floor of its exact share, and the
    units left over go one each to the largest remainders (equal remainders: the earlier
    share first: Hamilton's largest-remainder method). Each result is within one unit of the
    exact share."""
    (pool,) = _ints([pool], "pool", 0)
    w = _ints(shares, "shares", 0)
    total = sum(w)
    if total == 0:
        raise RulesError("shares must not all be 0")
    base = [pool * x // total for x in w]
    left = pool - sum(base)
    order = sorted(range(len(w)), key=lambda i: (-(pool * w[i] % total), i))
    for i in order[:left]:
        base[i] += 1
    return base


def prizes(pool: int, shares: Sequence[int], ranks: Sequence[int]) -> list[int]:
    """Each entry's prize from ``pool``, split over places by ``shares`` (the weights of 1st,
    2nd…: :func:`split_prize`); entries tied on a place pool the prizes of every place the tie
    fills and split them evenly (the odd units go to the tied entries listed first). The
    prizes sum to ``pool`` when every share's place is filled, else to the filled places'
    part of it."""
    r = _check_places(ranks)
    by_place = split_prize(pool, shares)
    out = [0] * len(r)
    by_place_entries: dict[int, list[int]] = {}
    for i, p in enumerate(r):
        by_place_entries.setdefault(p, []).append(i)
    for place, tied in by_place_entries.items():
        amount = sum(by_place[place - 1 : place - 1 + len(tied)])
        for i, units in zip(
            tied, split_prize(amount, [1] * len(tied)) if amount else [0] * len(tied), strict=True
        ):
            out[i] = units
    return out


def duplicate_seating(players: int, tables: int, rounds: int | None = None) -> list[list[tuple[int, ...]]]:
    """Seats of a duplicate tournament: ``players`` (numbered from 0) at ``tables`` tables of
    ``players // tables`` seats, for ``rounds`` rounds (default: one per seat). Every table
    plays the same deals in a round, so the players who hold the same seat at the different
    tables hold the same cards, and their results compare by skill rather than by luck.

    Returns, per round, per table, the player at each seat. Player ``p`` belongs to group
    ``p // tables``, the seat it holds in round 0; in round ``r`` it holds seat
    ``(group + r) % seats`` at table ``(p % tables + r * group) % tables``. So:

    - in every round each player sits exactly once, and each table has one player per group;
    - over ``seats`` rounds each player holds every seat once (every hand of the deals);
    - the players of a group always hold the same seat of the same deal: they are the ones
      compared with each other;
    - when ``tables`` is a prime at least ``seats``, two players of different groups share a
      table at most once in any ``tables`` consecutive rounds (they meet in round ``r`` when
      ``r * (g1 - g2) ≡ i2 - i1 (mod tables)``, which has one solution).

    Bounds (:class:`~vncards.errors.RulesError` beyond them): ``players`` and ``tables`` at
    most 10,000 (:data:`MAX_PLAYERS`), ``rounds`` at most 10,000 (:data:`MAX_ROUNDS`), and
    ``players × rounds`` at most 1,000,000 (:data:`MAX_SEATINGS`).
    """
    players = count_arg("players", players, minimum=1, maximum=MAX_PLAYERS)
    tables = count_arg("tables", tables, minimum=1, maximum=MAX_PLAYERS)
    if players % tables:
        raise RulesError(f"{players} players do not fill {tables} tables evenly")
    seats = players // tables
    rounds = count_arg("rounds", seats if rounds is None else rounds, minimum=1, maximum=MAX_ROUNDS)
    if players * rounds > MAX_SEATINGS:
        raise RulesError(
            f"a plan holds at most {MAX_SEATINGS} seats (players × rounds), not {players * rounds}"
        )
    out = []
    for r in range(rounds):
        grid = [[0] * seats for _ in range(tables)]
        for p in range(players):
            group, index = divmod(p, tables)
            grid[(index + r * group) % tables][(group + r) % seats] = p
        out.append([tuple(row) for row in grid])
    return out
