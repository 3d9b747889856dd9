"""Fuzzing the Mậu Binh solver, evaluator and exploitability surfaces with adversarial
arguments (cards of every size and type, junk rules, objectives, strategies, tables and work
counts): no input makes them raise anything but a :class:`~vncards.VncardsError` (issue 37),
stricter than the library-wide contract of ``tests/test_fuzz.py``, which also allows
``TypeError``. Work counts are drawn small or out of range, so every call is short."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from test_fuzz import JUNK_TEXTS, D, card_args, ints, names, small_ints, works
from vncards import VncardsError, maubinh
from vncards.maubinh import Rules

# Junk and the strategies mixing it in draw values of any type on purpose: typed Any.
JUNK: st.SearchStrategy[Any] = st.sampled_from([*JUNK_TEXTS, None, 5, 3.5, b"x", [None], {"a": 1}, object()])
rules_args: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, Rules(), Rules(scoring="4-2"), Rules(scoop_all=True, wheel="lowest")]), JUNK
)
objectives: st.SearchStrategy[Any] = st.one_of(names, JUNK)
arrangements: st.SearchStrategy[Any] = st.one_of(
    st.lists(card_args(), max_size=4),
    st.dictionaries(st.sampled_from(["back", "middle", "front", "x"]), card_args(), max_size=4),
    card_args(),
)
few = st.one_of(st.integers(1, 3), works)  # a count: small, or out of range
strategies: st.SearchStrategy[Any] = st.one_of(
    objectives, st.just(lambda hand: maubinh.best_arrangement(hand, objective="strongest"))
)
decks = st.one_of(st.none(), card_args())


def _exploitability(d: D) -> Any:
    return maubinh.exploitability(
        d(strategies),
        players=d(small_ints),
        rules=d(rules_args),
        deals=d(few),
        samples=d(few),
        held_out=d(st.one_of(st.none(), few)),
        seed=d(ints),
        deck=d(decks),
        tables=d(st.one_of(st.none(), JUNK)),
    )


SURFACES: dict[str, Callable[[D], Any]] = {
    "hand_rank": lambda d: maubinh.hand_rank(d(card_args()), d(rules_args)),
    "hand_category": lambda d: maubinh.hand_category(d(card_args()), d(rules_args)),
    "hand_ranks": lambda d: maubinh.hand_ranks(d(st.lists(card_args(), max_size=3)), d(rules_args)),
    "compare_hands": lambda d: maubinh.compare_hands(d(card_args()), d(card_args()), d(rules_args)),
    "instant_win": lambda d: maubinh.instant_win(d(card_args()), d(rules_args)),
    "is_fouled": lambda d: maubinh.is_fouled(d(arrangements), d(rules_args)),
    "expected_value": lambda d: maubinh.expected_value(d(arrangements), d(rules_args), d(objectives)),
    "Arrangement": lambda d: maubinh.Arrangement(d(card_args()), d(card_args()), d(card_args())),
    "Arrangement.parse": lambda d: maubinh.Arrangement.parse(d(st.one_of(card_args(), JUNK))),
    "best_arrangement": lambda d: maubinh.best_arrangement(d(card_args()), d(rules_args), d(objectives)),
    "best_arrangements": lambda d: maubinh.best_arrangements(
        d(st.one_of(st.lists(card_args(), max_size=3), JUNK)), d(rules_args), d(objectives)
    ),
    "ranked_arrangements": lambda d: maubinh.ranked_arrangements(
        d(card_args()), d(rules_args), d(objectives), d(ints)
    ),
    "arrangement_report": lambda d: maubinh.arrangement_report(
        d(card_args()), d(rules_args), d(objectives), d(ints)
    ),
    "settle": lambda d: maubinh.settle(
        d(st.lists(st.one_of(st.none(), arrangements), max_size=5)), d(rules_args)
    ),
    "position_tables": lambda d: maubinh.position_tables(d(rules_args), d(objectives)),
    "head_to_head": lambda d: maubinh.head_to_head(
        d(works), d(ints), d(small_ints), d(objectives), d(objectives), d(rules_args)
    ),
    "exploitability": _exploitability,
}


@pytest.mark.parametrize("name", sorted(SURFACES))
@given(data=st.data())
def test_maubinh_surface_fails_only_with_vncards_errors(name: str, data: st.DataObject) -> None:
    with contextlib.suppress(VncardsError):
        SURFACES[name](data.draw)
