"""Tứ Sắc game flow (rules: docs/rules/tusac.md): deal, tỳ, offers, claim windows, settlement, snapshots."""

from __future__ import annotations

import json
import random
from collections import Counter
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import tusac_positions
from support.actions import open_actions
from support.ledger import net_totals
from support.tusac_positions import CODES, kinds, play
from vncards import IllegalMoveError, RulesError, SnapshotError, tusac
from vncards.tusac import Game, Rules

# Fillers take the Tướng and Chốt last here: they interact most.
build = partial(tusac_positions.build, filler=tusac_positions.FILLER_ORDER_KP)


def acts(game: Game, seat: int) -> list[dict[str, Any]]:
    return game.legal_actions(seat)


def fingerprint(game: Game) -> str:
    return game.to_json()


# ---- deal -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_dealer_21_others_20(players: int) -> None:
    g = Game(players=players, seed=1, dealer=players - 1)
    for s in range(players):
        held = len(g.hand(s)) + sum(len(m.cards) for m in g.exposed(s))
        assert held == (21 if s == players - 1 else 20)
    assert g.stock_count == 112 - 21 - 20 * (players - 1)
    assert g.pending_seats == [players - 1] and g.current_seat == players - 1
    assert g.events[0]["type"] == "deal"


def test_dealt_quan_is_laid_face_up_and_scores_as_concealed() -> None:
    seed = next(s for s in range(2000) if any(e["type"] == "quan" for e in Game(seed=s).events))
    g = Game(seed=seed)
    e = next(e for e in g.events if e["type"] == "quan")
    melds = g.exposed(e["seat"])
    assert [str(m) for m in melds if m.kind == "quad"]
    assert all(m.lenh == 8 for m in melds if m.kind == "quad")
    assert all(Counter(map(str, g.hand(s))).most_common(1)[0][1] < 4 for s in range(4))
    assert g.view((e["seat"] + 1) % 4)["exposed"][e["seat"]]


def test_invalid_tables() -> None:
    with pytest.raises(RulesError):
        Game(players=5)
    with pytest.raises(RulesError):
        Game(players=2, dealer=2)
    with pytest.raises(RulesError):
        Game(rules=tusac.Rules().replace(payment="flat"), players=1)


# ---- the tỳ, discards and Tướng -----------------------------------------------------------


def test_tuong_is_never_discarded() -> None:
    g = build(["KR AY PY", "", "", ""])
    assert "KR" not in {a["card"] for a in acts(g, 0)}
    before = fingerprint(g)
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "discard", card="KR")
    assert e.value.reason == "general_not_discarded" and fingerprint(g) == before


def test_only_the_seat_to_discard_discards() -> None:
    g = build(["AY", "", "", ""])
    with pytest.raises(IllegalMoveError) as e:
        play(g, 1, "discard", card=str(g.hand(1)[0]))
    assert e.value.reason == "not_your_turn"
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "discard", card="PW")
    assert e.value.reason == "cards_not_in_hand"
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "pass")
    assert e.value.reason == "no_offer"


def test_dealer_may_win_with_the_dealt_21_cards() -> None:
    g = build(["KR AR ER", "", ""], opening=True)
    assert {"type": "win", "seat": 0} in acts(g, 0)
    play(g, 0, "win")
    assert g.is_over and g.result is not None and g.result["winner"] == 0
    score = g.result["score"]
    assert score >= 1 + 3 and g.settlement == [2 * score, -score, -score]


def test_turned_up_tuong_must_be_claimed_by_the_turner() -> None:
    # seat 0 discards Sĩ vàng; nobody can use it, so seat 1 turns up Tướng xanh
    g = build(["AY EW CG", "AG EG PY PY", "", ""], stock_top="KG", reserve="AY")
    play(g, 0, "discard", card="AY")
    assert g.offer is not None and str(g.offer["card"]) == "KG" and g.offer["source"] == "stock"
    assert g.offer["entitled"] == 1 and g.pending_seats == [1]
    options = kinds(acts(g, 1))
    assert "pass" not in options and {"claim:general", "claim:general_set"} <= options
    with pytest.raises(IllegalMoveError) as e:
        play(g, 1, "pass")
    assert e.value.reason == "must_claim"
    play(g, 1, "claim", meld="general_set", cards=["AG", "EG"])
    assert g.current_seat == 1 and [m.kind for m in g.exposed(1)] == ["general_set"]


