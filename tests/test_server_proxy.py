"""Forwarded headers (issue 37, item 1): ``vncards serve`` trusts ``X-Forwarded-For`` only
from the proxies named by ``--forwarded-allow-ips``. By default a client that forges the header
on each request is still one client (its address), held to one set of limits; behind a named
proxy, the limits count the address the proxy forwards. Real HTTP and WebSocket requests to a
served process, as a client or a proxy would send them."""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
ws_sync = pytest.importorskip("websockets.sync.client")

from websockets.exceptions import ConnectionClosed  # noqa: E402

from support.server_proc import running_server  # noqa: E402

# The connections are opened outside a with block, to be closed together at the end.
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")

#: The server's connection limit per client (``ServerConfig.conns_per_client``).
CONNS_PER_CLIENT = 64


def _create(port: int, forwarded: str | None) -> int:
    headers = {"content-type": "application/json"}
    if forwarded is not None:
        headers["x-forwarded-for"] = forwarded
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("POST", "/api/tables", json.dumps({"game": "tienlen"}), headers)
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


@contextlib.contextmanager
def _connections() -> Iterator[list[Any]]:
    """The connections a test opens, closed together at the end (one by one takes seconds)."""
    conns: list[Any] = []
    try:
        yield conns
    finally:
        with ThreadPoolExecutor(16) as pool:
            list(pool.map(lambda ws: ws.close(), conns))


def _connect(conns: list[Any], port: int, table: str, forwarded: str) -> str:
    """Open a spectator connection claiming to come from ``forwarded``: the first frame's type
    (``state``), or the refusal's code."""
    ws = ws_sync.connect(
        f"ws://127.0.0.1:{port}/ws/{table}",
        additional_headers={"x-forwarded-for": forwarded},
        open_timeout=10,
        close_timeout=1,
        ping_interval=None,
        proxy=None,
    )
    conns.append(ws)
    with contextlib.suppress(ConnectionClosed):  # a refused connection is closed at once
        ws.send(json.dumps({"type": "hello", "id": 0}))
    frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return str(frame["type"] if frame["type"] == "state" else frame["code"])


def test_a_forged_forwarded_header_gives_no_client_more_room(tmp_path: Path) -> None:
    with running_server(tmp_path / "t.sqlite", "--bot-delay", "0") as server:
        created = [_create(server.port, f"198.51.100.{i}") for i in range(40)]
        # One client (127.0.0.1): bursts of 5 tables, 10 a minute; each header is ignored.
        assert 1 <= created.count(201) <= 6 and created.count(429) == 40 - created.count(201), created
        table = server.get("/api/tables")[0]["id"]
        with _connections() as conns:
            answers = [
                _connect(conns, server.port, table, f"203.0.113.{i}") for i in range(CONNS_PER_CLIENT + 4)
            ]
        assert answers.count("state") == CONNS_PER_CLIENT
        assert answers[CONNS_PER_CLIENT:] == ["too_many_connections"] * 4


def test_behind_a_named_proxy_the_forwarded_address_is_the_client(tmp_path: Path) -> None:
    with running_server(
        tmp_path / "t.sqlite", "--bot-delay", "0", "--forwarded-allow-ips", "127.0.0.1"
    ) as server:
        first = [_create(server.port, "198.51.100.7") for _ in range(10)]
        assert 1 <= first.count(201) <= 6 and first[-1] == 429, first
        # Another address behind the proxy is another client, with limits of its own.
        assert _create(server.port, "198.51.100.8") == 201
        # uvicorn takes the right-most address the proxy did not add: a client's own header
        # in front of it changes nothing.
        assert _create(server.port, "10.9.9.9, 198.51.100.7") == 429
        table = server.get("/api/tables")[0]["id"]
        with _connections() as conns:
            answers = [
                _connect(conns, server.port, table, "203.0.113.1") for _ in range(CONNS_PER_CLIENT + 1)
            ]
            assert answers.count("state") == CONNS_PER_CLIENT and answers[-1] == "too_many_connections"
            assert _connect(conns, server.port, table, "203.0.113.2") == "state"
