"""Mậu Binh rules (rules: docs/rules/maubinh.md): instant wins, bonuses, scoops, fouls, settlement, and the
table flow (``maubinh.Game``) with its snapshots, replay, views and uniform interface."""

from __future__ import annotations

import copy
import json
import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.actions import open_actions
from support.ledger import net_totals
from vncards import Card, IllegalMoveError, RulesError, SnapshotError, _core, maubinh
from vncards.cards import to_mask
from vncards.maubinh import (
    INSTANT_WINS,
    Arrangement,
    Game,
    Rules,
    best_arrangement,
    hand_rank,
    instant_win,
    is_fouled,
    settle,
    settle_itemised,
)

# ---- instant wins (mậu binh trắng) -------------------------------------------------------------

DRAGON_FLUSH = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
DRAGON = "2♠ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"
FIVE_PAIRS_TRIPLE = "2♠ 2♥ 3♠ 3♥ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 7♦"
SIX_PAIRS = "2♠ 2♣ 3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣ 7♠ 7♣ 8♦"
THREE_FLUSHES = "2♠ 3♠ 6♠ 7♠ 9♠ 3♥ 4♥ 5♥ 7♥ 8♥ 2♦ 4♦ 5♦"
THREE_STRAIGHTS = "A♠ 2♥ 3♦ 4♠ 5♠ 2♣ 3♣ 4♣ 5♣ 6♥ 7♦ 8♣ 9♥"


@pytest.mark.parametrize(
    ("cards", "kind", "units"),
    [
        (DRAGON_FLUSH, "dragon_flush", 24),
        (DRAGON, "dragon", 12),
        (FIVE_PAIRS_TRIPLE, "five_pairs_triple", 6),
        (SIX_PAIRS, "six_pairs", 3),
        (THREE_FLUSHES, "three_flushes", 3),
        (THREE_STRAIGHTS, "three_straights", 3),
    ],
)
def test_each_instant_win_and_its_units(cards: str, kind: str, units: int) -> None:
    assert instant_win(cards) == kind
    assert INSTANT_WINS[kind] == units


def test_instant_win_details() -> None:
    # A four of a kind counts as two pairs.
    assert instant_win("2♠ 2♥ 2♣ 2♦ 4♠ 4♥ 5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 8♦") == "six_pairs"
    # Front runs include A-2-3 and Q-K-A.
    assert instant_win("10♠ J♥ Q♦ K♠ A♠ 9♣ 10♣ J♣ Q♣ K♣ Q♥ K♦ A♥") == "three_straights"
    assert instant_win("A♠ 2♥ 3♦ 4♠ 5♠ 2♣ 3♣ 4♣ 5♣ 6♥ 7♦ 8♣ 10♥") is None
    # Flush suits may repeat: ten spades make two flushes.
    assert instant_win("2♠ 3♠ 5♠ 7♠ 9♠ J♠ Q♠ K♠ A♠ 4♠ 2♦ 3♦ 9♦") == "three_flushes"
    assert list(INSTANT_WINS) == [
        "dragon_flush",
        "dragon",
        "five_pairs_triple",
        "six_pairs",
        "three_flushes",
        "three_straights",
    ]
    with pytest.raises(IllegalMoveError):
        instant_win("2♠ 3♠")


# ---- settlement --------------------------------------------------------------------------------

# Two ordinary arrangements: A wins back and middle, B wins the front.
A = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠")
B = ("9♠ 9♥ 8♦ 8♣ 3♠", "J♠ J♥ 2♦ 4♦ 6♠", "K♠ Q♣ 10♥")
# A loses nothing and wins every hand against C.
C = ("3♥ 5♣ 7♥ 9♦ J♣", "2♥ 4♥ 6♥ 8♥ 10♠", "2♣ 6♦ 7♣")


def test_hand_by_hand_one_unit_each() -> None:
    s = settle_itemised([A, B])
    assert s.totals == [1, -1]
    assert [(e["from"], e["to"], e["units"], e["reason"]) for e in s.ledger] == [
        (1, 0, 1, "back"),
        (1, 0, 1, "middle"),
        (0, 1, 1, "front"),
    ]
    assert s.fouled == [False, False] and s.instants == [None, None]


