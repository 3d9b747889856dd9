"""The ASGI application: the lobby and table pages, a small JSON API and one WebSocket per
client, over the sessions of :mod:`.session` and the store of :mod:`.store`.

HTTP (every endpoint, its body, answers and errors: ``docs/server.md``):

- ``GET /`` the lobby, ``GET /t/{id}`` a table page (static files, no build step);
- ``GET /api/server``: this server's limits and whether creating a table needs a token;
- ``GET /api/games``: each game with its seats, bots and rules schema;
- ``GET /api/words``: every game word the table page shows (codes, event sentences, the Mậu
  Binh rows, Tứ Sắc card names), from :mod:`vncards.words` and the engine;
- ``GET /api/tables``, ``POST /api/tables`` ``{"game", "players", "rules", "seats",
  "turn_seconds", "auto_forced"}`` -> the table and its ``creator_token``;
- ``GET /api/tables/{id}``; ``POST /api/tables/{id}/join`` ``{"seat", "name"}`` ->
  ``{"token", "seat", "name"}``; ``POST /api/tables/{id}/leave`` (the seat's token);
  ``POST /api/tables/{id}/seats/{seat}`` ``{"bot"}`` and ``POST /api/tables/{id}/close``
  (the creator token).

WebSocket ``/ws/{id}``: the client's first frame is ``{"type": "hello", "token": ...}`` (a
seat) or ``{"type": "hello"}`` (a spectator); then ``{"type": "act", "action": {...}, "id": n}``,
``{"type": "next_hand", "id": n}``, ``{"type": "ping", "id": n}`` and
``{"type": "explain", "action": {...}, "id": n}`` (why that action would be refused, changing
nothing: ``{"type": "explanation", "ack", "reason", "message"}``). The server answers
every change with a ``state`` frame per connection (``ack`` names the client frame it
answers), every refused frame with ``{"type": "error", "code", "message", "ack"}``, and a
change of who is connected with a ``presence`` frame.

No one client can take the server or a table: table creation and the other HTTP writes are
rate-limited per client, a client may hold only so many open tables and connections, a seat's
moves are rate-limited across all the connections that share its token, and a table whose
hand is over closes once idle (its row is kept). One table that cannot be loaded or shown is
reported and skipped; the others are served.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__, games, history
from ..bots import bot_names, bot_view
from ..errors import VncardsError
from .limits import Buckets, TokenBucket, client_key
from .session import (
    FORCED_DELAY,
    MAX_TURN_SECONDS,
    RESUME_MINIMUM,
    SEAT_ACTIONS_LIMIT,
    ActionRefused,
    EngineFault,
    TableSession,
    dumps,
)
from .store import StoredTable, TableStore
from .wire import MAX_NAME, Refused, check_int, finite, loads

__all__ = ["create_app", "ServerConfig", "GameServer"]

_log = logging.getLogger("vncards.server")

STATIC = Path(str(resources.files("vncards.server") / "static"))

#: Fields a ``POST /api/tables`` body may hold.
CREATE_FIELDS = ("game", "players", "rules", "seats", "turn_seconds", "auto_forced")


@dataclass(frozen=True)
class ServerConfig:
    """Limits and defaults of one server."""

    #: SQLite file (``":memory:"`` keeps nothing).
    db: str = "tables.sqlite"
    #: HMAC key for the stored rows and snapshots (``None``: unsigned).
    key: bytes | None = None
    #: Seconds a bot seat waits before acting (lets people follow the play).
    bot_delay: float = 0.6
    #: Turn time for new tables unless the request or the game's rules say otherwise.
    turn_seconds: float | None = None
    #: Seconds a seat's forced move waits before the table makes it.
    forced_delay: float = FORCED_DELAY
    #: After a restart, the least time the seat to act gets.
    resume_minimum: float = RESUME_MINIMUM
    #: Open tables on the server, all clients together.
    max_tables: int = 1000
    #: If set, ``POST /api/tables`` needs ``Authorization: Bearer <create_token>`` (an
    #: operator's token; its holder is not held to the per-client limits below).
    create_token: str | None = None
    #: Tables one client may create per second on average, and the burst above that.
    create_rate: float = 10 / 60
    create_burst: float = 5.0
    #: Open tables one client may have created.
    tables_per_client: int = 20
    #: Other HTTP writes (join, leave, seat changes) per client per second, and the burst.
    write_rate: float = 1.0
    write_burst: float = 20.0
    #: WebSocket connections one client may hold at once.
    conns_per_client: int = 64
    #: Connections sharing one seat token (a new one beyond closes the oldest).
    conns_per_seat: int = 4
    #: Spectator connections per table.
    spectators_per_table: int = 100
    #: Longest client frame accepted, in characters.
    max_message: int = 4096
    #: Client frames per second a connection may send on average, and the burst above that.
    rate: float = 10.0
    burst: float = 30.0
    #: Moves (act, next_hand) per second one seat may send, across all its connections.
    seat_rate: float = 4.0
    seat_burst: float = 8.0
    #: Refused frames in a row (flooding) after which the connection is closed.
    flood_close: int = 100
    #: Seconds a new connection has to say hello.
    hello_timeout: float = 10.0
    #: Seconds a table whose hand is over may sit unchanged before it closes (row kept).
    idle_close: float = 1800.0
    #: Seconds between the server's notes that it is alive (turn clocks after a crash).
    heartbeat: float = 2.0

    def limits(self) -> dict[str, Any]:
        """The limits a client meets, as ``GET /api/server`` shows them."""
        return {
            "tables_per_minute": round(self.create_rate * 60, 3),
            "tables_burst": self.create_burst,
            "tables_per_client": self.tables_per_client,
            "max_tables": self.max_tables,
            "writes_per_second": self.write_rate,
            "connections_per_client": self.conns_per_client,
            "connections_per_seat": self.conns_per_seat,
            "spectators_per_table": self.spectators_per_table,
            "frame_characters": self.max_message,
            "frames_per_second": self.rate,
            "frames_burst": self.burst,
            "moves_per_second_per_seat": self.seat_rate,
            "moves_burst_per_seat": self.seat_burst,
            "moves_per_seat_per_hand": SEAT_ACTIONS_LIMIT,
            "name_characters": MAX_NAME,
            "max_turn_seconds": MAX_TURN_SECONDS,
            "forced_delay_seconds": self.forced_delay,
            "idle_close_seconds": self.idle_close,
            "resume_minimum_seconds": self.resume_minimum,
        }


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a table: its seat (``None``: spectator) and what it was sent."""

    ws: WebSocket
    seat: int | None
    client: str = "?"
    generation: int = -1
    events_sent: int = 0
    log_sent: int = 0


