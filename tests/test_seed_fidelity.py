"""Seed fidelity: every default follows the seed documents (the original Vietnamese rules, quoted
in each test), and every behaviour the engine had before stays reachable as a named option.

Each rule is played as a concrete position through the public API; each option has a test of its
own; snapshots written before these options existed restore with their own rules."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from support.shedding_positions import SOUTH, act, dealt, led, setup, table
from support.tusac_positions import build, play
from vncards import IllegalMoveError, RulesError, SnapshotError, maubinh, samloc, tienlen, tusac
from vncards.table import TableGame

# ---- 1. Tiến Lên Nam: a seat that passes is out of the round ---------------------------------

FOUR_PAIR_SEQUENCE = "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣ J♥ 3♦"
QUAD = "8♠ 8♣ 8♦ 8♥ 3♦"


def pass_then_a_two(rules: tienlen.Rules, bomb: str = FOUR_PAIR_SEQUENCE) -> tienlen.Game:
    """Seat 1 passes early in the round; then seat 2 plays 2♥ and seat 3 passes: seat 1's turn
    comes while the table holds something its bomb could cut."""
    g = setup(["5♥ K♦ 3♣", bomb, "6♦ 2♥ 4♣", "7♦ A♠ 4♦"], rules)
    act(g, "5♥", None, "6♦", "7♦", None, "2♥", None)
    if rules.bomb_after_pass != "none":
        # Under the house rules every seat that passed is asked again, whatever it holds (the
        # turn must not reveal a bomb): seat 0, which holds none, passes again.
        assert g.current_seat == 0 and list(g.legal_plays()) == []
        act(g, None)
    return g


def test_bomb_after_pass_none_is_the_default() -> None:
    """Seed 001: "Trong vòng đánh nếu một người bỏ lượt thì coi như bỏ cả vòng" — a seat that
    passed is out of the whole round, even holding a 4 đôi thông against a 2."""
    assert tienlen.Rules().bomb_after_pass == "none" == tienlen.Rules.south().bomb_after_pass
    g = pass_then_a_two(tienlen.Rules())
    assert g.current_seat == 2 and g.table is None  # seat 1 skipped: seat 2 leads anew
    assert not any(e["type"] == "cut" for e in g.events)


@pytest.mark.parametrize(("mode", "bomb"), [("four_pair_sequence", FOUR_PAIR_SEQUENCE), ("any_bomb", QUAD)])
def test_bomb_after_pass_house_rules(mode: str, bomb: str) -> None:
    g = pass_then_a_two(SOUTH.replace(bomb_after_pass=mode), bomb)
    assert g.current_seat == 1  # back in to cut, or to pass again
    assert g.legal_plays() and all(c.is_bomb for c in g.legal_plays())
    g.play(1, bomb.rsplit(" ", 1)[0])
    assert g.table_seat == 1


def test_four_pair_sequence_house_rule_does_not_let_a_quad_cut() -> None:
    g = pass_then_a_two(SOUTH.replace(bomb_after_pass="four_pair_sequence"), QUAD)
    assert g.current_seat == 1 and list(g.legal_plays()) == []  # asked again: may only pass
    g.pass_turn(1)
    assert g.current_seat == 2 and g.table is None


# ---- 2. Sâm Lốc: not allowed to finish on a 2, a Sâm declarer included ------------------------

SAM_HANDS = [
    "3♣ 3♦ 5♣ 5♦ 7♣ 7♦ 9♣ J♣ K♣ A♣",
    "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 2♠ 2♣ 2♦",
    "4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ Q♠ A♠ 2♥",
    "3♥ 4♥ 5♠ 6♥ 8♣ 10♦ J♦ Q♦ K♦ A♦",
]
STRAIGHT, TWOS = "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦", "2♠ 2♣ 2♦"


def declared(rules: samloc.Rules | None = None) -> samloc.Game:
    """Seat 1 declares Sâm, plays its straight unbeaten and leads again holding three 2s."""
    g = dealt(SAM_HANDS, leader=1, rules=rules)
    g.declare_sam(1)
    act(g, STRAIGHT, None, None, None)
    assert g.current_seat == 1 and g.table is None
    return g


def test_finish_on_two_forbidden_is_the_default_for_every_seat() -> None:
    """Seed 002: "Không được để 2 cuối" — no seat may go out on a 2."""
    assert samloc.Rules().finish_on_two == "forbidden"
    g = table(["2♠ 2♥", "5♠ 6♠ 7♣", "5♦ 6♦", "8♠ 8♣ 9♠"], turn=3)
    act(g, "8♠ 8♣")  # seat 0's pair of 2s would beat it, and empty its hand
    assert g.legal_actions(0) == [{"type": "pass", "seat": 0}]
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(0, "2♠ 2♥")
    assert e.value.reason == "cannot_finish_on_two" and g.to_json() == before


def test_a_sam_declarer_may_not_finish_on_a_two_either() -> None:
    """Seed 002: "Không được để 2 cuối", with no exception for a Sâm declarer."""
    g = declared()
    assert [str(c) for c in g.legal_plays()] == ["2♠", "2♣", "2♦", "2♠ 2♣", "2♠ 2♦", "2♣ 2♦"]
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, TWOS)
    assert e.value.reason == "cannot_finish_on_two" and g.to_json() == before
    g = dealt(SAM_HANDS, leader=1)
    g.declare_sam(1)
    act(g, TWOS, None, None, None, STRAIGHT)  # the 2s first: the Sâm succeeds
    assert g.winner == 1 and led(g) == [(0, 1, 20, "sam"), (2, 1, 20, "sam"), (3, 1, 20, "sam")]


def test_a_declarer_left_with_only_a_two_plays_it_and_is_penalised() -> None:
    g = declared()
    act(g, "2♠ 2♣", None, None, None)  # nothing beats it; the declarer leads its last card
    assert [str(c) for c in g.legal_plays()] == ["2♦"]  # the only legal action: allowed, penalised
    act(g, "2♦")
    assert g.is_over and g.winner is None and not any(e["type"] == "sam_success" for e in g.events)
    assert led(g) == [(1, s, 15, "finish_on_two") for s in (0, 2, 3)]


def test_finish_on_two_penalized_option_binds_the_declarer_too() -> None:
    g = declared(samloc.Rules(finish_on_two="penalized"))
    act(g, TWOS)
    assert g.is_over and g.winner is None
    assert led(g) == [(1, s, 45, "finish_on_two") for s in (0, 2, 3)]


def test_sam_may_finish_on_two_option_restores_the_exemption() -> None:
    g = declared(samloc.Rules(sam_may_finish_on_two=True))
    act(g, TWOS)
    assert g.winner == 1 and led(g) == [(0, 1, 20, "sam"), (2, 1, 20, "sam"), (3, 1, 20, "sam")]


# ---- 3. Sâm Lốc: báo 1 đền làng pays the cards the table holds --------------------------------

BAO_MOT = ["3♣ 9♠ K♦", "5♥", "4♦ 8♦ 2♣", "6♣ 7♦"]  # seat 1 holds one card


def bao_mot_violation(rules: samloc.Rules | None = None) -> samloc.Game:
    g = table(BAO_MOT, turn=0, rules=rules)
    act(g, "3♣")  # not its highest single while seat 1 holds one card
    assert g.events[-1]["type"] == "bao_mot_single" and g.events[-1]["violation"]
    act(g, "5♥")  # seat 1 goes out with its next play
    assert g.is_over and g.winner == 1
    assert any(e["type"] == "bao_mot_violation" for e in g.public_events())
    return g


def test_den_lang_is_the_cards_the_losers_hold() -> None:
    """Seed 002: "nếu đánh lá bài bé hơn để người báo 1 thắng thì sẽ bị phạt báo 1 và đền bằng
    tổng số lá bài của các người chơi nhân tiền cược" — the violator pays, 1 unit per card,
    every card the losers still hold (its own 2 + 3 + 2; the 2♣ counts as one card)."""
    assert samloc.Rules().bao_mot_den == "cards"
    assert led(bao_mot_violation()) == [(0, 1, 2 + 3 + 2, "den_lang")]


def test_den_lang_payments_option() -> None:
    # what every loser would have paid: 2 cards; 2 cards + a 2 at 15; 2 cards
    g = bao_mot_violation(samloc.Rules(bao_mot_den="payments"))
    assert led(g) == [(0, 1, 2 + 17 + 2, "den_lang")]


# ---- 4./5. Mậu Binh: the plain sum, and a straight flush in the back wins 1 -------------------

A = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠")
C = ("3♥ 5♣ 7♥ 9♦ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♦ 7♣")  # loses all three hands to A


def test_scoop_off_is_the_default() -> None:
    """Seed 004: "Kết quả là tổng của những chi thắng - thua với người chơi khác" — the plain
    sum of the hands won and lost: winning all three pays 3, not double."""
    assert maubinh.Rules().scoop is False
    s = maubinh.settle_itemised([A, C])
    assert s.totals == [3, -3] and [e["reason"] for e in s.ledger] == ["back", "middle", "front"]


def test_scoop_and_scoop_all_options() -> None:
    assert maubinh.settle([A, C], maubinh.Rules(scoop=True)) == [6, -6]
    strong = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♥ 9♠ 8♠")
    weak = ("3♠ 5♦ 7♦ 9♣ J♦", "2♦ 4♦ 6♠ 8♣ 10♦", "3♣ 4♠ 6♣")
    assert maubinh.settle([strong, C, weak])[0] == 6
    assert maubinh.settle([strong, C, weak], maubinh.Rules(scoop=True))[0] == 12
    assert maubinh.settle([strong, C, weak], maubinh.Rules(scoop=True, scoop_all=True))[0] == 24


SF_BACK = ("9♠ 10♠ J♠ Q♠ K♠", "A♥ A♦ 5♣ 6♦ 7♦", "2♦ 3♣ 4♣")
SF_LOSER = ("A♠ A♣ 10♦ J♣ Q♥", "K♥ Q♦ 2♠ 3♦ 6♠", "5♠ 6♥ 7♥")


def test_back_straight_flush_wins_one_by_default() -> None:
    """Seed 004's bonus list ("Sám chi cuối … 3", "Cù lũ chi 2 … 2", "Tứ quý chi đầu … 4",
    "Tứ quý chi 2 … 8", "thùng phá sảnh chi 2 … 10") has no straight flush in the back: it
    wins 1 like any back."""
    assert maubinh.Rules().back_straight_flush_units == 1
    s = maubinh.settle_itemised([SF_BACK, SF_LOSER])
    assert {"from": 1, "to": 0, "units": 1, "reason": "back"} in s.ledger


def test_back_straight_flush_units_option() -> None:
    s = maubinh.settle_itemised([SF_BACK, SF_LOSER], maubinh.Rules(back_straight_flush_units=5))
    assert {"from": 1, "to": 0, "units": 5, "reason": "back:straight_flush"} in s.ledger
    for bad in (0, 25, True):
        with pytest.raises(RulesError):
            maubinh.Rules(back_straight_flush_units=bad)


def test_the_model_tables_follow_the_back_straight_flush_units() -> None:
    top = -1  # the strongest back class: a royal straight flush
    assert maubinh.position_tables()["back"][top, 4] == 1.0
    assert maubinh.position_tables(maubinh.Rules(back_straight_flush_units=5))["back"][top, 4] == 5.0


# ---- 6. Tứ Sắc: bài bụng ------------------------------------------------------------------


def claims(game: tusac.Game, seat: int) -> set[tuple[str, tuple[str, ...]]]:
    return {(a["meld"], tuple(a["cards"])) for a in game.legal_actions(seat) if a["type"] == "claim"}


def bung_position(card: str, rules: tusac.Rules | None = None) -> tusac.Game:
    """Seat 1 holds Xe-Pháo-Mã-Mã đỏ; seat 0 discards ``card``; every seat answers."""
    window = tusac.Rules(claim_window="every_seat") if rules is None else rules
    g = build(
        [f"{card} AY AY EW CG", "RR CR HR HR PY PR", "", ""],
        rules=window,
        reserve=card,
        window="every_seat",
    )
    play(g, 0, "discard", card=card)
    return g


def test_bai_bung_seed_rule_is_the_default() -> None:
    """Seed 003: "Nếu người chơi đang có trong tay bộ Xe-Pháo-Mã-Mã mà người chơi đánh con “mã”
    thì người chơi sẽ không còn được ăn mà thay vào đó cần đợi người chơi đánh cặp “xe-pháo”
    thì người chơi mới hoàn toàn có thể ăn để tạo thành cặp"."""
    assert tusac.Rules().bung_rule == "seed"
    g = bung_position("HR")
    assert claims(g, 1) == set() and 1 in g.pending_seats
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        play(g, 1, "claim", meld="pair", cards=["HR"])
    assert e.value.reason == "bai_bung" and g.to_json() == before
    for single in ("RR", "CR"):  # a Xe or a Pháo may be eaten, to make a pair
        g = bung_position(single)
        assert claims(g, 1) == {("pair", (single,))}
        play(g, 1, "claim", cards=[single])
        for seat in (2, 3):  # every seat answers the window (claim_window="every_seat")
            play(g, seat, "pass")
        assert g.exposed(1)[-1].kind == "pair" and g.current_seat == 1


