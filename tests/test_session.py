"""vncards.session: a match of many hands. Every carry-over rule of the rules pages has a test
here (who leads or deals the next hand), then the seats, the totals, and the session snapshot
(bounded, replay-verified, HMAC-signed)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.tables import random_step
from vncards import history, samloc, tienlen, tusac
from vncards.errors import IllegalMoveError, RulesError, SnapshotError, VncardsError
from vncards.games import GAMES
from vncards.session import Hand, Seat, Session, hand_key
from vncards.shedding.game import SheddingGame
from vncards.snapshot import sign
from vncards.table import TableGame

KEY = b"test key"


def play_out(game: Any, rng: random.Random | None = None) -> None:
    """Plays the hand to its end with random legal actions (auto_play without ``rng``)."""
    while not game.is_over:
        if rng is None:
            game.auto_play(game.pending_seats[0])
        else:
            random_step(game, rng)


def session_where(predicate: Any, name: str, tries: int = 400, **kwargs: Any) -> Session:
    """The first session (seeds 0, 1, …) whose hand 1 satisfies ``predicate(game)``."""
    for seed in range(tries):
        s = Session(name, seed=seed, **kwargs)
        if predicate(s.game):
            return s
    raise AssertionError(f"no {name} session found")


def events(game: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in game.events if e["type"] == kind]


# A session's game is typed as any TableGame (its class follows the name the session was made
# with): these narrow it to the game a test made, for that game's own attributes.
def tienlen_of(s: Session) -> tienlen.Game:
    assert isinstance(s.game, tienlen.Game)
    return s.game


def samloc_of(s: Session) -> samloc.Game:
    assert isinstance(s.game, samloc.Game)
    return s.game


def tusac_of(s: Session) -> tusac.Game:
    assert isinstance(s.game, tusac.Game)
    return s.game


# -- Tiến Lên: the winner leads; the first-hand rules only for first hands -----------------------


@pytest.mark.parametrize("name", ["tienlen", "tienlen-north"])
def test_tienlen_winner_leads_the_next_hand_with_any_play(name: str) -> None:
    """RULES: "Later hands: the previous hand's winner leads with any play"."""
    s = session_where(lambda g: not g.is_over, name)
    for _ in range(4):
        play_out(s.game, random.Random(s.hand_number))
        winner = tienlen_of(s).winner
        s.next_hand()
        g = tienlen_of(s)
        if winner is None or g.is_over:
            continue
        assert g.setup == {"leader": winner, "hand_number": s.hand_number}
        assert g.current_seat == winner
        assert events(g, "lead") == [{"type": "lead", "seat": winner, "must_include": ""}]
        assert g.view(winner)["must_include"] == []
        singles = {tuple(c.cards) for c in g.legal_plays() if c.kind == "single"}
        assert len(singles) == 13  # any card may lead, not only the 3♠ / lowest card
        return
    raise AssertionError("no hand with a winner")


def test_tienlen_first_hand_leads_with_three_of_spades() -> None:
    """RULES: "First hand: the holder of 3♠ leads and the first play must contain 3♠"."""
    s = session_where(lambda g: not g.is_over, "tienlen")
    g = tienlen_of(s)
    holder = next(seat for seat in range(4) if "3♠" in map(str, g.hand(seat)))
    assert g.setup == {} and g.current_seat == holder
    assert all("3♠" in map(str, c.cards) for c in g.legal_plays())


def test_tienlen_first_hand_rule_again_after_an_instant_win() -> None:
    """RULES: "First hand (and the hand after an instant win): the holder of 3♠ leads"."""
    s = session_where(lambda g: g.is_over and events(g, "instant_win"), "tienlen", tries=2000)
    assert s.game.next_hand_setup == {}
    s.next_hand()
    g = tienlen_of(s)
    if not g.is_over:
        holder = next(seat for seat in range(4) if "3♠" in map(str, g.hand(seat)))
        assert g.current_seat == holder
        assert events(g, "lead")[0]["must_include"] == "3♠"


def test_tienlen_first_hand_extras_are_off_in_later_hands() -> None:
    """``first_hand_extras``: "in the first hand also four 3s and 3 đôi thông containing 3♠":
    a hand started with a leader (a later hand) does not count them."""
    rules = tienlen.Rules().replace(first_hand_extras=True)
    seed = next(
        s
        for s in range(5000)
        if tienlen.Game(seed=s, rules=rules).is_over and not tienlen.Game(seed=s).is_over
    )
    first = tienlen.Game(seed=seed, rules=rules)
    assert events(first, "instant_win")[0]["instant"] in (
        "four_threes",
        "three_pair_sequence_with_three_of_spades",
    )
    later = tienlen.Game(seed=seed, rules=rules, leader=2)
    assert not later.is_over and later.current_seat == 2
    assert [str(c) for c in later.hand(0)] == [str(c) for c in first.hand(0)]  # the same deal


def test_tienlen_random_first_lead_then_the_winner() -> None:
    """``first_lead="random"``: a random seat leads the first hand; later, the winner."""
    rules = {"first_lead": "random"}
    firsts = {tienlen_of(Session("tienlen", rules=rules, seed=seed)).current_seat for seed in range(30)}
    assert len(firsts) > 1
    s = session_where(lambda g: not g.is_over, "tienlen", rules=rules)
    play_out(s.game)
    winner = tienlen_of(s).winner
    s.next_hand()
    assert s.game.is_over or tienlen_of(s).current_seat == winner


def test_tienlen_ranked_ending_first_place_leads() -> None:
    rules = {"ending": "ranked", "scoring": "ranked"}
    s = session_where(lambda g: not g.is_over, "tienlen", rules=rules)
    play_out(s.game, random.Random(3))
    order = tienlen_of(s).finishing_order
    assert s.game.next_hand_setup == {"leader": order[0]}


def test_tienlen_hand_nobody_won_restarts_the_first_hand_rule() -> None:
    """A hand that ends on a penalised 2 (Miền Bắc) has no winner: the next hand is led by the
    first-hand rule again."""
    for seed in range(200):
        s = Session("tienlen-north", seed=seed)
        play_out(s.game, random.Random(seed))
        if events(s.game, "finish_on_two"):
            assert tienlen_of(s).winner is None and s.game.next_hand_setup == {}
            s.next_hand()
            assert s.game.setup == {"hand_number": s.hand_number}
            return
    raise AssertionError("no hand ended on a 2")


# -- Sâm Lốc: the winner is the nominal leader ----------------------------------------------------


def test_samloc_first_nominal_leader_is_random() -> None:
    """RULES: "first hand random (seed)"."""
    leaders = {samloc_of(Session("samloc", seed=seed)).nominal_leader for seed in range(40)}
    assert len(leaders) > 2


def test_samloc_winner_is_the_next_nominal_leader() -> None:
    """RULES: "later hands the previous winner": the declarations start from it, and it leads
    unless someone declares Sâm."""
    s = session_where(lambda g: not g.is_over, "samloc")
    for _ in range(6):
        play_out(s.game)  # auto_play declines Sâm
        winner = samloc_of(s).winner
        s.next_hand()
        g = samloc_of(s)
        if winner is None or g.is_over:
            continue
        assert g.setup == {"leader": winner, "hand_number": s.hand_number}
        assert g.nominal_leader == winner and g.pending_seats == [winner] and g.phase == "bao_sam"
        for _ in range(g.players):
            g.decline_sam(g.pending_seats[0])
        assert g.phase == "play" and g.current_seat == winner
        return
    raise AssertionError("no hand with a winner")


def _sam_hand(blocked: bool) -> Session:
    for seed in range(400):
        s = Session("samloc", seed=seed)
        g = samloc_of(s)
        if g.is_over:
            continue
        g.declare_sam(g.pending_seats[0])
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.pending_seats[0]
            moves = g.legal_actions(seat)
            passes = [a for a in moves if a["type"] == "pass"]
            g.apply(passes[0] if passes and not blocked else rng.choice(moves))
        if bool(events(g, "sam_blocked")) == blocked:
            return s
    raise AssertionError("no such Sâm hand")


def test_samloc_blocker_of_a_sam_leads_next() -> None:
    s = _sam_hand(blocked=True)
    blocker = events(s.game, "sam_blocked")[0]["seat"]
    assert samloc_of(s).winner == blocker
    s.next_hand()
    assert s.game.is_over or samloc_of(s).nominal_leader == blocker


def test_samloc_successful_sam_declarer_leads_next() -> None:
    s = _sam_hand(blocked=False)
    declarer = samloc_of(s).sam_declarer
    assert events(s.game, "sam_success")
    s.next_hand()
    assert s.game.is_over or samloc_of(s).nominal_leader == declarer


def test_samloc_instant_winner_leads_next() -> None:
    s = session_where(lambda g: g.is_over, "samloc", tries=3000)
    winner = events(s.game, "instant_win")[0]["seat"]
    assert s.game.next_hand_setup == {"leader": winner}
    s.next_hand()
    assert s.game.is_over or samloc_of(s).nominal_leader == winner


def test_samloc_hand_nobody_won_draws_a_random_leader() -> None:
    """``finish_on_two="penalized"``: the hand ends with no winner; the next nominal leader
    is drawn at random again."""
    for seed in range(300):
        s = Session("samloc", rules={"finish_on_two": "penalized"}, seed=seed)
        play_out(s.game, random.Random(seed))
        if events(s.game, "finish_on_two"):
            assert s.game.next_hand_setup == {}
            s.next_hand()
            assert s.game.setup == {"hand_number": s.hand_number}
            return
    raise AssertionError("no hand ended on a 2")


# -- Tứ Sắc: the winner deals ---------------------------------------------------------------------


def _tusac_ending(draw: bool) -> Session:
    for seed in range(300):
        s = Session("tusac", seed=seed, rules={"draw_at_stock": 7})
        play_out(s.game)
        result = tusac_of(s).result
        if result is not None and result["draw"] == draw:
            return s
    raise AssertionError("no such Tứ Sắc hand")


def test_tusac_winner_deals_the_next_hand() -> None:
    """RULES: "The winner of a hand deals the next" (21 cards, and the tỳ)."""
    s = _tusac_ending(draw=False)
    result = tusac_of(s).result
    assert result is not None
    winner = result["winner"]
    assert s.game.next_hand_setup == {"dealer": winner}
    s.next_hand()
    g = tusac_of(s)
    assert g.dealer == winner and g.setup == {"dealer": winner}
    held = len(g.hand(winner)) + sum(len(m.cards) for m in g.exposed(winner))
    assert held == 21 and g.pending_seats == [winner]


def test_tusac_after_a_draw_the_dealer_deals_again() -> None:
    s = _tusac_ending(draw=True)
    dealer = tusac_of(s).dealer
    s.next_hand()
    assert tusac_of(s).dealer == dealer


def test_tusac_first_dealer_from_setup() -> None:
    s = Session("tusac", seed=1, setup={"dealer": 2})
    assert tusac_of(s).dealer == 2 and s.game.pending_seats == [2]
    with pytest.raises(RulesError):
        Session("tusac", seed=1, setup={"leader": 2})
    with pytest.raises(RulesError):
        Session("tusac", seed=1, setup={"dealer": 9})


def test_maubinh_carries_nothing() -> None:
    """Mậu Binh has no dealer or leader: every hand starts alike."""
    s = Session("maubinh", players=3, seed=2)
    for _ in range(3):
        assert s.game.setup == {}
        play_out(s.game)
        assert s.game.next_hand_setup == {}
        s.next_hand()


# -- the hand sequence, totals, seats -------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_hands_are_independent_games_and_totals_sum(name: str) -> None:
    s = Session(name, seed=5)
    settled = [0] * s.players
    sizes: list[int] = []
    for number in range(1, 5):
        assert s.hand_number == number and s.hand_result is None
        g = s.game
        assert g.rng_key == hand_key(bytes.fromhex(s.to_dict()["key"]), number)
        play_out(g, random.Random(number))
        assert s.hand_result == g.settlement and g.settlement is not None
        assert s.totals == [a + b for a, b in zip(settled, g.settlement, strict=True)]
        settled = s.totals
        assert sum(s.totals) == 0
        sizes.append(len(g.to_json()))
        finished = s.next_hand()
        assert finished.game is g and finished.number == number and finished.is_over
        assert s.totals == settled
    assert len(s.hands) == 4
    # Each hand's record is one hand: it holds no other hand's actions.
    assert all(len(h.game.actions) == len(h.game.to_dict()["actions"]) for h in s.hands)
    assert all("next_hand" not in json.dumps(h.game.actions) for h in s.hands)


def test_next_hand_refused_while_the_hand_is_in_play() -> None:
    s = Session("tienlen", seed=1)
    before = s.to_json()
    with pytest.raises(IllegalMoveError) as e:
        s.next_hand()
    assert e.value.reason == "hand_not_over" and s.to_json() == before


def test_seat_changes() -> None:
    s = Session("tienlen", players=["An", "Bình", Seat(bot="greedy"), None], seed=3)
    while s.game.is_over:
        s.next_hand()
    before = s.to_json()
    changes: tuple[Callable[[], Seat], ...] = (lambda: s.leave(0), lambda: s.sit(0, "Dũng"))
    for change in changes:  # during a hand: to a bot only
        with pytest.raises(IllegalMoveError) as e:
            change()
        assert e.value.reason == "hand_in_play"
    with pytest.raises(IllegalMoveError) as e:
        s.sit(3, "An")
    assert e.value.reason == "already_seated"
    for bad in ("", " An", "\udcff", "a\nb", "x" * 65, 5):
        with pytest.raises(RulesError):
            s.sit(3, bad)  # type: ignore[arg-type]  # bad players on purpose
    with pytest.raises(RulesError):
        s.sit(3, bot="no such bot")
    with pytest.raises(RulesError):
        s.sit(3, bot="cheating")
    with pytest.raises(RulesError):
        Seat("An", "greedy")
    assert s.to_json() == before
    # An open or bot seat may be taken during a hand: the newcomer takes over its result.
    left = s.sit(2, "Chi")
    assert left.bot == "greedy" and left.total == 0
    assert s.hand_seats[2] == Seat("Chi") and s.seats[2].since == 1
    play_out(s.game)
    result = s.hand_result
    assert result is not None and s.seats[2].total == result[2]
    # Between hands (the hand is over): the player leaves with what it won.
    gone = s.leave(1)
    assert gone.player == "Bình" and gone.total == result[1] and s.seats[1].kind == "open"
    finished = s.next_hand()
    assert finished.seats is not None
    assert [x.label for x in finished.seats] == ["An", "Bình", "Chi", "open"]
    assert s.seats[1].total == 0 and s.seats[1].since == 2
    assert s.seats[0].total == result[0] and s.totals == result
    assert s.seat_of == {"An": 0, "Chi": 2}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_player_leaving_mid_hand_hands_the_seat_to_a_bot(name: str) -> None:
    """Issue 35: the sessions guide says a player who leaves during a hand is played by a bot
    until it ends and keeps its result; ``leave(seat, bot=...)`` does that."""
    players: list[str | Seat | None] = ["An", "Bình", Seat(bot="greedy")]
    s = Session(name, players=players[: 2 if name == "maubinh" else 3], seed=6)
    while s.game.is_over:
        s.next_hand()
    g = s.game
    rng = random.Random(2)
    gone = s.leave(1, bot="random")  # Bình leaves while the hand is in play
    assert gone.player == "Bình" and gone.total == 0
    assert s.seats[1].bot == "random" and s.hand_seats[1] == Seat("Bình")
    changes: tuple[Callable[[], Seat], ...] = (
        lambda: s.leave(1),
        lambda: s.sit(1, "Chi"),
        lambda: s.sit(1, "Bình"),
    )
    for change in changes:
        with pytest.raises(IllegalMoveError) as e:  # the hand stays Bình's until it ends
            change()
        assert e.value.reason == "hand_in_play"
    s.sit(1, bot="greedy")  # another bot may take the hand over, still for Bình
    restored = Session.from_json(s.to_json(key=KEY), key=KEY)
    assert restored.hand_seats == s.hand_seats and restored.seats == s.seats
    while not g.is_over:
        s.play_bots()  # plays seat 1 now
        if not g.is_over:
            assert all(s.seats[p].bot is None for p in g.pending_seats)  # the bot has played seat 1
            random_step(g, rng)
    result = s.hand_result
    assert result is not None and s.seats[1].total == 0  # the bot is credited from the next hand
    finished = s.next_hand()
    assert finished.seats is not None and finished.seats[1] == Seat("Bình") and finished.settlement == result
    assert s.seats[1] == Seat(bot="greedy", total=0, since=2) and s.totals == result
    again = Session.from_json(s.to_json(), hands=[finished])
    assert again.seats == s.seats


def test_view_carries_the_session() -> None:
    s = Session("samloc", players=["An", None, Seat(bot="greedy")], seed=4)
    v = s.view(0)
    assert v["hand"] == s.game.view(0)["hand"]
    assert v["session"]["hand_number"] == 1 and v["session"]["seats"][0]["player"] == "An"
    p = s.public_view()
    assert p["hand"] is None and p["session"]["seats"][2]["kind"] == "bot"


def test_play_bots_plays_bot_seats_only() -> None:
    s = Session("tienlen", players=[Seat(bot="greedy")] * 4, seed=9)
    for _ in range(3):
        assert s.play_bots() > 0 or s.game.is_over
        assert s.game.is_over
        s.next_hand()
    sam = Session("samloc", players=["An", Seat(bot="greedy"), Seat(bot="random")], seed=9)
    while not sam.game.is_over:
        sam.play_bots()
        if not sam.game.is_over:
            assert sam.game.pending_seats == [0]
            sam.game.auto_play(0)
    mau = Session("maubinh", players=["An", Seat(bot="solver")], seed=9)
    mau.play_bots()
    assert mau.game.pending_seats == [0]


def test_keep_hands_and_pop_hands() -> None:
    s = Session("maubinh", players=2, seed=1, keep_hands=1)
    for _ in range(3):
        play_out(s.game)
        s.next_hand()
    assert [h.number for h in s.hands] == [3]
    with pytest.raises(RulesError):
        s.to_json(hands=True)
    s = Session("maubinh", players=2, seed=1)
    play_out(s.game)
    s.next_hand()
    assert [h.number for h in s.pop_hands()] == [1] and s.hands == []


def test_deals_follow_the_seed() -> None:
    a, b = Session("samloc", seed=12), Session("samloc", seed=12)
    for _ in range(3):
        assert a.game.to_json() == b.game.to_json()
        play_out(a.game)
        play_out(b.game)
        a.next_hand()
        b.next_hand()
    assert Session("samloc").game.rng_key != Session("samloc").game.rng_key  # OS randomness


# -- snapshots -------------------------------------------------------------------------------------


def _played(name: str, hands: int, seed: int = 1, **kwargs: Any) -> Session:
    s = Session(name, seed=seed, **kwargs)
    for i in range(hands):
        play_out(s.game, random.Random(i))
        s.next_hand()
    return s


def test_a_hand_setup_with_a_key_that_is_not_text_is_a_snapshot_error() -> None:
    """Session data (a dict, not JSON text) may hold keys of any type: a hand's ``setup`` with
    two unknown keys, an int and a str, were sorted together and raised TypeError (found by
    tests/test_fuzz_surfaces.py)."""
    data = _played("samloc", 2).to_dict()
    data["hand"]["setup"].update({0: 1, "dealer": 2})  # two unknown keys, an int and a str
    with pytest.raises(SnapshotError, match=r"setup: unexpected keys \['dealer', 0\]"):
        Session.from_dict(data)


@pytest.mark.parametrize("name", list(GAMES))
def test_snapshot_round_trip_and_replay(name: str) -> None:
    s = _played(name, 3, players=["An", Seat(bot="random"), None] if name != "maubinh" else 2)
    random_step(s.game, random.Random(0))
    text = s.to_json(key=KEY)
    back = Session.from_json(text, key=KEY)
    assert back.to_json(key=KEY) == text and back.hands == []
    full = Session.from_json(text, key=KEY, hands=history.dumps(s.hands))
    assert [h.number for h in full.hands] == [1, 2, 3]
    embedded = Session.from_json(s.to_json(hands=True))
    assert embedded.to_json() == s.to_json()
    # A restored session deals on exactly as the original.
    for t in (s, back):
        play_out(t.game, random.Random(7))
        t.next_hand()
    assert back.to_json() == s.to_json()


def test_snapshot_does_not_grow_with_the_match() -> None:
    """Issue #30 item 7: the stored record holds the hand in play, not the finished hands."""
    s = Session("samloc", players=["An", "Bình", "Chi", "Dũng"], seed=3)
    overhead = []
    for i in range(120):
        play_out(s.game, random.Random(i))
        overhead.append(len(s.to_json()) - len(s.game.to_json()))
        s.next_hand()
    assert max(overhead) < 1500 and max(overhead) - min(overhead) < 200