def test_scoop_is_a_house_rule_off_by_default() -> None:
    assert settle([A, C]) == [3, -3]
    assert settle([A, C], Rules(scoop=True)) == [6, -6]
    assert [e["reason"] for e in settle_itemised([A, C], Rules(scoop=True)).ledger][-1] == "scoop"


L1 = ("9♠ 9♥ 10♦ J♣ Q♠", "8♠ 8♥ 2♦ 3♣ Q♦", "5♠ 6♥ 7♦")
L2 = ("9♠ 9♥ 10♦ J♣ Q♠", "A♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦")
L3 = ("A♠ A♥ 10♦ J♣ Q♥", "K♥ Q♦ 2♦ 3♣ 6♠", "5♠ 6♦ 7♦")
L4 = ("A♠ A♣ 10♦ J♣ Q♥", "K♥ Q♦ 2♠ 3♦ 6♠", "5♠ 6♥ 7♥")
L5 = ("9♠ 9♥ 10♦ J♣ Q♠", "K♠ Q♥ 2♦ 4♣ 6♠", "5♠ 6♥ 7♦")


@pytest.mark.parametrize(
    ("winner", "loser", "reason", "units"),
    [
        (("K♠ K♥ K♦ K♣ 2♠", "3♠ 4♥ 5♦ 6♣ 7♠", "A♠ A♦ A♣"), L1, "front:three_of_a_kind", 3),
        (("A♠ A♥ A♦ A♣ 2♠", "8♠ 8♥ 8♦ 3♣ 3♠", "4♦ 5♣ 7♥"), L5, "middle:full_house", 2),
        (("A♠ A♥ A♦ A♣ 2♠", "3♠ 4♥ 5♦ 6♣ 7♠", "4♦ 5♣ 7♥"), L5, "back:four_of_a_kind", 4),
        (("K♠ K♥ K♦ K♣ 2♠", "8♠ 8♥ 8♦ 8♣ 3♠", "4♦ 5♣ 7♥"), L2, "middle:four_of_a_kind", 8),
        (("9♠ 10♠ J♠ Q♠ K♠", "4♥ 5♥ 6♥ 7♥ 8♥", "4♦ 5♣ 7♣"), L3, "middle:straight_flush", 10),
        (("9♠ 10♠ J♠ Q♠ K♠", "A♥ A♦ 5♣ 6♦ 7♦", "2♦ 3♣ 4♣"), L4, "back:straight_flush", 5),
    ],
)
def test_bonus_hands(
    winner: tuple[str, str, str], loser: tuple[str, str, str], reason: str, units: int
) -> None:
    rules = Rules(back_straight_flush_units=5) if reason == "back:straight_flush" else Rules()
    entries = settle_itemised([winner, loser], rules).ledger
    assert {"from": 1, "to": 0, "units": units, "reason": reason} in entries


def test_fouled_pays_six_to_each_non_fouled_and_two_fouled_pay_nothing() -> None:
    fouled = ("A♠ K♦ Q♣ J♥ 9♠", "2♠ 2♦ 3♣ 4♥ 5♠", "6♣ 7♦ 8♥")
    ok = ("A♥ A♦ K♠ K♣ 10♥", "Q♠ Q♥ 3♦ 4♣ 5♥", "J♦ 9♣ 7♠")
    s = settle_itemised([fouled, ok])
    assert s.totals == [-6, 6] and s.fouled == [True, False]
    assert s.ledger == [{"from": 0, "to": 1, "units": 6, "reason": "foul"}]
    assert settle([fouled, None]) == [0, 0]  # a seat that left counts as fouled too


def test_instant_winner_is_paid_by_every_opponent() -> None:
    d = ("A♠ A♦ K♦ K♣ 2♣", "Q♠ Q♣ 3♦ 4♣ 5♠", "J♦ 9♣ 7♠")
    s = settle_itemised([DRAGON, None, d])
    assert s.totals == [24, -18, -6]  # seat 1 left (fouled): it also pays seat 2 six
    assert s.instants == ["dragon", None, None]


