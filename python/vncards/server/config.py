"""The limits and defaults of one server (:class:`ServerConfig`), and the limits a client is
shown (``GET /api/server``).

The operator's token (``create_token``) must carry at least :data:`MIN_TOKEN_BITS` bits of
entropy, estimated by :func:`token_bits` as its length times log2 of the size of the smallest
usual alphabet that holds every character of it: 22 base64url characters, 32 hexadecimal
digits or 20 printable ASCII characters are enough (``secrets.token_urlsafe(32)`` makes one);
a weaker token is refused with :class:`ConfigError`. The estimate is an upper bound for a token
a person chose: it catches short and narrow tokens, not a long phrase anyone could guess.

>>> round(token_bits("0123456789abcdef" * 2)), round(token_bits("operator-secret"))
(128, 90)
>>> ServerConfig(create_token="operator-secret")
Traceback (most recent call last):
...
vncards.server.config.ConfigError: the operator token has about 90 bits of entropy; it needs 128 (...)
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from typing import Any

from ..errors import VncardsError
from .store import LEASE_SECONDS
from .table import FORCED_DELAY, MAX_TURN_SECONDS, RESUME_MINIMUM, SEAT_ACTIONS_LIMIT
from .wire import MAX_NAME

__all__ = ["ServerConfig", "ConfigError", "token_bits", "MIN_TOKEN_BITS"]

#: Least estimated entropy of an operator token, in bits.
MIN_TOKEN_BITS = 128

#: The alphabets :func:`token_bits` tries, smallest first.
_ALPHABETS = (
    frozenset(string.digits),
    frozenset(string.digits + "abcdef"),
    frozenset(string.digits + "ABCDEF"),
    frozenset(string.digits + string.ascii_lowercase),
    frozenset(string.digits + string.ascii_uppercase),
    frozenset(string.ascii_letters + string.digits + "-_"),
    frozenset(string.ascii_letters + string.digits + "+/="),
    frozenset(chr(c) for c in range(0x20, 0x7F)),
)


class ConfigError(VncardsError, ValueError):
    """A server setting that cannot be used (a weak operator token, ...)."""


def token_bits(token: str) -> float:
    """The estimated entropy of ``token`` in bits: its length times log2 of the size of the
    smallest of the usual alphabets (digits, hexadecimal, lower- or upper-case letters with
    digits, base64url, base64, printable ASCII) that holds all its characters; a character
    outside printable ASCII widens the alphabet to the 95 printable characters plus the distinct
    others."""
    used = set(token)
    for alphabet in _ALPHABETS:
        if used <= alphabet:
            return len(token) * math.log2(len(alphabet))
    return len(token) * math.log2(95 + len(used - _ALPHABETS[-1]))


@dataclass(frozen=True)
class ServerConfig:
    """Limits and defaults of one server."""

    #: SQLite file (``":memory:"`` keeps nothing), or a PostgreSQL URL
    #: (``postgresql://USER@HOST[:PORT]/DB``).
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
    #: Seconds between the server's notes that it is alive (turn clocks after a crash) and
    #: its renewals of its tables' leases (at least three renewals a lease).
    heartbeat: float = 2.0
    #: Seconds a table's lease lasts unless its process renews it: after a process dies,
    #: another takes its tables over once their leases have run out (PostgreSQL).
    lease: float = LEASE_SECONDS
    #: Actions stored one row each after a table's snapshot before the next snapshot is written
    #: (a table is snapshotted too at the end of each hand and on every other change).
    snapshot_every: int = 64
    #: Wrong operator tokens one client may present per second on average, and the burst:
    #: beyond that, its table creations are refused (429) without the token being looked at.
    guess_rate: float = 0.1
    guess_burst: float = 10.0

    def __post_init__(self) -> None:
        if not (isinstance(self.lease, (int, float)) and 0.3 <= self.lease <= 3600):
            raise ConfigError(f"a lease lasts 0.3 to 3600 seconds, not {self.lease!r}")
        if self.create_token is not None:
            bits = token_bits(self.create_token)
            if bits < MIN_TOKEN_BITS:
                raise ConfigError(
                    f"the operator token has about {bits:.0f} bits of entropy; it needs "
                    f"{MIN_TOKEN_BITS} (e.g. 22 base64url characters or 32 hex digits; make one with "
                    "python -c 'import secrets; print(secrets.token_urlsafe(32))')"
                )

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
            "wrong_operator_tokens_per_minute": round(self.guess_rate * 60, 3),
            "wrong_operator_tokens_burst": self.guess_burst,
        }