@dataclass(eq=False)
class LiveTable:
    """A session with its connections, its lock and the task that runs its bots and timers."""

    session: TableSession
    conns: list[Connection] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    #: Moves per seat, shared by every connection holding the seat's token.
    seat_buckets: Buckets | None = None
    #: When the table last changed (monotonic), for closing idle tables.
    changed: float = field(default_factory=time.monotonic)


class GameServer:
    """Every table of one server, their store, and the protocol."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store: TableStore | None = None
        self.tables: dict[str, LiveTable] = {}
        #: Stored tables this server cannot serve, with the reason (kept, reported).
        self.broken: dict[str, dict[str, Any]] = {}
        self.owned: Counter[str] = Counter()
        self.client_conns: Counter[str] = Counter()
        self.create_buckets = Buckets(config.create_rate, config.create_burst)
        self.write_buckets = Buckets(config.write_rate, config.write_burst)
        self._heartbeat: asyncio.Task[None] | None = None
        self.started_in: float = 0.0

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store and resume every stored open table where it stopped; a row that
        cannot be resumed is kept, logged and listed in the lobby as broken."""
        t0 = time.perf_counter()
        self.store = TableStore(self.config.db, self.config.key)
        alive = self.store.last_alive()
        now = time.time()
        for row in self.store.load_all():
            session = self._resume(row)
            if session is None:
                continue
            # The downtime does not count against the seat to act.
            session.resume_clocks(now, min(alive or row.updated, now), self.config.resume_minimum)
            self._launch(session)
        self.store.beat()
        self._heartbeat = asyncio.create_task(self._beat(), name="heartbeat")
        self.started_in = time.perf_counter() - t0
        _log.info(
            "%d tables resumed, %d not resumed, in %.2f s",
            len(self.tables),
            len(self.broken),
            self.started_in,
        )

    def _session(self, row: StoredTable) -> TableSession:
        """The table of a stored row (``Refused`` or ``SnapshotError`` if it cannot be trusted)."""
        return TableSession.from_record(
            row.id,
            row.game,
            row.seq,
            row.meta,
            row.snapshot,
            self.config.key,
            forced_delay=self.config.forced_delay,
        )

    def _resume(self, row: StoredTable) -> TableSession | None:
        problem = row.problem
        if problem is None:
            try:
                return self._session(row)
            except (VncardsError, Refused) as e:
                problem = str(e)
            except Exception as e:  # a record no check foresaw: still only this table
                problem = f"{type(e).__name__}: {e}"
        self._report_broken(row.id, row.game, problem)
        return None

    def _report_broken(self, table_id: str, game: str, problem: str) -> None:
        _log.error("table %s not served: %s", table_id, problem)
        self.broken[table_id] = {
            "id": table_id,
            "game": game if game in games.GAMES else None,
            "broken": problem[:300],
        }

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.config.heartbeat)
            if self.store is not None:
                try:
                    self.store.beat()
                except Exception:
                    _log.exception("heartbeat not stored")

    async def stop(self) -> None:
        """Stop every table's task and close the store (their rows hold everything)."""
        tasks = [live.task for live in self.tables.values() if live.task is not None]
        if self._heartbeat is not None:
            tasks.append(self._heartbeat)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.store is not None:
            with contextlib.suppress(Exception):
                self.store.beat()
            self.store.close()

    def _launch(self, session: TableSession) -> LiveTable:
        live = LiveTable(session, seat_buckets=Buckets(self.config.seat_rate, self.config.seat_burst))
        self.tables[session.id] = live
        if session.owner is not None:
            self.owned[session.owner] += 1
        live.task = asyncio.create_task(self._drive(live), name=f"table-{session.id}")
        return live

    def _save(self, session: TableSession, new_row: bool = False, closed: float | None = None) -> None:
        """Store the table's row, and the hands that finished since, in one transaction."""
        assert self.store is not None
        meta, snapshot = session.to_record()
        if new_row:
            self.store.insert(session.id, session.game_name, meta, snapshot)
            return
        hands = [(h.number or 0, history.dumps(h)) for h in session.finished]
        self.store.update(session.id, session.game_name, session.seq, meta, snapshot, closed, hands)
        session.finished.clear()

    async def close_table(self, live: LiveTable, reason: str) -> None:
        """Close a table: its row is kept (marked closed), its clients are told and let go."""
        session = live.session
        self._save(session, closed=time.time())
        self._forget(live)
        for conn in list(live.conns):
            await _error(conn.ws, "table_closed", f"the table closed ({reason})")
            with contextlib.suppress(Exception):
                await conn.ws.close(code=4410)
        live.conns.clear()
        _log.info("table %s closed (%s)", session.id, reason)

    def _forget(self, live: LiveTable) -> None:
        if self.tables.get(live.session.id) is live:
            del self.tables[live.session.id]
            owner = live.session.owner
            if owner is not None:
                self.owned[owner] -= 1
                if self.owned[owner] <= 0:
                    del self.owned[owner]
        if live.task is not None and live.task is not asyncio.current_task():
            live.task.cancel()

    # -- tables --------------------------------------------------------------------------------

    def create_table(
        self, body: dict[str, Any], client: str = "?", operator: bool = False
    ) -> tuple[TableSession, str]:
        """A new stored table from a lobby request, and its creator token (``Refused``,
        ``ActionRefused`` or ``RulesError`` if the request is bad or over a limit)."""
        unknown = set(body) - set(CREATE_FIELDS)
        if unknown:
            raise ActionRefused(
                "malformed", f"unknown fields {sorted(unknown)} (fields: {', '.join(CREATE_FIELDS)})"
            )
        game, players, rules = body.get("game"), body.get("players"), body.get("rules")
        seats, turn = body.get("seats"), body.get("turn_seconds", self.config.turn_seconds)
        auto_forced = body.get("auto_forced", True)
        if not isinstance(game, str) or game not in games.GAMES:
            raise ActionRefused("unknown_game", f"games: {', '.join(games.GAMES)}")
        if players is not None:
            players = check_int(players, "players", 1, 16)
        if rules is not None and not isinstance(rules, dict):
            raise ActionRefused("malformed", "rules is an object of option values")
        if seats is not None and (
            not isinstance(seats, list) or not all(s is None or isinstance(s, str) for s in seats)
        ):
            raise ActionRefused("malformed", "seats is a list of bot names or null")
        if turn is not None:
            turn = finite(turn, "turn_seconds", 1e-3, MAX_TURN_SECONDS)
        if not isinstance(auto_forced, bool):
            raise ActionRefused("malformed", "auto_forced is true or false")
        if len(self.tables) >= self.config.max_tables:
            raise ActionRefused("too_many_tables", "this server has no room for another table")
        if not operator:
            if self.owned[client] >= self.config.tables_per_client:
                raise ActionRefused(
                    "client_table_limit",
                    f"you have {self.config.tables_per_client} open tables, the most one client may "
                    "(close one, or wait until one closes)",
                )
            if not self.create_buckets.take(client):
                raise ActionRefused("rate_limited", "too many tables created; wait a little")
        table_id = secrets.token_urlsafe(6)
        session = TableSession.create(
            table_id,
            game,
            players=players,
            rules=rules,
            seats=seats,
            turn_seconds=turn,
            bot_delay=self.config.bot_delay,
            auto_forced=auto_forced,
            forced_delay=self.config.forced_delay,
            owner=client,
            key=self.config.key,
        )
        token = session.issue_creator_token()
        self._save(session, new_row=True)
        self._launch(session)
        return session, token

    async def join(self, table_id: str, seat: Any, name: Any) -> tuple[str, str]:
        """Give ``seat`` of table ``table_id`` to a player: the new seat token (stored) and
        the name the seat shows."""
        live = self._live(table_id)
        async with live.lock:
            session = live.session
            token = session.join(seat, name)
            self._commit(live)
            await self._broadcast(live)
            shown = session.match.seats[seat].player or ""
        return token, shown

    async def leave(self, table_id: str, token: Any) -> dict[str, Any]:
        """The player holding ``token`` leaves its seat (between hands): a bot takes it."""
        live = self._live(table_id)
        async with live.lock:
            seat = live.session.seat_of(token)
            if seat is None:
                raise ActionRefused("bad_token", "that token holds no seat at this table")
            live.session.leave(seat)
            self._unseat(live, seat)
            self._commit(live)
            await self._broadcast(live)
            return live.session.public_seat(seat)

    async def replace(self, table_id: str, token: Any, seat: Any, bot: Any) -> dict[str, Any]:
        """The creator hands ``seat`` to ``bot`` (or opens it: ``None``)."""
        live = self._live(table_id)
        async with live.lock:
            if not live.session.is_creator(token):
                raise ActionRefused("not_creator", "only the table's creator token may change seats")
            index = live.session.replace(seat, bot)
            self._unseat(live, index)
            self._commit(live)
            await self._broadcast(live)
            return live.session.public_seat(index)

    async def close_by_creator(self, table_id: str, token: Any) -> None:
        """The creator closes the table (its row is kept)."""
        live = self._live(table_id)
        async with live.lock:
            if not live.session.is_creator(token):
                raise ActionRefused("not_creator", "only the table's creator token may close it")
            await self.close_table(live, "closed by its creator")

    def _unseat(self, live: LiveTable, seat: int) -> None:
        """The connections of a seat whose token stopped working watch on as spectators."""
        for conn in live.conns:
            if conn.seat == seat:
                conn.seat, conn.generation = None, -1

    def _live(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            if table_id in self.broken:
                raise ActionRefused("table_broken", f"table {table_id!r} cannot be served")
            raise ActionRefused("no_table", f"no table {table_id!r}")
        return live

    # -- changes -------------------------------------------------------------------------------

    async def act(
        self,
        live: LiveTable,
        seat: int,
        action: Any,
        by: str = "player",
        origin: Connection | None = None,
        ack: Any = None,
    ) -> None:
        """One accepted action: apply, store (one transaction), then tell every client (the
        sender's frame carries ``ack``)."""
        try:
            live.session.act(seat, action, by=by)
        except EngineFault:
            self._reload(live)
            raise
        self._commit(live)
        await self._broadcast(live, origin, ack)

    async def next_hand(self, live: LiveTable, origin: Connection | None = None, ack: Any = None) -> None:
        """Deal the table's next hand, store it, tell every client."""
        live.session.next_hand()
        self._commit(live)
        await self._broadcast(live, origin, ack)

    def _commit(self, live: LiveTable) -> None:
        """Store the session; if the store refuses, the table goes back to its stored state."""
        try:
            self._save(live.session)
        except Exception:
            self._reload(live)
            raise
        live.changed = time.monotonic()
        live.wake.set()

    def _reload(self, live: LiveTable) -> None:
        """Put the table back to its stored row (after a failed write or an engine fault)."""
        assert self.store is not None
        row = self.store.load(live.session.id)
        if row is not None and row.problem is None:
            live.session = self._session(row)

    def public_table(self, live: LiveTable) -> dict[str, Any]:
        """The session's public table with who is connected: ``spectators`` (a count) and
        each seat's ``connected``."""
        table = live.session.public_table()
        here = {c.seat for c in live.conns}
        table["spectators"] = sum(1 for c in live.conns if c.seat is None)
        for seat in table["seats"]:
            seat["connected"] = seat["seat"] in here
        return table

    async def _broadcast(self, live: LiveTable, origin: Connection | None = None, ack: Any = None) -> None:
        try:
            table = dumps(self.public_table(live))  # the same for everyone: encoded once
            table.encode("utf-8")
        except Exception as e:
            await self._unrenderable(live, e)
            return
        for conn in list(live.conns):
            await self._send_state(live, conn, ack if conn is origin else None, table)

    async def _unrenderable(self, live: LiveTable, e: Exception) -> None:
        """A table whose data cannot be shown: reported, taken out of service, row kept."""
        self._report_broken(
            live.session.id, live.session.game_name, f"cannot be shown: {type(e).__name__}: {e}"
        )
        self._forget(live)
        for conn in list(live.conns):
            await _error(conn.ws, "table_broken", "this table cannot be shown; the server operator was told")
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1011)
        live.conns.clear()

    async def _send_state(
        self, live: LiveTable, conn: Connection, ack: Any = None, table: str | None = None
    ) -> None:
        session = live.session
        if conn.generation != session.generation:
            conn.generation, conn.events_sent = session.generation, 0
        frame = session.frame(conn.seat, conn.events_sent, conn.log_sent, with_table=False)
        if ack is not None:
            frame["ack"] = ack
        try:
            if table is None:
                table = dumps(self.public_table(live))
            text = dumps(frame)[:-1] + ',"table":' + table + "}"
            text.encode("utf-8")
        except Exception as e:
            await self._unrenderable(live, e)
            return
        conn.events_sent += len(frame["events"])
        if frame["log"]:
            conn.log_sent = frame["log"][-1]["n"]
        try:
            await conn.ws.send_text(text)
        except Exception:
            with contextlib.suppress(ValueError):
                live.conns.remove(conn)

    async def _presence(self, live: LiveTable) -> None:
        """Tell every client who is connected (after a connection came or went)."""
        table = self.public_table(live)
        text = dumps(
            {
                "type": "presence",
                "spectators": table["spectators"],
                "connected": [s["connected"] for s in table["seats"]],
            }
        )
        for conn in list(live.conns):
            with contextlib.suppress(Exception):
                await conn.ws.send_text(text)

    # -- bots, forced moves, time-outs, idle tables --------------------------------------------

    async def _drive(self, live: LiveTable) -> None:
        """Run the table's bots, forced moves and turn timers, and close it once idle."""
        while self.tables.get(live.session.id) is live:
            try:
                if await self._drive_once(live):
                    return
            except asyncio.CancelledError:
                raise
            except Exception:
                # A failure here is this table's alone: logged, and tried again shortly.
                _log.exception("table %s: a move the table makes by itself failed", live.session.id)
                await asyncio.sleep(1.0)

    async def _drive_once(self, live: LiveTable) -> bool:
        """Wait for the next thing the table does by itself and do it (True: it closed)."""
        live.wake.clear()
        session = live.session
        due = session.next_due(time.time(), time.monotonic())
        idle_left = None
        if session.game.is_over:
            idle_left = live.changed + self.config.idle_close - time.monotonic()
            if idle_left <= 0:
                async with live.lock:
                    if live.session.game.is_over and self.tables.get(live.session.id) is live:
                        await self.close_table(live, "idle")
                        return True
                return False
        if due is None or due[0] > 0:
            waits = [w for w in (None if due is None else due[0], idle_left) if w is not None]
            # asyncio.TimeoutError: on 3.10 wait_for raises it, and it is not TimeoutError yet
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(live.wake.wait(), min(waits) if waits else None)
            return False
        _, seat, by = due
        if by == "forced":
            await self._forced_move(live, seat)
        else:
            await self._bot_turn(live, seat, by)
        return False

    async def _forced_move(self, live: LiveTable, seat: int) -> None:
        async with live.lock:
            session = live.session
            if not session.is_due(seat, "forced"):
                return
            choice = session.forced_choice(seat)
            if choice is None:
                session.forced_due.pop(seat, None)
                return
            try:
                await self.act(live, seat, choice, by="forced")
            except ActionRefused:
                live.session.forced_due.pop(seat, None)

    async def _bot_turn(self, live: LiveTable, seat: int, by: str) -> None:
        for _ in range(4):
            async with live.lock:
                session = live.session
                if not session.is_due(seat, by):
                    return
                seq = session.seq
                view = bot_view(session.game, seat)  # the seat's view and its events
                legal = [] if session.game.is_over else session.legal(seat)
                bot = session.bot_for(seat, by)
            if not legal:
                return
            choice = await asyncio.to_thread(bot.choose, view, legal)
            async with live.lock:
                if live.session.seq != seq or not live.session.is_due(seat, by):
                    continue  # the table moved on while the bot thought
                try:
                    await self.act(live, seat, choice, by=by)
                except ActionRefused:
                    continue
            if by == "bot" or not live.session.is_due(seat, by):
                return

    # -- the WebSocket protocol ----------------------------------------------------------------

    async def websocket(self, ws: WebSocket) -> None:
        """One client's connection: hello, then act / next_hand / ping frames until it goes."""
        await ws.accept()
        table_id = ws.path_params["table_id"]
        live = self.tables.get(table_id)
        if live is None:
            code = "table_broken" if table_id in self.broken else "no_table"
            await _error(ws, code, "no such table" if code == "no_table" else "this table cannot be served")
            await ws.close(code=4404)
            return
        client = client_key(ws.client.host if ws.client else None)
        if self.client_conns[client] >= self.config.conns_per_client:
            await _error(ws, "too_many_connections", "too many connections from your address")
            await ws.close(code=1013)
            return
        self.client_conns[client] += 1
        bucket = TokenBucket(self.config.rate, self.config.burst)
        conn: Connection | None = None
        refused = 0
        try:
            while True:
                timeout = self.config.hello_timeout if conn is None else None
                try:
                    text = await asyncio.wait_for(_receive_text(ws), timeout)
                except asyncio.TimeoutError:  # not TimeoutError on 3.10
                    await _error(ws, "no_hello", "say hello first")
                    await ws.close(code=1008)
                    return
                ack: Any = None
                try:
                    if not bucket.take():
                        raise ActionRefused("rate_limited", "too many messages; slow down")
                    if text is None or len(text) > self.config.max_message:
                        raise ActionRefused(
                            "too_large", f"frames are text of at most {self.config.max_message} characters"
                        )
                    msg = _parse(text)
                    ack = msg.get("id")
                    if not (
                        ack is None
                        or (isinstance(ack, int) and not isinstance(ack, bool) and abs(ack) < 2**53)
                    ):
                        ack = None
                        raise ActionRefused("malformed", "id is an integer")
                    if conn is None:
                        conn = await self._hello(live, ws, msg, client)
                        refused = 0
                        continue
                    await self._handle(live, conn, msg, ack)
                    refused = 0
                except ActionRefused as e:
                    refused += 1
                    await _error(ws, e.code, e.message, ack)
                    if refused >= self.config.flood_close:
                        await ws.close(code=1008)
                        return
                if live.task is None or self.tables.get(table_id) is not live:
                    return  # the table closed
        except WebSocketDisconnect:
            pass
        finally:
            self.client_conns[client] -= 1
            if self.client_conns[client] <= 0:
                del self.client_conns[client]
            if conn is not None and conn in live.conns:
                live.conns.remove(conn)
                await self._presence(live)

    async def _hello(self, live: LiveTable, ws: WebSocket, msg: dict[str, Any], client: str) -> Connection:
        if msg.get("type") != "hello":
            raise ActionRefused("not_joined", "say hello first: {'type': 'hello', 'token': ...}")
        if set(msg) - {"type", "token", "id"}:
            raise ActionRefused("malformed", "a hello frame has type, token and id")
        seat = None
        if "token" in msg and msg["token"] is not None:
            seat = live.session.seat_of(msg["token"])
            if seat is None:
                raise ActionRefused("bad_token", "that token holds no seat at this table")
        conn = Connection(ws, seat, client)
        async with live.lock:
            if self.tables.get(live.session.id) is not live:
                raise ActionRefused("table_closed", "the table closed")
            if seat is None:
                if sum(1 for c in live.conns if c.seat is None) >= self.config.spectators_per_table:
                    raise ActionRefused(
                        "too_many_spectators", "this table has as many spectators as it takes"
                    )
            else:
                same = [c for c in live.conns if c.seat == seat]
                for old in same[: max(0, len(same) - self.config.conns_per_seat + 1)]:
                    live.conns.remove(old)
                    await _error(old.ws, "replaced", "this seat was opened on another connection")
                    with contextlib.suppress(Exception):
                        await old.ws.close(code=4009)
            live.conns.append(conn)
            await self._send_state(live, conn, ack=msg.get("id"))
            await self._presence(live)
        return conn

    async def _handle(self, live: LiveTable, conn: Connection, msg: dict[str, Any], ack: Any) -> None:
        kind = msg.get("type")
        if kind == "ping":
            await conn.ws.send_text(dumps({"type": "pong", "ack": ack}))
            return
        if kind == "explain":
            if set(msg) - {"type", "action", "id"}:
                raise ActionRefused("malformed", "an explain frame has type, action and id")
            if conn.seat is None:
                raise ActionRefused("spectator", "spectators cannot act")
            why = live.session.explain(conn.seat, msg.get("action"))
            answer = {"type": "explanation", "ack": ack, "reason": None, "message": None}
            if why is not None:
                answer.update(reason=why.code, message=why.message)
            await conn.ws.send_text(dumps(answer))
            return
        if kind not in ("act", "next_hand"):
            raise ActionRefused("malformed", f"unknown message type {kind!r}")
        if conn.seat is None:
            raise ActionRefused("spectator", "spectators cannot act")
        assert live.seat_buckets is not None
        if not live.seat_buckets.take(conn.seat):
            raise ActionRefused("rate_limited", "too many moves from this seat; slow down")
        async with live.lock:
            if conn.seat is None:
                raise ActionRefused("spectator", "spectators cannot act")
            if kind == "act":
                if set(msg) - {"type", "action", "id"}:
                    raise ActionRefused("malformed", "an act frame has type, action and id")
                await self.act(live, conn.seat, msg.get("action"), origin=conn, ack=ack)
            else:
                if set(msg) - {"type", "id"}:
                    raise ActionRefused("malformed", "a next_hand frame has type and id")
                await self.next_hand(live, origin=conn, ack=ack)