def test_two_instant_winners_stronger_is_paid_same_kind_ties() -> None:
    assert settle([SIX_PAIRS, DRAGON_FLUSH]) == [-24, 24]
    six_b = "8♠ 8♥ 9♠ 9♥ 10♠ 10♥ J♠ J♥ Q♠ Q♥ K♠ K♥ A♦"
    assert settle([SIX_PAIRS, six_b]) == [0, 0]
    flushes = "2♠ 3♠ 6♠ 7♠ 9♠ 3♥ 4♥ 5♥ 7♥ 8♥ 2♦ 4♦ 5♦"
    assert settle([THREE_STRAIGHTS, flushes]) == [-3, 3]


def test_scoop_all_doubles_again_with_three_or_more() -> None:
    weak1 = C
    weak2 = ("3♠ 5♦ 7♦ 9♣ J♦", "2♦ 4♦ 6♠ 8♣ 10♦", "3♣ 4♠ 6♣")
    strong = ("A♠ A♥ K♦ K♣ 2♠", "Q♠ Q♥ 3♦ 4♣ 5♠", "J♥ 9♠ 8♠")
    plain = settle([strong, weak1, weak2], Rules(scoop=True))
    doubled = settle([strong, weak1, weak2], Rules(scoop=True, scoop_all=True))
    assert plain[0] == 12 and doubled[0] == 24
    assert sum(plain) == 0 and sum(doubled) == 0


def test_settle_arranges_plain_cards_with_the_solver() -> None:
    six = "2♣ 2♦ 3♣ 3♦ 4♣ 4♦ 5♣ 5♦ 6♣ 6♦ 7♣ 7♦ 8♣"
    assert settle([DRAGON, six]) == [12, -12]
    with pytest.raises(IllegalMoveError):
        settle([A, A])
    with pytest.raises(RulesError):
        settle([A])


@settings(max_examples=40)
@given(st.integers(0, 2**64 - 1), st.integers(2, 4), st.booleans(), st.booleans(), st.booleans())
def test_random_settlements_are_zero_sum_and_match_the_ledger(
    seed: int, players: int, scoop: bool, scoop_all: bool, forfeit_first: bool
) -> None:
    game = Game(players, Rules(scoop=scoop, scoop_all=scoop_all), seed=seed)
    if forfeit_first:
        game.forfeit(0)
    for seat in game.pending_seats:
        game.auto_arrange(seat)
    assert game.settlement is not None and sum(game.settlement) == 0
    assert net_totals(game.ledger, players) == game.settlement


@given(st.permutations(range(52)), st.integers(2, 4), st.booleans(), st.booleans(), st.data())
def test_random_splits_settle_zero_sum_with_fouls(
    deck: list[int], players: int, scoop: bool, scoop_all: bool, data: st.DataObject
) -> None:
    """Arbitrary (mostly fouled) splits and forfeits: zero-sum, ledger = totals, and the fouled
    flags are exactly the foul check (for seats without an instant win)."""
    rules = Rules(scoop=scoop, scoop_all=scoop_all)
    seats: list[Arrangement | None] = []
    for s in range(players):
        cards = [Card(i) for i in deck[13 * s : 13 * s + 13]]
        seats.append(
            None if data.draw(st.booleans()) and s == 0 else Arrangement(cards[:5], cards[5:10], cards[10:])
        )
    result = settle_itemised(seats, rules)
    assert sum(result.totals) == 0
    assert all(e["units"] > 0 and e["from"] != e["to"] for e in result.ledger)
    assert net_totals(result.ledger, players) == result.totals
    for seat, arr, inst in zip(range(players), seats, result.instants, strict=False):
        if inst is None:
            assert result.fouled[seat] == (arr is None or is_fouled(arr, rules))


# ---- the table flow ------------------------------------------------------------------------------


def test_deal_thirteen_each_and_rest_undealt() -> None:
    game = Game(players=3, seed=1)
    hands = [set(game.hand(s)) for s in range(3)]
    assert all(len(h) == 13 for h in hands)
    assert not (hands[0] & hands[1]) and not (hands[1] & hands[2]) and not (hands[0] & hands[2])
    assert game.time_limit == 45 and game.pending_seats == [0, 1, 2]