def test_bai_bung_seed_rule_breaks_a_xe_phao_ma_and_spares_a_winning_claim() -> None:
    # the pair of the seed's example breaks the held Xe–Pháo–Mã: allowed
    assert "pair[RR RR]" in {str(m) for m in tusac.legal_claims("RR CR HR HR", "RR")}
    # a claim that wins is not limited: Xe-Pháo-Mã-Mã + Mã = Xe–Pháo–Mã + khui of three Mã
    assert tusac.can_win("RR CR HR HR", offer="HR")


def test_bai_bung_min_rac_option_is_the_old_rule() -> None:
    rules = tusac.Rules(bung_rule="min_rac", claim_window="every_seat")
    g = bung_position("HR", rules)
    assert claims(g, 1) == {("pair", ("HR",)), ("chariot_set", ("RR", "CR"))}
    g = bung_position("RR", rules)
    assert claims(g, 1) == set()  # a complete Xe–Pháo–Mã is never broken under min_rac


def test_bai_bung_off_option() -> None:
    rules = tusac.Rules(bung_rule="off", claim_window="every_seat")
    g = bung_position("HR", rules)
    assert claims(g, 1) == {("claimed_triple", ("HR", "HR"))}  # the triple, mandatory
    free = rules.replace(triple_optional=True)
    assert {m.kind for m in tusac.legal_claims("RR RR CR HR", "RR", rules=free)} == {
        "pair",
        "claimed_triple",
        "chariot_set",
    }


