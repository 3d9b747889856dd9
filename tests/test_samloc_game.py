"""Sâm Lốc game flow (rules: docs/rules/samloc.md): báo Sâm, báo 1, finishing on a 2, cóng, chặt, instant
wins and the settlement table, each with exact payments; plus the shared invariants."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

import pytest

from support import shedding_positions
from support.actions import open_actions
from support.ledger import net_totals
from support.shedding_positions import midhand, reasons
from vncards import IllegalMoveError, RulesError, SnapshotError
from vncards.samloc import Game, Rules, instant_winner

# ---- building tables with chosen cards -----------------------------------------------------


# Hands need not hold ten cards here.
dealt = partial(shedding_positions.dealt, ten_cards=False)

# A Sâm hand: a seven-card straight 3–9 and three 2s; nobody else holds a 7-card straight.
SAM_HANDS = [
    "3♣ 3♦ 5♣ 5♦ 7♣ 7♦ 9♣ J♣ K♣ A♣",
    "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 2♠ 2♣ 2♦",
    "4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ Q♠ A♠ 2♥",
    "3♥ 4♥ 5♠ 6♥ 8♣ 10♦ J♦ Q♦ K♦ A♦",
]


def test_sam_declarations_in_turn_from_the_nominal_leader() -> None:
    g = dealt(SAM_HANDS, leader=2)
    assert g.phase == "bao_sam" and g.pending_seats == [2]
    assert open_actions(g) == [
        {"type": "declare_sam", "seat": 2},
        {"type": "decline_sam", "seat": 2},
    ]
    assert g.legal_actions(0) == []
    for seat in (2, 3, 0, 1):
        g.decline_sam(seat)
    # Nobody declared: the nominal leader leads.
    assert g.phase == "play" and g.current_seat == 2 and g.sam_declarer is None


def test_sam_success_pays_twenty_each_and_ignores_the_final_two_by_the_house_rule() -> None:
    g = dealt(SAM_HANDS, leader=0, rules=Rules(sam_may_finish_on_two=True))
    g.decline_sam(0)
    g.declare_sam(1)
    assert g.phase == "play" and g.current_seat == 1 and g.sam_declarer == 1
    g.play(1, "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦")
    for seat in (2, 3, 0):
        assert g.legal_actions(seat) in ([], [{"type": "pass", "seat": seat}])
        g.pass_turn(seat)
    assert g.current_seat == 1 and g.table is None
    g.play(1, "2♠ 2♣ 2♦")
    assert g.is_over and g.winner == 1
    assert reasons(g) == [(0, 1, 20, "sam"), (2, 1, 20, "sam"), (3, 1, 20, "sam")]
    assert g.settlement == [-20, 60, -20, -20]
    assert any(e["type"] == "sam_success" for e in g.events)


@pytest.mark.parametrize(
    ("pays", "ledger", "settlement"),
    [
        ("blocker", [(1, 2, 60, "den_sam")], [0, -60, 60, 0]),
        (
            "each",
            [(1, 0, 20, "den_sam"), (1, 2, 20, "den_sam"), (1, 3, 20, "den_sam")],
            [20, -60, 20, 20],
        ),
    ],
)
def test_sam_blocked(pays: Literal["blocker", "each"], ledger: list[Any], settlement: list[int]) -> None:
    g = dealt(SAM_HANDS, leader=1, rules=Rules(sam_block_pays=pays))
    g.declare_sam(1)
    assert g.phase == "play"  # only the first declarer counts: declarations end
    g.play(1, "3♠")
    g.play(2, "4♠")  # any legal beat blocks the Sâm and ends the hand at once
    assert g.is_over and g.winner == 2
    assert reasons(g) == ledger and g.settlement == settlement


def test_sam_blocked_by_a_cut_pays_nothing_else() -> None:
    hands = list(SAM_HANDS)
    hands[1] = "3♠ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦ 10♣ 2♠ 2♣"
    hands[3] = "2♦ 4♥ 5♠ 6♥ 10♦ J♦ Q♦ Q♥ Q♣ Q♠"
    hands[2] = "3♥ 4♠ 4♣ 6♠ 6♦ 8♠ 8♥ 10♠ A♠ 2♥"
    hands[0] = "3♣ 3♦ 5♣ 5♦ 7♣ 7♦ 9♣ J♣ K♣ A♣"
    g = dealt(hands, leader=1)
    g.declare_sam(1)
    g.play(1, "2♠")
    g.pass_turn(2)
    g.play(3, "Q♠ Q♣ Q♦ Q♥")
    assert g.is_over and reasons(g) == [(1, 3, 60, "den_sam")]


def test_declarations_and_plays_refused_out_of_phase() -> None:
    g = dealt(SAM_HANDS, leader=0)
    before = g.to_json()
    calls: list[tuple[Callable[[], None], str]] = [
        (lambda: g.play(0, "3♣"), "declare_first"),
        (lambda: g.pass_turn(0), "declare_first"),
        (lambda: g.declare_sam(1), "not_your_turn"),
        (lambda: g.apply({"type": "decline_sam", "seat": 3}), "not_your_turn"),
        (lambda: g.apply({"type": "shout", "seat": 0}), "invalid_action"),
    ]
    for call, reason in calls:
        with pytest.raises(IllegalMoveError) as err:
            call()
        assert err.value.reason == reason
        assert g.to_json() == before
    for seat in range(4):
        g.decline_sam(seat)
    with pytest.raises(IllegalMoveError) as err:
        g.declare_sam(0)
    assert err.value.reason == "not_declaring"


# ---- báo 1 -------------------------------------------------------------------------------

BAO_HANDS = ["K♠", "5♦ A♥ 9♣", "3♠ 4♥ 6♦ 8♣ 2♣", "7♠ 7♦ 10♥ J♣"]
BAO_PLAYED = [
    "3♣ 4♠ 5♠ 6♠ 7♣ 8♠ 9♠ 10♠ J♠",
    "3♦ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦",
    "3♥ 4♣ 5♣ 6♥ 8♥",
    "9♥ 10♦ J♦ Q♦ K♦ A♦",
]


def test_bao_mot_violation_then_den_lang() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1)
    g.play(1, "5♦")  # seat 0 holds one card: seat 1 should have led its ace
    # Issue 30, item 1: only the violator is told it broke báo 1; the table sees a single
    # played under báo 1, as for any single (a public record would show the ace it holds).
    single = {"type": "bao_mot_single", "seat": 1, "one_card_seats": [0], "violation": True}
    assert g.events[-1] == single and g.events_for(1)[-1] == single
    for seat in (0, 2, 3):
        assert g.events_for(seat)[-1] == {**single, "violation": None}
    assert g.public_events()[-1] == {**single, "violation": None}
    assert not any(e["type"] == "bao_mot_violation" for e in g.events)
    g.pass_turn(2)
    g.pass_turn(3)
    g.play(0, "K♠")
    assert g.is_over and g.winner == 0
    # Seat 1 pays every card the losers hold, 1 unit each: its own 2 (A♥ 9♣), seat 2's 5
    # (3♠ 4♥ 6♦ 8♣ 2♣) and seat 3's 4.
    assert reasons(g) == [(1, 0, 11, "den_lang")]
    assert g.settlement == [11, -11, 0, 0]
    # With the settlement the violation is public, for every seat and a spectator.
    for events in (g.events, g.public_events(), *(g.events_for(s) for s in range(4))):
        end = [e["type"] for e in events[-5:]]
        assert end == ["play", "out", "bao_mot_violation", "den_lang", "hand_end"], end
        assert events[-3] == {"type": "bao_mot_violation", "seat": 1, "one_card_seats": [0]}


def test_bao_mot_is_announced_when_a_seat_is_down_to_one_card() -> None:
    """Issue 29, item 7: a ``bao_mot`` event, for every seat, right after the play that leaves
    a seat one card; in words for the command line and the browser (``words.term``)."""
    from vncards.words import term

    g = midhand(["K♠ 3♣", *BAO_HANDS[1:]], ["4♠ 5♠ 6♠ 7♣ 8♠ 9♠ 10♠ J♠", *BAO_PLAYED[1:]], turn=0)
    g.play(0, "3♣")
    announced = {"type": "bao_mot", "seat": 0}
    for events in (g.events, g.public_events(), *(g.events_for(s) for s in range(4))):
        assert events[-2]["type"] == "play" and events[-1] == announced
    assert sum(e == announced for e in g.events) == 1
    g.play(1, "9♣")  # not the seat's highest: it is bound by seat 0's báo 1
    assert g.events[-1]["type"] == "bao_mot_single"
    assert "báo 1" in term("bao_mot") and "_" not in term("bao_mot") + term("bao_mot_single")


def test_bao_mot_events_in_random_games() -> None:
    """Every play that leaves a seat one card is followed by its ``bao_mot``; every single a
    bound seat plays under ``"penalize"`` by a ``bao_mot_single`` whose private flag is true
    exactly for the recorded violations."""
    import random

    for seed in range(30):
        g = Game(players=2 + seed % 4, seed=seed)
        rnd = random.Random(seed)
        while not g.is_over:
            seat = g.pending_seats[0]
            actions = g.legal_actions(seat)
            if actions[-1]["type"] == "decline_sam":
                actions = actions[-1:]
            before = [len(g.hand(s)) for s in range(g.players)]
            start = len(g.events)
            g.apply(rnd.choice(actions))
            new = g.events[start:]
            played = [e for e in new if e["type"] == "play"]
            if not played or g.is_over:
                continue
            after = len(g.hand(seat))
            assert ({"type": "bao_mot", "seat": seat} in new) == (after == 1)
            bound = [s for s in range(g.players) if s != seat and before[s] == 1]
            if played[0]["combo"] == "single" and bound:
                (single,) = [e for e in new if e["type"] == "bao_mot_single"]
                assert single["one_card_seats"] == bound
                for other in range(g.players):
                    shown = [e for e in g.events_for(other)[start:] if e["type"] == "bao_mot_single"]
                    assert shown[0]["violation"] == (single["violation"] if other == seat else None)
            else:
                assert not any(e["type"] == "bao_mot_single" for e in new)


def test_the_command_line_prints_bao_mot() -> None:
    """The command line shows the announcement through its event rendering (as a person sees
    it: ``vncards play``, declining Sâm, then always the first move)."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "vncards", "play", "samloc", "--players", "3", "--seed", "1"],
        input="2\n" + "1\n" * 300,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert ": one card left (báo 1)" in out.stdout