def test_arrange_change_confirm_reveal_settle() -> None:
    game = Game(players=2, seed=5)
    hand = game.hand(0)
    first = Arrangement(hand[8:13], hand[3:8], hand[:3])
    game.arrange(0, first)
    best = best_arrangement(hand)
    game.arrange(0, (best.back, best.middle, best.front))  # may change until confirmed
    assert game.arrangement(0) == best
    game.confirm(0)
    with pytest.raises(IllegalMoveError) as e:
        game.arrange(0, first)
    assert e.value.reason == "already_confirmed"
    assert not game.is_over and game.settlement is None
    game.auto_arrange(1)
    assert game.is_over and game.settlement is not None and sum(game.settlement) == 0
    kinds = [e["type"] for e in game.events]
    assert kinds[-2:] == ["reveal", "settle"]


def test_illegal_actions_change_nothing() -> None:
    game = Game(players=2, seed=9)
    before = game.to_json()
    other = game.hand(1)
    cases: list[tuple[Any, str]] = [
        (lambda: game.arrange(0, (other[:5], other[5:10], other[10:])), "cards_not_in_hand"),
        (
            lambda: game.arrange(0, (game.hand(0)[:4], game.hand(0)[4:10], game.hand(0)[10:])),
            "invalid_arrangement",
        ),
        (lambda: game.arrange(0, "nonsense"), "invalid_arrangement"),
        (lambda: game.confirm(0), "no_arrangement"),
        (lambda: game.arrange(5, None), "invalid_seat"),
        (lambda: game.apply({"type": "dance", "seat": 0}), "invalid_action"),
        (lambda: game.apply({"seat": 0}), "invalid_action"),
    ]
    for call, reason in cases:
        with pytest.raises(IllegalMoveError) as e:
            call()
        assert e.value.reason == reason
        assert game.to_json() == before
    game.forfeit(0)
    game.forfeit(1)
    with pytest.raises(IllegalMoveError) as e:
        game.auto_arrange(0)
    assert e.value.reason == "game_over"


def test_a_fouled_arrangement_is_accepted_and_loses() -> None:
    game = Game(players=2, seed=2)
    best = best_arrangement(game.hand(0))
    game.arrange(0, (best.middle, best.back, best.front))  # back and middle swapped
    game.confirm(0)
    game.auto_arrange(1)
    reveal = game.view(0)["reveal"]
    assert reveal["fouled"] == [True, False]
    assert game.ledger == [{"from": 0, "to": 1, "units": 6, "reason": "foul"}]


def test_views_hide_other_hands_until_reveal() -> None:
    game = Game(players=3, seed=4)
    game.auto_arrange(0)
    view = game.view(1)
    shown = set(re.findall(r"[0-9JQKA]+[♠♣♦♥]", json.dumps(view, ensure_ascii=False)))
    assert shown == {str(c) for c in game.hand(1)}
    assert view["hand_counts"] == [13, 13, 13] and view["confirmed"] == [True, False, False]
    assert view["reveal"] is None
    game.auto_arrange(1)
    game.auto_arrange(2)
    revealed = game.view(1)
    assert revealed["reveal"]["arrangements"][0] is not None
    assert revealed["settlement"] == game.settlement


def test_uniform_interface() -> None:
    game = Game(players=3, seed=8)
    actions = open_actions(game)
    assert {a["seat"] for a in actions} == {0, 1, 2}
    assert all(a["type"] in {"arrange", "forfeit"} for a in actions)
    arrange = next(a for a in game.legal_actions(1) if a["type"] == "arrange")
    game.apply(arrange)
    assert any(a["type"] == "confirm" for a in game.legal_actions(1))
    assert "arranges" in game.describe(arrange)
    game.auto_play(1)  # confirms the arrangement it has
    assert game.arrangement(1) == best_arrangement(game.hand(1))
    game.auto_play(0)
    game.apply({"type": "forfeit", "seat": 2})
    assert game.is_over and open_actions(game) == [] and game.pending_seats == []
    assert game.describe({"type": "forfeit", "seat": 2}) == "seat 2 forfeits (fouled)"