def _tampered(s: Session, edit: Any) -> str:
    data = s.to_dict()
    edit(data)
    return sign(data, KEY)


def test_snapshot_refuses_tampering() -> None:
    s = _played("tienlen", 2, players=["An", "Bình", None, None])
    while s.game.is_over:
        s.next_hand()
    random_step(s.game, random.Random(0))
    hands = history.dumps(s.hands)
    other = Session("tienlen", seed=99)

    def totals(d: dict[str, Any]) -> None:
        d["totals"][0] += 5
        d["totals"][1] -= 5

    def foreign_hand(d: dict[str, Any]) -> None:
        d["hand"] = other.game.to_dict()

    def setup(d: dict[str, Any]) -> None:
        d["previous"]["next_setup"] = {"leader": (d["previous"]["next_setup"].get("leader", 0) + 1) % 4}

    def seat_total(d: dict[str, Any]) -> None:
        d["seats"][0]["total"] += 1

    def zero_sum(d: dict[str, Any]) -> None:
        d["totals"][0] += 1

    cases = [
        (totals, "totals", True),
        (zero_sum, "totals: do not sum to zero", False),
        (foreign_hand, "hand.rng", False),
        (setup, "hand.setup", False),
        (seat_total, "seats[0].total", True),
        (lambda d: d.update(chain="ab" * 32), "chain", True),
        (lambda d: d.update(game="poker"), "game", False),
        (lambda d: d["hand"]["actions"].pop(), "hand:", False),
        (lambda d: d.update(hand_number=1), "previous/chain", False),
        (lambda d: d["seats"][1].update(player="An"), "seats", False),
    ]
    for edit, message, needs_hands in cases:
        text = _tampered(s, edit)
        if needs_hands:
            Session.from_json(text, key=KEY)  # only the hands can tell
            with pytest.raises(SnapshotError, match=message.replace("[", r"\[").replace(".", r"\.")):
                Session.from_json(text, key=KEY, hands=hands)
        else:
            with pytest.raises(SnapshotError, match=message.replace("[", r"\[").replace(".", r"\.")):
                Session.from_json(text, key=KEY)
    with pytest.raises(SnapshotError, match="HMAC"):
        Session.from_json(s.to_json(key=KEY), key=b"other key")
    with pytest.raises(SnapshotError, match="not signed"):
        Session.from_json(s.to_json(), key=KEY)
    for junk in ("", "[]", "{}", '{"format": "vncards-session"}', "[" * 50 + "]" * 50):
        with pytest.raises(SnapshotError):
            Session.from_json(junk)


