"""The store on both of its databases: a SQLite file and PostgreSQL (``--db
postgresql://...``). Each test runs on each; PostgreSQL's runs need a server, named by the
``VNCARDS_TEST_POSTGRES`` environment variable (a URL of a database the tests may create other
databases from, e.g. ``postgresql://vncards@127.0.0.1:54329/postgres``; ``.ci/run`` starts a
throwaway cluster and sets it), and are skipped only where it is not set."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from support.postgres import fresh_database
from support.server_client import TestClient, join, live, new_table, play_moves, scripted
from vncards.server import create_app
from vncards.server.game_server import GameServer
from vncards.server.store import TableStore

KEY = b"a test key of the server, 32 b."


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: Any, tmp_path: Path) -> Iterator[str]:
    """A new, empty database: a SQLite file, or a PostgreSQL database made for the test."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.sqlite")
        return
    with fresh_database() as url:
        yield url


def test_a_table_is_stored_and_read_back(db: str) -> None:
    store = TableStore(db, KEY)
    store.insert("t1", "tienlen", {"players": 4}, "{}")
    store.update("t1", "tienlen", 1, {"players": 4}, '{"a":1}', hands=[(1, "hand one")])
    store.append("t1", 2, {"seat": 0, "n": 2})
    store.append("t1", 3, {"seat": 1, "n": 3})
    store.insert("t2", "samloc", {}, "{}")
    store.update("t2", "samloc", 0, {}, "{}", closed=1234.5)
    store.beat(1_700_000_000.25)
    store.close()
    again = TableStore(db, KEY)
    # The first store's close let its leases go: the second may write the table at once.
    lease = again.acquire("t1")
    assert lease is not None and lease.token == 2
    (row,) = again.load_all()  # the closed table is left out, once its signature says so
    assert (row.id, row.seq, row.snapshot, row.problem, row.last_seq) == ("t1", 1, '{"a":1}', None, 3)
    assert row.actions == ({"seat": 0, "n": 2}, {"seat": 1, "n": 3})
    closed = again.load("t2")
    assert closed is not None and closed.closed == 1234.5 and closed.problem is None
    assert [(h.hand, h.history, h.problem) for h in again.hands("t1")] == [(1, "hand one", None)]
    assert again.last_alive() == 1_700_000_000.25
    # The next action chains to the last one read back; a snapshot takes the rows in.
    again.append("t1", 4, {"seat": 2})
    again.update("t1", "tienlen", 4, {"players": 4}, '{"a":4}')
    row4 = again.load("t1")
    assert row4 is not None and (row4.seq, row4.actions, row4.problem) == (4, (), None)


@pytest.mark.parametrize(
    "edit",
    [
        "UPDATE tables SET seq = 2 WHERE id = 't1'",
        "UPDATE tables SET meta = '{\"players\": 5}' WHERE id = 't1'",
        "UPDATE tables SET closed = 99.0 WHERE id = 't1'",
        "UPDATE actions SET entry = '{\"seat\":3}' WHERE table_id = 't1' AND seq = 2",
        "DELETE FROM actions WHERE table_id = 't1' AND seq = 2",
        "UPDATE actions SET table_id = 't1' WHERE table_id = 't2'",
    ],
)
def test_every_edit_of_a_row_is_reported(db: str, edit: str) -> None:
    store = TableStore(db, KEY)
    for t in ("t1", "t2"):
        store.insert(t, "tienlen", {"players": 4}, "{}")
        store.append(t, 1, {"seat": 0, "table": t})
    store.append("t1", 2, {"seat": 1})
    store.append("t1", 3, {"seat": 2})
    if "t2" in edit:
        store._db.execute("DELETE FROM actions WHERE table_id = 't1'")
    store._db.execute(edit)
    store.close()
    rows = {r.id: r for r in TableStore(db, KEY).load_all()}
    assert rows["t1"].problem is not None, edit
    assert rows["t2"].problem is None or "t2" in edit


def test_two_writers_are_refused(db: str) -> None:
    store = TableStore(db, KEY)
    store.insert("t1", "tienlen", {}, "{}")
    store.append("t1", 1, {"seat": 0})
    with pytest.raises(RuntimeError, match="not at seq"):
        store.append("t1", 3, {"seat": 0})
    with pytest.raises(RuntimeError, match="not at seq"):
        store.update("t1", "tienlen", 5, {}, "{}")
    other = TableStore(db, KEY)  # a second process that read nothing yet
    with pytest.raises(Exception):  # noqa: B017 - the database's own duplicate-key error
        other.append("t1", 1, {"seat": 1})
    assert [r.actions for r in TableStore(db, KEY).load_all()] == [({"seat": 0},)]


