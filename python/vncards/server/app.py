"""The ASGI application: the lobby and table pages, a small JSON API and one WebSocket per
client, over the sessions of :mod:`.session` and the store of :mod:`.store`.

HTTP:

- ``GET /`` the lobby, ``GET /t/{id}`` a table page (static files, no build step);
- ``GET /api/games``: each game with its seats, bots and rules schema;
- ``GET /api/words``: the engine's codes (payment reasons, events, melds) in words;
- ``GET /api/tables``, ``POST /api/tables`` ``{"game", "players", "rules", "seats",
  "turn_seconds"}``;
- ``POST /api/tables/{id}/join`` ``{"seat", "name"}`` -> ``{"token", "seat"}``.

WebSocket ``/ws/{id}``: the client's first frame is ``{"type": "hello", "token": ...}`` (a
seat) or ``{"type": "hello"}`` (a spectator); then ``{"type": "act", "action": {...}, "id": n}``,
``{"type": "next_hand", "id": n}`` and ``{"type": "ping", "id": n}``. The server answers
every change with a ``state`` frame per connection (``ack`` names the client frame it
answers) and every refused frame with ``{"type": "error", "code", "message", "ack"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
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

from .. import games
from ..bots import bot_names
from ..errors import VncardsError
from .session import ActionRefused, EngineFault, TableSession, dumps
from .store import TableStore

__all__ = ["create_app", "ServerConfig", "GameServer"]

_log = logging.getLogger("vncards.server")

STATIC = Path(str(resources.files("vncards.server") / "static"))


@dataclass(frozen=True)
class ServerConfig:
    """Limits and defaults of one server."""

    #: SQLite file (``":memory:"`` keeps nothing).
    db: str = "tables.sqlite"
    #: HMAC key for the stored snapshots (``None``: unsigned).
    key: bytes | None = None
    #: Seconds a bot seat waits before acting (lets people follow the play).
    bot_delay: float = 0.6
    #: Turn time for new tables unless the request or the game's rules say otherwise.
    turn_seconds: float | None = None
    max_tables: int = 1000
    #: Longest client frame accepted, in characters.
    max_message: int = 4096
    #: Client frames per second a connection may send on average, and the burst above that.
    rate: float = 10.0
    burst: float = 30.0
    #: Refused frames in a row (flooding) after which the connection is closed.
    flood_close: int = 100
    #: Seconds a new connection has to say hello.
    hello_timeout: float = 10.0


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` spends one if there is one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Connection:
    """One WebSocket client of a table: its seat (``None``: spectator) and what it was sent."""

    ws: WebSocket
    seat: int | None
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


class GameServer:
    """Every table of one server, their store, and the protocol."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store: TableStore | None = None
        self.tables: dict[str, LiveTable] = {}

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store and resume every stored table where it stopped."""
        self.store = TableStore(self.config.db)
        for row in self.store.load_all():
            try:
                session = TableSession.from_record(
                    row.id, row.game, row.seq, row.meta, row.snapshot, self.config.key
                )
            except (VncardsError, KeyError, TypeError, ValueError) as e:
                # A row this server cannot trust (tampered, wrong key) stays stored, unserved.
                _log.error("table %s not resumed: %s", row.id, e)
                continue
            self._launch(session)

    async def stop(self) -> None:
        """Stop every table's task and close the store (their rows hold everything)."""
        for live in self.tables.values():
            if live.task is not None:
                live.task.cancel()
        for live in self.tables.values():
            if live.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await live.task
        if self.store is not None:
            self.store.close()

    def _launch(self, session: TableSession) -> LiveTable:
        live = LiveTable(session)
        self.tables[session.id] = live
        live.task = asyncio.create_task(self._drive(live), name=f"table-{session.id}")
        return live

    def _save(self, session: TableSession, new_row: bool = False) -> None:
        assert self.store is not None
        meta, snapshot = session.to_record()
        if new_row:
            self.store.insert(session.id, session.game_name, meta, snapshot)
        else:
            self.store.update(session.id, session.seq, meta, snapshot)

    # -- tables --------------------------------------------------------------------------------

    def create_table(self, body: dict[str, Any]) -> TableSession:
        """A new stored table from a lobby request (``RulesError``/``ActionRefused`` if bad)."""
        if len(self.tables) >= self.config.max_tables:
            raise ActionRefused("too_many_tables", "this server has no room for another table")
        unknown = set(body) - {"game", "players", "rules", "seats", "turn_seconds"}
        if unknown:
            raise ActionRefused("malformed", f"unknown fields {sorted(unknown)}")
        game, players, rules = body.get("game"), body.get("players"), body.get("rules")
        seats, turn = body.get("seats"), body.get("turn_seconds", self.config.turn_seconds)
        if not isinstance(game, str) or game not in games.GAMES:
            raise ActionRefused("unknown_game", f"games: {', '.join(games.GAMES)}")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise ActionRefused("malformed", "players is a number")
        if rules is not None and not isinstance(rules, dict):
            raise ActionRefused("malformed", "rules is an object of option values")
        if seats is not None and (
            not isinstance(seats, list) or not all(s is None or isinstance(s, str) for s in seats)
        ):
            raise ActionRefused("malformed", "seats is a list of bot names or null")
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, (int, float))):
            raise ActionRefused("malformed", "turn_seconds is a number")
        table_id = secrets.token_urlsafe(6)
        session = TableSession.create(
            table_id,
            game,
            players=players,
            rules=rules,
            seats=seats,
            turn_seconds=turn,
            bot_delay=self.config.bot_delay,
            key=self.config.key,
        )
        self._save(session, new_row=True)
        self._launch(session)
        return session

    async def join(self, table_id: str, seat: Any, name: Any) -> str:
        """Give ``seat`` of table ``table_id`` to a player: the new seat token (stored)."""
        live = self._live(table_id)
        async with live.lock:
            token = live.session.join(seat, name if isinstance(name, str) else None)
            self._save(live.session)
            await self._broadcast(live)
        return token

    def _live(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
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
        live.wake.set()

    def _reload(self, live: LiveTable) -> None:
        """Put the table back to its stored row (after a failed write or an engine fault)."""
        assert self.store is not None
        row = self.store.load(live.session.id)
        if row is not None:
            live.session = TableSession.from_record(
                row.id, row.game, row.seq, row.meta, row.snapshot, self.config.key
            )

    async def _broadcast(self, live: LiveTable, origin: Connection | None = None, ack: Any = None) -> None:
        table = dumps(live.session.public_table())  # the same for everyone: encoded once
        for conn in list(live.conns):
            await self._send_state(live, conn, ack if conn is origin else None, table)

    async def _send_state(
        self, live: LiveTable, conn: Connection, ack: Any = None, table: str | None = None
    ) -> None:
        session = live.session
        if conn.generation != session.generation:
            conn.generation, conn.events_sent = session.generation, 0
        frame = session.frame(conn.seat, conn.events_sent, conn.log_sent, with_table=False)
        conn.events_sent += len(frame["events"])
        if frame["log"]:
            conn.log_sent = frame["log"][-1]["n"]
        if ack is not None:
            frame["ack"] = ack
        if table is None:
            table = dumps(session.public_table())
        text = dumps(frame)[:-1] + ',"table":' + table + "}"
        try:
            await conn.ws.send_text(text)
        except Exception:
            with contextlib.suppress(ValueError):
                live.conns.remove(conn)

    # -- bots and time-outs --------------------------------------------------------------------

    async def _drive(self, live: LiveTable) -> None:
        """Run the table's bots and turn timers until the server stops."""
        while True:
            live.wake.clear()
            due = live.session.next_due(time.time(), time.monotonic())
            if due is None or due[0] > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(live.wake.wait(), None if due is None else due[0])
                continue
            _, seat, by = due
            await self._bot_turn(live, seat, by)

    async def _bot_turn(self, live: LiveTable, seat: int, by: str) -> None:
        for _ in range(4):
            async with live.lock:
                session = live.session
                if not session.is_due(seat, by):
                    return
                seq = session.seq
                view = session.game.view(seat)
                legal = [] if session.game.is_over else session.game.legal_actions(seat)
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
        live = self.tables.get(ws.path_params["table_id"])
        if live is None:
            await _error(ws, "no_table", "no such table")
            await ws.close(code=4404)
            return
        bucket = TokenBucket(self.config.rate, self.config.burst)
        conn: Connection | None = None
        refused = 0
        try:
            while True:
                timeout = self.config.hello_timeout if conn is None else None
                try:
                    text = await asyncio.wait_for(_receive_text(ws), timeout)
                except TimeoutError:
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
                        conn = await self._hello(live, ws, msg)
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
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None and conn in live.conns:
                live.conns.remove(conn)

    async def _hello(self, live: LiveTable, ws: WebSocket, msg: dict[str, Any]) -> Connection:
        if msg.get("type") != "hello":
            raise ActionRefused("not_joined", "say hello first: {'type': 'hello', 'token': ...}")
        seat = None
        if "token" in msg and msg["token"] is not None:
            seat = live.session.seat_of(msg["token"])
            if seat is None:
                raise ActionRefused("bad_token", "that token holds no seat at this table")
        conn = Connection(ws, seat)
        async with live.lock:
            live.conns.append(conn)
            await self._send_state(live, conn, ack=msg.get("id"))
        return conn

    async def _handle(self, live: LiveTable, conn: Connection, msg: dict[str, Any], ack: Any) -> None:
        kind = msg.get("type")
        if kind == "ping":
            await conn.ws.send_text(dumps({"type": "pong", "ack": ack}))
            return
        if kind not in ("act", "next_hand"):
            raise ActionRefused("malformed", f"unknown message type {kind!r}")
        if conn.seat is None:
            raise ActionRefused("spectator", "spectators cannot act")
        async with live.lock:
            if kind == "act":
                if set(msg) - {"type", "action", "id"}:
                    raise ActionRefused("malformed", "an act frame has type, action and id")
                await self.act(live, conn.seat, msg.get("action"), origin=conn, ack=ack)
            else:
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
        msg = json.loads(text)
    except (ValueError, RecursionError):
        raise ActionRefused("malformed", "frames are JSON objects") from None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ActionRefused("malformed", "frames are JSON objects with a 'type'")
    return msg


async def _error(ws: WebSocket, code: str, message: str, ack: Any = None) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "code": code, "message": message, "ack": ack}))