def test_bao_mot_den_lang_payments_option() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1, rules=Rules(bao_mot_den="payments"))
    g.play(1, "5♦")
    g.pass_turn(2)
    g.pass_turn(3)
    g.play(0, "K♠")
    # Seat 1 pays what every loser would have paid: 2 (A♥ 9♣) + 15 + 4 (2♣ and four cards)
    # + 4 (seat 3's four cards).
    assert reasons(g) == [(1, 0, 25, "den_lang")]
    assert g.settlement == [25, -25, 0, 0]


def test_bao_mot_record_lapses_when_the_one_card_seat_passes() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1)
    g.play(1, "9♣")
    g.play(2, "2♣")
    g.pass_turn(3)
    g.pass_turn(0)  # cannot beat: the record lapses
    g.pass_turn(1)
    assert g.current_seat == 2 and g.table is None


def test_bao_mot_without_violation_pays_normally() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1)
    g.play(1, "A♥")
    g.play(2, "2♣")
    g.pass_turn(3)
    g.pass_turn(0)
    g.pass_turn(1)
    g.play(2, "8♣")  # its highest single now
    g.pass_turn(3)
    g.play(0, "K♠")
    assert g.is_over and not any(e["type"] == "bao_mot_violation" for e in g.events)
    assert reasons(g) == [(1, 0, 2, "thoi_rac"), (2, 0, 3, "thoi_rac"), (3, 0, 4, "thoi_rac")]


