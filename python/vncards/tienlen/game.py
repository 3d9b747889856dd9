"""The Tiến Lên game: the shared shedding flow plus Tiến Lên's instant wins, first lead,
bomb-after-pass, and its two scoring tables."""

from __future__ import annotations

from typing import ClassVar

from .._core import SheddingCombo, tienlen_instant_win
from ..journal import CARDS, INT, JSON, Codec
from ..rules import RulesBase
from ..shedding.game import SheddingGame
from ..shedding.penalty import TWOS_MASK, penalty_items
from .rules import Rules as TienLenRules

__all__ = ["Game"]

_THREE_OF_SPADES = 1
# Ranked scoring: (loser place, winner place, units) by number of players.
_RANK_PAYMENTS = {
    4: ((3, 0, 2), (2, 1, 1)),
    3: ((2, 0, 2),),
    2: ((1, 0, 2),),
}


class Game(SheddingGame):
    """A hand (and the following hands) of Tiến Lên for 2–4 players.

    >>> g = Game(players=4, seed=7)
    >>> g.current_seat is not None and g.current_seat == g.pending_seats[0]
    True
    >>> while not g.is_over:
    ...     g.auto_play(g.current_seat)
    >>> sum(g.settlement)
    0
    """

    GAME: ClassVar[str] = "tienlen"
    Rules: ClassVar[type[RulesBase]] = TienLenRules
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        **SheddingGame.EVENT_LOG,
        "instant_win": {"seat": INT, "instant": JSON, "cards": CARDS},
    }

    _rules: TienLenRules

    def _ranked_ending(self) -> bool:
        return self._rules.ending == "ranked"

    def _finish_on_two(self) -> str:
        return self._rules.finish_on_two

    def _after_deal(self) -> None:
        """Instant wins (tới trắng): the strongest one takes the hand at once."""
        r = self._rules
        extras = r.first_hand_extras and self._first_rule
        best: tuple[int, int, int, str] | None = None
        for seat, hand in enumerate(self._hands):
            found = tienlen_instant_win(hand, r.core, r.same_colour_instant_win, extras)
            if found is not None and (best is None or found[1:] > best[1:3]):
                best = (seat, found[1], found[2], found[0])
        if best is None:
            return
        seat, _, _, kind = best
        self._emit("instant_win", seat=seat, instant=kind, cards=self._hands[seat])
        units = 26 if r.scoring == "count" else 4
        for s in range(self._players):
            if s != seat:
                self._ledger.pay(s, seat, units, "instant_win")
        self._end_hand(seat, first_rule_next=True)

    def _first_leader(self) -> tuple[int, int]:
        if self._rules.first_lead == "random":
            return self._rng.below(self._players), 0
        lowest = self._lead_card()
        seat = next(s for s, m in enumerate(self._hands) if m & lowest)
        return seat, lowest

    def _lead_card(self) -> int:
        return 0 if self._rules.first_lead == "random" else self._dealt & -self._dealt

    def _after_pass_filter(self) -> str | None:
        mode = self._rules.bomb_after_pass
        t = self._table
        if mode == "none" or t is None or not (t.is_bomb or t.is_twos):
            return None
        return "four_pair_sequences" if mode == "four_pair_sequence" else "bombs"

    def _cut_value(self, table: SheddingCombo) -> int:
        return self._rules.penalties.cut_value(table.mask, table.kind)

    def _pay_thoi(self, seat: int, to: int, card_units: int) -> None:
        """``seat`` pays ``to`` for the cards it holds: plain cards at ``card_units`` each,
        penalised items (thối) at their value."""
        hand = self._hands[seat]
        covered = 0
        items = penalty_items(hand, self._rules.penalties, card_units)
        for _, m, _ in items:
            covered |= m
        if card_units:
            self._ledger.pay(seat, to, (hand & ~covered).bit_count() * card_units, "cards_left")
        for name, _, units in items:
            self._ledger.pay(seat, to, units, "thoi_" + name)

    def _settle_first_out(self, winner: int, combo: SheddingCombo) -> None:
        r = self._rules
        others = [s for s in range(self._players) if s != winner]
        if r.ket_3_bich and combo.mask == _THREE_OF_SPADES:
            for s in others:
                self._ledger.pay(s, winner, 26, "ket_3_bich")
            return
        if r.ket_3_bich and any(self._hands[s] == _THREE_OF_SPADES for s in others):
            # Chặn kết 3 bích: seats that did not play in the final round neither pay nor receive.
            others = [s for s in others if self._round_seats >> s & 1 or self._hands[s] == _THREE_OF_SPADES]
        for s in others:
            if r.ket_3_bich and self._hands[s] == _THREE_OF_SPADES:
                for t in range(self._players):
                    if t != s and self._round_seats >> t & 1:
                        self._ledger.pay(s, t, 26, "chan_ket_3_bich")
            elif not self._played[s]:
                self._ledger.pay(s, winner, 26, "cong")
                self._pay_thoi(s, winner, 0)
            else:
                self._pay_thoi(s, winner, 1)

    def _settle_ranked(self, order: list[int]) -> None:
        cong = set(self._cong)
        for lo, hi, units in _RANK_PAYMENTS[len(order)]:
            if order[lo] not in cong:
                self._ledger.pay(order[lo], order[hi], units, "rank")
        for s in self._cong:
            self._ledger.pay(s, order[0], 4, "cong")
        for place in range(1, len(order)):
            s = order[place]
            if self._hands[s]:
                to = order[0] if self._rules.thoi_to == "winner" else order[place - 1]
                self._pay_thoi(s, to, 0)

    def _settle_finish_on_two(self, seat: int, combo: SheddingCombo) -> None:
        units = self._rules.penalties.twos_value(combo.mask & TWOS_MASK)
        for s in range(self._players):
            if s != seat:
                self._ledger.pay(seat, s, units, "finish_on_two")
