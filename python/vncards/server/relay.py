"""Relaying between the server processes of one PostgreSQL database, over its LISTEN/NOTIFY.

Each table is served by the process holding its lease (:class:`~.store.TableStore`); any
process may receive any request. A process that gets an HTTP request or a WebSocket for a
table another process serves relays it (:meth:`Relay.relay_http`,
:meth:`Relay.relay_websocket`): the owner runs the request through its own routes, or the
WebSocket through its own protocol (a :class:`RemoteSocket` stands for the client), so the
answers, limits and refusals are the owner's, the same as for a direct client. The lobby
asks every process holding a lease for its lines (:meth:`Relay.lobby`).

Why LISTEN/NOTIFY: the processes already share the database, whose transactions hold the
leases; it needs no other service, and a notification reaches only the processes listening
on its channel (one per process: ``vncards_<process>``). Notifications are not stored: a
message to a process that died is lost, which the other side meets as a WebSocket closed
(the client reconnects) or an HTTP answer ``table_moving`` (503, try again). A notification
carries at most 8,000 bytes: a longer message is sent in pieces, put together by its
receiver (the pieces of a sender arrive in order). The messages waiting to leave a process are
sent together, in one statement.

Each side checks the other: every ``min(heartbeat, lease / 3)`` seconds a relaying process
closes (code 1012) the WebSockets whose table changed owner, so that their clients reconnect
to the new one, and tells each owner which of its relayed WebSockets are still open; an owner
lets go of those it has not heard of for three such rounds.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from .store import TableStore
from .wire import dumps

__all__ = ["Relay", "RemoteSocket", "PIECE_BYTES"]

_log = logging.getLogger("vncards.server")

#: Largest notification payload sent (PostgreSQL's limit is 8,000 bytes).
PIECE_BYTES = 7900
#: Seconds a relayed HTTP request waits for the owner's answer.
HTTP_TIMEOUT = 10.0
#: Seconds the lobby waits for the other processes' lines.
LOBBY_TIMEOUT = 2.0
#: Frames a relayed WebSocket's client may be behind before it is closed.
MAX_BEHIND = 256
#: Request headers a relayed HTTP request carries (what the routes read), and answer headers.
_REQUEST_HEADERS = ("authorization", "content-type", "content-length")
_ANSWER_HEADERS = (b"content-type", b"retry-after")


def channel(process: str) -> str:
    """The LISTEN channel of a process (its lease owner name: hexadecimal)."""
    return "vncards_" + process


def pieces(text: str, limit: int = PIECE_BYTES) -> list[str]:
    """``text`` cut into pieces of at most ``limit`` UTF-8 bytes, never inside a character.

    >>> [len(p) for p in pieces("ạ" * 5, 7)]
    [2, 2, 1]
    """
    out: list[str] = []
    start = 0
    while start < len(text) or not out:
        end = min(len(text), start + limit)
        while len(text[start:end].encode("utf-8", "surrogatepass")) > limit:
            end = start + max(1, (end - start) * 3 // 4)
        out.append(text[start:end])
        start = end
    return out


@dataclass(eq=False)
class _Relayed:
    """A client's WebSocket this process relays to the table's owner."""

    owner: str
    table_id: str
    outbox: asyncio.Queue[str | int] = field(default_factory=asyncio.Queue)


class _Peer:
    """The address of a client, as ``ws.client`` gives it."""

    def __init__(self, host: str) -> None:
        self.host = host


class RemoteSocket:
    """A client's WebSocket held by another process, as :mod:`.protocol` uses one: what the
    client sends comes in notifications, what the protocol sends goes back in them."""

    def __init__(self, relay: Relay, peer: str, conv: str, table_id: str, host: str) -> None:
        self.relay, self.peer, self.conv = relay, peer, conv
        self.path_params = {"table_id": table_id}
        self.client = _Peer(host)
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.closed = False
        #: When the relaying process last said this WebSocket is open (monotonic).
        self.heard = time.monotonic()

    async def accept(self) -> None:
        """Nothing to do: the relaying process accepted the client."""

    async def receive(self) -> dict[str, Any]:
        """The client's next message, as ASGI gives it (text, or the disconnection)."""
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        """Send a frame to the client (``RuntimeError`` once closed)."""
        if self.closed:
            raise RuntimeError("the relayed WebSocket is closed")
        await self.relay.send(self.peer, {"k": "text", "c": self.conv, "t": text})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close the client's WebSocket (the relaying process closes it with ``code``)."""
        if not self.closed:
            self.gone(code)
            await self.relay.send(self.peer, {"k": "close", "c": self.conv, "code": code})

    def gone(self, code: int = 1001) -> None:
        """The client went (or is to be let go): the protocol reads a disconnection."""
        self.closed = True
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})