async def _receive_text(ws: WebSocket) -> str | None:
    """The next text frame (``None`` for a binary frame); WebSocketDisconnect when closed."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if isinstance(text, str) else None


def _parse(text: str) -> dict[str, Any]:
    try:
        msg = loads(text, "frame")
    except Refused as e:
        raise ActionRefused(e.code, e.message) from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ActionRefused("malformed", "frames are JSON objects with a 'type'")
    return msg


async def _error(ws: WebSocket, code: str, message: str, ack: Any = None) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "code": code, "message": message, "ack": ack}))


# -- HTTP ------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def page_words() -> dict[str, Any]:
    """Every game word the browser table shows, from :mod:`vncards.words` and the engine, so
    the page keeps no word table of its own: ``terms`` (codes in words), ``events`` (event
    sentences), ``rows`` (the Mậu Binh hands, back to front: code, English, Vietnamese) and
    ``cards`` (each Tứ Sắc card code by its name)."""
    from .._core import TuSacCard
    from ..words import EVENT_WORDS, ROWS, TERMS

    pieces = {r + c: TuSacCard(r + c).name for r in "KAERCHP" for c in "YRGW"}
    return {"terms": TERMS, "events": EVENT_WORDS, "rows": [list(r) for r in ROWS], "cards": pieces}


#: HTTP status of each refusal code (400 for the others).
STATUS = {
    "unauthorized": 401,
    "not_creator": 403,
    "bad_token": 403,
    "no_table": 404,
    "table_broken": 410,
    "seat_taken": 409,
    "hand_in_play": 409,
    "not_seated": 409,
    "rate_limited": 429,
    "client_table_limit": 429,
    "too_large": 413,
    "too_many_tables": 503,
}


def _refusal(e: ActionRefused | Refused | VncardsError) -> JSONResponse:
    if isinstance(e, (ActionRefused, Refused)):
        code, message = e.code, e.message
    else:
        code, message = getattr(e, "reason", None) or "rules_error", str(e)
    headers = {"retry-after": "10"} if STATUS.get(code) == 429 else None
    return JSONResponse(
        {"error": code, "message": message}, status_code=STATUS.get(code, 400), headers=headers
    )


async def _json_body(request: Request, limit: int = 16384, *, optional: bool = False) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if optional and size in (None, "0"):
        return {}
    if size is None or not size.isdigit() or int(size) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    body = await request.body()
    if len(body) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    try:
        data = loads(body, "body")
    except Refused as e:
        raise ActionRefused(e.code, e.message) from None
    if not isinstance(data, dict):
        raise ActionRefused("malformed", "the body is a JSON object")
    return data


def _bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _client(request: Request) -> str:
    return client_key(request.client.host if request.client else None)


Handler = Callable[[Request], Awaitable[Response]]


def _endpoint(fn: Handler) -> Handler:
    """An API handler whose refusals become JSON answers (400, 404, 409, 429, ...) and whose
    failures are logged and answered 500 with a JSON body; never a traceback."""

    async def handler(request: Request) -> Response:
        try:
            return await fn(request)
        except (ActionRefused, Refused, VncardsError) as e:
            return _refusal(e)
        except Exception:
            _log.exception("%s %s failed", request.method, request.url.path)
            return JSONResponse({"error": "internal", "message": "the server failed; it was logged"}, 500)

    return handler


def _operator(server: GameServer, request: Request) -> bool:
    """Does the request carry the operator's token (``Authorization: Bearer <create_token>``)?"""
    token, given = server.config.create_token, _bearer(request)
    return token is not None and given is not None and hmac.compare_digest(given.encode(), token.encode())