# ---- 7. Tứ Sắc: the odd-lệnh rule ----------------------------------------------------------


def test_odd_total_hand_is_the_default() -> None:
    """Seed 003: "Khi kết thúc ván bài, số lệnh trên tay cần là số lẻ, nếu người chơi kết thúc
    bằng số chẵn thì xem là sai luật" — read on the melds, before tới."""
    r = tusac.Rules()
    assert (r.odd_total, r.set_lenh) == ("hand", 1)
    assert tusac.win_score("KR AR", offer="ER") == 1 + 3  # Tướng–Sĩ–Tượng: odd
    assert tusac.win_score("KR AR", exposed=["PY PR PG"], offer="ER") is None  # 1 + 1: even
    with pytest.raises(RulesError):
        tusac.Rules.from_dict({"odd_total_required": True})  # the old option is gone


def test_odd_total_with_toi_and_off_options() -> None:
    with_toi, off = tusac.Rules(odd_total="with_toi"), tusac.Rules(odd_total="off")
    assert tusac.win_score("KR AR", offer="ER", rules=with_toi) is None  # 1 + 3 = 4: even
    assert tusac.win_score("KR AR", exposed=["PY PR PG"], offer="ER", rules=with_toi) == 5
    assert tusac.win_score("KR AR", offer="ER", rules=off) == 4
    assert tusac.win_score("KR AR", exposed=["PY PR PG"], offer="ER", rules=off) == 5


