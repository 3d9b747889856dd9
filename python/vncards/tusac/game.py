# Why this module is over 600 lines: it is one class, Game, and about 170 of its lines are
# _load_state, which checks a client-editable position field by field against the Rust flow
# (hands, melds, the offer and its penalty, the responses, the result and its payments). It
# reads and sets the flow's state, so it stays with the class that owns that state.
"""The Tứ Sắc game: deal, the tỳ, offers, claim windows with priority, settlement. The flow is
the Rust core's (``_core.TuSacFlow``), which the batched learning environment runs too; this
class checks the input, hands each action to it, and logs what it reports.

There is always one **offer**: the last discard or a card just turned up from the stock (nọc).
Every seat that may act on it answers in a claim window (claim, win, or pass); the engine then
resolves by priority (win > quad > triple > the entitled seat's other claims; between equals
the seat nearest after the discarder) and carries out the winning claim. A claimer exposes its
meld and discards; if nobody claims, the offer goes dead and the next seat turns up a card,
automatically (the turn-up is no decision, so it is no action).

>>> g = Game(players=4, seed=7)
>>> g.pending_seats, g.current_seat, len(g.hand(0)) + sum(len(m.cards) for m in g.exposed(0))
([0], 0, 21)
>>> while not g.is_over:
...     g.auto_play(g.pending_seats[0])
>>> sum(g.settlement)
0
>>> Game.replay(g.actions, players=4, seed=7).to_json() == g.to_json()
True

Readings of the rules (:doc:`/rules/tusac`) where they are silent or ambiguous:

- The turn-up is automatic. A claim window asks every seat but the discarder and waits for
  every answer (``claim_window="every_seat"``: which seats are pending never depends on the
  hands, only on who has answered), or with ``claim_window="eligible_seats"`` only the seats
  with a legal answer, and seats that cannot outrank a claim already made are not waited for
  (faster, but the pending seats then reveal who could claim).
- Between equal claims the nearest seat after the discarder wins; for a turned-up card the
  turner itself is nearest.
- A seat that can khui (or, unless ``triple_optional``, make the triple) may make only that
  claim or win, and may not pass; a seat holding a khạp of the offer may not pass either when
  the win is its only way to take the fourth copy (khui is mandatory, "as a khui or as the
  win"); the entitled seat facing a Tướng it turned up may not pass when it has any legal
  claim. A claim must leave a non-Tướng card to discard.
- "A khạp is never split" binds claims only: a claim may not use one or two cards of a khạp
  (they go only into the khui). Counting rác (``min_rac``, the rác of a discard) and winning
  splits may break a khạp up (three identical cards used in two pairs' worth of melds: a pair
  and a set, say) when that leaves fewer rác or makes the hand.
- When the mandatory triple is itself forbidden (by bài bụng, or because its cards would
  break a complete Tướng–Sĩ–Tượng), it is no claim, so it is not mandatory: the seat keeps its
  other legal claims of the offer (the entitled seat, a pair with one copy) and may pass
  (``forbidden_triple="other_claims"``; ``"no_claim"``: it may only pass).
- A Tướng discarded as the tỳ (``tuong_as_ty``) is a meld card (a lone Tướng is not rác), so
  under ``discard_rule="penalize"`` a win on it makes the dealer pay for the whole table.
- A win by claiming is never limited by the bài bụng / khạp / set rules (the hand is complete).
- The hand is drawn when a card must be turned up and the stock holds ``draw_at_stock`` cards
  or fewer; the dealer deals again after a draw.
- A dealt quằn scores (8) only inside its holder's winning total; it is not paid on its own.
- A discard "belongs to a meld" unless it is a rác of some split with the fewest rác (so every
  discard from a hand with no rác does); this holds for the tỳ too. Đền làng: the discarder
  pays the winner every loser's share. With ``discard_rule="enforce"`` there is no đền làng.
- ``payment="flat"`` doubles when the winner holds four identical cards (dealt or held quằn,
  4 con khui) in its final hand.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, ClassVar

from .. import _core
from .._core import TuSacCard
from ..errors import IllegalMoveError, RulesError
from ..inputs import SEAT, ActionSpec, as_list, check_text, parse_choice, parse_seat, plain_dict
from ..journal import BOOL, INDEX, INT, LIST, OPTIONAL, Codec
from ..snapshot import expect, expect_bool, expect_dict, expect_int, expect_list, expect_str
from ..table import Seed, TableGame
from .core import Meld
from .core import Rules as TuSacRules

__all__ = ["Game"]

KINDS = 28
CODES = [str(TuSacCard(i)) for i in range(KINDS)]
_CODE_INDEX = {c: i for i, c in enumerate(CODES)}
_GENERALS = 4  # kinds 0..3 are the four Tướng
_PRIORITY = {"win": 3, "claimed_quad": 2, "claimed_triple": 1}  # auto_play's choice
_CLAIM_MELDS = (
    "pair",
    "general",
    "general_set",
    "chariot_set",
    "three_soldiers",
    "four_soldiers",
    "claimed_triple",
    "claimed_quad",
)
_PHASES = ("discard", "claim", "over")
# How the actions and events are logged (vncards.journal): a card by its kind, read as its
# code. Claims, a third of the actions at most, are kept as the dicts given.
_KIND = INDEX(CODES)


def _count(hand: int, k: int) -> int:
    return int((hand >> (3 * k)) & 7)


def _kinds(hand: int) -> list[int]:
    return [k for k in range(KINDS) for _ in range(_count(hand, k))]


def _kind(value: Any, field: str = "card") -> int:
    if type(value) is str and value in _CODE_INDEX:
        return _CODE_INDEX[value]
    if isinstance(value, TuSacCard):
        return value.index
    if not isinstance(value, str):
        raise IllegalMoveError("invalid_action", f"{field} must be card text, not {type(value).__name__}")
    return TuSacCard(unicodedata.normalize("NFC", check_text(value, field))).index


def _card_field(value: Any, players: int) -> int:
    return _kind(value)


def _cards_field(value: Any, players: int) -> tuple[int, ...]:
    """The ``cards`` of a claim: a list of card texts, or one text ``"PW PW"``."""
    if isinstance(value, str):
        return tuple(sorted(c.index for c in _core.tusac_parse_cards(check_text(value, "cards"))))
    items = as_list(value, "cards", IllegalMoveError)
    return tuple(sorted(_kind(c, f"cards[{i}]") for i, c in enumerate(items)))


def _name(k: int) -> str:
    return f"{TuSacCard(k).name} ({CODES[k]})"


class Game(TableGame):
    """One hand of Tứ Sắc for 2–4 players (rules: :doc:`/rules/tusac`).

    ``dealer`` (keyword) is the seat that gets 21 cards and opens with the tỳ; the winner of a
    hand deals the next (``result["next_dealer"]``).

    Actions (dicts, all with ``"type"`` and ``"seat"``; cards as text such as ``"PW"``):

    - ``{"type": "discard", "card": "PW"}``: the seat to discard (after the deal: the dealer's
      tỳ; after a claim: the claimer). A Tướng is never discarded, except as the tỳ
      (``tuong_as_ty``, default on).
    - ``{"type": "claim", "meld": "pair", "cards": ["PW"]}``: claim the offer with these cards
      of the hand (``meld`` optional: it follows from the cards).
    - ``{"type": "win"}``: win by claiming the offer (or, for the dealer before the tỳ, with
      the 21 dealt cards).
    - ``{"type": "pass"}``: decline the offer (not allowed when the claim is mandatory).
    """

    GAME: ClassVar[str] = "tusac"
    Rules: ClassVar[type[TuSacRules]] = TuSacRules
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    SETUP: ClassVar[tuple[str, ...]] = ("dealer",)
    #: The action dicts, each with ``seat``: ``discard`` (a ``card``), ``claim`` (a ``meld``
    #: and its ``cards``), ``win`` and ``pass`` (answers to an offered card).
    ACTIONS: ClassVar[dict[str, ActionSpec]] = {
        "discard": ActionSpec(seat=SEAT, card=_card_field),
        "claim": ActionSpec(
            ("meld", "cards"), seat=SEAT, meld=parse_choice(_CLAIM_MELDS, "meld"), cards=_cards_field
        ),
        "win": ActionSpec(seat=SEAT),
        "pass": ActionSpec(seat=SEAT),
    }
    ACTION_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "discard": {"seat": INT, "card": _KIND},
        "win": {"seat": INT},
        "pass": {"seat": INT},
    }
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "deal": {"dealer": INT, "counts": LIST(INT), "stock": INT},
        "quan": {"seat": INT, "card": _KIND},
        "dead": {"card": _KIND},
        "turn_up": {"seat": INT, "card": _KIND, "stock": INT},
        "discard": {"seat": INT, "card": _KIND, "opening": BOOL},
        "win": {"seat": INT, "score": INT, "hand": LIST(_KIND), "card": OPTIONAL(_KIND)},
        "draw": {"stock": INT},
        "settle": {"settlement": LIST(INT)},
    }

    _rules: TuSacRules

    _flow: _core.TuSacFlow

    def __init__(
        self,
        players: int = 4,
        rules: TuSacRules | Mapping[str, Any] | None = None,
        seed: Seed = None,
        *,
        dealer: int = 0,
    ) -> None:
        self._dealer = dealer
        super().__init__(players, rules, seed)

    def _setup(self) -> dict[str, Any]:
        return {"dealer": self._dealer}

    def _outcome(self) -> dict[str, Any]:
        result = self.result
        assert result is not None
        return {k: result[k] for k in ("winner", "score", "draw", "den_lang")}

    def _deal_text(self, seat: int) -> str:
        # A dealt quằn is laid face up at once: the deal line shows it after the hidden cards.
        hidden = " ".join(CODES[k] for k in _kinds(self._flow.hands[seat]))
        quads = " ".join(CODES[c] for _, cs in self._flow.exposed[seat] for c in cs)
        return f"{hidden} | {quads}" if quads else hidden

    def _next_setup(self) -> dict[str, Any]:
        # The winner deals the next hand; after a draw the same dealer deals again.
        result = self.result
        assert result is not None
        return {"dealer": result["next_dealer"]}

    # -- the flow ------------------------------------------------------------------------------

    def _start(self) -> None:
        n = self._players
        if isinstance(self._dealer, bool) or not isinstance(self._dealer, int) or not (0 <= self._dealer < n):
            raise RulesError(f"dealer must be a seat 0..{n - 1}, not {self._dealer!r}")
        self._flow = _core.TuSacFlow(self._rules.flow, n, self._dealer)
        self._record(self._flow.start(self._rng))

    def _record(self, effects: list[tuple[Any, ...]]) -> None:
        """Log what the flow reports: events into the event log, payments into the ledger."""
        for e in effects:
            kind = e[0]
            if kind == "pay":
                self._ledger.pay(e[1], e[2], e[3], e[4])
            elif kind == "claim":
                _, seat, meld, cards, card, source, origin = e
                self._emit(
                    "claim",
                    seat=seat,
                    meld=meld,
                    cards=[CODES[c] for c in cards],
                    card=CODES[card],
                    source=source,
                    origin=origin,
                )
            else:
                self._emit_values(*e)

    # The flow's state under the names the tests read.
    @property
    def _hands(self) -> list[int]:
        return self._flow.hands

    @property
    def _phase(self) -> str:
        return self._flow.phase

    def _entitled(self) -> int:
        entitled = self._flow.entitled
        assert entitled is not None
        return entitled

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action dict ``seat`` may apply now (empty when it has nothing to do)."""
        s = self._check_seat(seat)
        f = self._flow
        out: list[dict[str, Any]] = []
        phase = f.phase
        if phase == "discard" and s == f.to_discard:
            out.extend({"type": "discard", "seat": s, "card": CODES[k]} for k in f.discardable(s))
            if f.opening and f.opening_win() is not None:
                out.append({"type": "win", "seat": s})
        elif phase == "claim" and s in f.pending():
            out.extend(self._answers(s))
        return out

    def _answers(self, s: int) -> list[dict[str, Any]]:
        return [_answer_dict(s, a) for a in self._flow.answers(s)]

    def _greedy_index(self, seat: int) -> int | None:
        """*hook* (the bots': :class:`vncards.bots.tusac.TuSacGreedyBot`): where in
        ``legal_actions(seat)`` the greedy policy's choice is, made in Rust by the greedy the
        search's rollouts and self-play's greedy seats play; None where it leaves the choice to
        the bot."""
        return self._flow.greedy(seat)

    @property
    def pending_seats(self) -> list[int]:
        """Seats that may act now (the seat to discard, or the seats still to answer an offer)."""
        return self._flow.pending()

    @property
    def current_seat(self) -> int | None:
        """The seat that must discard, or ``None`` during a claim window or after the game."""
        f = self._flow
        return f.to_discard if f.phase == "discard" else None

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        """Carry out ``action`` for ``seat`` (the dict's own ``"seat"``, if any, must agree)."""
        seat = parse_seat(seat, self._players)
        raw = plain_dict(action)
        if "seat" in raw and parse_seat(raw["seat"], self._players) != seat:
            raise IllegalMoveError("wrong_seat", f"action is for seat {raw['seat']}, not {seat}")
        self.apply({**raw, "seat": seat})

    def _apply(self, a: dict[str, Any]) -> None:
        kind, seat = a["type"], a["seat"]
        if kind == "discard":
            effects, _ = self._flow.act(seat, ("discard", a["card"]))
            self._record(effects)
            self._log_values("discard", seat, a["card"])
        elif kind == "claim":
            effects, claimed = self._flow.act(seat, ("claim", a.get("meld"), list(a.get("cards", ()))))
            self._record(effects)
            assert claimed is not None  # a claim carried out records the legal claim it matched
            meld, used = claimed
            self._log({"type": "claim", "seat": seat, "meld": meld, "cards": [CODES[x] for x in used]})
        else:
            effects, _ = self._flow.act(seat, (kind,))
            self._record(effects)
            self._log_values(kind, seat)  # a win or a pass: {"type": kind, "seat": seat}

    # -- helpers for servers and bots ----------------------------------------------------------
    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat``: win if possible, else its strongest claim (quad,
        triple, then any), else pass; a discard is the first rác (or the first allowed card)."""
        seat = self._check_seat(seat)
        actions = self.legal_actions(seat)
        if not actions:
            raise IllegalMoveError("not_your_turn", f"seat {seat} has nothing to do now")
        by_type: dict[str, list[dict[str, Any]]] = {}
        for a in actions:
            by_type.setdefault(a["type"], []).append(a)
        if "win" in by_type:
            choice = by_type["win"][0]
        elif "claim" in by_type:
            choice = max(by_type["claim"], key=lambda a: _PRIORITY.get(a["meld"], 0))
        elif "pass" in by_type:
            choice = by_type["pass"][0]
        else:
            rac = set(_core.tusac_rac_kinds(self._flow.hands[seat]))
            discards = by_type["discard"]
            choice = next((a for a in discards if _CODE_INDEX[a["card"]] in rac), discards[0])
        self.apply(choice)

    def describe(self, action: Mapping[str, Any]) -> str:
        """Short human text for an action dict."""
        a = self._parse_action(action)
        seat, kind = a["seat"], a["type"]
        if kind == "discard":
            return f"seat {seat} discards {_name(a['card'])}"
        if kind == "claim":
            cards = " ".join(CODES[k] for k in a.get("cards", ()))
            return f"seat {seat} claims into {a.get('meld', 'a meld')} with {cards or 'nothing'}"
        if kind == "win":
            return f"seat {seat} wins (tới)"
        if kind == "pass":
            return f"seat {seat} passes"
        return f"seat {seat}: {kind}"

    @property
    def is_over(self) -> bool:
        """True once the hand is won or drawn."""
        return self._flow.phase == "over"

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand (21 cards; it discards the tỳ)."""
        return self._dealer

    @property
    def result(self) -> dict[str, Any] | None:
        """``{"winner", "score", "draw", "den_lang", "next_dealer"}`` once over."""
        r = self._flow.result
        return None if r is None else dict(zip(_RESULT, r, strict=True))

    @property
    def offer(self) -> dict[str, Any] | None:
        """The card on offer: ``{"card", "source" ("discard"/"stock"), "seat", "entitled"}``."""
        o = self._flow.offer
        if o is None:
            return None
        return {"card": TuSacCard(o[0]), "source": o[1], "seat": o[2], "entitled": self._entitled()}

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (nọc)."""
        return len(self._flow.stock)

    def hand(self, seat: int) -> list[TuSacCard]:
        """The seat's hidden cards (server side)."""
        return [TuSacCard(k) for k in _kinds(self._flow.hands[self._check_seat(seat)])]

    def exposed(self, seat: int) -> list[Meld]:
        """The seat's melds on the table, in the order made."""
        return [
            Meld(m, tuple(TuSacCard(k) for k in cs)) for m, cs in self._flow.exposed[self._check_seat(seat)]
        ]

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: its own hand, every exposed meld, the
        dead pile, the offer, counts of the hidden cards, and its legal actions."""
        f = self._flow
        hands = f.hands
        o = f.offer
        result = self.result
        hand = None if seat is None else [CODES[k] for k in _kinds(hands[seat])]
        return {
            **self._view_head(seat, hand, [len(_kinds(h)) for h in hands]),
            "players": self._players,
            "dealer": self._dealer,
            "phase": f.phase,
            "exposed": _exposed_dicts(f.exposed),
            "exposed_lenh": [f.exposed_lenh(s) for s in range(self._players)],
            "dead": [CODES[k] for k in f.dead],
            "stock": len(f.stock),
            "offer": None
            if o is None
            else {"card": CODES[o[0]], "source": o[1], "seat": o[2], "entitled": self._entitled()},
            "to_discard": f.to_discard,
            "legal_actions": [] if seat is None else self.legal_actions(seat),
            "result": result,
            # The winner shows its hand, as the ``win`` event does.
            "revealed": [
                [CODES[k] for k in _kinds(h)] if result and result["winner"] == s else None
                for s, h in enumerate(hands)
            ],
        }

    # -- snapshots -----------------------------------------------------------------------------

    def _dump_state(self) -> dict[str, Any]:
        f = self._flow
        o = f.offer
        return {
            "dealer": self._dealer,
            "phase": f.phase,
            "hands": [" ".join(CODES[k] for k in _kinds(h)) for h in f.hands],
            "exposed": _exposed_dicts(f.exposed),
            "stock": [CODES[k] for k in f.stock],
            "dead": [CODES[k] for k in f.dead],
            "offer": None
            if o is None
            else {"card": CODES[o[0]], "source": o[1], "seat": o[2], "penalty": o[3]},
            "to_discard": f.to_discard,
            "opening": f.opening,
            "responses": [None if a is None else _answer_dict(s, a) for s, a in enumerate(f.responses)],
            "result": self.result,
        }

    def _load_state(self, state: dict[str, Any]) -> None:
        n = self._players
        d = expect_dict(
            state,
            "state",
            (
                "dealer",
                "phase",
                "hands",
                "exposed",
                "stock",
                "dead",
                "offer",
                "to_discard",
                "opening",
                "responses",
                "result",
            ),
        )
        self._dealer = expect_int(d["dealer"], "dealer", 0, n - 1)
        self._flow = f = _core.TuSacFlow(self._rules.flow, n, self._dealer)
        phase = expect_str(d["phase"], "phase", _PHASES)

        def card(text: Any, name: str) -> int:
            expect(isinstance(text, str) and text in _CODE_INDEX, f"{name}: not a card {text!r}")
            return _CODE_INDEX[text]

        total = [0] * KINDS
        hands = [0] * n
        for s, text in enumerate(expect_list(d["hands"], "hands", n)):
            expect_str(text, f"hands[{s}]")
            for k in (card(t, f"hands[{s}]") for t in text.split()):
                hands[s] += 1 << (3 * k)
                total[k] += 1
                expect(_count(hands[s], k) <= 4, f"hands[{s}]: more than 4 {CODES[k]}")
        exposed: list[list[tuple[str, list[int]]]] = [[] for _ in range(n)]
        for s, melds in enumerate(expect_list(d["exposed"], "exposed", n)):
            for i, m in enumerate(expect_list(melds, f"exposed[{s}]")):
                m = expect_dict(m, f"exposed[{s}][{i}]", ("meld", "cards"))
                kind = expect_str(m["meld"], f"exposed[{s}][{i}].meld", (*_CLAIM_MELDS, "quad"))
                cs = sorted(
                    card(c, f"exposed[{s}][{i}]") for c in expect_list(m["cards"], f"exposed[{s}][{i}].cards")
                )
                shape = _core.tusac_classify([TuSacCard(k) for k in cs]) if cs else None
                shape_of = {"claimed_triple": "triple", "claimed_quad": "quad"}.get(kind, kind)
                expect(shape == shape_of, f"exposed[{s}][{i}]: cards do not make a {kind}")
                for k in cs:
                    total[k] += 1
                exposed[s].append((kind, cs))
        stock = [card(c, "stock") for c in expect_list(d["stock"], "stock")]
        dead = [card(c, "dead") for c in expect_list(d["dead"], "dead")]
        for k in stock + dead:
            total[k] += 1
        offer: tuple[int, str, int, bool] | None = None
        if d["offer"] is not None:
            o = expect_dict(d["offer"], "offer", ("card", "source", "seat", "penalty"))
            k = card(o["card"], "offer.card")
            total[k] += 1
            offer = (
                k,
                expect_str(o["source"], "offer.source", ("discard", "stock")),
                expect_int(o["seat"], "offer.seat", 0, n - 1),
                expect_bool(o["penalty"], "offer.penalty"),
            )
        bad = [CODES[k] for k in range(KINDS) if total[k] != 4]
        expect(not bad, f"cards are not conserved (112 = 4 × 28): wrong count of {', '.join(bad)}")
        opening = expect_bool(d["opening"], "opening")
        td = d["to_discard"]
        to_discard = None if td is None else expect_int(td, "to_discard", 0, n - 1)
        expect(
            (phase == "discard") == (to_discard is not None),
            "to_discard must be set exactly in the discard phase",
        )
        expect((phase == "claim") == (offer is not None), "an offer must be up exactly in the claim phase")
        expect(
            not opening or (phase == "discard" and to_discard == self._dealer),
            "opening: only the dealer's tỳ comes first",
        )
        result: tuple[int | None, int, bool, int | None, int] | None = None
        if phase == "over":
            r = expect_dict(d["result"], "result", _RESULT)
            draw = expect_bool(r["draw"], "result.draw")
            winner = None if draw else expect_int(r["winner"], "result.winner", 0, n - 1)
            expect(not draw or r["winner"] is None, "result: a draw has no winner")
            den = r["den_lang"]
            expect(
                den is None or (not draw and expect_int(den, "result.den_lang", 0, n - 1) != winner),
                "result.den_lang must be null or another seat",
            )
            result = (
                winner,
                expect_int(r["score"], "result.score", 0, 2**31 - 1),
                draw,
                den,
                expect_int(r["next_dealer"], "result.next_dealer", 0, n - 1),
            )
        else:
            expect(d["result"] is None, "result must be null before the end")
            winner = None
        for seat in range(n):
            held = len(_kinds(hands[seat])) + sum(len(cs) for _, cs in exposed[seat])
            want = 21 if seat in (to_discard, winner) else 20
            expect(held == want, f"seat {seat} holds {held} cards, not {want}")
            if seat != winner:  # (a win may take the fourth copy onto a khạp)
                four = [CODES[k] for k in range(KINDS) if _count(hands[seat], k) == 4]
                expect(not four, f"hands[{seat}]: four {four[:1]} concealed (a quằn is laid face up)")
        responses = expect_list(d["responses"], "responses", n)

        def set_state(answers: list[tuple[Any, ...] | None]) -> None:
            f.set_state(
                dealer=self._dealer,
                phase=phase,
                hands=hands,
                exposed=exposed,
                stock=stock,
                dead=dead,
                offer=offer,
                to_discard=to_discard,
                opening=opening,
                responses=answers,
                result=result,
                totals=self._ledger.totals(),
            )

        set_state([None] * n)
        if to_discard is not None:
            expect(
                bool(f.discardable(to_discard)) or (opening and f.opening_win() is not None),
                "to_discard: that seat holds no card it may discard",
            )
        answers: list[tuple[Any, ...] | None] = [None] * n
        if phase == "claim":
            for s, resp in enumerate(responses):
                if resp is None:
                    continue
                expect(f.answers_offer(s), f"responses[{s}]: seat {s} may not answer this offer")
                legal = f.answers(s)
                match = [a for a in legal if _answer_dict(s, a) == resp]
                expect(bool(match), f"responses[{s}] is not a legal answer")
                answers[s] = match[0]
            set_state(answers)
            expect(bool(f.pending()), "claim window: every answer is in but it is unresolved")
        else:
            expect(all(r is None for r in responses), "responses only exist in a claim window")
        if offer is not None:
            # đền làng follows from the discard: it was not a rác of the discarder's hand
            k, source, origin, penalty_given = offer
            before = hands[origin] + (1 << (3 * k))
            penalty = (
                source == "discard"
                and self._rules.discard_rule == "penalize"
                and k not in _core.tusac_rac_kinds(before)
            )
            expect(penalty_given == penalty, "offer.penalty does not match the discard")
        # docs/rules/index.md: restoring validates everything, money included (the ledger is the result's).
        if result is None:
            expect(len(self._ledger) == 0, "ledger must be empty before the end")
        elif winner is None:
            expect(result[1] == 0, "result: a draw scores 0")
            expect(result[4] == self._dealer, "result: after a draw the dealer deals again")
            expect(len(self._ledger) == 0, "ledger: a draw pays nothing")
        else:
            expect(result[4] == winner, "result: the winner deals next")
            score = result[1]
            expect(score in f.winning_totals(winner), "result.score is not a winning total of the hand")
            paid = [
                {"from": p, "to": t, "units": u, "reason": why}
                for p, t, u, why in f.payments(winner, score, result[3])
            ]
            expect(self._ledger.entries == paid, "ledger does not match the result")


_RESULT = ("winner", "score", "draw", "den_lang", "next_dealer")


def _answer_dict(seat: int, answer: tuple[Any, ...]) -> dict[str, Any]:
    """An answer of the flow (``("win",)``, ``("pass",)``, ``("claim", meld, used)``) as its
    action dict."""
    if answer[0] == "claim":
        return {"type": "claim", "seat": seat, "meld": answer[1], "cards": [CODES[u] for u in answer[2]]}
    return {"type": answer[0], "seat": seat}


def _exposed_dicts(exposed: list[list[tuple[str, list[int]]]]) -> list[list[dict[str, Any]]]:
    return [[{"meld": m, "cards": [CODES[k] for k in cs]} for m, cs in ex] for ex in exposed]
