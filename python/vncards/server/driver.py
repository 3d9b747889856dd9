"""The driver of each served table: the task that makes the moves a table makes by itself
(bots' turns, forced moves, a time-out bot when a seat's clock runs out) and closes a table
once it has been idle too long. It acts through the same :meth:`TableDriver.act` as a client's
move, under the table's lock, so a bot's move and a person's are stored and sent alike."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from ..bots import bot_view
from .config import ServerConfig
from .live import LiveTable
from .wire import ActionRefused

__all__ = ["TableDriver"]

_log = logging.getLogger("vncards.server")


class TableDriver:
    """What runs each table's clock and bots (the server is one): it needs the server's
    config, its tables and two of its changes, :meth:`act` and :meth:`close_table`."""

    config: ServerConfig
    tables: dict[str, LiveTable]

    async def act(self, live: LiveTable, seat: int, action: Any, by: str = "player") -> None:
        """Apply, store and announce one action of ``seat`` (the server's)."""
        raise NotImplementedError

    async def close_table(self, live: LiveTable, reason: str) -> None:
        """Close the table, keeping its row (the server's)."""
        raise NotImplementedError

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