def test_with_toi_makes_every_real_hand_unwinnable() -> None:
    """With three-card sets at 1 lệnh every meld has its card count's parity, so a 21-card win
    totals odd + tới = even: counted with tới, nobody ever wins (the reason for the default)."""
    for seed in range(3):
        g = tusac.Game(players=4, rules=tusac.Rules(odd_total="with_toi"), seed=seed)
        while not g.is_over:
            g.auto_play(g.pending_seats[0])
        assert g.result is not None and g.result["draw"]


def test_set_lenh_option() -> None:
    """Seed 003's lệnh table lists "Đôi: Không lệnh", "Tướng: 1", "3 con khui: 1", "4 con khui:
    6", "Khạp: 3", "Quằn: 8", "Bốn chốt khác màu: 4", "Tới: 3" — no three-card set. Read
    literally (``set_lenh=0``) a set is worth 0."""
    literal = tusac.Rules(set_lenh=0)
    assert literal.lenh("general_set") == literal.lenh("chariot_set") == literal.lenh("three_soldiers") == 0
    assert tusac.win_score("KR AR", offer="ER", rules=literal) is None  # 0 lệnh: even
    assert tusac.win_score("KR AR", offer="ER", rules=literal.replace(odd_total="off")) == 3
    assert tusac.win_score("KY AR", offer="KY", rules=literal) is None  # Tướng pair 0 + rác
    assert tusac.win_score("HY HY", offer="HY", rules=literal) == 1 + 3  # 3 con khui
    with pytest.raises(RulesError):
        tusac.Rules(set_lenh=2)