def test_the_server_resumes_its_tables_from_either_store(db: str) -> None:
    config = scripted(db, key=KEY)
    with TestClient(create_app(config)) as client:
        t = new_table(client, seats=[None, None, None, None], turn_seconds=3600)["id"]
        tokens = [join(client, t, s) for s in range(4)]
        play_moves(client, t, tokens, 3)
        match = live(client, t).match.to_json()
    with TestClient(create_app(config)) as client:
        session = live(client, t)
        assert session.seq == 3 and session.match.to_json() == match
        play_moves(client, t, tokens, 1)
        # new_table may have opened a table before this one (a dealt instant win ends a hand
        # at once): read this table's line by its id, not by its place in the lobby.
        lines = {line["id"]: line for line in client.get("/api/tables").json()}
        assert lines[t]["seq"] == 4


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["acquire", "steal", "append", "snapshot", "renew", "wait"]), st.integers(0, 2)
        ),
        min_size=1,
        max_size=25,
    )
)
def test_only_the_lease_holder_writes(db: str, steps: list[tuple[str, int]]) -> None:
    """Three processes take one table from each other (when its lease ran out, or by force)
    and write it in any order: a write succeeds exactly when its process holds the table's
    current fencing token, and the record holds exactly the writes that succeeded."""
    stores = [TableStore(db, KEY, lease=10.0) for _ in range(3)]
    table = "t" + secrets.token_hex(4)
    clock = time.time()
    stores[0].insert(table, "tienlen", {}, "{}")
    written: list[dict[str, Any]] = []  # the actions after the last snapshot
    seq = 0
    try:
        for op, i in steps:
            store = stores[i]
            token, expires = store._db.execute(
                "SELECT token, expires FROM leases WHERE table_id = ?", (table,)
            ).fetchone()
            holds = store.tokens.get(table) == token
            if op == "wait":
                clock += 11.0  # longer than the lease
            elif op in ("acquire", "steal"):
                lease = store.acquire(table, clock, steal=op == "steal")
                assert (lease is not None) == (op == "steal" or expires < clock)
                if lease is not None:
                    assert lease.token == token + 1
            elif op == "renew":
                stale = {table} if table in store.tokens and not holds else set()
                assert store.renew(clock) == stale
            elif op == "append":
                entry = {"n": seq + 1, "by": i}
                if holds:
                    store.append(table, seq + 1, entry)
                    written.append(entry)
                    seq += 1
                else:
                    with pytest.raises(RuntimeError):
                        store.append(table, seq + 1, entry)
            elif holds:
                store.update(table, "tienlen", seq, {"by": i}, "{}")
                written.clear()
            else:
                with pytest.raises(RuntimeError):
                    store.update(table, "tienlen", seq, {"by": i}, "{}")
        row = TableStore(db, KEY).load(table)
        assert row is not None and row.problem is None
        assert (row.last_seq, list(row.actions)) == (seq, written)
    finally:
        for store in stores:
            store.close()


def test_the_serve_commands_lease_default_is_the_stores() -> None:
    """``vncards serve --help`` says the lease's real default (the CLI cannot import it)."""
    from vncards.cli import serve
    from vncards.server.store import LEASE_SECONDS

    assert serve.LEASE_SECONDS == LEASE_SECONDS


def test_a_takeover_lost_to_another_process_sends_the_request_there(db: str) -> None:
    """Two processes see a table's lease run out at once and both try to take it over: the
    one that loses the race sends the request to the one that won (it serves the table now),
    never answering "no such table" for a table that is there (the SIGKILL test of
    ``tests/test_server_cluster.py`` met that answer once)."""
    a = GameServer(scripted(db, key=KEY))
    a.store = TableStore(db, KEY, owner="a")
    a.relay = object()  # as on PostgreSQL: requests for another process's table go there
    b = TableStore(db, KEY, owner="b")
    b.insert("t1", "tienlen", {"players": 4}, "{}")
    b.release("t1")  # as a dead owner's lease runs out
    asked: list[str | None] = []
    owner_of = a.store.owner_of

    def racing(table_id: str, now: float | None = None) -> str | None:
        """The lease is free when ``a`` first looks; ``b`` takes it before ``a`` can."""
        asked.append(owner := owner_of(table_id, now))
        if len(asked) == 1:
            assert owner is None and b.acquire(table_id) is not None
        return owner

    a.store.owner_of = racing  # type: ignore[method-assign]  # the race, made to happen
    assert a.route("t1") == "b"
    assert asked == [None, "b"] and "t1" not in a.tables
    # No such table, or the lease still free after a failed takeover: answered here.
    assert a.route("t9") is None
    a.store.close()
    b.close()