def play_out(game: Game, choices: list[int]) -> None:
    """Play with the uniform interface, picking actions by index from ``choices``; a seat that
    has acted three times confirms (or forfeits) so every game ends."""
    i = 0
    acted = [0] * game.players
    while not game.is_over:
        seat = game.pending_seats[0]
        legal = game.legal_actions(seat)
        assert legal and all(a["seat"] == seat for a in legal)
        action = legal[choices[i % len(choices)] % len(legal)]
        if acted[seat] >= 3:
            action = next((a for a in legal if a["type"] == "confirm"), legal[-1])
        game.apply(action)
        acted[seat] += 1
        i += 1


@settings(max_examples=25)
@given(
    st.integers(0, 2**32),
    st.integers(2, 4),
    st.lists(st.integers(0, 5), min_size=1, max_size=8),
    st.sampled_from([Rules(), Rules(wheel="lowest"), Rules(scoop=False, scoop_all=True)]),
)
def test_random_games_snapshot_and_replay(seed: int, players: int, choices: list[int], rules: Rules) -> None:
    game = Game(players, rules, seed=seed)
    play_out(game, choices)
    assert sum(game.settlement or []) == 0
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
    replayed = Game.replay(game.actions, players=players, rules=rules, seed=seed)
    assert replayed.events == game.events and replayed.settlement == game.settlement
    cards = set()
    for s in range(players):
        cards |= set(game.hand(s))
    assert len(cards) == 13 * players


def test_snapshot_mid_hand_round_trip_and_validation() -> None:
    game = Game(players=2, seed=3)
    game.arrange(0, best_arrangement(game.hand(0)))
    data = json.loads(game.to_json())
    restored = Game.from_json(json.dumps(data))
    assert restored.arrangement(0) == game.arrangement(0)
    restored.auto_arrange(1)
    restored.confirm(0)
    assert restored.is_over

    def broken(change: Any) -> str:
        d = json.loads(game.to_json())
        change(d["state"])
        return json.dumps(d)

    bad = [
        lambda s: s["hands"].__setitem__(1, s["hands"][0]),  # duplicate cards
        lambda s: s["hands"].__setitem__(0, 7),  # not 13 cards
        lambda s: s["arrangements"].__setitem__(0, [1, 2, 4]),  # not the seat's cards
        lambda s: s["confirmed"].__setitem__(1, True),  # confirmed without an arrangement
        lambda s: s["forfeited"].__setitem__(0, True),  # forfeited but not confirmed
        lambda s: s.pop("forfeited"),
    ]
    for change in bad:
        with pytest.raises(SnapshotError):
            Game.from_json(broken(change))
    over = Game(players=2, seed=3)
    over.auto_arrange(0)
    over.auto_arrange(1)
    d = json.loads(over.to_json())
    d["ledger"] = d["ledger"][:-1] if d["ledger"] else [{"from": 0, "to": 1, "units": 1, "reason": "x"}]
    with pytest.raises(SnapshotError):
        Game.from_json(json.dumps(d))


FOUR_TWO = Rules(scoring="4-2")


def test_four_two_scoring_pays_each_hand_and_the_majority() -> None:
    # A wins the back and the middle, B the front (see above): 2 - 1, and 1 for the majority.
    s = settle_itemised([A, B], FOUR_TWO)
    assert s.totals == [2, -2]
    assert [(e["to"], e["reason"]) for e in s.ledger] == [
        (0, "back"),
        (0, "middle"),
        (1, "front"),
        (0, "majority"),
    ]
    # Winning all three: 3 hands and the majority, bonuses never count.
    quads = ("A♠ A♥ A♦ A♣ 2♠", "K♠ K♥ K♦ 3♣ 3♠", "Q♠ Q♥ Q♦")
    weak = ("3♥ 5♦ 7♣ 9♠ J♥", "2♥ 4♦ 6♣ 8♠ 10♥", "4♠ 5♣ 7♥")
    assert settle([quads, weak], FOUR_TWO) == [4, -4]
    # One hand won each and a tie: no majority.
    other = ("9♣ 9♦ 10♥ J♥ K♣", "K♥ Q♦ 2♣ 4♦ 6♦", "5♣ 6♣ 7♥")
    tied = settle_itemised([L2, other], FOUR_TWO)
    assert tied.totals == [0, 0] and [e["reason"] for e in tied.ledger] == ["back", "middle"]


