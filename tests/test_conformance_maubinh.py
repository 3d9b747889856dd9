"""Black-box conformance of Mậu Binh with docs/rules/index.md and maubinh.md, line by line, through the public
API only (exact positions for the table flow are built through the documented snapshot format)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

from support.ledger import net_totals
from vncards import Card, IllegalMoveError, InvalidCardError, RulesError, SnapshotError, parse_cards
from vncards.maubinh import (
    INSTANT_WINS,
    Arrangement,
    Game,
    Rules,
    best_arrangement,
    compare_hands,
    hand_category,
    hand_rank,
    hand_ranks,
    instant_win,
    is_fouled,
    settle,
    settle_itemised,
)
from vncards.maubinh.game import HELP_OBJECTIVE

LOWEST = Rules(wheel="lowest")
SCOOP = Rules(scoop=True)  # the sập hầm house rule
Hands = tuple[str, str, str]


def arr(h: Hands) -> Arrangement:
    return Arrangement(*h)


def entries(ledger: list[dict[str, Any]]) -> list[tuple[int, int, int, str]]:
    return [(e["from"], e["to"], e["units"], e["reason"]) for e in ledger]


def all_distinct(*groups: Any) -> None:
    seen: list[Card] = []
    for g in groups:
        if g is None:
            continue
        text = " ".join(g) if isinstance(g, tuple) else g
        seen += parse_cards(text)
    assert len(seen) == len(set(seen)), "test data reuses a card"


# ---- hand ranking ---------------------------------------------------------------------------

CATEGORY_LADDER = [
    ("high_card", "A♠ Q♥ 9♦ 6♣ 3♠"),
    ("pair", "2♠ 2♥ 4♦ 5♣ 7♠"),
    ("two_pair", "2♠ 2♥ 3♦ 3♣ 4♠"),
    ("three_of_a_kind", "2♠ 2♥ 2♦ 3♣ 4♠"),
    ("straight", "2♠ 3♥ 4♦ 5♣ 6♠"),
    ("flush", "2♠ 3♠ 4♠ 5♠ 7♠"),
    ("full_house", "2♠ 2♥ 2♦ 3♣ 3♠"),
    ("four_of_a_kind", "2♠ 2♥ 2♦ 2♣ 3♠"),
    ("straight_flush", "2♠ 3♠ 4♠ 5♠ 6♠"),
]


def test_five_card_categories_low_to_high() -> None:
    for name, cards in CATEGORY_LADDER:
        assert hand_category(cards) == name
    for (_, lo), (_, hi) in itertools.pairwise(CATEGORY_LADDER):
        assert compare_hands(hi, lo) == 1 and compare_hands(lo, hi) == -1
    # the weakest of each category beats the strongest of the one below
    assert compare_hands("2♠ 2♥ 3♦ 4♣ 5♠", "A♠ K♥ Q♦ J♣ 9♠") == 1
    assert compare_hands("2♠ 2♥ 3♦ 3♣ 4♠", "A♠ A♥ K♦ Q♣ J♠") == 1
    assert compare_hands("2♠ 3♥ 4♦ 5♣ 6♠", "A♠ A♥ A♦ K♣ Q♠") == 1


def test_ranks_two_lowest_ace_highest_and_suits_never_break_ties() -> None:
    assert compare_hands("3♠ 5♥ 7♦ 9♣ J♠", "2♠ 5♦ 7♣ 9♥ J♥") == 1
    assert compare_hands("A♠ 3♥ 5♦ 7♣ 9♠", "K♠ Q♥ J♦ 10♣ 8♠") == 1
    assert compare_hands("K♠ K♣ 9♦ 5♥ 2♠", "K♦ K♥ 9♠ 5♣ 2♥") == 0
    assert hand_rank("K♠ K♣ 9♦ 5♥ 2♠") == hand_rank("K♦ K♥ 9♠ 5♣ 2♥")
    assert compare_hands("2♠ 4♠ 6♠ 8♠ 10♠", "2♥ 4♥ 6♥ 8♥ 10♥") == 0  # flushes of two suits
    assert compare_hands("A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥") == 0
    assert compare_hands("Q♠ Q♥ Q♦", "Q♣ Q♠ Q♥") == 0
    assert compare_hands("A♠ 7♥ 2♦", "A♣ 7♦ 2♥") == 0


def test_within_a_category_compare_as_in_poker() -> None:
    assert compare_hands("9♠ 9♥ A♦ 4♣ 3♠", "9♦ 9♣ K♦ Q♣ J♠") == 1  # kicker
    assert compare_hands("9♠ 9♥ 2♦ 3♣ 4♠", "8♦ 8♣ A♦ K♣ Q♠") == 1  # pair rank first
    assert compare_hands("A♠ A♥ 2♦ 2♣ 3♠", "K♦ K♣ Q♦ Q♣ A♣") == 1  # high pair first
    assert compare_hands("K♠ K♥ 5♦ 5♣ 3♠", "K♦ K♣ 4♦ 4♣ A♠") == 1  # then low pair
    assert compare_hands("K♠ K♥ 5♦ 5♣ 7♠", "K♦ K♣ 5♥ 5♠ 6♠") == 1  # then kicker
    assert compare_hands("3♠ 3♥ 3♦ 2♣ 4♠", "2♦ 2♥ 2♠ A♣ K♠") == 1  # trips rank
    assert compare_hands("3♠ 3♥ 3♦ 2♣ 2♠", "2♦ 2♥ 2♣ A♣ A♠") == 1  # full house: trips first
    assert compare_hands("3♠ 3♥ 3♦ 3♣ 2♠", "2♦ 2♥ 2♣ 2♠ A♠") == 1
    assert compare_hands("A♠ 9♠ 7♠ 5♠ 3♠", "K♥ Q♥ J♥ 9♥ 8♥") == 1  # flushes by ranks
    assert compare_hands("A♠ Q♠ 7♠ 5♠ 3♠", "A♥ Q♥ 7♥ 5♥ 2♥") == 1


WHEELS = {
    # kind: (wheel, broadway, king-high, six-high, best hand of the category below)
    "straight": ("A♠ 2♥ 3♦ 4♣ 5♠", "A♥ K♥ Q♦ J♣ 10♥", "K♣ Q♥ J♦ 10♣ 9♠", "6♦ 5♥ 4♦ 3♣ 2♦", "A♠ A♥ A♦ K♣ Q♠"),
    "straight_flush": (
        "A♠ 2♠ 3♠ 4♠ 5♠",
        "A♥ K♥ Q♥ J♥ 10♥",
        "K♣ Q♣ J♣ 10♣ 9♣",
        "6♦ 5♦ 4♦ 3♦ 2♦",
        "K♥ K♦ K♣ K♠ Q♥",
    ),
}


@pytest.mark.parametrize("kind", list(WHEELS))
def test_wheel_second_by_default_and_lowest_option(kind: str) -> None:
    wheel, broadway, king, six, below = WHEELS[kind]
    for hand in (wheel, broadway, king, six):
        assert hand_category(hand) == kind and hand_category(hand, LOWEST) == kind
    # default "second": A-2-3-4-5 is below 10-J-Q-K-A only
    assert Rules().wheel == "second"
    assert compare_hands(wheel, broadway) == -1
    assert compare_hands(wheel, king) == 1 and compare_hands(wheel, six) == 1
    # "lowest": below every other straight
    assert compare_hands(wheel, six, LOWEST) == -1 and compare_hands(wheel, king, LOWEST) == -1
    assert compare_hands(broadway, king, LOWEST) == 1
    # either way a wheel beats every hand of the category below
    assert compare_hands(wheel, below) == 1 and compare_hands(wheel, below, LOWEST) == 1


def test_no_round_the_corner_straights() -> None:
    assert hand_category("K♠ A♥ 2♦ 3♣ 4♠") == "high_card"
    assert hand_category("Q♠ K♠ A♠ 2♠ 3♠") == "flush"


def test_front_is_high_card_pair_or_trips_only() -> None:
    assert hand_category("Q♠ K♥ A♦") == "high_card"  # no 3-card straight
    assert hand_category("2♠ 3♠ 4♠") == "high_card"  # no 3-card flush or straight flush
    assert hand_category("5♠ 5♥ 9♦") == "pair"
    assert hand_category("5♠ 5♥ 5♦") == "three_of_a_kind"
    assert compare_hands("2♠ 2♥ 3♦", "A♠ K♥ Q♦") == 1
    assert compare_hands("2♠ 2♥ 2♦", "A♠ A♥ K♦") == 1
    assert compare_hands("9♠ 9♥ 3♦", "9♦ 9♣ 2♦") == 1
    assert compare_hands("A♠ 5♥ 3♦", "K♠ Q♥ J♦") == 1
    assert compare_hands("2♠ 3♠ 4♠", "2♥ 3♦ 5♣") == -1  # the "straight flush" is just 4-high
    with pytest.raises(IllegalMoveError):
        compare_hands("2♠ 3♠ 4♠", "2♥ 3♦ 5♣ 7♠ 9♠")  # only same-size hands compare


def test_hand_ranks_batch_matches_single() -> None:
    hands = [c for _, c in CATEGORY_LADDER]
    want = [hand_rank(h) for h in hands]
    assert hand_ranks(hands).tolist() == want
    array = np.array([[c.index for c in parse_cards(h)] for h in hands], dtype=np.uint8)
    assert hand_ranks(array).tolist() == want
    assert hand_ranks(["A♠ 2♥ 3♦ 4♣ 5♠"], LOWEST).tolist() == [hand_rank("A♠ 2♥ 3♦ 4♣ 5♠", LOWEST)]


# ---- valid arrangement and foul -------------------------------------------------------------


def test_front_versus_middle_example_from_the_rules() -> None:
    back = "2♠ 2♥ 2♦ 7♣ 8♠"
    assert not is_fouled((back, "A♥ K♦ Q♣ J♠ 9♠", "A♠ K♣ Q♦"))  # E: valid
    assert is_fouled((back, "A♥ K♦ J♣ 10♠ 9♠", "A♠ K♣ Q♦"))  # E: fouled
    assert not is_fouled((back, "A♥ K♦ Q♣ 3♠ 4♠", "A♠ K♣ Q♦"))  # extra kickers never count


def test_front_versus_middle_by_category_then_ranks() -> None:
    back = "K♠ K♥ K♦ K♣ 8♠"
    # pair front against pair middle: the pair rank, then the one front kicker
    assert not is_fouled((back, "A♥ A♦ 10♣ Q♠ J♠", "A♠ A♣ 10♦"))
    assert not is_fouled(("Q♠ Q♥ Q♦ Q♣ 8♠", "A♥ A♦ K♣ 3♠ 2♠", "A♠ A♣ K♦"))  # tie: valid
    assert is_fouled(("Q♠ Q♥ Q♦ Q♣ 8♠", "A♥ A♦ J♣ 10♠ 9♠", "A♠ A♣ K♦"))
    # trips front against a two pair middle: trips is the higher category
    assert is_fouled((back, "A♥ A♦ 3♣ 3♠ J♠", "2♠ 2♣ 2♦"))
    assert not is_fouled((back, "3♥ 3♦ 4♣ 4♠ J♠", "A♠ A♣ 2♦"))  # pair < two pair
    assert not is_fouled((back, "3♥ 3♦ 3♣ 4♠ J♠", "2♠ 2♣ 2♦"))
    assert is_fouled((back, "3♥ 3♦ 3♣ 4♠ J♠", "A♠ A♣ A♦"))
    # a high-card front equal to a high-card middle on its three ranks is valid
    assert not is_fouled(("A♠ A♥ Q♦ J♣ 9♠", "8♥ 7♦ 6♣ 4♠ 3♦", "8♠ 7♣ 6♦"))
    assert is_fouled(("A♠ A♥ Q♦ J♣ 9♠", "8♥ 7♦ 5♣ 4♠ 3♦", "8♠ 7♣ 6♦"))


def test_back_at_least_middle_ties_allowed() -> None:
    assert not is_fouled(("A♠ K♥ Q♦ J♣ 9♠", "A♥ K♦ Q♣ J♠ 9♦", "2♠ 3♣ 4♦"))
    assert is_fouled(("2♠ 3♥ 5♦ 7♣ 8♠", "A♥ A♦ J♣ 10♠ 9♠", "4♠ 6♣ 9♦"))
    # wheel option decides the order of two straights
    mid, back = "A♠ 2♥ 3♦ 4♣ 5♠", "K♣ Q♥ J♦ 10♣ 9♠"
    assert is_fouled((back, mid, "6♠ 7♣ 8♦")) and not is_fouled((back, mid, "6♠ 7♣ 8♦"), LOWEST)


def test_arrangement_shape_errors() -> None:
    with pytest.raises(IllegalMoveError) as e:
        Arrangement("A♠ K♠ Q♠ J♠", "2♥ 3♥ 4♥ 5♥ 7♥ 8♥", "2♠ 3♠ 4♠")
    assert e.value.reason == "invalid_arrangement"
    with pytest.raises(IllegalMoveError) as e:
        Arrangement("A♠ K♠ Q♠ J♠ 9♠", "A♠ 3♥ 4♥ 5♥ 7♥", "2♠ 3♠ 4♠")
    assert e.value.reason == "invalid_arrangement"


# ---- instant wins ---------------------------------------------------------------------------

DRAGON_FLUSH = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
DRAGON = "2♠ 3♥ 4♦ 5♣ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
FIVE_PAIRS_TRIPLE = "2♠ 2♥ 3♠ 3♥ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 7♦"
SIX_PAIRS = "2♠ 2♣ 3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♦"
THREE_FLUSHES = "2♠ 4♠ 6♠ 8♠ 10♠ 2♥ 4♥ 6♥ 8♥ 10♥ 3♦ 7♦ 9♦"
THREE_STRAIGHTS = "A♠ 2♥ 3♦ 4♠ 5♠ 2♣ 3♣ 4♣ 5♣ 6♥ 7♦ 8♣ 9♥"

INSTANTS = [
    (DRAGON_FLUSH, "dragon_flush", 24),
    (DRAGON, "dragon", 12),
    (FIVE_PAIRS_TRIPLE, "five_pairs_triple", 6),
    (SIX_PAIRS, "six_pairs", 3),
    (THREE_FLUSHES, "three_flushes", 3),
    (THREE_STRAIGHTS, "three_straights", 3),
]


@pytest.mark.parametrize(("cards", "kind", "units"), INSTANTS)
def test_instant_win_kinds_and_units(cards: str, kind: str, units: int) -> None:
    assert instant_win(cards) == kind
    assert INSTANT_WINS[kind] == units
    assert best_arrangement(cards).instant == kind
    assert best_arrangement(cards, objective="strongest").instant == kind
    assert not is_fouled(best_arrangement(cards)) and not is_fouled(
        best_arrangement(cards, objective="strongest")
    )


def test_instant_win_table_order_strongest_first() -> None:
    assert list(INSTANT_WINS) == [k for _, k, _ in INSTANTS]


def test_instant_win_definitions() -> None:
    assert instant_win("2♠ 2♥ 2♣ 2♦ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 8♦") == "six_pairs"  # quad = two pairs
    assert instant_win("2♠ 2♥ 2♣ 2♦ 4♠ 4♥ 4♣ 4♦ 6♠ 6♥ 7♠ 7♥ 8♦") == "six_pairs"
    assert instant_win("2♠ 2♥ 3♠ 3♥ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 8♠ 9♥ J♦") is None  # five pairs only
    # front runs: A-2-3 and Q-K-A count, K-A-2 does not
    assert instant_win("A♠ 2♥ 3♦ 9♠ 10♠ J♠ Q♠ K♥ 9♦ 10♦ J♦ Q♦ K♣") == "three_straights"  # only A-2-3 fits
    assert instant_win("10♠ J♥ Q♦ K♠ A♠ 9♣ 10♣ J♣ Q♣ K♣ Q♥ K♦ A♥") == "three_straights"
    assert instant_win("K♠ A♥ 2♦ 4♠ 5♠ 6♣ 7♣ 8♣ 9♣ 10♥ J♦ Q♣ K♥") is None
    # ba thùng: the three-card flush may be any suit, flush suits may repeat
    assert instant_win("2♠ 3♠ 5♠ 7♠ 9♠ J♠ Q♠ K♠ A♠ 4♠ 2♦ 3♦ 9♦") == "three_flushes"
    assert instant_win("2♠ 4♠ 6♠ 8♠ 10♠ 2♥ 4♥ 6♥ 8♥ 10♥ 3♦ 7♦ 9♣") is None
    # the strongest kind is reported (a dragon flush is also three flushes and a dragon)
    assert instant_win(DRAGON_FLUSH) == "dragon_flush"


@pytest.mark.parametrize("cards", [THREE_FLUSHES, THREE_STRAIGHTS])
def test_ba_thung_and_ba_sanh_are_declared_with_a_valid_arrangement(cards: str) -> None:
    best = best_arrangement(cards)
    assert not is_fouled(best)
    if best.instant == "three_flushes":
        assert all(len({c.suit for c in h}) == 1 for h in (best.back, best.middle, best.front))
    else:
        assert hand_category(best.back) == hand_category(best.middle) == "straight"
        seq = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        runs = [set(seq[k : k + 3]) for k in range(12)]
        assert {c.rank for c in best.front} in runs


# ---- settlement -----------------------------------------------------------------------------

# A beats B on back and middle, B wins the front (no bonus): 1 + 1 - 1.
A: Hands = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠")
B: Hands = ("9♠ 9♥ 8♦ 8♣ 3♠", "J♠ J♥ 2♦ 4♦ 6♠", "K♠ Q♣ 10♥")
# A scoops C.
C: Hands = ("3♥ 5♣ 7♥ 9♦ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♦ 7♣")
# Y ties A on the front and loses back and middle: no scoop.
Y: Hands = ("3♥ 3♣ 5♥ 8♦ 10♣", "J♣ 9♦ 7♥ 6♥ 4♥", "J♥ 9♠ 7♣")
FOULED: Hands = ("A♣ K♥ Q♣ J♥ 9♠", "2♥ 2♦ 3♥ 4♥ 5♥", "6♥ 7♦ 8♥")


def test_test_data_is_consistent() -> None:
    for h in (A, B, C, Y):
        assert not is_fouled(h)
    assert is_fouled(FOULED)
    all_distinct(A, B)
    all_distinct(A, C)
    all_distinct(A, Y)


def test_each_hand_won_pays_one_unit() -> None:
    s = settle_itemised([A, B])
    assert s.totals == [1, -1]
    assert entries(s.ledger) == [(1, 0, 1, "back"), (1, 0, 1, "middle"), (0, 1, 1, "front")]


def test_a_tied_hand_pays_nothing_and_prevents_the_scoop() -> None:
    s = settle_itemised([A, Y])
    assert s.totals == [2, -2]
    assert entries(s.ledger) == [(1, 0, 1, "back"), (1, 0, 1, "middle")]


def test_scoop_doubles_the_total_and_is_an_option() -> None:
    """Seed 004: "Kết quả là tổng của những chi thắng - thua": the plain sum by default; the
    sập hầm doubling is the ``scoop`` house rule."""
    assert settle([A, C]) == [3, -3]
    s = settle_itemised([A, C], SCOOP)
    assert s.totals == [6, -6]
    assert entries(s.ledger)[-1] == (1, 0, 3, "scoop")
    assert settle([C, A], SCOOP) == [-6, 6]


BONUS_LOSER_FRONT = ("9♠ 9♥ 10♦ J♣ Q♠", "8♠ 8♥ 2♦ 3♣ Q♦", "5♠ 6♥ 7♦")
BONUS_CASES = [
    # (winner, loser, reason, units)
    (("K♠ K♥ K♦ K♣ 2♠", "3♠ 4♥ 5♦ 6♣ 7♠", "A♠ A♦ A♣"), BONUS_LOSER_FRONT, "front:three_of_a_kind", 3),
    (
        ("A♠ A♥ A♦ A♣ 2♠", "8♠ 8♥ 8♦ 3♣ 3♠", "4♦ 5♣ 7♥"),
        ("9♠ 9♥ 10♦ J♣ Q♠", "K♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦"),
        "middle:full_house",
        2,
    ),
    (
        ("A♠ A♥ A♦ A♣ 2♠", "3♠ 4♥ 5♦ 6♣ 7♠", "4♦ 5♣ 7♥"),
        ("9♠ 9♥ 10♦ J♣ Q♠", "K♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦"),
        "back:four_of_a_kind",
        4,
    ),
    (
        ("K♠ K♥ K♦ K♣ 2♠", "8♠ 8♥ 8♦ 8♣ 3♠", "4♦ 5♣ 7♥"),
        ("9♠ 9♥ 10♦ J♣ Q♠", "A♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦"),
        "middle:four_of_a_kind",
        8,
    ),
    (
        ("9♠ 10♠ J♠ Q♠ K♠", "4♥ 5♥ 6♥ 7♥ 8♥", "4♦ 5♣ 7♣"),
        ("A♠ A♥ 10♦ J♣ Q♥", "K♥ Q♦ 2♦ 3♣ 6♠", "5♠ 6♦ 7♦"),
        "middle:straight_flush",
        10,
    ),
    (
        ("9♠ 10♠ J♠ Q♠ K♠", "A♥ A♦ 5♣ 6♦ 7♦", "2♦ 3♣ 4♣"),
        ("A♠ A♣ 10♦ J♣ Q♥", "K♥ Q♦ 2♠ 3♦ 6♠", "5♠ 6♥ 7♥"),
        "back:straight_flush",
        5,
    ),
]
BACK_STRAIGHT_FLUSH = BONUS_CASES[-1]


@pytest.mark.parametrize(("winner", "loser", "reason", "units"), BONUS_CASES)
def test_bonus_hand_values(winner: Hands, loser: Hands, reason: str, units: int) -> None:
    all_distinct(winner, loser)
    assert not is_fouled(winner) and not is_fouled(loser)
    rules = Rules(back_straight_flush_units=5) if reason == "back:straight_flush" else Rules()
    s = settle_itemised([winner, loser], rules)
    assert (1, 0, units, reason) in entries(s.ledger)
    assert s.totals[0] == sum(e[2] if e[1] == 0 else -e[2] for e in entries(s.ledger))


def test_bonus_also_when_both_hold_the_same_category() -> None:
    w = ("A♠ A♥ A♦ A♣ 2♠", "3♠ 4♥ 5♦ 6♣ 8♠", "4♦ 5♣ 7♥")
    lo = ("K♠ K♥ K♦ K♣ 2♥", "3♥ 4♠ 6♦ 8♥ 9♠", "4♣ 5♥ 7♦")
    all_distinct(w, lo)
    s = settle_itemised([w, lo], Rules(scoop=False))
    assert entries(s.ledger) == [(1, 0, 4, "back:four_of_a_kind"), (0, 1, 1, "middle")]


def test_no_bonus_for_a_full_house_in_the_back_or_trips_in_the_middle() -> None:
    w = ("A♠ A♥ A♦ K♣ K♠", "Q♠ Q♥ Q♦ 3♣ 4♠", "J♦ 9♣ 7♠")
    lo = ("2♠ 3♥ 5♦ 7♣ 9♠", "2♥ 3♦ 5♣ 7♦ 8♠", "2♣ 4♥ 6♥")
    all_distinct(w, lo)
    assert entries(settle_itemised([w, lo], Rules(scoop=False)).ledger) == [
        (1, 0, 1, "back"),
        (1, 0, 1, "middle"),
        (1, 0, 1, "front"),
    ]


def test_scoop_doubles_bonuses_too() -> None:
    winner = ("A♠ A♥ A♦ A♣ 2♠", "3♠ 4♥ 5♦ 6♣ 7♠", "K♦ Q♣ 9♥")
    loser = ("9♠ 9♦ 10♦ J♣ Q♠", "K♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦")
    all_distinct(winner, loser)
    s = settle_itemised([winner, loser], SCOOP)
    assert entries(s.ledger) == [
        (1, 0, 4, "back:four_of_a_kind"),
        (1, 0, 1, "middle"),
        (1, 0, 1, "front"),
        (1, 0, 6, "scoop"),
    ]
    assert s.totals == [12, -12]


def test_fouled_pays_six_flat_and_two_fouled_pay_nothing() -> None:
    all_distinct(FOULED, A)
    s = settle_itemised([FOULED, A])
    assert s.totals == [-6, 6] and s.fouled == [True, False]
    assert entries(s.ledger) == [(0, 1, 6, "foul")]
    assert settle([A, FOULED], Rules(scoop=False)) == [6, -6]
    other_foul: Hands = ("2♠ 3♣ 5♦ 7♣ 8♠", "A♠ A♦ 9♣ 10♣ J♠", "K♠ 4♦ 6♦")
    all_distinct(FOULED, other_foul)
    assert is_fouled(other_foul)
    s = settle_itemised([FOULED, other_foul])
    assert s.totals == [0, 0] and s.ledger == [] and s.fouled == [True, True]


def test_a_player_who_leaves_is_fouled() -> None:
    s = settle_itemised([None, A])
    assert s.totals == [-6, 6] and s.fouled == [True, False]
    assert settle([None, None]) == [0, 0]
    assert settle([None, FOULED]) == [0, 0]


def test_instant_winner_is_paid_by_every_opponent_without_comparing() -> None:
    for cards, kind, units in INSTANTS:
        if set(parse_cards(cards)) & set(parse_cards(" ".join(A))):
            continue
        s = settle_itemised([cards, A])
        assert s.totals == [units, -units] and s.instants == [kind, None]
        assert entries(s.ledger) == [(1, 0, units, f"instant:{kind}")]
    # the dragon against two opponents, who also settle between themselves (a scoop: 6)
    dragon = "2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♣"
    opp1, opp2 = OPP1, OPP2
    all_distinct(dragon, opp1, opp2)
    s = settle_itemised([dragon, opp1, opp2], SCOOP)
    assert s.totals == [24, -6, -18] and s.instants == ["dragon", None, None]
    assert (1, 0, 12, "instant:dragon") in entries(s.ledger)
    assert (2, 0, 12, "instant:dragon") in entries(s.ledger)
    assert sum(s.totals) == 0


def test_two_instant_winners_stronger_kind_is_paid_same_kind_ties() -> None:
    order = [k for _, k, _ in INSTANTS]
    pairs = [
        (DRAGON_FLUSH, "2♠ 2♣ 3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♦"),  # vs six pairs
        ("2♠ 3♠ 4♦ 5♦ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠", "2♥ 2♣ 3♥ 3♣ 4♥ 4♣ 5♥ 5♣ 6♥ 6♣ 7♥ 7♣ 7♦"),
        (FIVE_PAIRS_TRIPLE, "8♠ 8♥ 9♠ 9♥ 10♠ 10♥ J♠ J♥ Q♠ Q♥ K♠ K♥ A♦"),
        ("8♣ 8♦ 10♣ 10♦ J♣ J♦ Q♣ Q♦ K♣ K♦ A♣ A♦ 5♣", THREE_FLUSHES),
        (THREE_FLUSHES, "10♦ J♦ Q♣ K♣ A♣ 4♦ 5♣ 6♦ 7♠ 8♦ 9♣ 10♣ J♣"),
    ]
    for strong, weak in pairs:
        all_distinct(strong, weak)
        ks, kw = instant_win(strong), instant_win(weak)
        assert ks is not None and kw is not None and order.index(ks) < order.index(kw)
        s = settle_itemised([weak, strong])
        assert s.totals == [-INSTANT_WINS[ks], INSTANT_WINS[ks]]
        assert entries(s.ledger) == [(0, 1, INSTANT_WINS[ks], f"instant:{ks}")]
    same = settle([SIX_PAIRS, "8♠ 8♥ 9♠ 9♥ 10♠ 10♥ J♠ J♥ Q♠ Q♥ K♠ K♥ A♦"])
    assert same == [0, 0]


def test_instant_winner_against_a_fouled_opponent_reading() -> None:
    """Reading kept: the instant win is paid in full by a fouled opponent (not the 6 of a foul)."""
    s = settle_itemised([SIX_PAIRS, FOULED])
    assert s.totals == [3, -3] and entries(s.ledger) == [(1, 0, 3, "instant:six_pairs")]
    s = settle_itemised([SIX_PAIRS, None])
    assert s.totals == [3, -3]


OPP1: Hands = ("A♠ A♥ K♥ K♠ 2♠", "Q♠ Q♥ 3♠ 4♣ 5♠", "J♥ 9♣ 7♠")
OPP2: Hands = ("3♥ 5♣ 7♥ 9♠ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♣ 7♣")

SEATS4: list[Hands] = [
    ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠"),  # 0
    ("3♥ 5♣ 7♥ 9♦ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♦ 7♣"),  # 1: scooped by 0
    ("9♠ 9♥ 8♦ 8♣ 3♠", "J♠ J♥ 2♦ 4♦ 6♠", "K♠ Q♣ 10♥"),  # 2
    ("A♣ A♦ 10♣ 10♦ 3♣", "5♦ 5♥ K♥ Q♦ 8♠", "7♦ 6♣ 4♠"),  # 3
]


def test_settlement_is_the_sum_over_pairs_and_zero_sum_for_two_to_four() -> None:
    all_distinct(*SEATS4)
    for seats in (SEATS4[:2], SEATS4[:3], SEATS4):
        for rules in (Rules(), Rules(scoop=False)):
            whole = settle(seats, rules)
            assert sum(whole) == 0
            pairwise = [0] * len(seats)
            for i, j in itertools.combinations(range(len(seats)), 2):
                a, b = settle([seats[i], seats[j]], rules)
                pairwise[i] += a
                pairwise[j] += b
            assert whole == pairwise


def test_exact_four_player_ledger() -> None:
    s = settle_itemised(SEATS4, SCOOP)
    # 0 vs 1: scoop 3 -> 6; 0 vs 2: +1; 0 vs 3: 0 loses back (AA1010 > AAKK? no: AAKK wins)...
    # computed independently from the pairwise ledger below
    totals = net_totals(s.ledger, 4)
    assert totals == s.totals and sum(s.totals) == 0
    assert (1, 0, 3, "scoop") in entries(s.ledger)
    assert s.totals[0] == sum(settle([SEATS4[0], SEATS4[j]], SCOOP)[0] for j in (1, 2, 3))
    scoops = [(f, t, u) for f, t, u, why in entries(s.ledger) if why == "scoop"]
    plain = settle(SEATS4)  # the plain sum: the same ledger without the doublings
    assert plain == [
        s.totals[k] - sum(u for _, t, u in scoops if t == k) + sum(u for f, _, u in scoops if f == k)
        for k in range(4)
    ]


def test_scoop_all_doubles_again_only_as_an_option() -> None:
    strong: Hands = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♥ 9♠ 8♠")
    weak1: Hands = ("3♥ 5♣ 7♥ 9♦ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♦ 7♣")
    weak2: Hands = ("3♠ 5♦ 7♦ 9♣ J♦", "2♦ 4♦ 6♠ 8♣ 10♦", "3♣ 4♠ 6♣")
    all_distinct(strong, weak1, weak2)
    plain = settle_itemised([strong, weak1, weak2], SCOOP)
    assert plain.totals[0] == 12  # two scoops of 6
    doubled = settle_itemised([strong, weak1, weak2], Rules(scoop=True, scoop_all=True))
    assert [d - p for d, p in zip(doubled.totals, plain.totals, strict=True)] == [12, -6, -6]
    assert sum(1 for e in doubled.ledger if e["reason"] == "scoop_all") == 2
    # scooping only one of two opponents is no sập làng
    third: Hands = ("A♣ A♦ 10♣ 10♥ 5♥", "K♠ K♥ Q♣ J♠ 9♥", "Q♦ 8♦ 7♠")  # wins the middle
    all_distinct(strong, weak1, third)
    mixed = settle([strong, weak1, third], Rules(scoop=True, scoop_all=True))
    assert mixed == settle([strong, weak1, third], SCOOP)


def test_scoop_all_with_two_players_reading() -> None:
    """Reading kept: sập làng needs 3–4 players; heads-up a scoop is only doubled once."""
    assert settle([A, C], Rules(scoop=True, scoop_all=True)) == [6, -6]


def test_settle_accepts_thirteen_cards_and_arranges_them() -> None:
    cards = " ".join(A)
    assert settle([cards, C]) == settle([best_arrangement(cards), C])


# ---- best_arrangement -----------------------------------------------------------------------

SOLVER_HANDS = [
    "A♠ K♠ Q♠ J♠ 10♠ 9♥ 9♦ 9♣ 4♦ 4♥ 2♣ 3♦ 5♠",
    "2♠ 5♥ 7♦ 9♣ J♠ K♥ A♦ 3♣ 6♠ 8♥ 10♦ Q♣ Q♥",
    "A♠ A♥ A♦ K♣ K♠ K♦ Q♥ Q♣ J♠ J♥ 2♦ 3♣ 4♥",
]


def _brute_force_strongest(cards: str, rules: Rules) -> tuple[int, int, int]:
    hand = parse_cards(cards)
    best: tuple[int, int, int] | None = None
    for b in itertools.combinations(range(13), 5):
        rest = [i for i in range(13) if i not in b]
        back = [hand[i] for i in b]
        rb = hand_rank(back, rules)
        if best is not None and rb < best[0]:
            continue
        for m in itertools.combinations(rest, 5):
            mid = [hand[i] for i in m]
            front = [hand[i] for i in rest if i not in m]
            key = (rb, hand_rank(mid, rules), hand_rank(front, rules))
            if (best is None or key > best) and not is_fouled((back, mid, front), rules):
                best = key
    assert best is not None
    return best


@pytest.mark.parametrize("cards", SOLVER_HANDS[:2])
def test_strongest_objective_matches_brute_force(cards: str) -> None:
    for rules in (Rules(), LOWEST):
        got = best_arrangement(cards, rules, objective="strongest")
        assert not is_fouled(got, rules)
        assert set(got.cards) == set(parse_cards(cards))
        key = (hand_rank(got.back, rules), hand_rank(got.middle, rules), hand_rank(got.front, rules))
        assert key == _brute_force_strongest(cards, rules)


@pytest.mark.parametrize("cards", SOLVER_HANDS)
def test_expected_objective_returns_a_valid_arrangement(cards: str) -> None:
    got = best_arrangement(cards)
    assert not is_fouled(got)
    assert sorted(c.index for c in got.cards) == sorted(c.index for c in parse_cards(cards))
    assert got.instant is None and isinstance(got.value, float)


def test_unknown_objective_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        best_arrangement(SOLVER_HANDS[0], objective="fastest")  # type: ignore[arg-type]


# ---- the table flow and the server contract (§0) --------------------------------------------


def mask(cards: str | tuple[str, ...]) -> int:
    text = " ".join(cards) if isinstance(cards, tuple) else cards
    return sum(1 << c.index for c in parse_cards(text))


def table(seats: list[Hands], rules: Rules | None = None) -> Game:
    """A fresh table whose seats hold exactly these cards, through the snapshot format."""
    g = Game(players=len(seats), rules=rules, seed=1)
    d = json.loads(g.to_json())
    d["state"]["hands"] = [mask(h) for h in seats]
    return Game.from_position(d)


def test_game_deals_thirteen_each_from_52() -> None:
    for n in (2, 3, 4):
        g = Game(players=n, seed=n)
        hands = [g.hand(s) for s in range(n)]
        assert all(len(h) == 13 for h in hands)
        assert len({c for h in hands for c in h}) == 13 * n
        assert g.pending_seats == list(range(n)) and not g.is_over and g.settlement is None


def test_game_exact_ledger_and_reveal() -> None:
    g = table([A, B, C])
    g.arrange(0, A)
    g.arrange(1, arr(B))
    g.confirm(0)
    g.confirm(1)
    g.forfeit(2)  # left: fouled, pays 6 to each
    assert g.is_over
    assert g.settlement == [1 + 6, -1 + 6, -12]
    assert sorted(entries(g.ledger)) == sorted(
        [(1, 0, 1, "back"), (1, 0, 1, "middle"), (0, 1, 1, "front"), (2, 0, 6, "foul"), (2, 1, 6, "foul")]
    )
    reveal = g.view(2)["reveal"]
    assert reveal["fouled"] == [False, False, True] and reveal["arrangements"][2] is None


def test_game_auto_arrange_uses_the_solver_and_confirms() -> None:
    g = table([A, C])
    g.auto_arrange(1)
    assert g.arrangement(1) == best_arrangement(" ".join(C))
    assert g.pending_seats == [0]
    g.arrange(0, FOULED_OF_A)
    g.confirm(0)
    assert g.view(0)["reveal"]["fouled"] == [True, False] and g.settlement == [-6, 6]


FOULED_OF_A: Hands = (A[1], A[0], A[2])  # back and middle swapped


def test_game_declares_instant_wins_from_the_dealt_cards() -> None:
    g = table([("2♦ 3♦ 4♦ 5♦ 6♦", "7♦ 8♦ 9♦ 10♦ J♦", "Q♦ K♦ A♣"), OPP1])
    g.auto_arrange(0)
    g.auto_arrange(1)
    assert g.view(1)["reveal"]["instants"] == ["dragon", None] and g.settlement == [12, -12]


def test_game_illegal_actions_raise_with_state_unchanged() -> None:
    g = table([A, C])
    before = g.to_json()
    cases: list[tuple[Any, str]] = [
        (lambda: g.arrange(0, C), "cards_not_in_hand"),
        (
            lambda: g.arrange(0, (A[0], A[1] + " " + A[2].split()[0], " ".join(A[2].split()[1:]))),
            "invalid_arrangement",
        ),
        (lambda: g.arrange(0, 42), "invalid_arrangement"),
        (lambda: g.confirm(0), "no_arrangement"),
        (lambda: g.arrange(2, A), "invalid_seat"),
        (lambda: g.confirm(-1), "invalid_seat"),
        (lambda: g.apply({"type": "play", "seat": 0}), "invalid_action"),
    ]
    for call, reason in cases:
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == reason, reason
        assert g.to_json() == before
    g.arrange(0, A)
    g.confirm(0)
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.arrange(0, FOULED_OF_A)
    assert e.value.reason == "already_confirmed" and g.to_json() == before
    g.auto_arrange(1)
    before = g.to_json()
    for call in (lambda: g.forfeit(1), lambda: g.auto_arrange(0), lambda: g.confirm(1)):
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == "game_over" and g.to_json() == before


def _cards_in(view: dict[str, Any]) -> set[str]:
    return set(re.findall(r"(?:10|[2-9JQKA])[♠♣♦♥]", json.dumps(view, ensure_ascii=False)))


def test_views_hide_every_other_hand_until_the_reveal() -> None:
    g = Game(players=4, seed=11)
    g.arrange(0, best_arrangement(g.hand(0)))
    g.confirm(0)
    g.auto_arrange(1)
    for seat in range(4):
        v = g.view(seat)
        assert _cards_in(v) == {str(c) for c in g.hand(seat)}
        assert v["hand_counts"] == [13] * 4 and v["reveal"] is None
    for e in g.events:
        assert not _cards_in(e)
    g.auto_arrange(2)
    g.forfeit(3)
    v = g.view(3)
    shown = [set(parse_cards(h)) for h in v["reveal"]["arrangements"][0]]
    best = best_arrangement(g.hand(0))
    assert shown == [set(best.back), set(best.middle), set(best.front)]
    assert v["reveal"]["arrangements"][3] is None
    assert v["settlement"] == g.settlement and sum(g.settlement or []) == 0


def test_unseeded_games_use_the_os_csprng_and_replay_from_the_key() -> None:
    a, b = Game(players=4), Game(players=4)
    assert a.rng_key != b.rng_key and [a.hand(s) for s in range(4)] != [b.hand(s) for s in range(4)]
    a.auto_arrange(0)
    again = Game.replay(a.actions, players=4, seed=a.rng_key)
    assert again.to_json() == a.to_json()


def test_seed_and_actions_replay_exactly() -> None:
    g = Game(players=3, seed=12345)
    h = g.hand(1)
    g.arrange(1, Arrangement(h[8:], h[3:8], h[:3]))
    g.auto_arrange(0)
    g.arrange(1, best_arrangement(h))
    g.confirm(1)
    g.forfeit(2)
    again = Game.replay(g.actions, players=3, seed=12345)
    assert again.events == g.events and again.settlement == g.settlement and again.ledger == g.ledger
    assert [again.hand(s) for s in range(3)] == [g.hand(s) for s in range(3)]
    assert Game(players=3, seed=12345).hand(0) == g.hand(0)


def test_snapshots_restore_and_reject_tampering() -> None:
    g = table([A, C, B])
    g.arrange(0, A)
    good = json.loads(g.to_json())
    assert Game.from_dict(good).to_json() == g.to_json()

    def rejected(edit: Any) -> None:
        d = json.loads(json.dumps(good))
        edit(d)
        with pytest.raises(SnapshotError):
            Game.from_dict(d)

    two_of_spades = 1 << parse_cards("2♠")[0].index
    rejected(
        lambda d: d["state"]["hands"].__setitem__(1, d["state"]["hands"][1] ^ 1 | d["state"]["hands"][0] & 1)
    )
    rejected(lambda d: d["state"]["hands"].__setitem__(1, d["state"]["hands"][0]))  # duplicated cards
    rejected(lambda d: d["state"]["hands"].__setitem__(0, d["state"]["hands"][0] ^ two_of_spades))  # 12 cards
    rejected(lambda d: d["state"]["hands"].pop())  # seat count
    rejected(lambda d: d.__setitem__("players", 4))
    rejected(lambda d: d["state"]["arrangements"].__setitem__(1, d["state"]["arrangements"][0]))
    rejected(lambda d: d["state"]["confirmed"].__setitem__(2, True))
    rejected(lambda d: d["ledger"].append({"from": 0, "to": 1, "units": 1, "reason": "back"}))
    rejected(lambda d: d.__setitem__("game", "tusac"))


def test_timeout_the_solver_arranges_and_the_deadline_is_exposed() -> None:
    g = table([A, C], Rules(time_limit=30))
    assert g.time_limit == 30 and g.view(0)["time_limit"] == 30
    assert g.events[0]["time_limit"] == 30
    g.arrange(1, C)
    g.auto_play(1)  # the seat's own arrangement is kept and confirmed
    assert g.arrangement(1) == arr(C)
    g.auto_play(0)  # no arrangement yet: the solver arranges, as a player is helped
    assert g.arrangement(0) == best_arrangement(" ".join(A), objective=HELP_OBJECTIVE) and g.is_over


# ---- an independent settlement oracle, straight from the §4 tables ---------------------------

BONUS = {
    ("front", "three_of_a_kind"): 3,
    ("middle", "full_house"): 2,
    ("back", "four_of_a_kind"): 4,
    ("middle", "four_of_a_kind"): 8,
    ("middle", "straight_flush"): 10,
    ("back", "straight_flush"): 5,
}


def oracle(seats: list[Arrangement | None], rules: Rules) -> list[int]:
    """Sum over pairs: instant wins (stronger kind paid, same kind ties), then fouls (6, two
    fouled pay nothing), then hand by hand with bonuses, doubled for a scoop; with scoop_all
    (3–4 players) a seat that scooped every opponent not fouled is paid each scoop once more."""
    n = len(seats)
    order = list(INSTANT_WINS)
    inst = [None if a is None else instant_win(a.cards, rules) for a in seats]
    foul = [a is None or is_fouled(a, rules) for a in seats]
    totals = [0] * n
    scoop_amount: dict[tuple[int, int], int] = {}
    for i, j in itertools.combinations(range(n), 2):
        ai, aj = seats[i], seats[j]
        ii, ij = inst[i], inst[j]
        if ii or ij:
            si = order.index(ii) if ii else 99
            sj = order.index(ij) if ij else 99
            amt = INSTANT_WINS[ii] if ii and si < sj else -INSTANT_WINS[ij] if ij and sj < si else 0
        elif foul[i] or foul[j]:
            amt = 0 if foul[i] and foul[j] else -6 if foul[i] else 6
        else:
            assert ai is not None and aj is not None
            amt, results = 0, []
            for pos in ("back", "middle", "front"):
                hi, hj = getattr(ai, pos), getattr(aj, pos)
                c = compare_hands(hi, hj, rules)
                winner_hand = hi if c > 0 else hj
                category = hand_category(winner_hand, rules)
                units = BONUS.get((pos, category), 1) if c else 0
                if c and (pos, category) == ("back", "straight_flush"):
                    units = rules.back_straight_flush_units
                amt += c * units
                results.append(c)
            if rules.scoop and len(set(results)) == 1 and results[0] != 0:
                amt *= 2
            if results == [1, 1, 1]:
                scoop_amount[(i, j)] = amt
            if results == [-1, -1, -1]:
                scoop_amount[(j, i)] = -amt
        totals[i] += amt
        totals[j] -= amt
    if rules.scoop_all and n >= 3:
        for s in range(n):
            others = [t for t in range(n) if t != s]
            scooped = [t for t in others if (s, t) in scoop_amount]
            if scooped and all((s, t) in scoop_amount or (foul[t] and not inst[t]) for t in others):
                for t in scooped:
                    totals[s] += scoop_amount[(s, t)]
                    totals[t] -= scoop_amount[(s, t)]
    return totals


def test_settlement_matches_the_rules_tables_on_random_tables() -> None:
    rnd = random.Random(2024)
    specials = [INSTANTS[k][0] for k in range(len(INSTANTS))] + [" ".join(w) for w, _, _, _ in BONUS_CASES]
    seen: Counter[str] = Counter()
    for _ in range(250):
        n = rnd.choice([2, 3, 4])
        rules = Rules(
            wheel=rnd.choice(["second", "lowest"]),
            scoop=rnd.random() < 0.7,
            scoop_all=rnd.random() < 0.5,
            back_straight_flush_units=rnd.choice([1, 5]),
        )
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [[Card(i) for i in deck[13 * s : 13 * s + 13]] for s in range(n)]
        special = parse_cards(rnd.choice(specials))
        if rnd.random() < 0.5:  # one seat gets an instant win or a bonus hand
            rest = [c for c in (Card(i) for i in deck) if c not in special]
            hands = [special] + [rest[13 * s : 13 * s + 13] for s in range(n - 1)]
        seats: list[Arrangement | None] = []
        for cards in hands:
            r = rnd.random()
            if r < 0.1:
                seats.append(None)
            elif r < 0.7:
                seats.append(best_arrangement(cards, rules, rnd.choice(["expected", "strongest"])))
            else:
                cs = list(cards)
                rnd.shuffle(cs)
                seats.append(Arrangement(cs[:5], cs[5:10], cs[10:]))
        got = settle_itemised(seats, rules)
        assert got.totals == oracle(seats, rules), [str(a) for a in seats]
        assert sum(got.totals) == 0
        seen.update(e["reason"].split(":")[0] for e in got.ledger)
    assert {"instant", "foul", "scoop", "scoop_all", "back", "middle", "front"} <= set(seen), seen


def test_rules_defaults_follow_the_rules_file() -> None:
    r = Rules()
    assert (r.wheel, r.scoop, r.scoop_all, r.back_straight_flush_units) == ("second", False, False, 1)
    assert r.replace(scoop_all=True).scoop_all and not r.scoop_all
    for bad in (
        {"wheel": "first"},
        {"scoop": "yes"},
        {"nonsense": 1},
        {"back_straight_flush_units": 0},
        {"back_straight_flush_units": 25},
        {"back_straight_flush_units": True},
    ):
        with pytest.raises(RulesError):
            r.replace(**bad)


def test_bad_card_text_names_the_token() -> None:
    with pytest.raises(InvalidCardError) as e:
        hand_rank("A♠ X♠ 3♦ 4♣ 5♠")
    assert e.value.token == "X♠"
    with pytest.raises(InvalidCardError) as e:
        instant_win("2♠ 2♠ 3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♦")
    assert e.value.token == "2♠"
