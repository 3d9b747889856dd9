"""Black-box conformance of Tiến Lên (docs/rules/index.md, tienlen-south.md and tienlen-north.md) against the public API: every rule line
and worked example (E), exact ledger amounts, and the server contract of §0.

Positions are built the documented way: a seeded game's ``to_dict()`` snapshot with edited
hands, restored by ``Game.from_dict`` (which validates it)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from support.shedding_positions import (
    NORTH,
    RANKED,
    SOUTH,
    act,
    duplicate_card,
    led,
    move_card,
    passed_turn,
    setup,
    wrong_turn,
)
from vncards import (
    IllegalMoveError,
    InvalidCardError,
    SnapshotError,
    parse_card,
    parse_cards,
    tienlen,
)
from vncards.tienlen import Game, Rules, beats, classify, instant_win


def kind(cards: str, rules: Rules = SOUTH) -> str | None:
    c = classify(cards, rules)
    return None if c is None else c.kind


# ---- §0 cards -------------------------------------------------------------------------------


def test_card_order_and_indices() -> None:
    order = parse_cards("3♠ 3♣ 3♦ 3♥ 4♠ 10♥ J♠ K♥ A♠ 2♠ 2♣ 2♦ 2♥")
    assert [c.index for c in order] == sorted(c.index for c in order)
    assert parse_card("3♠").index == 0 and parse_card("2♥").index == 51
    # E: 2♥ is the highest card, 3♠ the lowest; 10♠ beats 9♥.
    assert beats("2♥", "2♦") and not beats("2♦", "2♥")
    assert beats("10♠", "9♥") and not beats("9♥", "10♠")
    assert beats("4♠", "3♥") and beats("3♣", "3♠")


def test_card_text_forms() -> None:
    c = parse_card("10♥")
    assert str(c) == "10♥" and c.ascii == "Th" and c.rank == "10" and c.suit == "♥"
    for text in ("Th", "10h", "♥10", "TH", "10H", "th"):
        assert parse_card(text) == c
    assert parse_cards("♠4♣4") == parse_cards("4s4c") == parse_cards("4♠ 4♣") == parse_cards("4S,4C")
    assert parse_card("♠Q") == parse_card("Qs")


@pytest.mark.parametrize("text", ["1♠", "4x", "", "11♦", "3♠ 4z"])
def test_bad_card_text_raises(text: str) -> None:
    with pytest.raises(InvalidCardError):
        parse_cards(text) if text else parse_card(text)


def test_duplicate_card_in_a_set_raises() -> None:
    with pytest.raises(InvalidCardError) as e:
        classify("3♠ 3♠")
    assert "3♠" in str(e.value)


# ---- §1 combinations ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("7♦", "single"),
        ("7♦ 7♠", "pair"),
        ("7♦ 7♠ 7♥", "triple"),
        ("7♦ 7♠ 7♥ 7♣", "four_of_a_kind"),
        ("3♠ 4♦ 5♥", "straight"),
        ("Q♠ K♦ A♥", "straight"),  # the highest 3-card straight
        ("3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 10♠ J♥ Q♠ K♣ A♣", "straight"),  # 12 cards
        ("3♠ 3♣ 4♦ 4♥ 5♠ 5♦", "pair_sequence"),
        ("Q♠ Q♣ K♦ K♥ A♠ A♦", "pair_sequence"),
        ("3♠ 3♣ 4♦ 4♥ 5♠ 5♦ 6♠ 6♦ 7♣ 7♥", "pair_sequence"),
        ("K♠ A♦ 2♥", None),
        ("A♠ 2♦ 3♥", None),
        ("2♠ 3♦ 4♥", None),
        ("3♠ 4♦", None),  # a straight has at least 3 cards
        ("3♠ 5♦ 6♥", None),
        ("7♦ 8♦", None),
        ("7♦ 7♠ 8♥", None),
        ("K♠ K♣ A♦ A♥ 2♠ 2♦", None),  # no 2 in a pair sequence
        ("3♠ 3♣ 4♦ 4♥", None),  # two pairs are not a pair sequence
        ("3♠ 3♣ 5♦ 5♥ 6♠ 6♦", None),
        ("7♦ 7♠ 7♥ 7♣ 8♠", None),
    ],
)
def test_combinations(cards: str, expected: str | None) -> None:
    assert kind(cards) == expected


def test_combo_cards_sorted_low_to_high() -> None:
    c = classify("5♥ 3♠ 4♦")
    assert c is not None and [str(x) for x in c.cards] == ["3♠", "4♦", "5♥"]


@pytest.mark.parametrize(
    ("play", "table", "expected"),
    [
        ("♥J♥Q♠K", "♣10♦J♥Q", True),  # E
        ("♦5♠6♣7", "♥5♥6♠7", True),  # E: ♣7 > ♠7
        ("♦5♣5", "♦4♥4", True),  # E
        ("♠5♦5♥5", "♠4♦4♥4", True),  # E
        ("♦5♣5", "♠5♥5", False),  # highest card ♦5 < ♥5
        ("♠5♥5", "♦5♣5", True),
        ("9♠", "9♥", False),
        ("3♠ 4♦ 5♥ 6♣", "8♠ 9♦ 10♥", False),  # same kind, different length
        ("8♠ 9♦ 10♥", "3♠ 4♦ 5♥ 6♣", False),
        ("A♠ A♦", "K♠", False),  # different kind
        ("4♠4♣5♦5♥6♠6♦", "3♠3♣4♦4♥5♠5♦", True),
        ("3♠ 3♣ 4♦ 4♥ 5♠ 5♦", "A♥", False),  # a bomb beats only what its row says
        ("7♠ 7♣ 7♦ 7♥", "A♥ A♦", False),
    ],
)
def test_beating(play: str, table: str, expected: bool) -> None:
    assert beats(play, table) is expected


THREE_PS = "4♠ 4♣ 5♦ 5♥ 6♠ 6♦"
THREE_PS_HIGH = "Q♠ Q♣ K♦ K♥ A♠ A♦"
QUAD = "9♠ 9♣ 9♦ 9♥"
QUAD_LOW = "5♠ 5♣ 5♦ 5♥"
FOUR_PS = "4♠ 4♣ 5♦ 5♥ 6♠ 6♦ 7♣ 7♥"
FOUR_PS_HIGH = "10♠ 10♣ J♦ J♥ Q♠ Q♦ K♣ K♥"
FIVE_PS = "4♠ 4♣ 5♦ 5♥ 6♠ 6♦ 7♣ 7♥ 8♠ 8♦"


@pytest.mark.parametrize(
    ("bomb", "table", "expected"),
    [
        # 3 đôi thông: a single 2; a lower 3 đôi thông.
        (THREE_PS, "2♠", True),
        (THREE_PS, "2♥", True),
        (THREE_PS, "2♠ 2♥", False),
        (THREE_PS_HIGH, THREE_PS, True),
        (THREE_PS, THREE_PS_HIGH, False),
        (THREE_PS, QUAD_LOW, False),
        # tứ quý: a single 2; a pair of 2s; any 3 đôi thông; a lower tứ quý.
        (QUAD, "2♥", True),
        (QUAD, "2♦ 2♥", True),
        (QUAD_LOW, THREE_PS_HIGH, True),
        (QUAD, QUAD_LOW, True),
        (QUAD_LOW, QUAD, False),
        (QUAD, FOUR_PS, False),
        # 4 đôi thông: a single 2; a pair of 2s; any 3 đôi thông; any tứ quý; a lower 4 đôi thông.
        (FOUR_PS, "2♥", True),
        (FOUR_PS, "2♠ 2♥", True),
        (FOUR_PS, THREE_PS_HIGH, True),
        (FOUR_PS, "2♠ 2♣ 2♦ 2♥", True),
        (FOUR_PS, "A♠ A♣ A♦ A♥", True),
        (FOUR_PS_HIGH, FOUR_PS, True),
        (FOUR_PS, FOUR_PS_HIGH, False),
        # Nothing beats three 2s.
        (FOUR_PS, "2♠ 2♣ 2♦", False),
        (QUAD, "2♠ 2♣ 2♦", False),
        (THREE_PS, "2♠ 2♣ 2♦", False),
        # Longer đôi thông play only against the same length.
        (FIVE_PS, "2♥", False),
        (FIVE_PS, THREE_PS, False),
        (FIVE_PS, "A♠ A♣ A♦ A♥", False),
        ("5♠ 5♣ 6♦ 6♥ 7♠ 7♦ 8♣ 8♥ 9♠ 9♦", FIVE_PS, True),
    ],
)
def test_bomb_rows(bomb: str, table: str, expected: bool) -> None:
    assert beats(bomb, table) is expected


def test_quad_beats_pair_of_twos_option() -> None:
    assert not beats(QUAD, "2♦ 2♥", SOUTH.replace(quad_beats_pair_of_twos=False))
    assert beats(QUAD, "2♥", SOUTH.replace(quad_beats_pair_of_twos=False))


def test_a_two_over_a_lower_two_is_not_a_cut() -> None:
    g = setup(["2♠ 9♠", "2♥ 5♦", "6♦ 7♦", "8♠ 10♠"])
    act(g, "2♠", "2♥", None, None, None)
    assert g.current_seat == 1 and g.table is None
    assert not [e for e in g.events if e["type"] == "cut"] and g.ledger == []


# ---- bomb_after_pass ------------------------------------------------------------------------

FOUR_PS_HAND = "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣ J♥ 3♦"


@pytest.mark.parametrize(
    ("mode", "bomb", "reenters"),
    [
        ("four_pair_sequence", FOUR_PS_HAND, True),
        ("four_pair_sequence", "8♠ 8♣ 8♦ 8♥ 3♦", True),  # asked again, may only pass
        ("none", FOUR_PS_HAND, False),
        ("any_bomb", FOUR_PS_HAND, True),
        ("any_bomb", "8♠ 8♣ 8♦ 8♥ 3♦", True),
    ],
)
def test_bomb_after_pass(mode: str, bomb: str, reenters: bool) -> None:
    g = setup(["5♥ K♦ 3♣", bomb, "6♦ 2♥ 4♣", "7♦ A♠ 4♦"], SOUTH.replace(bomb_after_pass=mode))
    act(g, "5♥", None, "6♦", "7♦", None)  # seat 1 passed earlier in this round
    act(g, "2♥", None)  # seat 3 passes; the table holds a 2
    if reenters:
        # The turn returns to every seat that passed, whatever it holds (no side channel):
        # seat 0 holds no bomb and may only pass again.
        assert g.current_seat == 0
        assert g.legal_actions(0) == [{"type": "pass", "seat": 0}]
        act(g, None)
        assert g.current_seat == 1
        with pytest.raises(IllegalMoveError):
            g.play(1, "3♦")  # nothing but the cut
        assert all(c.is_bomb for c in g.legal_plays())
        g.pass_turn(1)  # or pass again
        assert g.current_seat == 2 and g.table is None
    else:
        assert g.current_seat == 2 and g.table is None


def test_bomb_after_pass_only_when_the_table_can_be_cut() -> None:
    g = setup(["5♥ K♦ 3♣", FOUR_PS_HAND, "6♦ A♥ 4♣", "7♦ Q♠ 4♦"])
    act(g, "5♥", None, "6♦", "7♦", "K♦", "A♥", None, None)
    assert g.current_seat == 2 and g.table is None  # seat 1 skipped: nothing to cut


# ---- leading and rounds ---------------------------------------------------------------------


def test_first_lead_three_of_spades() -> None:
    g = Game(4, seed=1)
    assert g.current_seat is not None and parse_card("3♠") in g.hand(g.current_seat)
    assert all("3♠" in str(c) for c in g.legal_plays())
    other = next(c for c in g.hand(g.current_seat) if str(c) != "3♠")
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(g.current_seat, [other])
    assert e.value.reason == "must_include_lowest" and g.to_json() == before


@pytest.mark.parametrize("players", [2, 3])
def test_first_lead_lowest_dealt_card_with_fewer_players(players: int) -> None:
    g = Game(players, seed=1)  # seed 1: 3♠ is not dealt
    hands = [g.hand(s) for s in range(players)]
    assert all(c.index != 0 for h in hands for c in h)
    lowest = min((c for h in hands for c in h), key=lambda c: c.index)
    assert g.current_seat is not None and lowest in hands[g.current_seat]
    assert g.legal_plays() and all(lowest in c.cards for c in g.legal_plays())
    assert g.view(g.current_seat)["must_include"] == [str(lowest)]


def test_first_lead_random() -> None:
    rules = SOUTH.replace(first_lead="random")
    leaders = set()
    for seed in range(12):
        g = Game(4, rules, seed=seed)
        if g.is_over:
            continue
        seat = g.current_seat
        assert seat is not None
        leaders.add(parse_card("3♠") in g.hand(seat))
        assert len(g.legal_plays()) == len(tienlen.legal_plays(g.hand(seat)))
    assert leaders == {True, False}


def test_later_hand_winner_leads_with_any_play() -> None:
    g = Game(4, seed=3)
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    winner = g.winner
    g.next_hand()
    assert g.hand_number == 2
    if not g.is_over and winner is not None:
        assert g.current_seat == winner
        assert g.view(winner)["must_include"] == []
        assert len(g.legal_plays()) == len(tienlen.legal_plays(g.hand(winner)))


def test_passing_locks_a_seat_out_of_the_round() -> None:
    g = setup(["3♣ 9♠ K♠ 4♦", "4♠ 10♠ A♠", "5♠ J♠ A♣", "6♠ Q♠ A♦"])
    act(g, "3♣", None, "5♠", "6♠", "9♠")
    assert g.current_seat == 2  # seat 1 passed: out of the round
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "10♠")
    assert e.value.reason == "not_your_turn" and g.to_json() == before
    act(g, "J♠", "Q♠", "K♠")  # seat 0 plays on; seat 1 still skipped
    assert g.current_seat == 2


def test_leader_cannot_pass_and_last_player_leads_new_round() -> None:
    g = setup(["3♣ 9♠ 4♦", "4♠ 10♠", "5♠ J♠", "6♠ Q♠"])
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.pass_turn(0)
    assert e.value.reason == "cannot_pass_on_lead" and g.to_json() == before
    act(g, "3♣", "4♠", None, None, None)
    assert g.current_seat == 1 and g.table is None  # every other seat passed


def test_huong_sai_next_seat_still_holding_cards_leads() -> None:
    g = setup(["3♣ 8♣", "6♠", "5♠", "4♣ 7♦"], RANKED, turn=2)
    act(g, "5♠")  # seat 2 out (nhất)
    act(g, None, None, "6♠")  # seats 3, 0 pass; seat 1 out with its play (nhì)
    assert g.current_seat == 3 and g.table is None  # seats 1 and 2 are out: seat 3 leads
    assert g.finishing_order == [2, 1]


# ---- endings --------------------------------------------------------------------------------


def test_first_out_ends_the_hand() -> None:
    g = setup(["4♠", "5♠ 6♣ 9♦", "2♠ 9♥", "2♥ 7♠ 7♣ 7♦ 7♥ 10♣"])
    act(g, "4♠")
    assert g.is_over and g.winner == 0 and g.current_seat is None
    assert g.settlement == [26, -3, -4, -19]
    assert led(g) == sorted(
        [
            (1, 0, 3, "cards_left"),
            (2, 0, 1, "cards_left"),
            (2, 0, 3, "thoi_black_two"),
            (3, 0, 1, "cards_left"),
            (3, 0, 6, "thoi_red_two"),
            (3, 0, 12, "thoi_four_of_a_kind"),
        ]
    )
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(1, "5♠")
    assert e.value.reason == "game_over" and g.to_json() == before


def test_ranked_ending_finishing_order_and_payments() -> None:
    g = setup(["4♠", "5♠", "6♠", "3♣ 2♥"], RANKED)
    act(g, "4♠")
    assert not g.is_over
    act(g, "5♠", "6♠")
    assert g.is_over and g.finishing_order == [0, 1, 2, 3]
    # bét pays nhất 2, ba pays nhì 1, thối (red 2 = 2) to the seat just above.
    assert led(g) == sorted([(3, 0, 2, "rank"), (2, 1, 1, "rank"), (3, 2, 2, "thoi_red_two")])
    assert g.settlement == [2, 1, 1, -4]


def test_ranked_thoi_to_winner() -> None:
    g = setup(["4♠", "5♠", "6♠", "3♣ 2♥"], RANKED.replace(thoi_to="winner"))
    act(g, "4♠", "5♠", "6♠")
    assert g.settlement == [4, 1, -1, -4]


@pytest.mark.parametrize(
    ("hands", "expected"),
    [
        (["4♠", "5♠", "3♣ 9♦"], [(2, 0, 2, "rank")]),
        (["4♠", "3♣ 9♦"], [(1, 0, 2, "rank")]),
    ],
)
def test_ranked_fewer_players(hands: list[str], expected: list[Any]) -> None:
    g = setup(hands, RANKED)
    act(g, *[h.split()[0] for h in hands[:-1]])
    assert g.is_over and led(g) == expected


@pytest.mark.parametrize(
    ("left", "reason", "units"),
    [
        ("2♠", "thoi_black_two", 1),
        ("2♦", "thoi_red_two", 2),
        ("7♠ 7♣ 8♦ 8♥ 9♠ 9♦", "thoi_three_pair_sequence", 3),
        ("7♠ 7♣ 7♦ 7♥", "thoi_four_of_a_kind", 4),
        ("7♠ 7♣ 8♦ 8♥ 9♠ 9♦ 10♣ 10♥", "thoi_four_pair_sequence", 6),
    ],
)
def test_ranked_thoi_table(left: str, reason: str, units: int) -> None:
    g = setup(["4♠", "5♠", left + " 3♣"], RANKED)
    act(g, "4♠", "5♠")
    assert led(g) == sorted([(2, 0, 2, "rank"), (2, 1, units, reason)])


def test_ranked_cong_pays_nhat_4_plus_thoi() -> None:
    full = "4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 3♥ 2♠"
    g = setup(["4♠", "5♠", "6♠ 9♦", full], RANKED, cong=(3,))
    act(g, "4♠")  # seat 3 is cóng
    act(g, "5♠")
    assert g.is_over and g.finishing_order == [0, 1, 2, 3]
    # Reading kept: cóng replaces the rank payment; its thối goes to the seat placed above.
    assert led(g) == sorted([(2, 1, 1, "rank"), (3, 0, 4, "cong"), (3, 2, 1, "thoi_black_two")])


# ---- instant wins ---------------------------------------------------------------------------

FILL = " 3♠ 9♣ J♦"


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣A♣ 2♥", "dragon"),  # E
        ("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦9♣9♦ K♠", "six_pair_sequence"),  # E
        ("2♠2♣2♦4♠4♣4♦5♠5♣5♦10♠10♣10♦A♥", "four_triples"),  # E
        ("3♠3♣3♦3♥5♠5♣5♦5♥ 7♠9♦J♥K♣A♠", "two_quads"),  # E
        ("2♠4♠5♠6♠7♠8♠9♠10♠J♠Q♠K♠A♠A♣", "twelve_same_suit"),  # E
        ("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥", "five_pair_sequence"),  # E
        ("2♠2♣2♦2♥ 3♠4♠6♦8♥10♠Q♦K♥A♠9♣", "four_twos"),  # E
        ("4♦4♥5♦5♥6♠6♥7♣7♥J♠J♦K♠K♣ 3♠", "six_pairs"),  # E
        ("4♦4♥4♠4♣6♠6♥8♣8♥J♠J♦K♠K♦ 3♠", "six_pairs"),  # a tứ quý counts as two pairs
        ("4♦4♥5♦5♥6♠6♥8♣8♥J♠J♦ 3♠7♦A♣", None),  # five pairs
        ("3♠4♦5♥6♣7♥8♦9♦10♠J♥Q♠K♣ 2♥2♦", None),  # 3 to K is not a dragon
    ],
)
def test_instant_win_kinds(hand: str, expected: str | None) -> None:
    assert len(parse_cards(hand)) == 13
    assert instant_win(hand) == expected


def test_instant_win_strongest_kind_of_one_hand() -> None:
    # four 2s and (counting the tứ quý as two pairs) six pairs: four 2s is stronger.
    assert instant_win("2♠2♣2♦2♥ 4♠4♣ 6♦6♥ 8♠8♥ 3♠ 10♦ Q♣") == "four_twos"
    # 5 đôi thông (with six pairs) is stronger than six pairs.
    assert instant_win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 2♠2♣ 3♠") == "five_pair_sequence"
    # 2 tứ quý (four pairs) with two more pairs: two quads.
    assert instant_win("3♠3♣3♦3♥5♠5♣5♦5♥ 7♠7♦ 9♣9♥ K♣") == "two_quads"
    # four triples holding 2s: four triples beat the 2s' kinds.
    assert instant_win("2♠2♣2♦ 4♠4♣4♦ 6♠6♣6♦ 9♠9♣9♦ K♥") == "four_triples"


def test_same_colour_instant_win_option() -> None:
    mixed = "3♠3♣5♠6♣7♠8♣9♠10♣J♠Q♣K♠A♣ 2♥"  # 12 black cards, no single suit
    assert instant_win(mixed) is None
    opt = SOUTH.replace(same_colour_instant_win=True)
    assert instant_win(mixed, opt) == "same_colour"
    assert instant_win("3♠3♣5♠6♣7♠8♣9♠10♣J♠Q♣K♠A♣2♠", opt) == "same_colour"


def test_first_hand_extras() -> None:
    opt = SOUTH.replace(first_hand_extras=True)
    fours = "3♠3♣3♦3♥ 5♠7♦9♥J♣K♦A♠2♦6♥8♣"
    seq = "3♠3♣4♦4♥5♠5♦ 7♦9♥J♣K♦A♠2♦8♣"
    assert instant_win(fours, opt, first_hand=True) == "four_threes"
    assert instant_win(seq, opt, first_hand=True) is not None
    assert instant_win(fours, opt) is None and instant_win(seq, opt) is None
    assert instant_win(fours, SOUTH, first_hand=True) is None
    # 3 đôi thông without 3♠ is no extra.
    assert instant_win("3♣3♦4♦4♥5♠5♦ 7♦9♥J♣K♦A♠2♦8♣", opt, first_hand=True) is None


@pytest.mark.parametrize(
    ("seed", "rules", "winner", "win_kind", "units"),
    [
        (21, SOUTH, 3, "six_pairs", 26),
        (21, RANKED, 3, "six_pairs", 4),
        (3662, SOUTH, 1, "four_twos", 26),  # seat 0 has six pairs: four 2s is stronger
        (7724, SOUTH, 0, "five_pair_sequence", 26),  # over seat 1's four 2s
        (11162, SOUTH, 0, "dragon", 26),  # over seat 1's six pairs
        # Same kind: the highest pair decides (2♠2♥ over K♠K♦; 2♠2♦ over K♠K♥).
        (17092, SOUTH, 1, "six_pairs", 26),
        (40339, SOUTH, 1, "six_pairs", 26),
    ],
)
def test_instant_win_at_the_deal(seed: int, rules: Rules, winner: int, win_kind: str, units: int) -> None:
    g = Game(4, rules, seed=seed)
    assert g.is_over and g.winner == winner
    assert [e["instant"] for e in g.events if e["type"] == "instant_win"] == [win_kind]
    assert led(g) == sorted((s, winner, units, "instant_win") for s in range(4) if s != winner)
    assert g.settlement == [3 * units if s == winner else -units for s in range(4)]
    g.next_hand()  # after an instant win the 3♠ rule applies again
    if not g.is_over:
        assert g.view(g.pending_seats[0])["must_include"]


# ---- count scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("left", "items"),
    [
        ("2♠ 9♥", [(1, "cards_left"), (3, "thoi_black_two")]),
        ("2♣", [(3, "thoi_black_two")]),
        ("2♦ 9♥", [(1, "cards_left"), (6, "thoi_red_two")]),
        ("2♥", [(6, "thoi_red_two")]),
        ("7♠ 7♣ 8♦ 8♥ 9♠ 9♦ J♣", [(1, "cards_left"), (9, "thoi_three_pair_sequence")]),
        ("7♠ 7♣ 7♦ 7♥", [(12, "thoi_four_of_a_kind")]),
        ("7♠ 7♣ 8♦ 8♥ 9♠ 9♦ 10♣ 10♥ K♦", [(1, "cards_left"), (18, "thoi_four_pair_sequence")]),
        ("5♠ 6♦ 9♥ K♣", [(4, "cards_left")]),
    ],
)
def test_count_thoi_table(left: str, items: list[tuple[int, str]]) -> None:
    g = setup(["4♠", left, "5♦", "6♣"])
    act(g, "4♠")
    assert [e for e in led(g) if e[0] == 1] == sorted((1, 0, u, r) for u, r in items)


def test_count_cong_pays_26_plus_thoi() -> None:
    cong = "4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 2♣ 2♥"
    g = setup(["4♠", "5♠ 6♠", cong, "8♠ 9♠"], cong=(2,))
    act(g, "4♠")
    assert [e for e in led(g) if e[0] == 2] == sorted(
        [(2, 0, 26, "cong"), (2, 0, 3, "thoi_black_two"), (2, 0, 6, "thoi_red_two")]
    )
    assert g.settlement == [2 + 35 + 2, -2, -35, -2]


def test_ket_3_bich() -> None:
    g = setup(["3♠", "5♠ 6♠ 2♥", "5♦ 6♦", "8♠ 9♠ 10♠ J♠"])
    act(g, "3♠")
    assert g.is_over and g.winner == 0
    assert led(g) == [(1, 0, 26, "ket_3_bich"), (2, 0, 26, "ket_3_bich"), (3, 0, 26, "ket_3_bich")]
    off = setup(["3♠", "5♠ 6♠ 2♥", "5♦ 6♦", "8♠ 9♠ 10♠ J♠"], SOUTH.replace(ket_3_bich=False))
    act(off, "3♠")
    assert off.settlement == [14, -8, -2, -4]


def test_ket_3_bich_needs_the_single_three() -> None:
    g = setup(["3♠ 4♦ 5♣", "6♠ 7♠", "5♦ 6♦", "8♠ 9♠"])
    act(g, "3♠ 4♦ 5♣")
    assert g.settlement == [6, -2, -2, -2]


def test_chan_ket_3_bich() -> None:
    # Seat 1 holds only 3♠ when seat 0 goes out; seats 0 and 2 played in the final round.
    g = setup(["9♠ K♠", "3♠", "10♠ J♦", "4♦ 5♦"])
    act(g, "9♠", None, "10♠", None, "K♠")
    assert g.is_over and g.winner == 0
    chan = [e for e in led(g) if e[3] == "chan_ket_3_bich"]
    assert chan == [(1, 0, 26, "chan_ket_3_bich"), (1, 2, 26, "chan_ket_3_bich")]
    assert not [e for e in led(g) if e[0] == 1 and e[3] != "chan_ket_3_bich"]  # nothing else
    # Seat 3 did not play in the final round: it neither pays nor receives.
    assert not [e for e in led(g) if 3 in e[:2]]
    assert g.settlement is not None and g.settlement[3] == 0


# ---- bomb payments --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "bomb", "units"),
    [
        ("2♠", THREE_PS, 3),
        ("2♥", THREE_PS, 6),
        ("2♠ 2♥", QUAD, 9),  # a pair of 2s is the sum of its cards
        ("2♦ 2♥", QUAD, 12),
        (THREE_PS, QUAD, 9),
        (QUAD_LOW, QUAD, 12),
        (QUAD, FOUR_PS_HIGH, 12),
        (FOUR_PS, FOUR_PS_HIGH, 18),
        (THREE_PS, THREE_PS_HIGH, 9),
    ],
)
@pytest.mark.parametrize("rules", [SOUTH, RANKED])
def test_cut_values(table: str, bomb: str, units: int, rules: Rules) -> None:
    if rules is RANKED:
        units //= 3
    g = setup([table + " 3♣", bomb + " 3♦", "3♥ 4♥", "8♥ 10♥"], rules)
    act(g, table, bomb, None, None, None)
    assert g.current_seat == 1 and g.table is None
    assert led(g) == [(0, 1, units, "chat")]


def test_chat_chong_chain_last_cut_pays_all_to_last_cutter() -> None:
    g = setup(["2♠ 10♣ 10♦", THREE_PS + " J♦", QUAD + " K♦", "3♦ 3♥"])
    act(g, "2♠", THREE_PS, QUAD, None, None, None)
    assert g.current_seat == 2
    assert led(g) == [(1, 2, 12, "chat")]  # 3 (black 2) + 9 (3 đôi thông)
    act(g, "K♦")
    assert g.settlement == [-2, -13, 17, -2]


def test_three_cut_chain() -> None:
    g = setup(["2♥ 3♣", THREE_PS + " 3♦", QUAD + " 3♥", FOUR_PS_HIGH + " 7♥"])
    act(g, "2♥", THREE_PS, QUAD, FOUR_PS_HIGH, None, None, None)
    assert g.current_seat == 3
    assert led(g) == [(2, 3, 6 + 9 + 12, "chat")]


def test_cut_that_took_its_owner_out_is_not_paid() -> None:
    g = setup(["2♥", QUAD + " 3♣", "5♦ 6♦", "8♠ 10♠"], RANKED)
    act(g, "2♥", QUAD, None, None)
    assert not [e for e in led(g) if e[3] == "chat"]


def test_cuts_are_paid_when_the_round_closes() -> None:
    """Issue 29, item 13: the ledger pays a chain when its round closes (the rules page said
    "cuts are paid at once"); the ``cut`` events say each cut's value as it happens."""
    g = setup(["2♠ 10♣ 10♦", THREE_PS + " J♦", QUAD + " K♦", "3♦ 3♥"])
    act(g, "2♠", THREE_PS)
    assert [e["units"] for e in g.events if e["type"] == "cut"] == [3] and g.ledger == []
    act(g, QUAD)
    assert [e["units"] for e in g.events if e["type"] == "cut"] == [3, 9] and g.ledger == []
    act(g, None, None)
    assert g.ledger == []  # seat 1 has yet to pass: the round is still open
    act(g, None)
    assert g.table is None and led(g) == [(1, 2, 12, "chat")]