def test_bao_mot_previous_seat_scope() -> None:
    rules = Rules(bao_mot_scope="previous_seat")
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1, rules=rules)
    g.play(1, "5♦")  # seat 1 is not the seat just before seat 0: no violation
    assert g.events[-1]["type"] == "play"
    g.pass_turn(2)
    # Seat 3 plays just before seat 0, so it must play its highest single.
    g.play(3, "J♣")
    assert g.events[-1] == {"type": "bao_mot_single", "seat": 3, "one_card_seats": [0], "violation": False}
    g.play(0, "K♠")
    assert [r[3] for r in reasons(g)] == ["thoi_rac", "thoi_rac", "thoi_2", "thoi_rac"]


def test_bao_mot_enforce() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1, rules=Rules(bao_mot_mode="enforce"))
    assert [a["cards"] for a in open_actions(g)] == ["A♥"]
    before = g.to_json()
    with pytest.raises(IllegalMoveError) as err:
        g.play(1, "5♦")
    assert err.value.reason == "bao_mot" and g.to_json() == before
    g.play(1, "A♥")
    # Seat 2 may only beat with its highest card; seat 3 cannot beat an ace.
    assert [a.get("cards") for a in open_actions(g)] == ["2♣", None]


# ---- finishing on a 2 --------------------------------------------------------------------

