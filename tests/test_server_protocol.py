"""The server's WebSocket protocol through Starlette's test client: join, act, illegal and
malformed frames (typed errors, nothing changes), reconnect, time-out -> bot, spectators,
flooding, persistence across a restart, hands in sequence, and every frame of whole games of
every variant checked for leaks of another seat's hidden cards or token."""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from starlette.testclient import TestClient

from vncards.server import ServerConfig, create_app

GAMES = ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    # Scripted clients act faster than people: a generous rate limit (flooding has its own test).
    with TestClient(create_app(ServerConfig(db=db, bot_delay=0.0, rate=1000.0, burst=1000.0))) as c:
        yield c


def new_table(client: TestClient, game: str = "tienlen", **body: Any) -> dict[str, Any]:
    """A new table whose first hand is still to play (a dealt instant win ends one at once)."""
    for _ in range(20):
        r = client.post("/api/tables", json={"game": game, **body})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        if not data["is_over"]:
            return data
    raise AssertionError("twenty instant wins in a row")


def join(client: TestClient, table: str, seat: int) -> str:
    r = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": f"p{seat}"})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def live(client: TestClient, table: str) -> Any:
    return client.app.state.server.tables[table].session  # type: ignore[attr-defined]


def recv(ws: Any, kind: str | None = None) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if kind is None or frame["type"] == kind:
            return frame


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token, "id": 1})
    return recv(ws)


def test_join_act_and_every_seat_told(client: TestClient) -> None:
    t = new_table(client)["id"]
    tokens = [join(client, t, s) for s in range(4)]
    session = live(client, t)
    conns = [client.websocket_connect(f"/ws/{t}") for _ in range(4)]
    wss = [c.__enter__() for c in conns]
    try:
        frames = [hello(ws, tok) for ws, tok in zip(wss, tokens, strict=True)]
        for s, f in enumerate(frames):
            assert f["type"] == "state" and f["seat"] == s and f["ack"] == 1
            assert f["view"]["hand"] == [str(c) for c in session.game.hand(s)]
        seat = session.game.pending_seats[0]
        action = frames[seat]["legal_actions"][0]
        wss[seat].send_json({"type": "act", "action": action, "id": 7})
        for s, ws in enumerate(wss):
            f = recv(ws, "state")
            assert f["seq"] == 1
            assert f.get("ack") == (7 if s == seat else None)
        assert session.game.actions[-1]["seat"] == seat
    finally:
        for c in conns:
            c.__exit__(None, None, None)


def test_refused_frames_are_typed_and_change_nothing(client: TestClient) -> None:
    t = new_table(client)["id"]
    tokens = [join(client, t, s) for s in range(4)]
    session = live(client, t)
    turn = session.game.pending_seats[0]
    other = (turn + 1) % 4
    before = session.game.to_json()
    with client.websocket_connect(f"/ws/{t}") as ws, client.websocket_connect(f"/ws/{t}") as mine:
        hello(ws, tokens[other])
        f = hello(mine, tokens[turn])
        legal = f["legal_actions"][0]
        cases = [
            ({"type": "act", "action": {**legal, "seat": other}, "id": 2}, ws, "not_your_turn"),
            ({"type": "act", "action": {"type": "pass"}, "id": 3}, ws, "not_your_turn"),
            ({"type": "act", "action": {**legal, "seat": other}, "id": 4}, mine, "wrong_seat"),
            ({"type": "act", "action": {"type": "play", "cards": "2♥ 2♦ 2♣ 2♠"}, "id": 5}, mine, None),
            ({"type": "act", "action": {"type": "play", "cards": [[None]]}, "id": 6}, mine, None),
            ({"type": "act", "action": "play", "id": 8}, mine, "malformed"),
            ({"type": "act", "action": legal, "id": 9, "extra": 1}, mine, "malformed"),
            ({"type": "dance", "id": 10}, mine, "malformed"),
            ({"type": "act", "action": legal, "id": "x"}, mine, "malformed"),
        ]
        for msg, sock, code in cases:
            sock.send_json(msg)
            err = recv(sock)
            assert err["type"] == "error", (msg, err)
            if code is not None:
                assert err["code"] == code, (msg, err)
            session = live(client, t)  # an engine fault reloads the table from its row
            assert session.game.to_json() == before and session.seq == 0
        for text in ("not json", "[1, 2]", '{"type": 3}', "[" * 5000, "x" * 5000):
            mine.send_text(text)
            err = recv(mine)
            assert err["type"] == "error" and err["code"] in ("malformed", "too_large"), err
        mine.send_bytes(b"\x00\x01")
        assert recv(mine)["code"] == "too_large"
        assert session.game.to_json() == before and session.seq == 0


def test_hello_first_bad_token_and_unknown_table(client: TestClient) -> None:
    t = new_table(client)["id"]
    with client.websocket_connect(f"/ws/{t}") as ws:
        ws.send_json({"type": "act", "action": {"type": "pass"}})
        assert recv(ws)["code"] == "not_joined"
        ws.send_json({"type": "hello", "token": "guess"})
        assert recv(ws)["code"] == "bad_token"
    with client.websocket_connect("/ws/nope") as ws:
        assert recv(ws)["code"] == "no_table"


