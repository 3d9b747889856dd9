"""One table of the server: a match of hands (a :class:`vncards.session.Session`) with what a
server adds to it: seat tokens, time-out bots, turn timers, forced moves, the table log;
independent of any transport.

The engine is the only authority: :meth:`TableSession.act` turns one client action into one
``game.apply`` for the seat its token names, and every accepted action is stored (session
record and match snapshot together, one transaction) before anyone is told about it. What
carries from one hand to the next (Tiến Lên: the winner leads and the first-hand rules are
off; Sâm Lốc: the winner is the next nominal leader; Tứ Sắc: the winner deals) is the match's
business: :meth:`TableSession.next_hand` is ``Session.next_hand``, and the finished hand it
returns goes to the store as a hand history (:mod:`vncards.history`), apart from the row of
the hand in play, so a row's size does not grow with the table's age.

A seat is *bot* (a bot from :mod:`vncards.bots` plays it), *open* (waiting for a player) or
*taken* (a player holds its token; the match records the player under the name they chose).
A seat that does not act before its deadline is played by its time-out bot for that turn,
and the table log says so. The turn timer counts per turn, or per hand in a game whose rules
carry a ``time_limit`` (Mậu Binh's 45 s to arrange). A seat whose only legal action is
forced (a pass it cannot avoid, a Tứ Sắc claim it must make) has it made for it after a short
pause (:data:`FORCED_DELAY`), unless the table turns ``auto_forced`` off. A player may leave
between hands (a bot takes the seat); the table's creator may hand any seat to a bot at any
time (during a hand, the bot plays the player's seat at once and takes it when the hand ends:
the player who sat through it is credited with its result).

A stored record is read as untrusted data: :meth:`TableSession.from_record` checks every
field of the server's record (types, ranges, finite numbers, seats that match the game), and
``Session.from_json`` verifies the match (its signature, a replay of the hand in play, zero-sum
totals); either raises naming the first field that is wrong.

Why one module of ~750 lines: :class:`TableSession` is one object whose parts share its
invariants (the seat tokens, the deadlines and the forced-move timers change together with
every action, and the stored record is read back into exactly those fields); what stands apart
is elsewhere: a seat's stored state and tokens in :mod:`.seats`, what crosses the wire in
:mod:`.wire`, the store in :mod:`.store`.

>>> session = TableSession.create("t1", "tienlen", players=4, seats=[None, "greedy", "greedy", "greedy"])
>>> token = session.join(0, "An")
>>> session.seat_of(token)
0
>>> session.kind(0), session.kind(1), session.turn_seconds, session.match.seats[0].player
('player', 'bot', 30.0, 'An')
>>> session.join(2, "\\udcff")
Traceback (most recent call last):
...
vncards.server.wire.ActionRefused: name: text is not valid Unicode (a lone surrogate)
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import games
from ..bots import Bot, bot_names, make_bot
from ..errors import IllegalMoveError, RulesError, VncardsError
from ..session import Hand, Seat, Session
from .seats import HEX64, SeatState, hash_token, timeout_bot_for, token_hash, token_matches
from .wire import ActionRefused, EngineFault, Fields, Refused, check_int, check_name, finite

__all__ = [
    "TableSession",
    "DEFAULT_TURN_SECONDS",
    "MAX_TURN_SECONDS",
    "FORCED_DELAY",
    "RESUME_MINIMUM",
    "SEAT_ACTIONS_LIMIT",
]

#: Seconds a seat has for one turn unless the table or the game's rules say otherwise.
DEFAULT_TURN_SECONDS = 30.0
#: The longest turn a table may set.
MAX_TURN_SECONDS = 3600.0
#: Entries of the table log kept in the session record (the engine's event log is whole).
LOG_LIMIT = 200
#: Finished hands whose results the session record keeps (their histories are stored apart).
HANDS_LIMIT = 50
#: Most actions a time-out bot takes for one seat at one expiry (Mậu Binh: arrange, confirm).
TIMEOUT_STEPS = 4
#: Seconds the table waits before it makes a seat's forced move (long enough to be seen).
FORCED_DELAY = 1.0
#: After a restart, the seat to act gets its remaining time, and never less than this.
RESUME_MINIMUM = 10.0
#: Most actions a seat's player may send in one hand. No game needs more than about 50 (Tứ
#: Sắc's claim windows, most of them forced passes the table makes); Mậu Binh lets a seat
#: re-arrange until it confirms, and each arrangement is logged: this bounds what one seat
#: can add to a hand's record.
SEAT_ACTIONS_LIMIT = 200
#: Who takes an action: its seat's player, its bot, its time-out bot, or the table (a forced move).
ACTORS = ("player", "bot", "timeout", "forced")
#: Largest running total a stored record may hold (units).
TOTAL_BOUND = 10**12

#: Fields of the session record, as :meth:`TableSession.to_record` writes them.
_RECORD = (
    "rules",
    "seats",
    "turn_seconds",
    "bot_delay",
    "auto_forced",
    "seat_actions",
    "hands",
    "log",
    "log_count",
    "deadlines",
    "owner",
    "creator",
)


def _deadlines(raw: Mapping[str, Any], where: str, players: int, pending: set[int]) -> dict[int, float]:
    """Stored deadlines (seat number as text -> wall-clock time), checked: only seats that
    must act, finite times."""
    deadlines: dict[int, float] = {}
    for k, v in raw.items():
        seat = check_int(int(k) if k.isdigit() and len(k) < 4 else -1, f"{where}[{k!r}]", 0, players - 1)
        if seat not in pending:
            raise Refused(f"{where}[{k!r}]: seat {seat} is not due to act")
        deadlines[seat] = finite(v, f"{where}[{k!r}]", 0, 1e11)
    return deadlines


@dataclass
class _Change:
    """What the frames of one change of a table share, built once (``seq``: the table's count
    at that change): the seats due to act, every seat's view, the engine events rendered
    from each start asked for."""

    seq: int
    due: frozenset[int]
    views: list[dict[str, Any]] | None = None
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def _refused(e: VncardsError) -> ActionRefused:
    return ActionRefused(getattr(e, "reason", None) or "invalid_action", str(e))


@dataclass
class TableSession:
    """A table: the match (:attr:`match`, whose :attr:`game` is the hand in play) plus what
    the server keeps around it."""

    id: str
    game_name: str
    match: Session
    seats: list[SeatState]
    rules: dict[str, Any]
    turn_seconds: float
    bot_delay: float = 0.0
    seq: int = 0
    #: Results of the last finished hands (``hand``, ``result``, ``totals``), newest last.
    hands: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    log_count: int = 0
    #: Wall-clock deadline of each seat that must act, as seat -> time.time() value.
    deadlines: dict[int, float] = field(default_factory=dict)
    #: When each pending bot seat became due to act (monotonic time is not stored).
    bot_due: dict[int, float] = field(default_factory=dict)
    #: When the table makes each pending seat's forced move (monotonic; not stored).
    forced_due: dict[int, float] = field(default_factory=dict)
    #: Make a seat's forced move for it (a table setting).
    auto_forced: bool = True
    forced_delay: float = FORCED_DELAY
    #: Actions each seat's player sent in this hand (bounded by SEAT_ACTIONS_LIMIT).
    seat_actions: list[int] = field(default_factory=list)
    #: Who created the table (the server's key for the client), and the creator token's hash.
    owner: str | None = None
    creator_hash: str | None = None
    key: bytes | None = None
    #: Finished hands not stored yet (the store writes them with the row, then clears this).
    finished: list[Hand] = field(default_factory=list)
    _bots: dict[tuple[int, str], Bot] = field(default_factory=dict, repr=False)
    _legal: tuple[int, dict[int, list[dict[str, Any]]]] = field(default=(-1, {}), repr=False)
    _change: _Change | None = field(default=None, repr=False)

    # -- the match -----------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The hand in play: the engine game."""
        return self.match.game

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.match.players

    @property
    def hand_number(self) -> int:
        """The number of the hand in play (1 for the first)."""
        return self.match.hand_number

    @property
    def generation(self) -> int:
        """Changes with every hand: each hand is its own game, whose events count from 0."""
        return self.match.hand_number

    @property
    def totals(self) -> list[int]:
        """Units won per seat since the table opened (zero-sum)."""
        return self.match.totals

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
        auto_forced: bool = True,
        forced_delay: float = FORCED_DELAY,
        owner: str | None = None,
        key: bytes | None = None,
    ) -> TableSession:
        """A new table; ``seats`` names a bot per seat (``None``: open for a player), by
        default every seat open. ``RulesError`` for an unknown game, option or bot."""
        spec = games.spec(game_name)
        overrides = dict(rules or {})
        n = players if players is not None else (len(seats) if seats is not None else 4)
        wanted = list(seats) if seats is not None else [None] * n
        if len(wanted) != n:
            raise RulesError(f"{len(wanted)} seat choices for a {n}-seat table")
        choices = bot_names(spec.name)
        for b in wanted:
            if b is not None and b not in choices:
                raise RulesError(f"no bot {b!r} for {spec.name} (bots: {', '.join(choices)})")
        match = Session(spec.name, players=[Seat(bot=b) for b in wanted], rules=overrides, keep_hands=0)
        if turn_seconds is None:
            turn_seconds = float(getattr(match.rules, "time_limit", DEFAULT_TURN_SECONDS))
        if not 0 < turn_seconds <= MAX_TURN_SECONDS:
            raise RulesError(f"turn_seconds must be in (0, {MAX_TURN_SECONDS:g}], not {turn_seconds}")
        fallback = timeout_bot_for(spec.name)
        session = cls(
            id=table_id,
            game_name=spec.name,
            match=match,
            seats=[SeatState(timeout_bot=fallback, fallback_bot=b) for b in wanted],
            rules=overrides,
            turn_seconds=float(turn_seconds),
            bot_delay=bot_delay,
            auto_forced=auto_forced,
            forced_delay=forced_delay,
            seat_actions=[0] * n,
            owner=owner,
            key=key,
        )
        session._note("hand_start", hand=1)
        session._after_change(set(), None)  # a dealt instant win settles at once
        return session

    def issue_creator_token(self) -> str:
        """A new creator token for this table (shown once; only its hash is kept): it lets
        its holder hand seats to bots and close the table."""
        token = secrets.token_urlsafe(24)
        self.creator_hash = hash_token(token)
        return token

    def is_creator(self, token: Any) -> bool:
        """Is ``token`` this table's creator token?"""
        return token_matches(token, self.creator_hash)

    def to_record(self) -> tuple[dict[str, Any], str]:
        """The session record and the match snapshot (signed with the table's key), as stored."""
        meta = {
            "rules": self.rules,
            "seats": [s.to_dict() for s in self.seats],
            "turn_seconds": self.turn_seconds,
            "bot_delay": self.bot_delay,
            "auto_forced": self.auto_forced,
            "seat_actions": self.seat_actions,
            "hands": self.hands,
            "log": self.log,
            "log_count": self.log_count,
            "deadlines": {str(k): v for k, v in self.deadlines.items()},
            "owner": self.owner,
            "creator": self.creator_hash,
        }
        return meta, self.match.to_json(key=self.key)

    @classmethod
    def from_record(
        cls,
        table_id: str,
        game_name: str,
        seq: int,
        meta: Mapping[str, Any],
        snapshot: str,
        key: bytes | None,
        *,
        forced_delay: float = FORCED_DELAY,
    ) -> TableSession:
        """A stored table, exactly as its last accepted action left it. Nothing in the row
        is trusted: the match verifies its snapshot (and its signature when the server has a
        key), and every field of the session record is checked; ``Refused`` (or the engine's
        ``SnapshotError``) names what is wrong."""
        if game_name not in games.GAMES:
            raise Refused(f"game: no game {game_name!r}")
        match = Session.from_json(snapshot, key=key)
        if match.name != game_name:
            raise Refused(f"snapshot: a {match.name} match in a {game_name} row")
        n = match.players
        f = Fields(meta, "meta", exact=_RECORD)
        rules = f.object("rules")
        try:
            if games.spec(game_name).rules_from(rules) != match.rules:
                raise Refused("meta.rules: not the match's rules")
        except (RulesError, TypeError) as e:
            raise Refused(f"meta.rules: {e}") from None
        bots = bot_names(game_name)
        seats = [SeatState.from_dict(d, f"meta.seats[{i}]", bots) for i, d in enumerate(f.items("seats", n))]
        if len(seats) != n:
            raise Refused(f"meta.seats: {len(seats)} seats at a {n}-seat table")
        for i, (st, occupant) in enumerate(zip(seats, match.seats, strict=True)):
            if st.token_hash is not None and occupant.player is None:
                raise Refused(f"meta.seats[{i}].token: a token for a seat no player holds")
        hands = f.items("hands", HANDS_LIMIT)
        for i, h in enumerate(hands):
            hf = Fields(h, f"meta.hands[{i}]", exact=("hand", "result", "totals"))
            hf.integer("hand", 1, 2**32)
            hf.integers("result", n, TOTAL_BOUND)
            hf.integers("totals", n, TOTAL_BOUND)
        log = f.items("log", LOG_LIMIT)
        last = 0
        for i, entry in enumerate(log):
            ef = Fields(entry, f"meta.log[{i}]")
            last = ef.integer("n", last + 1, 2**53)  # numbered in order (frames send the tail)
            ef.integer("seq", 0, 2**53)
            ef.optional_text("type", 32)
        log_count = f.integer("log_count", len(log), 2**53)
        game = match.game
        pending = set() if game.is_over else set(game.pending_seats)
        deadlines = _deadlines(f.object("deadlines"), "meta.deadlines", n, pending)
        creator = f.optional_text("creator", 64)
        if creator is not None and not HEX64.fullmatch(creator):
            raise Refused("meta.creator: a SHA-256 in hex")
        session = cls(
            id=table_id,
            game_name=game_name,
            match=match,
            seats=seats,
            rules=dict(rules),
            turn_seconds=f.number("turn_seconds", 0.001, MAX_TURN_SECONDS),
            bot_delay=f.number("bot_delay", 0, 60),
            seq=check_int(seq, "seq", 0, 2**53),
            hands=list(hands),
            log=list(log),
            log_count=log_count,
            deadlines=deadlines,
            auto_forced=f.flag("auto_forced"),
            forced_delay=forced_delay,
            seat_actions=f.integers("seat_actions", n, SEAT_ACTIONS_LIMIT),
            owner=f.optional_text("owner", 64),
            creator_hash=creator,
            key=key,
        )
        now = time.monotonic()
        session.bot_due = {s: now + session.bot_delay for s in session._pending_bots()}
        session.forced_due = {s: now + forced_delay for s in pending if session._forced(s) is not None}
        return session

    def entry(self, seat: int, action: Mapping[str, Any], by: str) -> dict[str, Any]:
        """The stored record of an action :meth:`act` just took: the seat, who acted, the
        action as it was sent, and the deadlines it left (wall-clock times)."""
        deadlines = {str(s): t for s, t in self.deadlines.items()}
        return {"seat": seat, "by": by, "action": dict(action), "deadlines": deadlines}

    def replay(self, entry: Mapping[str, Any], where: str) -> None:
        """Take again an action :meth:`entry` recorded (after a restart, from the snapshot
        before it): ``Refused`` naming ``where`` if the record is malformed or the engine
        refuses the action; the deadlines are the ones the action left."""
        f = Fields(entry, where, exact=("seat", "by", "action", "deadlines"))
        seat = f.integer("seat", 0, self.players - 1)
        by = f.optional_text("by", 16)
        if by not in ACTORS:
            raise Refused(f"{where}.by: one of {', '.join(ACTORS)}")
        try:
            self.act(seat, dict(f.object("action")), by=by)
        except ActionRefused as e:
            raise Refused(f"{where}: the action is refused ({e.message})") from None
        pending = set() if self.game.is_over else set(self.game.pending_seats)
        deadlines = _deadlines(f.object("deadlines"), f"{where}.deadlines", self.players, pending)
        if set(deadlines) != set(self.deadlines):
            raise Refused(f"{where}.deadlines: not the seats that must act")
        self.deadlines = deadlines

    def resume_clocks(self, now: float, alive: float, minimum: float = RESUME_MINIMUM) -> None:
        """After a restart: each seat to act gets the time it had left when the server was
        last alive (``alive``, a wall-clock time), the downtime not counted, and never less
        than ``minimum`` seconds (nor more than a whole turn)."""
        for seat, deadline in self.deadlines.items():
            left = min(deadline - alive, self.turn_seconds)
            self.deadlines[seat] = now + max(minimum, left)

    # -- seats ---------------------------------------------------------------------------------

    def kind(self, seat: int, occupant: Seat | None = None) -> str:
        """``"player"`` (someone holds the token), ``"bot"`` or ``"open"`` (``occupant``: the
        match's seat, if the caller has it already)."""
        if self.seats[seat].token_hash is not None:
            return "player"
        return "open" if self._bot_of(seat, occupant) is None else "bot"

    def _bot_of(self, seat: int, occupant: Seat | None = None) -> str | None:
        """The bot that plays ``seat`` now (the creator's replacement during a hand)."""
        st = self.seats[seat]
        if st.replacement is not None:
            return st.replacement or None
        return (self.match.seats[seat] if occupant is None else occupant).bot

    def public_seat(self, seat: int, occupants: Sequence[Seat] | None = None) -> dict[str, Any]:
        """What every client may know about a seat (never the token): its kind, the name it
        shows, its bot, and what its occupant has won at it (``occupants``: the match's
        seats, if the caller has them already)."""
        occupant = (self.match.seats if occupants is None else occupants)[seat]
        bot = self._bot_of(seat, occupant)
        name = occupant.player if occupant.player is not None else (f"bot {bot}" if bot else "—")
        kind = self.kind(seat, occupant)
        return {"seat": seat, "kind": kind, "name": name, "bot": bot, "total": occupant.total}

    def public_seats(self) -> list[dict[str, Any]]:
        """:meth:`public_seat` of every seat."""
        occupants = self.match.seats
        return [self.public_seat(i, occupants) for i in range(self.players)]

    def _seat_index(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ActionRefused("invalid_seat", f"no seat {seat!r} at this {self.players}-seat table")
        return seat

    def join(self, seat: Any, name: Any = None) -> str:
        """Take ``seat`` (open, or played by a bot until now) under ``name`` (checked: see
        :func:`~vncards.server.wire.check_name`; none: "player N"): the new seat token, shown
        once. ``ActionRefused``: ``seat_taken`` if a player holds it, ``name_taken`` if another
        seat's player has that name."""
        index = self._seat_index(seat)
        try:
            chosen = None if name is None else check_name(name)
        except Refused as e:
            raise ActionRefused(e.code, e.message) from None
        st = self.seats[index]
        if st.token_hash is not None:
            raise ActionRefused("seat_taken", f"seat {index} is taken")
        names = {s.player for i, s in enumerate(self.match.seats) if i != index}
        if chosen is None:
            chosen = f"player {index}"
            while chosen in names:
                chosen += "'"
        if chosen in names:
            raise ActionRefused("name_taken", f"another seat's player is called {chosen!r}")
        before = self.match.seats[index].bot
        try:
            self.match.sit(index, chosen)
        except IllegalMoveError as e:  # a player sat here through the hand in play
            raise ActionRefused(e.reason, "this seat changes hands when the hand in play ends") from None
        token = secrets.token_urlsafe(24)
        st.token_hash = hash_token(token)
        st.fallback_bot = before or st.fallback_bot
        st.replacement = None
        self._reschedule(index)
        self._note("join", seat=index, name=chosen)
        return token

    def leave(self, seat: int) -> None:
        """The player of ``seat`` leaves between hands: a bot takes the seat (the bot it had
        before, else its time-out bot). ``ActionRefused("hand_in_play")`` during a hand."""
        st = self.seats[self._seat_index(seat)]
        if st.token_hash is None:
            raise ActionRefused("not_seated", f"no player holds seat {seat}")
        if not self.game.is_over:
            raise ActionRefused(
                "hand_in_play", "leave once the hand is over (until then your time-out bot plays for you)"
            )
        bot = st.fallback_bot or st.timeout_bot
        self.match.leave(seat, bot=bot)
        st.token_hash = None
        self._reschedule(seat)
        self._note("leave", seat=seat, bot=bot)

    def replace(self, seat: Any, bot: Any) -> int:
        """The creator hands ``seat`` to ``bot`` (a bot name), or opens it for a player
        (``None``), at any time: the seat's token stops working. During a hand a player's
        seat is played by the bot (or, opened, by its time-out bot) at once, and changes
        hands when the hand ends (the player is credited with the hand they sat through)."""
        index = self._seat_index(seat)
        if bot is not None and bot not in bot_names(self.game_name):
            raise ActionRefused("unknown_bot", f"bots: {', '.join(bot_names(self.game_name))}")
        st = self.seats[index]
        st.token_hash = None
        try:
            self.match.sit(index, None, bot=bot)
            st.replacement = None
        except IllegalMoveError:  # a player's seat during the hand: the bot stands in
            st.replacement = bot or ""
        except VncardsError as e:
            raise _refused(e) from None
        self._bots = {k: v for k, v in self._bots.items() if k[0] != index}
        self._reschedule(index)
        self._note("replace", seat=index, bot=bot)
        return index

    def seat_of(self, token: Any) -> int | None:
        """The seat ``token`` names, or ``None``."""
        h = token_hash(token)
        if h is None:
            return None
        for i, st in enumerate(self.seats):
            if st.token_hash is not None and hmac.compare_digest(st.token_hash, h):
                return i
        return None

    # -- actions -------------------------------------------------------------------------------

    def act(self, seat: int, action: Any, *, by: str = "player") -> None:
        """Apply ``action`` for ``seat`` (one ``apply``); ``ActionRefused`` leaves everything
        as it was. The caller stores the session (:meth:`to_record`) before telling anyone.
        ``by`` is who acted: ``"player"``, ``"bot"``, ``"timeout"`` or ``"forced"``."""
        if not isinstance(action, dict):
            raise ActionRefused("malformed", "an action is a JSON object")
        if "seat" not in action:
            action = {**action, "seat": seat}
        if action["seat"] != seat or isinstance(action["seat"], bool):
            raise ActionRefused("wrong_seat", f"this connection plays seat {seat}")
        game = self.game
        if game.is_over:
            raise ActionRefused("game_over", "the hand is over; start the next hand")
        if by == "player" and self.seat_actions[seat] >= SEAT_ACTIONS_LIMIT:
            raise ActionRefused(
                "too_many_actions",
                f"seat {seat} has sent {SEAT_ACTIONS_LIMIT} moves this hand, the most a seat may",
            )
        before = set(game.pending_seats)
        try:
            game.apply(action)
        except VncardsError as e:
            raise _refused(e) from None
        except Exception as e:
            # Outside the engine's input contract: the game may be half-changed, so the
            # caller must restore the table from its stored row.
            raise EngineFault(f"{type(e).__name__}: {e}") from e
        self.seq += 1
        if by == "player":
            self.seat_actions[seat] += 1
        self._after_change(before, seat)
        if by == "timeout":
            self._note("timeout", seat=seat, bot=self.seats[seat].timeout_bot, action=action.get("type"))

    def explain(self, seat: int, action: Any) -> ActionRefused | None:
        """Why ``act(seat, action)`` would be refused (the engine's reason code and its words),
        or None if it would be accepted; changes nothing and counts as no move."""
        if not isinstance(action, dict):
            return ActionRefused("malformed", "an action is a JSON object")
        action = {"seat": seat, **action}
        if action["seat"] != seat or isinstance(action["seat"], bool):
            return ActionRefused("wrong_seat", f"this connection plays seat {seat}")
        if self.game.is_over:
            return ActionRefused("game_over", "the hand is over; start the next hand")
        try:
            self.game.verify(action)
        except VncardsError as e:
            return _refused(e)
        except Exception:
            return ActionRefused("invalid_action", "not an action of this game")
        return None

    def categorize(self, rows: Any) -> dict[str, Any]:
        """Mậu Binh rows being placed, back to front: each full row's category (``None`` for
        a row not yet full) and, once all three are full, whether they foul (binh lủng;
        ``None`` before). Changes nothing; ``ActionRefused`` for rows that are no cards."""
        if self.game_name != "maubinh":
            raise ActionRefused("malformed", "only a Mậu Binh table sorts rows into categories")
        if not (isinstance(rows, list) and len(rows) == 3 and all(isinstance(r, str) for r in rows)):
            raise ActionRefused("malformed", "rows are three strings of cards, back to front")
        from ..maubinh import hand_category, is_fouled

        rules = self.game.rules
        try:
            full = [len(r.split()) == n for r, n in zip(rows, (5, 5, 3), strict=True)]
            categories = [hand_category(r, rules) if ok else None for r, ok in zip(rows, full, strict=True)]
            fouled = is_fouled(rows, rules) if all(full) else None
        except VncardsError as e:
            raise _refused(e) from None
        return {"categories": categories, "fouled": fouled}

    def next_hand(self) -> None:
        """Deal the next hand once this one is over, with what the rules carry over; the
        finished hand waits in :attr:`finished` for the store."""
        if not self.game.is_over:
            raise ActionRefused("hand_not_over", "the current hand is still being played")
        try:
            finished = self.match.next_hand()
        except VncardsError as e:
            raise _refused(e) from None
        self.finished.append(finished)
        self.seq += 1
        self.seat_actions = [0] * self.players
        self._bots = {}
        self._note("hand_start", hand=self.hand_number)
        self._after_change(set(), None)

    def _after_change(self, before: set[int], actor: int | None) -> None:
        if self.game.is_over and not (self.hands and self.hands[-1]["hand"] == self.hand_number):
            result = self.match.hand_result or [0] * self.players
            # The creator's replacements take their seats once the hand is over.
            for i, st in enumerate(self.seats):
                if st.replacement is not None:
                    self.match.sit(i, None, bot=st.replacement or None)
                    st.replacement = None
            record = {"hand": self.hand_number, "result": result, "totals": self.totals}
            self.hands = [*self.hands, record][-HANDS_LIMIT:]
            self._note("hand_over", **record)
        self._reset_timers(before, actor)

    # -- clocks --------------------------------------------------------------------------------

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """``game.legal_actions(seat)`` for a pending seat, computed once per change."""
        seq, cache = self._legal
        if seq != self.seq:
            cache = {}
            self._legal = (self.seq, cache)
        got = cache.get(seat)
        if got is None:
            got = cache[seat] = self.game.legal_actions(seat)
        return got

    def _shared(self) -> _Change:
        """What every frame of the table's last change shares (made at its first frame)."""
        change = self._change
        if change is None or change.seq != self.seq:
            game = self.game
            change = self._change = _Change(self.seq, frozenset(() if game.is_over else game.pending_seats))
        return change

    def _seat_view(self, seat: int) -> dict[str, Any]:
        """``game.view(seat)``, every seat's built together once per change (the engine's
        ``_views``: their public part is shared). Shared by the frames of this change: never
        changed."""
        change = self._shared()
        if change.views is None:
            change.views = self.game._views(range(self.players))
        views = change.views
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(views):
            view: dict[str, Any] = self.game.view(seat)  # raises the engine's error for the seat
            return view
        return views[seat]

    def _events_from(self, start: int) -> list[dict[str, Any]]:
        """The hand's engine events from the one numbered ``start`` on, every field whole,
        rendered once per change (each seat's frame redacts them: :meth:`frame`). Shared by
        the frames of this change: never changed."""
        events = self._shared().events
        got = events.get(start)
        if got is None:
            got = events[start] = self.game._logged(events=True, start=start)
        return got

    def _forced(self, seat: int) -> dict[str, Any] | None:
        """The move the table makes for a pending player's seat: its only legal action."""
        if not self.auto_forced or self.kind(seat) == "bot":
            return None
        legal = self.legal(seat)
        return legal[0] if len(legal) == 1 else None

    def _reset_timers(self, before: set[int], actor: int | None) -> None:
        """Deadlines for the seats that must act now: a seat newly pending (or that just
        acted and must act again) gets a fresh turn; with a per-hand limit (Mậu Binh) a seat
        keeps the deadline it was dealt."""
        now, mono = time.time(), time.monotonic()
        game = self.game
        per_hand = hasattr(game.rules, "time_limit")
        pending = set() if game.is_over else set(game.pending_seats)
        deadlines: dict[int, float] = {}
        bot_due: dict[int, float] = {}
        forced_due: dict[int, float] = {}
        for s in sorted(pending):
            fresh = s not in before or (s == actor and not per_hand)
            if self.kind(s) == "bot":
                bot_due[s] = mono + self.bot_delay if fresh else self.bot_due.get(s, mono + self.bot_delay)
                continue
            old = self.deadlines.get(s)
            deadlines[s] = now + self.turn_seconds if fresh or old is None else old
            if self._forced(s) is not None:
                due = self.forced_due.get(s)
                forced_due[s] = mono + self.forced_delay if fresh or due is None else due
        self.deadlines, self.bot_due, self.forced_due = deadlines, bot_due, forced_due

    def _reschedule(self, seat: int) -> None:
        """The clocks of one seat after it changed hands (join, leave, replace)."""
        self.bot_due.pop(seat, None)
        self.forced_due.pop(seat, None)
        game = self.game
        if game.is_over or seat not in game.pending_seats:
            self.deadlines.pop(seat, None)
            return
        if self.kind(seat) == "bot":
            self.deadlines.pop(seat, None)
            self.bot_due[seat] = time.monotonic() + self.bot_delay
            return
        self.deadlines.setdefault(seat, time.time() + self.turn_seconds)
        if self._forced(seat) is not None:
            self.forced_due[seat] = time.monotonic() + self.forced_delay

    def _pending_bots(self) -> list[int]:
        if self.game.is_over:
            return []
        return [s for s in self.game.pending_seats if self.kind(s) == "bot"]

    # -- bots and time-outs --------------------------------------------------------------------

    def bot_for(self, seat: int, by: str) -> Bot:
        """The bot that acts for ``seat``: its time-out bot (``by="timeout"``), the creator's
        replacement standing in, or the match's own bot of the seat (seeded from the match)."""
        st = self.seats[seat]
        if by != "timeout" and st.replacement is None:
            own = self.match.bot(seat)
            if own is not None:
                return own
        name = st.timeout_bot if by == "timeout" or not st.replacement else st.replacement
        bot = self._bots.get((seat, name))
        if bot is None:
            bot = self._bots[(seat, name)] = make_bot(
                name, self.game_name, rules=self.match.rules, players=self.players
            )
        return bot

    def next_due(self, now_wall: float, now_mono: float) -> tuple[float, int, str] | None:
        """The next thing the table must do by itself: ``(seconds from now, seat, "bot",
        "forced" or "timeout")``, or ``None`` when it waits for players only."""
        best: tuple[float, int, str] | None = None
        for kind, due, now in (
            ("bot", self.bot_due, now_mono),
            ("forced", self.forced_due, now_mono),
            ("timeout", self.deadlines, now_wall),
        ):
            for s, t in due.items():
                cand = (max(0.0, t - now), s, kind)
                best = cand if best is None or cand < best else best
        return best

    def forced_choice(self, seat: int) -> dict[str, Any] | None:
        """The forced move the table makes for ``seat`` now (``None``: none is due)."""
        game = self.game
        if seat not in self.forced_due or game.is_over or seat not in game.pending_seats:
            return None
        return self._forced(seat)

    def is_due(self, seat: int, by: str) -> bool:
        """Is ``seat`` still due for a ``by`` ("bot" / "forced" / "timeout") action now?"""
        if by == "bot":
            return seat in self.bot_due and self.bot_due[seat] <= time.monotonic()
        if by == "forced":
            return seat in self.forced_due and self.forced_due[seat] <= time.monotonic()
        return seat in self.deadlines and self.deadlines[seat] <= time.time()

    # -- what clients see ----------------------------------------------------------------------

    def _note(self, kind: str, **fields: Any) -> None:
        self.log_count += 1
        self.log = [*self.log, {"n": self.log_count, "type": kind, "seq": self.seq, **fields}][-LOG_LIMIT:]

    def public_table(self) -> dict[str, Any]:
        """The table's public facts: seats, hand number, running totals, finished hands, the
        seconds left to each seat that must act, and, once the hand is over, its result,
        payments and (Mậu Binh) the showdown's hand categories."""
        now = time.time()
        game = self.game
        over = bool(game.is_over)
        return {
            "id": self.id,
            "game": self.game_name,
            "title": self.match.title,
            "players": self.players,
            "rules": self.rules,
            "seats": self.public_seats(),
            "hand_number": self.hand_number,
            "totals": self.totals,
            "hands": self.hands[-10:],
            "turn_seconds": self.turn_seconds,
            "auto_forced": self.auto_forced,
            "time_left": {str(s): round(max(0.0, t - now), 1) for s, t in self.deadlines.items()},
            "is_over": over,
            "hand_result": self.match.hand_result if over else None,
            "payments": game.ledger if over else None,
            "showdown": self._showdown() if over else None,
        }

    def _showdown(self) -> dict[str, Any] | None:
        """The end of a hand in the table's words: Mậu Binh's showdown, each seat's three
        hands' categories (back, middle, front; ``None`` for a seat without an arrangement);
        Tứ Sắc's won hand split into its melds."""
        if self.game_name == "tusac":
            return self._tusac_showdown()
        if self.game_name != "maubinh":
            return None
        from ..maubinh import hand_category

        reveal = self.game.public_view().get("reveal") or {}
        categories: list[list[str] | None] = []
        for rows in reveal.get("arrangements") or []:
            try:
                categories.append([hand_category(row, self.game.rules) for row in rows])
            except (VncardsError, TypeError, ValueError):
                categories.append(None)
        return {"categories": categories}

    def _tusac_showdown(self) -> dict[str, Any] | None:
        """Tứ Sắc's won hand in the table's words: the winner and the hand they showed, split
        into its melds (:func:`vncards.tusac.melds`, the best split), ``None`` for a draw."""
        from ..tusac import melds

        view = self.game.public_view()
        winner = (view.get("result") or {}).get("winner")
        hand = (view.get("revealed") or [None] * self.players)[winner] if winner is not None else None
        if not hand:
            return None
        split = melds(hand, limit=1)
        shown = [{"meld": m.kind, "cards": [str(c) for c in m.cards]} for m in (split[0] if split else [])]
        return {"winner": winner, "melds": shown}

    def frame(
        self, seat: int | None, events_from: int = 0, log_from: int = 0, *, with_table: bool = True
    ) -> dict[str, Any]:
        """The state frame for ``seat`` (``None``: a spectator): only what that seat may see,
        with the engine events and table-log entries from the given positions on
        (``with_table=False`` leaves out the public table, which a broadcast encodes once).
        A seat whose forced move the table is about to make is told which and when
        (``forced``: ``{"action", "in"}``, seconds)."""
        game = self.game
        forced = None
        if seat is None:
            view = game.public_view()
            legal: list[dict[str, Any]] = []
        else:
            view = self._seat_view(seat)
            pending = seat in self._shared().due
            legal = self.legal(seat) if pending else []
            if pending and seat in self.forced_due and len(legal) == 1:
                left = max(0.0, self.forced_due[seat] - time.monotonic())
                forced = {"action": legal[0], "in": round(left, 2)}
        if events_from >= 0:  # only the events not sent yet are built, once per change
            events = game._redact(self._events_from(events_from), seat)
        else:
            events = (game.public_events() if seat is None else game.events_for(seat))[events_from:]
        log = self.log
        first_log = log[0]["n"] if log else self.log_count + 1
        floor, k = max(log_from, first_log - 1), len(log)
        while k and log[k - 1]["n"] > floor:  # entries are numbered in order: the new ones end it
            k -= 1
        frame = {
            "type": "state",
            "seq": self.seq,
            "generation": self.generation,
            "seat": seat,
            "view": view,
            "legal_actions": legal,
            "forced": forced,
            "events_from": events_from,
            "events": events,
            "log": log[k:],
        }
        if with_table:
            frame["table"] = self.public_table()
        return frame

    def summary(self) -> dict[str, Any]:
        """One line of the lobby."""
        return {
            "id": self.id,
            "game": self.game_name,
            "title": self.match.title,
            "players": self.players,
            "seats": self.public_seats(),
            "hand_number": self.hand_number,
            "totals": self.totals,
            "is_over": bool(self.game.is_over),
            "seq": self.seq,
        }