def test_hands_must_be_the_sessions_own() -> None:
    s = _played("samloc", 3, players=3)
    text = s.to_json()
    hands = list(s.hands)
    with pytest.raises(SnapshotError, match="2 given, 3 finished"):
        Session.from_json(text, hands=hands[:2])
    with pytest.raises(SnapshotError, match="numbered"):
        Session.from_json(text, hands=[hands[1], hands[0], hands[2]])
    # The same deal played otherwise: a legal hand, but not the one the session played.
    g = hands[1].game
    replay = type(g)(players=g.players, rules=g.rules, seed=g.rng_key, **g.setup)
    rng = random.Random(12345)
    while True:
        play_out(replay, rng)
        if replay.settlement != g.settlement or replay.actions != g.actions:
            break
        replay = type(g)(players=g.players, rules=g.rules, seed=g.rng_key, **g.setup)
    forged = [hands[0], Hand(replay, "samloc", 2, hands[1].seats), hands[2]]
    with pytest.raises(SnapshotError, match=r"chain|setup|totals"):
        Session.from_json(text, hands=forged)
    other = _played("samloc", 3, players=3, seed=2)
    with pytest.raises(SnapshotError, match="deal"):
        Session.from_json(text, hands=other.hands)


def test_copies_and_pickles() -> None:
    s = _played("tusac", 1, players=["An", Seat(bot="greedy"), None])
    twin = copy.deepcopy(s)
    assert twin.to_json() == s.to_json() and len(twin.hands) == 1
    back = pickle.loads(pickle.dumps(s))
    assert back.to_json() == s.to_json() and [h.number for h in back.hands] == [1]
    random_step(twin.game, random.Random(1))
    assert twin.to_json() != s.to_json()


