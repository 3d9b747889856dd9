"""Load test of the reference server: N concurrent tables, four bot *clients* each, over real
WebSockets on the loopback interface.

Each client joins its seat by token and, whenever its state frame offers legal actions, picks
one (after ``--think`` seconds, the pace of a player) and sends it. Reported: accepted actions
per second, the latency from a client's send to the state frame that acknowledges it (p50,
p90, p99, max), refused frames, protocol errors, and lost actions (actions a client saw
acknowledged that the server's stored row does not hold, or the reverse). The machine's load
average is printed with the figures, since the server shares the machine with these clients.

Bounded in count and time: ``--tables`` tables play ``--hands`` hands each, and the run stops
after ``--timeout`` seconds whatever happens.

    python benches/server_load.py --tables 200 --think 1.0     # 200 tables at a player's pace
    python benches/server_load.py --tables 200 --think 0       # saturated: as fast as it goes
    python benches/server_load.py --url http://127.0.0.1:8000  # a server that is already running
    python benches/server_load.py --tables 200 --flood         # while one seat floods on 10 connections
    python benches/server_load.py --startup 1000               # start-up time, 1000 rows, one of them bad
    python benches/server_load.py --tables 1 --think 0.2 --flood    # another table's pings while one seat floods
    python benches/server_load.py --open-tables 60             # tables one client (no token) opens in 60 s
    python benches/server_load.py --largest-row                # the largest row one Mậu Binh seat can cause
    python benches/server_load.py --record 2000                # bytes per action, restore time, one long table
    python benches/server_load.py --tables 60 --think 0 --against ../main/python   # side by side
    python benches/server_load.py --tables 60 --think 0 --postgres postgresql://USER@HOST/postgres
    python benches/server_load.py --tables 60 --think 0 --processes 2 --postgres URL   # 1 vs 2 processes
    python benches/server_load.py --takeover 5 --postgres URL  # takeover after SIGKILL, default lease

Tables are made with ``auto_forced`` off (the clients make every move, as before the server
made forced moves itself), so runs before and after that change do the same work. The bench
starts its server with an operator token (``--create-token``), which it needs to open more
tables than one client may.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import secrets
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    finished: int = 0


def _post(url: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _create(base: str, body: dict[str, Any], token: str | None) -> Any:
    """``POST /api/tables``; a server from before ``auto_forced`` (which made no forced moves
    either) refuses the field as unknown, so it is sent again without it."""
    try:
        return _post(f"{base}/api/tables", body, token)
    except urllib.error.HTTPError as e:
        if e.code != 400 or "auto_forced" not in body:
            raise
        return _post(f"{base}/api/tables", {k: v for k, v in body.items() if k != "auto_forced"}, token)


def _post_from(source: str, url: str, body: dict[str, Any]) -> int:
    """``POST`` from the loopback address ``source`` (one client, as the server sees it):
    the status."""
    host, port = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    try:
        path = "/" + url.split("://", 1)[1].split("/", 1)[1]
        conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
        r = conn.getresponse()
        r.read()
        return r.status
    finally:
        conn.close()


def _pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` in milliseconds (NaN when there are none)."""
    v = sorted(values)
    return round(1000 * v[min(len(v) - 1, int(q * len(v)))], 2) if v else float("nan")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _source(ws_url: str, index: int) -> dict[str, Any]:
    """Each client from its own loopback address when the server is local (the server limits
    connections per address, as people at a table come from different addresses)."""
    if "://127.0.0.1:" not in ws_url:
        return {}
    return {"local_addr": (f"127.0.{1 + index // 250}.{2 + index % 250}", 0)}


async def seat_client(
    ws_url: str,
    table: str,
    seat: int,
    token: str,
    args: argparse.Namespace,
    stats: Stats,
    rng: random.Random,
    index: int = 0,
) -> None:
    """One player's client: acts whenever its frame offers legal actions."""
    async with connect(
        f"{ws_url}/ws/{table}", max_size=2**22, open_timeout=60, **_source(ws_url, index)
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "id": 0}))
        next_id, sent_at, hands_done = 1, 0.0, 0
        waiting: int | None = None
        async for raw in ws:
            frame = json.loads(raw)
            kind = frame["type"]
            if kind == "error":
                if frame.get("ack") is not None and frame["ack"] == waiting:
                    waiting = None
                    if frame["code"] in ("not_your_turn", "game_over", "hand_not_over") or frame[
                        "code"
                    ].startswith("invalid"):
                        stats.refused += 1  # a stale choice in a multi-seat window: the engine said no
                    else:
                        stats.errors.append(frame["code"])
                else:
                    stats.errors.append(frame["code"])
                continue
            if kind != "state" or frame.get("forced"):
                continue  # presence frames; a move the table makes by itself
            if frame.get("ack") is not None and frame["ack"] == waiting:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.acked[table] = stats.acked.get(table, 0) + 1
                waiting = None
            if frame["table"]["is_over"]:
                hands_done = frame["table"]["hand_number"]
                if hands_done >= args.hands:
                    if seat == 0:
                        stats.finished += 1
                    return
                if seat == 0 and waiting is None:
                    waiting, next_id = next_id, next_id + 1
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "next_hand", "id": waiting}))
                continue
            legal = frame["legal_actions"]
            if legal and waiting is None:
                if args.think:
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
                action = rng.choice(legal)
                waiting, next_id = next_id, next_id + 1
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "id": waiting}))


