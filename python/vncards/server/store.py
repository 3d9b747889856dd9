"""SQLite persistence: a snapshot row per table, and one small row per accepted action after it.

A table's row is its snapshot: the session record (seat tokens, bots, the table log, clocks)
as JSON and the match snapshot (:class:`vncards.session.Session`: seats, running totals, the
hand in play). It is written when the table opens, at the end of each hand, on every change
that is not an action (a join, a leave, a seat handed to a bot, the next hand, closing) and
every ``snapshot_every`` actions; each accepted action in between is one row of ``actions``
(:meth:`TableStore.append`: the seat, who acted, the action, the deadlines it left: about 100
bytes), and the rows a snapshot holds are deleted with its write. A table is restored from its
snapshot and the actions after it, taken again (:meth:`~.table.TableSession.replay`).
Finished hands are stored apart, one row each in ``hands`` as hand histories
(:mod:`vncards.history`), so a table's row does not grow with its age. Each write is one
statement or one transaction: a server killed at any instant restarts with every table exactly
as its last accepted action left it.

**The database is part of the trust boundary.** With a key, every row is signed as a whole:
an HMAC-SHA256 tag over the table's id, game, sequence number, closing time, session record
and snapshot, under a key derived from the server's; every action row over the table's id,
its number, its entry and the signature of the row before it (the snapshot's for the first),
a chain: an action row edited, moved to another table, put out of order or dropped from the
middle breaks it. A row copied from another table, an
older snapshot put back into a row, an edited total or seat token: each fails the tag. The
engine snapshot inside is signed by the engine as well (``to_json(key=...)``). Reading
never trusts a row: :meth:`TableStore.load_all` gives every row with the reason it cannot be
used (``problem``), one bad row never stops the others. Records are strict JSON: ``NaN`` and
``Infinity`` are refused.

The database runs in WAL mode with ``synchronous=NORMAL``: a commit survives the server
process being killed (SIGKILL), which is the failure a game server meets; a power cut may lose
the last commits but never corrupts the file. The server also notes the time it was last alive
(:meth:`TableStore.beat`), so that after a crash the turn clocks do not count the downtime.

>>> store = TableStore(":memory:", key=b"server secret key")
>>> store.insert("t1", "tienlen", {"players": 4}, "{}")
>>> store.update("t1", "tienlen", 1, {"players": 4}, '{"a":1}')
>>> [(r.id, r.seq, r.snapshot, r.problem) for r in store.load_all()]
[('t1', 1, '{"a":1}', None)]
>>> store._db.execute("UPDATE tables SET seq = 0").rowcount    # someone edits the row
1
>>> store.load("t1").problem
'the row signature does not match (edited, copied from another table or rolled back)'
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .wire import Refused, dumps, loads

__all__ = ["TableStore", "StoredTable", "StoredHand", "Lease", "LeaseLost", "LEASE_SECONDS"]

#: How long a table's lease lasts unless its owner renews it, by default (seconds).
LEASE_SECONDS = 15.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    seq      INTEGER NOT NULL,
    meta     TEXT NOT NULL,
    snapshot TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    table_id TEXT NOT NULL,
    hand     INTEGER NOT NULL,
    history  TEXT NOT NULL,
    sig      TEXT,
    PRIMARY KEY (table_id, hand)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    seq      INTEGER NOT NULL,
    entry    TEXT NOT NULL,
    sig      TEXT,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS server (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY,
    owner    TEXT NOT NULL,
    token    INTEGER NOT NULL,
    expires  REAL NOT NULL,
    renewed  REAL NOT NULL
);
"""
# Columns added since the first schema, added to an older file when it is opened.
_ADDED = {"sig": "TEXT", "closed": "REAL"}

#: Version tag of the row signature's message (a new layout gets a new tag).
_SIG_VERSION = "vncards-row-1"


@dataclass(frozen=True)
class StoredTable:
    """One table row as read back: ``meta`` is the session record, ``snapshot`` the engine's;
    ``problem`` says why the row cannot be trusted (``None``: it can)."""

    id: str
    game: str
    seq: int
    meta: dict[str, Any]
    snapshot: str
    updated: float = 0.0
    closed: float | None = None
    problem: str | None = None
    #: The actions accepted since the snapshot (``seq`` + 1 on), each as :meth:`TableStore.append`
    #: stored it, their chain of signatures checked.
    actions: tuple[dict[str, Any], ...] = ()

    @property
    def last_seq(self) -> int:
        """The sequence number of the last stored action (the snapshot's and the rows' after it)."""
        return self.seq + len(self.actions)