TWO_HANDS = ["2♠", "5♦ A♥ 9♣", "3♠ 4♥ 6♦ 8♣ 2♣", "7♠ 7♦ 10♥ J♣"]
TWO_PLAYED = BAO_PLAYED


def test_finish_on_two_penalized() -> None:
    g = midhand(TWO_HANDS, TWO_PLAYED, turn=0)
    g.play(0, "2♠")
    assert g.is_over and g.winner is None
    assert reasons(g) == [(0, s, 15, "finish_on_two") for s in (1, 2, 3)]
    assert g.settlement == [-45, 15, 15, 15]


def test_finish_on_two_pair_pays_per_two() -> None:
    hands = ["2♠ 2♥", "5♦ A♥ 9♣", "3♠ 4♥ 6♦ 8♣ 2♣", "7♠ 7♦ 10♥"]
    played = [
        "3♣ 4♠ 5♠ 6♠ 7♣ 8♠ 9♠ 10♠",
        "3♦ 4♦ 5♥ 6♣ 7♥ 8♦ 9♦",
        "3♥ 4♣ 5♣ 6♥ 8♥",
        "9♥ 10♦ J♦ Q♦ K♦ A♦ J♣",
    ]
    g = midhand(hands, played, turn=0, rules=Rules(finish_on_two="penalized"))
    g.play(0, "2♠ 2♥")
    assert g.settlement == [-90, 30, 30, 30]


def test_finish_on_two_forbidden_and_allowed() -> None:
    g = midhand(TWO_HANDS, TWO_PLAYED, turn=1, rules=Rules(finish_on_two="forbidden"))
    g.play(1, "A♥")
    g.pass_turn(2)
    g.pass_turn(3)
    assert open_actions(g) == [{"type": "pass", "seat": 0}]
    with pytest.raises(IllegalMoveError) as err:
        g.play(0, "2♠")
    assert err.value.reason == "cannot_finish_on_two"
    # On a lead with nothing else to play, it is allowed and penalised.
    g2 = midhand(TWO_HANDS, TWO_PLAYED, turn=0, rules=Rules(finish_on_two="forbidden"))
    g2.play(0, "2♠")
    assert g2.settlement == [-45, 15, 15, 15]
    g3 = midhand(TWO_HANDS, TWO_PLAYED, turn=0, rules=Rules(finish_on_two="allowed"))
    g3.play(0, "2♠")
    assert g3.winner == 0 and g3.settlement == [3 + 19 + 4, -3, -19, -4]


# ---- thối, cóng, chặt --------------------------------------------------------------------


