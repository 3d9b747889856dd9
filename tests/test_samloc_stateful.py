"""A hypothesis state machine over Sâm Lốc tables: legal and illegal actions, hands in
sequence, snapshots; after every step the shared invariants hold (card conservation, zero-sum
settlement equal to the ledger, views without others' cards, snapshot round-trip)."""

from __future__ import annotations

import json

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from support.actions import open_actions
from test_samloc_game import OPTION_SETS, check_invariants
from vncards import DECK, Card, IllegalMoveError
from vncards.cards import to_mask
from vncards.samloc import Game, Rules


class SamLocTable(RuleBasedStateMachine):
    game: Game

    @initialize(
        players=st.integers(2, 5),
        rules=st.sampled_from(OPTION_SETS),
        seed=st.integers(0, 2**64),
    )
    def deal(self, players: int, rules: Rules, seed: int) -> None:
        self.game = Game(players=players, rules=rules, seed=seed)

    @rule(pick=st.integers(0, 10_000), declare=st.integers(0, 9))
    def legal_action(self, pick: int, declare: int) -> None:
        g = self.game
        if g.is_over:
            g.next_hand()
            return
        acts = open_actions(g)
        assert acts, "a seat to act always has an action"
        assert g.legal_actions(g.pending_seats[0]) == acts
        if acts[0]["type"] == "declare_sam":
            g.apply(acts[0] if declare == 0 else acts[1])
        else:
            g.apply(acts[pick % len(acts)])

    @rule(seat=st.integers(0, 4))
    def timeout(self, seat: int) -> None:
        g = self.game
        if g.is_over:
            return
        g.auto_play(g.pending_seats[0])

    @rule(
        kind=st.sampled_from(["play", "pass", "declare_sam", "decline_sam", "next_hand", "x"]),
        seat=st.integers(-1, 5),
        cards=st.lists(st.sampled_from(DECK), min_size=0, max_size=5, unique=True),
    )
    def any_action(self, kind: str, seat: int, cards: list[Card]) -> None:
        g = self.game
        before = g.to_json()
        action: dict[str, object] = {"type": kind, "seat": seat, "cards": " ".join(str(c) for c in cards)}
        if kind in ("pass", "declare_sam", "decline_sam"):
            del action["cards"]  # an action holds exactly its own keys
        elif kind == "next_hand":
            action = {"type": kind}
        mask = to_mask(cards)
        open_now = {(a["type"], a["seat"], to_mask(a.get("cards", ""))) for a in open_actions(g)}
        legal = (kind, seat, mask if kind == "play" else 0) in open_now or (kind == "next_hand" and g.is_over)
        try:
            g.apply(action)
        except IllegalMoveError:
            assert g.to_json() == before, "a refused action changed the state"
            assert not legal
        else:
            assert legal

    @rule()
    def snapshot(self) -> None:
        text = self.game.to_json()
        restored = Game.from_json(text)
        assert restored.to_json() == text
        self.game = restored

    @invariant()
    def shared_invariants(self) -> None:
        if hasattr(self, "game"):
            check_invariants(self.game)
            if self.game.is_over:
                assert self.game.pending_seats == [] and open_actions(self.game) == []
            json.dumps(self.game.events)


TestSamLocTable = SamLocTable.TestCase
