"""Several ``vncards serve`` processes on one PostgreSQL database: a client plays through a
process that does not own its table (HTTP and WebSocket, relayed over LISTEN/NOTIFY); a
process frozen past its lease (SIGSTOP) finds its table taken over and never writes it again;
the owner of a table is SIGKILLed mid-hand, with clients connected, again and again, and
another process takes the table over from its stored record: no acknowledged action is lost,
none is applied twice (ten kills per game, twenty in this file; the leases last 2 s).

Needs a PostgreSQL server (``VNCARDS_TEST_POSTGRES``, as the store tests); skipped without."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
psycopg = pytest.importorskip("psycopg")
ws_sync = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

from support.postgres import fresh_database  # noqa: E402
from support.server_proc import Server, free_port, replayed  # noqa: E402

#: Lease of the test servers (seconds): short, so that a takeover comes soon after a kill, yet
#: three renewal rounds long, so that a loaded machine does not lose a live owner its lease.
LEASE = 2.0
#: Owner kills per game in the kill test.
KILLS = 10


class Cluster:
    """``n`` server processes on one database, each on its own 127.0.0.1 port, one key."""

    def __init__(self, tmp_path: Path, url: str, n: int) -> None:
        self.tmp_path, self.url, self.started = tmp_path, url, 0
        #: Each running server by its process name in the leases.
        self.by_process: dict[str, Server] = {}
        self.servers = [self._new() for _ in range(n)]

    def _new(self) -> Server:
        self.started += 1
        server = Server(
            self.url,
            free_port(),
            "--key-file",
            str(self.tmp_path / "server.key"),
            "--lease",
            str(LEASE),
            "--bot-delay",
            "0",
            "--seat-rate",
            "1000",
            log=self.tmp_path / f"server{self.started}.log",
        )
        server.start()
        self.by_process[server.get("/api/server")["process"]] = server
        return server

    def owner(self, table: str) -> Server:
        """The process holding the table's lease now."""
        with psycopg.connect(self.url) as db:
            (process,) = db.execute("SELECT owner FROM leases WHERE table_id = %s", (table,)).fetchone()
        return self.by_process[process]

    def others(self, server: Server) -> list[Server]:
        return [s for s in self.servers if s is not server]

    def replace(self, dead: Server) -> None:
        """A new process in place of a killed one (on another port)."""
        self.servers[self.servers.index(dead)] = self._new()

    def stored(self, table: str) -> tuple[int, dict[str, Any]]:
        """The stored sequence number (the last action row's, else the snapshot's) and the
        snapshot of the hand in play."""
        with psycopg.connect(self.url) as db:
            seq, snapshot = db.execute("SELECT seq, snapshot FROM tables WHERE id = %s", (table,)).fetchone()
            (last,) = db.execute("SELECT max(seq) FROM actions WHERE table_id = %s", (table,)).fetchone()
        return max(seq, last or 0), json.loads(snapshot)["hand"]

    def kill_all(self) -> None:
        for server in self.servers:
            server.signal(signal.SIGCONT)
            server.kill()


@pytest.fixture
def cluster(tmp_path: Path, request: Any) -> Iterator[Cluster]:
    with fresh_database() as url:
        c = Cluster(tmp_path, url, getattr(request, "param", 2))
        try:
            yield c
        finally:
            c.kill_all()


