"""A pure-Python oracle for Tiến Lên combinations written from docs/rules/tienlen-south.md and tienlen-north.md alone, and the
differential tests of the Rust move generator against it (every subset of the hand,
classified and tested against the table). benches/tienlen_bench.py imports the oracle too.
"""

from __future__ import annotations

import random
from itertools import combinations, pairwise
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import Card, parse_cards, tienlen
from vncards.tienlen import Rules

TWO = 12  # rank index of the 2
SINGLE, PAIR, TRIPLE, STRAIGHT, PAIR_SEQ, QUAD = (
    "single",
    "pair",
    "triple",
    "straight",
    "pair_sequence",
    "four_of_a_kind",
)


class Play(NamedTuple):
    kind: str
    cards: tuple[int, ...]  # card indices, low to high

    @property
    def top(self) -> int:
        return self.cards[-1]

    @property
    def all_twos(self) -> bool:
        return all(c // 4 == TWO for c in self.cards)


def oracle_classify(cards: tuple[int, ...], rules: Rules) -> Play | None:
    """The combination formed by exactly these card indices, from the rules text."""
    cards = tuple(sorted(cards))
    n = len(cards)
    ranks = [c // 4 for c in cards]
    suits = [c % 4 for c in cards]
    if n == 0:
        return None
    if len(set(ranks)) == 1 and n <= 4:
        if n == 2 and rules.same_colour_pairs and (suits[0] >= 2) != (suits[1] >= 2):
            return None
        return Play((SINGLE, PAIR, TRIPLE, QUAD)[n - 1], cards)
    consecutive = all(b == a + 1 for a, b in pairwise(ranks))
    if len(set(ranks)) == n and consecutive and TWO not in ranks and 3 <= n <= 12:
        if rules.same_suit_straights and len(set(suits)) != 1:
            return None
        return Play(STRAIGHT, cards)
    if rules.pair_sequences and n >= 6 and n % 2 == 0 and TWO not in ranks:
        pair_ranks = ranks[::2]
        if (
            ranks[1::2] == pair_ranks
            and len(set(pair_ranks)) == n // 2
            and all(b == a + 1 for a, b in pairwise(pair_ranks))
        ):
            return Play(PAIR_SEQ, cards)
    return None


def _pairs(p: Play) -> int:
    return len(p.cards) // 2 if p.kind == PAIR_SEQ else 0


def oracle_beats(p: Play, t: Play, rules: Rules) -> bool:
    """Ordinary beating (same kind and size, higher top card, the north's follow rules) or a
    bomb from the table in docs/rules/tienlen-south.md."""
    if p.kind == t.kind and len(p.cards) == len(t.cards):
        if p.top <= t.top:
            return False
        if p.kind == SINGLE and rules.single_follows_suit:
            return p.all_twos or p.top % 4 == t.top % 4
        if p.kind == PAIR and rules.same_colour_pairs:
            return p.all_twos or (p.top % 4 >= 2) == (t.top % 4 >= 2)
        if p.kind == TRIPLE and rules.triple_follows_suits:
            return p.all_twos or {c % 4 for c in p.cards} == {c % 4 for c in t.cards}
        if p.kind == STRAIGHT and rules.same_suit_straights:
            return p.top % 4 == t.top % 4
        return True
    single_two = t.kind == SINGLE and t.all_twos
    pair_twos = t.kind == PAIR and t.all_twos
    if p.kind == QUAD:
        return single_two or (pair_twos and rules.quad_beats_pair_of_twos) or _pairs(t) == 3
    if _pairs(p) == 3:
        return single_two
    if _pairs(p) == 4:
        return single_two or pair_twos or _pairs(t) == 3 or t.kind == QUAD
    return False


def oracle_legal_plays(hand: list[int], table: Play | None, rules: Rules, must: int = 0) -> set[int]:
    """Masks of every subset of ``hand`` that is a combination beating ``table``."""
    out = set()
    for k in range(1, len(hand) + 1):
        for sub in combinations(hand, k):
            mask = sum(1 << c for c in sub)
            if mask & must != must:
                continue
            p = oracle_classify(sub, rules)
            if p is not None and (table is None or oracle_beats(p, table, rules)):
                out.add(mask)
    return out


def _cards(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]


VARIANTS = {
    "south": Rules.south(),
    "north": Rules.north(),
    "south_no_quad_on_pair_of_twos": Rules.south().replace(quad_beats_pair_of_twos=False),
    "north_triples_follow": Rules.north().replace(triple_follows_suits=True),
    "north_singles_free": Rules.north().replace(single_follows_suit=False),
}


def _rich_hand(rng: random.Random, size: int) -> list[int]:
    """A hand drawn from a few adjacent ranks (many pairs, runs and bombs)."""
    width = rng.randint(4, 9)
    start = rng.randint(0, 13 - width)
    pool = list(range(start * 4, (start + width) * 4))
    return sorted(rng.sample(pool, min(size, len(pool))))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_legal_plays_equal_brute_force(name: str) -> None:
    rules = VARIANTS[name]
    rng = random.Random(name)
    checked = 0
    for i in range(100):
        size = rng.randint(1, 11)
        hand = _rich_hand(rng, size) if i % 2 else sorted(rng.sample(range(52), size))
        hand_mask = sum(1 << c for c in hand)
        lead_list = tienlen.legal_plays(hand_mask, None, rules)
        leads = {c.mask for c in lead_list}
        assert len(leads) == len(lead_list), "a play listed twice"
        assert leads == oracle_legal_plays(hand, None, rules), (name, hand)
        # Tables: plays from another random holding, plus the bomb targets.
        other = _rich_hand(rng, 11)
        tables = [p for p in tienlen.legal_plays(sum(1 << c for c in other), None, rules)]
        tables = rng.sample(tables, min(6, len(tables)))
        bombs = [tienlen.classify("2♠", rules), tienlen.classify("2♦2♥", rules)]
        tables += [b for b in bombs if b is not None]
        for t in tables:
            if t is None or t.mask & hand_mask:
                continue
            got_list = tienlen.legal_plays(hand_mask, t, rules)
            got = {c.mask for c in got_list}
            assert len(got) == len(got_list), "a play listed twice"
            tp = oracle_classify(tuple(_cards(t.mask)), rules)
            assert tp is not None and tp.kind == t.kind
            assert got == oracle_legal_plays(hand, tp, rules), (name, hand, str(t))
            checked += 1
    assert checked > 400


def test_must_include_matches_brute_force() -> None:
    rules = Rules.south()
    rng = random.Random(3)
    for _ in range(30):
        hand = _rich_hand(rng, 10)
        must = 1 << hand[0]
        got = {
            c.mask
            for c in tienlen.legal_plays(sum(1 << c for c in hand), None, rules, must_include=[Card(hand[0])])
        }
        assert got == oracle_legal_plays(hand, None, rules, must)


def test_classify_and_beats_agree_with_oracle_on_random_sets() -> None:
    rng = random.Random(11)
    for rules in VARIANTS.values():
        for _ in range(1500):
            a = tuple(sorted(rng.sample(range(52), rng.randint(1, 8))))
            pa = oracle_classify(a, rules)
            ca = tienlen.classify(sum(1 << c for c in a), rules)
            assert (pa is None) == (ca is None), a
            if pa is None or ca is None:
                continue
            assert ca.kind == pa.kind and [c.index for c in ca.cards] == list(a)
        # beats on random pairs of combinations of the same kind and of bombs
        plays = tienlen.legal_plays(sum(1 << c for c in _rich_hand(rng, 13)), None, rules)
        for _ in range(400):
            p, t = rng.choice(plays), rng.choice(plays)
            op, ot = (
                oracle_classify(tuple(_cards(p.mask)), rules),
                oracle_classify(tuple(_cards(t.mask)), rules),
            )
            assert op is not None and ot is not None  # legal plays are combinations
            want = oracle_beats(op, ot, rules)
            assert tienlen.beats(p, t, rules) == want, (str(p), str(t))


def test_eighty_two_leads() -> None:
    hand = "3♠3♣ 4♦4♥ 5♠5♦ 6♣ 7♥ 8♠ 9♦ J♣ Q♣ 2♥"
    plays = tienlen.legal_plays(hand)
    assert len(plays) == 82 == len({c.mask for c in plays})
    kinds = [c.kind for c in plays]
    assert kinds.count("single") == 13
    assert kinds.count("pair") == 3
    assert kinds.count("pair_sequence") == 1
    assert kinds.count("straight") == 65
    assert max(len(c) for c in plays if c.kind == "straight") == 7
    indices = [c.index for c in parse_cards(hand)]
    assert oracle_legal_plays(indices, None, Rules.south()) == {c.mask for c in plays}


def test_combo_objects() -> None:
    c = tienlen.classify("5♦ 5♠")
    assert c is not None
    assert [str(x) for x in c.cards] == ["5♠", "5♦"]
    assert c == tienlen.classify("5♠5♦") and hash(c) == hash(tienlen.classify("♠5♦5"))
    assert c != tienlen.classify("5♠5♥")
    assert len(c) == 2 and str(c) == "5♠ 5♦" and repr(c) == "Combo(pair: 5♠ 5♦)"
    import pickle

    assert pickle.loads(pickle.dumps(c)) == c
    combo = tienlen.classify("3♠3♣4♦4♥5♠5♦")
    assert combo is not None and str(combo.top_card) == "5♦"


@settings(deadline=None)
@given(
    hand=st.lists(st.integers(0, 51), min_size=1, max_size=10, unique=True),
    other=st.lists(st.integers(0, 51), min_size=1, max_size=8, unique=True),
    pick=st.integers(0, 10**6),
    name=st.sampled_from(sorted(VARIANTS)),
)
def test_legal_plays_property(hand: list[int], other: list[int], pick: int, name: str) -> None:
    rules = VARIANTS[name]
    hand = sorted(hand)
    mask = sum(1 << c for c in hand)
    plays = tienlen.legal_plays(mask, None, rules)
    assert {c.mask for c in plays} == oracle_legal_plays(hand, None, rules)
    candidates = [
        t for t in tienlen.legal_plays(sum(1 << c for c in other), None, rules) if not t.mask & mask
    ]
    if candidates:
        t = candidates[pick % len(candidates)]
        tp = oracle_classify(tuple(_cards(t.mask)), rules)
        assert tp is not None
        got = tienlen.legal_plays(mask, t, rules)
        assert {c.mask for c in got} == oracle_legal_plays(hand, tp, rules)
        assert all(tienlen.beats(c, t, rules) for c in got)
