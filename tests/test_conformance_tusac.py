"""Black-box conformance of Tứ Sắc with docs/rules/index.md and tusac.md, line by line, through the public API
only. Exact positions are built through the documented snapshot format (``Game.from_dict``),
which validates them (card conservation, seat counts) like any restored game."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any, Literal

import pytest

from support.tusac_positions import CODES, build, group, options, play
from vncards import InvalidCardError, RulesError, SnapshotError, VncardsError
from vncards.tusac import (
    MELD_LENH,
    TOI,
    Game,
    Meld,
    Rules,
    TuSacCard,
    can_win,
    legal_claims,
    melds,
    min_rac,
    parse_card,
    parse_cards,
    win_score,
)

NO_ODD = Rules(odd_total="off")
MIN_RAC = Rules(bung_rule="min_rac")


def claims(g: Game, seat: int) -> set[tuple[str, tuple[str, ...]]]:
    return {(a["meld"], tuple(a["cards"])) for a in g.legal_actions(seat) if a["type"] == "claim"}


def refused(g: Game, reason: str, seat: int, kind: str, **fields: Any) -> None:
    before = g.to_json()
    with pytest.raises(VncardsError) as e:  # IllegalMoveError, or InvalidCardError for bad text
        play(g, seat, kind, **fields)
    assert getattr(e.value, "reason", None) == reason
    assert g.to_json() == before


def held(g: Game, seat: int) -> int:
    return len(g.hand(seat)) + sum(len(m.cards) for m in g.exposed(seat))


# ---- components ------------------------------------------------------------------------------


def test_112_cards_seven_pieces_four_colours_four_copies() -> None:
    g = Game(players=4, seed=5)
    state = g.to_dict()["state"]
    everything = Counter(" ".join(state["hands"]).split()) + Counter(state["stock"])
    for ex in state["exposed"]:
        for m in ex:
            everything.update(m["cards"])
    assert sum(everything.values()) == 112
    assert everything == Counter({k: 4 for k in CODES})
    assert [str(TuSacCard(i)) for i in range(28)] == CODES


def test_text_forms_letters_and_vietnamese_names() -> None:
    pieces = {"K": "Tướng", "A": "Sĩ", "E": "Tượng", "R": "Xe", "C": "Pháo", "H": "Mã", "P": "Chốt"}
    colours = {"Y": "vàng", "R": "đỏ", "G": "xanh", "W": "trắng"}
    for p, pn in pieces.items():
        for c, cn in colours.items():
            card = parse_card(p + c)
            assert str(card) == p + c and card.name == f"{pn} {cn}"
            assert parse_card(f"{pn} {cn}") == card
    assert str(parse_card("KR")) == "KR" and parse_card("KR").name == "Tướng đỏ"
    assert parse_card("PW").name == "Chốt trắng"
    assert parse_cards("Tướng đỏ, Chốt trắng") == parse_cards("KR PW")
    for bad in ("KX", "ZR", "", "Tướng tím"):
        with pytest.raises(InvalidCardError):
            parse_cards(bad) if bad else parse_card(bad)


def test_copies_are_indistinguishable_a_hand_is_a_multiset() -> None:
    assert parse_card("PW") == parse_card("Chốt trắng")
    assert min_rac("PW PW") == 0 and min_rac("PW PW PW") == 0
    assert min_rac("PW PR PW PR") == 0  # two pairs, whatever order
    with pytest.raises(InvalidCardError):
        min_rac("PW PW PW PW PW")  # only four copies exist


# ---- deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_dealer_21_others_20_rest_is_the_stock(players: int) -> None:
    for dealer in range(players):
        g = Game(players=players, seed=100 + dealer, dealer=dealer)
        assert [held(g, s) for s in range(players)] == [21 if s == dealer else 20 for s in range(players)]
        assert g.stock_count == 112 - 21 - 20 * (players - 1)
        assert g.pending_seats == [dealer] and g.current_seat == dealer
    assert Game(seed=1).players == 4


def test_dealt_quan_is_laid_face_up_and_scores_as_concealed() -> None:
    seed = next(s for s in range(3000) if any(e["type"] == "quan" for e in Game(seed=s).events))
    g = Game(seed=seed)
    quan = next(e for e in g.events if e["type"] == "quan")
    seat, code = quan["seat"], quan["card"]
    shown = [m for m in g.exposed(seat) if m.kind == "quad"]
    assert [str(c) for c in shown[0].cards] == [code] * 4 and shown[0].lenh == 8 == MELD_LENH["quad"]
    assert code not in [str(c) for c in g.hand(seat)]
    other = (seat + 1) % 4
    assert {"meld": "quad", "cards": [code] * 4} in g.view(other)["exposed"][seat]
    # it scores 8 (concealed), not 6 (4 con khui): quằn 8 + Tướng–Sĩ–Tượng 1 + tới
    assert (
        win_score("KR AR", exposed=[Meld("quad", tuple(parse_cards("HG HG HG HG")))], offer="ER")
        == 8 + 1 + TOI
    )


def test_winner_deals_the_next_hand() -> None:
    g = build(["HW AY AY EW CG", "PY PR", "RW CW", ""], reserve="HW", exact=(2,))
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    assert g.result is not None and g.result["winner"] == 2 and g.result["next_dealer"] == 2
    nxt = Game(players=4, seed=3, dealer=g.result["next_dealer"])
    assert held(nxt, 2) == 21 and nxt.current_seat == 2


# ---- melds and lệnh --------------------------------------------------------------------------

MELD_ROWS = [
    ("CG CG", "pair", 0),
    ("KY", "general", 1),
    ("KR AR ER", "general_set", 1),
    ("RW CW HW", "chariot_set", 1),
    ("PY PR PG", "three_soldiers", 1),
    ("PR PG PW", "three_soldiers", 1),
    ("PY PR PG PW", "four_soldiers", 4),
    ("HG HG HG", "triple", 3),
    ("AY AY AY AY", "quad", 8),
]


@pytest.mark.parametrize(("cards", "kind", "lenh"), MELD_ROWS)
def test_each_meld_row_and_its_lenh(cards: str, kind: str, lenh: int) -> None:
    split = melds(cards)[0]
    assert [(m.kind, m.lenh) for m in split] == [(kind, lenh)]
    assert MELD_LENH[kind] == lenh and min_rac(cards) == 0
    assert win_score(cards, rules=NO_ODD) == lenh + TOI


def test_claimed_melds_and_tới() -> None:
    assert TOI == 3
    assert MELD_LENH["claimed_triple"] == 1 and MELD_LENH["claimed_quad"] == 6
    assert win_score("HG HG", offer="HG", rules=NO_ODD) == 1 + TOI  # 3 con khui
    assert win_score("HG HG HG", offer="HG", rules=NO_ODD) == 6 + TOI  # 4 con khui
    assert win_score("KR", exposed=["HG HG HG"], rules=NO_ODD) == 1 + 1 + TOI
    assert win_score("KR", exposed=["HG HG HG HG"], rules=NO_ODD) == 1 + 6 + TOI
    assert win_score("KR AR", offer="ER") == 1 + TOI


def test_rac_every_lone_card_but_tuong() -> None:
    for code in CODES:
        assert min_rac(code) == (0 if code[0] == "K" else 1)
        assert (win_score(code, rules=NO_ODD) is not None) == (code[0] == "K")
    assert min_rac("KR AY") == 1 and min_rac("KR AR EY") == 2  # sets need one colour
    assert min_rac("RR CR HG") == 3 and min_rac("PY PY PR") == 1  # Chốt need different colours
    assert not can_win("KR AR ER PY", rules=NO_ODD)
    assert min_rac("RR RR CR HR") == 1


# ---- winning and the odd total ---------------------------------------------------------------


def test_a_win_needs_every_card_in_a_meld() -> None:
    assert can_win("KY KY KY PY PR PG", offer="PW")  # khạp 3 + 4 Chốt 4 = 7
    assert not can_win("KY KY KY PY PR AY", offer="PW", rules=NO_ODD)


def test_odd_total_reading_parity_before_toi() -> None:
    """Documented reading kept: the meld total (before tới) must be odd; a 21-card hand's melds
    always total odd (every meld's lệnh has the parity of its card count)."""
    assert not can_win("KY KY KY PY PR", offer="PW")  # khạp 3 + 3 Chốt 1 = 4: even
    assert can_win("KY KY KY PY PR", offer="PW", rules=NO_ODD)
    assert win_score("KY KY KY PY PR", offer="PW", rules=NO_ODD) == 4 + TOI
    # 3 con khui 1 + two lone Tướng 2 = 3 (odd) beats pair 0 + 1 = 1: score 3 + tới
    assert win_score("KR KR HG HG", offer="HG") == 3 + TOI
    for cards, _, _ in MELD_ROWS:
        total = win_score(cards, rules=NO_ODD)
        assert total is not None
        assert (win_score(cards) is not None) == ((total - TOI) % 2 == 1)
    g = Game(seed=4)
    for s in range(4):
        for split in melds([*g.hand(s), *(c for m in g.exposed(s) for c in m.cards)])[:3]:
            count = sum(len(m.cards) for m in split)
            assert (
                sum(m.lenh for m in split) % 2 == sum(len(m.cards) for m in split if m.kind != "single") % 2
            )
            assert count == held(g, s)


def test_dealer_may_win_with_the_21_dealt_cards_before_the_ty() -> None:
    g = build(["KR AR ER", "", ""], opening=True, exact=(0,))
    assert {"type": "win", "seat": 0} in g.legal_actions(0)
    play(g, 0, "win")
    assert g.result is not None and g.result["winner"] == 0
    s = g.result["score"]
    assert s == 1 + TOI and g.settlement == [2 * s, -s, -s]  # Tướng–Sĩ–Tượng + 9 pairs + tới
    # §0: the finished game restores from its snapshot
    assert Game.from_json(g.to_json()).to_json() == g.to_json()


# ---- play: the tỳ, the offer, the entitled seat ----------------------------------------------


def test_the_dealer_opens_with_the_ty() -> None:
    g = Game(players=3, seed=21, dealer=1)
    assert g.pending_seats == [1] and g.offer is None
    assert {a["type"] for a in g.legal_actions(1)} <= {"discard", "win"}
    assert g.legal_actions(0) == [] and g.legal_actions(2) == []
    refused(g, "not_your_turn", 0, "discard", card=str(g.hand(0)[-1]))
    card = next(a["card"] for a in g.legal_actions(1) if a["type"] == "discard")
    play(g, 1, "discard", card=card)
    first = next(e for e in g.events if e["type"] == "discard")
    assert first["seat"] == 1 and first["opening"] is True and first["card"] == card


def test_entitled_seat_after_the_discarder_and_the_turner_for_a_turned_card() -> None:
    g = build(["HG HG AY EW CW", "HG PY", "", ""], reserve="HG AY")
    play(g, 0, "discard", card="AY")  # nobody can use Sĩ vàng? seat 1 could not: it goes dead
    assert g.offer is not None and g.offer["source"] == "stock"
    assert g.offer["seat"] == 1 and g.offer["entitled"] == 1  # the next seat turned it up


def test_entitled_seat_may_claim_into_any_meld() -> None:
    assert {str(m) for m in legal_claims("AY KR PY", "AY")} == {"pair[AY AY]"}
    assert {m.kind for m in legal_claims("AR ER PY", "KR")} == {"general", "general_set"}
    assert {m.kind for m in legal_claims("AY", "KY")} == {"general"}  # a lone Tướng
    assert {m.kind for m in legal_claims("CW HW PY", "RW")} == {"chariot_set"}
    assert {m.kind for m in legal_claims("PY PR AW", "PG")} == {"three_soldiers"}
    assert {m.kind for m in legal_claims("PY PR PG AW", "PW", rules=MIN_RAC)} == {"four_soldiers"}
    # without the min-rác rule the three Chốt may also take it into a new 3 Chốt
    assert {m.kind for m in legal_claims("PY PR PG AW", "PW")} == {"four_soldiers", "three_soldiers"}
    assert {m.kind for m in legal_claims("HY HY AY", "HY")} == {"claimed_triple"}
    assert {m.kind for m in legal_claims("HY HY HY AY", "HY")} == {"claimed_quad"}


def test_out_of_turn_only_triple_quad_or_win() -> None:
    for hand, offer in [
        ("AY KR", "AY"),
        ("AR ER", "KR"),
        ("AY", "KY"),
        ("CW HW", "RW"),
        ("PY PR PG AW", "PW"),
    ]:
        assert legal_claims(hand, offer, entitled=False) == []
    assert [m.kind for m in legal_claims("HY HY AY", "HY", entitled=False)] == ["claimed_triple"]
    assert [m.kind for m in legal_claims("HY HY HY AY", "HY", entitled=False)] == ["claimed_quad"]
    # in a game: seat 2 could only make Xe–Pháo–Mã, so it is not asked and may not claim
    g = build(["CR AY AY EW CG", "PY PR", "RR HR PG EG", ""], reserve="CR")
    play(g, 0, "discard", card="CR")
    assert 2 not in g.pending_seats
    refused(g, "not_your_turn", 2, "claim", cards=["RR", "HR"])


def test_priority_win_beats_quad_even_from_a_farther_seat() -> None:
    g = build(["HG AY AY EW CW", "", "HG HG HG CG", "RG CG"], reserve="HG", exact=(3,), rules=MIN_RAC)
    play(g, 0, "discard", card="HG")
    assert set(g.pending_seats) == {2, 3}
    assert options(g, 2) == {"claim:claimed_quad"} and "win" in options(g, 3)
    play(g, 2, "claim", meld="claimed_quad", cards=["HG", "HG", "HG"])
    assert g.pending_seats == [3]
    play(g, 3, "win")
    assert g.result is not None and g.result["winner"] == 3
    assert g.result["score"] == 1 + TOI


def test_priority_quad_beats_the_entitled_seats_set() -> None:
    g = build(["HG AY AY EW CW", "RG CG AR EY", "HG HG HG PY", ""], reserve="HG")
    play(g, 0, "discard", card="HG")
    assert claims(g, 1) == {("chariot_set", ("RG", "CG"))}
    play(g, 1, "claim", meld="chariot_set", cards=["RG", "CG"])
    play(g, 2, "claim", meld="claimed_quad", cards=["HG", "HG", "HG"])
    assert g.current_seat == 2 and g.exposed(2)[-1].kind == "claimed_quad"
    assert g.exposed(1) == [] and len(g.hand(1)) == 20


def test_priority_triple_beats_the_entitled_seats_pair() -> None:
    g = build(["CR AY AY EW CG", "CR PY", "CR CR PG EG", ""])
    play(g, 0, "discard", card="CR")
    assert claims(g, 1) == {("pair", ("CR",))}
    play(g, 1, "claim", meld="pair", cards=["CR"])
    play(g, 2, "claim", meld="claimed_triple", cards=["CR", "CR"])
    assert g.current_seat == 2 and g.exposed(2)[-1].kind == "claimed_triple"


def test_between_equal_claims_the_nearest_seat_after_the_discarder() -> None:
    g = build(["HR AY AY EW CG", "PY PR", "RR CR", "RR CR"], reserve="HR")
    play(g, 0, "discard", card="HR")
    play(g, 3, "win")
    assert g.pending_seats == [2] and not g.is_over  # seat 2 is nearer: it is still asked
    play(g, 2, "win")
    assert g.result is not None and g.result["winner"] == 2
    # seat 1 (nearest) wins too
    g = build(["HR AY AY EW CG", "RR CR", "", "RR CR"], reserve="HR")
    play(g, 0, "discard", card="HR")
    play(g, 1, "win")
    assert g.result is not None and g.result["winner"] == 1


def test_turned_card_priority_reading_turner_is_nearest() -> None:
    """Reading kept: for a turned-up card the turner counts as the nearest seat."""
    g = build(["AY EW CW", "RR CR", "", "RR CR"], stock_top="HR", reserve="AY HR")
    play(g, 0, "discard", card="AY")
    assert g.offer is not None and str(g.offer["card"]) == "HR" and g.offer["seat"] == 1
    assert set(g.pending_seats) == {1, 3}  # seat 3 may win out of turn on a turned card
    play(g, 3, "win")
    play(g, 1, "win")
    assert g.result is not None and g.result["winner"] == 1


def test_claimer_exposes_then_discards_and_the_turn_passes_after_it() -> None:
    g = build(["HG AY AY EW CG", "HG PY", "", ""], reserve="HG")
    play(g, 0, "discard", card="HG")
    play(g, 1, "claim", cards=["HG"])
    assert [str(m) for m in g.exposed(1)] == ["pair[HG HG]"]
    assert g.current_seat == 1 and g.pending_seats == [1] and held(g, 1) == 21
    play(g, 1, "discard", card="PY")
    assert g.offer is not None
    assert (g.offer["source"], g.offer["entitled"]) in {("discard", 2), ("stock", 2)}


def test_nobody_claims_the_offer_goes_dead_and_the_entitled_seat_turns_up() -> None:
    g = build(["AY EW CG", "PY PR", "", ""], stock_top="PG HW", reserve="AY")
    play(g, 0, "discard", card="AY")
    assert [(e["type"], e.get("seat")) for e in g.events[-3:]] == [
        ("discard", 0),
        ("dead", None),
        ("turn_up", 1),
    ]
    assert g.pending_seats == [1] and {"claim:three_soldiers", "pass"} <= options(g, 1)
    play(g, 1, "pass")
    # a turned-up card that goes dead: the seat after the turner turns the next one
    turn = [e for e in g.events if e["type"] == "turn_up"]
    assert turn[1]["seat"] == 2 and turn[1]["card"] == "HW"
    assert g.to_dict()["state"]["dead"][:2] == ["AY", "PG"]


# ---- constraints -----------------------------------------------------------------------------


def test_bai_bung_seed_example_xe_phao_ma_ma() -> None:
    """Seed 003: "Nếu người chơi đang có trong tay bộ Xe-Pháo-Mã-Mã mà người chơi đánh con
    “mã” thì người chơi sẽ không còn được ăn mà thay vào đó cần đợi người chơi đánh cặp
    “xe-pháo” thì người chơi mới hoàn toàn có thể ăn để tạo thành cặp"."""
    assert legal_claims("RR CR HR HR PY HY", "HR") == []
    assert [str(m) for m in legal_claims("RR CR HR HR PY HY", "RR")] == ["pair[RR RR]"]
    assert [str(m) for m in legal_claims("RR CR HR HR PY HY", "CR")] == ["pair[CR CR]"]
    for hand, doubled in (("RR RR CR HR", "RR"), ("RR CR CR HR", "CR")):
        assert legal_claims(hand, doubled) == []
        assert legal_claims(hand, doubled, entitled=False) == []  # not even the triple
    g = build(
        ["HR AY AY EW CG", "RR CR HR HR PY PR", "", ""],
        rules=Rules(claim_window="every_seat"),
        reserve="HR",
        window="every_seat",
    )
    play(g, 0, "discard", card="HR")
    assert claims(g, 1) == set() and 1 in g.pending_seats
    refused(g, "bai_bung", 1, "claim", meld="pair", cards=["HR"])
    refused(g, "bai_bung", 1, "claim", meld="claimed_triple", cards=["HR", "HR"])


def test_bai_bung_min_rac_xe_xe_phao_ma() -> None:
    assert {
        (m.kind, tuple(sorted(str(c) for c in m.cards)))
        for m in legal_claims("RR RR CR HR", "RR", rules=MIN_RAC)
    } == {
        ("pair", ("RR", "RR")),
        ("chariot_set", ("CR", "HR", "RR")),
    }
    g = build(["RR AY AY EW CG", "RR RR CR HR PY PR", "", ""], rules=MIN_RAC)
    play(g, 0, "discard", card="RR")
    assert claims(g, 1) == {("pair", ("RR",)), ("chariot_set", ("CR", "HR"))}
    refused(g, "bai_bung", 1, "claim", meld="claimed_triple", cards=["RR", "RR"])
    play(g, 1, "claim", cards=["CR", "HR"])
    assert g.current_seat == 1


def test_a_khap_is_never_split() -> None:
    assert legal_claims("RG RG RG CG", "HG") == []  # Xe–Pháo–Mã would take a Xe of the khạp
    assert legal_claims("HY HY HY AY", "HY")[0].kind == "claimed_quad"
    assert [m.kind for m in legal_claims("PY PY PY PR", "PG")] == []
    g = build(["HG AY AY EW CW", "RG RG RG CG PY PR", "", ""], reserve="HG")
    play(g, 0, "discard", card="HG")
    assert [e["type"] for e in g.events[:2]] == ["discard", "dead"]  # nobody could claim it


def test_completed_sets_are_never_broken_but_three_chot_take_the_fourth() -> None:
    assert legal_claims("KR AR ER EW", "AR", rules=MIN_RAC) == []
    assert [m.kind for m in legal_claims("KR AR ER EW", "AR")] == ["general_set"]  # no pair
    assert legal_claims("RR CR HR EW", "CR", rules=MIN_RAC) == []
    assert legal_claims("RR CR HR EW", "RR", rules=MIN_RAC) == []  # no pair from the set's Xe
    assert [m.kind for m in legal_claims("PY PR PG AW", "PW", rules=MIN_RAC)] == ["four_soldiers"]


def test_a_completed_xe_phao_ma_may_be_broken_under_the_seed_rule() -> None:
    """The seed's bài bụng example breaks a Xe–Pháo–Mã to make a pair, so only the min_rac
    rule keeps one whole."""
    assert "pair[CR CR]" in {str(m) for m in legal_claims("RR CR HR EW", "CR")}
    assert "pair[RR RR]" in {str(m) for m in legal_claims("RR CR HR EW", "RR", rules=Rules(bung_rule="off"))}


def test_reforming_the_same_set_reading() -> None:
    """Reading kept (src/tusac/claims.rs): taking the offer into the same set with the set's
    other two cards is no break: the held copy stays a lone Tướng / the hand's rác is unchanged."""
    assert {m.kind for m in legal_claims("KR AR ER EW", "KR")} == {"general", "general_set"}


def test_khui_is_mandatory_as_the_khui_or_the_win() -> None:
    """RULES.md: "a seat holding a khạp must take the fourth copy when it is offered: as a
    khui, or, where taking it completes the hand, as the win; it may never pass on it"."""
    g = build(["HG AY AY EW CW", "", "HG HG HG PR", ""], reserve="HG")
    play(g, 0, "discard", card="HG")
    assert options(g, 2) == {"claim:claimed_quad"}
    refused(g, "must_claim", 2, "pass")
    play(g, 2, "claim", cards=["HG", "HG", "HG"])
    assert g.exposed(2)[-1].kind == "claimed_quad" and g.exposed(2)[-1].lenh == 6
    # a seat that wins with the fourth copy may win instead, but not pass
    g = build(["HG AY AY EW CW", "", "HG HG HG PY PR PG", ""], reserve="HG", exact=(2,))
    play(g, 0, "discard", card="HG")
    assert options(g, 2) == {"claim:claimed_quad", "win"}
    refused(g, "must_claim", 2, "pass")
    play(g, 2, "win")
    assert g.result is not None and g.result["winner"] == 2 and g.result["score"] == 6 + 1 + TOI


def test_khui_is_mandatory_when_the_win_is_the_only_way_to_take_it() -> None:
    """Issue 29, item 12: a khạp holder that cannot khui (its other hidden card is a Tướng,
    which is never discarded) but wins with the fourth copy must win: it used to be free to
    pass, and the card went dead."""
    quads = [("quad", f"{k} {k} {k} {k}") for k in ("RY", "CY", "HY", "PW")]
    g = build(
        ["HG AY AY EW CW", "", "HG HG HG KY", ""],
        exposed=[[], [], quads, []],
        reserve="HG",
        exact=(2,),
    )
    play(g, 0, "discard", card="HG")
    assert options(g, 2) == {"win"}
    before = g.to_json()
    refused(g, "must_claim", 2, "pass")
    assert g.to_json() == before
    play(g, 2, "win")
    assert g.result is not None and g.result["winner"] == 2
    # 4 con khui 6 + lone Tướng 1 + four quằn 32 = 39 (odd), and tới
    assert g.result["score"] == 6 + 1 + 4 * 8 + TOI


def test_a_khap_is_never_split_by_a_claim_but_may_be_in_counting_and_winning() -> None:
    """Issue 29, item 13: "a khạp is never split" binds claims only."""
    # A claim: the Tướng–Sĩ–Tượng would take a Tướng of the khạp.
    assert legal_claims("KY KY KY AY PR", "EY") == []
    assert legal_claims("KY KY KY AY PR", "EY", entitled=False) == []
    # Winning: Tướng–Sĩ–Tượng 1 + two lone Tướng 2 = 3, odd; with the khạp whole, the Sĩ and
    # the Tượng would be rác.
    assert can_win("KY KY KY AY", offer="EY") and win_score("KY KY KY AY", offer="EY") == 3 + TOI
    # Counting rác: Xe–Pháo–Mã with one Mã of the khạp, and the other two as a pair.
    assert min_rac("HG HG HG CG RG") == 0
    assert sorted(m.kind for m in melds("HG HG HG CG RG")[0]) == ["chariot_set", "pair"]
    # In a game the win by claiming is offered (no claim is); the seat may pass on it.
    quads = [("quad", f"{k} {k} {k} {k}") for k in ("RW", "PW", "RG", "HR")]
    g = build(
        ["HY AW AW EY CY", "KY KY KY AY", "", ""], exposed=[[], quads, [], []], reserve="EY", exact=(1,)
    )
    play(g, 0, "discard", card="EY")
    assert options(g, 1) == {"win", "pass"}


@pytest.mark.parametrize("bung_rule", ["seed", "min_rac", "off"])
def test_a_forbidden_mandatory_triple_binds_nothing(bung_rule: Literal["seed", "min_rac", "off"]) -> None:
    """Issue 29, item 13: a held pair makes the triple mandatory, but a triple the rules forbid
    (here: it would break a completed Tướng–Sĩ–Tượng) is no claim, so it binds nothing: the
    entitled seat keeps its other claims and may pass; another seat has nothing to claim."""
    rules = Rules(bung_rule=bung_rule)
    assert "claimed_triple" not in {m.kind for m in legal_claims("AR AR KR ER PY", "AR", rules=rules)}
    g = build(["AR HY AW EW CY", "AR AR KR ER HY CW", "", ""], reserve="AR", rules=rules, window="every_seat")
    play(g, 0, "discard", card="AR")
    got = options(g, 1)
    assert "pass" in got and "claim:claimed_triple" not in got and "claim:pair" in got
    play(g, 1, "pass")
    g = build(["AR HY AW EW CY", "", "AR AR KR ER HY CW", ""], reserve="AR", rules=rules, window="every_seat")
    play(g, 0, "discard", card="AR")
    assert options(g, 2) == {"pass"}  # out of turn only the triple could be claimed
    # The alternative reading, as an option: the held pair bars every claim of the card.
    strict = rules.replace(forbidden_triple="no_claim")
    assert legal_claims("AR AR KR ER PY", "AR", rules=strict) == []
    g = build(
        ["AR HY AW EW CY", "AR AR KR ER HY CW", "", ""], reserve="AR", rules=strict, window="every_seat"
    )
    play(g, 0, "discard", card="AR")
    assert options(g, 1) == {"pass"}
    # A legal triple is unaffected, and so is a card of which the seat holds no pair.
    assert [m.kind for m in legal_claims("HG HG PY", "HG", rules=strict)] == ["claimed_triple"]
    assert legal_claims("KR ER PY", "AR", rules=strict) == legal_claims("KR ER PY", "AR", rules=rules)


@pytest.mark.parametrize("optional", [False, True])
def test_the_triple_is_mandatory_unless_triple_optional(optional: bool) -> None:
    g = build(["HG AY AY EW CW", "PY PW", "HG HG PR EY", ""], rules=Rules(triple_optional=optional))
    play(g, 0, "discard", card="HG")
    assert ("pass" in options(g, 2)) is optional
    if not optional:
        refused(g, "must_claim", 2, "pass")
    else:
        play(g, 2, "pass")


def test_tuong_is_never_discarded() -> None:
    for rules in (Rules(), Rules(discard_rule="enforce")):
        g = build(["KR AY PY", "", "", ""], rules=rules)
        assert "KR" not in {a["card"] for a in g.legal_actions(0)}
        refused(g, "general_not_discarded", 0, "discard", card="KR")


def test_turned_up_tuong_must_be_claimed_by_the_turner() -> None:
    g = build(["AY EW CG", "AG EG PY PR", "", ""], stock_top="KG", reserve="AY")
    play(g, 0, "discard", card="AY")
    assert g.offer is not None and str(g.offer["card"]) == "KG" and g.offer["entitled"] == 1
    assert options(g, 1) == {"claim:general", "claim:general_set"}
    refused(g, "must_claim", 1, "pass")
    play(g, 1, "claim", meld="general_set", cards=["AG", "EG"])
    assert [m.kind for m in g.exposed(1)] == ["general_set"] and g.current_seat == 1
    # with no Sĩ + Tượng of its colour, alone
    g = build(["AY EW CG", "", "", ""], stock_top="KG", reserve="AY")
    play(g, 0, "discard", card="AY")
    assert options(g, 1) == {"claim:general"}
    play(g, 1, "claim", meld="general", cards=[])
    assert [str(m) for m in g.exposed(1)] == ["general[KG]"]


# ---- discard rule, đền làng, draw, payment --------------------------------------------------


def test_penalize_discarding_a_meld_card_costs_the_whole_table() -> None:
    g = build(["RW CW HW AY AY", "PY PR", "RW CW", ""], reserve="HW", exact=(2,))
    assert "HW" in {a["card"] for a in g.legal_actions(0)}  # allowed under "penalize"
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    assert g.result is not None and g.result["den_lang"] == 0
    s = g.result["score"]
    assert s == 1 + TOI and g.settlement == [-3 * s, 0, 3 * s, 0]
    assert sorted((e["from"], e["to"], e["units"], e["reason"]) for e in g.ledger) == [
        (0, 2, s, "den_lang"),
        (0, 2, s, "den_lang"),
        (0, 2, s, "toi"),
    ]


def test_penalize_discarding_rac_costs_nothing_extra() -> None:
    g = build(["HW AY AY EW CG", "PY PR", "RW CW", ""], reserve="HW", exact=(2,))
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    s = 1 + TOI
    assert g.result is not None and g.result["den_lang"] is None
    assert g.settlement == [-s, -s, 3 * s, -s]


def test_enforce_only_rac_may_be_discarded_and_no_den_lang() -> None:
    rules = Rules(discard_rule="enforce")
    g = build(["RW CW HW AY EY", "", ""], rules=rules, reserve="KY")
    assert {a["card"] for a in g.legal_actions(0)} == {"AY", "EY"}
    refused(g, "must_discard_rac", 0, "discard", card="RW")
    # a hand without rác may discard any non-Tướng card
    g = build(["RW CW HW AY AY AY KY", "", "RW CW"], rules=rules, reserve="HW", exact=(2,))
    assert "HW" in {a["card"] for a in g.legal_actions(0)}
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    s = g.result["score"] if g.result else 0
    assert g.result is not None and g.result["den_lang"] is None and g.settlement == [-s, -s, 2 * s]


def test_per_lenh_each_loser_pays_the_winners_total() -> None:
    g = build(
        ["HW AY AY EW CG", "PY PR", "RW CW KW", ""],
        exposed=[[], [], [("claimed_triple", "EW EW EW")], []],
        reserve="HW",
        exact=(2,),
    )
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    s = 1 + 1 + 1 + TOI  # Xe–Pháo–Mã, lone Tướng, 3 con khui, tới
    assert g.result is not None and g.result["score"] == s
    assert g.settlement == [-s, -s, 3 * s, -s]
    assert all(e["units"] == s and e["to"] == 2 for e in g.ledger)


@pytest.mark.parametrize(
    ("exposed", "unit"),
    [([], 1), ([("quad", "AG AG AG AG")], 2), ([("claimed_quad", "AG AG AG AG")], 2)],
)
def test_flat_payment_one_doubled_with_a_quad(exposed: list[tuple[str, str]], unit: int) -> None:
    g = build(
        ["HW AY AY EW CG", "PY PR", "RW CW", ""],
        exposed=[[], [], exposed, []],
        reserve="HW",
        rules=Rules(payment="flat"),
        exact=(2,),
    )
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    assert g.settlement == [-unit, -unit, 3 * unit, -unit]


def test_flat_payment_doubles_with_a_concealed_quad() -> None:
    g = build(
        ["KR AR ER", "", ""],
        opening=True,
        rules=Rules(payment="flat"),
        exposed=[[("quad", "HG HG HG HG")], [], []],
    )
    play(g, 0, "win")
    assert g.settlement == [4, -2, -2]


def test_draw_when_the_stock_is_down_to_draw_at_stock() -> None:
    g = build(["AY EW CG", "PY PR", "", ""], rules=Rules(draw_at_stock=30), stock_top="AY", reserve="KY")
    assert g.stock_count == 31
    play(g, 0, "discard", card="AY")
    assert g.is_over and g.result is not None and g.result["draw"] and g.stock_count == 30
    assert g.result["winner"] is None and g.result["next_dealer"] == 0
    assert g.settlement == [0, 0, 0, 0] and g.ledger == []
    assert Rules().draw_at_stock == 7


def test_default_draw_leaves_seven_cards_in_the_stock() -> None:
    for seed in range(6):
        g = Game(players=4, seed=seed)
        while not g.is_over:
            seat = g.pending_seats[0]
            acts = g.legal_actions(seat)
            # pass or discard only: nobody wins, the stock runs down
            pick = (
                next((a for a in acts if a["type"] == "pass"), None)
                or next((a for a in acts if a["type"] == "discard"), None)
                or next(a for a in acts if a["type"] == "claim")
            )
            g.apply(pick)
        if g.result is not None and g.result["draw"]:
            assert g.stock_count == 7
            return
    pytest.fail("no drawn game found")


# ---- the server contract (§0) ----------------------------------------------------------------


def test_illegal_actions_raise_with_reason_and_state_unchanged() -> None:
    g = build(["HG AY AY EW CG KR PW", "HG PY", "", ""], reserve="HG RY")
    refused(g, "not_your_turn", 1, "discard", card=str(g.hand(1)[0]))
    refused(g, "cards_not_in_hand", 0, "discard", card="RY")
    refused(g, "general_not_discarded", 0, "discard", card="KR")
    refused(g, "no_offer", 0, "pass")
    refused(g, "invalid_card", 0, "discard", card="ZZ")
    refused(g, "invalid_seat", 7, "discard", card="AY")
    refused(g, "invalid_action", 0, "dance")
    play(g, 0, "discard", card="HG")
    refused(g, "invalid_combination", 1, "claim", cards=["PY"])
    refused(g, "cards_not_in_hand", 1, "claim", cards=["HG", "HG"])
    refused(g, "cannot_win", 1, "win")
    refused(g, "not_your_turn", 0, "pass")
    play(g, 1, "claim", cards=["HG"])
    g2 = build(["KR AR ER", "", ""], opening=True, exact=(0,))
    play(g2, 0, "win")
    refused(g2, "game_over", 1, "pass")


def test_unseeded_games_use_the_os_csprng() -> None:
    a, b = Game(), Game()
    assert a.rng_key != b.rng_key and a.hand(0) != b.hand(0)
    assert Game(seed=a.rng_key).to_json() == a.to_json()


def test_seed_plus_actions_replays_exactly() -> None:
    g = Game(players=3, seed=77, dealer=2)
    for _ in range(40):
        if g.is_over:
            break
        g.auto_play(g.pending_seats[0])
    again = Game.replay(g.actions, players=3, seed=77, dealer=2)
    assert again.events == g.events and again.ledger == g.ledger and again.to_json() == g.to_json()


def test_snapshots_reject_tampering() -> None:
    g = Game(seed=9)
    g.auto_play(0)
    good = g.to_dict()
    assert Game.from_dict(json.loads(json.dumps(good))).to_json() == g.to_json()

    def rejected(edit: Any) -> None:
        d = json.loads(json.dumps(good))
        edit(d["state"])
        with pytest.raises(SnapshotError):
            Game.from_dict(d)

    def swap_card(s: dict[str, Any]) -> None:  # one card changed into another: 5 of a kind
        h = s["hands"][1].split()
        h[0] = next(c for c in CODES if c != h[0] and c[0] != "K")
        s["hands"][1] = " ".join(h)

    rejected(swap_card)
    rejected(lambda s: s["stock"].pop())  # a card vanished
    rejected(lambda s: s["stock"].append(s["stock"][0]))  # a card added
    rejected(lambda s: s["hands"].__setitem__(2, s["hands"][2] + " " + s["stock"].pop()))  # 21 cards
    rejected(lambda s: s.__setitem__("hands", s["hands"][:3]))  # seat count
    rejected(lambda s: s.__setitem__("to_discard", 3))
    rejected(lambda s: s["exposed"][0].append({"meld": "pair", "cards": ["KR", "AR"]}))


def test_views_show_no_hidden_card_of_another_seat() -> None:
    g = build(["HG AY AY EW CG", "HG PY", "", ""], reserve="HG")
    base = g.to_dict()
    # move a hidden card of seat 2 into the stock and another one back: nothing public changes
    alt = json.loads(json.dumps(base))
    h2 = alt["state"]["hands"][2].split()
    stock = alt["state"]["stock"]
    i = next(i for i, c in enumerate(stock[:-1]) if c != h2[-1] and group(c) != group(h2[-1]))
    h2[-1], stock[i] = stock[i], h2[-1]
    alt["state"]["hands"][2] = " ".join(h2)
    other = Game.from_position(alt)
    for seat in (0, 1, 3):
        assert g.view(seat) == other.view(seat)
    assert g.view(2) != other.view(2)
    v = g.view(1)
    assert v["hand"] == [str(c) for c in g.hand(1)] and v["hand_counts"] == [21, 20, 20, 20]
    assert all(a["seat"] == 1 for a in v["legal_actions"])
    json.dumps(v)


def test_claim_refusals_name_the_rule() -> None:
    rules = Rules(claim_window="every_seat")  # every seat answers, so every refusal is reachable
    g = build(
        ["CG AY AY EW CW", "HG HG HG RG PY PR", "RR CR HR PY", "CG AW"],
        rules=rules,
        reserve="CG",
        window="every_seat",
    )
    play(g, 0, "discard", card="CG")
    assert g.pending_seats == [1, 2, 3]
    refused(g, "splits_khap", 1, "claim", meld="chariot_set", cards=["RG", "HG"])
    refused(g, "not_entitled", 3, "claim", cards=["CG"])
    refused(g, "invalid_combination", 2, "claim", cards=["RR", "HR"])


def test_claim_refusals_breaks_set_and_bai_bung() -> None:
    rules = Rules(claim_window="every_seat", bung_rule="min_rac")
    g = build(["HR AY AY EW CW", "RR CR HR RR", "", ""], rules=rules, reserve="HR", window="every_seat")
    play(g, 0, "discard", card="HR")
    assert claims(g, 1) == set()
    refused(g, "breaks_set", 1, "claim", meld="pair", cards=["HR"])  # same rác, set broken
    refused(g, "bai_bung", 1, "claim", meld="chariot_set", cards=["RR", "CR"])
    assert g.legal_actions(1) == [{"type": "pass", "seat": 1}]


def test_out_of_turn_triple_on_a_turned_card_beats_the_turners_claim() -> None:
    g = build(["AY EW CW", "PY PR", "", "PG PG"], stock_top="PG", reserve="AY PG")
    play(g, 0, "discard", card="AY")
    assert g.offer is not None and str(g.offer["card"]) == "PG" and g.offer["entitled"] == 1
    assert "claim:three_soldiers" in options(g, 1) and "claim:claimed_triple" in options(g, 3)
    play(g, 1, "claim", meld="three_soldiers", cards=["PY", "PR"])
    play(g, 3, "claim", meld="claimed_triple", cards=["PG", "PG"])
    assert g.current_seat == 3 and [m.kind for m in g.exposed(3)] == ["claimed_triple"]
    assert g.exposed(1) == []


def finished(draw: bool, rules: Rules | None = None) -> Game:
    if draw:
        g = build(["AY EW CG", "PY PR", "", ""], rules=Rules(draw_at_stock=30), stock_top="AY", reserve="KY")
        play(g, 0, "discard", card="AY")
    else:
        g = build(["RW CW HW AY AY", "PY PR", "RW CW", ""], reserve="HW", rules=rules, exact=(2,))
        play(g, 0, "discard", card="HW")
        play(g, 2, "win")
    assert g.is_over
    return g


@pytest.mark.parametrize("case", ["win", "den_lang_flat", "draw"])
def test_snapshots_of_finished_games_validate_the_money(case: str) -> None:
    g = finished(case == "draw", Rules(payment="flat") if case == "den_lang_flat" else None)
    good = g.to_dict()
    assert Game.from_dict(json.loads(json.dumps(good))).to_json() == g.to_json()

    def rejected(edit: Any) -> None:
        d = json.loads(json.dumps(good))
        edit(d)
        with pytest.raises(SnapshotError):
            Game.from_dict(d)

    rejected(lambda d: d["ledger"].append({"from": 1, "to": 3, "units": 5, "reason": "toi"}))
    rejected(lambda d: d["state"]["result"].__setitem__("next_dealer", 3))
    if case != "draw":
        rejected(lambda d: d["ledger"].pop())
        rejected(lambda d: d["ledger"][0].__setitem__("units", d["ledger"][0]["units"] + 1))
        rejected(lambda d: d["state"]["result"].__setitem__("score", 99))
        rejected(lambda d: d["state"]["result"].__setitem__("den_lang", None))
    else:
        rejected(lambda d: d["state"]["result"].__setitem__("score", 4))


def test_mid_hand_snapshot_with_payments_is_rejected() -> None:
    g = Game(seed=3)
    g.auto_play(0)
    d = g.to_dict()
    d["ledger"] = [{"from": 0, "to": 1, "units": 5, "reason": "toi"}]
    with pytest.raises(SnapshotError):
        Game.from_dict(d)


def test_rules_defaults_follow_the_rules_file() -> None:
    r = Rules()
    assert (r.triple_optional, r.discard_rule, r.odd_total, r.draw_at_stock, r.payment) == (
        False,
        "penalize",
        "hand",
        7,
        "per_lenh",
    )
    assert (r.bung_rule, r.set_lenh, r.tuong_as_ty) == ("seed", 1, True)
    assert r.replace(payment="flat").payment == "flat" and r.payment == "per_lenh"
    for bad in ({"payment": "x"}, {"discard_rule": "x"}, {"draw_at_stock": -1}, {"nonsense": 1}):
        with pytest.raises(RulesError):
            r.replace(**bad)


def exposed_melds(state: dict[str, Any], seat: int) -> list[Meld]:
    """A snapshot state's exposed melds of ``seat``."""
    return [Meld(m["meld"], tuple(parse_card(c) for c in m["cards"])) for m in state["exposed"][seat]]


def test_random_games_respect_the_claim_rules() -> None:
    """Every claim, discard and dead offer of random games, checked against the rules: no
    Tướng is discarded but as the tỳ (``tuong_as_ty``), out of turn only triples and quads are
    claimed, a khạp holder's fourth copy never goes unclaimed (nor dead) unless someone wins it, a turned-up Tướng the turner could claim is
    never dead, and a draw leaves ``draw_at_stock`` cards."""
    rule_sets = [
        Rules(),
        Rules(discard_rule="enforce", payment="flat", bung_rule="min_rac", tuong_as_ty=False),
        Rules(triple_optional=True, draw_at_stock=0, bung_rule="off", odd_total="off", set_lenh=0),
    ]
    for i in range(120):
        rnd, players, rules = random.Random(i), 2 + i % 3, rule_sets[i % 3]
        g = Game(players=players, rules=rules, seed=i, dealer=i % players)
        while not g.is_over:
            state = g.to_dict()["state"]
            hands = [h.split() for h in state["hands"]]
            offer = state["offer"]
            start = len(g.events)
            seat = rnd.choice(g.pending_seats)
            if rnd.random() < 0.6:
                g.apply(rnd.choice(g.legal_actions(seat)))
            else:
                g.auto_play(seat)
            for e in g.events[start:]:
                if e["type"] == "discard":
                    assert e["card"][0] != "K" or (e["opening"] and rules.tuong_as_ty), (i, e)
                if e["type"] in ("claim", "win", "dead") and offer is not None:
                    k, origin, src = offer["card"], offer["seat"], offer["source"]
                    entitled = (origin + 1) % players if src == "discard" else origin
                    if e["type"] == "claim" and e["seat"] != entitled:
                        assert e["meld"] in ("claimed_triple", "claimed_quad"), (i, e)
                    # Khạp holders that can take the fourth copy, as the khui or as the win.
                    khap = [
                        s
                        for s in range(players)
                        if not (src == "discard" and s == origin)
                        and hands[s].count(k) == 3
                        and (
                            legal_claims(hands[s], k, entitled=s == entitled, rules=rules)
                            or can_win(hands[s], exposed_melds(state, s), offer=k, rules=rules)
                        )
                    ]
                    if khap:
                        assert e["type"] == "win" or e.get("meld") == "claimed_quad", (i, e)
                    if e["type"] == "dead" and src == "stock" and k[0] == "K":
                        assert not legal_claims(hands[entitled], k, rules=rules), (i, e)
                    offer = None
                if e["type"] == "turn_up":
                    offer = {"card": e["card"], "source": "stock", "seat": e["seat"]}
        assert g.result is not None
        if g.result["draw"]:
            assert g.stock_count <= rules.draw_at_stock
        assert sum(g.settlement or []) == 0


@pytest.mark.parametrize(("hand", "card"), [("RW CW HW AY AY", "HW"), ("HW AY AY EW CG", "HW")])
def test_snapshot_offer_penalty_must_match_the_discard(hand: str, card: str) -> None:
    """đền làng is decided by the discard (a meld card, not a rác): a snapshot whose offer says
    otherwise is tampered."""
    g = build([hand, "PY PR", "RW CW", ""], reserve="HW")
    play(g, 0, "discard", card=card)
    d = g.to_dict()
    assert d["state"]["offer"]["penalty"] == (hand.startswith("RW"))
    assert Game.from_dict(json.loads(json.dumps(d))).to_json() == g.to_json()
    d["state"]["offer"]["penalty"] = not d["state"]["offer"]["penalty"]
    with pytest.raises(SnapshotError):
        Game.from_dict(d)
