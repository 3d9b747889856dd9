"""A new, empty PostgreSQL database for a test, made from ``VNCARDS_TEST_POSTGRES`` (a URL of
a database the tests may create other databases from; ``.ci/run`` starts a throwaway cluster
and sets it) and dropped afterwards."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator

import pytest

POSTGRES = os.environ.get("VNCARDS_TEST_POSTGRES")


@contextlib.contextmanager
def fresh_database() -> Iterator[str]:
    """The URL of a new database (the test is skipped if no PostgreSQL server is named)."""
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
