"""Fault test: ``vncards serve`` is SIGKILLed mid-hand (sometimes right after a client sent a
move, before any answer), restarted on the same database, the clients reconnect with their
tokens and finish; no action is lost or applied twice, and the final settlement equals a
replay of the stored actions."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
ws_sync = pytest.importorskip("websockets.sync.client")

from support.server_proc import Server, free_port, replayed  # noqa: E402


def _connect(
    stack: contextlib.ExitStack, server: Server, table: str, token: str
) -> tuple[Any, dict[str, Any]]:
    url = f"ws://127.0.0.1:{server.port}/ws/{table}"
    ws = stack.enter_context(ws_sync.connect(url, open_timeout=10, close_timeout=1))
    ws.send(json.dumps({"type": "hello", "token": token, "id": 0}))
    frame = json.loads(ws.recv(timeout=10))
    assert frame["type"] == "state", frame
    return ws, frame


def _stored(db: Path, table: str) -> tuple[int, dict[str, Any]]:
    """The stored sequence number (the last action's row, else the snapshot's) and the
    snapshot of the hand in play."""
    with sqlite3.connect(db) as con:
        seq, snapshot = con.execute("SELECT seq, snapshot FROM tables WHERE id = ?", (table,)).fetchone()
        last = con.execute("SELECT max(seq) FROM actions WHERE table_id = ?", (table,)).fetchone()[0]
    return max(seq, last or 0), json.loads(snapshot)["hand"]


@pytest.mark.parametrize("game", ["tienlen", "tusac"])
def test_sigkill_mid_hand_then_resume_exactly(tmp_path: Path, game: str) -> None:
    rng = random.Random(game)
    db = tmp_path / "tables.sqlite"
    # A script moves faster than people: no per-seat move limit, and forced moves left to it.
    server = Server(db, free_port(), "--bot-delay", "0", "--seat-rate", "1000")
    server.start()
    try:
        # Three kills mid-hand. A hand may end before the third (random play ends about one
        # Tiến Lên hand in 700 within 24 moves, and a Tứ Sắc hand can be won in 20): it is
        # checked like any other, and the kills go on at a new table.
        kills = 0
        tables = 0
        while kills < 3:
            kills = _play_through_kills(server, db, game, rng, kills)
            tables += 1
            assert tables < 10
    finally:
        server.kill()


def _play_through_kills(server: Server, db: Path, game: str, rng: random.Random, kills: int) -> int:
    """Play a new table's hand to its end with random moves, killing the server between
    moves (sometimes with one unanswered) until ``kills`` reaches three; check the final
    settlement against a replay of the stored actions. Returns the kills made so far."""
    table = None
    for _ in range(20):
        table = server.post(
            "/api/tables", {"game": game, "seats": [None] * 4, "turn_seconds": 3600, "auto_forced": False}
        )
        if not table["is_over"]:
            break
    assert table is not None
    tid = table["id"]
    tokens = [server.post(f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(4)]
    sent = 0
    killed_here = False
    while True:
        stack = contextlib.ExitStack()
        seat_frames = {}
        conns = {}
        for s in range(4):
            conns[s], seat_frames[s] = _connect(stack, server, tid, tokens[s])
        seq = seat_frames[0]["seq"]
        if seat_frames[0]["table"]["is_over"]:
            break
        # After a restart the server's seq says whether the unanswered move was applied.
        assert seq in (sent, sent - 1) if killed_here else seq == sent
        sent = seq
        steps = rng.randint(3, 12)
        for i in range(steps):
            pending = [t for t in range(4) if seat_frames[t]["legal_actions"]]
            if not pending:
                break
            s = rng.choice(pending)
            action = rng.choice(seat_frames[s]["legal_actions"])
            conns[s].send(json.dumps({"type": "act", "action": action, "id": sent}))
            sent += 1
            if kills < 3 and i == steps - 1 and rng.random() < 0.7:
                break  # kill with this move unanswered
            for t in range(4):
                while True:
                    f = json.loads(conns[t].recv(timeout=10))
                    if f["type"] == "state":
                        break
                    assert f["type"] != "error", f
                seat_frames[t] = f
                assert f["seq"] == sent
        if kills < 3:
            server.kill()
            kills += 1
            killed_here = True
            stack.close()
            stored_seq, _ = _stored(db, tid)
            assert stored_seq in (sent, sent - 1)
            server.start()
        else:
            stack.close()
    stack.close()
    final = seat_frames[0]
    settlement = final["view"]["settlement"]
    stored_seq, snap = _stored(db, tid)
    assert stored_seq == final["seq"] == len(snap["actions"])
    replay = replayed(snap)
    assert replay.is_over and replay.settlement == settlement == final["table"]["totals"]
    return kills


def test_a_crash_cannot_spend_a_players_turn(tmp_path: Path) -> None:
    """SIGKILL during a human's turn, a restart later than the turn time, a reconnect: the
    seat to act gets its remaining time and at least 10 s (the downtime does not count), and
    no bot plays for it."""
    db = tmp_path / "tables.sqlite"
    server = Server(db, free_port(), "--bot-delay", "0")
    server.start()
    try:
        table = None
        for _ in range(20):
            # No forced moves: a first lead can be one (the 3♠ alone), and the table would make it.
            body = {"game": "tienlen", "seats": [None] * 4, "turn_seconds": 5, "auto_forced": False}
            table = server.post("/api/tables", body)
            if not table["is_over"]:
                break
        assert table is not None
        tid = table["id"]
        tokens = [server.post(f"/api/tables/{tid}/join", {"seat": s})["token"] for s in range(4)]
        with contextlib.ExitStack() as stack:
            _, frame = _connect(stack, server, tid, tokens[0])
            turn = frame["view"]["pending_seats"][0]
            assert 0 < frame["table"]["time_left"][str(turn)] <= 5
        server.kill()  # mid-turn
        _, before = _stored(db, tid)

        time.sleep(5.5)  # longer than the turn
        restarted = time.monotonic()
        server.start()
        with contextlib.ExitStack() as stack:
            ws, frame = _connect(stack, server, tid, tokens[turn])
            waited = time.monotonic() - restarted
            assert frame["view"]["pending_seats"] == [turn]
            # 10 s from the restart, less what the start-up and the reconnect took (a second
            # or more on a loaded machine); time_left is rounded to 0.1 s.
            left = frame["table"]["time_left"][str(turn)]
            assert left >= 10.0 - waited - 0.05, (left, waited)
            assert not [e for e in frame["log"] if e["type"] == "timeout"]
            # Nothing happens by itself in the next second either.
            with contextlib.suppress(TimeoutError):
                while True:
                    f = json.loads(ws.recv(timeout=1.0))
                    assert f["type"] == "presence", f
        seq, after = _stored(db, tid)
        assert seq == 0 and after["actions"] == before["actions"] == []
    finally:
        server.kill()
