"""The WebSocket protocol: one connection per client at ``/ws/{id}``.

The client's first frame is ``{"type": "hello", "token": ...}`` (a seat) or ``{"type":
"hello"}`` (a spectator); then ``{"type": "act", "action": {...}, "id": n}``, ``{"type":
"next_hand", "id": n}``, ``{"type": "ping", "id": n}`` and ``{"type": "explain", "action":
{...}, "id": n}`` (why that action would be refused, changing nothing: ``{"type":
"explanation", "ack", "reason", "message"}``) and, at a Mậu Binh table, ``{"type":
"categorize", "rows": [back, middle, front], "id": n}`` (the rows' categories and whether they
foul: ``{"type": "categories", "ack", "categories", "fouled"}``). The server answers every change with a
``state`` frame per connection (``ack`` names the client frame it answers), every refused frame
with ``{"type": "error", "code", "message", "ack"}``, and a change of who is connected with a
``presence`` frame (every frame, field by field: ``docs/server.md``).

A connection is held to its limits: frames per second, frame size, a hello within
``hello_timeout``, connections per client and per seat, spectators per table, and a seat's
moves per second across all the connections sharing its token; a connection that sends
nothing but refused frames is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .game_server import GameServer
from .limits import TokenBucket, client_key
from .live import Connection, LiveTable, send_error
from .wire import ActionRefused, Refused, dumps, loads

__all__ = ["serve"]


async def serve(server: GameServer, ws: WebSocket) -> None:
    """One client's connection: hello, then act / next_hand / ping frames until it goes."""
    await ws.accept()
    table_id = ws.path_params["table_id"]
    live = server.tables.get(table_id)
    if live is None:
        code = "table_broken" if table_id in server.broken else "no_table"
        await send_error(ws, code, "no such table" if code == "no_table" else "this table cannot be served")
        await ws.close(code=4404)
        return
    client = client_key(ws.client.host if ws.client else None)
    if server.client_conns[client] >= server.config.conns_per_client:
        await send_error(ws, "too_many_connections", "too many connections from your address")
        await ws.close(code=1013)
        return
    server.client_conns[client] += 1
    bucket = TokenBucket(server.config.rate, server.config.burst)
    conn: Connection | None = None
    refused = 0
    try:
        while True:
            if conn is not None:  # no timer once joined: one task less per frame
                text = await _receive_text(ws)
            else:
                try:
                    text = await asyncio.wait_for(_receive_text(ws), server.config.hello_timeout)
                except asyncio.TimeoutError:  # not TimeoutError on 3.10
                    await send_error(ws, "no_hello", "say hello first")
                    await ws.close(code=1008)
                    return
            ack: Any = None
            try:
                if not bucket.take():
                    raise ActionRefused("rate_limited", "too many messages; slow down")
                if text is None or len(text) > server.config.max_message:
                    raise ActionRefused(
                        "too_large", f"frames are text of at most {server.config.max_message} characters"
                    )
                msg = _parse(text)
                ack = msg.get("id")
                if not (
                    ack is None or (isinstance(ack, int) and not isinstance(ack, bool) and abs(ack) < 2**53)
                ):
                    ack = None
                    raise ActionRefused("malformed", "id is an integer")
                if conn is None:
                    conn = await _hello(server, live, ws, msg, client)
                    refused = 0
                    continue
                await _handle(server, live, conn, msg, ack)
                refused = 0
            except ActionRefused as e:
                refused += 1
                await send_error(ws, e.code, e.message, ack)
                if refused >= server.config.flood_close:
                    await ws.close(code=1008)
                    return
            if live.task is None or server.tables.get(table_id) is not live:
                # The table closed (its clients were told, with close code 4410), or another
                # process serves it now: reconnect (1012).
                with contextlib.suppress(Exception):
                    await ws.close(code=1012)
                return
    except WebSocketDisconnect:
        pass
    finally:
        server.client_conns[client] -= 1
        if server.client_conns[client] <= 0:
            del server.client_conns[client]
        if conn is not None and conn in live.conns:
            live.conns.remove(conn)
            await server.send_presence(live)


async def _hello(
    server: GameServer, live: LiveTable, ws: WebSocket, msg: dict[str, Any], client: str
) -> Connection:
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
        if server.tables.get(live.session.id) is not live:
            raise ActionRefused("table_closed", "the table closed")
        if seat is None:
            if sum(1 for c in live.conns if c.seat is None) >= server.config.spectators_per_table:
                raise ActionRefused("too_many_spectators", "this table has as many spectators as it takes")
        else:
            same = [c for c in live.conns if c.seat == seat]
            for old in same[: max(0, len(same) - server.config.conns_per_seat + 1)]:
                live.conns.remove(old)
                await send_error(old.ws, "replaced", "this seat was opened on another connection")
                with contextlib.suppress(Exception):
                    await old.ws.close(code=4009)
        live.conns.append(conn)
        await server.send_state(live, conn, ack=msg.get("id"))
        await server.send_presence(live)
    return conn


async def _handle(
    server: GameServer, live: LiveTable, conn: Connection, msg: dict[str, Any], ack: Any
) -> None:
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
    if kind == "categorize":  # Mậu Binh rows being placed: their categories, changing nothing
        if set(msg) - {"type", "rows", "id"}:
            raise ActionRefused("malformed", "a categorize frame has type, rows and id")
        if conn.seat is None:
            raise ActionRefused("spectator", "spectators cannot act")
        answer = {"type": "categories", "ack": ack, **live.session.categorize(msg.get("rows"))}
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
            await server.act(live, conn.seat, msg.get("action"), origin=conn, ack=ack)
        else:
            if set(msg) - {"type", "id"}:
                raise ActionRefused("malformed", "a next_hand frame has type and id")
            await server.next_hand(live, origin=conn, ack=ack)


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
