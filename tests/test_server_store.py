"""The store on both of its databases: a SQLite file and PostgreSQL (``--db
postgresql://...``). Each test runs on each; PostgreSQL's runs need a server, named by the
``VNCARDS_TEST_POSTGRES`` environment variable (a URL of a database the tests may create other
databases from, e.g. ``postgresql://vncards@127.0.0.1:54329/postgres``; ``.ci/run`` starts a
throwaway cluster and sets it), and are skipped only where it is not set."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from support.server_client import TestClient, join, live, new_table, play_moves, scripted
from vncards.server import create_app
from vncards.server.store import TableStore

KEY = b"a test key of the server, 32 b."
POSTGRES = os.environ.get("VNCARDS_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: Any, tmp_path: Path) -> Iterator[str]:
    """A new, empty database: a SQLite file, or a PostgreSQL database made for the test."""
    if request.param == "sqlite":
        yield str(tmp_path / "tables.sqlite")
        return
    if not POSTGRES:
        pytest.skip("no PostgreSQL server: set VNCARDS_TEST_POSTGRES")
    psycopg = pytest.importorskip("psycopg")
    name = "vncards_test_" + secrets.token_hex(6)
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


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
