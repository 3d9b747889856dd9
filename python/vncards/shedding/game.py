"""The flow every shedding game shares (Tiến Lên, Sâm Lốc): deal, leads, rounds, passing,
hưởng sái, bomb chains (chặt chồng), going out, finishing on a 2, cóng, and the hand sequence.

A game subclasses :class:`SheddingGame` and fills in the hooks (marked *hook* below): its
rules object must have a ``core`` attribute (a ``_core.SheddingRules``). Everything that
differs between the games (instant wins, who leads first, what is paid) is a hook; the turn
machinery is here once.

Round rules (rules: :doc:`/rules/tienlen-south`): a seat beats the table or passes; a seat that passes is out of the
round (unless :meth:`_after_pass_filter` lets it cut); when every other seat in the round has
passed, the last seat to play leads a new round, or, if it has gone out, the next seat still in
the hand leads (hưởng sái).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, overload

from .._core import (
    PlayList,
    SheddingCombo,
    mask_to_text,
    shedding_check_play,
    shedding_classify,
    shedding_is_cut,
    shedding_legal_plays,
)
from ..errors import IllegalMoveError, RulesError
from ..inputs import CARDS, SEAT, ActionSpec, parse_cards
from ..journal import CARDS as CARD_MASK
from ..journal import INDEX, INT, LIST, OPTIONAL, Codec
from ..ledger import MAX_UNITS
from ..snapshot import (
    expect,
    expect_bool,
    expect_disjoint,
    expect_int,
    expect_list,
    expect_mask,
)
from ..table import Seed, TableGame
from .penalty import TWOS_MASK

__all__ = ["SheddingGame"]

_DECK = (1 << 52) - 1
#: The highest hand number a position may hold (a table plays far fewer; the event log keeps
#: it as a 64-bit int, and ``next_hand`` must be able to count on).
MAX_HAND_NUMBER = 2**31 - 1
#: The kinds of combination (``SheddingCombo.kind``).
COMBO_KINDS = ("single", "pair", "triple", "straight", "pair_sequence", "four_of_a_kind")
_KIND_INDEX = {kind: i for i, kind in enumerate(COMBO_KINDS)}


class PlayMoves(Sequence[dict[str, Any]]):
    """The legal actions of the seat to act: its plays, then pass when a table is open. Each
    action dict is built when read; ``play_masks`` gives the plays' card masks without any."""

    __slots__ = ("_seat", "_plays", "_can_pass")

    def __init__(self, seat: int, plays: Sequence[SheddingCombo], can_pass: bool) -> None:
        self._seat = seat
        self._plays = plays
        self._can_pass = can_pass

    def __len__(self) -> int:
        return len(self._plays) + self._can_pass

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self._plays)
        i = index + len(self) if index < 0 else index
        if 0 <= i < n:
            return {"type": "play", "seat": self._seat, "cards": str(self._plays[i])}
        if i == n and self._can_pass:
            return {"type": "pass", "seat": self._seat}
        raise IndexError("action index out of range")

    @property
    def play_masks(self) -> list[int]:
        """Card masks of the plays (indexes ``0..len(play_masks)-1`` of this sequence)."""
        plays = self._plays
        return plays.masks if isinstance(plays, PlayList) else [c.mask for c in plays]

    @property
    def pass_index(self) -> int | None:
        """The index of the pass action, or None when passing is not open."""
        return len(self._plays) if self._can_pass else None