# ---- claims, priority, mandatory claims -----------------------------------------------------


def test_claim_priority_win_over_triple_over_entitled_pair() -> None:
    # seat 0 discards Pháo đỏ: seat 1 (entitled) can pair it, seat 2 can make a triple,
    # seat 3 wins with it (Xe–Pháo–Mã đỏ)
    hands = ["CR AY AY EW CG", "CR PY", "CR CR PG EG", "RR HR"]
    g = build(hands)
    play(g, 0, "discard", card="CR")
    assert set(g.pending_seats) == {1, 2, 3}
    assert "claim:pair" in kinds(acts(g, 1)) and "claim:claimed_triple" in kinds(acts(g, 2))
    assert "win" in kinds(acts(g, 3))
    play(g, 1, "claim", meld="pair", cards=["CR"])
    play(g, 2, "claim", meld="claimed_triple", cards=["CR", "CR"])
    g = Game.from_json(g.to_json())  # a snapshot in the middle of a claim window
    assert g.pending_seats == [3]
    play(g, 3, "win")
    assert g.result is not None and g.result["winner"] == 3


def test_triple_beats_the_entitled_seats_claim_and_nobody_waits_in_vain() -> None:
    hands = ["CR AY AY EW CG", "CR PY", "CR CR PG EG", ""]
    g = build(hands)
    play(g, 0, "discard", card="CR")
    assert set(g.pending_seats) == {1, 2}
    play(g, 2, "claim", cards="CR CR")  # meld follows from the cards
    assert g.pending_seats == [2] and g.current_seat == 2
    assert g.exposed(2)[-1].kind == "claimed_triple"
    assert g.events[-1]["type"] == "claim" and g.events[-1]["seat"] == 2


def test_between_equal_wins_the_nearest_seat_after_the_discarder_wins() -> None:
    hands = ["HR AY AY EW CG", "PY PR", "RR CR", "RR CR"]
    g = build(hands, reserve="HR")
    play(g, 0, "discard", card="HR")
    assert set(g.pending_seats) == {2, 3}
    play(g, 3, "win")
    assert g.pending_seats == [2]
    play(g, 2, "win")
    assert g.result is not None and g.result["winner"] == 2


def test_out_of_turn_seat_may_not_make_the_entitled_melds() -> None:
    hands = ["CR AY AY EW CG", "PY PR", "RR HR PG EG", ""]
    g = build(hands, reserve="CR")
    play(g, 0, "discard", card="CR")
    assert 2 not in g.pending_seats
    with pytest.raises(IllegalMoveError) as e:
        play(g, 2, "claim", cards=["RR", "HR"])
    assert e.value.reason == "not_your_turn"


def test_bai_bung_min_rac_in_a_game() -> None:
    # bung_rule="min_rac": Xe Xe Pháo Mã: the third Xe only with one Xe or with Pháo + Mã
    g = build(["RR AY AY EW CG", "RR RR CR HR PY PR", "", ""], rules=Rules(bung_rule="min_rac"))
    play(g, 0, "discard", card="RR")
    claims = {(a["meld"], tuple(a["cards"])) for a in acts(g, 1) if a["type"] == "claim"}
    assert claims == {("pair", ("RR",)), ("chariot_set", ("CR", "HR"))}
    before = fingerprint(g)
    with pytest.raises(IllegalMoveError) as e:
        play(g, 1, "claim", meld="claimed_triple", cards=["RR", "RR"])
    assert e.value.reason == "bai_bung" and fingerprint(g) == before
    play(g, 1, "claim", cards=["CR", "HR"])
    assert g.current_seat == 1