def test_thoi_and_cong() -> None:
    hands = ["K♠", "5♦ A♥ 9♣ 9♦ 9♥ 9♠ 2♦", "3♠ 4♥ 6♦ 8♣ 2♣ 3♥ 4♣ 5♣ 6♥ 2♥", "7♠ 7♦"]
    played = ["3♣ 4♠ 5♠ 6♠ 7♣ 8♠ 8♥ 10♠ J♠", "3♦ 4♦ 5♥", "", "6♣ 7♥ 8♦ 10♥ J♣ 10♦ J♦ Q♦"]
    g = midhand(hands, played, turn=0)
    g.play(0, "K♠")
    assert reasons(g) == [
        (1, 0, 2, "thoi_rac"),
        (1, 0, 15, "thoi_2"),
        (1, 0, 15, "thoi_tu_quy"),
        (2, 0, 15, "cong"),
        (2, 0, 30, "thoi_2"),
        (3, 0, 2, "thoi_rac"),
    ]
    assert [e["seat"] for e in g.events if e["type"] == "cong"] == [2]


def test_cut_and_chain() -> None:
    hands = ["2♠ 3♠", "7♠ 7♣ 7♦ 7♥ 3♦", "8♠ 8♣ 8♦ 8♥ 3♥", "4♠ 5♠"]
    played = [
        "4♣ 5♣ 6♣ 9♣ 10♣ J♣ Q♣ K♣",
        "4♦ 5♦ 6♦ 9♦ 10♦",
        "4♥ 5♥ 6♥ 9♥ 10♥",
        "6♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ A♣",
    ]
    g = midhand(hands, played, turn=0)
    g.play(0, "2♠")
    g.play(1, "7♠ 7♣ 7♦ 7♥")
    g.play(2, "8♠ 8♣ 8♦ 8♥")
    for seat in (3, 0, 1):
        g.pass_turn(seat)
    # Chặt chồng: the last seat cut pays 15 × 2 cuts to the last cutter when the round closes.
    assert reasons(g) == [(1, 2, 30, "chat")]
    single = midhand(hands, played, turn=0)
    single.play(0, "2♠")
    single.play(1, "7♠ 7♣ 7♦ 7♥")
    for seat in (2, 3, 0):
        single.pass_turn(seat)
    assert reasons(single) == [(0, 1, 15, "chat")]


def test_quad_on_pair_of_twos_option() -> None:
    hands = ["2♠ 2♥ 3♠", "7♠ 7♣ 7♦ 7♥ 3♦", "8♥ 3♥", "4♠ 5♠"]
    played = [
        "4♣ 5♣ 6♣ 9♣ 10♣ J♣ Q♣",
        "4♦ 5♦ 6♦ 9♦ 10♦",
        "4♥ 5♥ 6♥ 9♥ 10♥ 8♠ 8♣ 8♦",
        "6♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ A♣",
    ]
    g = midhand(hands, played, turn=0, rules=Rules(finish_on_two="penalized"))
    g.play(0, "2♠ 2♥")
    assert g.legal_actions(1) == [{"type": "pass", "seat": 1}]
    g2 = midhand(hands, played, turn=0, rules=Rules(quad_beats_pair_of_twos=True))
    g2.play(0, "2♠ 2♥")
    g2.play(1, "7♠ 7♣ 7♦ 7♥")
    for seat in (2, 3, 0):
        g2.pass_turn(seat)
    assert reasons(g2) == [(0, 1, 30, "chat")]


# ---- instant wins, leaders, hands in sequence -------------------------------------------


def _seed_with(pred: Any, players: int = 4) -> Game:
    for seed in range(20_000):
        g = Game(players=players, seed=seed)
        if pred(g):
            return g
    raise AssertionError("no such seed")


def test_instant_win_pays_twenty_each() -> None:
    g = _seed_with(lambda g: g.is_over)
    win = next(e for e in g.events if e["type"] == "instant_win")
    seat = win["seat"]
    assert g.winner == seat and win["win"] in (
        "dragon",
        "four_twos",
        "same_colour",
        "three_triples",
        "five_pairs",
    )
    assert sorted(reasons(g)) == sorted((s, seat, 20, "an_trang") for s in range(4) if s != seat)
    # The next hand is led by the instant winner.
    g.next_hand()
    assert g.nominal_leader == seat


