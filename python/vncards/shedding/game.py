"""The flow every shedding game shares (Tiến Lên, Sâm Lốc): deal, leads, rounds, passing,
hưởng sái, bomb chains (chặt chồng), going out, finishing on a 2, cóng, and the hand sequence.

The flow itself is the Rust core's (``_core.SheddingFlow``): one implementation of the rules,
which the games here and the batched learning environment (:mod:`vncards.vector`) both run.
A game's rules object has ``core`` (a ``_core.SheddingRules``: the combinations) and ``flow``
(a ``_core.SheddingFlowRules``: everything else that differs between the games: instant wins,
who leads first, what is paid). :class:`SheddingGame` checks the input, hands each action to
the flow, and logs what the flow reports (events and payments, in order) into the game's event
log and ledger; views and snapshots read the flow's state.

Round rules (rules: :doc:`/rules/tienlen-south`): a seat beats the table or passes; a seat that
passes is out of the round (unless the game lets it cut after passing); when every other seat
in the round has passed, the last seat to play leads a new round, or, if it has gone out, the
next seat still in the hand leads (hưởng sái).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, overload

from .._core import (
    Card,
    PlayList,
    SheddingCombo,
    SheddingFlow,
    mask_to_text,
    shedding_classify,
)
from ..errors import RulesError
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

    _flow: SheddingFlow
    #: The ledger entry the current hand's payments start at.
    _hand_start: int

    # -- construction and the hand sequence ---------------------------------------------------

    #: ``leader``: the seat that won the hand before; ``hand_number``: the number of this
    #: hand in its match (see :meth:`__init__`).
    SETUP: ClassVar[tuple[str, ...]] = ("leader", "hand_number")
    #: (A version-1 state's ``hand_number`` is the hand it had reached, from 1: no setup.)
    V1_SETUP: ClassVar[tuple[str, ...] | None] = ("leader",)

    def __init__(
        self,
        players: int = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        leader: int | None = None,
        hand_number: int = 1,
    ) -> None:
        """A table of ``players`` seats. ``leader``: the winner of the hand before, for a hand
        that follows another (what :attr:`next_hand_setup` gives): the first-hand rules are
        off (no 3♠ or random first lead, no first-hand instant-win extras) and that seat leads
        with any play (Sâm Lốc: it is the nominal leader the declarations start from). None
        (default): a first hand. ``hand_number``: the number of this hand in its match, which
        its ``deal`` event, its views and :attr:`hand_number` carry (a
        :class:`~vncards.session.Session` numbers each hand it deals; 1 by default)."""
        self._leader = leader
        self._first_hand_number = hand_number
        super().__init__(players, rules, seed)

    def _setup(self) -> dict[str, Any]:
        setup: dict[str, Any] = {} if self._leader is None else {"leader": self._leader}
        if self._first_hand_number != 1:
            setup["hand_number"] = self._first_hand_number
        return setup

    def _next_setup(self) -> dict[str, Any]:
        f = self._flow
        return {} if f.next_first else {"leader": f.winner}

    def _outcome(self) -> dict[str, Any]:
        f = self._flow
        return {"winner": f.winner, "order": f.order + f.cong}

    def _start(self) -> None:
        leader = self._leader
        if leader is not None and (
            isinstance(leader, bool) or not isinstance(leader, int) or not 0 <= leader < self._players
        ):
            raise RulesError(f"leader must be a seat 0..{self._players - 1} or None, not {leader!r}")
        number = self._first_hand_number
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_HAND_NUMBER:
            raise RulesError(f"hand_number must be an int 1..{MAX_HAND_NUMBER}, not {number!r}")
        self._flow = SheddingFlow(self._rules.flow, self._players)
        self._hand_start = len(self._ledger)
        # A later hand starts as if the leader had just won the hand before it.
        self._record(self._flow.start(self._rng, leader, number))

    def _record(self, effects: list[tuple[Any, ...]]) -> None:
        """Log what the flow reports: events into the event log, payments into the ledger."""
        pay = self._ledger.pay
        emit = self._emit_values
        for e in effects:
            if e[0] == "pay":
                pay(e[1], e[2], e[3], e[4])
            else:
                emit(*e)

    def next_hand(self) -> None:
        """Deal the next hand once this one is over: the previous winner leads with any play
        (after an instant win, or a hand nobody won, the first-lead rule applies again). The
        ledger and ``settlement`` keep adding up over the hands; ``hand_number`` counts them."""
        self._next_hand()

    def _next_hand(self) -> None:
        self._flow.check_next_hand()
        self._log({"type": "next_hand"})
        self._hand_start = len(self._ledger)
        self._record(self._flow.next_hand(self._rng))

    @property
    def hand_number(self) -> int:
        """1 for the first hand, then one more for each :meth:`next_hand`."""
        return self._flow.hand_number

    @property
    def hand_settlement(self) -> list[int] | None:
        """Units won per seat in the current hand only, once it is over."""
        return self._hand_settlement()

    def _hand_settlement(self) -> list[int] | None:
        return self._ledger.totals(self._hand_start) if self._flow.over else None

    # -- queries -------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return self._flow.over

    @property
    def current_seat(self) -> int | None:
        """The seat to act, or None once the hand is over."""
        return self._flow.turn

    @property
    def pending_seats(self) -> list[int]:
        turn = self._flow.turn
        return [] if turn is None else [turn]

    @property
    def table(self) -> SheddingCombo | None:
        """The combination to beat, or None when the current seat leads."""
        return self._flow.table

    @property
    def table_seat(self) -> int | None:
        """The seat that played the table combination."""
        f = self._flow
        return None if f.table is None else f.table_seat

    @property
    def finishing_order(self) -> list[int]:
        """Seats in the order they finished (nhất first; cóng seats of a ranked hand last)."""
        f = self._flow
        return f.order + f.cong

    @property
    def winner(self) -> int | None:
        """The hand's winner once it is over (None if nobody won it)."""
        f = self._flow
        return f.winner if f.over else None

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, low to high."""
        from ..cards import from_mask

        return from_mask(self._flow.hand(self._check_seat(seat)))

    def hand_mask(self, seat: int) -> int:
        """The seat's hand as a 52-bit card mask (bit i is the card with ``Card.index`` i)."""
        return self._flow.hand(self._check_seat(seat))

    def legal_plays(self) -> Sequence[SheddingCombo]:
        """Every distinct play the current seat may make now (no pass entry)."""
        turn = self._flow.turn
        if turn is None:
            return []
        return self._flow.legal_plays(turn)

    # The flow's state under the names the bots and tests read (masks and seat bit sets).
    @property
    def _hands(self) -> list[int]:
        return self._flow.hands

    @_hands.setter
    def _hands(self, hands: list[int]) -> None:
        self._flow.hands = hands

    @property
    def _played(self) -> list[int]:
        return self._flow.played

    @property
    def _table(self) -> SheddingCombo | None:
        return self._flow.table

    @property
    def _table_seat(self) -> int:
        return self._flow.table_seat

    @property
    def _turn(self) -> int | None:
        return self._flow.turn

    @property
    def _passed(self) -> int:
        return self._flow.passed

    @property
    def _out(self) -> int:
        return self._flow.out

    @property
    def _must(self) -> int:
        return self._flow.must

    # -- actions -------------------------------------------------------------------------------

    def play(self, seat: int, cards: Any) -> None:
        """Seat ``seat`` plays ``cards`` (text, ``Card``\\ s, card texts or a Combo; not an
        int) on the table."""
        self._play(seat, parse_cards(cards))

    def _play(self, seat: Any, cards: int) -> None:
        seat = self._check_seat(seat)
        effects = self._flow.play(seat, cards)
        self._log_values("play", seat, cards)
        self._record(effects)

    def pass_turn(self, seat: int) -> None:
        """Seat ``seat`` passes: it is out of the round until a new round starts."""
        self._pass_turn(seat)

    def _pass_turn(self, seat: Any) -> None:
        seat = self._check_seat(seat)
        effects = self._flow.pass_turn(seat)
        self._log({"type": "pass", "seat": seat})
        self._record(effects)

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
        f = self._flow
        turn = f.turn
        if turn is None or seat != turn:
            return []
        return PlayMoves(turn, f.legal_plays(turn), f.table is not None)

    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat`` (timeouts): lead the first legal play (the lowest
        single, with any required card); on a table, beat it with the lowest non-bomb play, or
        pass."""
        seat = self._check_seat(seat)
        f = self._flow
        f.check_turn(seat)
        plays = f.legal_plays(seat)
        if f.table is None:
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

    # -- views and snapshots -------------------------------------------------------------------

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: its own hand, the table, the cards each
        seat has played, and the card counts."""
        f = self._flow
        n = self._players
        hands = f.hands
        table = f.table
        turn = f.turn
        passed, out = f.passed, f.out
        hand = None if seat is None else mask_to_text(hands[seat]).split()
        return {
            **self._view_head(seat, hand, [m.bit_count() for m in hands]),
            "hand_number": f.hand_number,
            "current_seat": turn,
            "table": None
            if table is None
            else {"seat": f.table_seat, "kind": table.kind, "cards": str(table).split()},
            "played": [mask_to_text(m).split() for m in f.played],
            "passed": [s for s in range(n) if passed >> s & 1],
            "out": [s for s in range(n) if out >> s & 1],
            "finishing_order": f.order,
            "cong": f.cong,
            # Only the seat to act sees the card its play must include.
            "must_include": mask_to_text(f.must).split() if seat == turn else [],
            # Once the hand is over every seat shows what it holds (the payments count it), as
            # the ``hand_end`` event does.
            "revealed": [mask_to_text(m).split() for m in hands] if f.over else None,
        }

    def _views(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """The spectators' view built once, each seat's view a copy of it with the seat's own
        keys (``seat``, ``hand``, ``must_include``): the other keys are public, the same for
        every seat (a game that adds keys to the view adds public ones, or overrides this)."""
        common = self._view(None)
        f = self._flow
        hands, turn = f.hands, f.turn
        views = []
        for seat in seats:
            view = dict(common)  # the same keys in the same order as _view(seat)
            view["seat"] = seat
            view["hand"] = mask_to_text(hands[seat]).split()
            view["must_include"] = mask_to_text(f.must).split() if seat == turn else []
            views.append(view)
        return views

    def _dump_state(self) -> dict[str, Any]:
        f = self._flow
        table = f.table
        return {
            "hand_number": f.hand_number,
            "first_rule": f.first_rule,
            "hands": f.hands,
            "played": f.played,
            "dealt": f.dealt,
            "turn": f.turn,
            "table": None if table is None else table.mask,
            "table_seat": f.table_seat,
            "passed": f.passed,
            "round_seats": f.round_seats,
            "must": f.must,
            "out": f.out,
            "order": f.order,
            "cong": f.cong,
            "chain": f.chain,
            "over": f.over,
            "winner": f.winner,
            "next_first": f.next_first,
            "hand_start": self._hand_start,
        }

    def _load_state(self, state: dict[str, Any]) -> None:
        n = self._players
        seats_mask = (1 << n) - 1
        size = self._rules.core.hand_size
        self._leader = None  # a position says who leads (and its hand number) in its own fields
        self._first_hand_number = 1
        self._flow = SheddingFlow(self._rules.flow, n)
        hand_number = expect_int(state.get("hand_number"), "hand_number", 1, MAX_HAND_NUMBER)
        first_rule = expect_bool(state.get("first_rule"), "first_rule")
        hands = [
            expect_mask(m, f"hands[{i}]") for i, m in enumerate(expect_list(state.get("hands"), "hands", n))
        ]
        played = [
            expect_mask(m, f"played[{i}]")
            for i, m in enumerate(expect_list(state.get("played"), "played", n))
        ]
        dealt = expect_mask(state.get("dealt"), "dealt")
        expect(dealt.bit_count() == n * size, f"dealt: {n} hands of {size} cards expected")
        expect_disjoint(hands + played, "hands and played cards", union=dealt)
        for s in range(n):
            expect(
                (hands[s] | played[s]).bit_count() == size,
                f"hands[{s}]: held and played cards must make the {size} dealt",
            )
        over = expect_bool(state.get("over"), "over")
        turn_value = state.get("turn")
        turn = None if turn_value is None else expect_int(turn_value, "turn", 0, n - 1)
        expect((turn is None) == over, "turn: must be null exactly when the hand is over")
        passed = expect_int(state.get("passed"), "passed", 0, seats_mask)
        round_seats = expect_int(state.get("round_seats"), "round_seats", 0, seats_mask)
        out = expect_int(state.get("out"), "out", 0, seats_mask)
        must = expect_mask(state.get("must"), "must")
        order = [expect_int(s, "order[]", 0, n - 1) for s in expect_list(state.get("order"), "order")]
        cong = [expect_int(s, "cong[]", 0, n - 1) for s in expect_list(state.get("cong"), "cong")]
        expect(len(set(order + cong)) == len(order) + len(cong), "order/cong: a seat appears twice")
        expect(sum(1 << s for s in order + cong) == out, "out: must be exactly the seats in order and cong")
        table = state.get("table")
        table_seat = expect_int(state.get("table_seat"), "table_seat", -1, n - 1)
        combo = None
        if table is None:
            expect(table_seat == -1, "table_seat: must be -1 with no table")
        else:
            table = expect_mask(table, "table")
            combo = shedding_classify(table, self._rules.core)
            expect(combo is not None, "table: not a combination")
            expect(
                table_seat >= 0 and table & ~played[table_seat] == 0,
                "table: cards not played by table_seat",
            )
        chain_value = state.get("chain")
        chain = None
        if chain_value is not None:
            items = expect_list(chain_value, "chain", 3)
            chain = (
                expect_int(items[0], "chain.units", 1, MAX_UNITS),
                expect_int(items[1], "chain.cutter", 0, n - 1),
                expect_int(items[2], "chain.victim", 0, n - 1),
            )
            _, cutter, victim = chain
            # A chain is open while the last cut is on the table: its cutter's bomb, played on
            # a play of another seat.
            expect(not over, "chain: a hand that is over has paid its chain")
            expect(
                combo is not None and table_seat == cutter and combo.is_bomb,
                "chain: the last cutter's bomb must be on the table",
            )
            expect(
                victim != cutter and played[victim] != 0,
                "chain: the victim is another seat that played",
            )
        if table is None:
            expect(passed == 0, "passed: nobody has passed with no table to beat")
        winner_value = state.get("winner")
        winner = None if winner_value is None else expect_int(winner_value, "winner", 0, n - 1)
        next_first = expect_bool(state.get("next_first"), "next_first")
        self._hand_start = expect_int(state.get("hand_start"), "hand_start", 0, len(self._ledger))
        self._flow.set_state(
            hand_number=hand_number,
            first_rule=first_rule,
            hands=hands,
            played=played,
            dealt=dealt,
            turn=turn,
            table=table,
            table_seat=table_seat,
            passed=passed,
            round_seats=round_seats,
            must=must,
            out=out,
            order=order,
            cong=cong,
            chain=chain,
            over=over,
            winner=winner,
            next_first=next_first,
            hand_totals=self._ledger.totals(self._hand_start),
        )
        if turn is not None:
            expect(not out >> turn & 1, "turn: that seat is out of the hand")
            expect(hands[turn] != 0, "turn: that seat holds no cards")
            expect(must & ~hands[turn] == 0, "must: not in the leader's hand")
            if must:
                # Only the first lead under the first-lead rule names a card: the lowest dealt.
                expect(
                    must == self._flow.lead_card and first_rule and table is None and not any(played),
                    "must: only the first lead of a hand requires a card (the lowest dealt)",
                )
            if table is not None:
                expect(turn != table_seat, "turn: the seat whose play is on the table")
                expect(
                    not passed >> turn & 1 or self._flow.after_pass_filter is not None,
                    "turn: that seat passed in this round",
                )
        for s in range(n):
            if not hands[s] and not over:
                expect(out >> s & 1 == 1, f"hands[{s}]: empty but still in the hand")