def test_tokens_are_unguessable_and_seats_single(client: TestClient) -> None:
    t = new_table(client)["id"]
    token = join(client, t, 1)
    assert len(token) >= 32
    r = client.post(f"/api/tables/{t}/join", json={"seat": 1})
    assert r.status_code == 409 and r.json()["error"] == "seat_taken"
    for bad in (-1, 4, "0", None, True):
        r = client.post(f"/api/tables/{t}/join", json={"seat": bad})
        assert r.status_code == 400, bad
    stored = json.dumps(live(client, t).to_record()[0])
    assert token not in stored  # only its hash is kept


def test_reconnect_with_token_restores_the_seat(client: TestClient) -> None:
    t = new_table(client)["id"]
    tokens = [join(client, t, s) for s in range(4)]
    session = live(client, t)
    turn = session.game.pending_seats[0]
    with client.websocket_connect(f"/ws/{t}") as ws:
        f = hello(ws, tokens[turn])
        ws.send_json({"type": "act", "action": f["legal_actions"][0], "id": 2})
        assert recv(ws, "state")["seq"] == 1
    with client.websocket_connect(f"/ws/{t}") as ws:
        f = hello(ws, tokens[turn])
        assert f["seat"] == turn and f["seq"] == 1 and f["events_from"] == 0
        assert f["events"] == session.game.events_for(turn)
        assert f["view"] == session.game.view(turn)


def test_spectator_sees_the_public_view_only(client: TestClient) -> None:
    t = new_table(client, "maubinh")["id"]
    session = live(client, t)
    with client.websocket_connect(f"/ws/{t}") as ws:
        f = hello(ws, None)
        assert f["seat"] is None and f["legal_actions"] == []
        assert f["view"] == session.game.public_view()
        hidden = {str(c) for s in range(4) for c in session.game.hand(s)}
        assert not hidden & set(_tokens(f))
        ws.send_json({"type": "act", "action": {"type": "forfeit", "seat": 0}})
        assert recv(ws)["code"] == "spectator"


def test_timeout_hands_the_seat_to_a_bot_and_the_log_says_so(db: str) -> None:
    with TestClient(create_app(ServerConfig(db=db, bot_delay=0.0))) as client:
        t = new_table(client, seats=[None, None, None, None], turn_seconds=0.2)["id"]
        session = live(client, t)
        seat = session.game.pending_seats[0]
        token = join(client, t, seat)
        with client.websocket_connect(f"/ws/{t}") as ws:
            hello(ws, token)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                f = recv(ws, "state")
                timeouts = [e for e in f["log"] if e["type"] == "timeout"]
                if timeouts:
                    break
            else:
                raise AssertionError("no time-out within 20 s")
        entry = timeouts[0]
        assert entry["seat"] == seat and entry["bot"] == "greedy"
        assert session.game.actions[0]["seat"] == seat


def test_maubinh_turn_timer_is_its_arrange_limit(client: TestClient) -> None:
    table = new_table(client, "maubinh")
    session = live(client, table["id"])
    assert session.turn_seconds == 45
    assert new_table(client)["id"] and live(client, new_table(client)["id"]).turn_seconds == 30


def test_flooding_is_rate_limited_then_closed(db: str) -> None:
    config = ServerConfig(db=db, bot_delay=0.0, rate=5.0, burst=10.0, flood_close=30)
    with TestClient(create_app(config)) as client:
        t = new_table(client)["id"]
        token = join(client, t, 0)
        with client.websocket_connect(f"/ws/{t}") as ws:
            hello(ws, token)
            codes = []
            for i in range(40):
                ws.send_json({"type": "ping", "id": i})
            try:
                for _ in range(40):
                    f = ws.receive_json()
                    codes.append(f.get("code") or f["type"])
            except Exception:
                pass
        assert "rate_limited" in codes
        assert codes.count("pong") <= 12


