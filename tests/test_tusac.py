"""Tứ Sắc cards, melds, scoring and claims (rules: docs/rules/tusac.md), checked against a brute-force oracle."""

from __future__ import annotations

import pickle
import unicodedata
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import IllegalMoveError, InvalidCardError, RulesError, _core, tusac
from vncards.tusac import MELD_LENH, TOI, Meld, Rules, TuSacCard

# ---- the oracle: every split, straight from the §5 table ------------------------------------

NONE = None


def kind(piece: int, colour: int) -> int:
    return piece * 4 + colour


# (name, concealed lệnh, lệnh when the offer is in it, kinds)
TEMPLATES: list[tuple[str, int, int, tuple[int, ...]]] = []
for k in range(28):
    TEMPLATES += [("pair", 0, 0, (k, k)), ("triple", 3, 1, (k,) * 3), ("quad", 8, 6, (k,) * 4)]
    if k < 4:
        TEMPLATES.append(("general", 1, 1, (k,)))
for c in range(4):
    TEMPLATES.append(("general_set", 1, 1, (kind(0, c), kind(1, c), kind(2, c))))
    TEMPLATES.append(("chariot_set", 1, 1, (kind(3, c), kind(4, c), kind(5, c))))
SOLDIERS = tuple(kind(6, c) for c in range(4))
for trio in combinations(SOLDIERS, 3):
    TEMPLATES.append(("three_soldiers", 1, 1, trio))
TEMPLATES.append(("four_soldiers", 4, 4, SOLDIERS))


def counts_of(cards: list[int]) -> tuple[int, ...]:
    c = [0] * 28
    for k in cards:
        c[k] += 1
    return tuple(c)


def minus(counts: tuple[int, ...], kinds: tuple[int, ...]) -> tuple[int, ...] | None:
    c = list(counts)
    for k in kinds:
        c[k] -= 1
        if c[k] < 0:
            return None
    return tuple(c)


