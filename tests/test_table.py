"""The shared mechanism: rules base, ledger, snapshot validation and the TableGame envelope,
exercised through a toy game (each seat draws a card; the highest card collects 1 from each)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import IllegalMoveError, RulesError, SnapshotError
from vncards.cards import cards_text
from vncards.ledger import Ledger
from vncards.rules import RulesBase, option
from vncards.snapshot import expect_disjoint, expect_int, expect_list, expect_mask
from vncards.table import TableGame


@dataclass(frozen=True)
class HighRules(RulesBase):
    stake: int = option(1, "units each loser pays", bounds=(1, 1000))
    winner: Literal["high", "low"] = "high"
    double: bool = False


class HighCard(TableGame):
    GAME = "highcard"
    Rules = HighRules
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4

    def _start(self) -> None:
        deck = self._rng.permutation(52)
        self._hands = [1 << deck[s] for s in range(self._players)]
        self._shown = [False] * self._players
        self._emit("deal", players=self._players)

    @property
    def is_over(self) -> bool:
        return all(self._shown)

    def apply(self, action: Mapping[str, Any]) -> None:
        self.show(action["seat"])

    def show(self, seat: int) -> None:
        self._check_seat(seat)
        if self._shown[seat]:
            raise IllegalMoveError("already_shown", f"seat {seat} already showed")
        self._shown[seat] = True
        self._log({"type": "show", "seat": seat})
        self._emit("show", seat=seat, card=cards_text(self._hands[seat]))
        if self.is_over:
            best = (max if self._rules.winner == "high" else min)(
                range(self._players), key=lambda s: self._hands[s]
            )
            for s in range(self._players):
                if s != best:
                    self._ledger.pay(s, best, self._rules.stake, "high_card")

    def view(self, seat: int) -> dict[str, Any]:
        return {"seat": seat, "hand": cards_text(self._hands[seat])}

    def _dump_state(self) -> dict[str, Any]:
        return {"hands": self._hands, "shown": self._shown}

    def _load_state(self, state: dict[str, Any]) -> None:
        hands = expect_list(state["hands"], "hands", self._players)
        self._hands = [expect_mask(h, f"hands[{i}]") for i, h in enumerate(hands)]
        expect_disjoint(self._hands, "hands")
        self._shown = list(expect_list(state["shown"], "shown", self._players))


# -- rules -------------------------------------------------------------------------------------


def test_rules_validate_types_choices_and_consistency() -> None:
    r = HighRules()
    assert r.replace(stake=3).stake == 3 and r.stake == 1
    assert HighRules.from_dict(r.replace(winner="low").to_dict()).winner == "low"
    for bad in ({"stake": 0}, {"stake": True}, {"stake": "1"}, {"winner": "mid"}, {"double": 1}, {"nope": 1}):
        with pytest.raises(RulesError):
            r.replace(**bad)
    with pytest.raises(RulesError):
        HighRules.from_dict([1])
    with pytest.raises(AttributeError):
        r.stake = 2  # type: ignore[misc]  # frozen: the assignment must fail


# -- ledger ------------------------------------------------------------------------------------


@given(
    st.integers(2, 5).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.integers(0, 50)), max_size=30
            ),
        )
    )
)
def test_ledger_is_zero_sum_and_matches_entries(case: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, payments = case
    ledger = Ledger(n)
    for a, b, u in payments:
        if a != b:
            ledger.pay(a, b, u, "test")
    totals = ledger.totals()
    assert sum(totals) == 0
    for seat in range(n):
        assert totals[seat] == sum(e["units"] for e in ledger.entries if e["to"] == seat) - sum(
            e["units"] for e in ledger.entries if e["from"] == seat
        )
    assert Ledger.from_entries(n, ledger.entries).totals() == totals


@pytest.mark.parametrize(
    "entries",
    [
        "x",
        [1],
        [{"from": 0, "to": 1, "units": 1}],
        [{"from": 0, "to": 0, "units": 1, "reason": "r"}],
        [{"from": 0, "to": 1, "units": -1, "reason": "r"}],
        [{"from": 0, "to": 9, "units": 1, "reason": "r"}],
        [{"from": 0, "to": 1, "units": True, "reason": "r"}],
        [{"from": 0, "to": 1, "units": 1, "reason": 3}],
    ],
)
def test_ledger_restore_rejects_malformed(entries: Any) -> None:
    with pytest.raises(SnapshotError):
        Ledger.from_entries(2, entries)


def test_ledger_rejects_bad_payments() -> None:
    ledger = Ledger(2)
    for payer, payee, units in ((0, 0, 1), (0, 2, 1), (0, 1, -1), (0, 1, 1.5)):
        with pytest.raises(ValueError):
            ledger.pay(payer, payee, units, "r")  # type: ignore[arg-type]  # 1.5 units: refused at run time


# -- snapshot helpers ----------------------------------------------------------------------------


def test_snapshot_helpers() -> None:
    assert expect_int(2, "x", 0, 3) == 2
    for bad in (True, "2", 4, -1, None):
        with pytest.raises(SnapshotError):
            expect_int(bad, "x", 0, 3)
    with pytest.raises(SnapshotError):
        expect_mask(1 << 60, "m")
    with pytest.raises(SnapshotError, match="appears twice"):
        expect_disjoint([3, 1], "hands")
    assert expect_disjoint([1, 2], "hands", union=3) == 3


# -- the envelope ----------------------------------------------------------------------------------


def play_out(game: HighCard) -> None:
    for s in range(game.players):
        game.show(s)


def test_game_round_trip_replay_and_settlement() -> None:
    g = HighCard(players=3, seed=11)
    g.show(1)
    h = HighCard.from_json(g.to_json())
    assert h.to_json() == g.to_json()
    assert g.settlement is None
    play_out_rest = [s for s in range(3) if s != 1]
    for s in play_out_rest:
        g.show(s)
        h.show(s)
    assert g.settlement == h.settlement and sum(g.settlement or []) == 0
    assert sorted(g.settlement or []) == [-1, -1, 2]
    r = HighCard.replay(g.actions, players=3, seed=11)
    assert r.to_json() == g.to_json()
    assert HighCard.replay(g.actions, players=3, seed=g.rng_key).settlement == g.settlement
    c = g.clone()
    assert c.to_json() == g.to_json() and c is not g


def test_unseeded_games_replay_with_their_key() -> None:
    g = HighCard(players=4)
    play_out(g)
    assert HighCard.replay(g.actions, players=4, seed=g.rng_key).events == g.events


def test_illegal_action_leaves_state() -> None:
    g = HighCard(players=2, seed=1)
    g.show(0)
    before = g.to_json()
    for seat in (0, 2, -1, True, "0"):
        with pytest.raises(IllegalMoveError):
            g.show(seat)  # type: ignore[arg-type]  # bad seats on purpose
    assert g.to_json() == before


def test_players_and_rules_checked() -> None:
    for bad in (1, 5, True, "4"):
        with pytest.raises(RulesError):
            HighCard(players=bad)  # type: ignore[arg-type]  # bad player counts on purpose
    with pytest.raises(RulesError):
        HighCard(rules=object())


def mutate(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> str:
    d: Any = data
    for key in path[:-1]:
        d = d[key]
    if value is KeyError:
        del d[path[-1]]
    else:
        d[path[-1]] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("format",), "other"),
        (("game",), "tienlen"),
        (("version",), 99),
        (("players",), 9),
        (("rules",), {"stake": 0}),
        (("rules",), {"bogus": 1}),
        (("rng", "key"), "zz"),
        (("rng", "key"), "00"),
        (("rng", "position"), -1),
        (("events",), {}),
        (("events",), [1]),
        (("actions",), [{"seat": 0}]),
        (("ledger",), [{}]),
        (("state",), []),
        (("state", "hands"), [1, 1, 4]),
        (("state", "hands"), [1, 2]),
        (("state", "hands", 0), -5),
        (("state", "hands", 0), 1 << 55),
        (("players",), KeyError),
        (("state", "hands"), KeyError),
    ],
)
def test_from_json_rejects_bad_snapshots(path: tuple[Any, ...], value: Any) -> None:
    g = HighCard(players=3, seed=4)
    data = json.loads(g.to_json())
    with pytest.raises(SnapshotError):
        HighCard.from_json(mutate(data, path, value))


@pytest.mark.parametrize("text", ["", "{", "null", "[]", "1", '{"format": "vncards"}', b"\xff"])
def test_from_json_rejects_garbage(text: str | bytes) -> None:
    with pytest.raises(SnapshotError):
        HighCard.from_json(text)