def test_a_chain_is_paid_by_the_last_seat_cut_even_for_a_play_that_took_its_owner_out() -> None:
    """RULES.md: "the last player cut pays the whole chain to the last cutter. Nobody pays for a
    play that took its owner out." Seat 0 goes out (nhất) with its 2: it pays nothing. Seat 1's
    cut of it is cut in turn, so seat 1, the last seat cut, pays the whole chain, the 2's value
    included."""
    g = setup(["2♥", THREE_PS + " J♦", QUAD + " K♦", "3♦ 3♥"], RANKED)
    act(g, "2♥", THREE_PS, QUAD, None, None)
    assert g.table is None and led(g) == [(1, 2, 2 + 3, "chat")]  # red 2 and 3 đôi thông, ranked


def test_nobody_pays_a_chain_whose_last_cut_play_took_its_owner_out() -> None:
    """The last seat cut went out with the play that was cut: nobody pays the chain, not even
    its earlier cuts (seat 0's 2 was cut by seat 1, whose tứ quý took it out)."""
    g = setup(["2♥ 3♣", QUAD, FOUR_PS_HIGH + " 7♥", "3♦ 3♥"], RANKED)
    act(g, "2♥", QUAD, FOUR_PS_HIGH, None, None)
    assert [e["units"] for e in g.events if e["type"] == "cut"] == [2, 4]
    assert g.table is None and not [e for e in led(g) if e[3] == "chat"]