class Relay:
    """This process's link to the other processes of its database (:mod:`.relay`): its
    ``store`` (leases), whether it ``serves`` a table now, its own ``lobby_lines``, how it
    serves a WebSocket (``serve_websocket``: the protocol) and its ASGI ``app``."""

    def __init__(
        self,
        store: TableStore,
        url: str,
        *,
        serves: Callable[[str], bool],
        lobby_lines: Callable[[], list[dict[str, Any]]],
        serve_websocket: Callable[[WebSocket], Awaitable[None]],
        app: Any,
    ) -> None:
        self.store, self.url, self.app = store, url, app
        self.serves, self.lobby_lines, self.serve_websocket = serves, lobby_lines, serve_websocket
        self.me = store.owner
        self._ids = itertools.count()
        self._outbox: list[tuple[str, str]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._parts: dict[str, list[str]] = {}
        #: Answers awaited (HTTP, lobby), by conversation.
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: Clients' WebSockets relayed from here, and those relayed to here, by conversation.
        self.relayed: dict[str, _Relayed] = {}
        self.remote: dict[str, RemoteSocket] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._listen: Any = None
        self._out: Any = None

    async def start(self) -> None:
        """Connect (one connection listens, one sends) and listen on this process's channel."""
        import psycopg

        self._listen = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        self._out = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        await self._listen.execute(f"LISTEN {channel(self.me)}")
        self._spawn(self._receive())

    async def stop(self) -> None:
        """Let every relayed WebSocket go and close the connections."""
        for relayed in self.relayed.values():
            relayed.outbox.put_nowait(1012)
        for sock in self.remote.values():
            sock.gone()
        for task in list(self._tasks):
            task.cancel()
        for conn in (self._listen, self._out):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _conv(self) -> str:
        return f"{self.me}.{next(self._ids)}"

    # -- messages ------------------------------------------------------------------------------

    async def send(self, to: str, message: dict[str, Any]) -> None:
        """Send ``message`` to process ``to`` (one notification, or its pieces). Messages
        leave in the order they are sent: the notifications waiting are sent together, in
        one statement, by one task (a state frame to several relayed clients costs one round
        trip to the database)."""
        if message.get("k") == "text" and isinstance(message.get("t"), str):
            body = f"t{message['c']}\n{message['t']}"  # a frame as it is, not inside JSON
        else:
            body = "j" + dumps(message)
        mid, name = self._conv(), channel(to)
        parts = pieces(body, PIECE_BYTES - 64)
        self._outbox.extend((name, f"{mid} {i} {len(parts)} {part}") for i, part in enumerate(parts))
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Send the notifications waiting, up to 64 a statement, until none is left."""
        try:
            while self._outbox:
                batch, self._outbox = self._outbox[:64], self._outbox[64:]
                sql = "SELECT " + ", ".join(["pg_notify(%s, %s)"] * len(batch))
                try:
                    await self._out.execute(sql, [x for pair in batch for x in pair])
                except Exception:
                    _log.exception("relayed messages not sent")
        finally:
            self._flushing = None

    async def _receive(self) -> None:
        async for note in self._listen.notifies():
            try:
                message = self._piece(note.payload)
                if message is not None:
                    self._dispatch(message)
            except Exception:
                _log.exception("a relayed message could not be read")

    def _piece(self, payload: str) -> dict[str, Any] | None:
        """Put a message together from its pieces: the message once whole."""
        mid, index, count, part = payload.split(" ", 3)
        if count == "1":
            text = part
        else:
            parts = self._parts.setdefault(mid, [])
            if int(index) != len(parts):
                self._parts.pop(mid, None)
                raise ValueError(f"message {mid}: piece {index} out of order")
            parts.append(part)
            if len(parts) < int(count):
                return None
            text = "".join(self._parts.pop(mid))
        if text.startswith("t"):
            conv, _, frame = text[1:].partition("\n")
            return {"k": "text", "c": conv, "t": frame}
        message = json.loads(text[1:])
        return message if isinstance(message, dict) else None

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind, conv = message.get("k"), str(message.get("c"))
        if kind == "text":
            if (sock := self.remote.get(conv)) is not None:
                sock.heard = time.monotonic()
                sock.inbox.put_nowait({"type": "websocket.receive", "text": message.get("t")})
            elif (relayed := self.relayed.get(conv)) is not None:
                # A client that does not read its frames is let go (1013: try again later)
                # rather than kept in memory here without end.
                behind = relayed.outbox.qsize() >= MAX_BEHIND
                relayed.outbox.put_nowait(1013 if behind else str(message.get("t")))
        elif kind == "close":
            if (sock := self.remote.get(conv)) is not None:
                sock.gone()
            elif (relayed := self.relayed.get(conv)) is not None:
                relayed.outbox.put_nowait(int(message.get("code") or 1000))
        elif kind == "reply":
            future = self.pending.get(conv)
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "alive":
            now = time.monotonic()
            for c in message.get("cs", []):
                if (sock := self.remote.get(str(c))) is not None:
                    sock.heard = now
        elif kind == "open":
            # Made now, not in the task: the client's first frames may follow at once.
            peer, table_id = str(message["from"]), str(message.get("table"))
            if not self.serves(table_id):  # reconnect: not served here
                self._spawn(self.send(peer, {"k": "close", "c": conv, "code": 1012}))
                return
            sock = self.remote[conv] = RemoteSocket(self, peer, conv, table_id, str(message.get("host")))
            self._spawn(self._serve_websocket(sock))
        elif kind == "http":
            self._spawn(self._serve_http(message))
        elif kind == "lobby":
            self._spawn(
                self.send(str(message["from"]), {"k": "reply", "c": conv, "lines": self.lobby_lines()})
            )

    # -- the relaying side ---------------------------------------------------------------------

    async def _ask(self, to: str, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """Send a request and wait for its answer (``None``: none in ``timeout`` seconds)."""
        conv = self._conv()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[conv] = future
        try:
            await self.send(to, {**message, "c": conv, "from": self.me})
            return await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:  # not TimeoutError on 3.10
            return None
        finally:
            self.pending.pop(conv, None)

    async def relay_http(self, request: Request, owner: str) -> Response:
        """Have process ``owner`` answer an HTTP request for one of its tables."""
        size = request.headers.get("content-length", "")
        body = await request.body() if size.isdigit() and int(size) <= 65536 else b""
        headers = [[k, v] for k, v in request.headers.items() if k in _REQUEST_HEADERS]
        message = {
            "k": "http",
            "m": request.method,
            "p": request.url.path,
            "h": headers,
            "b": base64.b64encode(body).decode(),
            "host": request.client.host if request.client else None,
        }
        answer = await self._ask(owner, message, HTTP_TIMEOUT)
        if answer is None:
            return JSONResponse(
                {"error": "table_moving", "message": "the table's server did not answer; try again shortly"},
                status_code=503,
                headers={"retry-after": "2"},
            )
        return Response(
            base64.b64decode(answer["b"]), status_code=int(answer["s"]), headers=dict(answer["h"])
        )

    async def relay_websocket(self, ws: WebSocket, owner: str) -> None:
        """Relay a client's WebSocket to the process ``owner`` that serves its table, until
        either side closes it."""
        await ws.accept()
        conv, table_id = self._conv(), ws.path_params["table_id"]
        relayed = self.relayed[conv] = _Relayed(owner, table_id)
        host = ws.client.host if ws.client else None

        async def pump() -> None:  # the owner's frames to the client
            while True:
                item = await relayed.outbox.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await ws.close(code=item)
                    return
                await ws.send_text(item)

        pumping = asyncio.get_running_loop().create_task(pump())
        try:
            await self.send(owner, {"k": "open", "c": conv, "from": self.me, "table": table_id, "host": host})
            while True:
                receiving = asyncio.get_running_loop().create_task(ws.receive())
                done, _ = await asyncio.wait({receiving, pumping}, return_when=asyncio.FIRST_COMPLETED)
                if receiving not in done:
                    receiving.cancel()
                    return
                message = receiving.result()
                if message["type"] == "websocket.disconnect":
                    await self.send(owner, {"k": "close", "c": conv})
                    return
                text = message.get("text")
                await self.send(owner, {"k": "text", "c": conv, "t": text if isinstance(text, str) else None})
        except Exception:
            with contextlib.suppress(Exception):
                await self.send(owner, {"k": "close", "c": conv})
        finally:
            self.relayed.pop(conv, None)
            pumping.cancel()

    async def lobby(self, lines: list[Any]) -> list[Any]:
        """This process's lobby ``lines`` with every other live process's, each table once."""
        others = [o for o in self.store.owners() if o != self.me]
        answers = await asyncio.gather(*(self._ask(o, {"k": "lobby"}, LOBBY_TIMEOUT) for o in others))
        seen = {line.get("id") for line in lines}
        out = list(lines)
        for answer in answers:
            for line in answer.get("lines", []) if answer else []:
                if isinstance(line, dict) and line.get("id") not in seen:
                    seen.add(line.get("id"))
                    out.append(line)
        return out

    async def tick(self, interval: float) -> None:
        """A round of checks (:mod:`.relay`): close the relayed WebSockets whose table has
        another owner now; tell each owner which of its relayed WebSockets are open; let go
        of the WebSockets relayed here that no one has vouched for in three rounds."""
        store = self.store
        owners: dict[str, str | None] = {}
        open_by_owner: dict[str, list[str]] = defaultdict(list)
        for conv, relayed in list(self.relayed.items()):
            if relayed.table_id not in owners:
                owners[relayed.table_id] = store.owner_of(relayed.table_id)
            if owners[relayed.table_id] != relayed.owner:
                relayed.outbox.put_nowait(1012)  # reconnect: another process serves it now
            else:
                open_by_owner[relayed.owner].append(conv)
        for owner, convs in open_by_owner.items():
            await self.send(owner, {"k": "alive", "cs": convs})
        now = time.monotonic()
        for sock in list(self.remote.values()):
            if now - sock.heard > 3 * interval + 1:
                sock.gone()

    # -- the owner's side ----------------------------------------------------------------------

    async def _serve_websocket(self, sock: RemoteSocket) -> None:
        """Serve a WebSocket relayed here through the protocol, as if its client were here."""
        table_id = sock.path_params["table_id"]
        try:
            await self.serve_websocket(cast(WebSocket, sock))
        except Exception:
            _log.exception("a relayed WebSocket failed")
        finally:
            self.remote.pop(sock.conv, None)
            with contextlib.suppress(Exception):
                await sock.close(1000 if self.serves(table_id) else 1012)

    async def _serve_http(self, message: dict[str, Any]) -> None:
        """Answer an HTTP request relayed here, through this process's own routes."""
        body = base64.b64decode(message["b"])
        path = str(message["p"])
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": str(message["m"]),
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(str(k).encode("latin-1"), str(v).encode("latin-1")) for k, v in message["h"]],
            "client": (message.get("host") or "?", 0),
            "server": None,
            "vncards.relayed": True,
        }
        answer: dict[str, Any] = {"k": "reply", "c": message["c"], "s": 500, "h": [], "b": ""}
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(event: dict[str, Any]) -> None:
            if event["type"] == "http.response.start":
                answer["s"] = event["status"]
                answer["h"] = [[k.decode(), v.decode()] for k, v in event["headers"] if k in _ANSWER_HEADERS]
            elif event["type"] == "http.response.body":
                chunks.append(event.get("body", b""))

        try:
            await self.app(scope, receive, send)
        except Exception:
            _log.exception("a relayed request failed")
            answer.update(s=500, h=[["content-type", "application/json"]])
            chunks = [dumps({"error": "internal", "message": "the server failed; it was logged"}).encode()]
        answer["b"] = base64.b64encode(b"".join(chunks)).decode()
        await self.send(str(message["from"]), answer)