def test_khui_is_mandatory_and_keeps_the_khap_whole() -> None:
    g = build(["HG AY AY EW CG", "PY PW", "HG HG HG PR", ""])
    play(g, 0, "discard", card="HG")
    assert acts(g, 2) == [{"type": "claim", "seat": 2, "meld": "claimed_quad", "cards": ["HG", "HG", "HG"]}]
    with pytest.raises(IllegalMoveError) as e:
        play(g, 2, "pass")
    assert e.value.reason == "must_claim"
    play(g, 2, "claim", cards=["HG", "HG", "HG"])
    assert g.exposed(2)[-1].kind == "claimed_quad" and g.exposed(2)[-1].lenh == 6


def test_triple_is_mandatory_unless_triple_optional() -> None:
    for optional in (False, True):
        g = build(["HG AY AY EW CG", "PY PW", "HG HG PR EY", ""], rules=Rules(triple_optional=optional))
        play(g, 0, "discard", card="HG")
        assert ("pass" in kinds(acts(g, 2))) is optional


def test_nobody_claims_so_the_offer_goes_dead_and_the_next_seat_turns_up() -> None:
    g = build(["AY EW CG", "PY PR", "", ""], stock_top="PG", reserve="AY")
    play(g, 0, "discard", card="AY")
    types = [e["type"] for e in g.events]
    assert types[-3:] == ["discard", "dead", "turn_up"]
    assert g.events[-1]["seat"] == 1 and g.offer is not None and g.offer["seat"] == 1
    assert g.pending_seats == [1]
    play(g, 1, "pass")
    # a turned-up card that goes dead: the seat after the turner turns the next one
    assert g.events[-1]["type"] == "turn_up" and g.events[-1]["seat"] == 2


def test_claimer_discards_and_the_turn_passes_after_it() -> None:
    g = build(["HG AY AY EW CG", "HG PY", "", ""], reserve="HG")
    play(g, 0, "discard", card="HG")
    play(g, 1, "claim", cards=["HG"])
    assert g.current_seat == 1
    n = len(g.events)
    play(g, 1, "discard", card="PY")
    after = [(e["type"], e.get("seat")) for e in g.events[n:]]
    assert after[0] == ("discard", 1)
    # the seat after the claimer is entitled to the discard, or turns up when nobody claims it
    assert after[1:3] == [("dead", None), ("turn_up", 2)] or (
        g.offer is not None and g.offer["entitled"] == 2
    )


# ---- discard rule, đền làng, draw, payments -------------------------------------------------


def test_enforce_only_rac_may_be_discarded() -> None:
    g = build(["RW CW HW AY EY", "", ""], rules=Rules(discard_rule="enforce"), reserve="KY")
    assert {a["card"] for a in acts(g, 0)} == {"AY", "EY"}
    with pytest.raises(IllegalMoveError) as e:
        play(g, 0, "discard", card="RW")
    assert e.value.reason == "must_discard_rac"


def test_den_lang_the_discarder_of_a_meld_card_pays_for_the_table() -> None:
    # seat 0 breaks its Xe–Pháo–Mã by discarding Mã trắng; seat 2 wins with it
    hands = ["RW CW HW AY AY", "PY PR", "RW CW", ""]
    g = build(hands, reserve="HW")
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    score = g.result["score"] if g.result else 0
    assert g.result is not None and g.result["den_lang"] == 0
    assert g.settlement == [-3 * score, 0, 3 * score, 0]
    assert Counter(e["reason"] for e in g.ledger) == {"toi": 1, "den_lang": 2}


def test_discarding_a_rac_costs_no_den_lang() -> None:
    hands = ["HW AY AY EW CG", "PY PR", "RW CW", ""]
    g = build(hands, reserve="HW")
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    score = g.result["score"] if g.result else 0
    assert g.settlement == [-score, -score, 3 * score, -score]


