"""The Sâm Lốc table (rules: :doc:`/rules/samloc`) on the shared shedding flow: instant wins at the deal,
the báo Sâm phase, báo 1, finishing on a 2, cóng and the settlement table.

>>> from vncards import samloc
>>> game = samloc.Game(players=3, seed=7)
>>> game.phase, len(game.hand(0)), game.legal_actions(game.pending_seats[0])[0]["type"]
('bao_sam', 10, 'declare_sam')
>>> while not game.is_over:
...     game.auto_play(game.pending_seats[0])
>>> game.phase, sum(game.settlement)
('over', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .._core import SheddingCombo, samloc_instant_winner
from ..errors import IllegalMoveError
from ..inputs import SEAT, ActionSpec
from ..journal import BOOL, CARDS, INT, JSON, LIST, Codec
from ..shedding import TWOS_MASK, SheddingGame, penalty_items
from ..snapshot import expect, expect_bool, expect_int, expect_list
from .rules import PENALTIES
from .rules import Rules as SamLocRules

__all__ = ["CONG_UNITS", "SAM_UNITS", "TWO_UNITS", "Game"]

#: Ăn trắng (instant win) and Sâm: units from each other player (Sâm blocked: per other player).
SAM_UNITS = 20
#: Cóng: units of a seat that played no card, besides its 2s and tứ quý.
CONG_UNITS = 15
#: Units per 2 (thối 2, chặt 2, finishing on a 2) and per tứ quý (thối/chặt tứ quý).
TWO_UNITS = 15


class Game(SheddingGame):
    """A Sâm Lốc table of 2–5 seats, ten cards each; hands follow one another with
    :meth:`next_hand` and the ledger adds up over them.

    Each hand: instant wins (tới trắng) are checked at the deal; then, in turn from the nominal
    leader (first hand: a random seat; later: the previous winner), each seat declares Sâm
    (:meth:`declare_sam`) or declines (:meth:`decline_sam`) until one declares or all decline;
    then play (:meth:`play`, :meth:`pass_turn`). ``current_seat`` is the seat to act in both
    phases; ``phase`` says which.
    """

    GAME: ClassVar[str] = "samloc"
    Rules: ClassVar[type[SamLocRules]] = SamLocRules
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5
    CUT_REASON: ClassVar[str] = "chat"
    #: Version 3 logs báo 1 (``bao_mot``, ``bao_mot_single``; ``bao_mot_violation`` only with
    #: the settlement); version-2 snapshots still restore, with the events of their replay.
    SNAPSHOT_VERSION: ClassVar[int] = 3
    REPLAYED_VERSIONS: ClassVar[tuple[int, ...]] = (2,)
    #: The action dicts: ``{"type": "declare_sam" | "decline_sam", "seat": s}`` in the báo Sâm
    #: phase, then a play, pass or ``next_hand`` (as in the shedding flow).
    ACTIONS: ClassVar[dict[str, ActionSpec]] = {
        **SheddingGame.ACTIONS,
        "declare_sam": ActionSpec(seat=SEAT),
        "decline_sam": ActionSpec(seat=SEAT),
    }
    ACTION_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        **SheddingGame.ACTION_LOG,
        "declare_sam": {"seat": INT},
        "decline_sam": {"seat": INT},
    }
    #: Whether a single played under báo 1 broke it is the player's alone until the hand ends
    #: (the hand then shows every card, and a paid violation is announced with the settlement).
    PRIVATE_FIELDS: ClassVar[dict[str, dict[str, str]]] = {
        **SheddingGame.PRIVATE_FIELDS,
        "bao_mot_single": {"violation": "seat"},
    }
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        **SheddingGame.EVENT_LOG,
        "instant_win": {"seat": INT, "win": JSON, "cards": CARDS},
        "declare_sam": {"seat": INT},
        "decline_sam": {"seat": INT},
        "sam_blocked": {"seat": INT, "declarer": INT},
        "bao_mot": {"seat": INT},
        "bao_mot_single": {"seat": INT, "one_card_seats": LIST(INT), "violation": BOOL},
        "bao_mot_violation": {"seat": INT, "one_card_seats": LIST(INT)},
        "sam_success": {"seat": INT},
        "den_lang": {"seat": INT, "winner": INT, "units": INT},
    }

    _rules: SamLocRules

    # -- the deal: instant wins and the báo Sâm phase -----------------------------------------

    def _after_deal(self) -> None:
        self._declarer: int | None = None
        self._sam_phase = False
        self._declined = 0
        # Báo 1 (mode "penalize"): one-card seat -> the last seat that played a lower single
        # while bound to play its highest, since the one-card seat last acted.
        self._violations: dict[int, int] = {}
        if self._first_rule or self._winner is None:
            self._nominal = self._rng.below(self._players)
        else:
            self._nominal = self._winner
        found = samloc_instant_winner(self._hands, self._nominal, self._rules.core)
        if found is not None:
            seat, kind, _ = found
            self._emit("instant_win", seat=seat, win=kind, cards=self._hands[seat])
            for s in self._others(seat):
                self._ledger.pay(s, seat, SAM_UNITS, "an_trang")
            self._end_hand(seat)
            return
        # The declarations come first, from the nominal leader; the lead opens after them.
        self._sam_phase = True
        self._turn = self._nominal

    def _first_leader(self) -> tuple[int, int]:
        return self._nominal, 0

    def _others(self, seat: int) -> list[int]:
        return [s for s in range(self._players) if s != seat]

    @property
    def phase(self) -> str:
        """``"bao_sam"`` (declarations), ``"play"`` or ``"over"``."""
        if self._over:
            return "over"
        return "bao_sam" if self._sam_phase else "play"

    @property
    def sam_declarer(self) -> int | None:
        """The seat that declared Sâm in this hand, if any."""
        return self._declarer

    @property
    def nominal_leader(self) -> int:
        """The seat the declarations start from, which leads unless someone declares Sâm."""
        return self._nominal

    def _require_declaration(self, seat: Any) -> int:
        checked = self._require_turn(seat)
        if not self._sam_phase:
            raise IllegalMoveError("not_declaring", "the báo Sâm declarations are over")
        return checked

    def declare_sam(self, seat: int) -> None:
        """Seat ``seat`` declares Sâm (báo Sâm): it claims to play out its ten cards with no
        play of its beaten. It leads every round; any beat of its play blocks the Sâm."""
        self._declare_sam(seat)

    def _declare_sam(self, seat: Any) -> None:
        seat = self._require_declaration(seat)
        self._log({"type": "declare_sam", "seat": seat})
        self._sam_phase = False
        self._declarer = seat
        self._emit("declare_sam", seat=seat)
        self._open_lead(seat)

    def decline_sam(self, seat: int) -> None:
        """Seat ``seat`` does not declare Sâm; after the last seat, the nominal leader leads."""
        self._decline_sam(seat)

    def _decline_sam(self, seat: Any) -> None:
        seat = self._require_declaration(seat)
        self._log({"type": "decline_sam", "seat": seat})
        self._declined += 1
        self._emit("decline_sam", seat=seat)
        if self._declined == self._players:
            self._sam_phase = False
            self._open_lead()
        else:
            self._turn = (seat + 1) % self._players

    # -- play: báo 1, Sâm, finishing on a 2 -----------------------------------------------------

    def _refuse_in_declarations(self, seat: Any) -> None:
        if self._sam_phase and not self._over:
            self._check_seat(seat)
            raise IllegalMoveError("declare_first", "declare Sâm or decline before playing")

    def legal_plays(self) -> Sequence[SheddingCombo]:
        """Every play the current seat may make now; none while Sâm is being declared."""
        if self._sam_phase and not self._over:
            return []
        return super().legal_plays()

    def _play(self, seat: Any, cards: int) -> None:
        self._refuse_in_declarations(seat)
        super()._play(seat, cards)

    def _pass_turn(self, seat: Any) -> None:
        self._refuse_in_declarations(seat)
        super()._pass_turn(seat)
        # A one-card seat that passes did not go out with its next play.
        self._violations.pop(seat, None)

    def _bao_mot_seats(self, seat: int) -> list[int]:
        """One-card seats whose báo 1 binds ``seat`` to play its highest single."""
        n = self._players
        hands = self._hands
        if self._rules.bao_mot_scope == "previous_seat":
            nxt = seat + 1 if seat + 1 < n else 0
            return [nxt] if hands[nxt].bit_count() == 1 else []
        return [s for s in range(n) if s != seat and hands[s].bit_count() == 1]

    @staticmethod
    def _lower_single(hand: int, combo: SheddingCombo) -> bool:
        # Singles compare by rank: top is (rank + 2) * 4 + suit; the hand's top rank from its mask.
        return combo.kind == "single" and (combo.top >> 2) - 2 < (hand.bit_length() - 1) >> 2

    def _filter_plays(self, seat: int, plays: Sequence[SheddingCombo]) -> Sequence[SheddingCombo]:
        if self._rules.bao_mot_mode == "enforce" and self._bao_mot_seats(seat):
            hand = self._hands[seat]
            return [c for c in plays if not self._lower_single(hand, c)]
        return plays

    def _check_play(self, seat: int, combo: SheddingCombo) -> None:
        if (
            self._rules.bao_mot_mode == "enforce"
            and self._lower_single(self._hands[seat], combo)
            and self._bao_mot_seats(seat)
        ):
            raise IllegalMoveError("bao_mot", "a seat holds one card (báo 1): play your highest single")

    def _finish_on_two(self) -> str:
        # The seed names no exception for a Sâm declarer; the house rule exempts it.
        if self._declarer is not None and self._rules.sam_may_finish_on_two:
            return "allowed"
        return self._rules.finish_on_two

    def _cut_value(self, table: SheddingCombo) -> int:
        if table.kind == "four_of_a_kind":
            return TWO_UNITS
        return TWO_UNITS * (table.mask & TWOS_MASK).bit_count()

    def _on_play(self, seat: int, combo: SheddingCombo) -> None:
        declarer = self._declarer
        if declarer is not None and seat != declarer:
            self._chain = None  # the hand ends at once: no other payment
            self._emit("sam_blocked", seat=seat, declarer=declarer)
            n = self._players
            if self._rules.sam_block_pays == "blocker":
                self._ledger.pay(declarer, seat, SAM_UNITS * (n - 1), "den_sam")
            else:
                for s in self._others(declarer):
                    self._ledger.pay(declarer, s, SAM_UNITS, "den_sam")
            self._end_hand(seat)
            return
        if combo.kind == "single" and self._rules.bao_mot_mode == "penalize":
            bound = self._bao_mot_seats(seat)
            if bound:
                # Every single a bound seat plays is logged, so the log never tells the table
                # which ones broke báo 1 (that would show a higher card still held).
                lower = self._lower_single(self._hands[seat] | combo.mask, combo)
                if lower:
                    for s in bound:
                        self._violations[s] = seat
                self._emit("bao_mot_single", seat=seat, one_card_seats=bound, violation=lower)
        if self._hands[seat].bit_count() == 1:
            self._emit("bao_mot", seat=seat)

    # -- settlement ----------------------------------------------------------------------------

    def _penalty(self, seat: int) -> list[tuple[str, int]]:
        """What loser ``seat`` owes the winner, itemised (thối rác, thối 2, thối tứ quý, cóng)."""
        hand = self._hands[seat]
        cong = not self._played[seat]
        items = penalty_items(hand, PENALTIES, card_units=0 if cong else 1)
        covered = 0
        twos = quads = 0
        for name, mask, units in items:
            covered |= mask
            if name == "four_of_a_kind":
                quads += units
            else:
                twos += units
        plain = CONG_UNITS if cong else (hand & ~covered).bit_count()
        return [("cong" if cong else "thoi_rac", plain), ("thoi_2", twos), ("thoi_tu_quy", quads)]

    def _settle_first_out(self, winner: int, combo: SheddingCombo) -> None:
        if winner == self._declarer:
            self._emit("sam_success", seat=winner)
            for s in self._others(winner):
                self._ledger.pay(s, winner, SAM_UNITS, "sam")
            return
        owed = {s: self._penalty(s) for s in self._others(winner)}
        for s in owed:
            if not self._played[s]:
                self._emit("cong", seat=s)
        violator = self._violations.get(winner)
        if violator is not None:
            if self._rules.bao_mot_den == "cards":
                # Every card the losers still hold, the violator's included, 1 unit each.
                total = sum(self._hands[s].bit_count() for s in owed)
            else:
                total = sum(units for items in owed.values() for _, units in items)
            self._emit("bao_mot_violation", seat=violator, one_card_seats=[winner])
            self._emit("den_lang", seat=violator, winner=winner, units=total)
            self._ledger.pay(violator, winner, total, "den_lang")
            return
        for s, items in owed.items():
            for reason, units in items:
                self._ledger.pay(s, winner, units, reason)

    def _settle_finish_on_two(self, seat: int, combo: SheddingCombo) -> None:
        units = TWO_UNITS * (combo.mask & TWOS_MASK).bit_count()
        for s in self._others(seat):
            self._ledger.pay(seat, s, units, "finish_on_two")

    # -- the uniform interface -----------------------------------------------------------------

    def _apply(self, a: dict[str, Any]) -> None:
        if a["type"] == "declare_sam":
            self._declare_sam(a["seat"])
        elif a["type"] == "decline_sam":
            self._decline_sam(a["seat"])
        else:
            super()._apply(a)

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action dict ``seat`` may apply now: declare or decline Sâm in the báo Sâm
        phase, then plays and pass (see the shedding flow)."""
        if self._sam_phase and not self._over:
            self._check_seat(seat)
            turn = self._turn
            if seat != turn:
                return []
            return [{"type": "declare_sam", "seat": turn}, {"type": "decline_sam", "seat": turn}]
        return super().legal_actions(seat)

    def _moves(self, seat: int) -> Sequence[dict[str, Any]]:
        if self._sam_phase and not self._over:
            return self.legal_actions(seat)
        return super()._moves(seat)

    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat``: decline Sâm; in play, as the shedding flow's bot."""
        if self._sam_phase and not self._over:
            self._decline_sam(seat)
            return
        super().auto_play(seat)

    def describe(self, action: Mapping[str, Any]) -> str:
        a = self._parse_action(action)
        if a["type"] == "declare_sam":
            return f"seat {a['seat']} declares Sâm"
        if a["type"] == "decline_sam":
            return f"seat {a['seat']} does not declare Sâm"
        return super().describe(action)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The shedding view plus the phase, the Sâm declarer and the nominal leader."""
        out = super()._view(seat)
        out["phase"] = self.phase
        out["sam_declarer"] = self._declarer
        out["nominal_leader"] = self._nominal
        return out

    def _dump_state(self) -> dict[str, Any]:
        state = super()._dump_state()
        state["samloc"] = {
            "nominal": self._nominal,
            "sam_phase": self._sam_phase,
            "declined": self._declined,
            "declarer": self._declarer,
            "violations": sorted([s, v] for s, v in self._violations.items()),
        }
        return state

    def _load_state(self, state: dict[str, Any]) -> None:
        super()._load_state(state)
        n = self._players
        d = state.get("samloc")
        expect(isinstance(d, dict), "samloc: missing")
        assert isinstance(d, dict)
        self._nominal = expect_int(d.get("nominal"), "samloc.nominal", 0, n - 1)
        self._sam_phase = expect_bool(d.get("sam_phase"), "samloc.sam_phase")
        self._declined = expect_int(d.get("declined"), "samloc.declined", 0, n)
        declarer = d.get("declarer")
        self._declarer = None if declarer is None else expect_int(declarer, "samloc.declarer", 0, n - 1)
        self._violations = {}
        for i, item in enumerate(expect_list(d.get("violations"), "samloc.violations")):
            pair = expect_list(item, f"samloc.violations[{i}]", 2)
            one = expect_int(pair[0], "samloc.violations[].seat", 0, n - 1)
            by = expect_int(pair[1], "samloc.violations[].violator", 0, n - 1)
            expect(one != by and one not in self._violations, "samloc.violations: bad entry")
            expect(
                self._over or self._hands[one].bit_count() == 1,
                "samloc.violations: the seat does not hold one card",
            )
            self._violations[one] = by
        if self._sam_phase:
            expect(
                not self._over and self._declarer is None and not any(self._played),
                "samloc.sam_phase: declarations happen before any play",
            )
            expect(
                self._turn == (self._nominal + self._declined) % n,
                "samloc.declined: turn is not the next seat to declare",
            )
        elif not self._over and self._declarer is None:
            expect(self._declined == n, "samloc.declined: declarations unfinished")
        if self._declarer is not None and not self._over:
            expect(
                all(not self._played[s] for s in self._others(self._declarer)),
                "samloc.declarer: another seat played during a Sâm",
            )