@dataclass(frozen=True)
class StoredHand:
    """A finished hand of a table, as its hand history (:mod:`vncards.history` text)."""

    table_id: str
    hand: int
    history: str
    problem: str | None = None


class LeaseLost(RuntimeError):
    """A write refused by the database: this process does not hold the table's lease (another
    took the table over, or it never had it), so it may not write the table's record."""


@dataclass(frozen=True)
class Lease:
    """A table's lease as :meth:`TableStore.acquire` took it: the fencing ``token`` every
    write carries, and until when the table was last served (``served_until``: the previous
    owner's last renewal, ``None`` for a table no process held before)."""

    token: int
    served_until: float | None


class TableStore:
    """The tables of one server process in a SQLite file (``":memory:"`` for tests) or a
    PostgreSQL database; rows are signed when ``key`` is given.

    **Leases.** Each table is owned by one process at a time: a row of ``leases`` (owner,
    fencing token, expiry). A process takes a table with :meth:`acquire` (a new table's first
    write takes it) and keeps it by :meth:`renew`-ing all of its leases before they run out
    (``lease`` seconds). Every write of a table carries the token it was taken with and the
    database refuses it, in the same statement or transaction, once the token is not the
    table's (:class:`LeaseLost`): taking a table over adds one to its token, so a process
    that lost its lease can never write again, however late its write arrives. Lease rows are
    never deleted (a token never goes back); releasing one makes it expire now. Times are the
    processes' own clocks: a clock that is off only delays or hastens a takeover, the tokens
    keep the record whole.
    """

    def __init__(
        self,
        path: str | Path,
        key: bytes | None = None,
        *,
        owner: str | None = None,
        lease: float = LEASE_SECONDS,
    ) -> None:
        self.path = str(path)
        #: This process's name in the leases (random: a restarted process is another owner).
        self.owner = owner or secrets.token_hex(8)
        #: Seconds a lease lasts from its last renewal.
        self.lease = lease
        #: The fencing token of each table this process holds.
        self.tokens: dict[str, int] = {}
        self._key = None if key is None else hmac.new(key, b"vncards table rows", hashlib.sha256).digest()
        #: Each table's last stored seq and signature (the link the next action row chains to).
        self._heads: dict[str, tuple[int, str]] = {}
        # One connection, used from the server's event-loop thread only.
        self._db: Any
        if is_postgres(self.path):
            self._db = _Postgres(self.path)
            self._begin = "BEGIN"
            # A fencing check locks the lease row until the write commits: a takeover (which
            # updates that row) waits for it, or the write sees the new token and is refused.
            self._share = " FOR SHARE"
            for statement in _SCHEMA.replace(" WITHOUT ROWID", "").split(";"):
                if statement.strip():
                    self._db.execute(_postgres_types(statement))
            return
        self._begin = "BEGIN IMMEDIATE"
        self._share = ""
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        have = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
        for column, kind in _ADDED.items():
            if column not in have:
                self._db.execute(f"ALTER TABLE tables ADD COLUMN {column} {kind}")

    # -- signing -------------------------------------------------------------------------------

    def _sign(
        self, table_id: str, game: str, seq: int, closed: float | None, meta: str, snapshot: str
    ) -> str | None:
        if self._key is None:
            return None
        head = json.dumps([_SIG_VERSION, table_id, game, seq, closed, len(meta)], separators=(",", ":"))
        mac = hmac.new(self._key, head.encode("utf-8", "surrogatepass"), hashlib.sha256)
        mac.update(b"\n" + meta.encode("utf-8", "surrogatepass") + b"\n")
        mac.update(snapshot.encode("utf-8", "surrogatepass"))
        return mac.hexdigest()

    def _sign_action(self, table_id: str, seq: int, previous: str, entry: str) -> str | None:
        if self._key is None:
            return None
        head = _COMPACT([_SIG_VERSION, "action", table_id, seq, previous])
        text = head.encode("utf-8", "surrogatepass") + b"\n" + entry.encode("utf-8", "surrogatepass")
        return hmac.digest(self._key, text, "sha256").hex()  # one C call: signed once an action

    def _sign_hand(self, table_id: str, number: int, history: str) -> str | None:
        if self._key is None:
            return None
        head = json.dumps([_SIG_VERSION, "hand", table_id, number], separators=(",", ":"))
        mac = hmac.new(self._key, head.encode("utf-8", "surrogatepass") + b"\n", hashlib.sha256)
        mac.update(history.encode("utf-8", "surrogatepass"))
        return mac.hexdigest()

    # -- writing -------------------------------------------------------------------------------

    def insert(self, table_id: str, game: str, meta: dict[str, Any], snapshot: str) -> None:
        """Store a new table (seq 0), its lease held by this process (fencing token 1)."""
        now = time.time()
        text = _dumps(meta)
        with self._transaction():
            self._db.execute(
                "INSERT INTO leases (table_id, owner, token, expires, renewed) VALUES (?,?,1,?,?)",
                (table_id, self.owner, now + self.lease, now),
            )
            self._db.execute(
                "INSERT INTO tables (id, game, created, updated, seq, meta, snapshot, sig, closed)"
                " VALUES (?,?,?,?,?,?,?,?,NULL)",
                (
                    table_id,
                    game,
                    now,
                    now,
                    0,
                    text,
                    snapshot,
                    sig := self._sign(table_id, game, 0, None, text, snapshot),
                ),
            )
        self._heads[table_id] = (0, sig or "")
        self.tokens[table_id] = 1

    def update(
        self,
        table_id: str,
        game: str,
        seq: int,
        meta: dict[str, Any],
        snapshot: str,
        closed: float | None = None,
        hands: Sequence[tuple[int, str]] = (),
    ) -> None:
        """Write a snapshot of a table (``seq`` counts its accepted actions) in one
        transaction, with the ``hands`` that finished (number, hand history) stored beside it;
        ``closed`` (a time) closes the table. The action rows the snapshot holds are deleted.

        The table's last stored action must be ``seq - 1`` or ``seq`` (a rewrite without a new
        action, e.g. a join); anything else means two writers and raises ``RuntimeError``. The
        write carries this process's fencing token: :class:`LeaseLost` if it is not the
        table's."""
        text = _dumps(meta)
        sig = self._sign(table_id, game, seq, closed, text, snapshot)
        token = self._token(table_id)
        with self._transaction():
            row = self._db.execute(
                f"SELECT token FROM leases WHERE table_id = ?{self._share}", (table_id,)
            ).fetchone()
            if row is None or int(row[0]) != token:
                raise self._lost(table_id)
            if self._head(table_id)[0] not in (seq - 1, seq):
                raise RuntimeError(f"table {table_id}: stored record is not at seq {seq - 1}")
            for number, history in hands:
                self._db.execute(
                    "INSERT INTO hands (table_id, hand, history, sig) VALUES (?,?,?,?)",
                    (table_id, number, history, self._sign_hand(table_id, number, history)),
                )
            cur = self._db.execute(
                "UPDATE tables SET seq = ?, meta = ?, snapshot = ?, updated = ?, sig = ?, closed = ?"
                " WHERE id = ? AND game = ? AND seq <= ?",
                (seq, text, snapshot, time.time(), sig, closed, table_id, game, seq),
            )
            if cur.rowcount != 1:
                raise RuntimeError(f"table {table_id}: stored row is not at seq {seq - 1}")
            self._db.execute("DELETE FROM actions WHERE table_id = ? AND seq <= ?", (table_id, seq))
        self._heads[table_id] = (seq, sig or "")

    def append(self, table_id: str, seq: int, entry: dict[str, Any]) -> None:
        """Store one accepted action as one small row (``seq``: the table's count after it),
        signed together with the table, its number and the signature of the row before it
        (the snapshot's, for the first action after it): a row moved to another table or
        place, edited or dropped from the middle breaks the chain. The table's last stored
        action must be ``seq - 1`` (else ``RuntimeError``: two writers). One statement, which
        writes only if this process's fencing token is the table's (else :class:`LeaseLost`)."""
        token = self._token(table_id)
        last, previous = self._head(table_id)
        if last != seq - 1:
            raise RuntimeError(f"table {table_id}: stored record is not at seq {seq - 1}")
        text = dumps(entry)  # the server's fast encoder: an action row is written per action
        sig = self._sign_action(table_id, seq, previous, text)
        cur = self._db.execute(
            "INSERT INTO actions (table_id, seq, entry, sig)"
            " SELECT ?, CAST(? AS BIGINT), ?, ? WHERE EXISTS"
            f" (SELECT 1 FROM leases WHERE table_id = ? AND token = CAST(? AS BIGINT){self._share})",
            (table_id, seq, text, sig, table_id, token),
        )
        if cur.rowcount != 1:
            raise self._lost(table_id)
        self._heads[table_id] = (seq, sig or "")

    # -- leases --------------------------------------------------------------------------------

    def _token(self, table_id: str) -> int:
        """This process's fencing token for the table (:class:`LeaseLost` if it holds none)."""
        token = self.tokens.get(table_id)
        if token is None:
            raise LeaseLost(f"table {table_id}: this process does not hold its lease")
        return token

    def _lost(self, table_id: str) -> LeaseLost:
        """Forget a table whose write the database refused; the error to raise."""
        self.forget(table_id)
        return LeaseLost(f"table {table_id}: another process holds its lease now; the write was refused")

    def forget(self, table_id: str) -> None:
        """Stop holding the table (its token and cached head dropped; the lease row is let be)."""
        self.tokens.pop(table_id, None)
        self._heads.pop(table_id, None)

    def acquire(self, table_id: str, now: float | None = None, *, steal: bool = False) -> Lease | None:
        """Take the table's lease if it is free (run out, released, or never taken; any lease
        when ``steal``): ``None`` if another process holds it. Its token is one more than the
        last owner's, which fences that owner off; the record is to be read *after* this."""
        now = time.time() if now is None else now
        self.forget(table_id)
        row = self._db.execute(
            "SELECT token, expires, renewed FROM leases WHERE table_id = ?", (table_id,)
        ).fetchone()
        if row is None:
            cur = self._db.execute(
                "INSERT INTO leases (table_id, owner, token, expires, renewed) VALUES (?,?,1,?,?)"
                " ON CONFLICT (table_id) DO NOTHING",
                (table_id, self.owner, now + self.lease, now),
            )
            lease = Lease(1, None)
        else:
            token, expires, renewed = int(row[0]), float(row[1]), float(row[2])
            if expires >= now and not steal:
                return None
            # Compare and set: of two processes taking the same lease, one changes the token.
            cur = self._db.execute(
                "UPDATE leases SET owner = ?, token = ?, expires = ?, renewed = ? WHERE table_id = ? AND token = ?",
                (self.owner, token + 1, now + self.lease, now, table_id, token),
            )
            lease = Lease(token + 1, renewed if renewed > 0 else None)
        if cur.rowcount != 1:
            return None
        self.tokens[table_id] = lease.token
        return lease

    def renew(self, now: float | None = None) -> set[str]:
        """Renew every lease this process holds (one statement); the tables whose lease it
        lost (another process took them: their tokens are dropped)."""
        now = time.time() if now is None else now
        rows = self._db.execute(
            "UPDATE leases SET expires = ?, renewed = ? WHERE owner = ? RETURNING table_id, token",
            (now + self.lease, now, self.owner),
        ).fetchall()
        held = {str(t): int(k) for t, k in rows}
        lost = {t for t, k in self.tokens.items() if held.get(t) != k}
        for table_id in lost:
            self.forget(table_id)
        return lost

    def release(self, table_id: str | None = None) -> None:
        """Let the table's lease (every lease of this process: ``None``) run out now, so that
        another process may take it at once (after a clean stop, or a table closed)."""
        now = time.time()
        for t, token in (
            list(self.tokens.items()) if table_id is None else [(table_id, self.tokens.get(table_id))]
        ):
            if token is not None:
                self._db.execute(
                    "UPDATE leases SET expires = 0, renewed = ? WHERE table_id = ? AND token = ?",
                    (now, t, token),
                )
            self.forget(t)

    def free_tables(self, now: float | None = None, *, every: bool = False) -> list[str]:
        """The open tables no process holds (their lease run out, released, or never taken;
        every open table if ``every``), oldest first: the ones to take over."""
        now = time.time() if now is None else now
        rows = self._db.execute(
            "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id"
            " WHERE t.closed IS NULL AND (l.expires IS NULL OR l.expires < ? OR ?) ORDER BY t.created, t.id",
            (now, every),
        )
        return [str(r[0]) for r in rows]

    def is_open(self, table_id: str) -> bool:
        """Is there a stored open table ``table_id``?"""
        row = self._db.execute("SELECT 1 FROM tables WHERE id = ? AND closed IS NULL", (table_id,)).fetchone()
        return row is not None

    def owner_of(self, table_id: str, now: float | None = None) -> str | None:
        """The process whose lease on the table is running (``None``: no one's)."""
        now = time.time() if now is None else now
        row = self._db.execute(
            "SELECT owner FROM leases WHERE table_id = ? AND expires >= ?", (table_id, now)
        ).fetchone()
        return None if row is None else str(row[0])

    def owners(self, now: float | None = None) -> list[str]:
        """Every process that holds a running lease."""
        now = time.time() if now is None else now
        rows = self._db.execute("SELECT DISTINCT owner FROM leases WHERE expires >= ?", (now,))
        return sorted(str(r[0]) for r in rows)

    def _head(self, table_id: str) -> tuple[int, str]:
        """The table's last stored seq and signature (``(-1, "")``: no such table)."""
        head = self._heads.get(table_id)
        if head is None:
            row = (
                self._db.execute(
                    "SELECT seq, sig FROM actions WHERE table_id = ? ORDER BY seq DESC LIMIT 1", (table_id,)
                ).fetchone()
                or self._db.execute("SELECT seq, sig FROM tables WHERE id = ?", (table_id,)).fetchone()
            )
            head = (-1, "") if row is None else (int(row[0]), str(row[1] or ""))
        return head

    def beat(self, now: float | None = None) -> None:
        """Note that the server is alive now (the turn clocks' reference after a crash)."""
        self._db.execute(
            "INSERT INTO server (name, value) VALUES ('alive', ?)"
            " ON CONFLICT(name) DO UPDATE SET value = excluded.value",
            (repr(time.time() if now is None else now),),
        )

    def last_alive(self) -> float | None:
        """When the server last noted it was alive (``None``: never, or not a finite time)."""
        row = self._db.execute("SELECT value FROM server WHERE name = 'alive'").fetchone()
        try:
            value = float(row[0]) if row is not None else None
        except ValueError:
            return None
        return value if value is not None and 0 < value < 1e11 else None

    # -- reading -------------------------------------------------------------------------------

    _COLUMNS = "id, game, seq, meta, snapshot, updated, closed, sig"

    def load_all(self, *, include_closed: bool = False) -> list[StoredTable]:
        """Every stored table, oldest first, each with its ``problem`` if it has one: the open
        ones and every row that cannot be trusted (unless ``include_closed``, the closed rows
        are left out only once their signature shows they were closed by the server: an open
        table whose ``closed`` column was edited is a row with a problem, not a closed one)."""
        rows = self._db.execute(f"SELECT {self._COLUMNS} FROM tables ORDER BY created, id")
        out = (self._read(r) for r in rows)
        return [t for t in out if include_closed or t.closed is None or t.problem is not None]

    def load(self, table_id: str) -> StoredTable | None:
        """One stored table, or ``None``."""
        r = self._db.execute(f"SELECT {self._COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if r is None else self._read(r)

    def hands(self, table_id: str) -> list[StoredHand]:
        """The finished hands of a table, oldest first: each hand's history (load it with
        :func:`vncards.history.loads`, which replays it) and why it cannot be trusted, if it
        cannot (``problem``)."""
        rows = self._db.execute(
            "SELECT hand, history, sig FROM hands WHERE table_id = ? ORDER BY hand", (table_id,)
        )
        out = []
        for number, history, sig in rows:
            problem = None
            if self._key is not None:
                want = self._sign_hand(table_id, number, history)
                if not isinstance(sig, str) or want is None or not hmac.compare_digest(want, sig):
                    problem = "the hand's signature does not match"
            out.append(StoredHand(table_id, number, history, problem))
        return out

    def _read(self, r: tuple[Any, ...]) -> StoredTable:
        table_id, game, seq, meta_text, snapshot, updated, closed, sig = r
        table_id = str(table_id)
        problem = None
        meta: dict[str, Any] = {}
        if not (isinstance(game, str) and isinstance(seq, int) and isinstance(meta_text, str)):
            problem = "a column has the wrong type"
        elif not isinstance(snapshot, str):
            problem = "the snapshot is not text"
        elif closed is not None and not isinstance(closed, float):
            problem = "the closing time is not a time"
        elif self._key is not None:
            want = self._sign(table_id, game, seq, closed, meta_text, snapshot)
            if not isinstance(sig, str):
                problem = "the row is not signed"
            elif want is None or not hmac.compare_digest(want, sig):
                problem = (
                    "the row signature does not match (edited, copied from another table or rolled back)"
                )
        if problem is None:
            try:
                data = loads(meta_text, "meta")
            except Refused as e:
                problem = f"the session record is not strict JSON ({e.message})"
            else:
                if isinstance(data, dict):
                    meta = data
                else:
                    problem = "the session record is not a JSON object"
        actions: list[dict[str, Any]] = []
        if problem is None and isinstance(seq, int):
            problem, last_sig = self._read_actions(
                table_id, seq, sig if isinstance(sig, str) else "", actions
            )
            if problem is None:
                self._heads[table_id] = (seq + len(actions), last_sig)
        return StoredTable(
            table_id,
            game if isinstance(game, str) else "?",
            seq if isinstance(seq, int) else -1,
            meta,
            snapshot if isinstance(snapshot, str) else "",
            float(updated) if isinstance(updated, (int, float)) else 0.0,
            closed if isinstance(closed, float) else None,
            problem,
            tuple(actions),
        )

    def _read_actions(
        self, table_id: str, seq: int, sig: str, out: list[dict[str, Any]]
    ) -> tuple[str | None, str]:
        """Read the table's action rows after ``seq`` into ``out``, checking their chain
        (numbers one after another, each signed with the one before): the problem, if any,
        and the last row's signature."""
        rows = self._db.execute(
            "SELECT seq, entry, sig FROM actions WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, seq)
        )
        previous, expect = sig, seq + 1
        for number, entry, tag in rows:
            if number != expect or not isinstance(entry, str):
                return f"action row {expect} is missing or malformed", previous
            if self._key is not None:
                want = self._sign_action(table_id, number, previous, entry)
                if not isinstance(tag, str) or want is None or not hmac.compare_digest(want, tag):
                    return (
                        f"action row {number}: the signature does not match (edited, moved or out of order)",
                        previous,
                    )
            try:
                data = loads(entry, "action")
            except Refused as e:
                return f"action row {number} is not strict JSON ({e.message})", previous
            if not isinstance(data, dict):
                return f"action row {number} is not a JSON object", previous
            out.append(data)
            previous, expect = tag if isinstance(tag, str) else "", expect + 1
        return None, previous

    def close(self) -> None:
        """Release this process's leases and close the database."""
        try:
            self.release()
        finally:
            self._db.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute(self._begin)
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")


def is_postgres(db: str) -> bool:
    """Is ``db`` a PostgreSQL URL (``postgresql://USER@HOST[:PORT]/DB``) rather than a file?"""
    return db.startswith(("postgresql://", "postgres://"))


def _postgres_types(statement: str) -> str:
    """A statement of the SQLite schema in PostgreSQL's types: times as double precision,
    sequence numbers as 64-bit integers; with the columns added to SQLite files since."""
    statement = statement.replace(" REAL ", " DOUBLE PRECISION ").replace(" INTEGER ", " BIGINT ")
    if "CREATE TABLE IF NOT EXISTS tables" in statement:
        added = "".join(
            f",\n    {column} {kind.replace('REAL', 'DOUBLE PRECISION')}" for column, kind in _ADDED.items()
        )
        statement = statement.rstrip().removesuffix(")") + added + "\n)"
    return statement


class _Postgres:
    """A PostgreSQL connection (psycopg 3, the ``server`` extra) used as the store uses its
    SQLite one: ``execute(sql, params)`` with ``?`` placeholders, each statement committed
    unless inside an explicit ``BEGIN`` ... ``COMMIT``."""

    def __init__(self, url: str) -> None:
        import psycopg

        self._conn = psycopg.connect(url, autocommit=True)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._conn.execute(sql.replace("?", "%s"), params)

    def close(self) -> None:
        self._conn.close()


#: ``json.dumps(value, separators=(",", ":"))`` without a new encoder per call (signed once an action).
_COMPACT = json.JSONEncoder(separators=(",", ":")).encode


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
