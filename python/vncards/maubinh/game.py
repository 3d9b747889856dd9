"""A Mậu Binh table: deal, arrange in secret, confirm, reveal and settle (rules: :doc:`/rules/maubinh`).

Every seat arranges at the same time: :meth:`Game.arrange` may be called again and again until
the seat :meth:`~Game.confirm`\\ s; :meth:`~Game.auto_arrange` lets the solver arrange and
confirm (a server calls it, or :meth:`~Game.auto_play`, when the time limit passes);
:meth:`~Game.forfeit` is a seat that left (fouled). When every seat has confirmed, the hands are
revealed and settled.

>>> game = Game(players=2, seed=7)
>>> for seat in game.pending_seats:
...     game.auto_arrange(seat)
>>> game.is_over, sum(game.settlement)
(True, 0)

``legal_actions`` does not list the 72,072 ways to split 13 cards: for a seat still arranging it
offers the solver's suggestion (``"arrange"``), ``"confirm"`` once the seat has an arrangement,
and ``"forfeit"``. ``apply`` also accepts any other ``"arrange"`` and ``"auto_arrange"``.

Wherever the table helps a player (the suggestion, :meth:`~Game.auto_arrange`,
:meth:`~Game.auto_play`, and so the browser's "Gợi ý" and the command line's suggestion, which
show the suggested ``arrange``), the solver plays :data:`HELP_OBJECTIVE`, the equilibrium
objective: what an opponent who knows it exploits least.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .. import _core
from ..cards import Card
from ..errors import IllegalMoveError
from ..inputs import LATER, SEAT, ActionSpec, check_text, parse_cards, plain_dict
from ..journal import BOOL, CARDS, INT, JSON, LIST, Codec
from ..snapshot import expect, expect_bool, expect_disjoint, expect_list, expect_mask, json_copy
from ..table import Seed, TableGame
from .core import Arrangement, Objective, _cards, _checked_hand_masks, best_arrangement, is_fouled
from .core import Rules as MauBinhRules
from .core import cards_text as _text

__all__ = ["HELP_OBJECTIVE", "Game"]

#: The objective the solver helps a player with: the suggested ``arrange`` of
#: ``legal_actions``, ``auto_arrange`` and ``auto_play``. The equilibrium objective loses least
#: to an opponent who knows it (:func:`~vncards.maubinh.exploitability`) and wins against
#: ``"expected"`` head to head; ``"expected"`` stays available by name.
HELP_OBJECTIVE: Objective = "equilibrium"

_POSITIONS = ("back", "middle", "front")


class Game(TableGame):
    """A hand of Mậu Binh for 2–4 players (13 cards each)."""

    GAME = "maubinh"
    Rules = MauBinhRules
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    #: Version 3 writes the revealed arrangements in Mậu Binh order (2 lowest, a wheel ace
    #: first: :func:`~vncards.maubinh.sort_cards`); version-2 snapshots still restore, with
    #: the events of their replay.
    SNAPSHOT_VERSION: ClassVar[int] = 3
    REPLAYED_VERSIONS: ClassVar[tuple[int, ...]] = (2,)
    #: The action dicts, each with ``seat``: ``arrange`` (with the texts of ``back``,
    #: ``middle`` and ``front``), ``confirm``, ``auto_arrange`` or ``forfeit``.
    ACTIONS: ClassVar[dict[str, ActionSpec]] = {
        # The hands are parsed in order by _arrangement_masks (the back's size is checked
        # before the middle is read).
        "arrange": ActionSpec(seat=SEAT, back=LATER, middle=LATER, front=LATER),
        "confirm": ActionSpec(seat=SEAT),
        "auto_arrange": ActionSpec(seat=SEAT),
        "forfeit": ActionSpec(seat=SEAT),
    }
    ACTION_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "arrange": {"seat": INT, "back": CARDS, "middle": CARDS, "front": CARDS},
        "confirm": {"seat": INT},
        "forfeit": {"seat": INT},
    }
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        "deal": {"players": INT, "time_limit": INT},
        "arranged": {"seat": INT},
        "confirmed": {"seat": INT},
        "forfeited": {"seat": INT},
        "reveal": {"arrangements": JSON, "instants": JSON, "fouled": LIST(BOOL)},
        "settle": {"totals": LIST(INT)},
    }

    _hands: list[int]
    _arranged: list[tuple[int, int, int] | None]
    _confirmed: list[bool]
    _forfeited: list[bool]
    _result: dict[str, Any] | None

    def __init__(self, players: int = 4, rules: MauBinhRules | None = None, seed: Seed = None) -> None:
        super().__init__(players, rules, seed)

    # -- lifecycle -----------------------------------------------------------------------------

    def _start(self) -> None:
        perm = self._rng.permutation(52)
        n = self._players
        self._hands = [sum(1 << c for c in perm[13 * s : 13 * s + 13]) for s in range(n)]
        self._arranged = [None] * n
        self._confirmed = [False] * n
        self._forfeited = [False] * n
        self._result = None
        self._emit("deal", players=n, time_limit=self._rules.time_limit)

    @property
    def is_over(self) -> bool:
        """True once every seat has confirmed or forfeited (hands revealed and settled)."""
        return self._all_in()

    def _all_in(self) -> bool:
        return all(self._confirmed)

    @property
    def pending_seats(self) -> list[int]:
        """Seats that still have to confirm an arrangement."""
        return [s for s in range(self._players) if not self._confirmed[s]]

    @property
    def time_limit(self) -> int:
        """Seconds each seat has to arrange (the server enforces it, e.g. with auto_play)."""
        limit: int = self._rules.time_limit
        return limit

    def hand(self, seat: int) -> list[Card]:
        """The 13 cards of ``seat``, low to high in Mậu Binh order (2 lowest, A highest)."""
        return list(_cards(self._hands[self._check_seat(seat)]))

    def arrangement(self, seat: int) -> Arrangement | None:
        """The arrangement ``seat`` has set so far (None if none yet)."""
        masks = self._arranged[self._check_seat(seat)]
        return None if masks is None else Arrangement._from_masks(*masks)

    # -- actions -------------------------------------------------------------------------------

    def _check_open(self, seat: Any) -> int:
        checked: int = self._check_seat(seat)
        if self._all_in():
            raise IllegalMoveError("game_over", "the hand is over")
        if self._confirmed[checked]:
            raise IllegalMoveError("already_confirmed", f"seat {checked} has already confirmed")
        return checked

    def arrange(self, seat: int, arrangement: Any) -> str | None:
        """Set (or change) the arrangement of ``seat``: an :class:`Arrangement`,
        ``(back, middle, front)`` or the text ``"back | middle | front"`` of the seat's own
        cards, 5/5/3. It may be changed until the seat confirms.

        A fouled arrangement (binh lủng: back < middle or middle < front) is accepted, as the
        rules say, but returns a warning (also in the seat's view: ``fouled`` and
        ``warning``); otherwise returns None.

        >>> g = Game(players=2, seed=7)
        >>> cards = g.hand(0)
        >>> text = " ".join(map(str, cards[:5])) + " | " + " ".join(map(str, cards[5:10]))
        >>> g.arrange(0, text + " | " + " ".join(map(str, cards[10:])))
        'fouled (binh lủng): the back must be at least the middle, and the middle at least the front'
        >>> g.view(0)["fouled"]
        True
        """
        seat = self._check_open(seat)
        self._set_arrangement(seat, _arrangement_masks(arrangement))
        return self._warning(seat)

    def _set_arrangement(self, seat: Any, masks: tuple[int, int, int]) -> None:
        seat = self._check_open(seat)
        union = masks[0] | masks[1] | masks[2]
        if union != self._hands[seat]:
            extra = union & ~self._hands[seat]
            named = f": {_text(extra)} not in its hand" if extra else ""
            raise IllegalMoveError("cards_not_in_hand", f"seat {seat} must arrange its own 13 cards{named}")
        self._arranged[seat] = masks
        self._log_values("arrange", seat, *masks)  # back, middle, front
        self._emit("arranged", seat=seat)

    def _warning(self, seat: int) -> str | None:
        masks = self._arranged[seat]
        if masks is None or not is_fouled(Arrangement._from_masks(*masks), self._rules):
            return None
        return "fouled (binh lủng): the back must be at least the middle, and the middle at least the front"

    def confirm(self, seat: int) -> None:
        """Lock the seat's arrangement; when every seat is in, reveal and settle."""
        self._confirm(seat)

    def _confirm(self, seat: Any) -> None:
        seat = self._check_open(seat)
        if self._arranged[seat] is None:
            raise IllegalMoveError("no_arrangement", f"seat {seat} has not arranged yet")
        self._confirmed[seat] = True
        self._log({"type": "confirm", "seat": seat})
        self._emit("confirmed", seat=seat)
        self._maybe_finish()

    def auto_arrange(self, seat: int, objective: Objective = HELP_OBJECTIVE) -> None:
        """Arrange ``seat`` with the solver and confirm: by default the equilibrium objective,
        the arrangement an opponent who knows it exploits least (see
        :func:`~vncards.maubinh.exploitability`); ``objective="expected"`` (or
        ``"strongest"``) asks for another."""
        self._auto_arrange(seat, objective)

    def _auto_arrange(self, seat: Any, objective: Objective = HELP_OBJECTIVE) -> None:
        seat = self._check_open(seat)
        best = best_arrangement(_cards(self._hands[seat]), self._rules, objective)
        self._set_arrangement(seat, best.masks)
        self._confirm(seat)

    def forfeit(self, seat: int) -> None:
        """The seat leaves the hand: it counts as fouled (binh lủng)."""
        self._forfeit(seat)

    def _forfeit(self, seat: Any) -> None:
        seat = self._check_open(seat)
        self._forfeited[seat] = True
        self._confirmed[seat] = True
        self._log({"type": "forfeit", "seat": seat})
        self._emit("forfeited", seat=seat)
        self._maybe_finish()

    def auto_play(self, seat: int) -> None:
        """Timeout move: confirm the seat's arrangement if it has one, else auto-arrange."""
        seat = self._check_open(seat)
        if self._arranged[seat] is not None:
            self._confirm(seat)
        else:
            self._auto_arrange(seat)

    def _outcome(self) -> dict[str, Any]:
        assert self._result is not None
        return {"instants": list(self._result["instants"]), "fouled": list(self._result["fouled"])}

    def _settle_seats(self) -> list[tuple[int, int, int] | None]:
        return [None if self._forfeited[s] else self._arranged[s] for s in range(self._players)]

    def _compute_result(self) -> tuple[dict[str, Any], list[tuple[int, int, int, str]]]:
        r = self._rules
        totals, payments, instants, fouled = _core.maubinh_settle(self._settle_seats(), r.core)
        reveal = [None if a is None else [_text(m) for m in a] for a in self._settle_seats()]
        result = {
            "arrangements": reveal,
            "instants": list(instants),
            "fouled": list(fouled),
            "totals": list(totals),
        }
        return result, list(payments)

    def _maybe_finish(self) -> None:
        if not self._all_in():
            return
        result, payments = self._compute_result()
        for payer, payee, units, reason in payments:
            self._ledger.pay(payer, payee, units, reason)
        self._result = result
        self._emit(
            "reveal",
            arrangements=result["arrangements"],
            instants=result["instants"],
            fouled=result["fouled"],
        )
        self._emit("settle", totals=result["totals"])

    # -- uniform interface ---------------------------------------------------------------------

    def _apply(self, a: dict[str, Any]) -> None:
        kind, seat = a["type"], a["seat"]
        if kind == "arrange":
            self._set_arrangement(seat, _arrangement_masks([a[p] for p in _POSITIONS]))
        elif kind == "confirm":
            self._confirm(seat)
        elif kind == "auto_arrange":
            self._auto_arrange(seat)
        else:
            self._forfeit(seat)

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Actions open now for ``seat``: the solver's suggested ``arrange``, ``confirm`` once
        the seat has an arrangement, and ``forfeit`` (any other arrangement of its own cards
        is accepted too)."""
        s = self._check_seat(seat)
        if self._all_in() or self._confirmed[s]:
            return []
        best = best_arrangement(_cards(self._hands[s]), self._rules, HELP_OBJECTIVE)
        out: list[dict[str, Any]] = [
            {"type": "arrange", "seat": s, **dict(zip(_POSITIONS, best.to_text(), strict=False))}
        ]
        if self._arranged[s] is not None:
            out.append({"type": "confirm", "seat": s})
        out.append({"type": "forfeit", "seat": s})
        return out

    def describe(self, action: Mapping[str, Any]) -> str:
        """Short text for a terminal, e.g. ``seat 1 arranges 9♠ … | … | …``."""
        a = self._parse_action(action)
        seat, kind = a["seat"], a["type"]
        if kind == "arrange":
            back, middle, front = (_text(m) for m in _arrangement_masks([a[p] for p in _POSITIONS]))
            return f"seat {seat} arranges {back} | {middle} | {front}"
        if kind == "confirm":
            return f"seat {seat} confirms"
        if kind == "auto_arrange":
            return f"seat {seat} lets the solver arrange"
        if kind == "forfeit":
            return f"seat {seat} forfeits (fouled)"
        return f"seat {seat}: {kind}"

    def _view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may see: its own hand and arrangement (and
        whether that is ``fouled``, with the ``warning``), who has arranged and confirmed,
        and after the reveal every arrangement, instant win, foul and the settlement."""
        own = None if seat is None else self._arranged[seat]
        warning = None if seat is None else self._warning(seat)
        hand = None if seat is None else [str(c) for c in _cards(self._hands[seat])]
        return {
            **self._view_head(seat, hand, [13] * self._players),
            "players": self._players,
            "time_limit": self._rules.time_limit,
            "arrangement": None if own is None else [_text(m) for m in own],
            "fouled": warning is not None,
            "warning": warning,
            "arranged": [a is not None for a in self._arranged],
            "confirmed": list(self._confirmed),
            "forfeited": list(self._forfeited),
            "reveal": json_copy(self._result),
        }

    # -- snapshots -----------------------------------------------------------------------------

    def _dump_state(self) -> dict[str, Any]:
        return {
            "hands": list(self._hands),
            "arrangements": [None if a is None else list(a) for a in self._arranged],
            "confirmed": list(self._confirmed),
            "forfeited": list(self._forfeited),
        }

    def _load_state(self, state: dict[str, Any]) -> None:
        n = self._players
        expect(
            set(state) == {"hands", "arrangements", "confirmed", "forfeited"},
            "state: expected keys hands, arrangements, confirmed, forfeited",
        )
        hands = [expect_mask(h, f"hands[{i}]") for i, h in enumerate(expect_list(state["hands"], "hands", n))]
        for i, h in enumerate(hands):
            expect(h.bit_count() == 13, f"hands[{i}] must hold 13 cards")
        expect_disjoint(hands, "hands")
        arranged: list[tuple[int, int, int] | None] = []
        for i, a in enumerate(expect_list(state["arrangements"], "arrangements", n)):
            if a is None:
                arranged.append(None)
                continue
            masks = [expect_mask(m, f"arrangements[{i}]") for m in expect_list(a, f"arrangements[{i}]", 3)]
            expect([m.bit_count() for m in masks] == [5, 5, 3], f"arrangements[{i}] must be 5/5/3 cards")
            expect_disjoint(masks, f"arrangements[{i}]", union=hands[i])
            arranged.append((masks[0], masks[1], masks[2]))
        confirmed = [
            expect_bool(c, f"confirmed[{i}]")
            for i, c in enumerate(expect_list(state["confirmed"], "confirmed", n))
        ]
        forfeited = [
            expect_bool(c, f"forfeited[{i}]")
            for i, c in enumerate(expect_list(state["forfeited"], "forfeited", n))
        ]
        for i in range(n):
            expect(not forfeited[i] or confirmed[i], f"seat {i} forfeited but is not confirmed")
            expect(
                not confirmed[i] or forfeited[i] or arranged[i] is not None,
                f"seat {i} confirmed without an arrangement",
            )
        self._hands, self._arranged = hands, arranged
        self._confirmed, self._forfeited = confirmed, forfeited
        self._result = None
        if self._all_in():
            result, payments = self._compute_result()
            want = [{"from": f, "to": t, "units": u, "reason": why} for f, t, u, why in payments]
            expect(self._ledger.entries == want, "ledger does not match the revealed hands")
            self._result = result
        else:
            expect(len(self._ledger) == 0, "ledger must be empty before the reveal")


