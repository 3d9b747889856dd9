"""``vncards serve``: the reference game server and browser table (the ``server`` extra)."""

from __future__ import annotations

import argparse
import os

from rich.console import Console

from ..errors import VncardsError
from .base import Commands

#: Default lease of a table (seconds): ``vncards.server.store.LEASE_SECONDS``, which cannot be
#: imported here without the server's extra (a test checks the two agree).
LEASE_SECONDS = 15.0

__all__ = ["register", "run"]


def register(commands: Commands) -> None:
    """Adds ``vncards serve`` and its arguments."""
    sv = commands.add(
        "serve",
        run,
        help="run the game server and browser table (needs the 'server' extra)",
        description="Run the reference game server: a lobby and browser tables for every game at "
        "http://HOST:PORT, bots in empty seats, tables kept in a SQLite file across restarts.",
        epilog="example: vncards serve --port 8000 --db tables.sqlite",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sv.add_argument(
        "--db",
        default="tables.sqlite",
        help="SQLite file of the tables (default tables.sqlite), or a PostgreSQL URL "
        "postgresql://USER@HOST[:PORT]/DB",
    )
    sv.add_argument(
        "--key-file",
        default=None,
        help="the key that signs the stored tables, made if missing (default: the SQLite file's "
        "name + .key; vncards-server.key for PostgreSQL, the same file for every process)",
    )
    sv.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds a bot waits before it acts (default 0.6)"
    )
    sv.add_argument("--turn-seconds", type=float, default=None, help="turn timer (default 30; Mậu Binh 45)")
    sv.add_argument(
        "--create-token",
        default=None,
        help="an operator token that creating a table needs (Authorization: Bearer TOKEN); "
        "default: the VNCARDS_CREATE_TOKEN environment variable, else anyone may create tables",
    )
    sv.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="ADDRS",
        help="reverse proxies (comma-separated addresses or networks, '*' for any) whose "
        "X-Forwarded-For header names the client; default: trust no one (a client is the "
        "address it connects from)",
    )
    sv.add_argument(
        "--idle-close",
        type=float,
        default=None,
        help="seconds a finished table may sit idle before it closes (default 1800: half an hour)",
    )
    sv.add_argument("--max-tables", type=int, default=None, help="open tables on the server (default 1000)")
    sv.add_argument(
        "--tables-per-client", type=int, default=None, help="open tables one client may create (default 20)"
    )
    sv.add_argument(
        "--tables-per-minute",
        type=float,
        default=None,
        help="tables one client may create per minute (default 10, bursts of 5)",
    )
    sv.add_argument(
        "--forced-delay",
        type=float,
        default=None,
        help="seconds before the table makes a seat's forced move for it (default 1)",
    )
    sv.add_argument(
        "--lease",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds a table's lease lasts unless its process renews it: with several processes "
        "on one PostgreSQL database, how soon the others take over the tables of one that died "
        f"(default {LEASE_SECONDS:g})",
    )
    sv.add_argument(
        "--seat-rate",
        type=float,
        default=None,
        help="moves per second one seat may send (default 4, bursts of 8)",
    )
    sv.add_argument(
        "--ws-deflate",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="compress WebSocket frames per message (permessage-deflate) for clients that offer "
        "it (default: off; it adds about a quarter to the server's CPU per action, to shrink "
        "state frames of 1-3 kB)",
    )


def run(args: argparse.Namespace, console: Console) -> int:
    """Runs the server until it is stopped (``ImportError`` of the extra: a one-line error)."""
    try:
        from ..server import serve
    except ImportError as e:
        raise VncardsError(f"the server needs its extra: pip install 'vncards[server]' ({e})") from None
    serve(
        args.host,
        args.port,
        args.db,
        bot_delay=args.bot_delay,
        turn_seconds=args.turn_seconds,
        create_token=args.create_token or os.environ.get("VNCARDS_CREATE_TOKEN") or None,
        idle_close=args.idle_close,
        max_tables=args.max_tables,
        tables_per_client=args.tables_per_client,
        tables_per_minute=args.tables_per_minute,
        seat_rate=args.seat_rate,
        forced_delay=args.forced_delay,
        forwarded_allow_ips=args.forwarded_allow_ips,
        key_file=args.key_file,
        lease=args.lease,
        ws_deflate=args.ws_deflate,
    )
    return 0
