"""Every table one server process serves (:class:`GameServer`): resuming the stored tables at
start-up, creating, joining, leaving and closing tables, and each accepted change stored (one
transaction) before every connection of the table is sent its new state. The WebSocket
protocol (:mod:`.protocol`) and the HTTP routes (:mod:`.routes`) call in here; each table's
bots and clock run in :mod:`.driver`.

A stored table that cannot be loaded or shown is reported and skipped; the others are served.

Each table is served by the one process that holds its lease (:class:`~.store.TableStore`):
this process renews its leases every ``min(heartbeat, lease / 3)`` seconds, takes over the open
tables whose leases ran out (their owner died: from the stored record, the downtime not counted
on the turn clocks), and stops serving a table whose lease it lost (:meth:`GameServer.lose`).
On PostgreSQL a request for a table another process serves is relayed to it (:mod:`.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .. import games, history
from ..errors import VncardsError
from .config import ServerConfig
from .driver import TableDriver
from .limits import Buckets
from .live import Connection, LiveTable, send_error
from .store import LeaseLost, StoredTable, TableStore, is_postgres
from .table import MAX_TURN_SECONDS, TableSession
from .wire import ActionRefused, EngineFault, Refused, check_int, dumps, finite

__all__ = ["GameServer", "CREATE_FIELDS"]

_log = logging.getLogger("vncards.server")


def _moved() -> ActionRefused:
    return ActionRefused(
        "table_moved", "another server process serves this table now; reconnect (the move was not made)"
    )


@dataclass(frozen=True)
class _Encoded:
    """A state frame encoded without its closing brace (the ``ack`` and the table follow), the
    number of engine events it carries and the number of its last table-log entry."""

    body: str
    events: int
    last_log: int | None


#: Fields a ``POST /api/tables`` body may hold.
CREATE_FIELDS = ("game", "players", "rules", "seats", "turn_seconds", "auto_forced")


class GameServer(TableDriver):
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
        #: Wrong operator tokens presented, per client.
        self.guess_buckets = Buckets(config.guess_rate, config.guess_burst)
        self._heartbeat: asyncio.Task[None] | None = None
        self.started_in: float = 0.0
        #: The link to the other processes of the database (PostgreSQL only; a
        #: :class:`~.relay.Relay`, set by :func:`~.app.create_app`).
        self.relay: Any = None

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store and resume every stored open table where it stopped; a row that
        cannot be resumed is kept, logged and listed in the lobby as broken."""
        t0 = time.perf_counter()
        store = self.store = TableStore(self.config.db, self.config.key, lease=self.config.lease)
        alive = store.last_alive()
        now = time.time()
        # A SQLite file is one process's: it takes every table at once. On PostgreSQL the
        # tables whose leases are running are another live process's.
        steal = not is_postgres(self.config.db)
        leases = {t: store.acquire(t, now, steal=steal) for t in store.free_tables(now, every=steal)}
        for row in store.load_all():
            lease = leases.get(row.id)
            if lease is None and row.problem is None:
                continue  # served by another process
            session = self._resume(row)
            if session is None:
                continue
            # The downtime does not count against the seat to act.
            served = (lease.served_until if lease else None) or alive or row.updated
            session.resume_clocks(now, min(served, now), self.config.resume_minimum)
            self._launch(session).snapshot_seq = row.seq
        store.beat()
        self._heartbeat = asyncio.create_task(self._beat(), name="heartbeat")
        self.started_in = time.perf_counter() - t0
        _log.info(
            "%d tables resumed, %d not resumed, in %.2f s (process %s)",
            len(self.tables),
            len(self.broken),
            self.started_in,
            store.owner,
        )

    def _session(self, row: StoredTable) -> TableSession:
        """The table of a stored row, its snapshot with the actions after it taken again
        (``Refused`` or ``SnapshotError`` if it cannot be trusted)."""
        session = TableSession.from_record(
            row.id,
            row.game,
            row.seq,
            row.meta,
            row.snapshot,
            self.config.key,
            forced_delay=self.config.forced_delay,
        )
        for i, entry in enumerate(row.actions):
            session.replay(entry, f"action row {row.seq + i + 1}")
        return session

    def _resume(self, row: StoredTable) -> TableSession | None:
        problem = row.problem
        if problem is None:
            try:
                return self._session(row)
            except (VncardsError, Refused) as e:
                problem = str(e)
            except Exception as e:  # a record no check foresaw: still only this table
                problem = f"{type(e).__name__}: {e}"
        self.report_broken(row.id, row.game, problem)
        return None

    def report_broken(self, table_id: str, game: str, problem: str) -> None:
        """Take note (logged, listed in the lobby) that table ``table_id`` cannot be served."""
        _log.error("table %s not served: %s", table_id, problem)
        self.broken[table_id] = {
            "id": table_id,
            "game": game if game in games.GAMES else None,
            "broken": problem[:300],
        }

    async def _beat(self) -> None:
        """Every ``min(heartbeat, lease / 3)`` seconds: renew this process's leases (stop
        serving the tables it lost; all of them once it could not renew for a whole lease),
        take over the tables no one holds, note the time, and let the relay check its links."""
        interval = min(self.config.heartbeat, self.config.lease / 3)
        renewed = time.monotonic()
        while True:
            await asyncio.sleep(interval)
            assert self.store is not None
            try:
                lost = self.store.renew()
                renewed = time.monotonic()
            except Exception:
                _log.exception("leases not renewed")
                if time.monotonic() - renewed < self.config.lease:
                    continue
                lost = set(self.tables)  # they may be another process's by now
            for table_id in lost:
                self.broken.pop(table_id, None)
                if (live := self.tables.get(table_id)) is not None:
                    self.lose(live)
            try:
                for table_id in self.store.free_tables():
                    self.take_over(table_id)
                self.store.beat()
                if self.relay is not None:
                    await self.relay.tick(interval)
            except Exception:
                _log.exception("tables not taken over")

    def take_over(self, table_id: str) -> LiveTable | None:
        """Serve table ``table_id`` if it is open and no process holds it (its owner died or
        let it go): take its lease, then resume it from its stored record (last snapshot and
        the actions after it), the turn clocks counting only the time it was served. ``None``
        if it is not to be served here."""
        store = self.store
        assert store is not None
        if table_id in self.tables or not store.is_open(table_id):
            return self.tables.get(table_id)
        lease = store.acquire(table_id)
        if lease is None:
            return None
        now = time.time()
        row = store.load(table_id)  # read after the lease is ours: no other write can follow
        if row is None or row.closed is not None:
            store.release(table_id)
            return None
        session = self._resume(row)
        if session is None:
            return None
        session.resume_clocks(now, min(lease.served_until or row.updated, now), self.config.resume_minimum)
        live = self._launch(session)
        live.snapshot_seq = row.seq
        _log.info("table %s taken over at seq %d (fencing token %d)", table_id, row.last_seq, lease.token)
        return live

    def lose(self, live: LiveTable) -> None:
        """Stop serving a table whose lease another process holds now: its task stops, its
        clients are let go with close code 1012 (they reconnect, and reach the new owner
        through whichever process they land on). Nothing is written: it may not write."""
        assert self.store is not None
        self.store.forget(live.session.id)
        self.forget(live)
        conns, live.conns = list(live.conns), []
        _log.warning("table %s: its lease was taken over; no longer served here", live.session.id)

        async def let_go() -> None:
            for conn in conns:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1012)

        asyncio.get_running_loop().create_task(let_go())

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
        if self.relay is not None:
            await self.relay.stop()
        if self.store is not None:
            with contextlib.suppress(Exception):
                self.store.beat()
            self.store.close()  # its leases released: another process may take the tables now

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
        try:
            self._save(session, closed=time.time())
        except LeaseLost:
            self.lose(live)
            raise _moved() from None
        self.forget(live)
        assert self.store is not None
        self.store.release(session.id)
        for conn in list(live.conns):
            await send_error(conn.ws, "table_closed", f"the table closed ({reason})")
            with contextlib.suppress(Exception):
                await conn.ws.close(code=4410)
        live.conns.clear()
        _log.info("table %s closed (%s)", session.id, reason)

    def forget(self, live: LiveTable) -> None:
        """Stop serving ``live`` (its task is cancelled; its row is kept as it is)."""
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
        live = self.live_table(table_id)
        async with live.lock:
            session = live.session
            token = session.join(seat, name)
            self._commit(live)
            await self._broadcast(live)
            shown = session.match.seats[seat].player or ""
        return token, shown

    async def leave(self, table_id: str, token: Any) -> dict[str, Any]:
        """The player holding ``token`` leaves its seat (between hands): a bot takes it."""
        live = self.live_table(table_id)
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
        live = self.live_table(table_id)
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
        live = self.live_table(table_id)
        async with live.lock:
            if not live.session.is_creator(token):
                raise ActionRefused("not_creator", "only the table's creator token may close it")
            await self.close_table(live, "closed by its creator")

    def _unseat(self, live: LiveTable, seat: int) -> None:
        """The connections of a seat whose token stopped working watch on as spectators."""
        for conn in live.conns:
            if conn.seat == seat:
                conn.seat, conn.generation = None, -1

    def route(self, table_id: str, relayed: bool = False) -> str | None:
        """Where a request for table ``table_id`` is served: ``None`` here (served here, taken
        over now, or no such table: the answer is then this process's), else the process that
        holds its lease. A ``relayed`` request is not relayed again (``table_moved``)."""
        if self.relay is None or table_id in self.tables or table_id in self.broken:
            return None
        assert self.store is not None
        owner = self.store.owner_of(table_id)
        if owner is None:
            if self.take_over(table_id) is not None:
                return None
            # Not taken here: there is no open table, or another process took the lease
            # between the two reads (it serves the table now: the request goes there, where
            # answering it here would say "no such table").
            owner = self.store.owner_of(table_id)
            if owner is None:
                return None
        if owner == self.store.owner:
            return None
        if relayed:
            raise _moved()
        return str(owner)

    def lobby_lines(self) -> list[dict[str, Any]]:
        """This process's lobby: every open table's line, then the broken ones: one table
        whose line cannot be made or encoded is reported and left out, never an error for
        the lobby."""
        lines = []
        for live in list(self.tables.values()):
            try:
                line = live.session.summary()
                line["spectators"] = sum(1 for c in live.conns if c.seat is None)
                dumps(line).encode("utf-8")
            except Exception as e:
                self.report_broken(
                    live.session.id, live.session.game_name, f"cannot be shown: {type(e).__name__}: {e}"
                )
                self.forget(live)
                continue
            lines.append(line)
        return [*lines, *self.broken.values()]

    def live_table(self, table_id: str) -> LiveTable:
        """The served table ``table_id`` (``no_table`` or ``table_broken`` if there is none; an
        open table no process holds is taken over first)."""
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
        session = live.session
        try:
            session.act(seat, action, by=by)
        except EngineFault:
            self._reload(live)
            raise
        self._commit(live, session.entry(seat, action, by))
        await self._broadcast(live, origin, ack)

    async def next_hand(self, live: LiveTable, origin: Connection | None = None, ack: Any = None) -> None:
        """Deal the table's next hand, store it, tell every client."""
        live.session.next_hand()
        self._commit(live)
        await self._broadcast(live, origin, ack)

    def _commit(self, live: LiveTable, entry: dict[str, Any] | None = None) -> None:
        """Store the change: an action (``entry``) as one row after the last snapshot, or a
        new snapshot: for any other change, at the end of a hand, and every
        ``snapshot_every`` actions. If the store refuses, the table goes back to its stored
        state."""
        session = live.session
        try:
            if (
                entry is not None
                and not session.game.is_over
                and session.seq - live.snapshot_seq < self.config.snapshot_every
            ):
                assert self.store is not None
                self.store.append(session.id, session.seq, entry)
            else:
                self._save(session)
                live.snapshot_seq = session.seq
        except LeaseLost:
            self.lose(live)
            raise _moved() from None
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
            live.snapshot_seq = row.seq

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
        except Exception as e:
            await self._unrenderable(live, e)
            return
        # What a seat is sent is made and encoded once per change, whatever the number of its
        # connections (and once for all the spectators that are up to date).
        frames: dict[tuple[int | None, int, int], _Encoded] = {}
        for conn in list(live.conns):
            await self.send_state(live, conn, ack if conn is origin else None, table, frames)

    async def _unrenderable(self, live: LiveTable, e: Exception) -> None:
        """A table whose data cannot be shown: reported, taken out of service, row kept."""
        self.report_broken(
            live.session.id, live.session.game_name, f"cannot be shown: {type(e).__name__}: {e}"
        )
        self.forget(live)
        for conn in list(live.conns):
            await send_error(
                conn.ws, "table_broken", "this table cannot be shown; the server operator was told"
            )
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1011)
        live.conns.clear()

    async def send_state(
        self,
        live: LiveTable,
        conn: Connection,
        ack: Any = None,
        table: str | None = None,
        frames: dict[tuple[int | None, int, int], _Encoded] | None = None,
    ) -> None:
        """Send ``conn`` its state frame (``ack`` if it answers one of its frames; ``table``: the
        public table, already encoded; ``frames``: the frames already encoded for this change,
        by seat and what the connection was sent before)."""
        session = live.session
        if conn.generation != session.generation:
            conn.generation, conn.events_sent = session.generation, 0
        key = (conn.seat, conn.events_sent, conn.log_sent)
        encoded = None if frames is None else frames.get(key)
        try:
            if encoded is None:
                frame = session.frame(conn.seat, conn.events_sent, conn.log_sent, with_table=False)
                log = frame["log"]
                encoded = _Encoded(dumps(frame)[:-1], len(frame["events"]), log[-1]["n"] if log else None)
                if frames is not None:
                    frames[key] = encoded
            if table is None:
                table = dumps(self.public_table(live))
            acked = "" if ack is None else ',"ack":' + dumps([ack])[1:-1]
            text = encoded.body + acked + ',"table":' + table + "}"
        except Exception as e:
            await self._unrenderable(live, e)
            return
        conn.events_sent += encoded.events
        if encoded.last_log is not None:
            conn.log_sent = encoded.last_log
        try:
            await conn.ws.send_text(text)
        except Exception:
            with contextlib.suppress(ValueError):
                live.conns.remove(conn)

    async def send_presence(self, live: LiveTable) -> None:
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
