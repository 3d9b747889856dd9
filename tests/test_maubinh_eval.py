"""Mậu Binh evaluator: an independent Python evaluator, the full 5-card ordering pinned by a
hash, and every hand-ranking statement of docs/rules/maubinh.md."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from typing import Literal

import numpy as np
import pytest

from vncards import Card, IllegalMoveError, InvalidCardError
from vncards.maubinh import (
    CATEGORIES,
    Rules,
    compare_hands,
    hand_category,
    hand_rank,
    hand_ranks,
    is_fouled,
)

MB_RANK = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])}
LOWEST = Rules(wheel="lowest")


def straight_order(wheel: str) -> list[tuple[int, ...]]:
    """Straights weakest first, as sets of Mậu Binh ranks (A = 12, 2 = 0)."""
    normal = [tuple(range(lo, lo + 5)) for lo in range(9)]
    wheel_ranks = (0, 1, 2, 3, 12)
    return [*normal[:-1], wheel_ranks, normal[-1]] if wheel == "second" else [wheel_ranks, *normal]


def ref5(cards: list[Card], wheel: str = "second") -> tuple[int, ...]:
    """A plain 5-card evaluator: (category, tie-break ranks...) compared as tuples."""
    ranks = sorted((MB_RANK[c.rank] for c in cards), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    pattern = [n for _, n in groups]
    by_group = [r for r, _ in groups]
    order = straight_order(wheel)
    run = tuple(sorted(ranks))
    straight = order.index(run) if run in order else None
    if straight is not None and flush:
        return (8, straight)
    if pattern[0] == 4:
        return (7, *by_group)
    if pattern == [3, 2]:
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight is not None:
        return (4, straight)
    if pattern[0] == 3:
        return (3, *by_group)
    if pattern[:2] == [2, 2]:
        return (2, *by_group)
    if pattern[0] == 2:
        return (1, *by_group)
    return (0, *ranks)


def ref3(cards: list[Card]) -> tuple[int, ...]:
    ranks = sorted((MB_RANK[c.rank] for c in cards), reverse=True)
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    cat = {1: 0, 2: 1, 3: 3}[groups[0][1]]
    return (cat, *[r for r, _ in groups])


def check_consistent(keys: list[tuple[int, ...]], ranks: np.ndarray) -> None:
    """Same key <=> same rank, and ranks increase with keys."""
    key_to_rank: dict[tuple[int, ...], int] = {}
    for k, r in zip(keys, ranks.tolist(), strict=False):
        assert key_to_rank.setdefault(k, r) == r, (k, r, key_to_rank[k])
    ordered = [key_to_rank[k] for k in sorted(key_to_rank)]
    assert all(a < b for a, b in itertools.pairwise(ordered))


@pytest.mark.parametrize("wheel", ["second", "lowest"])
def test_against_independent_evaluator_100k(wheel: Literal["second", "lowest"]) -> None:
    rng = np.random.default_rng(20261129)
    n = 100_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    ranks = hand_ranks(hands, Rules(wheel=wheel))
    deck = [Card(i) for i in range(52)]
    keys = [ref5([deck[i] for i in row], wheel) for row in hands.tolist()]
    check_consistent(keys, ranks)


def test_three_card_fronts_against_independent_evaluator() -> None:
    combos = list(itertools.combinations(range(52), 3))
    ranks = hand_ranks(np.array(combos, dtype=np.uint8))
    deck = [Card(i) for i in range(52)]
    check_consistent([ref3([deck[i] for i in c]) for c in combos], ranks)
    assert ranks.min() == 0 and ranks.max() == 454 and len(set(ranks.tolist())) == 455


def all_five_card_hands() -> np.ndarray:
    return np.fromiter(
        itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.uint8
    ).reshape(-1, 5)


#: sha256 of the int32 (little-endian) rank of every 5-card hand, hands in lexicographic order
#: of their Card.index values.
GOLDEN_DIGESTS = {
    "second": "d95db76daf093c1d3d26f0f57e0a653103c1d3b8b73704000b59a0738c4ac631",
    "lowest": "603b8ca6850a4bf21df1cd3827d8c7feb91b0306f56469a69e636c34f77b341b",
}

#: Distinct classes per category, weakest first (as in poker).
CLASS_COUNTS = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
#: Hands per category among all 2,598,960.
HAND_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]


@pytest.mark.parametrize("wheel", ["second", "lowest"])
def test_golden_full_ordering(wheel: Literal["second", "lowest"]) -> None:
    """All 2,598,960 hands: category counts as in poker, 7,462 classes, and a hash of the
    rank of every hand in lexicographic order (pins the full ordering)."""
    hands = all_five_card_hands()
    ranks = hand_ranks(hands, Rules(wheel=wheel))
    assert len(ranks) == 2_598_960
    assert len(np.unique(ranks)) == 7462
    edges = np.cumsum([0, *CLASS_COUNTS])
    per_category = np.histogram(ranks, bins=edges)[0].tolist()
    assert per_category == HAND_COUNTS
    for lo, cat in zip(edges[:-1], CATEGORIES, strict=False):
        first = hands[np.argmax(ranks == lo)]
        assert hand_category([Card(int(i)) for i in first]) == cat
    digest = hashlib.sha256(ranks.astype("<i4").tobytes()).hexdigest()
    assert digest == GOLDEN_DIGESTS[wheel]


# ---- docs/rules/maubinh.md hand ranking ------------------------------------------------------------------


def test_rank_only_decides_suits_never_break_ties() -> None:
    assert compare_hands("K♠ K♣ 9♦ 5♥ 2♠", "K♦ K♥ 9♠ 5♣ 2♥") == 0
    assert compare_hands("A♠ Q♠ 9♠ 5♠ 3♠", "A♥ Q♥ 9♥ 5♥ 3♥") == 0
    assert compare_hands("A♠ Q♠ J♦", "A♥ Q♥ J♣") == 0


def test_two_is_lowest_ace_highest() -> None:
    assert compare_hands("A♠ 9♦ 7♣ 5♥ 3♠", "K♠ Q♦ J♣ 9♥ 8♠") == 1
    assert compare_hands("2♠ 2♦ 9♣ 5♥ 3♠", "3♦ 3♥ 9♠ 5♣ 4♠") == -1
    assert compare_hands("2♠ 3♦ 4♣", "2♦ 3♥ 5♠") == -1


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        ("A♠ K♦ Q♣ J♥ 9♠", "2♠ 2♦ 3♣ 4♥ 5♠"),  # high card < pair (mậu thầu < đôi)
        ("A♠ A♦ K♣ Q♥ J♠", "2♠ 2♦ 3♣ 3♥ 4♠"),  # pair < two pair (thú)
        ("A♠ A♦ K♣ K♥ Q♠", "2♠ 2♦ 2♣ 3♥ 4♠"),  # two pair < three of a kind (sám cô)
        ("A♠ A♦ A♣ K♥ Q♠", "2♠ 3♦ 4♣ 5♥ 6♠"),  # trips < straight (sảnh)
        ("10♠ J♦ Q♣ K♥ A♠", "2♠ 3♠ 4♠ 5♠ 7♠"),  # straight < flush (thùng)
        ("A♠ K♠ Q♠ J♠ 9♠", "2♠ 2♦ 2♣ 3♥ 3♠"),  # flush < full house (cù lũ)
        ("A♠ A♦ A♣ K♥ K♠", "2♠ 2♦ 2♣ 2♥ 3♠"),  # full house < four of a kind (tứ quý)
        ("A♠ A♦ A♣ A♥ K♠", "2♠ 3♠ 4♠ 5♠ 6♠"),  # four of a kind < straight flush
    ],
)
def test_category_order(weaker: str, stronger: str) -> None:
    assert compare_hands(weaker, stronger) == -1
    assert compare_hands(stronger, weaker) == 1


def test_within_category_compare_as_in_poker() -> None:
    assert compare_hands("9♠ 9♦ A♣ 4♥ 3♠", "9♣ 9♥ K♣ Q♥ J♠") == 1  # kicker
    assert compare_hands("J♠ J♦ 4♣ 4♥ 2♠", "J♣ J♥ 3♣ 3♥ A♠") == 1  # second pair
    assert compare_hands("5♠ 5♦ 5♣ 2♥ 2♠", "4♠ 4♦ 4♣ A♥ A♠") == 1  # full house: triple first
    assert compare_hands("A♠ Q♠ 9♠ 5♠ 3♠", "A♦ Q♦ 9♦ 5♦ 2♦") == 1  # flush: rank by rank


def test_wheel_second_by_default() -> None:
    wheel, king, ace = "A♠ 2♦ 3♣ 4♥ 5♠", "9♠ 10♦ J♣ Q♥ K♠", "10♠ J♦ Q♣ K♥ A♦"
    assert compare_hands(wheel, king) == 1 and compare_hands(wheel, ace) == -1
    assert compare_hands(wheel, king, LOWEST) == -1
    assert compare_hands(wheel, "2♠ 3♦ 4♣ 5♥ 6♠", LOWEST) == -1
    # The same for straight flushes.
    sf_wheel, sf_king = "A♥ 2♥ 3♥ 4♥ 5♥", "9♠ 10♠ J♠ Q♠ K♠"
    assert compare_hands(sf_wheel, sf_king) == 1
    assert compare_hands(sf_wheel, sf_king, LOWEST) == -1
    assert hand_category(sf_wheel) == "straight_flush"


def test_front_is_high_card_pair_or_trips_only() -> None:
    assert hand_category("J♠ Q♠ K♠") == "high_card"  # no flush or straight in the front
    assert hand_category("J♠ J♥ K♠") == "pair"
    assert hand_category("J♠ J♥ J♦") == "three_of_a_kind"
    assert compare_hands("J♠ Q♠ K♠", "2♠ 2♥ 3♦") == -1


def test_front_against_middle_uses_only_the_fronts_ranks() -> None:
    back = "2♠ 2♥ 5♦ 7♣ 8♠"
    assert not is_fouled((back, "A♥ K♦ Q♣ J♠ 9♠", "A♠ K♣ Q♦"))
    assert is_fouled((back, "A♥ K♦ J♣ 10♠ 9♠", "A♠ K♣ Q♦"))
    # Pair front: the pair, then one kicker.
    assert not is_fouled(("A♠ A♦ 3♣ 4♥ 5♠", "Q♥ Q♦ 4♣ 3♠ 2♦", "Q♠ Q♣ 4♦"))
    assert is_fouled(("A♠ A♦ 3♣ 4♥ 5♠", "Q♥ Q♦ 4♣ 3♠ 2♦", "Q♠ Q♣ 5♦"))
    # Trips front under two pair is fouled; under a straight it is fine.
    assert is_fouled(("A♠ A♦ A♣ 4♥ 5♠", "K♥ K♦ 4♣ 4♠ 2♦", "3♠ 3♣ 3♦"))
    assert not is_fouled(("A♠ A♦ A♣ A♥ 5♠", "6♥ 7♦ 8♣ 9♠ 10♦", "3♠ 3♣ 3♦"))


def test_back_must_not_be_weaker_than_middle_ties_allowed() -> None:
    assert is_fouled(("A♠ K♦ Q♣ J♥ 9♠", "2♠ 2♦ 3♣ 4♥ 5♠", "6♣ 7♦ 8♥"))
    assert not is_fouled(("9♠ 9♦ 5♣ 4♥ 3♠", "9♣ 9♥ 5♠ 4♦ 3♦", "2♠ 6♦ 7♣"))


def test_bad_input_raises_typed_errors() -> None:
    with pytest.raises(IllegalMoveError):
        hand_rank("A♠ K♠ Q♠ J♠")
    with pytest.raises(InvalidCardError):
        hand_rank("A♠ A♠ Q♠ J♠ 9♠")
    with pytest.raises(IllegalMoveError):
        compare_hands("A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥")
    with pytest.raises(InvalidCardError):
        hand_ranks(np.array([[0, 1, 2, 3, 60]], dtype=np.uint8))
    with pytest.raises(InvalidCardError):
        hand_ranks(np.array([[0, 1, 2, 3, 3]], dtype=np.uint8))
    with pytest.raises(InvalidCardError):
        hand_ranks(np.array([[0, 1, 2, 3, 4]], dtype=np.int64))


def test_hand_ranks_accepts_lists_and_matches_hand_rank() -> None:
    hands = ["A♠ K♠ Q♠ J♠ 10♠", "2♠ 3♦ 4♣", ["9♠", "9♦", "5♣", "4♥", "3♠"]]
    assert hand_ranks(hands).tolist() == [hand_rank(h) for h in hands]