def _write_limited(server: GameServer, request: Request) -> None:
    if not _operator(server, request) and not server.write_buckets.take(_client(request)):
        raise ActionRefused("rate_limited", "too many requests; wait a little")


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server as an ASGI app (``uvicorn.run(create_app(...))``); ``app.state.server`` is
    its :class:`GameServer`."""
    server = GameServer(config or ServerConfig())

    async def lobby(request: Request) -> Response:
        return FileResponse(STATIC / "lobby.html")

    async def table_page(request: Request) -> Response:
        return FileResponse(STATIC / "table.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @_endpoint
    async def api_server(request: Request) -> Response:
        return JSONResponse(
            {
                "version": __version__,
                "create_token_required": server.config.create_token is not None,
                "tables": len(server.tables),
                "limits": server.config.limits(),
            }
        )

    @_endpoint
    async def api_games(request: Request) -> Response:
        out = []
        for name, spec in games.GAMES.items():
            cls = spec.game_class()
            out.append(
                {
                    "name": name,
                    "title": spec.title,
                    "min_players": cls.MIN_PLAYERS,
                    "max_players": cls.MAX_PLAYERS,
                    "bots": bot_names(name),
                    "rules": games.rules_schema(name),
                }
            )
        return JSONResponse(out)

    @_endpoint
    async def api_words(request: Request) -> Response:
        return JSONResponse(page_words())

    def lobby_lines() -> str:
        """Every open table's lobby line, then the broken ones: one table whose line cannot
        be made or encoded is reported and left out, never an error for the lobby."""
        lines = []
        for live in list(server.tables.values()):
            try:
                line = live.session.summary()
                line["spectators"] = sum(1 for c in live.conns if c.seat is None)
                dumps(line).encode("utf-8")
            except Exception as e:
                server._report_broken(
                    live.session.id, live.session.game_name, f"cannot be shown: {type(e).__name__}: {e}"
                )
                server._forget(live)
                continue
            lines.append(line)
        return dumps([*lines, *server.broken.values()])

    @_endpoint
    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return Response(lobby_lines().encode("utf-8"), media_type="application/json")
        operator = _operator(server, request)
        if server.config.create_token is not None and not operator:
            raise ActionRefused("unauthorized", "creating a table needs the operator's token")
        session, creator = server.create_table(await _json_body(request), _client(request), operator)
        return JSONResponse({**session.summary(), "creator_token": creator}, status_code=201)

    @_endpoint
    async def api_table(request: Request) -> Response:
        live = server._live(request.path_params["table_id"])
        return JSONResponse({**live.session.summary(), "table": server.public_table(live)})

    @_endpoint
    async def api_join(request: Request) -> Response:
        _write_limited(server, request)
        body = await _json_body(request)
        if set(body) - {"seat", "name"}:
            raise ActionRefused("malformed", "a join body has seat and name")
        token, name = await server.join(request.path_params["table_id"], body.get("seat"), body.get("name"))
        return JSONResponse({"token": token, "seat": body.get("seat"), "name": name})

    @_endpoint
    async def api_leave(request: Request) -> Response:
        _write_limited(server, request)
        seat = await server.leave(request.path_params["table_id"], _bearer(request))
        return JSONResponse(seat)

    @_endpoint
    async def api_seat(request: Request) -> Response:
        _write_limited(server, request)
        body = await _json_body(request)
        if set(body) != {"bot"}:
            raise ActionRefused("malformed", "a seat body is {'bot': a bot name or null}")
        raw = request.path_params["seat"]
        seat = int(raw) if raw.isdigit() and len(raw) < 4 else raw
        out = await server.replace(request.path_params["table_id"], _bearer(request), seat, body["bot"])
        return JSONResponse(out)

    @_endpoint
    async def api_close(request: Request) -> Response:
        _write_limited(server, request)
        table_id = request.path_params["table_id"]
        await server.close_by_creator(table_id, _bearer(request))
        return JSONResponse({"id": table_id, "closed": True})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = Starlette(
        routes=[
            Route("/", lobby),
            Route("/t/{table_id}", table_page),
            Route("/favicon.ico", favicon),
            Route("/api/server", api_server),
            Route("/api/games", api_games),
            Route("/api/words", api_words),
            Route("/api/tables", api_tables, methods=["GET", "POST"]),
            Route("/api/tables/{table_id}", api_table),
            Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
            Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
            Route("/api/tables/{table_id}/seats/{seat}", api_seat, methods=["POST"]),
            Route("/api/tables/{table_id}/close", api_close, methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", server.websocket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
