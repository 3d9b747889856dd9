"""Black-box conformance of Sâm Lốc (docs/rules/index.md and samloc.md) against the public API: every rule
line and example, the full settlement table with exact ledger amounts, and the server contract.

Positions are built the documented way: a seeded game's ``to_dict()`` snapshot with edited
hands, restored by ``Game.from_dict`` (which validates it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

import pytest

from support.shedding_positions import (
    act,
    dealt,
    duplicate_card,
    led,
    move_card,
    passed_turn,
    table,
    wrong_turn,
)
from vncards import IllegalMoveError, SnapshotError
from vncards.samloc import Game, Rules, beats, classify, instant_win, instant_winner, legal_plays

DEFAULT = Rules()


def kind(cards: str, rules: Rules = DEFAULT) -> str | None:
    c = classify(cards, rules)
    return None if c is None else c.kind


# ---- deal, order, combinations --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_ten_cards_each(players: int) -> None:
    g = Game(players, seed=4)
    hands = [g.hand(s) for s in range(players)]
    assert all(len(h) == 10 for h in hands)
    assert len({c for h in hands for c in h}) == 10 * players


def test_two_to_five_players() -> None:
    from vncards import RulesError

    for n in (1, 6):
        with pytest.raises(RulesError):
            Game(n)


@pytest.mark.parametrize(
    ("play", "on", "expected"),
    [
        ("6♠", "5♥", True),
        ("5♥", "5♠", False),  # suits never compare
        ("5♠", "5♥", False),
        ("2♠", "A♥", True),
        ("2♥", "2♠", False),
        ("A♥", "K♠", True),
        ("4♠", "3♥", True),
        ("♠6♦6", "♣5♥5", True),
        ("♠5♦5", "♣5♥5", False),
        ("♠4♣4♦4", "♠3♣3♥3", True),
        ("4♠ 5♦ 6♥", "3♥ 4♣ 5♠", True),
        ("♠4♠5♠6", "♥4♦5♣6", False),
        ("4♠ 5♦ 6♥ 7♣", "3♥ 4♣ 5♠", False),  # same length only
        ("A♠ A♣", "K♠", False),
        ("7♠ 7♣ 7♦ 7♥", "2♥", True),  # tứ quý cuts a single 2
        ("7♠ 7♣ 7♦ 7♥", "2♠ 2♥", False),  # not a pair of 2s by default
        ("8♠ 8♣ 8♦ 8♥", "7♠ 7♣ 7♦ 7♥", True),  # a lower tứ quý
        ("7♠ 7♣ 7♦ 7♥", "8♠ 8♣ 8♦ 8♥", False),
        ("7♠ 7♣ 7♦ 7♥", "2♠ 2♣ 2♦", False),
        ("7♠ 7♣ 7♦ 7♥", "A♥", False),
    ],
)
def test_rank_only_beating_and_bombs(play: str, on: str, expected: bool) -> None:
    assert beats(play, on) is expected


def test_quad_beats_pair_of_twos_option() -> None:
    assert beats("7♠ 7♣ 7♦ 7♥", "2♠ 2♥", Rules(quad_beats_pair_of_twos=True))


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("9♦", "single"),
        ("♠4♦4", "pair"),  # any suits
        ("9♠ 9♦ 9♥", "triple"),
        ("9♠ 9♣ 9♦ 9♥", "four_of_a_kind"),
        ("5♠ 6♦ 7♥", "straight"),
        ("Q♠ K♦ A♥", "straight"),
        ("3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 10♠ J♥ Q♠", "straight"),  # ten cards
        ("3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 10♠ J♥ Q♠ K♣", None),  # more than ten
        ("3♠ 4♦", None),
        ("K♠ A♦ 2♥", None),
        ("A♠ 2♦ 3♥", None),
        ("2♠ 3♦ 4♥", None),
        ("3♠ 3♣ 4♦ 4♥ 5♠ 5♦", None),  # no đôi thông
        ("3♠ 3♣ 4♦", None),
    ],
)
def test_combinations(cards: str, expected: str | None) -> None:
    assert kind(cards) == expected


def test_low_straights_option() -> None:
    low = Rules(low_straights=True)
    assert kind("A♠ 2♦ 3♥", low) == "straight"
    assert kind("2♠ 3♦ 4♥", low) == "straight"
    assert kind("A♠ 2♦ 3♥ 4♣ 5♠", low) == "straight"
    assert kind("K♠ A♦ 2♥", low) is None  # still never
    assert kind("Q♠ K♦ A♥ 2♣", low) is None
    # A counts low before 2: A-2-3 < 2-3-4 < 3-4-5.
    assert beats("2♠ 3♦ 4♥", "A♠ 2♦ 3♥", low)
    assert beats("3♠ 4♦ 5♥", "2♠ 3♦ 4♥", low)
    assert not beats("A♠ 2♦ 3♥", "Q♠ K♦ A♥", low)
    assert not beats("A♠ 2♦ 3♥", "3♠ 4♦ 5♥", low)


# ---- instant wins ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠", "dragon"),  # E
        ("2♠2♣2♦2♥ 3♠5♦7♥9♣J♠K♦", "four_twos"),
        ("4♦4♥5♦5♥6♥8♦10♥J♦K♦A♥", "same_colour"),  # E
        ("4♦4♥4♠6♣6♠6♥J♦J♥J♣A♠", "three_triples"),  # E
        ("4♦4♥7♦7♥9♣9♥10♣10♥Q♣Q♦", "five_pairs"),  # E
        ("4♠4♣4♦4♥ 7♦7♥ 9♣9♥ Q♣Q♦", "five_pairs"),  # a tứ quý counts as two pairs
        ("3♦4♦5♥6♦7♥8♦9♦10♥J♥Q♦", "dragon"),  # dragon over same colour
        ("2♠2♣2♦2♥ 5♠5♣5♦ 9♠9♣9♦", "four_twos"),  # four 2s over three triples
        ("4♦4♥5♦5♥7♦7♥9♦9♥Q♦Q♥", "same_colour"),  # same colour over five pairs
        ("4♦4♥4♠ 6♣6♠6♥ 9♦9♥9♣ J♠", "three_triples"),
        ("4♦4♥7♦7♥9♣9♥10♣10♥Q♣K♦", None),
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥K♠", None),
    ],
)
def test_instant_win_kinds(hand: str, expected: str | None) -> None:
    assert instant_win(hand) == expected


PAIRS_K_A = "3♦3♥5♦5♥6♣6♥8♣8♥K♣K♦"
PAIRS_K_B = "4♦4♥7♦7♥9♣9♥10♣10♥K♠K♥"
PAIRS_Q = "4♠4♣7♠7♣9♠9♦10♠10♦Q♣Q♦"
NOTHING = "3♠4♣6♦7♠8♦10♥J♣Q♥A♦2♣"


def test_instant_winner_ranking() -> None:
    # Stronger kind wins.
    assert instant_winner([PAIRS_K_A, "4♦4♥4♠6♣6♠6♥J♦J♥J♣A♠", NOTHING]) == (1, "three_triples")
    # Same kind: the higher top rank.
    assert instant_winner([PAIRS_Q, PAIRS_K_A, NOTHING]) == (1, "five_pairs")
    # Still equal: the seat nearer the nominal leader in turn order.
    assert instant_winner([PAIRS_K_A, PAIRS_K_B, NOTHING], leader=0) == (0, "five_pairs")
    assert instant_winner([PAIRS_K_A, PAIRS_K_B, NOTHING], leader=1) == (1, "five_pairs")
    assert instant_winner([PAIRS_K_A, PAIRS_K_B, NOTHING], leader=2) == (0, "five_pairs")
    assert instant_winner([NOTHING, NOTHING.replace("2♣", "2♠")]) is None


@pytest.mark.parametrize(("seed", "winner", "win_kind"), [(61, 1, "four_twos"), (4010, 3, "four_twos")])
def test_instant_win_at_the_deal_pays_20_each(seed: int, winner: int, win_kind: str) -> None:
    g = Game(4, seed=seed)  # seed 4010: seat 0 also has five pairs; four 2s is stronger
    assert g.is_over and g.winner == winner and g.phase == "over"
    assert [e["win"] for e in g.events if e["type"] == "instant_win"] == [win_kind]
    assert led(g) == sorted((s, winner, 20, "an_trang") for s in range(4) if s != winner)


# ---- leading and báo Sâm --------------------------------------------------------------------

SAM = "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 2♠ 2♣ 2♦"
HANDS = [
    "3♣ 3♦ 5♣ 5♦ 7♣ 7♦ 9♣ J♣ K♣ A♣",
    SAM,
    "4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ Q♠ A♠ 2♥",
    "3♥ 4♥ 5♠ 6♥ 8♣ 10♦ J♦ Q♦ K♦ A♦",
]


def test_declarations_in_turn_from_nominal_leader_then_nominal_leader_leads() -> None:
    g = dealt(HANDS, leader=2)
    assert g.phase == "bao_sam" and g.current_seat == 2
    for seat in (2, 3, 0, 1):
        assert g.current_seat == seat
        g.decline_sam(seat)
    assert g.phase == "play" and g.current_seat == 2 and g.sam_declarer is None


def test_only_the_first_declarer_counts_and_leads() -> None:
    g = dealt(HANDS, leader=0)
    g.decline_sam(0)
    g.declare_sam(1)
    assert g.phase == "play" and g.sam_declarer == 1 and g.current_seat == 1
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.declare_sam(2)
    assert g.to_json() == before and e.value.reason in ("not_declaring", "not_your_turn")


def test_sam_success_each_pays_20_and_nothing_else() -> None:
    g = dealt(HANDS, leader=1)
    g.declare_sam(1)
    act(g, "2♠ 2♣ 2♦", None, None, None)
    assert g.current_seat == 1 and g.table is None  # the declarer leads every round
    act(g, "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦")
    assert g.is_over and g.winner == 1
    assert led(g) == [(0, 1, 20, "sam"), (2, 1, 20, "sam"), (3, 1, 20, "sam")]


def test_sam_declarer_may_finish_on_two_only_by_the_house_rule() -> None:
    g = dealt(HANDS, leader=1)
    g.declare_sam(1)
    act(g, "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦", None, None, None)
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "2♠ 2♣ 2♦")  # "Không được để 2 cuối": a declarer too
    assert e.value.reason == "cannot_finish_on_two" and g.to_json() == before
    g = dealt(HANDS, leader=1, rules=Rules(sam_may_finish_on_two=True))
    g.declare_sam(1)
    act(g, "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦", None, None, None)
    act(g, "2♠ 2♣ 2♦")  # finishing on 2s does not matter to a Sâm under the house rule
    assert g.is_over and g.winner == 1
    assert led(g) == [(0, 1, 20, "sam"), (2, 1, 20, "sam"), (3, 1, 20, "sam")]


@pytest.mark.parametrize(
    ("pays", "expected"),
    [
        ("blocker", [(1, 2, 60, "den_sam")]),
        ("each", [(1, 0, 20, "den_sam"), (1, 2, 20, "den_sam"), (1, 3, 20, "den_sam")]),
    ],
)
def test_sam_blocked(pays: Literal["blocker", "each"], expected: list[Any]) -> None:
    g = dealt(HANDS, leader=1, rules=Rules(sam_block_pays=pays))
    g.declare_sam(1)
    act(g, "3♠", "4♠")  # any legal beat blocks the Sâm: the hand ends at once
    assert g.is_over and g.winner == 2 and led(g) == expected


def test_sam_blocked_three_players() -> None:
    g = dealt(HANDS[:3], leader=1)
    g.declare_sam(1)
    act(g, "3♠", "4♠")
    assert g.is_over and led(g) == [(1, 2, 40, "den_sam")]


def test_sam_blocked_by_a_cut_pays_only_den_sam() -> None:
    hands = list(HANDS)
    hands[3] = "3♥ 4♥ 5♠ 6♥ Q♣ Q♦ Q♥ Q♠ K♦ A♦"
    hands[2] = "4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ 10♦ A♠ 2♥"
    g = dealt(hands, leader=1)
    g.declare_sam(1)
    act(g, "2♠", None, "Q♣ Q♦ Q♥ Q♠")
    assert g.is_over and led(g) == [(1, 3, 60, "den_sam")]


def test_next_hand_previous_winner_is_nominal_leader() -> None:
    g = table(["4♠", "5♠ 6♣", "7♦ 9♦", "8♣ 10♣"], turn=0)
    act(g, "4♠")
    assert g.is_over and g.winner == 0
    g.next_hand()
    if not g.is_over:
        assert g.nominal_leader == 0 and g.phase == "bao_sam" and g.current_seat == 0


def test_first_hand_nominal_leader_is_random() -> None:
    leaders = {Game(4, seed=s).nominal_leader for s in range(30)}
    assert len(leaders) > 1


# ---- rounds ---------------------------------------------------------------------------------


def test_passing_locks_out_and_last_player_leads() -> None:
    g = table(["3♣ 9♠ K♠", "4♠ 10♠ 5♦", "5♠ J♠ 6♦", "6♠ Q♠ 7♦"])
    act(g, "3♣", None, "5♠", "6♠", "9♠")
    assert g.current_seat == 2
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "10♠")
    assert e.value.reason == "not_your_turn" and g.to_json() == before
    act(g, "J♠", "Q♠", None, None)
    assert g.current_seat == 3 and g.table is None
    with pytest.raises(IllegalMoveError) as e:
        g.pass_turn(3)
    assert e.value.reason == "cannot_pass_on_lead"


# ---- settlement table -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "items"),
    [
        ("5♠ 6♣ 9♦", [(3, "thoi_rac")]),
        ("2♠ 9♥", [(1, "thoi_rac"), (15, "thoi_2")]),
        ("2♠ 2♥", [(30, "thoi_2")]),
        ("7♠ 7♣ 7♦ 7♥ 10♣", [(1, "thoi_rac"), (15, "thoi_tu_quy")]),
        ("7♠ 7♣ 7♦ 7♥ 2♥", [(15, "thoi_2"), (15, "thoi_tu_quy")]),
    ],
)
def test_thoi(left: str, items: list[tuple[int, str]]) -> None:
    g = table(["4♠", left, "5♦", "6♦"])
    act(g, "4♠")
    assert g.is_over and g.winner == 0
    assert [e for e in led(g) if e[0] == 1] == sorted((1, 0, u, r) for u, r in items)


@pytest.mark.parametrize(
    ("hand", "units"),
    [
        ("3♣ 5♦ 6♦ 8♣ 9♣ J♣ Q♣ K♣ A♣ 10♦", 15),
        ("3♣ 5♦ 6♦ 8♣ 9♣ J♣ Q♣ K♣ 2♠ 2♦", 15 + 30),
        ("7♠ 7♣ 7♦ 7♥ 3♣ 5♦ 9♣ J♣ K♣ 2♦", 15 + 15 + 15),
    ],
)
def test_cong(hand: str, units: int) -> None:
    g = table(["4♠", hand, "5♥", "6♥"], cong=(1,))
    act(g, "4♠")
    assert g.is_over
    assert sum(e[2] for e in led(g) if e[0] == 1) == units
    assert (1, 0, 15, "cong") in led(g)
    assert [e["seat"] for e in g.events if e["type"] == "cong"] == [1]


def test_settlement_sums_to_zero_and_adds_up() -> None:
    g = table(["4♠", "5♠ 6♣ 9♦", "2♠ 9♥", "7♠ 7♣ 7♦ 7♥ 2♥ 10♣"])
    act(g, "4♠")
    assert g.settlement == [3 + 16 + 31, -3, -16, -31]


@pytest.mark.parametrize(
    ("on", "bomb", "units", "rules"),
    [
        ("2♥", "7♠ 7♣ 7♦ 7♥", 15, DEFAULT),
        ("2♠", "7♠ 7♣ 7♦ 7♥", 15, DEFAULT),
        ("7♠ 7♣ 7♦ 7♥", "9♠ 9♣ 9♦ 9♥", 15, DEFAULT),
        ("2♠ 2♥", "7♠ 7♣ 7♦ 7♥", 30, Rules(quad_beats_pair_of_twos=True)),
    ],
)
def test_chat(on: str, bomb: str, units: int, rules: Rules) -> None:
    g = table([on + " 3♣", bomb + " 3♦", "4♥ 5♥", "8♥ 10♥"], rules=rules)
    act(g, on, bomb)
    assert g.ledger == []  # paid when the round closes
    act(g, None, None, None)
    assert g.current_seat == 1 and led(g) == [(0, 1, units, "chat")]


def test_chat_chong_15_per_cut() -> None:
    g = table(["2♥ 3♣", "7♠ 7♣ 7♦ 7♥ 3♦", "9♠ 9♣ 9♦ 9♥ 3♥", "8♥ 10♥"])
    act(g, "2♥", "7♠ 7♣ 7♦ 7♥", "9♠ 9♣ 9♦ 9♥", None, None, None)
    assert g.current_seat == 2 and led(g) == [(1, 2, 30, "chat")]


def test_two_over_two_does_not_beat_and_is_no_cut() -> None:
    g = table(["2♠ 3♣", "2♥ 4♦", "5♥ 6♥", "8♥ 10♥"])
    act(g, "2♠")
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "2♥")
    assert e.value.reason == "does_not_beat" and g.to_json() == before


# ---- báo 1 ----------------------------------------------------------------------------------

# Seat 1 holds one card; seat 0 plays just before it.
BAO = ["3♣ 9♠ K♦", "5♥", "4♦ 8♦", "6♣ 7♦"]


def test_bao_mot_penalize_den_lang() -> None:
    g = table(BAO, turn=0)
    act(g, "3♣")  # lower than its K: allowed and recorded (the record is seat 0's alone)
    assert g.events_for(0)[-1] == {
        "type": "bao_mot_single",
        "seat": 0,
        "one_card_seats": [1],
        "violation": True,
    }
    assert g.public_events()[-1]["violation"] is None
    act(g, "5♥")  # seat 1 goes out with its next play
    assert g.is_over and g.winner == 1
    assert [e["type"] for e in g.public_events()[-3:]] == ["bao_mot_violation", "den_lang", "hand_end"]
    assert led(g) == [(0, 1, 2 + 2 + 2, "den_lang")]  # the whole table; nobody else pays


def test_bao_mot_highest_single_is_no_violation() -> None:
    g = table(["3♣ 9♠ K♦", "A♥", "4♦ 8♦", "6♣ 7♦"], turn=0)
    act(g, "K♦", "A♥")
    assert g.is_over and not [e for e in g.events if e["type"] == "bao_mot_violation"]
    assert led(g) == [(0, 1, 2, "thoi_rac"), (2, 1, 2, "thoi_rac"), (3, 1, 2, "thoi_rac")]


def test_bao_mot_non_single_is_free() -> None:
    g = table(["3♣ 3♦ K♦", "5♥", "4♦ 8♦", "6♣ 7♦"], turn=0)
    act(g, "3♣ 3♦")
    assert not [e for e in g.events if e["type"] == "bao_mot_violation"]


@pytest.mark.parametrize(("scope", "violation"), [("all", True), ("previous_seat", False)])
def test_bao_mot_scope(scope: Literal["all", "previous_seat"], violation: bool) -> None:
    g = table(BAO, turn=2, rules=Rules(bao_mot_scope=scope))
    act(g, "4♦", None, None, "5♥")  # seat 2 is not the seat just before seat 1
    assert g.is_over and g.winner == 1
    if violation:
        assert led(g) == [(2, 1, 3 + 1 + 2, "den_lang")]
    else:
        assert led(g) == [(0, 1, 3, "thoi_rac"), (2, 1, 1, "thoi_rac"), (3, 1, 2, "thoi_rac")]


def test_bao_mot_violation_lapses_if_the_one_card_seat_does_not_go_out_next() -> None:
    g = table(["3♣ 9♠ K♦", "A♥", "4♦ 8♦", "6♣ 10♦ 2♣"], turn=0)
    act(g, "3♣", None, "8♦", "2♣", None, None)  # seat 1 passed instead of going out
    assert g.current_seat == 3 and g.table is None
    act(g, "10♦", None, "A♥")
    assert g.is_over and g.winner == 1
    assert led(g) == [(0, 1, 2, "thoi_rac"), (2, 1, 1, "thoi_rac"), (3, 1, 1, "thoi_rac")]


def test_bao_mot_enforce() -> None:
    rules = Rules(bao_mot_mode="enforce")
    g = table(BAO, turn=0, rules=rules)
    singles = [str(c) for c in g.legal_plays() if c.kind == "single"]
    assert singles == ["K♦"]
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(0, "3♣")
    assert e.value.reason == "bao_mot" and g.to_json() == before
    assert [str(c) for c in legal_plays("3♠ 5♦ 9♣ K♥", bao_mot=True) if c.kind == "single"] == ["K♥"]


# ---- finishing on a 2 -----------------------------------------------------------------------


@pytest.mark.parametrize(("twos", "units"), [("2♠", 15), ("2♠ 2♥", 30)])
def test_finish_on_two_penalized(twos: str, units: int) -> None:
    g = table([twos, "5♠ 6♠", "5♦ 6♦", "8♠ 9♠ 2♦"], rules=Rules(finish_on_two="penalized"))
    act(g, twos)
    assert g.is_over and g.winner is None
    assert led(g) == [(0, s, units, "finish_on_two") for s in (1, 2, 3)]


def test_finish_on_two_allowed_option() -> None:
    g = table(["2♠", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules=Rules(finish_on_two="allowed"))
    act(g, "2♠")
    assert g.winner == 0 and g.settlement == [6, -2, -2, -2]


def test_finish_on_two_forbidden() -> None:
    rules = Rules()  # seed 002: "Không được để 2 cuối"
    g = table(["2♠", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], turn=3, rules=rules)
    act(g, "8♠")
    assert g.legal_plays() == []
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(0, "2♠")
    assert e.value.reason == "cannot_finish_on_two" and g.to_json() == before
    g = table(["2♠", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules=rules)
    act(g, "2♠")  # the only legal action: allowed, penalised
    assert g.winner is None and g.settlement == [-45, 15, 15, 15]


# ---- §0 server contract ---------------------------------------------------------------------


def test_illegal_moves_reasons_and_state_unchanged() -> None:
    g = dealt(HANDS, leader=0)
    first: list[tuple[Callable[[], object], str]] = [
        (lambda: g.play(0, "3♣"), "declare_first"),
        (lambda: g.declare_sam(2), "not_your_turn"),
    ]
    for call, reason in first:
        before = g.to_json()
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == reason and g.to_json() == before
    for s in range(4):
        g.decline_sam(s)
    later: list[tuple[Callable[[], object], str]] = [
        (lambda: g.declare_sam(0), "not_declaring"),
        (lambda: g.play(0, "4♠"), "cards_not_in_hand"),
        (lambda: g.play(0, "3♣ 5♣"), "invalid_combination"),
        (lambda: g.pass_turn(0), "cannot_pass_on_lead"),
        (lambda: g.play(1, "3♠"), "not_your_turn"),
    ]
    for call, reason in later:
        before = g.to_json()
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == reason and g.to_json() == before
    g.play(0, "9♣")
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "9♦")
    assert e.value.reason == "does_not_beat" and g.to_json() == before


def test_game_over_refuses_actions() -> None:
    g = table(["4♠", "5♠ 6♣", "7♦ 9♦", "8♣ 10♣"])
    act(g, "4♠")
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "5♠")
    assert e.value.reason == "game_over" and g.to_json() == before


def test_csprng_default_and_replay() -> None:
    a, b = Game(4), Game(4)
    assert a.rng_key != b.rng_key
    while not a.is_over:
        a.auto_play(a.pending_seats[0])
    again = Game.replay(a.actions, players=4, seed=a.rng_key)
    assert again.events == a.events and again.ledger == a.ledger and again.settlement == a.settlement


def _midgame() -> Game:
    g = dealt(HANDS, leader=0)
    for s in range(4):
        g.decline_sam(s)
    act(g, "3♣", "4♦", "6♠")
    assert g.table is not None
    return g


def _declaring_after_play(st: dict[str, Any]) -> None:
    st["samloc"].update(sam_phase=True, declined=0)


@pytest.mark.parametrize("edit", [duplicate_card, move_card, wrong_turn, passed_turn, _declaring_after_play])
def test_snapshot_validation_rejects_tampering(edit: Any) -> None:
    d = json.loads(_midgame().to_json())
    edit(d["state"])
    with pytest.raises(SnapshotError):
        Game.from_dict(d)


def test_snapshot_round_trip() -> None:
    g = _midgame()
    h = Game.from_json(g.to_json())
    assert h.to_json() == g.to_json()


def test_views_leak_no_hidden_cards() -> None:
    g = _midgame()
    for seat in range(4):
        v = g.view(seat)
        text = json.dumps(v, ensure_ascii=False)
        assert sorted(v["hand"]) == sorted(str(c) for c in g.hand(seat))
        for other in range(4):
            if other != seat:
                for c in g.hand(other):
                    assert str(c) not in text


def test_rules_defaults_and_bad_options() -> None:
    from vncards import RulesError

    r = Rules()
    assert (r.low_straights, r.quad_beats_pair_of_twos, r.sam_block_pays) == (False, False, "blocker")
    assert (r.bao_mot_scope, r.bao_mot_mode, r.finish_on_two) == ("all", "penalize", "forbidden")
    assert (r.bao_mot_den, r.sam_may_finish_on_two) == ("cards", False)
    with pytest.raises(RulesError):
        r.replace(sam_block_pays="nobody")
    with pytest.raises(RulesError):
        r.replace(no_such_option=1)


def test_four_twos_left_pay_15_each() -> None:
    g = table(["4♠", "2♠ 2♣ 2♦ 2♥", "5♦", "6♦"])
    act(g, "4♠")
    assert g.settlement is not None and g.settlement[1] == -60


def test_bombs_only_in_turn_never_after_passing() -> None:
    g = table(["5♥ K♦ 3♣", "8♠ 8♣ 8♦ 8♥ 3♦", "6♦ 2♥ 4♣", "7♦ A♠ 4♦"])
    act(g, "5♥", None, "6♦", "7♦", None, "2♥", None)
    assert g.current_seat == 2 and g.table is None  # seat 1 passed: its tứ quý was skipped
