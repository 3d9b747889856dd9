"""A hypothesis state machine over ``tienlen.Game``: random legal and illegal actions, with the
shared invariants checked after every step (card conservation, rejected actions change
nothing, snapshot round-trip, zero-sum settlement equal to the ledger, views hide hands)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from support.actions import open_actions
from support.ledger import net_totals
from vncards import Card, IllegalMoveError
from vncards.tienlen import Game, Rules

RULESETS = [
    Rules.south(),
    Rules.north(),
    Rules.south().replace(ending="ranked", scoring="ranked"),
    Rules.south().replace(ending="ranked", scoring="ranked", thoi_to="winner", bomb_after_pass="any_bomb"),
    Rules.south().replace(finish_on_two="forbidden", first_lead="random", ket_3_bich=False),
    Rules.south().replace(
        bomb_after_pass="none",
        quad_beats_pair_of_twos=False,
        same_colour_instant_win=True,
        first_hand_extras=True,
    ),
    Rules.north().replace(triple_follows_suits=True, single_follows_suit=False, finish_on_two="forbidden"),
    Rules.north().replace(ending="ranked", scoring="ranked", bomb_after_pass="any_bomb"),
]


class TienLenMachine(RuleBasedStateMachine):
    game: Game

    @initialize(seed=st.integers(0, 2**64), players=st.integers(2, 4), rules=st.sampled_from(RULESETS))
    def start(self, seed: int, players: int, rules: Rules) -> None:
        self.game = Game(players, rules, seed)
        self.seed = seed

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_action(self, data: st.DataObject) -> None:
        actions = open_actions(self.game)
        assert actions, "a seat to act always has an action"
        self.game.apply(data.draw(st.sampled_from(actions)))

    @precondition(lambda self: not self.game.is_over)
    @rule()
    def auto_play(self) -> None:
        self.game.auto_play(self.game.pending_seats[0])

    @precondition(lambda self: self.game.is_over)
    @rule()
    def next_hand(self) -> None:
        self.game.next_hand()

    @rule(
        seat=st.integers(-1, 4),
        kind=st.sampled_from(["play", "pass", "next_hand", "bogus"]),
        cards=st.lists(st.integers(0, 51), min_size=0, max_size=5, unique=True),
        own=st.booleans(),
    )
    def any_action(self, seat: int, kind: str, cards: list[int], own: bool) -> None:
        g = self.game
        if own and 0 <= seat < g.players and g.hand_mask(seat):
            held = [c.index for c in g.hand(seat)]
            cards = [held[i % len(held)] for i in cards]
            cards = sorted(set(cards))
        action: dict[str, Any] = {"type": kind, "seat": seat, "cards": " ".join(str(Card(c)) for c in cards)}
        before = g.to_json()
        try:
            g.apply(action)
        except IllegalMoveError as e:
            assert e.reason and e.reason == e.reason.lower()
            assert g.to_json() == before, f"rejected {action} ({e.reason}) changed the state"

    @invariant()
    def snapshot_round_trip(self) -> None:
        text = self.game.to_json()
        assert Game.from_json(text).to_json() == text

    @invariant()
    def cards_are_conserved(self) -> None:
        state = json.loads(self.game.to_json())["state"]
        seen = 0
        for m in state["hands"] + state["played"]:
            assert not seen & m
            seen |= m
        assert seen == state["dealt"]
        assert seen.bit_count() == 13 * self.game.players

    @invariant()
    def settlement_is_zero_sum_and_the_ledger(self) -> None:
        g = self.game
        totals = net_totals(g.ledger, g.players)
        assert sum(totals) == 0
        if g.is_over:
            assert g.settlement == totals
            assert g.current_seat is None and g.pending_seats == []
        else:
            assert g.settlement is None
            assert g.pending_seats == [g.current_seat]

    @invariant()
    def views_hide_other_hands(self) -> None:
        g = self.game
        for seat in range(g.players):
            view = g.view(seat)
            shown = set(view["hand"])
            assert shown == {str(c) for c in g.hand(seat)}
            for other in range(g.players):
                if other != seat:
                    hidden = {str(c) for c in g.hand(other)}
                    # (once the hand is over every seat shows what it holds: ``revealed``)
                    text = json.dumps({k: v for k, v in view.items() if k != "revealed"}, ensure_ascii=False)
                    assert not any(f'"{c}"' in text for c in hidden)


TestTienLenMachine = TienLenMachine.TestCase
# Steps include snapshot round-trips: no per-example deadline on a loaded machine; the
# example count comes from the active profile.
TestTienLenMachine.settings = settings(deadline=None)