def test_cut_that_takes_the_cutter_out_is_paid() -> None:
    # Reading kept: the cut play is paid; only the cut play that took *its* owner out is not.
    g = setup(["2♥ 3♣", QUAD, "5♦ 6♦", "8♠ 10♠"])
    act(g, "2♥", QUAD)
    assert g.is_over and g.winner == 1
    assert (0, 1, 6, "chat") in led(g)


# ---- finishing on a 2 -----------------------------------------------------------------------


def test_finish_on_two_allowed_south() -> None:
    g = setup(["2♠ 2♥", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"])
    act(g, "2♠ 2♥")
    assert g.winner == 0 and g.settlement == [6, -2, -2, -2]


@pytest.mark.parametrize(
    ("rules", "twos", "units"),
    [
        (SOUTH.replace(finish_on_two="penalized"), "2♠ 2♥", 9),  # 3 + 6
        (NORTH, "2♠ 2♣", 6),
        (NORTH, "2♦ 2♥", 12),
    ],
)
def test_finish_on_two_penalized(rules: Rules, twos: str, units: int) -> None:
    g = setup([twos, "5♠ 6♠", "5♦ 6♦ 10♦", "8♠ 9♠"], rules)
    act(g, twos)
    assert g.is_over and g.winner is None
    assert led(g) == [(0, s, units, "finish_on_two") for s in (1, 2, 3)]  # nobody else pays


def test_finish_on_two_penalized_ranked_values() -> None:
    g = setup(["2♥", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], RANKED.replace(finish_on_two="penalized"))
    act(g, "2♥")
    assert g.is_over and led(g) == [(0, s, 2, "finish_on_two") for s in (1, 2, 3)]


def test_finish_on_two_forbidden() -> None:
    rules = SOUTH.replace(finish_on_two="forbidden")
    g = setup(["2♥", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules, turn=3)
    act(g, "8♠")
    assert [str(c) for c in g.legal_plays()] == []
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        g.play(0, "2♥")  # passing is open, so emptying the hand with a 2 is refused
    assert e.value.reason == "cannot_finish_on_two" and g.to_json() == before
    # Leading with nothing but a 2: the only legal action, allowed and penalised.
    g = setup(["2♥", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules)
    assert [str(c) for c in g.legal_plays()] == ["2♥"]
    act(g, "2♥")
    assert g.winner is None and g.settlement == [-18, 6, 6, 6]
    # With other plays available the emptying play is refused.
    g = setup(["2♠ 2♥", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules)
    assert "2♠ 2♥" not in [str(c) for c in g.legal_plays()]
    with pytest.raises(IllegalMoveError):
        g.play(0, "2♠ 2♥")


# ---- §2 the north ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("♠4♣4", "pair"),  # E
        ("♥A♦A", "pair"),  # E
        ("♠4♦4", None),  # E
        ("♣4♣5♣6", "straight"),  # E
        ("♥6♥7♥8♥9♥10", "straight"),  # E
        ("♦Q♦K♦A", "straight"),  # E
        ("♥6♠7♥8", None),  # E
        ("4♠ 4♣ 5♠ 5♣ 6♦ 6♥", None),  # no đôi thông
        ("♠5♦5♥5", "triple"),
    ],
)
def test_north_combinations(cards: str, expected: str | None) -> None:
    assert kind(cards, NORTH) == expected


@pytest.mark.parametrize(
    ("play", "table", "expected"),
    [
        ("♦5♥5", "♦4♥4", True),  # E
        ("♠5♣5", "♦4♥4", False),
        ("♠2♣2", "♦A♥A", True),  # a pair of 2s of one colour beats any non-2 pair
        ("♥J♥Q♥K", "♥8♥9♥10", True),  # E
        ("♠J♠Q♠K", "♥8♥9♥10", False),
        ("9♥", "8♥", True),
        ("9♠", "8♥", False),
        ("2♠", "A♥", True),
        ("2♥", "2♠", True),
        ("2♠", "2♥", False),
        ("A♠", "2♣", False),
        ("♠5♣5♦5", "♠4♦4♥4", True),  # triples any suits
        ("7♠ 7♣ 7♦ 7♥", "2♥", True),
        ("7♠ 7♣ 7♦ 7♥", "♦2♥2", True),
        ("8♠ 8♣ 8♦ 8♥", "7♠ 7♣ 7♦ 7♥", True),
    ],
)
def test_north_beating(play: str, table: str, expected: bool) -> None:
    assert beats(play, table, NORTH) is expected


def test_north_options() -> None:
    assert beats("9♠", "8♥", NORTH.replace(single_follows_suit=False))
    tfs = NORTH.replace(triple_follows_suits=True)
    assert beats("♠5♣5♥5", "♠4♣4♥4", tfs) and not beats("♠5♣5♦5", "♠4♣4♥4", tfs)
    assert instant_win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦ 10♠Q♦A♥", NORTH) is None  # no pair-sequence wins
    assert instant_win("4♦4♥5♦5♥6♣6♥7♣7♥8♣8♦9♣9♦ K♠", NORTH) == "six_pairs"


def test_north_bomb_only_in_turn() -> None:
    g = setup(["5♥ K♦ 3♣", "8♠ 8♣ 8♦ 8♥ 3♦", "6♥ 2♥ 4♣", "7♥ A♠ 4♦"], NORTH)
    act(g, "5♥", None, "6♥", "7♥", None, "2♥", None)
    assert g.current_seat == 2 and g.table is None  # seat 1 passed: never cuts after passing


# ---- §0 server contract ---------------------------------------------------------------------


ILLEGAL: list[tuple[str, bool, Any]] = [
    # (reason, after seat 0 led 9♠?, the call)
    ("not_your_turn", False, lambda g: g.play(1, "5♠")),
    ("not_your_turn", False, lambda g: g.pass_turn(2)),
    ("cards_not_in_hand", False, lambda g: g.play(0, "5♠")),
    ("invalid_combination", False, lambda g: g.play(0, "3♣ 9♠")),
    ("cannot_pass_on_lead", False, lambda g: g.pass_turn(0)),
    ("invalid_seat", False, lambda g: g.play(7, "3♣")),
    ("does_not_beat", True, lambda g: g.play(1, "8♥")),
    ("does_not_beat", True, lambda g: g.play(1, "5♠ 6♠ 7♠")),
    ("invalid_combination", True, lambda g: g.play(1, "5♠ 6♠")),
    ("not_your_turn", True, lambda g: g.play(0, "3♣")),
]


@pytest.mark.parametrize(("reason", "after_lead", "call"), ILLEGAL)
def test_illegal_moves_reasons_and_state_unchanged(reason: str, after_lead: bool, call: Any) -> None:
    g = setup(["3♣ 4♦ 9♠", "5♠ 6♠ 7♠ 8♥", "K♦ K♥", "A♠ 2♣"])
    if after_lead:
        act(g, "9♠")
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as e:
        call(g)
    assert e.value.reason == reason and str(e.value) and isinstance(e.value, ValueError)
    assert g.to_json() == before


def test_csprng_default_and_replay() -> None:
    a, b = Game(4), Game(4)
    assert a.rng_key != b.rng_key
    assert [a.hand(s) for s in range(4)] != [b.hand(s) for s in range(4)]
    while not a.is_over:
        a.auto_play(a.pending_seats[0])
    again = Game.replay(a.actions, players=4, seed=a.rng_key)
    assert again.events == a.events and again.settlement == a.settlement and again.ledger == a.ledger
    seeded = Game(4, seed=99)
    assert [seeded.hand(s) for s in range(4)] == [Game(4, seed=99).hand(s) for s in range(4)]


def _midgame() -> Game:
    g = Game(4, seed=8)
    for _ in range(6):
        g.auto_play(g.pending_seats[0])
    assert not g.is_over and g.table is not None
    return g


def test_snapshot_round_trip() -> None:
    g = _midgame()
    h = Game.from_json(g.to_json())
    assert h.to_json() == g.to_json()
    while not g.is_over:
        seat = g.pending_seats[0]
        g.auto_play(seat)
        h.auto_play(seat)
    assert h.settlement == g.settlement and h.events == g.events


def _tampered(edit: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    d: dict[str, Any] = json.loads(_midgame().to_json())
    edit(d["state"])
    return d


def _lost_card(st: dict[str, Any]) -> None:
    st["hands"][2] &= st["hands"][2] - 1


@pytest.mark.parametrize("edit", [duplicate_card, move_card, wrong_turn, passed_turn, _lost_card])
def test_snapshot_validation_rejects_tampering(edit: Any) -> None:
    d = _tampered(edit)
    with pytest.raises(SnapshotError):
        Game.from_dict(d)
    with pytest.raises(SnapshotError):
        Game.from_json(json.dumps(d))


def test_snapshot_rejects_garbage() -> None:
    with pytest.raises(SnapshotError):
        Game.from_json("{not json")
    with pytest.raises(SnapshotError):
        Game.from_json("{}")


def test_views_leak_no_hidden_cards() -> None:
    g = _midgame()
    for seat in range(4):
        v = g.view(seat)
        text = json.dumps(v, ensure_ascii=False)
        assert sorted(v["hand"]) == sorted(str(c) for c in g.hand(seat))
        assert v["hand_counts"] == [len(g.hand(s)) for s in range(4)]
        for other in range(4):
            if other != seat:
                for c in g.hand(other):
                    assert str(c) not in text and c.ascii not in text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_13_each_rest_undealt(players: int) -> None:
    g = Game(players, seed=2)
    hands = [g.hand(s) for s in range(players)]
    assert all(len(h) == 13 for h in hands)
    assert len({c for h in hands for c in h}) == 13 * players
    assert g.view(0)["hand_counts"] == [13] * players


def test_rules_presets_and_inconsistent_options() -> None:
    from vncards import RulesError

    assert Rules() == SOUTH and SOUTH.scoring == "count" and SOUTH.ending == "first_out"
    assert SOUTH.finish_on_two == "allowed" and SOUTH.bomb_after_pass == "none"
    assert SOUTH.first_lead == "three_of_spades" and SOUTH.ket_3_bich and SOUTH.quad_beats_pair_of_twos
    assert NORTH.finish_on_two == "penalized" and NORTH.single_follows_suit
    with pytest.raises(RulesError):
        SOUTH.replace(scoring="ranked")  # ranked scoring needs the ranked ending
    with pytest.raises(RulesError):
        SOUTH.replace(ending="sideways")
    with pytest.raises(RulesError):
        SOUTH.replace(no_such_option=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        SOUTH.scoring = "ranked"  # type: ignore[misc]  # Rules are frozen: the assignment must fail


def test_four_twos_left_are_paid_as_four_twos() -> None:
    # Reading kept: a hand's items are split to make the payment largest (3+3+6+6 > 12).
    g = setup(["4♠", "2♠ 2♣ 2♦ 2♥", "5♦", "6♣"])
    act(g, "4♠")
    assert g.settlement is not None and g.settlement[1] == -18


def test_auto_play_for_timeouts() -> None:
    g = Game(4, seed=6)
    seat = g.current_seat
    assert seat is not None
    with pytest.raises(IllegalMoveError) as e:
        g.auto_play((seat + 1) % 4)
    assert e.value.reason == "not_your_turn"
    g.auto_play(seat)
    assert len(g.actions) == 1 and g.actions[0]["seat"] == seat