# -- the property: random sessions keep every invariant --------------------------------------------


@st.composite
def sessions(draw: st.DrawFn) -> tuple[str, int, int, int]:
    name = draw(st.sampled_from(list(GAMES)))
    cls = GAMES[name].game_class()
    players = draw(st.integers(cls.MIN_PLAYERS, cls.MAX_PLAYERS))
    return name, players, draw(st.integers(0, 2**32)), draw(st.integers(1, 4))


@settings(max_examples=30)
@given(sessions())
def test_random_sessions_keep_their_invariants(case: tuple[str, int, int, int]) -> None:
    name, players, seed, hands = case
    rng = random.Random(seed)
    s = Session(name, players=players, seed=seed)
    won = [0] * players
    for _ in range(hands):
        while not s.game.is_over:
            random_step(s.game, rng)
            if rng.random() < 0.05:
                s = Session.from_json(s.to_json(key=KEY), key=KEY, hands=s.hands)
        for seat in range(players):  # seat changes between hands
            if rng.random() < 0.3:
                who = rng.choice([None, f"p{rng.randrange(100)}", "bot"])
                if who == "bot":
                    s.sit(seat, bot="random")
                elif who is None or who not in s.seat_of:
                    s.sit(seat, who)
        assert s.hand_result is not None
        won = [w + r for w, r in zip(won, s.hand_result, strict=True)]
        assert s.totals == won and sum(won) == 0
        s.next_hand()
    text = s.to_json(key=KEY)
    full = Session.from_json(text, key=KEY, hands=history.loads(history.dumps(s.hands)))
    assert full.to_json(key=KEY) == text
    for seat, occupant in enumerate(s.seats):
        credited = []
        for h in s.hands:  # a session's finished hands: numbered and settled
            assert h.number is not None and h.settlement is not None
            if h.number >= occupant.since:
                credited.append(h.settlement[seat])
        if s.game.is_over:  # a hand over at its deal (an instant win) counts already
            assert s.hand_result is not None
            credited.append(s.hand_result[seat])
        assert occupant.total == sum(credited)