def test_four_two_has_no_instant_wins_and_a_foul_loses_four() -> None:
    assert instant_win(DRAGON, FOUR_TWO) is None and instant_win(DRAGON) == "dragon"
    assert best_arrangement(DRAGON, FOUR_TWO).instant is None
    fouled = ("A♠ K♦ Q♣ J♥ 9♠", "2♠ 2♦ 3♣ 4♥ 5♠", "6♣ 7♦ 8♥")
    ok = ("A♥ A♦ K♠ K♣ 10♥", "Q♠ Q♥ 3♦ 4♣ 5♥", "J♦ 9♣ 7♠")
    assert settle([fouled, ok], FOUR_TWO) == [-4, 4]
    assert settle([None, fouled, ok], FOUR_TWO) == [-4, -4, 8]


def test_four_two_refuses_bonus_and_scoop_options() -> None:
    for options in ({"scoop": True}, {"scoop_all": True}, {"back_straight_flush_units": 5}):
        with pytest.raises(RulesError, match="4-2"):
            Rules(scoring="4-2", **options)
    with pytest.raises(RulesError):
        Rules(scoring="1-6")  # type: ignore[arg-type]


def test_snapshots_from_before_the_scoring_option_keep_units() -> None:
    stored = Rules().to_dict()
    del stored["scoring"]
    assert Rules.from_snapshot(stored).scoring == "units"


def test_rules_options() -> None:
    r = Rules()
    assert (r.wheel, r.scoop, r.scoop_all, r.time_limit) == ("second", False, False, 45)
    assert r.back_straight_flush_units == 1
    with pytest.raises(RulesError):
        Rules(wheel="middle")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        Rules(time_limit=0)
    with pytest.raises(RulesError):
        Game(players=5)
    with pytest.raises(RulesError):
        best_arrangement(DRAGON, rules="south")  # type: ignore[arg-type]


def test_the_core_reads_one_rules_object_built_with_the_rules() -> None:
    """``Rules.core`` (the options as the core reads them) is built once with the rules object
    and kept there; it equals one built from the same options, changes with them, survives a
    copy or a pickle of the rules, and the core refuses options it cannot play."""
    r = Rules(wheel="lowest", scoop=True, back_straight_flush_units=5)
    assert r.core is r.core
    assert r.core == _core.MauBinhRules(wheel="lowest", scoop=True, back_straight_flush_units=5)
    assert hash(r.core) == hash(_core.MauBinhRules(wheel="lowest", scoop=True, back_straight_flush_units=5))
    assert Rules().core == _core.MauBinhRules() != r.core
    assert r.replace(scoop=False).core == _core.MauBinhRules(wheel="lowest", back_straight_flush_units=5)
    for again in (copy.deepcopy(r), pickle.loads(pickle.dumps(r))):
        assert again == r and again.core == r.core
    for bad in (
        {"wheel": "middle"},
        {"scoring": "3-1"},
        {"back_straight_flush_units": 0},
        {"back_straight_flush_units": 25},
        {"scoring": "4-2", "scoop": True},
    ):
        with pytest.raises(RulesError):
            _core.MauBinhRules(**bad)
    with pytest.raises(TypeError):
        _core.maubinh_hand_rank("A♠ K♠ Q♠ J♠ 10♠", "second")  # type: ignore[arg-type]
    # Every function reads the rules it is given: the wheel ranks A-2-3-4-5 lowest here.
    wheel, six_high = "A♠ 2♦ 3♣ 4♥ 5♠", "2♠ 3♦ 4♣ 5♥ 6♠"
    assert hand_rank(wheel, Rules(wheel="lowest")) < hand_rank(six_high, Rules(wheel="lowest"))
    assert hand_rank(wheel, Rules()) > hand_rank(six_high, Rules())


@pytest.mark.slow
def test_many_random_games() -> None:
    for seed in range(300):
        for rules in (Rules(), Rules(wheel="lowest", scoop_all=True)):
            game = Game(2 + seed % 3, rules, seed=seed)
            play_out(game, [seed % 7, 3, 1])
            assert sum(game.settlement or []) == 0
            assert Game.from_json(game.to_json()).to_json() == game.to_json()