def test_first_leader_random_then_previous_winner() -> None:
    leaders = {Game(players=4, seed=s).nominal_leader for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    g = Game(players=3, seed=11)
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    winner = g.winner
    g.apply({"type": "next_hand"})
    if winner is not None and not g.is_over:
        assert g.nominal_leader == winner and g.current_seat == winner
    assert g.hand_number == 2


# ---- invariants over random games ---------------------------------------------------------

OPTION_SETS = [
    Rules(),
    Rules(bao_mot_mode="enforce"),
    Rules(bao_mot_scope="previous_seat", sam_block_pays="each"),
    Rules(low_straights=True, quad_beats_pair_of_twos=True, finish_on_two="forbidden"),
    Rules(finish_on_two="allowed", bao_mot_mode="enforce", bao_mot_scope="previous_seat"),
]


def check_invariants(g: Game) -> None:
    n = g.players
    st = g.to_dict()["state"]
    union = 0
    for m in st["hands"] + st["played"]:
        assert union & m == 0
        union |= m
    assert union == st["dealt"] and union.bit_count() == 10 * n
    totals = net_totals(g.ledger, n)
    assert sum(totals) == 0
    if g.is_over:
        assert g.settlement == totals
    for seat in range(n):
        view = g.view(seat)
        json.dumps(view)
        own = set(view["hand"])
        for other in range(n):
            if other != seat:
                assert not own & {str(c) for c in g.hand(other)}
        # Cards another seat holds never appear in this seat's view (until the hand is over
        # and every seat shows what it holds: ``revealed``).
        assert view["revealed"] is None or g.is_over
        text = json.dumps({k: v for k, v in view.items() if k != "revealed"}, ensure_ascii=False)
        for other in range(n):
            if other != seat:
                assert not any(f'"{c}"' in text for c in g.hand(other))


def play_random(seed: int, players: int, rules: Rules, declare: float = 0.3) -> Game:
    from vncards import Rng

    rng = Rng(seed + 1_000_000)
    g = Game(players=players, rules=rules, seed=seed)
    while not g.is_over:
        acts = open_actions(g)
        assert acts and all(a["seat"] == g.pending_seats[0] for a in acts)
        if acts[0]["type"] == "declare_sam":
            a = acts[0] if rng.below(1000) < declare * 1000 else acts[1]
        else:
            a = acts[rng.below(len(acts))]
        g.apply(a)
    return g


def run_games(count: int) -> None:
    for i in range(count):
        players = 2 + i % 4
        rules = OPTION_SETS[i % len(OPTION_SETS)]
        g = play_random(i, players, rules)
        check_invariants(g)
        assert Game.replay(g.actions, players=players, rules=rules, seed=i).to_json() == g.to_json()
        assert Game.from_json(g.to_json()).to_json() == g.to_json()


def test_random_games() -> None:
    run_games(300)


@pytest.mark.slow
def test_random_games_many() -> None:
    run_games(10_000)


def test_snapshot_validation() -> None:
    g = dealt(SAM_HANDS, leader=0)
    d = g.to_dict()
    bad = json.loads(json.dumps(d))
    bad["state"]["samloc"]["declined"] = 2
    with pytest.raises(SnapshotError):
        Game.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["state"]["hands"][0] = bad["state"]["hands"][1]
    with pytest.raises(SnapshotError):
        Game.from_dict(bad)
    bad = json.loads(json.dumps(d))
    del bad["state"]["samloc"]
    with pytest.raises(SnapshotError):
        Game.from_dict(bad)


# ---- deal, seats, bombs only in turn -------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_deal_ten_cards_each_rest_undealt(players: int) -> None:
    g = Game(players=players, seed=players)
    hands = [set(g.hand(s)) for s in range(players)]
    assert all(len(h) == 10 for h in hands)
    assert len(set().union(*hands)) == 10 * players
    assert g.view(0)["hand_counts"] == [10] * players


@pytest.mark.parametrize("players", [1, 6])
def test_seat_range(players: int) -> None:
    with pytest.raises(RulesError):
        Game(players=players)


def test_bombs_only_in_turn() -> None:
    # Seat 1 passes on an ace, then seat 2 plays a 2: seat 1's tứ quý cannot come back.
    hands = ["A♠ 3♠", "7♠ 7♣ 7♦ 7♥ 3♦", "2♣ 3♥", "4♠ 5♠"]
    played = [
        "4♣ 5♣ 6♣ 9♣ 10♣ J♣ Q♣ K♣",
        "4♦ 5♦ 6♦ 9♦ 10♦",
        "4♥ 5♥ 6♥ 9♥ 10♥ 8♠ 8♣ 8♦",
        "6♠ 9♠ 10♠ J♠ Q♠ K♠ A♥ A♣",
    ]
    g = midhand(hands, played, turn=0)
    g.play(0, "A♠")
    g.pass_turn(1)
    g.play(2, "2♣")
    g.pass_turn(3)
    g.pass_turn(0)
    assert g.table is None and g.current_seat == 2 and g.ledger == []


def test_instant_winner_tie_break_by_seat() -> None:
    a, b = "4♦4♥7♦7♥9♣9♥10♣10♥K♣K♦", "3♠3♣5♠5♣6♦6♠8♠8♦K♥K♠"
    nothing = "3♥4♣6♣7♠8♥10♠J♣Q♥J♥A♦"
    assert instant_winner([a, nothing, b], leader=0) == (0, "five_pairs")
    assert instant_winner([a, nothing, b], leader=1) == (2, "five_pairs")
    assert instant_winner([a, nothing, b], leader=2) == (2, "five_pairs")
    red = "4♦4♥5♦5♥6♥9♦10♥J♦Q♦A♥"
    assert instant_winner([nothing, red, b], leader=2) == (1, "same_colour")


def test_quad_cuts_quad_pays_fifteen() -> None:
    hands = ["7♠ 7♣ 7♦ 7♥ 3♠", "8♠ 8♣ 8♦ 8♥ 3♦", "5♥ 3♥", "4♠ 5♠"]
    played = [
        "4♣ 5♣ 6♣ 9♣ 10♣",
        "4♦ 5♦ 6♦ 9♦ 10♦",
        "4♥ 6♥ 9♥ 10♥ J♠ J♣ J♦ J♥",
        "6♠ 9♠ 10♠ Q♠ K♠ A♠ A♣ A♥",
    ]
    g = midhand(hands, played, turn=0)
    g.play(0, "7♠ 7♣ 7♦ 7♥")
    g.play(1, "8♠ 8♣ 8♦ 8♥")
    for seat in (2, 3, 0):
        g.pass_turn(seat)
    assert reasons(g) == [(0, 1, 15, "chat")]


def test_snapshot_rejects_a_violation_without_one_card() -> None:
    g = midhand(BAO_HANDS, BAO_PLAYED, turn=1)
    g.play(1, "5♦")
    d = g.to_dict()
    assert d["state"]["samloc"]["violations"] == [[0, 1]]
    Game.from_dict(d)
    d["state"]["samloc"]["violations"] = [[2, 1]]
    with pytest.raises(SnapshotError):
        Game.from_dict(d)


def test_views_and_descriptions() -> None:
    g = dealt(SAM_HANDS, leader=3)
    assert g.legal_plays() == []
    v = g.view(0)
    assert v["phase"] == "bao_sam" and v["nominal_leader"] == 3 and v["sam_declarer"] is None
    assert v["hand"] == SAM_HANDS[0].split() and v["hand_counts"] == [10, 10, 10, 10]
    assert g.describe({"type": "declare_sam", "seat": 3}) == "seat 3 declares Sâm"
    assert g.describe({"type": "decline_sam", "seat": 3}) == "seat 3 does not declare Sâm"
    g.decline_sam(3)
    g.declare_sam(0)
    assert g.view(2)["sam_declarer"] == 0 and g.view(2)["phase"] == "play"
    assert "straight" in g.describe({"type": "play", "seat": 0, "cards": "3♣ 4♥ 5♣"})
    assert len(g.legal_plays()) > 10
