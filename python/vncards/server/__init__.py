"""A reference game server for vncards: tables in a lobby, seats joined by link, bots in empty
seats, turn timers, SQLite persistence and a browser table (install the ``server`` extra).

The engine is the only authority: each client message becomes one ``apply`` on the table's
game, each seat is sent only its own ``view(seat)`` and spectators ``public_view()``. Run it
with ``vncards serve`` or embed it::

    import uvicorn
    from vncards.server import ServerConfig, create_app

    uvicorn.run(create_app(ServerConfig(db="tables.sqlite")), host="127.0.0.1", port=8000, proxy_headers=False)

See ``docs/server.md`` for the protocol and how to build your own server on vncards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .app import GameServer, ServerConfig, create_app
from .config import ConfigError
from .store import TableStore
from .table import TableSession
from .wire import ActionRefused

__all__ = [
    "create_app",
    "ServerConfig",
    "ConfigError",
    "GameServer",
    "TableSession",
    "TableStore",
    "ActionRefused",
    "serve",
    "load_key",
]


def load_key(path: str | Path) -> bytes:
    """The server's snapshot-signing key from ``path``, made (32 random bytes, mode 0600) if
    the file does not exist yet."""
    import os
    import secrets

    p = Path(path)
    if not p.exists():
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secrets.token_bytes(32))
    key = p.read_bytes()
    if len(key) < 16:
        raise ValueError(f"{p}: a snapshot key needs at least 16 bytes")
    return key


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = "tables.sqlite",
    *,
    bot_delay: float = 0.6,
    turn_seconds: float | None = None,
    sign: bool = True,
    create_token: str | None = None,
    idle_close: float | None = None,
    max_tables: int | None = None,
    tables_per_client: int | None = None,
    tables_per_minute: float | None = None,
    seat_rate: float | None = None,
    forced_delay: float | None = None,
    forwarded_allow_ips: str | None = None,
    key_file: str | None = None,
    lease: float | None = None,
    log_level: str = "info",
    ws_deflate: bool = False,
) -> None:
    """Run the server until interrupted (what ``vncards serve`` does). ``db`` is a SQLite file
    or a PostgreSQL URL (``postgresql://USER@HOST[:PORT]/DB``; psycopg 3, in the ``server``
    extra). Rows and snapshots are signed with the key in ``key_file``: by default next to a
    SQLite database (``tables.sqlite.key``), ``vncards-server.key`` in the working directory
    for PostgreSQL (every process on one database needs the same key); unless ``sign`` is false
    or the database is ``":memory:"``. ``create_token`` makes creating a table need
    ``Authorization: Bearer <token>``. ``forwarded_allow_ips`` names the reverse proxies
    (comma-separated addresses or networks, ``"*"`` for any) whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` headers say who the client is; by default no peer is trusted, and a
    client is the address it connects from (a header is then only text: forging one gives no
    client a second set of limits). ``lease`` is how long a table's lease lasts unless renewed
    (seconds): with several processes on one PostgreSQL database, how soon after a process
    dies the others take its tables over (``docs/server.md``). ``ws_deflate`` turns on per-message compression of the
    WebSocket frames (permessage-deflate) for the clients that offer it: off by default, since
    it costs more of the server's CPU than its small frames gain on the wire (``docs/server.md``,
    Load). The other options override :class:`ServerConfig`'s defaults."""
    import uvicorn

    from .store import is_postgres

    if key_file is None:
        key_file = "vncards-server.key" if is_postgres(db) else db + ".key"
    key = load_key(key_file) if sign and db != ":memory:" else None
    overrides: dict[str, Any] = {
        k: v
        for k, v in (
            ("idle_close", idle_close),
            ("max_tables", max_tables),
            ("tables_per_client", tables_per_client),
            ("create_rate", None if tables_per_minute is None else tables_per_minute / 60),
            ("create_burst", None if tables_per_minute is None else max(1.0, tables_per_minute / 2)),
            ("seat_rate", seat_rate),
            ("forced_delay", forced_delay),
            ("seat_burst", None if seat_rate is None else 2 * seat_rate),
            ("lease", lease),
        )
        if v is not None
    }
    config = ServerConfig(
        db=db, key=key, bot_delay=bot_delay, turn_seconds=turn_seconds, create_token=create_token, **overrides
    )
    uvicorn.run(
        create_app(config),
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_per_message_deflate=ws_deflate,
        # uvicorn's own default trusts the headers from 127.0.0.1 (or $FORWARDED_ALLOW_IPS).
        proxy_headers=forwarded_allow_ips is not None,
        forwarded_allow_ips=forwarded_allow_ips if forwarded_allow_ips is not None else "",
    )