def _differing_seed() -> int:
    """A seed whose seat 0 the equilibrium and the expected objectives arrange differently."""
    for seed in range(200):
        hand = Game(2, seed=seed).hand(0)
        if best_arrangement(hand) != best_arrangement(hand, objective="equilibrium"):
            return seed
    raise AssertionError("no differing hand in 200 deals")


def test_the_table_helps_with_the_equilibrium_and_expected_stays_available_by_name() -> None:
    """Issue 38 item 4: the suggestion (the browser's "Gợi ý", the command line's), auto_arrange
    and auto_play arrange with the equilibrium objective."""
    seed = _differing_seed()
    game = Game(2, seed=seed)
    hand = game.hand(0)
    equilibrium = best_arrangement(hand, objective="equilibrium")
    suggested = next(a for a in game.legal_actions(0) if a["type"] == "arrange")
    assert Arrangement(suggested["back"], suggested["middle"], suggested["front"]) == equilibrium
    game.auto_arrange(0)
    assert game.arrangement(0) == equilibrium
    timed_out = Game(2, seed=seed)
    timed_out.auto_play(0)
    assert timed_out.arrangement(0) == equilibrium
    by_name = Game(2, seed=seed)
    by_name.auto_arrange(0, objective="expected")
    assert by_name.arrangement(0) == best_arrangement(hand) != equilibrium


# -- one Mậu Binh card order (issue 35) ------------------------------------------------------------


def test_one_maubinh_order_in_every_display() -> None:
    from vncards.maubinh import cards_text, sort_cards

    assert cards_text("2♦ A♠ 3♣ K♥ 10♦") == "2♦ 3♣ 10♦ K♥ A♠"
    assert cards_text("3♦ 4♦ 5♠ A♠ 2♦") == "A♠ 2♦ 3♦ 4♦ 5♠"  # the wheel: the ace counts low
    assert cards_text("3♦ 4♦ 5♠ A♠ 2♦ 9♣") == "2♦ 3♦ 4♦ 5♠ 9♣ A♠"  # not a 5-card wheel
    assert cards_text("2♠ 2♦ 3♦ 4♦ A♠") == "2♠ 2♦ 3♦ 4♦ A♠"  # no 5: no wheel
    assert sort_cards(["A♠", "2♥"]) == (Card("2♥"), Card("A♠"))
    assert maubinh.Arrangement("A♠ 2♦ 3♦ 4♦ 5♠", "K♠ K♦ 7♣ 8♣ Q♦", "9♣ 9♥ J♥").back[0] == Card("A♠")
    game = maubinh.Game(players=2, seed=2)
    for seat in range(2):
        suggested = game.legal_actions(seat)[0]
        game.apply(suggested)
        rows = game.view(seat)["arrangement"]
        assert rows == [suggested[p] for p in ("back", "middle", "front")]
        assert (
            rows == [cards_text(r) for r in rows]
            and game.view(seat)["hand"] == cards_text(game.view(seat)["hand"]).split()
        )
        game.apply({"type": "confirm", "seat": seat})
    reveal = next(e for e in game.events if e["type"] == "reveal")["arrangements"]
    assert all(r == cards_text(r) for a in reveal for r in a)
    assert game.view(0)["reveal"]["arrangements"] == reveal
    assert "|" in game.describe(game.actions[0]) and all(
        part.strip() == cards_text(part)
        for part in game.describe(game.actions[0]).split("arranges")[1].split("|")
    )


def test_a_version_2_snapshot_still_restores() -> None:
    """Version 2 wrote the reveal in Tiến Lên order: it restores, with the replay's events."""
    from vncards.cards import cards_text as tienlen_order

    game = maubinh.Game(players=3, seed=4)
    for seat in range(3):
        game.auto_play(seat)
    data = game.to_dict()
    data["version"] = 2
    for e in data["events"]:
        if e["type"] == "reveal":
            e["arrangements"] = [[tienlen_order(to_mask(r)) for r in a] for a in e["arrangements"]]
    restored = maubinh.Game.from_dict(data)
    assert restored.events == game.events and restored.to_json() == game.to_json()