# ---- 8. Tứ Sắc: a Tướng may be the tỳ ---------------------------------------------------------


def opening(rules: tusac.Rules | None = None) -> tusac.Game:
    return build(["KR AY PY", "", "", ""], rules=rules, opening=True)


def test_tuong_as_ty_is_the_default() -> None:
    """Seed 003: "Người chơi cái sẽ chọn một lá bài bất kể trên tay xuống bàn. Lá bài thứ nhất
    này mang phương pháp gọi tên là Tỳ" — the dealer opens with any card, a Tướng too."""
    assert tusac.Rules().tuong_as_ty
    g = opening()
    assert {"type": "discard", "seat": 0, "card": "KR"} in g.legal_actions(0)
    play(g, 0, "discard", card="KR")
    assert g.offer is not None and str(g.offer["card"]) == "KR"


def test_a_tuong_is_never_discarded_after_the_ty() -> None:
    g = build(["KR AY PY", "", "", ""])  # a later discard, not the opening
    assert "KR" not in {a.get("card") for a in g.legal_actions(0)}
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "discard", card="KR")
    assert e.value.reason == "general_not_discarded" and g.to_json() == before


def test_tuong_as_ty_off_option() -> None:
    g = opening(tusac.Rules(tuong_as_ty=False))
    assert "KR" not in {a.get("card") for a in g.legal_actions(0)}
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "discard", card="KR")
    assert e.value.reason == "general_not_discarded"


# ---- snapshots written before these options ----------------------------------------------------
# Literal snapshots as the engine wrote them before the seed reading (old rules dicts).

