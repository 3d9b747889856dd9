"""The Tiến Lên game flow: turns, rounds, passing, hưởng sái, chặt chains, bomb after pass,
kết 3 bích, cóng, thối, both scorings, finishing on a 2, instant wins, next hand, errors,
snapshots, replay and views."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from support import shedding_positions
from support.actions import open_actions
from support.shedding_positions import NORTH, RANKED, SOUTH, act, reasons
from vncards import IllegalMoveError, SnapshotError, tienlen
from vncards.tienlen import Game, Rules

DECK = (1 << 52) - 1
# Seats may hold 13 cards without being in ``cong``.
setup = partial(shedding_positions.setup, strict_cong=False)


def test_passing_locks_a_seat_out_of_the_round() -> None:
    g = setup(["3♠ 9♠ K♠", "4♠ 10♠ A♠", "5♠ J♠ A♣", "6♠ Q♠ A♦"])
    act(g, "3♠", None, "5♠", "6♠")
    assert g.current_seat == 0
    act(g, "9♠")
    assert g.current_seat == 2  # seat 1 passed: skipped until the round ends
    act(g, "J♠", None, None)
    # everyone else passed: seat 2 leads a new round with any play
    assert g.current_seat == 2 and g.table is None
    assert g.view(0)["passed"] == []
    with pytest.raises(IllegalMoveError) as e:
        g.pass_turn(2)
    assert e.value.reason == "cannot_pass_on_lead"


def test_first_out_ends_the_hand_and_counts_cards() -> None:
    g = setup(["3♠ 4♠", "5♠ 6♠ 7♦ 2♠", "5♦ 6♦ 2♥", "8♠ 9♠ 10♦ J♦"])
    act(g, "3♠", None, None, None)
    assert g.current_seat == 0 and g.table is None
    act(g, "4♠")
    assert g.is_over and g.winner == 0 and g.current_seat is None
    assert sorted(reasons(g)) == sorted(
        [
            (1, 0, 3, "cards_left"),
            (1, 0, 3, "thoi_black_two"),
            (2, 0, 2, "cards_left"),
            (2, 0, 6, "thoi_red_two"),
            (3, 0, 4, "cards_left"),
        ]
    )
    assert g.settlement == [18, -6, -8, -4]


def test_thoi_of_bombs_in_hand() -> None:
    g = setup(["3♠ 4♠", "7♠ 7♣ 7♦ 7♥ 9♠", "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣", "Q♦ Q♥"])
    act(g, "3♠", None, None, None, "4♠")
    assert (1, 0, 12, "thoi_four_of_a_kind") in reasons(g)
    assert (1, 0, 1, "cards_left") in reasons(g)
    assert (2, 0, 9, "thoi_three_pair_sequence") in reasons(g)
    assert (2, 0, 1, "cards_left") in reasons(g)


def test_ket_3_bich_and_chan_ket() -> None:
    g = setup(["3♠", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"])
    act(g, "3♠")
    assert g.is_over
    assert reasons(g) == [(1, 0, 26, "ket_3_bich"), (2, 0, 26, "ket_3_bich"), (3, 0, 26, "ket_3_bich")]
    # Chặn kết 3 bích: seat 1 holds only 3♠ when seat 0 goes out.
    g = setup(["9♠ K♠", "3♠", "10♠ J♦", "4♦ 5♦"])
    act(g, "9♠", None, "10♠", None, "K♠")
    assert g.is_over
    assert sorted(reasons(g)) == sorted(
        [
            (1, 0, 26, "chan_ket_3_bich"),
            (1, 2, 26, "chan_ket_3_bich"),
            (2, 0, 1, "cards_left"),
        ]
    )
    g = setup(["3♠", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], SOUTH.replace(ket_3_bich=False))
    act(g, "3♠")
    assert g.settlement == [6, -2, -2, -2]


def test_cong_pays_26_plus_thoi() -> None:
    cong_hand = "4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 2♣ 2♥"
    g = setup(["3♠", "5♠ 6♠", "5♦ 6♦", cong_hand], SOUTH.replace(ket_3_bich=False), cong=(3,))
    act(g, "3♠")
    assert (3, 0, 26, "cong") in reasons(g)
    assert (3, 0, 3, "thoi_black_two") in reasons(g) and (3, 0, 6, "thoi_red_two") in reasons(g)
    assert not any(e[0] == 3 and e[3] == "cards_left" for e in reasons(g))


def test_cut_chain_last_cut_pays_the_whole_chain() -> None:
    g = setup(["2♠ 9♠", "3♠ 3♣ 4♦ 4♥ 5♠ 5♦ K♣", "7♠ 7♣ 7♦ 7♥ Q♣", "8♦ 10♦"])
    act(g, "2♠", "3♠ 3♣ 4♦ 4♥ 5♠ 5♦", "7♠ 7♣ 7♦ 7♥")
    assert [e["units"] for e in g.events if e["type"] == "cut"] == [3, 9]
    act(g, None, None, None)  # round closes; seat 2 leads
    assert g.current_seat == 2
    assert reasons(g) == [(1, 2, 12, "chat")]


def test_cut_that_took_its_owner_out_is_not_paid() -> None:
    g = setup(["2♥", "7♠ 7♣ 7♦ 7♥ 9♣", "5♦ 6♦", "8♠ 9♠"], RANKED)
    act(g, "2♥")  # seat 0 is out (nhất) with the 2
    act(g, "7♠ 7♣ 7♦ 7♥", None, None)
    assert not any(e[3] == "chat" for e in reasons(g))


@pytest.mark.parametrize(
    "mode, reenters", [("four_pair_sequence", True), ("none", False), ("any_bomb", True)]
)
def test_bomb_after_pass(mode: str, reenters: bool) -> None:
    four_ps = "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣ J♥ 3♦"
    rules = SOUTH.replace(bomb_after_pass=mode)
    g = setup(["5♥ 6♠ 3♠", four_ps, "6♦ 2♥ 4♣ K♦", "7♦ A♠"], rules)
    act(g, "5♥", None, "6♦", None, None)
    assert g.current_seat == 2  # seat 1 (passed) was skipped: nothing to cut
    # On the 2, every seat that passed in this round is asked again, whatever it holds (the turn
    # must not reveal a bomb): seat 3 (no bomb) passes again, then seat 0 passes.
    act(g, "4♣", None, "6♠", None, "2♥", *([None] if reenters else []), None)
    # seat 1 passed in this round; the 2 on the table can be cut by its 4 đôi thông
    if reenters:
        assert g.current_seat == 1
        plays = [str(c) for c in g.legal_plays()]
        assert "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣ J♥" in plays
        assert len(plays) == (1 if mode == "four_pair_sequence" else 3)
        assert open_actions(g)[-1] == {"type": "pass", "seat": 1}
        with pytest.raises(IllegalMoveError) as e:
            g.play(1, "3♦")
        assert e.value.reason in ("must_cut_or_pass", "does_not_beat")
        g.play(1, "8♠ 8♣ 9♦ 9♥ 10♠ 10♦ J♣ J♥")
        assert (2, 1, 6, "chat") not in reasons(g)  # paid when the round closes
        act(g, None, None, None)  # seat 2 passes; seats 3 and 0, asked again, pass again
        assert g.current_seat == 1
        assert (2, 1, 6, "chat") in reasons(g)
    else:
        assert g.current_seat == 2 and g.table is None


def test_ranked_ending_hưởng_sái_and_payments() -> None:
    g = setup(["9♠", "3♣ J♣", "5♦ 6♦ 7♣", "8♦ 10♦ Q♣ 2♠"], RANKED)
    act(g, "9♠")  # seat 0 out (nhất); the others play on
    assert not g.is_over
    act(g, None, None, "10♦")
    assert g.current_seat == 3 and g.table is None  # seat 0 is out, 1 and 2 passed
    act(g, "8♦", None, None, "Q♣", None, None, "2♠")  # seat 3 out (nhì)
    act(g, None, None)
    assert g.current_seat == 1  # hưởng sái: the next seat still in the hand after seat 3
    act(g, "3♣", "5♦", "J♣")  # seat 1 out (ba); seat 2 is bét
    assert g.is_over and g.finishing_order == [0, 3, 1, 2]
    assert sorted(reasons(g)) == sorted([(2, 0, 2, "rank"), (1, 3, 1, "rank")])


def test_ranked_thoi_goes_to_the_seat_above_or_winner() -> None:
    for thoi_to, payee in (("above", 1), ("winner", 0)):
        g = setup(["9♠", "10♠", "5♦ 2♥"], RANKED.replace(thoi_to=thoi_to))
        act(g, "9♠", "10♠")
        assert g.is_over and g.finishing_order == [0, 1, 2]
        assert (2, payee, 2, "thoi_red_two") in reasons(g)
        assert (2, 0, 2, "rank") in reasons(g)


def test_ranked_cong() -> None:
    full = "4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 3♥ 2♥"
    g = setup(["9♠", "10♠ J♠", full], RANKED, cong=(2,))
    act(g, "9♠")
    assert g.is_over and g.finishing_order == [0, 1, 2]
    assert sorted(reasons(g)) == sorted([(2, 0, 4, "cong"), (2, 1, 2, "thoi_red_two")])


@pytest.mark.parametrize("mode", ["penalized", "forbidden"])
def test_finish_on_two(mode: str) -> None:
    rules = NORTH.replace(finish_on_two=mode)
    g = setup(["2♠ 2♣", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"], rules)
    if mode == "forbidden":
        with pytest.raises(IllegalMoveError) as e:
            g.play(0, "2♠ 2♣")
        assert e.value.reason == "cannot_finish_on_two"
        assert "2♠ 2♣" not in [str(c) for c in g.legal_plays()]
        act(g, "2♠", None, None, None)
        assert g.current_seat == 0 and [str(c) for c in g.legal_plays()] == ["2♣"]
        act(g, "2♣")  # no other action: allowed, penalised
        assert g.settlement == [-9, 3, 3, 3]
    else:
        act(g, "2♠ 2♣")
        assert g.is_over and g.winner is None
        assert g.settlement == [-18, 6, 6, 6]
        assert all(e[3] == "finish_on_two" for e in reasons(g))
    allowed = setup(["2♠ 2♣", "5♠ 6♠", "5♦ 6♦", "8♠ 9♠"])
    act(allowed, "2♠ 2♣")
    assert allowed.winner == 0


def test_illegal_moves_leave_the_state_unchanged() -> None:
    g = Game(4, seed=5)
    seat = g.current_seat
    assert seat is not None
    before = g.to_json()
    other = (seat + 1) % 4
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: g.play(other, g.hand(other)[0]), "not_your_turn"),
        (lambda: g.play(seat, g.hand(other)[0]), "cards_not_in_hand"),
        (lambda: g.pass_turn(seat), "cannot_pass_on_lead"),
        (lambda: g.play(seat, [c for c in g.hand(seat) if c.index != 0][:1]), "must_include_lowest"),
        (lambda: g.play(9, "3♠"), "invalid_seat"),
        (lambda: g.apply({"type": "fold", "seat": seat}), "invalid_action"),
        (lambda: g.next_hand(), "hand_not_over"),
    ]
    for call, reason in cases:
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == reason
        assert g.to_json() == before
    g2 = setup(["3♠ 5♠ 9♦", "4♠ 7♦", "6♦ 8♦", "10♦ J♦"])
    with pytest.raises(IllegalMoveError) as e:
        g2.play(0, "3♠ 5♠")
    assert e.value.reason == "invalid_combination"
    act(g2, "5♠")
    with pytest.raises(IllegalMoveError) as e:
        g2.play(1, "4♠")
    assert e.value.reason == "does_not_beat"
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    with pytest.raises(IllegalMoveError) as e:
        g.play(0, "3♠")
    assert e.value.reason == "game_over"


def test_first_lead_rules() -> None:
    g = Game(4, seed=2)
    assert g.hand(g.pending_seats[0])[0].index == 0
    assert g.view(g.pending_seats[0])["must_include"] == ["3♠"]
    assert all(0 in [c.index for c in combo.cards] for combo in g.legal_plays())
    for seed in range(5):
        g3 = Game(3, seed=seed)
        if g3.is_over:
            continue
        lowest = min(c.index for s in range(3) for c in g3.hand(s))
        assert g3.hand(g3.pending_seats[0])[0].index == lowest
    r = Game(4, SOUTH.replace(first_lead="random"), seed=3)
    assert r.view(r.pending_seats[0])["must_include"] == []
    assert len({Game(4, SOUTH.replace(first_lead="random"), seed=s).current_seat for s in range(20)}) > 1


def test_next_hand_winner_leads() -> None:
    g = Game(4, seed=11)
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    assert g.settlement is not None
    total = list(g.settlement)
    winner = g.winner
    g.next_hand()
    assert g.hand_number == 2 and g.pending_seats  # not over: a seat to act
    if winner is not None:
        assert g.current_seat == winner and g.view(winner)["must_include"] == []
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    assert g.settlement is not None and g.hand_settlement is not None
    assert sum(g.settlement) == 0
    assert [a + b for a, b in zip(total, g.hand_settlement, strict=False)] == g.settlement
    again = Game.replay(g.actions, players=4, seed=11)
    assert again.events == g.events and again.settlement == g.settlement


def _instant_game(rules: Rules) -> Game:
    for seed in range(3000):
        g = Game(4, rules, seed=seed)
        if g.is_over:
            return g
    raise AssertionError("no instant win in 3000 deals")


def test_instant_win_at_the_deal() -> None:
    for rules, units in ((SOUTH, 26), (RANKED, 4)):
        g = _instant_game(rules)
        event = next(e for e in g.events if e["type"] == "instant_win")
        seat = event["seat"]
        assert tienlen.instant_win(g.hand(seat), rules, first_hand=True) == event["instant"]
        assert g.settlement is not None and g.settlement[seat] == 3 * units
        assert all(e["reason"] == "instant_win" for e in g.ledger)
        g.next_hand()  # after an instant win the first-lead rule applies again
        if not g.is_over:
            assert g.view(g.pending_seats[0])["must_include"] != []


def _long_game(seed: int) -> Game:
    while True:
        g = Game(4, seed=seed)
        for _ in range(10):
            if g.is_over:
                break
            g.auto_play(g.pending_seats[0])
        if not g.is_over:
            return Game(4, seed=seed)
        seed += 1


def test_snapshot_round_trip_and_validation() -> None:
    g = _long_game(21)
    for _ in range(9):
        g.auto_play(g.pending_seats[0])
    text = g.to_json()
    h = Game.from_json(text)
    assert h.to_json() == text
    h.auto_play(h.pending_seats[0])
    g.auto_play(g.pending_seats[0])
    assert h.to_json() == g.to_json()
    d = json.loads(text)
    bad: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("hands", lambda s: s["hands"].__setitem__(0, s["hands"][0] | s["hands"][1])),
        ("hands", lambda s: s["hands"].__setitem__(0, s["hands"][0] & (s["hands"][0] - 1))),
        ("turn", lambda s: s.__setitem__("turn", 7)),
        ("turn", lambda s: s.__setitem__("turn", None)),
        ("table", lambda s: s.__setitem__("table", 3)),
        ("chain", lambda s: s.__setitem__("chain", [1, 2])),
    ]
    for _, mutate in bad:
        dd = json.loads(text)
        mutate(dd["state"])
        with pytest.raises(SnapshotError):
            Game.from_dict(dd)
    with pytest.raises(SnapshotError):
        Game.from_json("{")
    assert d["game"] == "tienlen"


def test_views_hide_other_hands() -> None:
    g = _long_game(8)
    for _ in range(5):
        g.auto_play(g.pending_seats[0])
    for seat in range(4):
        v = g.view(seat)
        json.dumps(v)
        assert v["hand"] == [str(c) for c in g.hand(seat)]
        others = {str(c) for s in range(4) if s != seat for c in g.hand(s)}
        assert not others & set(json.dumps(v, ensure_ascii=False).replace('"', " ").split())
        assert v["hand_counts"] == [len(g.hand(s)) for s in range(4)]


def test_uniform_interface() -> None:
    g = Game(3, NORTH, seed=4)
    actions = open_actions(g)
    assert actions and all(a["seat"] == g.current_seat for a in actions)
    assert g.legal_actions((g.pending_seats[0] + 1) % 3) == []
    assert g.pending_seats == [g.current_seat]
    a = actions[-1]
    assert g.describe(a).startswith(f"seat {a['seat']} plays")
    g.apply(a)
    assert g.actions[-1] == a
    assert g.describe({"type": "pass", "seat": 1}) == "seat 1 passes"


@pytest.mark.parametrize(
    "rules, digest, settlement",
    [
        (SOUTH, "097d0d4b36d1c6e1", [-3, 5, 0, -2]),
        (NORTH, "03a84a704137148c", [-7, 0, -6, 13]),
        (RANKED, "ba7db32ee777f335", [-1, 1, 1, -1]),
    ],
)
def test_golden_playthrough(rules: Rules, digest: str, settlement: list[int]) -> None:
    """Two seeded hands played by auto_play: the event log is pinned (deal, flow, payments),
    so a change to the shared flow that alters Tiến Lên shows up here."""
    import hashlib

    g = Game(4, rules, seed=20261129)
    for _ in range(2):
        if g.is_over:
            g.next_hand()
        while not g.is_over:
            g.auto_play(g.pending_seats[0])
    text = json.dumps(g.events, ensure_ascii=False, sort_keys=True).encode()
    assert hashlib.sha256(text).hexdigest()[:16] == digest
    assert g.settlement == settlement