def test_require_signature_never_accepts_an_unsigned_match() -> None:
    """As for a game's snapshot (issue 29, item 14): with ``require_signature=True`` a missing
    key is a ``SnapshotKeyError`` and an unsigned match is refused; a key that is not
    non-empty bytes is a ``SnapshotKeyError`` (also a ``TypeError``) either way."""
    from vncards import SnapshotKeyError

    s = Session("tienlen", players=4, seed=3)
    s.play_bots()
    signed, plain = s.to_json(key=KEY), s.to_json()
    assert Session.from_json(signed, key=KEY, require_signature=True).to_json(key=KEY) == signed
    assert Session.from_dict(json.loads(signed), key=KEY, require_signature=True).to_json(key=KEY) == signed
    for text in (signed, plain):
        with pytest.raises(SnapshotKeyError, match="no key was given"):
            Session.from_json(text, require_signature=True)
    with pytest.raises(SnapshotError):
        Session.from_json(plain, key=KEY, require_signature=True)
    for bad in ("test key", b"", 7):
        for require in (False, True):
            with pytest.raises(SnapshotKeyError, match="non-empty bytes") as info:
                Session.from_json(signed, key=bad, require_signature=require)  # type: ignore[arg-type]  # bad keys on purpose
            assert isinstance(info.value, TypeError)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Session("tienlen", 10**12), "tienlen takes 2–4 players, not 1000000000000"),
        (lambda: Session("tienlen", -3), "tienlen takes 2–4 players, not -3"),
        (lambda: Session("tienlen", [None] * 10**6), "tienlen takes 2–4 players, not 1000000"),
        (
            lambda: Session("tienlen", 4, keep_hands=2**40),
            "keep_hands must be None or an int in 0..4294967296",
        ),
        (
            lambda: Session("tienlen", 4, keep_hands=1.5),  # type: ignore[call-overload]  # refused at run time
            "keep_hands must be None or an int in 0..4294967296",
        ),
        (lambda: Session("tienlen", 4, seed=1).play_bots("x"), "max_actions must be an int in 1..1000000000"),  # type: ignore[arg-type]  # not an int: refused at run time
        (lambda: Session("tienlen", 4, seed=1).play_bots(0), "max_actions must be an int in 1..1000000000"),
    ],
)
def test_counts_are_bounded(call: Any, message: str) -> None:
    """A seat count is checked before the seats are made (10**12 seats was a MemoryError),
    ``keep_hands`` within what a snapshot can hold (so ``to_json`` text always loads), and
    ``play_bots`` takes an int cap."""
    with pytest.raises(RulesError) as e:
        call()
    assert message in str(e.value), str(e.value)
    assert Session("tienlen", 4, seed=1).play_bots(10**30) == 0  # a larger cap is the same cap


