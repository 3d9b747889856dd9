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

from .._core import SAMLOC_CONG_UNITS, SAMLOC_SAM_UNITS, SAMLOC_TWO_UNITS, SheddingCombo
from ..inputs import SEAT, ActionSpec
from ..journal import BOOL, CARDS, INT, JSON, LIST, Codec
from ..shedding import SheddingGame
from ..snapshot import expect, expect_bool, expect_int, expect_list
from .rules import Rules as SamLocRules

__all__ = ["CONG_UNITS", "SAM_UNITS", "TWO_UNITS", "Game"]

#: Ăn trắng (instant win) and Sâm: units from each other player (Sâm blocked: per other player).
SAM_UNITS: int = SAMLOC_SAM_UNITS
#: Cóng: units of a seat that played no card, besides its 2s and tứ quý.
CONG_UNITS: int = SAMLOC_CONG_UNITS
#: Units per 2 (thối 2, chặt 2, finishing on a 2) and per tứ quý (thối/chặt tứ quý).
TWO_UNITS: int = SAMLOC_TWO_UNITS


class Game(SheddingGame):
    """A Sâm Lốc table of 2–5 seats, ten cards each; hands follow one another with
    :meth:`next_hand` and the ledger adds up over them.

    Each hand: instant wins (tới trắng) are checked at the deal; then, in turn from the nominal
    leader (first hand: a random seat; later: the previous winner), each seat declares Sâm
    (:meth:`declare_sam`) or declines (:meth:`decline_sam`) until one declares or all decline;
    then play (:meth:`play`, :meth:`pass_turn`). ``current_seat`` is the seat to act in both
    phases; ``phase`` says which. The rules (báo 1, a blocked Sâm, đền làng, the payments) are
    the shared flow's (``Rules.flow``).
    """

    GAME: ClassVar[str] = "samloc"
    Rules: ClassVar[type[SamLocRules]] = SamLocRules
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 5
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

    # -- the báo Sâm phase ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``"bao_sam"`` (declarations), ``"play"`` or ``"over"``."""
        f = self._flow
        if f.over:
            return "over"
        return "bao_sam" if f.sam_phase else "play"

    @property
    def sam_declarer(self) -> int | None:
        """The seat that declared Sâm in this hand, if any."""
        return self._flow.declarer

    @property
    def nominal_leader(self) -> int:
        """The seat the declarations start from, which leads unless someone declares Sâm."""
        return self._flow.nominal

    def _in_declarations(self) -> bool:
        f = self._flow
        return f.sam_phase and not f.over

    def declare_sam(self, seat: int) -> None:
        """Seat ``seat`` declares Sâm (báo Sâm): it claims to play out its ten cards with no
        play of its beaten. It leads every round; any beat of its play blocks the Sâm."""
        self._declare_sam(seat)

    def _declare_sam(self, seat: Any) -> None:
        seat = self._check_seat(seat)
        self._flow.check_declaration(seat)
        self._log({"type": "declare_sam", "seat": seat})
        self._record(self._flow.declare_sam(seat, self._rng))

    def decline_sam(self, seat: int) -> None:
        """Seat ``seat`` does not declare Sâm; after the last seat, the nominal leader leads."""
        self._decline_sam(seat)

    def _decline_sam(self, seat: Any) -> None:
        seat = self._check_seat(seat)
        self._flow.check_declaration(seat)
        self._log({"type": "decline_sam", "seat": seat})
        self._record(self._flow.decline_sam(seat, self._rng))

    def legal_plays(self) -> Sequence[SheddingCombo]:
        """Every play the current seat may make now; none while Sâm is being declared."""
        if self._in_declarations():
            return []
        return super().legal_plays()

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
        if self._in_declarations():
            self._check_seat(seat)
            turn = self._flow.turn
            if seat != turn:
                return []
            return [{"type": "declare_sam", "seat": turn}, {"type": "decline_sam", "seat": turn}]
        return super().legal_actions(seat)

    def _moves(self, seat: int) -> Sequence[dict[str, Any]]:
        if self._in_declarations():
            return self.legal_actions(seat)
        return super()._moves(seat)

    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat``: decline Sâm; in play, as the shedding flow's bot."""
        if self._in_declarations():
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
        out["sam_declarer"] = self._flow.declarer
        out["nominal_leader"] = self._flow.nominal
        return out

    def _dump_state(self) -> dict[str, Any]:
        state = super()._dump_state()
        f = self._flow
        state["samloc"] = {
            "nominal": f.nominal,
            "sam_phase": f.sam_phase,
            "declined": f.declined,
            "declarer": f.declarer,
            "violations": [list(pair) for pair in f.violations],
        }
        return state

    def _load_state(self, state: dict[str, Any]) -> None:
        super()._load_state(state)
        n = self._players
        f = self._flow
        hands, played, over, turn = f.hands, f.played, f.over, f.turn
        d = state.get("samloc")
        expect(isinstance(d, dict), "samloc: missing")
        assert isinstance(d, dict)
        nominal = expect_int(d.get("nominal"), "samloc.nominal", 0, n - 1)
        sam_phase = expect_bool(d.get("sam_phase"), "samloc.sam_phase")
        declined = expect_int(d.get("declined"), "samloc.declined", 0, n)
        declarer_value = d.get("declarer")
        declarer = None if declarer_value is None else expect_int(declarer_value, "samloc.declarer", 0, n - 1)
        violations: dict[int, int] = {}
        for i, item in enumerate(expect_list(d.get("violations"), "samloc.violations")):
            pair = expect_list(item, f"samloc.violations[{i}]", 2)
            one = expect_int(pair[0], "samloc.violations[].seat", 0, n - 1)
            by = expect_int(pair[1], "samloc.violations[].violator", 0, n - 1)
            expect(one != by and one not in violations, "samloc.violations: bad entry")
            expect(over or hands[one].bit_count() == 1, "samloc.violations: the seat does not hold one card")
            violations[one] = by
        others_played = declarer is not None and any(played[s] for s in range(n) if s != declarer)
        if sam_phase:
            expect(
                not over and declarer is None and not any(played),
                "samloc.sam_phase: declarations happen before any play",
            )
            expect(turn == (nominal + declined) % n, "samloc.declined: turn is not the next seat to declare")
        elif not over and declarer is None:
            expect(declined == n, "samloc.declined: declarations unfinished")
        if declarer is not None and not over:
            expect(not others_played, "samloc.declarer: another seat played during a Sâm")
        f.set_sam(nominal, sam_phase, declined, declarer, sorted(violations.items()))