def test_flat_payment_doubles_with_a_quad() -> None:
    for unit in (1, 2):
        hands = ["HW AY AY EW CG", "PY PR", "RW CW", ""]
        exposed = [[], [], [("quad", "AG AG AG AG")] if unit == 2 else [], []]
        g = build(hands, exposed=exposed, reserve="HW", rules=Rules(payment="flat"))
        play(g, 0, "discard", card="HW")
        play(g, 2, "win")
        assert g.settlement == [-unit, -unit, 3 * unit, -unit]


def test_per_lenh_payment_is_the_winners_total() -> None:
    g = build(
        ["HW AY AY EW CG", "PY PR", "RW CW KW", ""],
        exposed=[[], [], [("claimed_triple", "EW EW EW")], []],
        reserve="HW",
    )
    play(g, 0, "discard", card="HW")
    play(g, 2, "win")
    # Xe–Pháo–Mã 1 + lone Tướng 1 + 3 con khui 1 + tới 3
    assert g.result is not None and g.result["score"] == 1 + 1 + 1 + 3
    assert g.settlement == [-6, -6, 18, -6]


def test_draw_when_the_stock_is_down_to_draw_at_stock() -> None:
    g = build(["AY EW CG", "PY PR", "", ""], rules=Rules(draw_at_stock=30), stock_top="AY", reserve="KY")
    assert g.stock_count == 31
    play(g, 0, "discard", card="AY")  # dead; seat 1 turns up Sĩ vàng (30 left): dead too
    assert g.result is not None and g.result["draw"] and g.stock_count == 30
    assert [e["type"] for e in g.events][-4:] == ["dead", "turn_up", "dead", "draw"]
    assert g.settlement == [0, 0, 0, 0] and g.ledger == []


# ---- the uniform interface ------------------------------------------------------------------


def test_views_hide_other_hands() -> None:
    g = Game(seed=3)
    for s in range(4):
        v = g.view(s)
        json.dumps(v)
        assert v["hand"] == [str(c) for c in g.hand(s)]
        assert v["hand_counts"] == [len(g.hand(t)) for t in range(4)]
        text = json.dumps({k: x for k, x in v.items() if k not in ("hand", "legal_actions")})
        assert '"hand' not in text.replace('"hand_counts"', "")


def test_unseeded_games_use_the_os_random_source() -> None:
    a, b = Game(), Game()
    assert a.rng_key != b.rng_key
    assert Game(seed=a.rng_key).to_json() == a.to_json()


def test_describe_and_act_seat_check() -> None:
    g = Game(seed=5)
    a = open_actions(g)[0]
    assert g.describe(a).startswith("seat 0 discards ")
    with pytest.raises(IllegalMoveError) as e:
        g.act(1, a)
    assert e.value.reason == "wrong_seat"
    assert g.describe({"type": "pass", "seat": 2}) == "seat 2 passes"


def test_tampered_snapshots_are_rejected() -> None:
    g = Game(seed=9)
    g.auto_play(0)
    good = json.loads(g.to_json())

    def broken(edit: Any) -> None:
        d = json.loads(json.dumps(good))
        edit(d["state"])
        with pytest.raises(SnapshotError):
            Game.from_dict(d)

    broken(lambda s: s["stock"].pop())
    broken(lambda s: s["stock"].__setitem__(0, "KR"))
    broken(lambda s: s.__setitem__("to_discard", 1))
    broken(lambda s: s.__setitem__("phase", "discard"))
    broken(lambda s: s["exposed"][0].append({"meld": "pair", "cards": ["KR", "AR"]}))
    broken(lambda s: s.__setitem__("hands", s["hands"][:3]))
    broken(lambda s: s.__setitem__("offer", None))
    assert Game.from_dict(good).to_json() == g.to_json()


def assert_views_hide_hands(g: Game) -> None:
    for s in range(g.players):
        v = g.view(s)
        assert set(v) == VIEW_KEYS and v["hand"] == [str(c) for c in g.hand(s)]
        assert all(a["seat"] == s for a in v["legal_actions"])
        json.dumps(v)
    assert all("hand" not in e or e["type"] == "win" for e in g.events)