def test_finished_hands_are_read_no_further_than_the_session_needs() -> None:
    """``from_json(hands=...)`` stops reading an endless iterable once it holds more hands
    than the session finished."""
    import itertools

    s = Session("maubinh", players=2, seed=1)
    play_out(s.game)
    s.next_hand()
    endless = itertools.cycle(s.hands)
    with pytest.raises(SnapshotError, match="hands: more than 1 given, 1 finished"):
        Session.from_json(s.to_json(), hands=endless)
    with pytest.raises(SnapshotError, match="hands: not a list of hands"):
        Session.from_json(s.to_json(), hands=5)  # type: ignore[arg-type]  # not hands: refused at run time


# -- the hand number each hand's game records ------------------------------------------------------


@pytest.mark.parametrize("name", ["tienlen", "tienlen-north", "samloc"])
def test_every_hand_is_dealt_with_the_session_hand_number(name: str) -> None:
    """A session's hand N is dealt as hand N (its deal event, its view, ``hand_number``), and
    its snapshot and history replay it so (issue 35: every hand said "hand 1")."""
    s = Session(name, players=4, seed=11)
    for number in (1, 2, 3):
        g = s.game
        assert isinstance(g, SheddingGame)  # Tiến Lên or Sâm Lốc: the games that number hands
        assert events(g, "deal")[0]["hand_number"] == number
        assert g.hand_number == number and g.view(0)["hand_number"] == number
        assert ("hand_number" in g.setup) == (number > 1)
        restored = Session.from_json(s.to_json(key=KEY), key=KEY, hands=s.hands)
        assert events(restored.game, "deal")[0]["hand_number"] == number
        play_out(g, random.Random(number))
        s.next_hand()
    third = history.loads(history.dumps(s.hands[2]))[0]
    assert third.number == 3 and events(third.game, "deal")[0]["hand_number"] == 3
    with pytest.raises(SnapshotError, match=r"^hand: "):  # a hand 4 dealt as hand 1 is refused
        data = s.to_dict()
        data["hand"]["setup"].pop("hand_number")
        Session.from_dict(data)


