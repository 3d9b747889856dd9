"""The Tứ Sắc game flow: deal, the tỳ, offers, claim windows with priority, settlement.

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
from .core import Meld, offer_claims
from .core import Rules as TuSacRules

__all__ = ["Game"]

KINDS = 28
CODES = [str(TuSacCard(i)) for i in range(KINDS)]
_CODE_INDEX = {c: i for i, c in enumerate(CODES)}
_GENERALS = 4  # kinds 0..3 are the four Tướng
_PRIORITY = {"win": 3, "claimed_quad": 2, "claimed_triple": 1}
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


#: ``_SEATS_FROM[players][seat]``: the seats in playing order from ``seat`` on.
_SEATS_FROM = {n: tuple(tuple((s + d) % n for d in range(n)) for s in range(n)) for n in range(1, 9)}


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

    def __init__(
        self,
        players: int = 4,
        rules: TuSacRules | None = None,
        seed: Seed = None,
        *,
        dealer: int = 0,
    ) -> None:
        self._dealer = dealer
        super().__init__(players, rules, seed)

    def _setup(self) -> dict[str, Any]:
        return {"dealer": self._dealer}

    def _outcome(self) -> dict[str, Any]:
        assert self._result is not None
        return {k: self._result[k] for k in ("winner", "score", "draw", "den_lang")}

    def _deal_text(self, seat: int) -> str:
        # A dealt quằn is laid face up at once: the deal line shows it after the hidden cards.
        hidden = " ".join(CODES[k] for k in _kinds(self._hands[seat]))
        quads = " ".join(CODES[c] for _, cs in self._exposed[seat] for c in cs)
        return f"{hidden} | {quads}" if quads else hidden

    def _next_setup(self) -> dict[str, Any]:
        # The winner deals the next hand; after a draw the same dealer deals again.
        assert self._result is not None
        return {"dealer": self._result["next_dealer"]}

    # -- state ---------------------------------------------------------------------------------

    def _reset(self) -> None:
        n = self._players
        self._hands = [0] * n
        self._exposed: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(n)]
        self._stock: list[int] = []
        self._dead: list[int] = []
        self._offer: dict[str, Any] | None = None
        self._phase = "discard"
        self._to_discard: int | None = None
        self._opening = False
        self._responses: dict[int, dict[str, Any]] = {}
        self._options: dict[int, tuple[int | None, list[tuple[str, tuple[int, ...]]], bool]] = {}
        self._result: dict[str, Any] | None = None

    def _start(self) -> None:
        n = self._players
        if isinstance(self._dealer, bool) or not isinstance(self._dealer, int) or not (0 <= self._dealer < n):
            raise RulesError(f"dealer must be a seat 0..{n - 1}, not {self._dealer!r}")
        self._reset()
        deck = [k for k in range(KINDS) for _ in range(4)]
        cards = [deck[i] for i in self._rng.permutation(len(deck))]
        pos = 0
        for i in range(n):
            seat = (self._dealer + i) % n
            take = 21 if i == 0 else 20
            for k in cards[pos : pos + take]:
                self._hands[seat] += 1 << (3 * k)
            pos += take
        self._stock = cards[pos:]
        self._emit(
            "deal",
            dealer=self._dealer,
            counts=[21 if s == self._dealer else 20 for s in range(n)],
            stock=len(self._stock),
        )
        for seat in range(n):
            for k in range(KINDS):
                if _count(self._hands[seat], k) == 4:
                    # A dealt quằn is laid face up at once (it still scores as concealed: 8).
                    self._hands[seat] -= 4 << (3 * k)
                    self._exposed[seat].append(("quad", (k, k, k, k)))
                    self._emit("quan", seat=seat, card=k)
        self._phase = "discard"
        self._to_discard = self._dealer
        self._opening = True

    def _exposed_lenh(self, seat: int) -> int:
        return sum(self._rules.lenh(m) for m, _ in self._exposed[seat])

    # -- the claim window ----------------------------------------------------------------------

    def _entitled(self) -> int:
        assert self._offer is not None
        origin = int(self._offer["seat"])
        return (origin + 1) % self._players if self._offer["source"] == "discard" else origin

    def _compute_options(self) -> None:
        assert self._offer is not None
        k, source, origin = self._offer["card"], self._offer["source"], self._offer["seat"]
        entitled = self._entitled()
        r = self._rules
        self._options = {}
        for t in range(self._players):
            if source == "discard" and t == origin:
                continue
            win = _core.tusac_win_total_packed(
                self._hands[t], self._exposed_lenh(t), k, r.odd_total, r.set_lenh
            )
            claims = offer_claims(self._hands[t], k, t == entitled, r)
            if win is None and not claims and r.claim_window == "eligible_seats":
                continue
            # Khui is mandatory: a khạp holder takes the fourth copy, as the khui or, where that
            # completes the hand, as the win (also when the khui itself is impossible).
            khap = _count(self._hands[t], k) == 3 and (win is not None or bool(claims))
            must = (
                khap
                or any(m == "claimed_triple" and not r.triple_optional for m, _ in claims)
                or (bool(claims) and t == entitled and source == "stock" and k < _GENERALS)
            )
            self._options[t] = (win, claims, must)

    def _distance(self, seat: int) -> int:
        assert self._offer is not None
        return (seat - int(self._offer["seat"])) % self._players

    def _key(self, seat: int, priority: int) -> tuple[int, int]:
        return (priority, -self._distance(seat))

    def _response_priority(self, response: dict[str, Any]) -> int:
        if response["type"] == "pass":
            return -1
        if response["type"] == "win":
            return 3
        return _PRIORITY.get(response["meld"], 0)

    def _best_response(self) -> tuple[tuple[int, int], int] | None:
        best = None
        for seat, resp in self._responses.items():
            p = self._response_priority(resp)
            if p < 0:
                continue
            key = self._key(seat, p)
            if best is None or key > best[0]:
                best = (key, seat)
        return best

    def _pending(self) -> list[int]:
        if self._phase == "discard":
            assert self._to_discard is not None
            return [self._to_discard]
        if self._phase != "claim":
            return []
        assert self._offer is not None
        # The seats with options that have not answered, by distance from the offer's seat.
        options, responses = self._options, self._responses
        by_distance = _SEATS_FROM[self._players][self._offer["seat"]]
        waiting = [s for s in by_distance if s in options and s not in responses]
        if self._rules.claim_window == "every_seat":
            # Every seat but the discarder answers, always: which seats are still pending is
            # then a function of who has answered, never of the hands (an early close for
            # seats that cannot outrank the best claim would tell the table what they hold).
            return waiting
        best = self._best_response()
        out = []
        for seat in waiting:
            win, claims, _must = options[seat]
            potential = 3 if win is not None else max((_PRIORITY.get(m, 0) for m, _ in claims), default=-1)
            if best is None or self._key(seat, potential) > best[0]:
                out.append(seat)
        return out

    def _resolve(self) -> None:
        assert self._offer is not None
        best = self._best_response()
        if best is None:
            self._offer_dead()
            return
        seat = best[1]
        resp = self._responses[seat]
        if resp["type"] == "win":
            self._win(seat, self._options[seat][0])
        else:
            self._claim(seat, resp["meld"], tuple(_kind(c) for c in resp["cards"]))

    def _open_offer(self, offer: dict[str, Any]) -> None:
        self._offer = offer
        self._phase = "claim"
        self._find_window()

    def _find_window(self) -> None:
        """Opens the claim window; while nobody may act on the offer, it goes dead and the next
        card is turned up (no decision, so no action)."""
        self._responses = {}
        self._compute_options()
        while not self._options:
            if not self._next_offer():
                return
            self._compute_options()

    def _next_offer(self) -> bool:
        """The offer goes dead and the next seat turns up a card; False when the hand is drawn."""
        assert self._offer is not None
        self._dead.append(self._offer["card"])
        self._emit_values("dead", self._offer["card"])
        # For a discard the next seat turns up; for a turned-up card, the seat after the turner.
        turner = (self._offer["seat"] + 1) % self._players
        self._options = {}
        self._responses = {}
        if len(self._stock) <= self._rules.draw_at_stock:
            self._offer = None
            self._draw()
            return False
        k = self._stock.pop()
        self._offer = {"card": k, "source": "stock", "seat": turner, "penalty": False}
        self._emit_values("turn_up", turner, k, len(self._stock))
        return True

    def _offer_dead(self) -> None:
        if self._next_offer():
            self._find_window()

    # -- outcomes ------------------------------------------------------------------------------

    def _claim(self, seat: int, meld: str, used: tuple[int, ...]) -> None:
        assert self._offer is not None
        k = self._offer["card"]
        for u in used:
            self._hands[seat] -= 1 << (3 * u)
        cards = tuple(sorted((*used, k)))
        self._exposed[seat].append((meld, cards))
        self._emit(
            "claim",
            seat=seat,
            meld=meld,
            cards=[CODES[c] for c in cards],
            card=CODES[k],
            source=self._offer["source"],
            origin=self._offer["seat"],
        )
        self._offer = None
        self._options = {}
        self._responses = {}
        self._phase = "discard"
        self._to_discard = seat

    def _win(self, seat: int, score: int | None) -> None:
        assert score is not None
        offer = self._offer
        if offer is not None:
            self._hands[seat] += 1 << (3 * offer["card"])
        hand = self._hands[seat]
        covering = None
        if offer is not None and offer["source"] == "discard" and offer["penalty"]:
            covering = offer["seat"]
        self._emit(
            "win",
            seat=seat,
            score=score,
            hand=_kinds(hand),
            card=None if offer is None else offer["card"],
        )
        for payer, payee, units, reason in self._payments(seat, score, covering):
            self._ledger.pay(payer, payee, units, reason)
        self._offer = None
        self._options = {}
        self._responses = {}
        self._phase = "over"
        self._to_discard = None
        self._opening = False  # a win on the dealt 21 cards ends the opening too
        self._result = {
            "winner": seat,
            "score": score,
            "draw": False,
            "den_lang": covering,
            "next_dealer": seat,
        }
        self._emit("settle", settlement=self._ledger.totals())

    def _payments(self, winner: int, score: int, covering: int | None) -> list[tuple[int, int, int, str]]:
        """What a win pays: each loser pays the unit (the score, or with ``payment="flat"`` 1,
        2 when the winner's final hand holds a quad); under đền làng ``covering`` (the
        discarder) pays every loser's share."""
        hand = self._hands[winner]
        has_quad = any(m in ("quad", "claimed_quad") for m, _ in self._exposed[winner]) or any(
            _count(hand, k) == 4 for k in range(KINDS)
        )
        unit = score if self._rules.payment == "per_lenh" else (2 if has_quad else 1)
        out = []
        for loser in range(self._players):
            if loser == winner:
                continue
            if covering is not None and loser != covering:
                out.append((covering, winner, unit, "den_lang"))
            else:
                out.append((loser, winner, unit, "toi"))
        return out

    def _winning_totals(self, winner: int) -> set[int]:
        """Every score the winner's final hand can have been won with: by claiming any one of
        its hidden cards, or (the dealer) with the dealt cards."""
        hand, lenh, r = self._hands[winner], self._exposed_lenh(winner), self._rules
        totals = {
            _core.tusac_win_total_packed(hand - (1 << (3 * k)), lenh, k, r.odd_total, r.set_lenh)
            for k in set(_kinds(hand))
        }
        if winner == self._dealer:
            totals.add(_core.tusac_win_total_packed(hand, lenh, None, r.odd_total, r.set_lenh))
        return {t for t in totals if t is not None}

    def _draw(self) -> None:
        self._phase = "over"
        self._to_discard = None
        self._options = {}
        self._responses = {}
        self._result = {
            "winner": None,
            "score": 0,
            "draw": True,
            "den_lang": None,
            "next_dealer": self._dealer,
        }
        self._emit("draw", stock=len(self._stock))

    # -- actions -------------------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every action dict ``seat`` may apply now (empty when it has nothing to do)."""
        s = self._check_seat(seat)
        out: list[dict[str, Any]] = []
        if self._phase == "discard" and s == self._to_discard:
            hand = self._hands[s]
            allowed = self._discardable(hand)
            out.extend({"type": "discard", "seat": s, "card": CODES[k]} for k in allowed)
            if self._opening and self._opening_win() is not None:
                out.append({"type": "win", "seat": s})
        elif self._phase == "claim" and s in self._pending():
            out.extend(self._answers(s))
        return out

    def _answers(self, s: int) -> list[dict[str, Any]]:
        win, claims, must = self._options[s]
        out: list[dict[str, Any]] = []
        if win is not None:
            out.append({"type": "win", "seat": s})
        out.extend(
            {"type": "claim", "seat": s, "meld": m, "cards": [CODES[u] for u in used]} for m, used in claims
        )
        if not must:
            out.append({"type": "pass", "seat": s})
        return out

    def _may_discard_general(self) -> bool:
        """A Tướng may be discarded only as the tỳ, under ``tuong_as_ty``."""
        return self._opening and self._rules.tuong_as_ty

    def _discardable(self, hand: int) -> list[int]:
        # A Tướng tỳ, when allowed, is listed last: it is the unusual choice.
        generals = range(_GENERALS) if self._may_discard_general() else range(0)
        kinds = [k for k in (*range(_GENERALS, KINDS), *generals) if _count(hand, k)]
        if self._rules.discard_rule == "enforce" and _core.tusac_min_rac_packed(hand) > 0:
            rac = set(_core.tusac_rac_kinds(hand))
            kinds = [k for k in kinds if k in rac]
        return kinds

    def _opening_win(self) -> int | None:
        s = self._dealer
        r = self._rules
        return _core.tusac_win_total_packed(
            self._hands[s], self._exposed_lenh(s), None, r.odd_total, r.set_lenh
        )

    @property
    def pending_seats(self) -> list[int]:
        """Seats that may act now (the seat to discard, or the seats still to answer an offer)."""
        return self._pending()

    @property
    def current_seat(self) -> int | None:
        """The seat that must discard, or ``None`` during a claim window or after the game."""
        return self._to_discard if self._phase == "discard" else None

    def act(self, seat: int, action: Mapping[str, Any]) -> None:
        """Carry out ``action`` for ``seat`` (the dict's own ``"seat"``, if any, must agree)."""
        seat = parse_seat(seat, self._players)
        raw = plain_dict(action)
        if "seat" in raw and parse_seat(raw["seat"], self._players) != seat:
            raise IllegalMoveError("wrong_seat", f"action is for seat {raw['seat']}, not {seat}")
        self.apply({**raw, "seat": seat})

    def _apply(self, a: dict[str, Any]) -> None:
        kind, seat = a["type"], a["seat"]
        if self._phase == "over":
            raise IllegalMoveError("game_over", "the hand is over")
        if kind == "discard":
            self._log_values("discard", seat, self._do_discard(seat, a))
        elif kind == "claim":
            self._log(self._do_response(seat, kind, a))
        else:
            self._do_response(seat, kind, a)
            self._log_values(kind, seat)  # a win or a pass: {"type": kind, "seat": seat}

    def _do_discard(self, seat: int, action: Mapping[str, Any]) -> int:
        """Discard the card of ``action``; its kind."""
        if self._phase != "discard" or seat != self._to_discard:
            raise IllegalMoveError("not_your_turn", f"seat {seat} has nothing to discard now")
        k: int = action["card"]
        hand = self._hands[seat]
        if not _count(hand, k):
            raise IllegalMoveError("cards_not_in_hand", f"seat {seat} holds no {CODES[k]}")
        if k < _GENERALS and not self._may_discard_general():
            raise IllegalMoveError("general_not_discarded", "a Tướng is never discarded, except as the tỳ")
        rac = set(_core.tusac_rac_kinds(hand))
        if self._rules.discard_rule == "enforce" and rac and k not in rac:
            raise IllegalMoveError("must_discard_rac", "only rác may be discarded while the hand has any")
        penalty = self._rules.discard_rule == "penalize" and k not in rac
        self._hands[seat] = hand - (1 << (3 * k))
        self._emit_values("discard", seat, k, self._opening)
        self._opening = False
        self._to_discard = None
        self._open_offer({"card": k, "source": "discard", "seat": seat, "penalty": penalty})
        return k

    def _do_response(self, seat: int, kind: str, action: Mapping[str, Any]) -> dict[str, Any]:
        if kind == "win" and self._phase == "discard" and self._opening and seat == self._dealer:
            score = self._opening_win()
            if score is None:
                raise IllegalMoveError("cannot_win", "the dealt cards do not make a winning hand")
            self._win(seat, score)
            return {"type": "win", "seat": seat}
        if self._phase != "claim":
            raise IllegalMoveError("no_offer", "there is no offer to answer now")
        if seat not in self._pending():
            raise IllegalMoveError("not_your_turn", f"seat {seat} has nothing to answer now")
        win, claims, must = self._options[seat]
        if kind == "win":
            if win is None:
                raise IllegalMoveError("cannot_win", "the offer does not complete this hand")
            logged: dict[str, Any] = {"type": "win", "seat": seat}
        elif kind == "pass":
            if must:
                raise IllegalMoveError("must_claim", "this claim is mandatory (khui, triple or Tướng)")
            logged = {"type": "pass", "seat": seat}
        else:
            logged = self._match_claim(seat, action, claims)
        self._responses[seat] = logged
        if not self._pending():
            self._resolve()
        return logged

    def _match_claim(
        self, seat: int, action: Mapping[str, Any], claims: list[tuple[str, tuple[int, ...]]]
    ) -> dict[str, Any]:
        assert self._offer is not None
        used: tuple[int, ...] = action.get("cards", ())
        meld = action.get("meld")
        for m, u in claims:
            if tuple(sorted(u)) == used and (meld is None or meld == m):
                return {"type": "claim", "seat": seat, "meld": m, "cards": [CODES[x] for x in u]}
        k = self._offer["card"]
        shape = _core.tusac_classify([TuSacCard(x) for x in (*used, k)])
        shape = {"triple": "claimed_triple", "quad": "claimed_quad"}.get(shape or "", shape)
        if shape not in _CLAIM_MELDS or (meld is not None and meld != shape):
            raise IllegalMoveError("invalid_combination", "these cards and the offer make no such meld")
        hand = self._hands[seat]
        if any(_count(hand, x) < used.count(x) for x in set(used)):
            raise IllegalMoveError("cards_not_in_hand", "the claim uses cards not in the hand")
        _core.tusac_check_claim(hand, k, shape, list(used), seat == self._entitled(), self._rules.bung_rule)
        reason = "must_khui" if any(m == "claimed_quad" for m, _ in claims) else "must_triple"
        raise IllegalMoveError(reason, "a mandatory claim comes first (khui / triple)")

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
            rac = set(_core.tusac_rac_kinds(self._hands[seat]))
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
        return self._phase == "over"

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand (21 cards; it discards the tỳ)."""
        return self._dealer

    @property
    def result(self) -> dict[str, Any] | None:
        """``{"winner", "score", "draw", "den_lang", "next_dealer"}`` once over."""
        return None if self._result is None else dict(self._result)

    @property
    def offer(self) -> dict[str, Any] | None:
        """The card on offer: ``{"card", "source" ("discard"/"stock"), "seat", "entitled"}``."""
        if self._offer is None:
            return None
        o = self._offer
        return {
            "card": TuSacCard(o["card"]),
            "source": o["source"],
            "seat": o["seat"],
            "entitled": self._entitled(),
        }

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (nọc)."""
        return len(self._stock)

    def hand(self, seat: int) -> list[TuSacCard]:
        """The seat's hidden cards (server side)."""
        return [TuSacCard(k) for k in _kinds(self._hands[self._check_seat(seat)])]

    def exposed(self, seat: int) -> list[Meld]:
        """The seat's melds on the table, in the order made."""
        return [Meld(m, tuple(TuSacCard(k) for k in cs)) for m, cs in self._exposed[self._check_seat(seat)]]

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: its own hand, every exposed meld, the
        dead pile, the offer, counts of the hidden cards, and its legal actions."""
        o = self._offer
        hand = None if seat is None else [CODES[k] for k in _kinds(self._hands[seat])]
        return {
            **self._view_head(seat, hand, [len(_kinds(h)) for h in self._hands]),
            "players": self._players,
            "dealer": self._dealer,
            "phase": self._phase,
            "exposed": [
                [{"meld": m, "cards": [CODES[k] for k in cs]} for m, cs in ex] for ex in self._exposed
            ],
            "exposed_lenh": [self._exposed_lenh(s) for s in range(self._players)],
            "dead": [CODES[k] for k in self._dead],
            "stock": len(self._stock),
            "offer": None
            if o is None
            else {
                "card": CODES[o["card"]],
                "source": o["source"],
                "seat": o["seat"],
                "entitled": self._entitled(),
            },
            "to_discard": self._to_discard,
            "legal_actions": [] if seat is None else self.legal_actions(seat),
            "result": self.result,
            # The winner shows its hand, as the ``win`` event does.
            "revealed": [
                [CODES[k] for k in _kinds(h)] if self._result and self._result["winner"] == s else None
                for s, h in enumerate(self._hands)
            ],
        }

    # -- snapshots -----------------------------------------------------------------------------

    def _dump_state(self) -> dict[str, Any]:
        o = self._offer
        return {
            "dealer": self._dealer,
            "phase": self._phase,
            "hands": [" ".join(CODES[k] for k in _kinds(h)) for h in self._hands],
            "exposed": [
                [{"meld": m, "cards": [CODES[k] for k in cs]} for m, cs in ex] for ex in self._exposed
            ],
            "stock": [CODES[k] for k in self._stock],
            "dead": [CODES[k] for k in self._dead],
            "offer": None if o is None else {**o, "card": CODES[o["card"]]},
            "to_discard": self._to_discard,
            "opening": self._opening,
            "responses": [self._responses.get(s) for s in range(self._players)],
            "result": self._result,
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
        self._reset()
        self._phase = expect_str(d["phase"], "phase", _PHASES)

        def card(text: Any, name: str) -> int:
            expect(isinstance(text, str) and text in _CODE_INDEX, f"{name}: not a card {text!r}")
            return _CODE_INDEX[text]

        total = [0] * KINDS
        for s, text in enumerate(expect_list(d["hands"], "hands", n)):
            expect_str(text, f"hands[{s}]")
            for k in (card(t, f"hands[{s}]") for t in text.split()):
                self._hands[s] += 1 << (3 * k)
                total[k] += 1
                expect(_count(self._hands[s], k) <= 4, f"hands[{s}]: more than 4 {CODES[k]}")
        for s, melds in enumerate(expect_list(d["exposed"], "exposed", n)):
            for i, m in enumerate(expect_list(melds, f"exposed[{s}]")):
                m = expect_dict(m, f"exposed[{s}][{i}]", ("meld", "cards"))
                kind = expect_str(m["meld"], f"exposed[{s}][{i}].meld", (*_CLAIM_MELDS, "quad"))
                cs = tuple(
                    sorted(
                        card(c, f"exposed[{s}][{i}]")
                        for c in expect_list(m["cards"], f"exposed[{s}][{i}].cards")
                    )
                )
                shape = _core.tusac_classify([TuSacCard(k) for k in cs]) if cs else None
                shape_of = {"claimed_triple": "triple", "claimed_quad": "quad"}.get(kind, kind)
                expect(shape == shape_of, f"exposed[{s}][{i}]: cards do not make a {kind}")
                for k in cs:
                    total[k] += 1
                self._exposed[s].append((kind, cs))
        self._stock = [card(c, "stock") for c in expect_list(d["stock"], "stock")]
        self._dead = [card(c, "dead") for c in expect_list(d["dead"], "dead")]
        for k in self._stock + self._dead:
            total[k] += 1
        if d["offer"] is not None:
            o = expect_dict(d["offer"], "offer", ("card", "source", "seat", "penalty"))
            k = card(o["card"], "offer.card")
            total[k] += 1
            self._offer = {
                "card": k,
                "source": expect_str(o["source"], "offer.source", ("discard", "stock")),
                "seat": expect_int(o["seat"], "offer.seat", 0, n - 1),
                "penalty": expect_bool(o["penalty"], "offer.penalty"),
            }
        bad = [CODES[k] for k in range(KINDS) if total[k] != 4]
        expect(not bad, f"cards are not conserved (112 = 4 × 28): wrong count of {', '.join(bad)}")
        self._opening = expect_bool(d["opening"], "opening")
        td = d["to_discard"]
        self._to_discard = None if td is None else expect_int(td, "to_discard", 0, n - 1)
        expect(
            (self._phase == "discard") == (self._to_discard is not None),
            "to_discard must be set exactly in the discard phase",
        )
        expect(
            (self._phase == "claim") == (self._offer is not None),
            "an offer must be up exactly in the claim phase",
        )
        expect(
            not self._opening or (self._phase == "discard" and self._to_discard == self._dealer),
            "opening: only the dealer's tỳ comes first",
        )
        if self._phase == "over":
            r = expect_dict(d["result"], "result", ("winner", "score", "draw", "den_lang", "next_dealer"))
            draw = expect_bool(r["draw"], "result.draw")
            winner = None if draw else expect_int(r["winner"], "result.winner", 0, n - 1)
            expect(not draw or r["winner"] is None, "result: a draw has no winner")
            den = r["den_lang"]
            expect(
                den is None or (not draw and expect_int(den, "result.den_lang", 0, n - 1) != winner),
                "result.den_lang must be null or another seat",
            )
            self._result = {
                "winner": winner,
                "score": expect_int(r["score"], "result.score", 0),
                "draw": draw,
                "den_lang": den,
                "next_dealer": expect_int(r["next_dealer"], "result.next_dealer", 0, n - 1),
            }
        else:
            expect(d["result"] is None, "result must be null before the end")
            winner = None
        for seat in range(n):
            held = len(_kinds(self._hands[seat])) + sum(len(cs) for _, cs in self._exposed[seat])
            want = 21 if seat in (self._to_discard, winner) else 20
            expect(held == want, f"seat {seat} holds {held} cards, not {want}")
            if seat != winner:  # (a win may take the fourth copy onto a khạp)
                four = [CODES[k] for k in range(KINDS) if _count(self._hands[seat], k) == 4]
                expect(not four, f"hands[{seat}]: four {four[:1]} concealed (a quằn is laid face up)")
        if self._to_discard is not None:
            expect(
                bool(self._discardable(self._hands[self._to_discard]))
                or (self._opening and self._opening_win() is not None),
                "to_discard: that seat holds no card it may discard",
            )
        responses = expect_list(d["responses"], "responses", n)
        if self._phase == "claim":
            self._compute_options()
            for s, resp in enumerate(responses):
                if resp is None:
                    continue
                expect(s in self._options, f"responses[{s}]: seat {s} may not answer this offer")
                expect(resp in self._answers(s), f"responses[{s}] is not a legal answer")
                self._responses[s] = dict(resp)
            expect(bool(self._pending()), "claim window: every answer is in but it is unresolved")
        else:
            expect(all(r is None for r in responses), "responses only exist in a claim window")
        if self._offer is not None:
            # đền làng follows from the discard: it was not a rác of the discarder's hand
            o = self._offer
            before = self._hands[o["seat"]] + (1 << (3 * o["card"]))
            penalty = (
                o["source"] == "discard"
                and self._rules.discard_rule == "penalize"
                and o["card"] not in _core.tusac_rac_kinds(before)
            )
            expect(o["penalty"] == penalty, "offer.penalty does not match the discard")
        # docs/rules/index.md: restoring validates everything, money included (the ledger is the result's).
        if self._result is None:
            expect(len(self._ledger) == 0, "ledger must be empty before the end")
        elif winner is None:
            expect(self._result["score"] == 0, "result: a draw scores 0")
            expect(self._result["next_dealer"] == self._dealer, "result: after a draw the dealer deals again")
            expect(len(self._ledger) == 0, "ledger: a draw pays nothing")
        else:
            expect(self._result["next_dealer"] == winner, "result: the winner deals next")
            score = self._result["score"]
            expect(score in self._winning_totals(winner), "result.score is not a winning total of the hand")
            paid = [
                {"from": f, "to": t, "units": u, "reason": why}
                for f, t, u, why in self._payments(winner, score, self._result["den_lang"])
            ]
            expect(self._ledger.entries == paid, "ledger does not match the result")