def _arrangement_masks(arrangement: Any) -> tuple[int, int, int]:
    """An arrangement argument (client data included) as checked masks: an
    :class:`Arrangement`, ``{"back", "middle", "front"}`` (an ``arrange`` action's own
    ``type``/``seat`` keys are ignored), ``(back, middle, front)`` or ``"back | middle | front"``."""
    if isinstance(arrangement, Arrangement):
        return arrangement.masks
    if isinstance(arrangement, str):
        return Arrangement.parse(check_text(arrangement, "arrangement")).masks
    if isinstance(arrangement, Mapping):
        d = plain_dict(arrangement)
        extra = set(d) - {"back", "middle", "front", "type", "seat"}
        if extra or d.get("type", "arrange") != "arrange":
            raise IllegalMoveError("invalid_arrangement", "an arrangement has keys back, middle, front")
        missing = [p for p in _POSITIONS if p not in d]
        if missing:
            raise IllegalMoveError("invalid_arrangement", f"missing hand {missing[0]!r}")
        parts = [d[p] for p in _POSITIONS]
    else:
        if not isinstance(arrangement, (list, tuple)):
            raise IllegalMoveError("invalid_arrangement", "an arrangement is (back, middle, front)")
        parts = list(arrangement)
        if len(parts) != 3:
            raise IllegalMoveError("invalid_arrangement", "an arrangement is (back, middle, front)")
    return _checked_hand_masks(parts, parse_cards)