async def flood_seat(
    ws_url: str, table: str, token: str, action: dict[str, Any], counts: dict[str, int]
) -> None:
    """One connection of a seat that sends the same move as fast as it can."""
    try:
        async with connect(f"{ws_url}/ws/{table}", max_size=2**22, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token, "id": 0}))
            await ws.recv()
            i = 0
            while True:
                i += 1
                await ws.send(json.dumps({"type": "act", "action": action, "id": i}))
                with contextlib.suppress(TimeoutError):
                    while True:
                        f = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                        key = f.get("code") or f["type"]
                        counts[key] = counts.get(key, 0) + 1
    except Exception as e:  # closed by the server (replaced, flooding): counted
        counts[type(e).__name__] = counts.get(type(e).__name__, 0) + 1


async def ping_probe(ws_url: str, table: str, pings: list[float], stop: asyncio.Event) -> None:
    """A spectator of ``table`` that pings every 150 ms (inside a connection's frame rate)
    and records each round trip (a ping not answered within 30 s ends the probe, recorded as
    ``inf``)."""
    async with connect(f"{ws_url}/ws/{table}", max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "id": 0}))
        i = 0
        while not stop.is_set():
            i += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "id": i}))
            try:
                while True:
                    f = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    if f["type"] == "pong" and f.get("ack") == i:
                        pings.append(time.perf_counter() - sent)
                        break
                    if f["type"] == "error":  # refused before it was read: not a ping figure
                        raise RuntimeError(f"the probe's ping was refused: {f['code']}")
            except asyncio.TimeoutError:  # not TimeoutError before 3.11
                pings.append(float("inf"))
                return
            await asyncio.sleep(0.15)


async def run(
    args: argparse.Namespace,
    base: str,
    pid: int | None = None,
    others: Sequence[str] = (),
    spread: bool = False,
    pids: Sequence[int] = (),
) -> tuple[Stats, float, list[str], dict[str, int], list[float], float]:
    """The clients' run. With ``others`` (more processes on the server's database), the
    tables are created on each process in turn, and each table's clients connect to the
    process that owns it, or (``spread``) client *i* to process *i* mod *n*, as a load
    balancer that knows nothing of tables would send them; ``pids``: every server process."""
    stats = Stats()
    seats: list[tuple[str, int, str, str]] = []
    tables: list[str] = []
    token = args.create_token
    bases = [base, *others]
    for k in range(args.tables):
        home = bases[k % len(bases)]
        body = {"game": args.game, "seats": [None] * 4, "turn_seconds": 3600, "auto_forced": False}
        t = _create(home, body, token)
        tables.append(t["id"])
        for s in range(4):
            seat_token = _post(f"{home}/api/tables/{t['id']}/join", {"seat": s}, token)["token"]
            seats.append((t["id"], s, seat_token, home))
    ws_url = base.replace("http://", "ws://")
    flood: dict[str, int] = {}
    flooders: list[asyncio.Task[None]] = []
    if args.flood:
        body = {"game": "maubinh", "seats": [None, "greedy", "greedy", "greedy"], "turn_seconds": 3600}
        mb = _create(base, body, token)
        seat_token = _post(f"{base}/api/tables/{mb['id']}/join", {"seat": 0}, token)["token"]
        async with connect(f"{ws_url}/ws/{mb['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": seat_token}))
            legal = json.loads(await ws.recv())["legal_actions"]
        arrange = next(a for a in legal if a["type"] == "arrange")
        flooders = [
            asyncio.create_task(flood_seat(ws_url, mb["id"], seat_token, arrange, flood)) for _ in range(10)
        ]
    rng = random.Random(args.seed)
    # the server's CPU once the tables are set up
    setup_cpu = sum(map(_cpu_seconds, pids)) if pids else _cpu_seconds(pid) if pid else 0.0
    start = time.perf_counter()

    def ws_of(i: int, home: str) -> str:
        return (bases[i % len(bases)] if spread else home).replace("http://", "ws://")

    tasks = [
        asyncio.create_task(
            seat_client(ws_of(i, home), t, s, tok, args, stats, random.Random(rng.random()), i)
        )
        for i, (t, s, tok, home) in enumerate(seats)
    ]
    pings: list[float] = []
    stop = asyncio.Event()
    probe = asyncio.create_task(ping_probe(ws_url, tables[0], pings, stop)) if args.flood and tables else None
    done, pending = await asyncio.wait(tasks, timeout=args.timeout)
    stop.set()
    for task in [*pending, *flooders]:
        task.cancel()
    if probe is not None:
        try:
            await asyncio.wait_for(probe, 60)
        except Exception as e:  # the probe's own failure is an error of the run
            stats.errors.append(f"ping probe: {e!r}")
    for task in done:
        if task.exception() is not None:
            stats.errors.append(repr(task.exception()))
    return stats, time.perf_counter() - start, tables, flood, pings, setup_cpu