VIEW_KEYS = {
    "game",
    "seat",
    "players",
    "dealer",
    "phase",
    "hand",
    "hand_counts",
    "exposed",
    "exposed_lenh",
    "dead",
    "stock",
    "offer",
    "to_discard",
    "pending_seats",
    "is_over",
    "legal_actions",
    "result",
    "revealed",
    "settlement",
    "seq",
}


def run_random_game(seed: int, rules: Rules, players: int, check_every: int = 0) -> Game:
    rnd = random.Random(seed)
    g = Game(players=players, rules=rules, seed=seed, dealer=seed % players)
    step = 0
    while not g.is_over:
        pending = g.pending_seats
        assert pending
        seat = rnd.choice(pending)
        options = g.legal_actions(seat)
        assert options and all(a["seat"] == seat for a in options)
        if rnd.random() < 0.5:
            g.apply(rnd.choice(options))
        else:
            g.auto_play(seat)
        step += 1
        if check_every and step % check_every == 0:
            assert Game.from_json(g.to_json()).to_json() == g.to_json()
            assert_views_hide_hands(g)
    settlement = g.settlement
    assert settlement is not None and sum(settlement) == 0
    assert net_totals(g.ledger, players) == settlement
    assert open_actions(g) == [] and g.pending_seats == []
    return g


RULE_SETS = [
    Rules(),
    Rules(claim_window="eligible_seats"),
    Rules(discard_rule="enforce", payment="flat"),
    Rules(triple_optional=True, odd_total="off", draw_at_stock=0),
    Rules(claim_window="every_seat", payment="flat"),
    Rules(bung_rule="min_rac", tuong_as_ty=False),
    Rules(bung_rule="off", set_lenh=0, odd_total="hand"),
]


def test_random_complete_games() -> None:
    outcomes: Counter[str] = Counter()
    for i in range(300):
        rules = RULE_SETS[i % len(RULE_SETS)]
        g = run_random_game(i, rules, 2 + i % 3, check_every=25 if i % 10 == 0 else 0)
        assert g.result is not None
        outcomes["draw" if g.result["draw"] else "win"] += 1
        if i % 10 == 0:
            again = Game.replay(g.actions, players=g.players, rules=rules, seed=i, dealer=i % g.players)
            assert again.to_json() == g.to_json()
    assert outcomes["win"] > 0 and outcomes["draw"] > 0


@pytest.mark.slow
def test_ten_thousand_random_games() -> None:
    for i in range(10_000):
        run_random_game(10_000 + i, RULE_SETS[i % len(RULE_SETS)], 2 + i % 3)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 60),
    st.lists(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["discard", "claim", "win", "pass", "draw"]),
                "seat": st.integers(-1, 4),
                "card": st.sampled_from([*CODES, "ZZ", 3]),
                "cards": st.lists(st.sampled_from(CODES), max_size=3),
            }
        ),
        max_size=8,
    ),
)
def test_rejected_actions_change_nothing(seed: int, steps: int, attempts: list[dict[str, Any]]) -> None:
    g = Game(players=4, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.auto_play(g.pending_seats[0])
    for action in attempts:
        before = g.to_json()
        legal = open_actions(g)
        try:
            g.apply(action)
        except IllegalMoveError:
            assert g.to_json() == before
        else:
            stripped = {k: v for k, v in g.actions[-1].items()}
            assert stripped in legal or stripped["type"] == "claim"
        # card conservation: every snapshot restores (it validates 112 cards)
        assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_default_claim_window_asks_every_seat_so_it_reveals_nothing() -> None:
    """docs/rules/index.md: views never reveal hidden cards, so by default every seat but the
    discarder answers each discard, whether or not it could claim."""
    windows = 0
    for seed in range(4):
        g = Game(players=4, seed=seed)
        while not g.is_over:
            seat = g.pending_seats[0]
            action = g.legal_actions(seat)[0]
            g.apply(action)
            if action["type"] == "discard" and not g.is_over and g.offer is not None:
                others = {s for s in range(4) if s != seat}
                assert set(g.view(seat)["pending_seats"]) == others
                windows += 1
    assert windows > 20