OLD_TIENLEN = '{"format":"vncards","game":"tienlen","version":1,"players":4,"rules":{"ending":"first_out","scoring":"count","first_lead":"three_of_spades","bomb_after_pass":"four_pair_sequence","quad_beats_pair_of_twos":true,"ket_3_bich":true,"finish_on_two":"allowed","thoi_to":"above","same_colour_instant_win":false,"first_hand_extras":false,"single_follows_suit":false,"triple_follows_suits":false,"same_colour_pairs":false,"same_suit_straights":false,"pair_sequences":true},"rng":{"key":"0b00000000000000000000000000000000000000000000000000000000000000","position":51},"events":[{"type":"deal","hand_number":1,"counts":[13,13,13,13]},{"type":"lead","seat":2,"must_include":"3♠"},{"type":"play","seat":2,"combo":"single","cards":"3♠"},{"type":"play","seat":3,"combo":"single","cards":"3♣"},{"type":"play","seat":0,"combo":"single","cards":"4♣"}],"actions":[{"type":"play","seat":2,"cards":"3♠"},{"type":"play","seat":3,"cards":"3♣"},{"type":"play","seat":0,"cards":"4♣"}],"ledger":[],"state":{"hand_number":1,"first_rule":true,"hands":[915385043927040,1272273700914452,61598430148616,2254342452380352],"played":[32,0,1,2],"dealt":4503599627370495,"turn":1,"table":32,"table_seat":0,"passed":0,"round_seats":13,"must":0,"out":0,"order":[],"cong":[],"chain":null,"over":false,"winner":null,"next_first":true,"hand_start":0}}'
OLD_SAMLOC = '{"format":"vncards","game":"samloc","version":1,"players":4,"rules":{"low_straights":false,"quad_beats_pair_of_twos":false,"sam_block_pays":"blocker","bao_mot_scope":"all","bao_mot_mode":"penalize","finish_on_two":"penalized"},"rng":{"key":"0000000000000000000000000000000000000000000000000000000000000000","position":52},"events":[{"type":"deal","hand_number":1,"counts":[10,10,10,10]}],"actions":[],"ledger":[],"state":{"hand_number":1,"first_rule":true,"hands":[3949727221547152,141321623962633,284911223263744,4492612110336],"played":[0,0,0,0],"dealt":4380452680883865,"turn":2,"table":null,"table_seat":-1,"passed":0,"round_seats":0,"must":0,"out":0,"order":[],"cong":[],"chain":null,"over":false,"winner":null,"next_first":true,"hand_start":0,"samloc":{"nominal":2,"sam_phase":true,"declined":0,"declarer":null,"violations":[]}}}'
OLD_MAUBINH = '{"format":"vncards","game":"maubinh","version":1,"players":3,"rules":{"wheel":"second","scoop":true,"scoop_all":false,"time_limit":45},"rng":{"key":"0500000000000000000000000000000000000000000000000000000000000000","position":51},"events":[{"type":"deal","players":3,"time_limit":45},{"type":"arranged","seat":0},{"type":"confirmed","seat":0}],"actions":[{"type":"arrange","seat":0,"back":"3♣ 8♣ 9♠ 9♥ 2♣","middle":"6♦ 7♠ 7♦ 10♠ J♦","front":"4♠ 4♥ A♥"},{"type":"confirm","seat":0}],"ledger":[],"state":{"hands":[703705043517586,2533549737129001,1182538181640516],"arrangements":[[562950106513410,17448648704,140737488355472],null,null],"confirmed":[true,false,false],"forfeited":[false,false,false]}}'
OLD_TUSAC = '{"format":"vncards","game":"tusac","version":1,"players":4,"rules":{"triple_optional":false,"discard_rule":"penalize","odd_total_required":true,"draw_at_stock":7,"payment":"per_lenh","claim_window":"every_seat"},"rng":{"key":"0300000000000000000000000000000000000000000000000000000000000000","position":111},"events":[{"type":"deal","dealer":0,"counts":[21,20,20,20],"stock":31}],"actions":[],"ledger":[],"state":{"dealer":0,"phase":"discard","hands":["KW AY AR AG AW AW AW EY ER EW RW CY CR CG HR HW PY PR PR PG PW","KR KG KG AG AG EY EY RY RY RR RG RW CY CR CG HR HW PR PG PW","KY KR KR KG AR AR AG RY RG RG RW RW CR CR HY HR HG PY PY PG","KY KY KR EY ER ER ER EG EW RR RG CY CG CW CW HY HY HR HG HW"],"exposed":[[],[],[],[]],"stock":["KY","RR","PR","CW","HY","HW","EW","AW","CY","KW","AR","EG","AY","HG","EG","PW","CG","KW","PY","KG","RY","HG","PW","RR","EG","PG","AY","KW","CW","EW","AY"],"dead":[],"offer":null,"to_discard":0,"opening":true,"responses":[null,null,null,null],"result":null}}'