# -- HTTP ------------------------------------------------------------------------------------------


def _refusal(e: ActionRefused | VncardsError, status: int = 400) -> JSONResponse:
    code = e.code if isinstance(e, ActionRefused) else getattr(e, "reason", None) or "rules_error"
    return JSONResponse({"error": code, "message": str(e)}, status_code=status)


async def _json_body(request: Request, limit: int = 16384) -> dict[str, Any]:
    size = request.headers.get("content-length")
    if size is None or not size.isdigit() or int(size) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    body = await request.body()
    if len(body) > limit:
        raise ActionRefused("too_large", f"request bodies are JSON of at most {limit} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise ActionRefused("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise ActionRefused("malformed", "the body is a JSON object")
    return data


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

    async def api_words(request: Request) -> Response:
        from ..words import TERMS

        return JSONResponse(TERMS)

    async def api_tables(request: Request) -> Response:
        if request.method == "GET":
            return JSONResponse([live.session.summary() for live in server.tables.values()])
        try:
            session = server.create_table(await _json_body(request))
        except ActionRefused as e:
            return _refusal(e, 503 if e.code == "too_many_tables" else 400)
        except VncardsError as e:
            return _refusal(e)
        return JSONResponse(session.summary(), status_code=201)

    async def api_join(request: Request) -> Response:
        try:
            body = await _json_body(request)
            token = await server.join(request.path_params["table_id"], body.get("seat"), body.get("name"))
        except ActionRefused as e:
            return _refusal(e, {"no_table": 404, "seat_taken": 409}.get(e.code, 400))
        return JSONResponse({"token": token, "seat": body.get("seat")})

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
            Route("/api/games", api_games),
            Route("/api/words", api_words),
            Route("/api/tables", api_tables, methods=["GET", "POST"]),
            Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", server.websocket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