class SheddingGame(TableGame):
    """Base of the shedding games; see the module docstring."""

    #: Ledger reason of a paid bomb chain.
    CUT_REASON: ClassVar[str] = "chat"
    #: The action dicts: ``{"type": "play", "seat": s, "cards": "3♠ 3♣"}``,
    #: ``{"type": "pass", "seat": s}`` and ``{"type": "next_hand"}`` (between hands).
    ACTIONS: ClassVar[dict[str, ActionSpec]] = {
        "play": ActionSpec(seat=SEAT, cards=CARDS),
        "pass": ActionSpec(seat=SEAT),
        "next_hand": ActionSpec(),
    }
    #: Only the leader sees the card its first play must include (as in ``view``).
    PRIVATE_FIELDS: ClassVar[dict[str, dict[str, str]]] = {"lead": {"must_include": "seat"}}
    ACTION_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "play": {"seat": INT, "cards": CARD_MASK},
        "pass": {"seat": INT},
        "next_hand": {},
    }
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "deal": {"hand_number": INT, "counts": LIST(INT)},
        "lead": {"seat": INT, "must_include": CARD_MASK},
        "play": {"seat": INT, "combo": INDEX(COMBO_KINDS), "cards": CARD_MASK},
        "pass": {"seat": INT},
        "cut": {"seat": INT, "victim": INT, "units": INT},
        "new_round": {"leader": INT},
        "out": {"seat": INT, "place": INT},
        "cong": {"seat": INT},
        "finish_on_two": {"seat": INT},
        "hand_end": {
            "hand_number": INT,
            "winner": OPTIONAL(INT),
            "order": LIST(INT),
            "settlement": OPTIONAL(LIST(INT)),
            "hands": LIST(CARD_MASK),
        },
    }

    # -- construction and the hand sequence ---------------------------------------------------

    #: ``leader``: the seat that won the hand before (see :meth:`__init__`).
    SETUP: ClassVar[tuple[str, ...]] = ("leader",)

    def __init__(
        self, players: int = 4, rules: Any = None, seed: Seed = None, *, leader: int | None = None
    ) -> None:
        """A table of ``players`` seats. ``leader``: the winner of the hand before, for a hand
        that follows another (what :attr:`next_hand_setup` gives): the first-hand rules are
        off (no 3♠ or random first lead, no first-hand instant-win extras) and that seat leads
        with any play (Sâm Lốc: it is the nominal leader the declarations start from). None
        (default): a first hand."""
        self._leader = leader
        super().__init__(players, rules, seed)

    def _setup(self) -> dict[str, Any]:
        return {} if self._leader is None else {"leader": self._leader}

    def _next_setup(self) -> dict[str, Any]:
        return {} if self._next_first else {"leader": self._winner}

    def _outcome(self) -> dict[str, Any]:
        return {"winner": self._winner, "order": self._order + self._cong}

    def _start(self) -> None:
        leader = self._leader
        if leader is not None and (
            isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < self._players
        ):
            raise RulesError(f"leader must be a seat 0..{self._players - 1} or None, not {leader!r}")
        self._hand_number = 1
        # A later hand starts as if the leader had just won the hand before it.
        self._winner: int | None = leader
        self._next_first = leader is None
        self._begin_hand(first=leader is None)

    def _begin_hand(self, first: bool) -> None:
        n = self._players
        size = self._rules.core.hand_size
        perm = self._rng.permutation(52)
        self._hands: list[int] = []
        for s in range(n):
            m = 0
            for i in perm[s * size : (s + 1) * size]:
                m |= 1 << i
            self._hands.append(m)
        self._dealt = 0
        for m in self._hands:
            self._dealt |= m
        self._first_rule = first
        self._played = [0] * n
        self._turn: int | None = None
        self._table: SheddingCombo | None = None
        self._table_seat = -1
        self._passed = 0
        self._round_seats = 0
        self._must = 0
        self._out = 0
        self._order: list[int] = []
        self._cong: list[int] = []
        self._chain: list[int] | None = None
        self._over = False
        self._hand_start = len(self._ledger)
        self._emit("deal", hand_number=self._hand_number, counts=[m.bit_count() for m in self._hands])
        self._after_deal()
        if not self._over and self._turn is None:
            self._open_lead()

    def _open_lead(self, leader: int | None = None) -> None:
        """Give the first lead of the hand: to ``leader`` if given (e.g. a Sâm declarer),
        else by the first-lead rule or to the previous winner. A game whose ``_after_deal``
        opens a phase of its own (declarations) calls this when that phase ends."""
        must = 0
        if leader is None:
            if self._first_rule or self._winner is None:
                leader, must = self._first_leader()
            else:
                leader = self._winner
        self._turn = leader
        self._must = must
        self._emit("lead", seat=leader, must_include=must)

    def next_hand(self) -> None:
        """Deal the next hand once this one is over: the previous winner leads with any play
        (after an instant win, or a hand nobody won, the first-lead rule applies again). The
        ledger and ``settlement`` keep adding up over the hands; ``hand_number`` counts them."""
        self._next_hand()

    def _next_hand(self) -> None:
        if not self._over:
            raise IllegalMoveError("hand_not_over", "the current hand is still being played")
        self._log({"type": "next_hand"})
        self._hand_number += 1
        self._begin_hand(first=self._next_first)

    @property
    def hand_number(self) -> int:
        """1 for the first hand, then one more for each :meth:`next_hand`."""
        return self._hand_number

    @property
    def hand_settlement(self) -> list[int] | None:
        """Units won per seat in the current hand only, once it is over."""
        return self._hand_settlement()

    def _hand_settlement(self) -> list[int] | None:
        return self._ledger.totals(self._hand_start) if self._over else None

    # -- hooks ---------------------------------------------------------------------------------

    def _after_deal(self) -> None:
        """*hook*: called after each deal, before the lead (instant wins, declarations). It
        may end the hand, or set ``_turn`` for a phase of its own and later call
        :meth:`_open_lead`."""

    def _first_leader(self) -> tuple[int, int]:
        """*hook*: the first hand's leader and the card mask its first play must include."""
        raise NotImplementedError

    def _lead_card(self) -> int:
        """*hook*: the card a first lead under the first-lead rule must include (0: none), as
        :meth:`_first_leader` gives it; a position is checked against it."""
        return 0

    def _ranked_ending(self) -> bool:
        """*hook*: play on after the first player goes out, for a full finishing order."""
        return False

    def _finish_on_two(self) -> str:
        """*hook*: ``"allowed"``, ``"penalized"`` or ``"forbidden"`` (see the rules page :doc:`/rules/tienlen-north`)."""
        return "allowed"

    def _after_pass_filter(self) -> str | None:
        """*hook*: which plays a seat that passed may still make on the current table
        (``"bombs"``, ``"four_pair_sequences"``), or None (passed seats are skipped)."""
        return None

    def _cut_value(self, table: SheddingCombo) -> int:
        """*hook*: units a cut of ``table`` adds to the bomb chain."""
        raise NotImplementedError

    def _check_play(self, seat: int, combo: SheddingCombo) -> None:
        """*hook*: extra validation of a play (raise IllegalMoveError)."""

    def _filter_plays(self, seat: int, plays: Sequence[SheddingCombo]) -> Sequence[SheddingCombo]:
        """*hook*: drop plays a game-specific rule forbids now."""
        return plays

    def _on_play(self, seat: int, combo: SheddingCombo) -> None:
        """*hook*: called after a play is applied, before going out is checked; it may end
        the hand (e.g. a blocked Sâm)."""

    def _settle_first_out(self, winner: int, combo: SheddingCombo) -> None:
        """*hook*: payments when ``winner`` went out with ``combo`` and the hand ends."""
        raise NotImplementedError

    def _settle_ranked(self, order: list[int]) -> None:
        """*hook*: payments of a ranked hand (``order``: nhất first; cóng seats last)."""
        raise NotImplementedError

    def _settle_finish_on_two(self, seat: int, combo: SheddingCombo) -> None:
        """*hook*: payments when ``seat`` emptied its hand with a play containing a 2."""
        raise NotImplementedError

    # -- queries -------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return self._over

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        return self._turn

    @property
    def pending_seats(self) -> list[int]:
        return [] if self._turn is None else [self._turn]

    @property
    def table(self) -> SheddingCombo | None:
        """The combination to beat, or None when the current seat leads."""
        return self._table

    @property
    def table_seat(self) -> int | None:
        """The seat that played the table combination."""
        return None if self._table is None else self._table_seat

    @property
    def finishing_order(self) -> list[int]:
        """Seats in the order they finished (nhất first; cóng seats of a ranked hand last)."""
        return self._order + self._cong

    @property
    def winner(self) -> int | None:
        """The hand's winner once it is over (None if nobody won it)."""
        return self._winner if self._over else None

    def hand(self, seat: int) -> list[Any]:
        """The cards ``seat`` holds, low to high."""
        from ..cards import from_mask

        return from_mask(self._hands[self._check_seat(seat)])

    def hand_mask(self, seat: int) -> int:
        """The seat's hand as a 52-bit card mask (bit i is the card with ``Card.index`` i)."""
        return self._hands[self._check_seat(seat)]

    def legal_plays(self) -> Sequence[SheddingCombo]:
        """Every distinct play the current seat may make now (no pass entry)."""
        if self._turn is None:
            return []
        return self._plays_for(self._turn)

    def _seat_filter(self, seat: int) -> str:
        if self._passed >> seat & 1:
            return self._after_pass_filter() or "all"
        return "all"

    def _plays_for(self, seat: int) -> Sequence[SheddingCombo]:
        hand = self._hands[seat]
        plays: Sequence[SheddingCombo]
        plays = found = shedding_legal_plays(
            hand, self._table, self._rules.core, self._must, self._seat_filter(seat)
        )
        if hand in found.masks and self._emptying_two_refused(hand, len(plays)):
            plays = [c for c in plays if c.mask != hand]
        return self._filter_plays(seat, plays)

    def _emptying_two_refused(self, hand: int, lead_plays: int | None = None) -> bool:
        """``finish_on_two="forbidden"``: a play that empties ``hand`` and holds a 2 is refused
        unless the seat has no other legal action (on a table, passing always is one).
        ``lead_plays``: the number of legal leads, when the caller already has them."""
        if not hand & TWOS_MASK or self._finish_on_two() != "forbidden":
            return False
        if self._table is not None:
            return True
        if lead_plays is None:
            lead_plays = len(shedding_legal_plays(hand, None, self._rules.core, self._must))
        return lead_plays > 1

    # -- actions -------------------------------------------------------------------------------

    def _require_turn(self, seat: Any) -> int:
        checked = self._check_seat(seat)
        if self._over:
            raise IllegalMoveError("game_over", "the hand is over")
        if checked != self._turn:
            raise IllegalMoveError("not_your_turn", f"it is seat {self._turn}'s turn, not {checked}'s")
        return checked

    def play(self, seat: int, cards: Any) -> None:
        """Seat ``seat`` plays ``cards`` (text, ``Card``\\ s, card texts or a Combo; not an
        int) on the table."""
        self._play(seat, parse_cards(cards))

    def _play(self, seat: Any, cards: int) -> None:
        seat = self._require_turn(seat)
        hand = self._hands[seat]
        combo = shedding_check_play(hand, cards, self._table, self._rules.core, self._must)
        mask = combo.mask
        if self._passed >> seat & 1:
            filt = self._after_pass_filter()
            if filt is None or not (
                combo.is_bomb if filt == "bombs" else combo.kind == "pair_sequence" and len(combo) == 8
            ):
                raise IllegalMoveError(
                    "must_cut_or_pass", "after passing, a seat may only cut with a bomb or pass"
                )
        if mask == hand and self._emptying_two_refused(hand):
            raise IllegalMoveError(
                "cannot_finish_on_two", "a hand may not be emptied with a play containing a 2"
            )
        self._check_play(seat, combo)
        self._log_values("play", seat, mask)
        self._do_play(seat, combo)

    def pass_turn(self, seat: int) -> None:
        """Seat ``seat`` passes: it is out of the round until a new round starts."""
        self._pass_turn(seat)

    def _pass_turn(self, seat: Any) -> None:
        seat = self._require_turn(seat)
        if self._table is None:
            raise IllegalMoveError("cannot_pass_on_lead", "the leader of a round must play")
        self._log({"type": "pass", "seat": seat})
        self._passed |= 1 << seat
        self._emit("pass", seat=seat)
        self._advance(seat)

    def _apply(self, a: dict[str, Any]) -> None:
        kind = a["type"]
        if kind == "next_hand":
            self._next_hand()
        elif kind == "pass":
            self._pass_turn(a["seat"])
        else:
            self._play(a["seat"], a["cards"])

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action dict ``seat`` may apply now (empty unless it is ``seat``'s turn); each
        is accepted by :meth:`apply`. ``next_hand`` is not listed: a server calls it between
        hands."""
        return list(self._moves(seat))

    def _moves(self, seat: int) -> Sequence[dict[str, Any]]:
        """``legal_actions(seat)`` as a sequence whose dicts are built when read (for bots)."""
        self._check_seat(seat)
        turn = self._turn
        if turn is None or seat != turn:
            return []
        return PlayMoves(turn, self._plays_for(turn), self._table is not None)

    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat`` (timeouts): lead the first legal play (the lowest
        single, with any required card); on a table, beat it with the lowest non-bomb play, or
        pass."""
        seat = self._require_turn(seat)
        plays = self._plays_for(seat)
        if self._table is None:
            self._play(seat, plays[0].mask)
            return
        ordinary = [c for c in plays if not c.is_bomb]
        if ordinary:
            self._play(seat, min(ordinary, key=lambda c: c.top).mask)
        else:
            self._pass_turn(seat)

    def describe(self, action: Mapping[str, Any]) -> str:
        """Short human text of an action dict."""
        a = self._parse_action(action)
        kind = a["type"]
        if kind == "next_hand":
            return "next hand"
        if kind == "pass":
            return f"seat {a['seat']} passes"
        combo = shedding_classify(a["cards"], self._rules.core)
        what = combo.kind.replace("_", " ") if combo else "cards"
        return f"seat {a['seat']} plays {what} {mask_to_text(a['cards'])}"

    # -- the flow ------------------------------------------------------------------------------

    def _do_play(self, seat: int, combo: SheddingCombo) -> None:
        table = self._table
        if table is not None and shedding_is_cut(combo, table, self._rules.core):
            units = self._cut_value(table)
            victim = self._table_seat
            if self._chain is None:
                self._chain = [units, seat, victim]
            else:
                self._chain = [self._chain[0] + units, seat, victim]
            self._emit("cut", seat=seat, victim=victim, units=units)
        mask = combo.mask
        self._hands[seat] ^= mask
        self._played[seat] |= mask
        self._passed &= ~(1 << seat)
        self._round_seats |= 1 << seat
        self._table = combo
        self._table_seat = seat
        self._must = 0
        self._emit_values("play", seat, _KIND_INDEX[combo.kind], mask)
        self._on_play(seat, combo)
        if not self._over and not self._hands[seat]:
            self._goes_out(seat, combo)
        if not self._over:
            self._advance(seat)

    def _advance(self, frm: int) -> None:
        """Give the turn to the next seat still in the round after ``frm``, or close it."""
        n = self._players
        owner = self._table_seat
        t = frm
        for _ in range(n):
            t = t + 1 if t + 1 < n else 0
            if t == owner:
                break
            if self._out >> t & 1:
                continue
            if not self._passed >> t & 1 or self._may_reenter(t):
                self._turn = t
                return
        self._new_round()

    def _may_reenter(self, seat: int) -> bool:
        """A seat that passed gets the turn again (to cut or pass again) whenever the table
        admits a cut after passing, whatever it holds: asking only the seats holding a bomb
        would tell the table who holds one."""
        del seat  # the same for every seat that passed: the turn never depends on a hand
        return self._after_pass_filter() is not None

    def _new_round(self) -> None:
        self._close_chain()
        leader = self._table_seat
        n = self._players
        while self._out >> leader & 1:  # hưởng sái
            leader = leader + 1 if leader + 1 < n else 0
        self._table = None
        self._table_seat = -1
        self._passed = 0
        self._round_seats = 0
        self._turn = leader
        self._emit("new_round", leader=leader)

    def _close_chain(self) -> None:
        """The last seat cut pays the whole chain to the last cutter, unless the cut play took
        its owner out."""
        chain = self._chain
        self._chain = None
        if chain is not None and self._hands[chain[2]]:
            self._ledger.pay(chain[2], chain[1], chain[0], self.CUT_REASON)

    def _goes_out(self, seat: int, combo: SheddingCombo) -> None:
        if combo.mask & TWOS_MASK and self._finish_on_two() != "allowed":
            self._chain = None
            self._emit("finish_on_two", seat=seat)
            self._settle_finish_on_two(seat, combo)
            self._end_hand(None)
            return
        self._out |= 1 << seat
        self._order.append(seat)
        self._emit("out", seat=seat, place=len(self._order))
        if not self._ranked_ending():
            self._close_chain()
            self._settle_first_out(seat, combo)
            self._end_hand(seat)
            return
        n = self._players
        if len(self._order) == 1:
            for k in range(1, n):
                s = (seat + k) % n
                if not self._played[s]:
                    self._out |= 1 << s
                    self._cong.append(s)
                    self._emit("cong", seat=s)
        left = [s for s in range(n) if not self._out >> s & 1]
        if len(left) <= 1:
            for s in left:
                self._out |= 1 << s
                self._order.append(s)
            self._close_chain()
            self._settle_ranked(self._order + self._cong)
            self._end_hand(self._order[0])

    def _end_hand(self, winner: int | None, first_rule_next: bool = False) -> None:
        """End the hand; the next hand is led by ``winner`` unless it is None or
        ``first_rule_next`` (then the first-lead rule applies again)."""
        self._over = True
        self._turn = None
        self._winner = winner
        self._next_first = winner is None or first_rule_next
        self._emit(
            "hand_end",
            hand_number=self._hand_number,
            winner=winner,
            order=self._order + self._cong,
            settlement=self._hand_settlement(),
            hands=self._hands,
        )

    # -- views and snapshots -------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: its own hand, the table, the cards each
        seat has played, and the card counts."""
        table = self._table
        hand = None if seat is None else mask_to_text(self._hands[seat]).split()
        return {
            **self._view_head(seat, hand, [m.bit_count() for m in self._hands]),
            "hand_number": self._hand_number,
            "current_seat": self._turn,
            "table": None
            if table is None
            else {"seat": self._table_seat, "kind": table.kind, "cards": str(table).split()},
            "played": [mask_to_text(m).split() for m in self._played],
            "passed": [s for s in range(self._players) if self._passed >> s & 1],
            "out": [s for s in range(self._players) if self._out >> s & 1],
            "finishing_order": list(self._order),
            "cong": list(self._cong),
            # Only the seat to act sees the card its play must include.
            "must_include": mask_to_text(self._must).split() if seat == self._turn else [],
            # Once the hand is over every seat shows what it holds (the payments count it), as
            # the ``hand_end`` event does.
            "revealed": [mask_to_text(m).split() for m in self._hands] if self._over else None,
        }

    def _dump_state(self) -> dict[str, Any]:
        return {
            "hand_number": self._hand_number,
            "first_rule": self._first_rule,
            "hands": list(self._hands),
            "played": list(self._played),
            "dealt": self._dealt,
            "turn": self._turn,
            "table": None if self._table is None else self._table.mask,
            "table_seat": self._table_seat,
            "passed": self._passed,
            "round_seats": self._round_seats,
            "must": self._must,
            "out": self._out,
            "order": list(self._order),
            "cong": list(self._cong),
            "chain": None if self._chain is None else list(self._chain),
            "over": self._over,
            "winner": self._winner,
            "next_first": self._next_first,
            "hand_start": self._hand_start,
        }

    def _load_state(self, state: dict[str, Any]) -> None:
        n = self._players
        seats_mask = (1 << n) - 1
        self._leader = None  # a position says who leads in its own fields
        self._hand_number = expect_int(state.get("hand_number"), "hand_number", 1, MAX_HAND_NUMBER)
        self._first_rule = expect_bool(state.get("first_rule"), "first_rule")
        self._hands = [
            expect_mask(m, f"hands[{i}]") for i, m in enumerate(expect_list(state.get("hands"), "hands", n))
        ]
        self._played = [
            expect_mask(m, f"played[{i}]")
            for i, m in enumerate(expect_list(state.get("played"), "played", n))
        ]
        self._dealt = expect_mask(state.get("dealt"), "dealt")
        expect(
            self._dealt.bit_count() == n * self._rules.core.hand_size,
            f"dealt: {n} hands of {self._rules.core.hand_size} cards expected",
        )
        expect_disjoint(self._hands + self._played, "hands and played cards", union=self._dealt)
        for s in range(n):
            expect(
                (self._hands[s] | self._played[s]).bit_count() == self._rules.core.hand_size,
                f"hands[{s}]: held and played cards must make the {self._rules.core.hand_size} dealt",
            )
        self._over = expect_bool(state.get("over"), "over")
        turn = state.get("turn")
        self._turn = None if turn is None else expect_int(turn, "turn", 0, n - 1)
        expect((self._turn is None) == self._over, "turn: must be null exactly when the hand is over")
        self._passed = expect_int(state.get("passed"), "passed", 0, seats_mask)
        self._round_seats = expect_int(state.get("round_seats"), "round_seats", 0, seats_mask)
        self._out = expect_int(state.get("out"), "out", 0, seats_mask)
        self._must = expect_mask(state.get("must"), "must")
        self._order = [expect_int(s, "order[]", 0, n - 1) for s in expect_list(state.get("order"), "order")]
        self._cong = [expect_int(s, "cong[]", 0, n - 1) for s in expect_list(state.get("cong"), "cong")]
        expect(
            len(set(self._order + self._cong)) == len(self._order) + len(self._cong),
            "order/cong: a seat appears twice",
        )
        expect(
            sum(1 << s for s in self._order + self._cong) == self._out,
            "out: must be exactly the seats in order and cong",
        )
        table = state.get("table")
        self._table_seat = expect_int(state.get("table_seat"), "table_seat", -1, n - 1)
        if table is None:
            self._table = None
            expect(self._table_seat == -1, "table_seat: must be -1 with no table")
        else:
            combo = shedding_classify(expect_mask(table, "table"), self._rules.core)
            expect(combo is not None, "table: not a combination")
            expect(
                self._table_seat >= 0 and table & ~self._played[self._table_seat] == 0,
                "table: cards not played by table_seat",
            )
            self._table = combo
        chain = state.get("chain")
        if chain is None:
            self._chain = None
        else:
            items = expect_list(chain, "chain", 3)
            self._chain = [
                expect_int(items[0], "chain.units", 1, MAX_UNITS),
                expect_int(items[1], "chain.cutter", 0, n - 1),
                expect_int(items[2], "chain.victim", 0, n - 1),
            ]
            _, cutter, victim = self._chain
            # A chain is open while the last cut is on the table: its cutter's bomb, played on
            # a play of another seat.
            expect(not self._over, "chain: a hand that is over has paid its chain")
            expect(
                self._table is not None and self._table_seat == cutter and self._table.is_bomb,
                "chain: the last cutter's bomb must be on the table",
            )
            expect(
                victim != cutter and self._played[victim] != 0,
                "chain: the victim is another seat that played",
            )
        if self._table is None:
            expect(self._passed == 0, "passed: nobody has passed with no table to beat")
        winner = state.get("winner")
        self._winner = None if winner is None else expect_int(winner, "winner", 0, n - 1)
        self._next_first = expect_bool(state.get("next_first"), "next_first")
        self._hand_start = expect_int(state.get("hand_start"), "hand_start", 0, len(self._ledger))
        if self._turn is not None:
            expect(not self._out >> self._turn & 1, "turn: that seat is out of the hand")
            expect(self._hands[self._turn] != 0, "turn: that seat holds no cards")
            expect(self._must & ~self._hands[self._turn] == 0, "must: not in the leader's hand")
            if self._must:
                # Only the first lead under the first-lead rule names a card: the lowest dealt.
                expect(
                    self._must == self._lead_card()
                    and self._first_rule
                    and self._table is None
                    and not any(self._played),
                    "must: only the first lead of a hand requires a card (the lowest dealt)",
                )
            if self._table is not None:
                expect(self._turn != self._table_seat, "turn: the seat whose play is on the table")
                expect(
                    not self._passed >> self._turn & 1 or self._may_reenter(self._turn),
                    "turn: that seat passed in this round",
                )
        for s in range(n):
            if not self._hands[s] and not self._over:
                expect(self._out >> s & 1 == 1, f"hands[{s}]: empty but still in the hand")