def test_a_game_numbered_by_hand() -> None:
    g = tienlen.Game(seed=2, leader=1, hand_number=7)
    assert g.hand_number == 7 and g.setup == {"leader": 1, "hand_number": 7}
    assert tienlen.Game.from_json(g.to_json()).events[0]["hand_number"] == 7
    play_out(g)
    g.next_hand()
    assert g.events[-1]["type"] in ("lead", "deal", "new_round") and g.hand_number == 8
    for bad in (0, -1, True, "2"):
        with pytest.raises(RulesError, match="hand_number"):
            tienlen.Game(seed=2, hand_number=bad)  # type: ignore[arg-type]  # "2": refused at run time
    with pytest.raises(RulesError, match="numbers its hands"):
        Session("tienlen", seed=1, setup={"hand_number": 2})


# -- seq: the state counter of every game ----------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_seq_counts_accepted_actions_only_and_snapshots_keep_it(name: str) -> None:
    from vncards.games import from_json, new_game

    g = new_game(name, players=4 if name != "maubinh" else 2, seed=5)
    rng = random.Random(5)
    assert g.seq == 0 and g.view(0)["seq"] == 0 and g.public_view()["seq"] == 0
    seen = 0
    while not g.is_over:
        seat = g.pending_seats[0]
        bad = {"type": "pass", "seat": (seat + 1) % g.players}
        if not g.can_apply(bad):
            with pytest.raises(VncardsError):
                g.apply(bad)
            assert g.seq == seen  # a refused action leaves seq as it was
        random_step(g, rng)
        seen += 1
        assert g.seq == seen == len(g.actions) and g.view(seat)["seq"] == g.public_view()["seq"] == seen
    assert from_json(g.to_json()).seq == g.seq == copy.deepcopy(g).seq == pickle.loads(pickle.dumps(g)).seq
    # A position taken from the game goes on from its seq, and its snapshots keep that.
    position = type(g).from_position(g.to_dict())
    assert position.seq == g.seq and position.view(0) == g.view(0)
    assert type(g).from_json(position.to_json()).seq == g.seq
    assert type(g).from_position({**g.to_dict(), "actions": []}).seq == 0
    # A position snapshot from before seq (no origin.seq) still loads, counting from 0.
    old = json.loads(position.to_json())
    assert old["origin"].pop("seq") == g.seq and type(g).from_dict(old).seq == 0
    if hasattr(g, "next_hand"):
        g.next_hand()
        assert g.seq == seen + 1


