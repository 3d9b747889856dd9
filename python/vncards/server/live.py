"""A table being served: its session, its WebSocket connections, its lock and the event that
wakes its driver; and the one way a refusal is sent to a connection."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket

from .limits import Buckets
from .table import TableSession
from .wire import dumps

__all__ = ["Connection", "LiveTable", "send_error"]


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
    #: The sequence number of the table's last stored snapshot (the actions after it are
    #: stored one row each).
    snapshot_seq: int = 0


async def send_error(ws: WebSocket, code: str, message: str, ack: Any = None) -> None:
    """Send an ``error`` frame (a connection already gone is let be)."""
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "code": code, "message": message, "ack": ack}))
