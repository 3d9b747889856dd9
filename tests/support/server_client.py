"""Helpers for the server tests that drive the app through Starlette's test client: a config
for scripted clients, tables whose first hand is still to play, joining, and frames."""

from __future__ import annotations

import importlib.util
import warnings
from typing import Any

import pytest

if not any(importlib.util.find_spec(name) for name in ("httpx2", "httpx")):
    pytest.skip(
        "Starlette's test client needs httpx2 (httpx on Python 3.10): pip install 'vncards[test]'",
        allow_module_level=True,
    )

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # on Python 3.10 (no httpx2): starlette's note about httpx
    from starlette.testclient import TestClient

from vncards.server import ServerConfig
from vncards.server.table import TableSession

__all__ = ["TestClient", "scripted", "new_table", "join", "live", "recv", "hello", "play_moves"]


def scripted(db: str, **overrides: Any) -> ServerConfig:
    """A server config for scripted clients, which act faster than people: generous rate
    limits (flooding has its own tests) and forced moves left to the script (they have their
    own test), unless ``overrides`` say otherwise."""
    base: dict[str, Any] = dict(
        db=db,
        bot_delay=0.0,
        rate=1000.0,
        burst=1000.0,
        seat_rate=1000.0,
        seat_burst=1000.0,
        create_rate=1000.0,
        create_burst=1000.0,
        write_rate=1000.0,
        write_burst=1000.0,
        tables_per_client=1000,
        forced_delay=600.0,
    )
    return ServerConfig(**{**base, **overrides})


def new_table(client: TestClient, game: str = "tienlen", **body: Any) -> dict[str, Any]:
    """A new table whose first hand is still to play (a dealt instant win ends one at once)."""
    for _ in range(20):
        r = client.post("/api/tables", json={"game": game, **body})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        if not data["is_over"]:
            return data
    raise AssertionError("twenty instant wins in a row")


def join(client: TestClient, table: str, seat: int, name: str | None = None) -> str:
    """Take ``seat``: its token."""
    r = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name or f"p{seat}"})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def live(client: TestClient, table: str) -> TableSession:
    """The table's session object inside the app."""
    # TestClient.app is typed as any ASGI callable; this one is our Starlette app.
    session: TableSession = client.app.state.server.tables[table].session  # type: ignore[attr-defined]
    return session


def recv(ws: Any, kind: str | None = None) -> dict[str, Any]:
    """The next frame of type ``kind`` (any type but ``presence`` if none is named)."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind or (kind is None and frame["type"] != "presence"):
            return frame


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello (as a seat, or a spectator with no token): the first frame answered."""
    ws.send_json({"type": "hello", "token": token, "id": 1})
    return recv(ws)


def play_moves(client: TestClient, table: str, tokens: list[str], moves: int, pick: int = 0) -> None:
    """Make ``moves`` moves at ``table``, each the ``pick``-th legal action of the seat to act,
    sent by that seat on a connection of its own."""
    session = live(client, table)
    for i in range(moves):
        seat = session.game.pending_seats[0]
        with client.websocket_connect(f"/ws/{table}") as ws:
            f = hello(ws, tokens[seat])
            ws.send_json({"type": "act", "action": f["legal_actions"][pick], "id": i})
            recv(ws, "state")