def test_hands_verified_but_not_kept_are_counted() -> None:
    """Issue 35: ``from_json(..., hands=...)`` with ``keep_hands=0`` checks the hands and keeps
    none; ``verified_hands`` says how many it checked."""
    s = Session("tienlen", players=3, seed=8)
    for _ in range(3):
        play_out(s.game)
        s.next_hand()
    record = s.to_json(hands=True)
    for keep in (0, 1, None):
        data = json.loads(record)
        data["keep_hands"] = keep
        again = Session.from_dict(data)
        assert again.verified_hands == 3 and len(again.hands) == (3 if keep is None else keep)
        given = Session.from_dict({k: v for k, v in data.items() if k != "hands"}, hands=s.hands)
        assert given.verified_hands == 3
    assert Session.from_json(s.to_json()).verified_hands == 0 and s.verified_hands == 0
    with pytest.raises(SnapshotError):
        Session.from_json(s.to_json(), hands=s.hands[:2])


def test_a_literal_name_types_the_session_by_its_game() -> None:
    """``Session("tusac").game`` is a ``tusac.Game`` to a type checker (this module is checked
    with ``mypy --strict``: the annotated assignments below are the test) and at run time; a
    restored session, whose game is known only at run time, is a ``Session[TableGame]``."""
    s: Session[tusac.Game] = Session("tusac", seed=3)
    game: tusac.Game = s.game
    assert isinstance(game, tusac.Game) and game.dealer == 0
    north: Session[tienlen.Game] = Session("tienlen-north", seed=3)
    assert isinstance(north.game, tienlen.Game)
    restored: Session[TableGame] = Session.from_json(s.to_json())
    assert isinstance(restored.game, tusac.Game)
    general: Session[TableGame] = s  # covariant: a Session[tusac.Game] is a Session[TableGame]
    assert general.game is game
    assert Session[tusac.Game]("tusac", seed=3).game.setup == game.setup  # subscriptable at run time
