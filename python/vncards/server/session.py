"""One table's session: seats and their tokens, bots, turn timers, the hand sequence and the
running totals, independent of any transport.

The engine is the only authority: :meth:`TableSession.act` turns one client action into one
``game.apply`` for the seat its token names, and every accepted action is stored (session
record and engine snapshot together, one transaction) before anyone is told about it.

A seat is *bot* (a bot from :mod:`vncards.bots` plays it), *open* (waiting for a player) or
*taken* (a player holds its token). A seat that does not act before its deadline is played by
its time-out bot for that turn, and the table log says so. The turn timer counts per turn, or
per hand in a game whose rules carry a ``time_limit`` (Mậu Binh's 45 s to arrange).

>>> session = TableSession.create("t1", "tienlen", players=4, seats=[None, "greedy", "greedy", "greedy"])
>>> token = session.join(0, "An")
>>> session.seat_of(token)
0
>>> session.seats[0].kind, session.seats[1].kind, session.turn_seconds
('player', 'bot', 30.0)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..bots import Bot, bot_names, bot_view, make_bot
from ..errors import IllegalMoveError, RulesError, VncardsError

__all__ = [
    "TableSession",
    "SeatState",
    "ActionRefused",
    "EngineFault",
    "DEFAULT_TURN_SECONDS",
    "timeout_bot_for",
]

#: Seconds a seat has for one turn unless the table or the game's rules say otherwise.
DEFAULT_TURN_SECONDS = 30.0
#: Entries of the table log kept in the session record (the engine's event log is whole).
LOG_LIMIT = 200
#: Finished hands kept in the session record (each with its settlement and snapshot).
HANDS_LIMIT = 50
#: Most actions a time-out bot takes for one seat at one expiry (Mậu Binh: arrange, confirm).
TIMEOUT_STEPS = 4


class ActionRefused(Exception):
    """A client message that changed nothing: ``code`` is a short snake_case reason (the
    engine's ``IllegalMoveError.reason`` where the engine refused it)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class EngineFault(ActionRefused):
    """The engine raised something other than its typed errors: the action is refused and
    the table must be reloaded from its stored row (its in-memory state is not trusted)."""

    def __init__(self, message: str) -> None:
        super().__init__("invalid_action", f"the engine refused this action ({message})")


def timeout_bot_for(game: str) -> str:
    """The bot that plays a seat whose time ran out: the solver in Mậu Binh, else greedy."""
    return "solver" if "solver" in bot_names(game) else "greedy"


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class SeatState:
    """A seat: its bot (``None``: a person's seat), the hash of its token once taken, the
    player's name, and the bot that plays for it when its time runs out."""

    bot: str | None
    token_hash: str | None = None
    name: str | None = None
    timeout_bot: str = "greedy"

    @property
    def kind(self) -> str:
        """``"player"`` once someone holds the token, else ``"bot"`` or ``"open"``."""
        if self.token_hash is not None:
            return "player"
        return "open" if self.bot is None else "bot"

    def to_dict(self) -> dict[str, Any]:
        """The seat as stored (the token's hash, never the token)."""
        return {"bot": self.bot, "token": self.token_hash, "name": self.name, "timeout_bot": self.timeout_bot}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SeatState:
        """A seat from :meth:`to_dict` data."""
        return cls(d["bot"], d["token"], d["name"], d["timeout_bot"])

    def public(self, seat: int) -> dict[str, Any]:
        """What every client may know about the seat (never the token)."""
        label = self.name if self.name else (f"bot {self.bot}" if self.bot else "—")
        return {"seat": seat, "kind": self.kind, "name": label, "bot": self.bot}


@dataclass
class TableSession:
    """A table: the engine game of the hand in play plus the session around it."""

    id: str
    game_name: str
    players: int
    rules: dict[str, Any]
    seats: list[SeatState]
    game: Any
    turn_seconds: float
    bot_delay: float = 0.0
    seq: int = 0
    hand_number: int = 1
    totals: list[int] = field(default_factory=list)
    hand_base: list[int] = field(default_factory=list)
    hand_start_totals: list[int] = field(default_factory=list)
    #: Ledger entries of earlier hands in the engine game (games with their own hand sequence).
    ledger_start: int = 0
    hands: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    log_count: int = 0
    #: Wall-clock deadline of each seat that must act, as seat -> time.time() value.
    deadlines: dict[int, float] = field(default_factory=dict)
    #: When each pending bot seat became due to act (monotonic time is not stored).
    bot_due: dict[int, float] = field(default_factory=dict)
    key: bytes | None = None
    generation: int = 0
    _bots: dict[tuple[int, str], Bot] = field(default_factory=dict, repr=False)

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        table_id: str,
        game_name: str,
        *,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        seats: Sequence[str | None] | None = None,
        turn_seconds: float | None = None,
        bot_delay: float = 0.0,
        key: bytes | None = None,
    ) -> TableSession:
        """A new table; ``seats`` names a bot per seat (``None``: open for a player), by
        default every seat open. ``RulesError`` for an unknown game, option or bot."""
        spec = games.spec(game_name)
        overrides = dict(rules or {})
        game = games.new_game(game_name, players=players, rules=overrides)
        n = game.players
        wanted = list(seats) if seats is not None else [None] * n
        if len(wanted) != n:
            raise RulesError(f"{len(wanted)} seat choices for a {n}-seat table")
        fallback = timeout_bot_for(spec.name)
        choices = bot_names(spec.name)
        for b in wanted:
            if b is not None and b not in choices:
                raise RulesError(f"no bot {b!r} for {spec.name} (bots: {', '.join(choices)})")
        if turn_seconds is None:
            turn_seconds = float(getattr(game.rules, "time_limit", DEFAULT_TURN_SECONDS))
        if not 0 < turn_seconds <= 3600:
            raise RulesError(f"turn_seconds must be in (0, 3600], not {turn_seconds}")
        session = cls(
            id=table_id,
            game_name=spec.name,
            players=n,
            rules=overrides,
            seats=[SeatState(b, timeout_bot=fallback) for b in wanted],
            game=game,
            turn_seconds=float(turn_seconds),
            bot_delay=bot_delay,
            totals=[0] * n,
            hand_base=[0] * n,
            hand_start_totals=[0] * n,
            key=key,
        )
        session._note("hand_start", hand=1)
        session._reset_timers(set(), None)
        return session

    def to_record(self) -> tuple[dict[str, Any], str]:
        """The session record and the engine snapshot, as stored."""
        meta = {
            "players": self.players,
            "rules": self.rules,
            "seats": [s.to_dict() for s in self.seats],
            "turn_seconds": self.turn_seconds,
            "bot_delay": self.bot_delay,
            "hand_number": self.hand_number,
            "totals": self.totals,
            "hand_base": self.hand_base,
            "hand_start_totals": self.hand_start_totals,
            "ledger_start": self.ledger_start,
            "hands": self.hands,
            "log": self.log,
            "log_count": self.log_count,
            "deadlines": {str(k): v for k, v in self.deadlines.items()},
        }
        return meta, self.game.to_json(key=self.key)

    @classmethod
    def from_record(
        cls,
        table_id: str,
        game_name: str,
        seq: int,
        meta: Mapping[str, Any],
        snapshot: str,
        key: bytes | None,
    ) -> TableSession:
        """A stored table, exactly as its last accepted action left it (the engine verifies
        the snapshot, and its signature when the server has a key)."""
        game = games.from_json(snapshot, key=key)
        session = cls(
            id=table_id,
            game_name=game_name,
            players=meta["players"],
            rules=dict(meta["rules"]),
            seats=[SeatState.from_dict(s) for s in meta["seats"]],
            game=game,
            turn_seconds=float(meta["turn_seconds"]),
            bot_delay=float(meta["bot_delay"]),
            seq=seq,
            hand_number=meta["hand_number"],
            totals=list(meta["totals"]),
            hand_base=list(meta["hand_base"]),
            hand_start_totals=list(meta["hand_start_totals"]),
            ledger_start=meta["ledger_start"],
            hands=list(meta["hands"]),
            log=list(meta["log"]),
            log_count=meta["log_count"],
            deadlines={int(k): float(v) for k, v in meta["deadlines"].items()},
            key=key,
        )
        now = time.monotonic()
        session.bot_due = {s: now + session.bot_delay for s in session._pending_bots()}
        return session

    # -- seats ---------------------------------------------------------------------------------

    def join(self, seat: int, name: str | None = None) -> str:
        """Take ``seat`` (open, or played by a bot until now): the new seat token, shown once.
        ``ActionRefused("seat_taken")`` if a player holds it."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ActionRefused("invalid_seat", f"no seat {seat!r} at this {self.players}-seat table")
        st = self.seats[seat]
        if st.token_hash is not None:
            raise ActionRefused("seat_taken", f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        st.token_hash = _hash_token(token)
        st.name = (name or "").strip()[:24] or f"player {seat}"
        self.bot_due.pop(seat, None)
        if seat in self.game.pending_seats and seat not in self.deadlines:
            self.deadlines[seat] = time.time() + self.turn_seconds
        self._note("join", seat=seat, name=st.name)
        return token

    def seat_of(self, token: Any) -> int | None:
        """The seat ``token`` names, or ``None``."""
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            return None
        h = _hash_token(token)
        for i, st in enumerate(self.seats):
            if st.token_hash is not None and hmac.compare_digest(st.token_hash, h):
                return i
        return None

    # -- actions -------------------------------------------------------------------------------

    def act(self, seat: int, action: Any, *, by: str = "player") -> None:
        """Apply ``action`` for ``seat`` (one ``apply``); ``ActionRefused`` leaves everything
        as it was. The caller stores the session (:meth:`to_record`) before telling anyone."""
        if not isinstance(action, dict):
            raise ActionRefused("malformed", "an action is a JSON object")
        if "seat" not in action:
            action = {**action, "seat": seat}
        if action["seat"] != seat or isinstance(action["seat"], bool):
            raise ActionRefused("wrong_seat", f"this connection plays seat {seat}")
        if self.game.is_over:
            raise ActionRefused("game_over", "the hand is over; start the next hand")
        before = set(self.game.pending_seats)
        try:
            self.game.apply(action)
        except IllegalMoveError as e:
            raise ActionRefused(e.reason, str(e)) from None
        except VncardsError as e:
            raise ActionRefused(getattr(e, "reason", None) or "invalid_action", str(e)) from None
        except Exception as e:
            # Outside the engine's input contract: the game may be half-changed, so the
            # caller must restore the table from its stored row.
            raise EngineFault(f"{type(e).__name__}: {e}") from e
        self.seq += 1
        self._after_change(before, seat)
        if by == "timeout":
            self._note("timeout", seat=seat, bot=self._bot_name(seat, by), action=action.get("type"))

    def next_hand(self) -> None:
        """Deal the next hand once this one is over (the engine's own hand sequence where it
        has one, so who leads next follows the rules; else a new deal), totals kept running."""
        if not self.game.is_over:
            raise ActionRefused("hand_not_over", "the current hand is still being played")
        finished = self._finish_record()
        if hasattr(self.game, "next_hand"):
            self.ledger_start = len(self.game.ledger)
            self.game.apply({"type": "next_hand"})
        else:
            self.ledger_start = 0
            self.game = games.new_game(self.game_name, players=self.players, rules=self.rules)
            self.hand_base = list(self.totals)
            self.generation += 1
        self.hands = [*self.hands, finished][-HANDS_LIMIT:]
        self.seq += 1
        self.hand_number += 1
        self._note("hand_start", hand=self.hand_number)
        self._reset_timers(set(), None)

    def _finish_record(self) -> dict[str, Any]:
        result = [t - h for t, h in zip(self.totals, self.hand_start_totals, strict=True)]
        self.hand_start_totals = list(self.totals)
        return {"hand": self.hand_number, "result": result, "totals": list(self.totals)}

    def _after_change(self, before: set[int], actor: int | None) -> None:
        if self.game.is_over:
            settlement = self.game.settlement or [0] * self.players
            previous = list(self.totals)
            self.totals = [b + s for b, s in zip(self.hand_base, settlement, strict=True)]
            self._note(
                "hand_over",
                hand=self.hand_number,
                result=[t - p for t, p in zip(self.totals, previous, strict=True)],
                totals=self.totals,
            )
        self._reset_timers(before, actor)

    def _reset_timers(self, before: set[int], actor: int | None) -> None:
        """Deadlines for the seats that must act now: a seat newly pending (or that just
        acted and must act again) gets a fresh turn; with a per-hand limit (Mậu Binh) a seat
        keeps the deadline it was dealt."""
        now, mono = time.time(), time.monotonic()
        per_hand = hasattr(self.game.rules, "time_limit")
        pending = set() if self.game.is_over else set(self.game.pending_seats)
        deadlines: dict[int, float] = {}
        bot_due: dict[int, float] = {}
        for s in sorted(pending):
            fresh = s not in before or (s == actor and not per_hand)
            if self.seats[s].kind == "bot":
                bot_due[s] = mono + self.bot_delay if fresh else self.bot_due.get(s, mono + self.bot_delay)
            else:
                old = self.deadlines.get(s)
                deadlines[s] = now + self.turn_seconds if fresh or old is None else old
        self.deadlines, self.bot_due = deadlines, bot_due

    def _pending_bots(self) -> list[int]:
        if self.game.is_over:
            return []
        return [s for s in self.game.pending_seats if self.seats[s].kind == "bot"]

    # -- bots and time-outs --------------------------------------------------------------------

    def _bot_name(self, seat: int, by: str) -> str:
        st = self.seats[seat]
        return st.timeout_bot if by == "timeout" or st.bot is None else st.bot

    def bot_for(self, seat: int, by: str) -> Bot:
        """The bot that acts for ``seat`` (its own, or its time-out bot)."""
        name = self._bot_name(seat, by)
        bot = self._bots.get((seat, name))
        if bot is None:
            bot = make_bot(name, self.game_name, rules=self.game.rules)
            self._bots[(seat, name)] = bot
        return bot

    def next_due(self, now_wall: float, now_mono: float) -> tuple[float, int, str] | None:
        """The next thing the table must do by itself: ``(seconds from now, seat, "bot" or
        "timeout")``, or ``None`` when it waits for players only."""
        best: tuple[float, int, str] | None = None
        for s, t in self.bot_due.items():
            cand = (max(0.0, t - now_mono), s, "bot")
            best = cand if best is None or cand < best else best
        for s, t in self.deadlines.items():
            cand = (max(0.0, t - now_wall), s, "timeout")
            best = cand if best is None or cand < best else best
        return best

    def bot_choice(self, seat: int, by: str) -> dict[str, Any] | None:
        """The action the bot would take for ``seat`` now (``None`` if it need not act)."""
        if self.game.is_over or seat not in self.game.pending_seats:
            return None
        legal = self.game.legal_actions(seat)
        if not legal:
            return None
        choice: dict[str, Any] = self.bot_for(seat, by).choose(bot_view(self.game, seat), legal)
        return choice

    def is_due(self, seat: int, by: str) -> bool:
        """Is ``seat`` still due for a ``by`` ("bot" / "timeout") action now?"""
        if by == "bot":
            return seat in self.bot_due and self.bot_due[seat] <= time.monotonic()
        return seat in self.deadlines and self.deadlines[seat] <= time.time()

    # -- what clients see ----------------------------------------------------------------------

    def _note(self, kind: str, **fields: Any) -> None:
        self.log_count += 1
        self.log = [*self.log, {"n": self.log_count, "type": kind, "seq": self.seq, **fields}][-LOG_LIMIT:]

    def public_table(self) -> dict[str, Any]:
        """The table's public facts: seats, hand number, running totals, finished hands, the
        seconds left to each seat that must act, and the table log."""
        now = time.time()
        over = bool(self.game.is_over)
        return {
            "id": self.id,
            "game": self.game_name,
            "title": games.spec(self.game_name).title,
            "players": self.players,
            "rules": self.rules,
            "seats": [st.public(i) for i, st in enumerate(self.seats)],
            "hand_number": self.hand_number,
            "totals": self.totals,
            "hands": self.hands[-10:],
            "turn_seconds": self.turn_seconds,
            "time_left": {str(s): round(max(0.0, t - now), 1) for s, t in self.deadlines.items()},
            "is_over": over,
            "hand_result": [t - h for t, h in zip(self.totals, self.hand_start_totals, strict=True)]
            if over
            else None,
            "payments": self.game.ledger[self.ledger_start :] if over else None,
        }

    def frame(
        self, seat: int | None, events_from: int = 0, log_from: int = 0, *, with_table: bool = True
    ) -> dict[str, Any]:
        """The state frame for ``seat`` (``None``: a spectator): only what that seat may see,
        with the engine events and table-log entries from the given positions on
        (``with_table=False`` leaves out the public table, which a broadcast encodes once)."""
        game = self.game
        if seat is None:
            view = game.public_view()
            legal: list[dict[str, Any]] = []
        else:
            view = game.view(seat)  # checks the seat
            pending = not game.is_over and seat in game.pending_seats
            legal = game.legal_actions(seat) if pending else []
        if events_from >= 0:  # only the events not sent yet are built
            events = game._redacted(seat, events_from)
        else:
            events = (game.public_events() if seat is None else game.events_for(seat))[events_from:]
        first_log = self.log[0]["n"] if self.log else self.log_count + 1
        frame = {
            "type": "state",
            "seq": self.seq,
            "generation": self.generation,
            "seat": seat,
            "view": view,
            "legal_actions": legal,
            "events_from": events_from,
            "events": events,
            "log": [e for e in self.log if e["n"] > max(log_from, first_log - 1)],
        }
        if with_table:
            frame["table"] = self.public_table()
        return frame

    def event_count(self, seat: int | None) -> int:
        """How many engine events ``seat`` has been sent in full."""
        count: int = self.game._event_count()  # redaction blanks fields: every seat sees every event
        return count

    def summary(self) -> dict[str, Any]:
        """One line of the lobby."""
        t = self.public_table()
        return {
            **{
                k: t[k]
                for k in ("id", "game", "title", "players", "seats", "hand_number", "totals", "is_over")
            },
            "seq": self.seq,
        }


def dumps(frame: Mapping[str, Any]) -> str:
    """A frame as compact JSON text."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