def open_tables(base: str, seconds: float) -> dict[str, Any]:
    """Tables one client (127.0.0.2, no operator token) opens in ``seconds``, asking again as
    soon as it is answered; then whether another client (127.0.0.3) is still served."""
    url = f"{base}/api/tables"
    statuses: dict[int, int] = {}
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        status = _post_from("127.0.0.2", url, {"game": "tienlen"})
        statuses[status] = statuses.get(status, 0) + 1
        if status == 503:  # the server is full: nothing more to learn
            break
        if status != 201:
            time.sleep(0.05)
    wall = time.perf_counter() - t0
    return {
        "seconds": round(wall, 1),
        "created": statuses.get(201, 0),
        "created_per_minute": round(60 * statuses.get(201, 0) / wall, 1),
        "answers": {str(k): v for k, v in sorted(statuses.items())},
        "another_client": _post_from("127.0.0.3", url, {"game": "samloc"}),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


async def largest_row(base: str, db: Path, token: str | None, limit: float) -> dict[str, Any]:
    """One Mậu Binh seat re-arranges as fast as the server lets it (one connection, the same
    arrangement each time) until it is refused ``too_many_actions`` or ``limit`` seconds pass;
    the table's stored row (session record and snapshot) before and after, in characters."""
    body = {"game": "maubinh", "seats": [None, "greedy", "greedy", "greedy"], "turn_seconds": 3600}
    t = _create(base, body, token)
    seat_token = _post(f"{base}/api/tables/{t['id']}/join", {"seat": 0}, token)["token"]

    def row() -> int:
        with sqlite3.connect(db) as con:
            cols = [c[1] for c in con.execute("PRAGMA table_info(tables)")]
            fields = [c for c in ("meta", "snapshot") if c in cols]
            got = con.execute(f"SELECT {', '.join(fields)} FROM tables WHERE id = ?", (t["id"],)).fetchone()
            return sum(len(x or "") for x in got)

    first = row()
    counts: dict[str, int] = {}
    t0 = time.perf_counter()
    async with connect(f"{base.replace('http://', 'ws://')}/ws/{t['id']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": seat_token, "id": 0}))
        legal = json.loads(await ws.recv())["legal_actions"]
        arrange = next(a for a in legal if a["type"] == "arrange")
        i = 0
        while time.perf_counter() - t0 < limit:
            i += 1
            await ws.send(json.dumps({"type": "act", "action": arrange, "id": i}))
            while True:
                f = json.loads(await asyncio.wait_for(ws.recv(), 60))
                # A frame refused before it is read (the connection's rate) carries no ack.
                if f.get("ack") == i or (f["type"] == "error" and f.get("ack") is None):
                    break
            key = f.get("code") or "accepted"
            counts[key] = counts.get(key, 0) + 1
            if key == "too_many_actions":
                break
            if key == "rate_limited":
                await asyncio.sleep(0.05)
    last = row()
    accepted = counts.get("accepted", 0)
    return {
        "seconds": round(time.perf_counter() - t0, 1),
        "answers": counts,
        "row_chars_at_deal": first,
        "row_chars_after": last,
        "chars_per_accepted_arrange": round((last - first) / accepted, 1) if accepted else None,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def _wait_up(base: str, proc: subprocess.Popen[bytes] | None, limit: float = 600.0) -> float:
    """Seconds until ``base`` answers ``GET /api/tables``."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < limit:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError("the server exited")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(base + "/api/tables", timeout=5).read()
            return time.perf_counter() - t0
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


def _serve_cmd(port: int, db: Path | str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "vncards",
        "serve",
        "--port",
        str(port),
        "--db",
        str(db),
        "--bot-delay",
        "0",
        *extra,
    ]


def startup(rows: int, bad: int) -> dict[str, Any]:
    """Start-up time of ``vncards serve`` on a database of ``rows`` signed tables (each a few
    moves into its hand), ``bad`` of them edited so that they cannot be resumed."""
    from vncards.server import load_key
    from vncards.server.store import TableStore
    from vncards.server.table import TableSession

    tmp = Path(tempfile.mkdtemp(prefix="vncards-startup-"))
    db = tmp / "tables.sqlite"
    key = load_key(str(db) + ".key")
    store = TableStore(db, key)
    rng = random.Random(1)
    games = ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]
    for i in range(rows):
        session = TableSession.create(f"t{i:05d}", games[i % 5], seats=[None] * 4, turn_seconds=3600, key=key)
        store.insert(session.id, session.game_name, *session.to_record())
        for _ in range(8):
            if session.game.is_over:
                break
            seat = session.game.pending_seats[0]
            session.act(seat, rng.choice(session.game.legal_actions(seat)), by="bot")
            store.update(session.id, session.game_name, session.seq, *session.to_record())
    store.close()
    with sqlite3.connect(db) as con:
        for i in range(bad):
            con.execute("UPDATE tables SET meta = '{not json' WHERE id = ?", (f"t{i * 7 % rows:05d}",))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(tmp / "server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(_serve_cmd(port, db), stdout=subprocess.DEVNULL, stderr=log)
    try:
        seconds = _wait_up(base, proc)
        with urllib.request.urlopen(base + "/api/tables", timeout=60) as r:
            lines = json.loads(r.read())
    finally:
        proc.terminate()
        proc.wait(30)
    return {
        "rows": rows,
        "bad_rows": bad,
        "startup_s": round(seconds, 2),
        "served": sum(1 for x in lines if "seats" in x),
        "reported_broken": sum(1 for x in lines if "broken" in x),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


@contextlib.contextmanager
def _fresh_postgres(url: str, prefix: str) -> Any:
    """A new database beside the one ``url`` names (its URL), dropped afterwards."""
    import psycopg

    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _stored_seqs(db: Path | str) -> dict[str, int]:
    """Each stored table's last stored seq: its row's, or its last action row's."""
    if isinstance(db, str):  # PostgreSQL
        import psycopg

        with psycopg.connect(db) as con:
            stored: dict[str, int] = dict(con.execute("SELECT id, seq FROM tables").fetchall())
            for tid, last in con.execute("SELECT table_id, max(seq) FROM actions GROUP BY table_id"):
                stored[tid] = max(stored.get(tid, 0), last)
        return stored
    with sqlite3.connect(db) as con:
        stored = dict(con.execute("SELECT id, seq FROM tables").fetchall())
        with contextlib.suppress(sqlite3.OperationalError):  # a server before the action rows
            for tid, last in con.execute("SELECT table_id, max(seq) FROM actions GROUP BY table_id"):
                stored[tid] = max(stored.get(tid, 0), last)
    return stored


def _load(args: argparse.Namespace, pythonpath: str | None = None) -> dict[str, Any]:
    """One run: start a server (its ``PYTHONPATH`` is ``pythonpath`` if given) unless
    ``--url``, run the clients, stop it; the figures. With ``--postgres`` the server keeps
    its tables in a new PostgreSQL database, dropped after the run."""
    if args.postgres and args.url is None:
        with _fresh_postgres(args.postgres, "vncards_load") as url:
            return _load_on(args, pythonpath, url)
    return _load_on(args, pythonpath, None)


def _load_on(args: argparse.Namespace, pythonpath: str | None, postgres: str | None) -> dict[str, Any]:
    server: subprocess.Popen[bytes] | None = None
    tmp = Path(tempfile.mkdtemp(prefix="vncards-load-"))
    db: Path | str = postgres or (Path(args.db) if args.db else tmp / "tables.sqlite")
    base = args.url
    if base is None:
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        extra = ["--max-tables", str(args.tables + 10), "--key-file", str(tmp / "server.key")]
        if not (args.open_tables or args.largest_row or args.flood):
            # The clients act as fast as they are answered: a seat's flood limit (4 moves/s)
            # is not what this measures, and a refused move would stall its table.
            extra += ["--seat-rate", "10000"]
        if not args.open_tables:  # the client in that run is a client like any other
            args.create_token = secrets.token_urlsafe(32)
            extra += [f"--create-token={args.create_token}"]  # a token may start with "-"
        cmd = _serve_cmd(port, db, *extra)
        env = dict(os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {}))
        log = open(tmp / "server.log", "wb")  # noqa: SIM115 (the server's, closed when it exits)
        server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)
        _wait_up(base, server, 30)
    if args.open_tables or args.largest_row:
        try:
            if args.open_tables:
                out = open_tables(base, args.open_tables)
            else:
                assert isinstance(db, Path), "--largest-row reads a SQLite file"
                out = asyncio.run(largest_row(base, db, args.create_token, args.timeout))
        finally:
            if server is not None:
                server.terminate()
                server.wait(30)
        return {"kind": "open tables" if args.open_tables else "largest row", "out": out}
    pid = server.pid if server is not None else args.server_pid
    try:
        cpu0, client0 = (_cpu_seconds(pid) if pid else 0.0), time.process_time()
        stats, wall, tables, flood, pings, setup_cpu = asyncio.run(run(args, base, pid))
        end_cpu = _cpu_seconds(pid) if pid else 0.0
        server_cpu = end_cpu - cpu0 if pid else None
        play_cpu = end_cpu - setup_cpu if pid else None
        client_cpu = time.process_time() - client0
        with urllib.request.urlopen(base + "/api/tables", timeout=60) as r:
            served = {t["id"]: t["seq"] for t in json.loads(r.read())}
        stored = _stored_seqs(db) if server is not None or args.db else dict(served)
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)
    # Every action a client saw acknowledged is in the table's count, served and stored.
    lost = sum(abs(stored[t] - stats.acked.get(t, 0)) + abs(served[t] - stored[t]) for t in tables)
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    result = {
        "tables": args.tables,
        "game": args.game,
        "hands_per_table": args.hands,
        "think_s": args.think,
        "tables_finished": stats.finished,
        "actions": len(lat),
        "wall_s": round(wall, 2),
        "actions_per_s": round(len(lat) / wall, 1),
        "latency_ms": {
            "p50": round(pct(0.50), 2),
            "p90": round(pct(0.90), 2),
            "p99": round(pct(0.99), 2),
            "max": round(1000 * lat[-1], 2) if lat else None,
            "mean": round(1000 * statistics.fmean(lat), 2) if lat else None,
        },
        "refused_stale": stats.refused,
        "errors": len(stats.errors),
        "error_kinds": sorted(set(stats.errors))[:5],
        "lost_actions": lost,
        "server_cpu_ms_per_action": round(1000 * server_cpu / len(lat), 3) if server_cpu and lat else None,
        "server_cpu_ms_per_action_play": round(1000 * play_cpu / len(lat), 3) if play_cpu and lat else None,
        "client_cpu_ms_per_action": round(1000 * client_cpu / len(lat), 3) if lat else None,
        "loadavg": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
    }
    if args.flood:
        result["flood"] = flood
        result["other_table_ping_ms"] = {
            "pings": len(pings),
            "p50": _pct(pings, 0.5),
            "p99": _pct(pings, 0.99),
            "max": round(1000 * max(pings), 2) if pings else None,
            "unanswered_30s": sum(p == float("inf") for p in pings),
        }
    return result