def test_old_tienlen_snapshot_keeps_its_stored_bomb_after_pass() -> None:
    g = tienlen.Game.from_json(OLD_TIENLEN)
    assert g.rules.bomb_after_pass == "four_pair_sequence"
    assert json.loads(g.to_json())["rules"] == json.loads(OLD_TIENLEN)["rules"]


def test_old_samloc_snapshot_keeps_the_old_den_lang_and_declarer_exemption() -> None:
    g = samloc.Game.from_json(OLD_SAMLOC)
    r = g.rules
    assert (r.finish_on_two, r.bao_mot_den, r.sam_may_finish_on_two) == ("penalized", "payments", True)


def test_old_maubinh_snapshot_keeps_its_scoop_and_back_straight_flush_bonus() -> None:
    g = maubinh.Game.from_json(OLD_MAUBINH)
    assert (g.rules.scoop, g.rules.back_straight_flush_units) == (True, 5)


def test_old_tusac_snapshot_keeps_the_old_rules() -> None:
    g = tusac.Game.from_json(OLD_TUSAC)
    r = g.rules
    assert (r.odd_total, r.set_lenh, r.bung_rule, r.tuong_as_ty) == ("hand", 1, "min_rac", False)
    # the dealer holds KW at the opening: under its own rules it may not be the tỳ
    assert "KW" not in {a["card"] for a in g.legal_actions(0) if a["type"] == "discard"}
    old = json.loads(OLD_TUSAC)
    old["rules"]["odd_total_required"] = False
    assert tusac.Game.from_dict(old).rules.odd_total == "off"


@pytest.mark.parametrize(
    ("game", "text", "edit"),
    [
        (tienlen.Game, OLD_TIENLEN, lambda r: r.pop("bomb_after_pass")),
        (samloc.Game, OLD_SAMLOC, lambda r: r.update(bao_mot_den="cards")),
        (maubinh.Game, OLD_MAUBINH, lambda r: r.pop("scoop")),
        (tusac.Game, OLD_TUSAC, lambda r: r.update(tuong_as_ty=True)),
        (tusac.Game, OLD_TUSAC, lambda r: r.update(odd_total_required="yes")),
        (tusac.Game, OLD_TUSAC, lambda r: r.pop("odd_total_required")),
    ],
)
def test_snapshot_rules_that_cannot_be_restored_exactly_are_refused(
    game: type[TableGame], text: str, edit: Callable[[dict[str, Any]], object]
) -> None:
    d = json.loads(text)
    edit(d["rules"])
    with pytest.raises(SnapshotError) as e:
        game.from_dict(d)
    assert "rules" in str(e.value)


def test_core_refuses_out_of_range_new_options() -> None:
    from vncards import _core

    for units in (0, 25, 300):
        with pytest.raises(RulesError):
            _core.MauBinhRules(back_straight_flush_units=units)
    for set_lenh in (-1, 2, 300):
        with pytest.raises(RulesError):
            _core.tusac_win_total("KR AR", 0, "ER", "hand", set_lenh)
    with pytest.raises(RulesError):
        _core.tusac_win_total("KR AR", 0, "ER", "odd", 1)
    with pytest.raises(RulesError):
        _core.tusac_legal_claims(_core.tusac_pack("RR CR"), 12, True, False, "strict")