def _request(server: Server, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """An HTTP request to one process: its status and JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data, {"content-type": "application/json"}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=15) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def _new_table(server: Server, game: str, turn_seconds: float = 3600) -> dict[str, Any]:
    """A table of four open seats whose first hand is still to play (a dealt instant win ends
    one at once), forced moves left to the clients."""
    for _ in range(20):
        body = {"game": game, "seats": [None] * 4, "turn_seconds": turn_seconds, "auto_forced": False}
        table: dict[str, Any] = server.post("/api/tables", body)
        if not table["is_over"]:
            return table
    raise AssertionError("twenty instant wins in a row")


def _hello(server: Server, table: str, token: str | None, wait: float) -> tuple[Any, dict[str, Any]] | None:
    """A WebSocket to ``server`` for ``table`` and its first state frame (``None`` if it was
    closed or said nothing within ``wait`` seconds)."""
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    with contextlib.ExitStack() as stack:
        ws = stack.enter_context(ws_sync.connect(url, open_timeout=10, close_timeout=1))
        try:
            ws.send(json.dumps({"type": "hello", "token": token, "id": 0}))
            while True:
                frame = json.loads(ws.recv(timeout=wait))
                if frame["type"] == "state":
                    stack.pop_all()  # the caller closes it
                    return ws, frame
                assert frame["type"] == "presence", frame
        except (TimeoutError, ConnectionClosed):
            return None


def _connect(
    servers: list[Server], table: str, token: str | None, rng: random.Random
) -> tuple[Any, dict[str, Any]]:
    """What a client does: connect to any process (as behind a load balancer) until one
    answers with the table's state; a connection to a process that cannot serve the table
    yet (its owner died, the lease is still running) is closed or silent: try again."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got = _hello(rng.choice(servers), table, token, 2 * LEASE + 2)
        if got is not None:
            return got
        time.sleep(0.2)
    raise AssertionError("the table did not come back within 60 s")


def _next_frame(ws: Any) -> dict[str, Any]:
    """The next frame other than ``presence``."""
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if frame["type"] != "presence":
            return frame


def _recv_state(ws: Any) -> dict[str, Any]:
    frame = _next_frame(ws)
    assert frame["type"] == "state", frame
    return frame


def test_a_client_plays_through_a_process_that_does_not_own_the_table(cluster: Cluster) -> None:
    owner, other = cluster.servers
    tid = _new_table(owner, "tienlen")["id"]
    assert cluster.owner(tid) is owner
    # HTTP through the other process: join, the table, bad input refused as by the owner.
    tokens = [other.post(f"/api/tables/{tid}/join", {"seat": s, "name": f"p{s}"})["token"] for s in range(4)]
    status, table = _request(other, "GET", f"/api/tables/{tid}")
    assert status == 200 and [s["name"] for s in table["seats"]] == ["p0", "p1", "p2", "p3"]
    for server in (owner, other):
        assert _request(server, "POST", f"/api/tables/{tid}/join", {"seat": 9}) == (
            400,
            {"error": "invalid_seat", "message": "no seat 9 at this 4-seat table"},
        )
        assert _request(server, "POST", f"/api/tables/{tid}/join", {"seat": 0})[1]["error"] == "seat_taken"
        assert _request(server, "POST", f"/api/tables/{tid}/close", {})[0] == 403
        assert _request(server, "GET", "/api/tables/no-such")[1]["error"] == "no_table"
    # Each process's lobby lists every process's tables.
    mine = _new_table(other, "samloc")["id"]
    for server in (owner, other):
        assert {tid, mine} <= {line["id"] for line in server.get("/api/tables")}
    # WebSocket: every seat through the other process; a move, its answer, a refusal.
    with contextlib.ExitStack() as stack:
        conns, frames = {}, {}
        for s in range(4):
            got = _hello(other, tid, tokens[s], 10)
            assert got is not None
            conns[s] = stack.enter_context(got[0])
            frames[s] = got[1]
        seat = frames[0]["view"]["pending_seats"][0]
        conns[seat].send(json.dumps({"type": "act", "action": {"type": "pass"}, "id": 7}))
        refused = _next_frame(conns[seat])
        assert refused["type"] == "error" and refused["ack"] == 7 and refused["code"] != "table_moved"
        action = frames[seat]["legal_actions"][0]
        conns[seat].send(json.dumps({"type": "act", "action": action, "id": 8}))
        for s in range(4):
            frames[s] = _recv_state(conns[s])
            assert frames[s]["seq"] == 1 and frames[s].get("ack") == (8 if s == seat else None)
        # The same table seen directly at its owner.
        got = _hello(owner, tid, tokens[seat], 10)
        assert got is not None
        got[0].close()
        assert got[1]["seq"] == 1 and got[1]["view"] == frames[seat]["view"]
    assert cluster.stored(tid)[0] == 1
    assert cluster.owner(tid) is owner  # relaying moved nothing


def test_a_process_that_lost_its_lease_never_writes_again(cluster: Cluster) -> None:
    """The owner is frozen (SIGSTOP) past its lease with a client connected; the other
    process takes the table over and play goes on there; the frozen process wakes up with a
    move to make that is legal in the state it knows: the database refuses its write, it
    stops serving the table and lets its client go; the record is the new owner's alone."""
    rng = random.Random(34)
    old, new = cluster.servers
    tid = _new_table(old, "tienlen")["id"]
    tokens = [old.post(f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(4)]
    with contextlib.ExitStack() as stack:
        stale = {}
        for s in range(4):
            got = _hello(old, tid, tokens[s], 10)
            assert got is not None
            stale[s] = got
            stack.enter_context(got[0])
        old.signal(signal.SIGSTOP)
        # The client of the seat to act sends a move legal in the state the frozen owner knows.
        seat = stale[0][1]["view"]["pending_seats"][0]
        ws, frame = stale[seat]
        ws.send(json.dumps({"type": "act", "action": rng.choice(frame["legal_actions"]), "id": 1}))
        # Meanwhile the others reconnect through the other process, which takes the table
        # over once the lease has run out, and play three moves there.
        ws2, frame2 = _connect([new], tid, tokens[seat], rng)
        stack.enter_context(ws2)
        assert cluster.owner(tid) is new and frame2["seq"] == 0
        for n in range(1, 4):
            mover = frame2["view"]["pending_seats"][0]
            ws_m, frame_m = _connect([new], tid, tokens[mover], rng)
            with ws_m:
                ws_m.send(
                    json.dumps({"type": "act", "action": rng.choice(frame_m["legal_actions"]), "id": n})
                )
                assert _recv_state(ws_m)["seq"] == n
            frame2 = _recv_state(ws2)
        old.signal(signal.SIGCONT)
        # The woken process answers the move with a refusal (its write refused), or closes
        # first (its renewal found the lease gone); never with a state frame.
        answers = []
        with contextlib.suppress(ConnectionClosed):
            while True:
                answers.append(json.loads(ws.recv(timeout=15)))
                assert answers[-1]["type"] in ("error", "presence"), answers
                if answers[-1]["type"] == "error":
                    assert answers[-1]["code"] == "table_moved", answers
        assert ws.close_code == 1012, (answers, ws.close_code, ws.close_reason)
        seq, hand = cluster.stored(tid)
        assert seq == 3 and len(hand["actions"]) <= 3
        # The woken process relays to the new owner now.
        status, table = _request(old, "GET", f"/api/tables/{tid}")
        assert status == 200 and table["seq"] == 3


def test_a_takeover_cannot_spend_a_players_turn(cluster: Cluster) -> None:
    """The owner dies during a person's 5-second turn; another process takes the table over
    once the lease has run out: the seat to act is still to act, with at least 10 s from the
    takeover (the time no one served the table is not counted), and no bot plays for it."""
    owner, other = cluster.servers
    table = _new_table(owner, "tienlen", turn_seconds=5)
    tid = table["id"]
    tokens = [owner.post(f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(4)]
    got = _hello(owner, tid, tokens[0], 10)
    assert got is not None
    with got[0]:
        turn = got[1]["view"]["pending_seats"][0]
    owner.kill()
    killed = time.monotonic()
    ws, frame = _connect([other], tid, tokens[turn], random.Random(1))
    with ws:
        waited = time.monotonic() - killed
        assert frame["view"]["pending_seats"] == [turn] and frame["seq"] == 0
        # 10 s from the takeover, which came after the kill; time_left is rounded to 0.1 s.
        left = frame["table"]["time_left"][str(turn)]
        assert left >= 10.0 - waited - 0.05, (left, waited)
        assert not [e for e in frame["log"] if e["type"] == "timeout"]
        with contextlib.suppress(TimeoutError):  # nothing happens by itself in the next second
            while True:
                f = json.loads(ws.recv(timeout=1.0))
                assert f["type"] == "presence", f
    assert cluster.stored(tid)[0] == 0


@pytest.mark.parametrize("cluster", [3], indirect=True)
@pytest.mark.parametrize("game", ["tienlen", "samloc"])
def test_sigkill_the_owner_mid_hand_again_and_again(cluster: Cluster, game: str) -> None:
    """Three processes; four clients, each connected to any of them. The table's owner is
    SIGKILLed between moves (sometimes with a move sent and not answered), ten times; a new
    process starts in its place; the clients reconnect by themselves and play on. Each time
    the table's sequence number says whether the unanswered move was applied, and at the end
    of each hand the stored actions are exactly the moves acknowledged (plus the unanswered
    ones applied), and their replay gives the settlement the clients saw."""
    rng = random.Random(game)
    kills = tables = 0
    while kills < KILLS:
        kills = _play_through_owner_kills(cluster, game, rng, kills)
        tables += 1
        assert tables < 10
    assert kills == KILLS


def _play_through_owner_kills(cluster: Cluster, game: str, rng: random.Random, kills: int) -> int:
    """Play a new table's hand to its end with random moves, killing its owner between moves
    until ``kills`` reaches :data:`KILLS`; check every move was applied exactly once."""
    tid = _new_table(rng.choice(cluster.servers), game)["id"]
    tokens = [
        rng.choice(cluster.servers).post(f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(4)
    ]
    played: list[Any] = []  # the moves applied, as the clients learn it
    unanswered: Any = None
    while True:
        with contextlib.ExitStack() as stack:
            conns, frames = {}, {}
            for s in range(4):
                ws, frames[s] = _connect(cluster.servers, tid, tokens[s], rng)
                conns[s] = stack.enter_context(ws)
            seq = frames[0]["seq"]
            assert all(f["seq"] == seq for f in frames.values())
            if unanswered is not None:  # was the move the owner died with applied?
                assert seq in (len(played), len(played) + 1)
                if seq == len(played) + 1:
                    played.append(unanswered)
                unanswered = None
            assert seq == len(played)
            if frames[0]["table"]["is_over"]:
                break
            for _ in range(rng.randint(2, 8)):
                pending = [t for t in range(4) if frames[t]["legal_actions"]]
                if not pending:
                    break
                s = rng.choice(pending)
                action = rng.choice(frames[s]["legal_actions"])
                conns[s].send(json.dumps({"type": "act", "action": action, "id": len(played)}))
                if kills < KILLS and rng.random() < 0.5:
                    unanswered = action
                    break  # kill with this move unanswered
                for t in range(4):
                    frames[t] = _recv_state(conns[t])
                    assert frames[t]["seq"] == len(played) + 1
                played.append(action)
            if kills < KILLS:  # (after the last kill, the hand is played out)
                owner = cluster.owner(tid)
                owner.kill()
                kills += 1
                cluster.replace(owner)
    final = frames[0]
    seq, hand = cluster.stored(tid)
    assert seq == final["seq"] == len(played) == len(hand["actions"])
    assert hand["actions"] == played
    replay = replayed(hand)
    assert replay.is_over and replay.settlement == final["view"]["settlement"] == final["table"]["totals"]
    return kills


@pytest.mark.parametrize("size", [10, 7_836, 7_837, 40_000])
def test_a_long_message_goes_in_pieces_and_comes_back_whole(size: int) -> None:
    """A notification carries at most 8,000 bytes: a longer relayed message (a state frame
    with a long log, a lobby of many tables) is cut into pieces, never inside a character,
    and put back together by its receiver, frames as they are and other messages as JSON."""
    import asyncio
    from types import SimpleNamespace

    from vncards.server.relay import PIECE_BYTES, Relay

    async def nothing(*_: Any) -> None:
        return None

    async def sent() -> list[tuple[str, str]]:
        relay = Relay(
            SimpleNamespace(owner="ab12"),  # type: ignore[arg-type]  # a stand-in with only the owner the relay reads
            "",
            serves=lambda _: False,
            lobby_lines=list,
            serve_websocket=nothing,
            app=None,
        )
        relay._flushing = asyncio.get_running_loop().create_task(nothing())  # nothing leaves
        text = ("Tiến Lên ♠ " * size)[:size]
        await relay.send("cd34", {"k": "text", "c": "ab12.7", "t": text})
        await relay.send("cd34", {"k": "reply", "c": "ab12.8", "lines": [text]})
        assert all(name == "vncards_cd34" for name, _ in relay._outbox)
        assert all(len(payload.encode()) <= PIECE_BYTES for _, payload in relay._outbox)
        whole = [m for m in (relay._piece(p) for _, p in relay._outbox) if m is not None]
        assert whole == [
            {"k": "text", "c": "ab12.7", "t": text},
            {"k": "reply", "c": "ab12.8", "lines": [text]},
        ]
        return relay._outbox

    assert len(asyncio.run(sent())) > 2 or size < 7_000