def test_bad_create_requests(client: TestClient) -> None:
    for body in (
        {"game": "poker"},
        {"game": "tienlen", "players": 9},
        {"game": "tienlen", "rules": {"no_such_option": 1}},
        {"game": "tienlen", "seats": ["greedy"]},
        {"game": "tienlen", "seats": [None, None, None, "nobot"]},
        {"game": "tienlen", "turn_seconds": -1},
        {"game": "tienlen", "what": 1},
    ):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, (body, r.text)
    r = client.post("/api/tables", content=b"x" * 20000, headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_restart_resumes_tables_and_tokens(db: str) -> None:
    with TestClient(create_app(ServerConfig(db=db, bot_delay=0.0))) as client:
        t = new_table(client)["id"]
        tokens = [join(client, t, s) for s in range(4)]
        session = live(client, t)
        for _ in range(5):
            seat = session.game.pending_seats[0]
            with client.websocket_connect(f"/ws/{t}") as ws:
                f = hello(ws, tokens[seat])
                ws.send_json({"type": "act", "action": f["legal_actions"][-1], "id": 2})
                recv(ws, "state")
        before = session.game.to_json()
    with TestClient(create_app(ServerConfig(db=db, bot_delay=0.0))) as client:
        again = live(client, t)
        assert again.seq == 5 and again.game.to_json() == before
        with client.websocket_connect(f"/ws/{t}") as ws:
            assert hello(ws, tokens[2])["seat"] == 2


def _tokens(frame: Any) -> Iterator[str]:
    """Every whitespace-separated word of every string in a frame (keys included)."""
    if isinstance(frame, dict):
        for k, v in frame.items():
            yield from _tokens(k)
            yield from _tokens(v)
    elif isinstance(frame, list):
        for v in frame:
            yield from _tokens(v)
    elif isinstance(frame, str):
        yield from frame.replace(",", " ").split()


def _lists(frame: Any) -> Iterator[list[Any]]:
    if isinstance(frame, dict):
        for v in frame.values():
            yield from _lists(v)
    elif isinstance(frame, list):
        yield frame
        for v in frame:
            yield from _lists(v)


def check_frame(frame: dict[str, Any], seat: int, game: Any, tokens: list[str]) -> None:
    """Nothing of another seat's hidden hand, no token, no snapshot in a frame to ``seat``."""
    words = set(_tokens(frame))
    for other, token in enumerate(tokens):
        if other != seat:
            assert token not in words, "another seat's token"
    assert not words & {"rng", "snapshot", "token_hash"}, "server-side data in a frame"
    if game.is_over:
        return
    for other in range(game.players):
        if other == seat:
            continue
        hidden = [str(c) for c in game.hand(other)]
        if game.GAME == "tusac":
            # Four copies of every piece: a copy of the hand itself must not appear.
            lists = [
                sorted(x)
                for x in _lists(frame)
                if len(x) == len(hidden) and all(isinstance(c, str) for c in x)
            ]
            assert sorted(hidden) not in lists, f"seat {other}'s hand reaches seat {seat}"
        else:
            assert not set(hidden) & words, f"seat {other}'s hidden cards reach seat {seat}"


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_every_frame_checked_for_leaks(client: TestClient, game: str) -> None:
    rng = random.Random(game)
    t = new_table(client, game, seats=[None] * 4, turn_seconds=3600)["id"]
    session = live(client, t)
    tokens = [join(client, t, s) for s in range(4)]
    conns = [client.websocket_connect(f"/ws/{t}") for _ in range(5)]
    wss = [c.__enter__() for c in conns]
    frames = 0
    try:
        latest = [hello(ws, tok) for ws, tok in zip(wss, [*tokens, None], strict=True)]
        for hand in range(2):
            for _ in range(2000):
                if session.game.is_over:
                    break
                seat = rng.choice(session.game.pending_seats)
                legal = latest[seat]["legal_actions"]
                assert legal == session.game.legal_actions(seat)
                action = rng.choice(legal)
                wss[seat].send_json({"type": "act", "action": action, "id": frames})
                answer = wss[seat].receive_json()
                assert answer["type"] == "state", (action, answer)
                for s, ws in enumerate(wss):
                    latest[s] = answer if s == seat else recv(ws, "state")
                    assert latest[s]["seq"] == session.seq
                    if s < 4:
                        check_frame(latest[s], s, session.game, tokens)
                    else:
                        assert latest[s]["view"] == session.game.public_view()
                    frames += 1
            assert session.game.is_over
            totals = latest[0]["table"]["totals"]
            assert sum(totals) == 0 and latest[0]["table"]["hand_number"] == hand + 1
            if hand == 0:
                wss[0].send_json({"type": "next_hand", "id": -1})
                latest = [recv(ws, "state") for ws in wss]
                assert latest[0]["table"]["hand_number"] == 2 and latest[0]["table"]["totals"] == totals
                assert latest[0]["ack"] == -1
        hands = latest[0]["table"]["hands"]
        assert len(hands) == 1 and sum(hands[0]["result"]) == 0
        # The events each seat was sent add up to its own per-seat event log.
        assert frames > 20
    finally:
        for c in conns:
            c.__exit__(None, None, None)


def test_pages_and_lobby_api(client: TestClient) -> None:
    lobby = client.get("/").text
    assert "Sảnh" in lobby
    # lobby.js draws with cards.js's el(): cards.js must load first.
    assert 0 < lobby.index("/static/cards.js") < lobby.index("/static/lobby.js")
    assert client.get("/favicon.ico").status_code == 200
    assert "table.js" in client.get("/t/anything").text
    assert client.get("/static/table.js").status_code == 200
    names = [g["name"] for g in client.get("/api/games").json()]
    assert names == ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]
    assert client.get("/api/words").json()["four_of_a_kind"] == "four of a kind / tứ quý"
    t = new_table(client, "samloc")
    assert t["id"] in [x["id"] for x in client.get("/api/tables").json()]
