"""Sâm Lốc combinations, beating, move generation and instant wins (rules: docs/rules/samloc.md), with a
brute-force oracle for legal_plays."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import Card, parse_cards
from vncards.samloc import Rules, beats, classify, instant_win, legal_plays

LOW = Rules(low_straights=True)
QUAD2 = Rules(quad_beats_pair_of_twos=True)


# ---- §3 card order and combinations ------------------------------------------------------


def test_rank_only_equal_ranks_never_beat() -> None:
    for a, b in [("5♠", "5♥"), ("5♥", "5♠"), ("2♠", "2♥"), ("2♥", "2♠")]:
        assert not beats(a, b)
    assert beats("6♠", "5♥") and beats("2♠", "A♥") and not beats("A♥", "2♠")
    assert not beats("♦5♥5", "♠5♣5") and beats("♠6♣6", "♦5♥5")
    assert not beats("5♥6♥7♥", "5♠6♠7♣") and beats("6♠7♠8♣", "5♥6♥7♥")
    assert beats("♠10♣10♦10", "♠9♣9♦9")


def test_kinds() -> None:
    expected = {
        "7♦": "single",
        "♠4♦4": "pair",
        "♠4♦4♥4": "triple",
        "♠4♦4♥4♣4": "four_of_a_kind",
        "Q♠K♦A♥": "straight",
        "3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠": "straight",
    }
    for text, kind in expected.items():
        combo = classify(text)
        assert combo is not None and combo.kind == kind
        assert list(combo.cards) == sorted(parse_cards(text))


def test_no_pair_sequences_and_no_long_straights() -> None:
    assert classify("3♠3♣4♠4♣5♠5♣") is None
    assert classify("3♠3♣4♠4♣5♠5♣6♠6♣") is None
    assert classify("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♠") is None
    assert classify("3♠4♦") is None and classify("3♠3♦4♦") is None


def test_straights_never_with_two_by_default() -> None:
    for text in ["K♠A♦2♥", "A♠2♦3♥", "2♠3♦4♥", "2♠3♦4♥5♠"]:
        assert classify(text) is None


def test_low_straights_option() -> None:
    assert classify("K♠A♦2♥", LOW) is None
    for text in ["A♠2♦3♥", "2♠3♦4♥", "A♠2♦3♥4♠5♦", "2♠3♦4♥5♠6♠7♠8♠9♠10♠J♠"]:
        combo = classify(text, LOW)
        assert combo is not None and combo.kind == "straight"
    assert beats("2♠3♦4♥", "A♠2♦3♥", LOW) and beats("3♠4♦5♥", "2♠3♦4♥", LOW)
    assert not beats("A♠2♦3♥", "2♠3♦4♥", LOW) and not beats("A♠2♦3♥", "Q♠K♦A♥", LOW)


def test_bombs() -> None:
    assert beats("7♠7♣7♦7♥", "2♠")
    assert not beats("7♠7♣7♦7♥", "A♠")
    assert not beats("7♠7♣7♦7♥", "2♠2♥")
    assert beats("7♠7♣7♦7♥", "2♠2♥", QUAD2)
    assert not beats("7♠7♣7♦7♥", "2♠2♥2♦", QUAD2)
    assert beats("8♠8♣8♦8♥", "7♠7♣7♦7♥") and not beats("7♠7♣7♦7♥", "8♠8♣8♦8♥")
    assert beats("2♦", "A♠")  # a 2 over a lower card is ordinary beating


def test_legal_plays_examples() -> None:
    hand = "7♠7♣7♦7♥ 3♠ 5♦ 9♣ J♥ K♦ A♠"
    assert [c.kind for c in legal_plays(hand, "2♦")] == ["four_of_a_kind"]
    assert legal_plays(hand, "2♦2♥") == []
    assert [c.kind for c in legal_plays(hand, "2♦2♥", QUAD2)] == ["four_of_a_kind"]
    assert [str(c) for c in legal_plays(hand, "J♠")] == ["K♦", "A♠"]
    leads = legal_plays(hand, must_include="3♠")
    assert leads and all(Card("3♠") in c.cards for c in leads)


def test_bao_mot_enforce_filter() -> None:
    hand = "3♠ 5♦ 9♣ K♥ K♠ 2♣"
    singles = [str(c) for c in legal_plays(hand, bao_mot=True) if c.kind == "single"]
    assert singles == ["2♣"]
    assert [str(c) for c in legal_plays("3♠ 5♦ K♥ K♠", "10♦", bao_mot=True)] == ["K♠", "K♥"]
    assert legal_plays("3♠ 5♦ K♥ K♠", "A♦", bao_mot=True) == []
    # Pairs and longer plays are not restricted.
    pairs = [str(c) for c in legal_plays("3♠ 3♦ K♥", bao_mot=True) if c.kind == "pair"]
    assert pairs == ["3♠ 3♦"]


# ---- §3 instant wins ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "kind"),
    [
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠", "dragon"),
        ("2♠2♣2♦2♥ 3♠5♦7♥9♣J♠K♦", "four_twos"),
        ("4♦4♥5♦5♥6♥8♦10♥J♦K♦A♥", "same_colour"),
        ("4♦4♥4♠6♣6♠6♥J♦J♥J♣A♠", "three_triples"),
        ("4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦", "five_pairs"),
        ("4♠4♣4♦4♥ 7♦7♥9♣9♥Q♣Q♦", "five_pairs"),
        ("4♦4♥7♦7♥9♣9♥10♣10♥Q♣K♦", None),
        ("2♠2♣2♦2♥", None),
    ],
)
def test_instant_win_examples(hand: str, kind: str | None) -> None:
    assert instant_win(hand) == kind


def test_instant_win_ranking_inside_a_hand() -> None:
    # Ten red cards in five pairs: đồng hoa outranks 5 đôi.
    assert instant_win("4♦4♥5♦5♥6♦6♥8♦8♥K♦K♥") == "same_colour"
    # A red dragon is a dragon.
    assert instant_win("3♦4♦5♥6♥7♥8♦9♦10♥J♥Q♦") == "dragon"
    # Three triples plus a pair (only the stronger kind counts).
    assert instant_win("4♦4♥4♠6♣6♠6♥J♦J♥J♣J♠") == "three_triples"
    assert instant_win("2♠3♦4♥5♣6♥7♦8♦9♠10♥J♠") is None
    assert instant_win("2♠3♦4♥5♣6♥7♦8♦9♠10♥J♠", LOW) == "dragon"


# ---- brute-force oracle ------------------------------------------------------------------

_KIND_OF_SIZE = {1: "single", 2: "pair", 3: "triple", 4: "four_of_a_kind"}


def oracle_classify(cards: tuple[Card, ...], rules: Rules) -> tuple[str, int, int] | None:
    """(kind, length, top) by the text of §3, independent of the engine."""
    ranks = sorted(c.rank_index for c in cards)  # 3 = 0 … A = 11, 2 = 12
    n = len(ranks)
    if n and len(set(ranks)) == 1 and n <= 4:
        return (_KIND_OF_SIZE[n], n, ranks[0] + 2)
    if 3 <= n <= 10 and len(set(ranks)) == n:
        if 12 not in ranks:
            vals = [r + 2 for r in ranks]
        elif rules.low_straights:
            vals = sorted({11: 0, 12: 1}.get(r, r + 2) for r in ranks)
        else:
            return None
        if vals[-1] - vals[0] == n - 1:
            return ("straight", n, vals[-1])
    return None


def oracle_beats(p: tuple[str, int, int], t: tuple[str, int, int], rules: Rules) -> bool:
    if p[0] == t[0] and p[1] == t[1]:
        return p[2] > t[2]
    if p[0] == "four_of_a_kind" and t[2] == 14 and t[0] != "straight":
        return t[0] == "single" or (t[0] == "pair" and rules.quad_beats_pair_of_twos)
    return False


def oracle_plays(
    hand: list[Card], table: tuple[Card, ...] | None, rules: Rules, bao_mot: bool
) -> set[frozenset[Card]]:
    t = oracle_classify(table, rules) if table else None
    top_rank = max(c.rank_index for c in hand)
    out: set[frozenset[Card]] = set()
    for n in range(1, len(hand) + 1):
        for sub in combinations(hand, n):
            c = oracle_classify(sub, rules)
            if c is None or (t is not None and not oracle_beats(c, t, rules)):
                continue
            if bao_mot and n == 1 and sub[0].rank_index < top_rank:
                continue
            out.add(frozenset(sub))
    return out


RULESETS = [Rules(), LOW, QUAD2, Rules(low_straights=True, quad_beats_pair_of_twos=True)]


@given(
    deck=st.permutations(range(52)),
    rules=st.sampled_from(RULESETS),
    pick=st.integers(0, 10_000),
    lead=st.booleans(),
    bao_mot=st.booleans(),
)
def test_legal_plays_match_oracle(
    deck: list[int], rules: Rules, pick: int, lead: bool, bao_mot: bool
) -> None:
    hand = [Card(i) for i in deck[:10]]
    other = [Card(i) for i in deck[10:20]]
    table = None
    if not lead:
        options = legal_plays(other, None, rules)
        table = options[pick % len(options)].cards
    got = legal_plays(hand, table, rules, bao_mot=bao_mot)
    assert len({c.mask for c in got}) == len(got), "duplicate plays"
    assert {frozenset(c.cards) for c in got} == oracle_plays(hand, table, rules, bao_mot)
    for c in got:
        assert classify(c.cards, rules) == c
        if table is not None:
            assert beats(c, table, rules)