def record(actions: int, game: str, seed: int, postgres: str | None = None) -> dict[str, Any]:
    """The stored record of one long table, in this process: ``actions`` random actions
    through the server's own path (apply, store, tell no one), with a snapshot every 64
    actions and each action between one row (the default), and with a snapshot after every
    action (each action rewrote the table's row before the append-only record). Reported:
    bytes written per action (the rows' text), CPU per action, and the time to restore the
    table (its snapshot and the actions after it, checked and replayed) where it stopped.
    With ``postgres`` (the URL of a database to create others from), the same on PostgreSQL."""
    from vncards.server import ServerConfig, load_key

    def fresh(one: Any, every: int) -> dict[str, Any]:
        """``one(every)`` on a new PostgreSQL database, dropped after."""
        assert postgres is not None
        with _fresh_postgres(postgres, "vncards_bench") as url:
            out: dict[str, Any] = asyncio.run(one(every, url))
            return out

    from vncards.server.game_server import GameServer
    from vncards.server.store import TableStore

    async def one(every: int, db: str | None = None) -> dict[str, Any]:
        tmp = Path(tempfile.mkdtemp(prefix="vncards-record-"))
        db = db or str(tmp / "t.sqlite")
        config = ServerConfig(db=db, key=load_key(tmp / "t.key"), bot_delay=0, snapshot_every=every)
        server = GameServer(config)
        await server.start()
        written = [0]
        store = server.store
        assert store is not None
        update, append = store.update, store.append

        def counted_update(*a: Any, **k: Any) -> None:
            written[0] += len(json.dumps(a[3])) + len(a[4])
            update(*a, **k)

        def counted_append(table_id: str, seq: int, entry: dict[str, Any]) -> None:
            written[0] += len(json.dumps(entry))
            append(table_id, seq, entry)

        store.update, store.append = counted_update, counted_append  # type: ignore[method-assign]
        body = {"game": game, "seats": [None] * 4, "turn_seconds": 3600, "auto_forced": False}
        session, _ = server.create_table(body, operator=True)
        live = server.tables[session.id]
        rng = random.Random(seed)
        cpu = time.process_time()
        done = 0
        while done < actions:
            s = live.session
            if s.game.is_over:
                await server.next_hand(live)
                continue
            seat = s.game.pending_seats[0]
            await server.act(live, seat, rng.choice(s.legal(seat)), by="bot")
            done += 1
        cpu = time.process_time() - cpu
        replayed = live.session.seq - live.snapshot_seq
        await server.stop()
        again = TableStore(db, config.key)
        t0 = time.perf_counter()
        row = again.load(session.id)
        assert row is not None and row.problem is None, row
        restored = GameServer(config)._session(row)
        restore = time.perf_counter() - t0
        assert restored.seq == live.session.seq
        again.close()
        return {
            "snapshot_every": every,
            "bytes_per_action": round(written[0] / actions, 1),
            "cpu_ms_per_action": round(1000 * cpu / actions, 3),
            "restore_ms": round(1000 * restore, 2),
            "actions_replayed_at_restore": replayed,
            "db_bytes": sum(f.stat().st_size for f in tmp.glob("t.sqlite*")) or None,
        }

    return {
        "game": game,
        "actions": actions,
        "append_only": asyncio.run(one(64)),
        "row_per_action": asyncio.run(one(1)),
        **(
            {"postgresql": {"append_only": fresh(one, 64), "row_per_action": fresh(one, 1)}}
            if postgres
            else {}
        ),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


class _Processes:
    """``vncards serve`` processes on one PostgreSQL database (one key, one operator token),
    each on a free 127.0.0.1 port; terminated at the end of the ``with`` block."""

    def __init__(self, url: str, tmp: Path, *extra: str) -> None:
        self.url, self.tmp, self.extra = url, tmp, extra
        self.token = secrets.token_urlsafe(32)
        self.procs: list[tuple[subprocess.Popen[bytes], str]] = []

    def start(self) -> str:
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        extra = ["--key-file", str(self.tmp / "server.key"), "--create-token", self.token, *self.extra]
        with open(self.tmp / f"server{len(self.procs)}.log", "wb") as log:
            proc = subprocess.Popen(_serve_cmd(port, self.url, *extra), stdout=subprocess.DEVNULL, stderr=log)
        self.procs.append((proc, base))
        _wait_up(base, proc, 60)
        return base

    def __enter__(self) -> _Processes:
        return self

    def __exit__(self, *exc: Any) -> None:
        for proc, _ in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc, _ in self.procs:
            proc.wait(30)


def _cluster_run(args: argparse.Namespace, processes: int, spread: bool) -> dict[str, Any]:
    """One load run on ``processes`` server processes sharing a new PostgreSQL database:
    server CPU (all processes together) per accepted action, lost actions, latency."""
    tmp = Path(tempfile.mkdtemp(prefix="vncards-cluster-"))
    with (
        _fresh_postgres(args.postgres, "vncards_bench") as url,
        _Processes(url, tmp, "--max-tables", str(args.tables + 10), "--seat-rate", "1000") as ps,
    ):
        bases = [ps.start() for _ in range(processes)]
        pids = [proc.pid for proc, _ in ps.procs]
        args.create_token = ps.token
        cpu0 = sum(map(_cpu_seconds, pids))
        stats, wall, tables, _, _, setup_cpu = asyncio.run(run(args, bases[0], None, bases[1:], spread, pids))
        cpu = sum(map(_cpu_seconds, pids))
        with urllib.request.urlopen(bases[-1] + "/api/tables", timeout=60) as r:  # every process's
            served = {t["id"]: t["seq"] for t in json.loads(r.read())}
        stored = _stored_seqs(url)
    lost = sum(abs(stored[t] - stats.acked.get(t, 0)) + abs(served.get(t, -1) - stored[t]) for t in tables)
    n = len(stats.latencies)
    return {
        "processes": processes,
        "clients": "spread" if spread else "at the owner",
        "actions": n,
        "server_cpu_ms_per_action": round(1000 * (cpu - cpu0) / n, 3) if n else None,
        "server_cpu_ms_per_action_play": round(1000 * (cpu - setup_cpu) / n, 3) if n else None,
        "p99_ms": _pct(stats.latencies, 0.99),
        "lost_actions": lost,
        "errors": len(stats.errors),
        "error_kinds": sorted(set(stats.errors))[:5],
        "wall_s": round(wall, 1),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def cluster(args: argparse.Namespace) -> dict[str, Any]:
    """Server CPU per accepted action on PostgreSQL with one process, and with
    ``--processes`` processes on the same database, the tables spread over them: each
    table's clients at the process that owns it, and the clients spread over the processes
    (as a load balancer that knows nothing of tables sends them: most are relayed), in
    alternating rounds. The ratio is of medians (the machine's load shifts all alike)."""
    rows: dict[str, list[dict[str, Any]]] = {"one": [], "owner": [], "spread": []}
    for _ in range(args.rounds):
        rows["one"].append(_cluster_run(args, 1, False))
        rows["owner"].append(_cluster_run(args, args.processes, False))
        rows["spread"].append(_cluster_run(args, args.processes, True))
    out: dict[str, Any] = {}
    for side, results in rows.items():
        cpu = [r["server_cpu_ms_per_action"] or 0.0 for r in results]
        out[side] = {
            "server_cpu_ms_per_action": cpu,
            "median": statistics.median(cpu),
            "play_only": [r["server_cpu_ms_per_action_play"] for r in results],
            "p99_ms": [r["p99_ms"] for r in results],
            "lost_actions": sum(r["lost_actions"] for r in results),
            "errors": sum(r["errors"] for r in results),
            "loadavg": [r["loadavg"][0] for r in results],
        }
    for side in ("owner", "spread"):
        out[f"ratio_{side}_over_one"] = round(out[side]["median"] / (out["one"]["median"] or 1.0), 3)
    return out


def takeover(admin_url: str, kills: int, lease: float | None) -> dict[str, Any]:
    """Seconds from the SIGKILL of a table's owner to the table answering again, as a client
    connected through another process sees it (its WebSocket closed, then reconnecting every
    0.2 s until a state frame comes), ``kills`` times, with the default lease unless
    ``lease``. A new process takes the dead one's place each time."""
    from websockets.sync.client import connect as sync_connect

    tmp = Path(tempfile.mkdtemp(prefix="vncards-takeover-"))
    extra = [] if lease is None else ["--lease", str(lease)]
    seconds: list[float] = []
    with _fresh_postgres(admin_url, "vncards_bench") as url, _Processes(url, tmp, *extra) as ps:
        owner, other = ps.start(), ps.start()
        for k in range(kills):
            body = {"game": "tienlen", "seats": [None] * 4, "turn_seconds": 3600, "auto_forced": False}
            tid = _create(owner, body, ps.token)["id"]
            ws_url = other.replace("http://", "ws://") + f"/ws/{tid}"
            with sync_connect(ws_url) as ws:  # a spectator through the other process
                ws.send(json.dumps({"type": "hello", "id": 0}))
                while json.loads(ws.recv(timeout=30))["type"] != "state":
                    pass
                time.sleep(random.Random(k).uniform(0, 2))  # anywhere between two renewals
                proc = next(p for p, b in ps.procs if b == owner)
                proc.kill()
                killed = time.perf_counter()
                proc.wait(10)
            while True:
                try:
                    with sync_connect(ws_url, open_timeout=10) as ws:
                        ws.send(json.dumps({"type": "hello", "id": 0}))
                        while json.loads(ws.recv(timeout=60))["type"] != "state":
                            pass
                    break
                except Exception:
                    time.sleep(0.2)
            seconds.append(round(time.perf_counter() - killed, 2))
            owner, other = other, ps.start()  # the survivor owns the next table
    return {
        "lease_s": lease or "default",
        "kills": kills,
        "takeover_s": seconds,
        "max_s": max(seconds),
        "median_s": statistics.median(seconds),
        "loadavg": [round(x, 2) for x in os.getloadavg()],
    }


def compare(args: argparse.Namespace) -> None:
    """The same load on this checkout's server and on the one at ``--against`` (another
    checkout's ``python`` directory), in alternating rounds, side by side: the CPU per action
    of each, and their ratio (the machine's load shifts both alike)."""
    rows: dict[str, list[dict[str, Any]]] = {"this": [], "against": []}
    for _ in range(args.rounds):
        rows["against"].append(_load(args, args.against))
        rows["this"].append(_load(args, None))
    out = {
        side: {
            "server_cpu_ms_per_action": [r["server_cpu_ms_per_action"] for r in results],
            "median": statistics.median(r["server_cpu_ms_per_action"] or 0.0 for r in results),
            "play_only": [r["server_cpu_ms_per_action_play"] for r in results],
            "p99_ms": [r["latency_ms"]["p99"] for r in results],
            "actions_per_s": [r["actions_per_s"] for r in results],
            "lost_actions": sum(r["lost_actions"] for r in results),
            "errors": sum(r["errors"] for r in results),
            "loadavg": [r["loadavg"][0] for r in results],
        }
        for side, results in rows.items()
    }
    out["ratio_this_over_against"] = round(out["this"]["median"] / (out["against"]["median"] or 1.0), 3)
    if args.json:
        print(json.dumps(out))
        return
    print(
        f"server CPU per accepted action, {args.tables} tables × 4 clients, think {args.think} s,"
        f" {args.rounds} rounds, {'PostgreSQL' if args.postgres else 'SQLite'}"
    )
    for side in ("against", "this"):
        o = out[side]
        print(
            f"  {side:8} median {o['median']:.3f} ms  runs {o['server_cpu_ms_per_action']}"
            f" (set-up excluded: {o['play_only']})  actions/s {o['actions_per_s']}  p99 {o['p99_ms']} ms"
            f"  lost {o['lost_actions']}  errors {o['errors']}  load {o['loadavg']}"
        )
    print(f"  this / against    {out['ratio_this_over_against']}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--game", default="tienlen")
    p.add_argument("--hands", type=int, default=1, help="hands each table plays")
    p.add_argument("--think", type=float, default=1.0, help="mean seconds a client waits before acting")
    p.add_argument("--timeout", type=float, default=180.0, help="stop the run after this many seconds")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--url", default=None, help="bench this running server instead of starting one")
    p.add_argument("--server-pid", type=int, default=None, help="with --url: its pid, to report its CPU time")
    p.add_argument("--create-token", default=None, help="with --url: the server's operator token")
    p.add_argument("--flood", action="store_true", help="one Mậu Binh seat floods arranges on 10 connections")
    p.add_argument("--startup", type=int, default=0, metavar="ROWS", help="measure start-up time instead")
    p.add_argument("--bad-rows", type=int, default=1, help="with --startup: rows that cannot be resumed")
    p.add_argument(
        "--open-tables",
        type=float,
        default=0,
        metavar="S",
        help="tables one client opens in S seconds instead",
    )
    p.add_argument(
        "--largest-row", action="store_true", help="the largest row one Mậu Binh seat can cause instead"
    )
    p.add_argument(
        "--db", default=None, help="with --url: the server's SQLite file (for --largest-row, lost)"
    )
    p.add_argument(
        "--against",
        default=None,
        metavar="PYTHONPATH",
        help="also bench the server of another checkout (its python/ directory), side by side",
    )
    p.add_argument("--rounds", type=int, default=2, help="with --against: alternating runs of each")
    p.add_argument("--record", type=int, default=0, metavar="ACTIONS", help="one long table's record instead")
    p.add_argument(
        "--postgres",
        default=None,
        metavar="URL",
        help="the server keeps its tables in a new database of this PostgreSQL server "
        "(postgresql://USER@HOST/DB, a database to create others from); with --record: on PostgreSQL too; "
        "needed by --processes and --takeover",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=0,
        help="server CPU per action with this many processes on one PostgreSQL vs one (--rounds)",
    )
    p.add_argument(
        "--takeover", type=int, default=0, metavar="KILLS", help="takeover time after SIGKILL of the owner"
    )
    p.add_argument(
        "--lease", type=float, default=None, help="with --takeover: the servers' lease (default: theirs)"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.record:
        out = record(args.record, args.game, args.seed, args.postgres)
        print(json.dumps(out) if args.json else f"record: {json.dumps(out, indent=1)}")
        return
    if args.processes or args.takeover:
        if not args.postgres:
            p.error("--processes and --takeover need --postgres URL")
        if args.processes:
            out = cluster(args)
            print(json.dumps(out) if args.json else f"processes: {json.dumps(out, indent=1)}")
        if args.takeover:
            out = takeover(args.postgres, args.takeover, args.lease)
            print(json.dumps(out) if args.json else f"takeover: {out}")
        return
    if args.startup:
        out = startup(args.startup, args.bad_rows)
        print(json.dumps(out) if args.json else f"start-up: {out}")
        return

    if args.against:
        compare(args)
        return
    result = _load(args)
    if "kind" in result:
        print(json.dumps(result["out"]) if args.json else f"{result['kind']}: {result['out']}")
        return
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"server load: {args.tables} tables × 4 WebSocket clients, {args.game}, {args.hands} hand(s), think {args.think} s"
    )
    print(f"  finished tables   {result['tables_finished']}/{args.tables} in {result['wall_s']:.1f} s")
    print(f"  actions           {result['actions']}  ({result['actions_per_s']} accepted actions/s)")
    lm = result["latency_ms"]
    print(
        f"  send→view latency p50 {lm['p50']} ms  p90 {lm['p90']} ms  p99 {lm['p99']} ms  max {lm['max']} ms"
    )
    print(
        f"  refused (stale)   {result['refused_stale']}   errors {result['errors']} {result['error_kinds']}   "
        f"lost {result['lost_actions']}"
    )
    print(
        f"  CPU per action    server {result['server_cpu_ms_per_action']} ms "
        f"({result['server_cpu_ms_per_action_play']} ms once the tables are set up), "
        f"bench clients {result['client_cpu_ms_per_action']} ms (includes table setup)"
    )
    print(f"  load average      {result['loadavg']} on {os.cpu_count()} CPUs (the clients share the machine)")
    if args.flood:
        print(f"  flooding seat     answers {result['flood']}")
        print(f"  other table ping  {result['other_table_ping_ms']}")


if __name__ == "__main__":
    main()