def best(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


SETS = ("general_set", "chariot_set", "three_soldiers")


@cache
def oracle(counts: tuple[int, ...], set_lenh: int = 1) -> tuple[int, int | None, int | None]:
    """(fewest rác, best even total, best odd total of complete splits): exhaustive search in
    which the first remaining card is either rác or in some meld (a three-card set counting
    ``set_lenh``)."""
    first = next((k for k, n in enumerate(counts) if n), None)
    if first is None:
        return (0, 0, NONE)
    rest = minus(counts, (first,))
    assert rest is not None
    r, _, _ = oracle(rest, set_lenh)
    rac, even, odd = r + 1, NONE, NONE
    for name, lenh, _exp, ks in TEMPLATES:
        if first not in ks:
            continue
        rest = minus(counts, ks)
        if rest is None:
            continue
        lenh = set_lenh if name in SETS else lenh
        r, e, o = oracle(rest, set_lenh)
        rac = min(rac, r)
        for total in (e, o):
            if total is not None:
                t = total + lenh
                if t % 2:
                    odd = best(odd, t)
                else:
                    even = best(even, t)
    return (rac, even, odd)


def oracle_with_offer(
    hidden: tuple[int, ...], offer: int, set_lenh: int = 1
) -> tuple[int | None, int | None]:
    even = odd = NONE
    for name, _lenh, exposed, ks in TEMPLATES:
        if offer not in ks:
            continue
        used = list(ks)
        used.remove(offer)
        rest = minus(hidden, tuple(used))
        if rest is None:
            continue
        exposed = set_lenh if name in SETS else exposed
        _, e, o = oracle(rest, set_lenh)
        for total in (e, o):
            if total is not None:
                t = total + exposed
                if t % 2:
                    odd = best(odd, t)
                else:
                    even = best(even, t)
    return even, odd


def oracle_splits(counts: tuple[int, ...]) -> set[tuple[tuple[str, tuple[int, ...]], ...]]:
    """Every split (melds + singles) as a sorted tuple."""
    first = next((k for k, n in enumerate(counts) if n), None)
    if first is None:
        return {()}
    out = set()
    options = [("single", (first,))] + [(n, ks) for n, _, _, ks in TEMPLATES if first in ks]
    for name, ks in options:
        rest = minus(counts, ks)
        if rest is None:
            continue
        if name == "single" and first < 4:
            continue  # a lone Tướng is a meld, never rác
        for s in oracle_splits(rest):
            out.add(tuple(sorted((*s, (name, ks)))))
    return out


def text(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(TuSacCard(k)) for k in cards)


# Hands drawn from a few kinds, so melds (and complete hands) are common.
@st.composite
def hands(draw: st.DrawFn, max_kinds: int = 7, max_cards: int = 22) -> list[int]:
    kinds = draw(st.lists(st.integers(0, 27), min_size=1, max_size=max_kinds, unique=True))
    cards: list[int] = []
    for k in kinds:
        cards += [k] * draw(st.integers(0, 4))
    return cards[:max_cards]


# ---- cards --------------------------------------------------------------------------------


def test_the_deck_has_28_kinds_with_text_and_names() -> None:
    seen = set()
    for i in range(28):
        c = TuSacCard(i)
        assert c.index == i and c.piece in "KAERCHP" and c.colour in "YRGW"
        assert str(c) == c.piece + c.colour
        assert tusac.parse_card(str(c)) == c == tusac.parse_card(c.name)
        assert pickle.loads(pickle.dumps(c)) == c
        seen.add((c.piece, c.colour))
    assert len(seen) == 28


def test_text_forms() -> None:
    assert str(TuSacCard("KR")) == "KR" and TuSacCard("KR").name == "Tướng đỏ"
    assert TuSacCard("PW").name == "Chốt trắng"
    assert tusac.parse_cards("Tướng đỏ, Chốt trắng") == tusac.parse_cards("KR PW")
    assert tusac.parse_cards("kr,pw") == tusac.parse_cards("KRPW") == tusac.parse_cards("KR PW")
    assert [str(c) for c in tusac.parse_cards("Si vang Tuong... ".replace("Tuong... ", ""))] == ["AY"]
    assert [str(c) for c in tusac.parse_cards("chot trang xe do phao xanh ma vang")] == [
        "PW",
        "RR",
        "CG",
        "HY",
    ]
    assert str(tusac.parse_card("Tượng xanh")) == "EG"
    assert str(tusac.parse_card(unicodedata.normalize("NFD", "Tướng đỏ"))) == "KR"
    assert tusac.parse_cards([TuSacCard("KR"), "PW"]) == tusac.parse_cards("KR PW")


@pytest.mark.parametrize(
    ("bad", "token", "position"),
    [
        ("KR ZZ", "ZZ", 3),
        ("KR K", "K", 3),
        ("tuong do", "tuong", 0),
        ("Xe tím", "tím", 3),
        ("KRQQ", "QQ", 2),
        ("Chốt", "Chốt", 0),
    ],
)
def test_invalid_cards_name_token_and_position(bad: str, token: str, position: int) -> None:
    with pytest.raises(InvalidCardError) as e:
        tusac.parse_cards(bad)
    assert (e.value.token, e.value.position) == (token, position)


def test_more_than_four_copies_is_invalid() -> None:
    with pytest.raises(InvalidCardError):
        tusac.min_rac("PW PW PW PW PW")
    with pytest.raises(InvalidCardError) as e:
        tusac.min_rac(["KR", "XX"])
    assert e.value.position == 1


# ---- melds and lệnh (the §5 table) ---------------------------------------------------------


def test_meld_table() -> None:
    assert MELD_LENH == {
        "pair": 0,
        "general": 1,
        "general_set": 1,
        "chariot_set": 1,
        "three_soldiers": 1,
        "four_soldiers": 4,
        "claimed_triple": 1,
        "triple": 3,
        "claimed_quad": 6,
        "quad": 8,
        "single": 0,
    }
    assert TOI == 3


@pytest.mark.parametrize(
    ("cards", "kind", "lenh"),
    [
        ("CG CG", "pair", 0),
        ("KY", "general", 1),
        ("KR AR ER", "general_set", 1),
        ("RW CW HW", "chariot_set", 1),
        ("PY PR PW", "three_soldiers", 1),
        ("PY PR PG PW", "four_soldiers", 4),
        ("HG HG HG", "triple", 3),
        ("AY AY AY AY", "quad", 8),
    ],
)
def test_each_meld(cards: str, kind: str, lenh: int) -> None:
    (split,) = tusac.melds(cards)[:1]
    assert [m.kind for m in split] == [kind] and split[0].lenh == lenh
    assert tusac.min_rac(cards) == 0


def test_lone_general_is_not_rac_but_every_other_single_is() -> None:
    for i in range(28):
        assert tusac.min_rac([TuSacCard(i)]) == (0 if i < 4 else 1)
    assert tusac.min_rac("KR AG") == 1


def test_mixed_colours_make_no_set() -> None:
    assert tusac.min_rac("KR AR EY") == 2  # the lone Tướng stays; Sĩ đỏ and Tượng vàng are rác
    assert tusac.min_rac("RR CR HG") == 3
    assert tusac.min_rac("PY PY PR") == 1  # Chốt sets need different colours


def test_exposed_versus_concealed_values() -> None:
    # khạp 3 in the hand vs 3 con khui 1 when the third is claimed; quằn 8 vs 4 con khui 6
    assert tusac.win_score("HG HG HG PY PR PG KR") == 3 + 1 + 1 + TOI
    assert tusac.win_score("HG HG PY PR PG KR", offer="HG") == 1 + 1 + 1 + TOI
    assert tusac.win_score("HG HG HG HG PY PR PG") == 8 + 1 + TOI
    assert tusac.win_score("HG HG HG PY PR PG", offer="HG") == 6 + 1 + TOI
    # exposed groups: identical cards on the table are claimed (3 con khui / 4 con khui)
    assert tusac.win_score("KR KR", exposed=["HG HG HG"]) == 2 + 1 + TOI
    assert tusac.win_score("KR", exposed=["HG HG HG HG"]) == 1 + 6 + TOI
    quan = Meld("quad", tuple(tusac.parse_cards("AW AW AW AW")))
    assert tusac.win_score("KR", exposed=[quan]) == 1 + 8 + TOI


def test_winning_needs_every_card_in_a_meld() -> None:
    assert not tusac.can_win("KR AR CR", offer="ER")
    assert tusac.can_win("KR AR", offer="ER")
    # three Tướng: three lone Tướng (3) beat a 3 con khui (1)
    assert tusac.win_score("KR KR", offer="KR") == 3 + TOI
    with pytest.raises(InvalidCardError):
        tusac.can_win("KR", exposed=["AY"])
    with pytest.raises(InvalidCardError):
        tusac.can_win("HG HG HG", exposed=["HG HG"])


def test_odd_total_rule() -> None:
    # Melds of 21 cards always total an odd number (each meld's lệnh has its card count's
    # parity), so only smaller, even-sized hands show the rule at work.
    assert tusac.win_score("KR AR", exposed=["PY PR PG"], offer="ER") is None
    assert tusac.win_score("KR AR", exposed=["PY PR PG"], offer="ER", rules=Rules(odd_total="off")) == 2 + TOI
    # the score is the highest total: đôi + Tướng–Sĩ–Tượng (1) or two lone Tướng + the set (3)
    assert tusac.win_score("KY KY KY AY EY") == 3 + TOI


def test_melds_lists_every_min_rac_split_best_first() -> None:
    splits = tusac.melds("KR KR AR AR ER ER")
    totals = [sum(m.lenh for m in s) for s in splits]
    assert totals == sorted(totals, reverse=True) and totals[0] == 2
    assert all(all(m.kind != "single" for m in s) for s in splits)
    assert len(tusac.melds("KR KR AR AR ER ER", limit=1)) == 1


# ---- claims --------------------------------------------------------------------------------


def claims(hand: str, offer: str, entitled: bool = True, **rules: Any) -> set[str]:
    return {str(m) for m in tusac.legal_claims(hand, offer, entitled=entitled, rules=Rules(**rules))}


def test_bai_bung_min_rac_xe_xe_phao_ma() -> None:
    # bung_rule="min_rac": holding Xe Xe Pháo Mã, the third Xe may not be taken with the Xe
    # pair; it may be with one Xe, or with Pháo + Mã.
    got = claims("RR RR CR HR", "RR", bung_rule="min_rac")
    assert got == {"pair[RR RR]", "chariot_set[RR CR HR]"}
    for bung in ("min_rac", "seed"):
        with pytest.raises(IllegalMoveError) as e:
            _core.tusac_check_claim(
                _core.tusac_pack("RR RR CR HR"),
                TuSacCard("RR").index,
                "claimed_triple",
                [TuSacCard("RR").index] * 2,
                True,
                bung,
            )
        assert e.value.reason == "bai_bung"
    # the seed's rule: the doubled Xe may not be claimed at all
    assert claims("RR RR CR HR", "RR") == set()


def test_entitled_seat_may_claim_any_meld() -> None:
    assert claims("KY AY EY PR", "KY") >= {"general[KY]"}
    assert "general_set[KR AR ER]" in claims("KR AR PY", "ER")
    assert "three_soldiers[PY PR PW]" in claims("PY PR AW", "PW")
    assert "pair[CW CW]" in claims("CW AG", "CW")


def test_out_of_turn_only_triple_or_khui() -> None:
    assert claims("CW AG", "CW", entitled=False) == set()
    assert claims("KR AR PY", "ER", entitled=False) == set()
    assert claims("CW CW AG", "CW", entitled=False) == {"claimed_triple[CW CW CW]"}
    assert claims("CW CW CW AG", "CW", entitled=False) == {"claimed_quad[CW CW CW CW]"}


def test_khap_is_never_split_and_khui_is_the_only_claim() -> None:
    # with a khạp of Mã xanh, the fourth goes onto the khạp and nowhere else
    assert claims("HG HG HG RG CG PY", "HG") == {"claimed_quad[HG HG HG HG]"}
    # a khạp's card is not lent to a set either
    assert claims("RG RG RG HG AY", "CG") == set()


def test_complete_sets_are_never_broken_but_three_chot_take_the_fourth() -> None:
    # the pair would break the Tướng–Sĩ–Tượng; re-forming the set is no break
    assert claims("KR AR ER PY", "AR") == {"general_set[KR AR ER]"}
    assert claims("KR AR ER PY", "AR", bung_rule="min_rac") == set()  # one rác more
    assert claims("RW CW HW PY", "HW", bung_rule="min_rac") == set()
    # only the min_rac rule guards a complete Xe–Pháo–Mã (the seed's example breaks it)
    assert claims("RW CW HW PY", "HW") == {"pair[HW HW]", "chariot_set[RW CW HW]"}
    assert "four_soldiers[PY PR PG PW]" in claims("PY PR PG AY", "PW")


def test_mandatory_triple_and_triple_optional() -> None:
    assert claims("KY KY AY", "KY") == {"claimed_triple[KY KY KY]"}
    assert claims("KY KY AY", "KY", triple_optional=True) == {
        "claimed_triple[KY KY KY]",
        "pair[KY KY]",
        "general[KY]",
    }


def test_a_claim_must_leave_a_card_to_discard() -> None:
    assert claims("KR KY", "KR") == set()  # only Tướng would remain
    assert claims("KR KY CY", "KR") == {"pair[KR KR]", "general[KR]"}


def test_rules_validation() -> None:
    assert Rules().to_dict() == {
        "triple_optional": False,
        "forbidden_triple": "other_claims",
        "discard_rule": "penalize",
        "bung_rule": "seed",
        "odd_total": "hand",
        "set_lenh": 1,
        "tuong_as_ty": True,
        "draw_at_stock": 7,
        "payment": "per_lenh",
        "claim_window": "every_seat",
    }
    with pytest.raises(RulesError):
        Rules(discard_rule="forbid")  # type: ignore[arg-type]  # an unknown option value on purpose
    with pytest.raises(RulesError):
        Rules().replace(draw_at_stock=-1)
    with pytest.raises(RulesError):
        Rules().replace(colour=1)
    with pytest.raises(RulesError):
        tusac.melds("KR", rules="south")  # type: ignore[arg-type]  # a preset name for Rules: refused at run time


# ---- differential tests against the oracle -------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(hands(), st.sampled_from([1, 0]))
def test_min_rac_and_complete_totals_match_the_oracle(cards: list[int], set_lenh: int) -> None:
    counts = counts_of(cards)
    rac, even, odd = oracle(counts, set_lenh)
    assert tusac.min_rac(text(cards)) == rac
    assert _core.tusac_complete_lenh(text(cards), None, set_lenh) == (even, odd)
    for odd_total, want in (("hand", odd), ("with_toi", even), ("off", best(even, odd))):
        got = _core.tusac_win_total(text(cards), 0, None, odd_total, set_lenh)
        assert got == (None if want is None else want + TOI)


@settings(max_examples=300, deadline=None)
@given(hands(max_cards=20), st.integers(0, 27), st.integers(0, 9), st.sampled_from([1, 0]))
def test_wins_with_an_offer_match_the_oracle(
    cards: list[int], offer: int, exposed: int, set_lenh: int
) -> None:
    counts = counts_of(cards)
    if counts[offer] == 4:
        return
    even, odd = oracle_with_offer(counts, offer, set_lenh)
    assert _core.tusac_complete_lenh(text(cards), TuSacCard(offer), set_lenh) == (even, odd)
    shifted = [t + exposed for t in (even, odd) if t is not None]
    want_odd = max((t for t in shifted if t % 2), default=None)
    got = _core.tusac_win_total_packed(_core.tusac_pack(text(cards)), exposed, offer, "hand", set_lenh)
    assert got == (None if want_odd is None else want_odd + TOI)
    want_even = max((t for t in shifted if t % 2 == 0), default=None)
    got = _core.tusac_win_total_packed(_core.tusac_pack(text(cards)), exposed, offer, "with_toi", set_lenh)
    assert got == (None if want_even is None else want_even + TOI)
    want_win = oracle_with_offer(counts, offer)[1] is not None
    assert tusac.can_win(text(cards), offer=TuSacCard(offer)) == want_win


@settings(max_examples=150, deadline=None)
@given(hands(max_kinds=5, max_cards=10))
def test_melds_lists_exactly_the_oracle_min_rac_splits(cards: list[int]) -> None:
    counts = counts_of(cards)
    rac = oracle(counts)[0]
    want = {s for s in oracle_splits(counts) if sum(n == "single" for n, _ in s) == rac}
    got = {
        tuple(sorted((m.kind, tuple(c.index for c in m.cards)) for m in split))
        for split in tusac.melds(text(cards))
    }
    assert got == want
    assert len(tusac.melds(text(cards))) == len(want)


@settings(max_examples=200, deadline=None)
@given(hands(max_kinds=9, max_cards=32))
def test_complete_totals_have_the_parity_of_the_card_count(cards: list[int]) -> None:
    # Why odd_total = "hand" is read before tới: see Rules.
    _, even, odd = oracle(counts_of(cards))
    if len(cards) % 2:
        assert even is None
    else:
        assert odd is None


@settings(max_examples=200, deadline=None)
@given(hands(max_cards=20), st.integers(0, 27), st.booleans(), st.sampled_from(["seed", "min_rac", "off"]))
def test_claims_follow_the_rules(cards: list[int], offer: int, entitled: bool, bung: str) -> None:
    counts = counts_of(cards)
    if counts[offer] == 4:
        return
    packed = _core.tusac_pack(text(cards))
    base = oracle(counts)[0]
    # Seed bài bụng: Xe, Pháo, Mã of the offer's colour held, exactly one of them twice.
    piece, colour = divmod(offer, 4)
    trio = [counts[p * 4 + colour] for p in (3, 4, 5)]
    bung_hand = piece in (3, 4, 5) and min(trio) >= 1 and sum(trio) == 4
    for meld, used in _core.tusac_legal_claims(packed, offer, entitled, True, bung):
        rest = minus(counts, tuple(used))
        assert rest is not None
        assert entitled or meld in ("claimed_triple", "claimed_quad")
        if meld != "claimed_quad":
            if bung == "min_rac":
                assert oracle(rest)[0] <= base  # bài bụng
            if bung == "seed" and bung_hand:
                assert trio[piece - 3] == 1 and meld == "pair"
            assert all(counts[k] < 3 for k in used)  # a khạp is never split
        assert any(rest[k] for k in range(4, 28))  # something to discard
        shape = _core.tusac_classify([TuSacCard(k) for k in [*list(used), offer]])
        assert shape is not None  # a claim is a meld
        assert {"triple": "claimed_triple", "quad": "claimed_quad"}.get(shape, shape) == meld
