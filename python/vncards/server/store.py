"""SQLite persistence: one row per table, rewritten in one transaction per accepted action.

A row holds the table's session record (seats, bots, running totals, the table log, finished
hands) as JSON and the engine snapshot of the hand in play. Writing both in the same
``UPDATE`` means an action is stored completely or not at all: a server killed at any instant
restarts with every table exactly as its last accepted action left it.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the server
process being killed (SIGKILL), which is the failure a game server meets; a power cut may lose
the last commits but never corrupts the file.

>>> store = TableStore(":memory:")
>>> store.insert("t1", "tienlen", {"players": 4}, "{}")
>>> store.update("t1", 1, {"players": 4}, '{"a":1}')
>>> [(r.id, r.seq, r.snapshot) for r in store.load_all()]
[('t1', 1, '{"a":1}')]
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["TableStore", "StoredTable"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    seq      INTEGER NOT NULL,
    meta     TEXT NOT NULL,
    snapshot TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class StoredTable:
    """One table row as read back: ``meta`` is the session record, ``snapshot`` the engine's."""

    id: str
    game: str
    seq: int
    meta: dict[str, Any]
    snapshot: str


class TableStore:
    """The tables of one server in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        # One connection, used from the server's event-loop thread only.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def insert(self, table_id: str, game: str, meta: dict[str, Any], snapshot: str) -> None:
        """Store a new table (seq 0)."""
        now = time.time()
        with self._transaction():
            self._db.execute(
                "INSERT INTO tables (id, game, created, updated, seq, meta, snapshot) VALUES (?,?,?,?,?,?,?)",
                (table_id, game, now, now, 0, _dumps(meta), snapshot),
            )

    def update(self, table_id: str, seq: int, meta: dict[str, Any], snapshot: str) -> None:
        """Rewrite a table after an accepted action (``seq`` counts them) in one transaction.

        The row must be at ``seq - 1`` or ``seq`` (a rewrite without a new action, e.g. a
        join); anything else means two writers and raises ``RuntimeError``."""
        with self._transaction():
            cur = self._db.execute(
                "UPDATE tables SET seq = ?, meta = ?, snapshot = ?, updated = ? WHERE id = ? AND seq IN (?, ?)",
                (seq, _dumps(meta), snapshot, time.time(), table_id, seq - 1, seq),
            )
            if cur.rowcount != 1:
                raise RuntimeError(f"table {table_id}: stored row is not at seq {seq - 1}")

    def load_all(self) -> list[StoredTable]:
        """Every stored table, oldest first."""
        rows = self._db.execute("SELECT id, game, seq, meta, snapshot FROM tables ORDER BY created, id")
        return [StoredTable(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def load(self, table_id: str) -> StoredTable | None:
        """One stored table, or ``None``."""
        r = self._db.execute(
            "SELECT id, game, seq, meta, snapshot FROM tables WHERE id = ?", (table_id,)
        ).fetchone()
        return None if r is None else StoredTable(r[0], r[1], r[2], json.loads(r[3]), r[4])

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
