"""The server's WebSocket protocol through Starlette's test client: join, act, illegal and
malformed frames (typed errors, nothing changes), reconnect, time-out -> bot, spectators,
flooding, persistence across a restart, hands in sequence, and every frame of whole games of
every variant checked for leaks of another seat's hidden cards or token."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from support.server_client import TestClient, hello, join, live, new_table, play_moves, recv, scripted
from support.tree import ROOT, source_tree
from vncards import history
from vncards.server import ServerConfig, create_app
from vncards.server.table import TableSession

GAMES = ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "tables.sqlite")


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(scripted(db))) as c:
        yield c


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
            started = time.monotonic()
            hello(ws, token)
            codes = []
            for i in range(40):
                ws.send_json({"type": "ping", "id": i})
            try:
                for _ in range(40):
                    f = recv(ws)
                    codes.append(f.get("code") or f["type"])
            except Exception:
                pass
            elapsed = time.monotonic() - started
        assert "rate_limited" in codes
        # A burst of 10 (the hello takes one), then 5 a second: on a loaded machine the
        # server may take a while over the 40 frames, and the bucket refills meanwhile.
        assert codes.count("pong") <= 12 + 5 * elapsed, (codes.count("pong"), elapsed)


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
    # Issue 30, item 2: an option out of its range was an untyped OverflowError (a 500).
    for game, rules in (
        ("maubinh", {"time_limit": 2**63}),
        ("maubinh", {"back_straight_flush_units": 0}),
        ("tusac", {"set_lenh": 2}),
        ("tusac", {"draw_at_stock": 10**30}),
    ):
        r = client.post("/api/tables", json={"game": game, "rules": rules})
        assert r.status_code == 400 and r.json()["error"] == "rules_error", r.text
        assert "must be in" in r.json()["message"], r.text
    r = client.post("/api/tables", content=b"x" * 20000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "too_large"


def test_restart_resumes_tables_and_tokens(db: str) -> None:
    with TestClient(create_app(ServerConfig(db=db, bot_delay=0.0))) as client:
        t = new_table(client)["id"]
        tokens = [join(client, t, s) for s in range(4)]
        session = live(client, t)
        play_moves(client, t, tokens, 5, pick=-1)
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
            # Four copies of every piece: a copy of the hand itself must not appear. A hand of
            # a few pieces can equal a public list (a discard, a meld) by chance: the check
            # holds from five pieces on.
            if len(hidden) < 5:
                continue
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
                answer = recv(wss[seat])
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
                table = latest[0]["table"]
                assert table["hand_number"] == 2
                if session.game.is_over:  # the second deal was an instant win, settled at once
                    won = table["hands"][-1]["result"]
                    assert table["totals"] == [a + b for a, b in zip(totals, won, strict=True)]
                else:
                    assert table["totals"] == totals
                assert latest[0]["ack"] == -1
        hands = latest[0]["table"]["hands"]
        assert [h["hand"] for h in hands] == [1, 2] and all(sum(h["result"]) == 0 for h in hands)
        assert hands[1]["totals"] == latest[0]["table"]["totals"]
        # The first hand is stored apart, as its hand history.
        stored = client.app.state.server.store.hands(t)  # type: ignore[attr-defined]  # TestClient.app is typed as any ASGI callable; this one is our Starlette app
        assert [h.hand for h in stored] == [1] and history.loads(stored[0].history).hands[0].number == 1
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
    words = client.get("/api/words").json()
    assert words["terms"]["four_of_a_kind"] == "four of a kind / tứ quý"
    assert words["rows"][0] == ["back", "back", "chi 1, chi đầu"]
    assert words["cards"]["KR"] == "Tướng đỏ" and words["events"]["pass"]
    t = new_table(client, "samloc")
    assert t["id"] in [x["id"] for x in client.get("/api/tables").json()]


def test_forced_moves_are_made_for_the_player(db: str) -> None:
    """A Tứ Sắc hand with four people: every time a seat's only legal action is forced the
    table makes it (the frame says which, and when); people are asked only for real choices."""
    rng = random.Random(7)
    with TestClient(create_app(scripted(db, forced_delay=0.01))) as client:
        t = new_table(client, "tusac", seats=[None] * 4, turn_seconds=3600)["id"]
        session = live(client, t)
        tokens = [join(client, t, s) for s in range(4)]
        conns = [client.websocket_connect(f"/ws/{t}") for _ in range(4)]
        wss = [c.__enter__() for c in conns]
        try:
            frames = [hello(ws, tok) for ws, tok in zip(wss, tokens, strict=True)]
            asked = forced_seen = 0
            for _ in range(5000):
                if session.game.is_over:
                    break
                seq = max(f["seq"] for f in frames)
                for s in range(4):
                    while frames[s]["seq"] < seq:
                        frames[s] = recv(wss[s], "state")
                choosing = [s for s in range(4) if len(frames[s]["legal_actions"]) > 1]
                for s in range(4):
                    if len(frames[s]["legal_actions"]) == 1:
                        assert frames[s]["forced"]["action"] == frames[s]["legal_actions"][0]
                        forced_seen += 1
                    else:
                        assert frames[s]["forced"] is None
                if choosing:
                    s = rng.choice(choosing)
                    wss[s].send_json(
                        {"type": "act", "action": rng.choice(frames[s]["legal_actions"]), "id": 1}
                    )
                    asked += 1
                frames[0] = recv(wss[0], "state")  # the next change, whoever made it
            assert session.game.is_over
            assert forced_seen > 0 and len(session.game.actions) > asked
        finally:
            for c in conns:
                c.__exit__(None, None, None)


def test_forced_moves_wait_when_the_table_turns_them_off(db: str) -> None:
    with TestClient(create_app(scripted(db, forced_delay=0.01))) as client:
        for _ in range(50):  # a deal where the first claim window offers someone only a pass
            t = new_table(client, "tusac", seats=[None] * 4, turn_seconds=3600, auto_forced=False)["id"]
            session = live(client, t)
            s = session.game.pending_seats[0]
            session.act(s, session.game.legal_actions(s)[0])
            if any(len(session.game.legal_actions(p)) == 1 for p in session.game.pending_seats):
                break
        seq = session.seq
        time.sleep(0.2)
        assert session.seq == seq and not session.forced_due


def test_names_are_checked_and_stored_with_the_seat(client: TestClient) -> None:
    t = new_table(client, seats=[None] * 4)["id"]
    ok = {0: "<script>alert('x')</script>", 1: "سارا", 2: "N" * 32}
    for seat, name in ok.items():
        r = client.post(f"/api/tables/{t}/join", json={"seat": seat, "name": name})
        assert r.status_code == 200 and r.json()["name"] == name, r.text
    for bad in ("N" * 33, "a\nb", "\x00", "a\u202eb", "   ", 7):
        r = client.post(f"/api/tables/{t}/join", json={"seat": 3, "name": bad})
        assert r.status_code == 400 and r.json()["error"] == "invalid_name", (bad, r.text)
    r = client.post(f"/api/tables/{t}/join", json={"seat": 3})
    assert r.json()["name"] == "player 3"
    seats = client.get(f"/api/tables/{t}").json()["seats"]
    assert [s["name"] for s in seats] == [*ok.values(), "player 3"]
    lobby = next(x for x in client.get("/api/tables").json() if x["id"] == t)
    assert lobby["seats"][1]["name"] == "سارا"


def test_spectators_are_counted(client: TestClient) -> None:
    t = new_table(client)["id"]
    token = join(client, t, 0)
    with client.websocket_connect(f"/ws/{t}") as me:
        f = hello(me, token)
        assert f["table"]["spectators"] == 0 and f["table"]["seats"][0]["connected"]
        with client.websocket_connect(f"/ws/{t}") as a, client.websocket_connect(f"/ws/{t}") as b:
            hello(a, None)
            assert hello(b, None)["table"]["spectators"] == 2
            # My own hello, then each spectator's.
            assert [recv(me, "presence")["spectators"] for _ in range(3)] == [0, 1, 2]
        counts = {recv(me, "presence")["spectators"] for _ in range(2)}
        assert 0 in counts
        assert next(x for x in client.get("/api/tables").json() if x["id"] == t)["spectators"] == 0


def test_leave_between_hands_and_the_creator_replaces_seats(client: TestClient) -> None:
    created = new_table(client, seats=[None, None, "greedy", "greedy"])
    t, creator = created["id"], created["creator_token"]
    tokens = [join(client, t, 0), join(client, t, 1)]
    session = live(client, t)
    # Mid-hand a player may not leave (the time-out bot covers for them).
    r = client.post(f"/api/tables/{t}/leave", headers={"authorization": f"Bearer {tokens[0]}"})
    assert r.status_code == 409 and r.json()["error"] == "hand_in_play"
    # The creator hands seat 1 to a bot at any time; its token stops working.
    r = client.post(f"/api/tables/{t}/seats/1", json={"bot": "greedy"}, headers={"authorization": "Bearer x"})
    assert r.status_code == 403
    r = client.post(
        f"/api/tables/{t}/seats/1", json={"bot": "greedy"}, headers={"authorization": f"Bearer {creator}"}
    )
    assert r.status_code == 200 and r.json()["kind"] == "bot"
    with client.websocket_connect(f"/ws/{t}") as ws:
        assert hello(ws, tokens[1])["code"] == "bad_token"
    # Play the hand out: seat 0 plays its first legal move whenever it is due.
    with client.websocket_connect(f"/ws/{t}") as ws:
        f = hello(ws, tokens[0])
        assert f["type"] == "state", f
        for _ in range(500):
            if f["table"]["is_over"]:
                break
            if f["legal_actions"]:
                ws.send_json({"type": "act", "action": f["legal_actions"][-1], "id": 1})
            f = recv(ws, "state")
        assert f["table"]["is_over"]
        r = client.post(f"/api/tables/{t}/leave", headers={"authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 200 and r.json()["kind"] == "bot"
        f = recv(ws, "state")
        assert f["seat"] is None  # the connection watches on as a spectator
    assert [session.kind(s) for s in range(4)] == ["bot"] * 4
    assert [e["type"] for e in session.log if e["type"] in ("leave", "replace")] == ["replace", "leave"]


@source_tree
def test_every_http_endpoint_is_documented() -> None:
    """Issue 23, item 10: every route of the app has its line in docs/server.md (``GET /api/x``,
    ``POST /api/x``; a page or file route by its path), and so has the WebSocket."""
    from starlette.routing import Mount, Route, WebSocketRoute

    page = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    routes = create_app(ServerConfig(db=":memory:")).routes
    missing = []
    for route in routes:
        path = getattr(route, "path", "").replace("{table_id}", "{id}")
        if isinstance(route, Mount):
            ok = f"`{path}/" in page
        elif isinstance(route, WebSocketRoute):
            ok = "`/ws/<table>`" in page
        else:
            assert isinstance(route, Route)
            methods = sorted((route.methods or {"GET"}) - {"HEAD"})
            ok = (
                all(f"`{m} {path}`" in page or f"`{m} {path}`:" in page for m in methods)
                or f"`{path}`" in page
            )
        if not ok:
            missing.append(path)
    assert len(routes) >= 14 and not missing, f"routes not in docs/server.md: {missing}"


def test_the_pages_keep_no_word_table_of_their_own() -> None:
    """Game words reach the page from vncards.words (GET /api/words), not from a second table
    in JavaScript: no game term, no piece name, no row name in the static scripts."""
    from vncards.words import ROWS

    static = Path(create_app.__code__.co_filename).parent / "static"
    scripts = " ".join(p.read_text(encoding="utf-8") for p in static.glob("*.js"))
    words = [r[2] for r in ROWS] + ["chi đầu", "chi giữa", "chi cuối", "sám cô", "đôi thông", "tứ quý"]
    words += [
        "cù lũ",
        "mậu thầu",
        "thùng",
        "Tướng",
        "Tượng",
        "Pháo",
        "Chốt",
        "khạp",
        "quằn",
        "khui",
        "vàng",
        "xanh",
    ]
    assert [w for w in words if w in scripts] == []


def test_explain_says_why_without_changing_anything(client: TestClient) -> None:
    """The explain frame: the engine's reason and words for an action it would refuse, None
    for one it would take; nothing changes and no move is counted."""
    t = new_table(client)["id"]
    tokens = [join(client, t, s) for s in range(4)]
    session = live(client, t)
    turn = session.game.pending_seats[0]
    before = session.game.to_json()
    with client.websocket_connect(f"/ws/{t}") as ws, client.websocket_connect(f"/ws/{t}") as watcher:
        f = hello(ws, tokens[turn])
        hello(watcher, None)
        hand = f["view"]["hand"]
        ws.send_json(
            {"type": "explain", "action": {"type": "play", "cards": f"{hand[0]} {hand[-1]}"}, "id": 2}
        )
        got = recv(ws, "explanation")
        assert (
            got["ack"] == 2
            and got["reason"] == "invalid_combination"
            and "not a combination" in got["message"]
        )
        ws.send_json({"type": "explain", "action": f["legal_actions"][0], "id": 3})
        assert recv(ws, "explanation") == {"type": "explanation", "ack": 3, "reason": None, "message": None}
        ws.send_json({"type": "explain", "action": "play", "id": 4})
        assert recv(ws, "explanation")["reason"] == "malformed"
        watcher.send_json({"type": "explain", "action": f["legal_actions"][0], "id": 5})
        assert recv(watcher, "error")["code"] == "spectator"
    assert session.game.to_json() == before and session.seat_actions[turn] == 0


def test_categorize_names_the_maubinh_rows_being_placed(client: TestClient) -> None:
    """The categorize frame: each full row's category, whether three full rows foul (binh
    lủng); nothing changes and no move is counted; only a seat of a Mậu Binh table asks."""
    t = new_table(client, "maubinh", seats=[None, "greedy", "greedy", "greedy"])["id"]
    token = join(client, t, 0)
    session = live(client, t)

    # The bots of seats 1-3 may arrange meanwhile: what categorize must not touch is seat 0's part.
    def own(text: str) -> list[Any]:
        return [a for a in json.loads(text)["actions"] if a.get("seat") == 0]

    before = own(session.game.to_json())
    back, middle = "2♠ 2♥ 5♦ 7♣ 8♠", "A♥ K♦ J♣ 10♠ 9♠"
    with client.websocket_connect(f"/ws/{t}") as ws, client.websocket_connect(f"/ws/{t}") as watcher:
        hello(ws, token)
        hello(watcher, None)
        ws.send_json({"type": "categorize", "rows": [back, middle, "A♠ K♣"], "id": 2})
        got = recv(ws, "categories")
        assert got == {
            "type": "categories",
            "ack": 2,
            "categories": ["pair", "high_card", None],
            "fouled": None,
        }
        ws.send_json({"type": "categorize", "rows": [back, middle, "A♠ K♣ Q♦"], "id": 3})
        assert recv(ws, "categories")["fouled"] is True
        ws.send_json({"type": "categorize", "rows": [back, "A♥ K♦ Q♣ J♠ 9♠", "A♠ K♣ Q♦"], "id": 4})
        assert recv(ws, "categories")["fouled"] is False
        ws.send_json({"type": "categorize", "rows": ["x y z w v", "", ""], "id": 5})
        assert recv(ws, "error")["code"] != "internal"
        ws.send_json({"type": "categorize", "rows": "2♠", "id": 6})
        assert recv(ws, "error")["code"] == "malformed"
        watcher.send_json({"type": "categorize", "rows": [back, "", ""], "id": 7})
        assert recv(watcher, "error")["code"] == "spectator"
    assert own(session.game.to_json()) == before == [] and session.seat_actions[0] == 0
    other = new_table(client)["id"]
    with client.websocket_connect(f"/ws/{other}") as ws:
        hello(ws, join(client, other, 0))
        ws.send_json({"type": "categorize", "rows": [back, middle, "A♠ K♣ Q♦"], "id": 2})
        assert recv(ws, "error")["code"] == "malformed"


def test_the_maubinh_showdown_names_each_hands_category(client: TestClient) -> None:
    t = new_table(client, "maubinh", seats=[None, "solver", "solver", "solver"])["id"]
    token = join(client, t, 0)
    with client.websocket_connect(f"/ws/{t}") as ws:
        f = hello(ws, token)
        assert f["table"]["showdown"] is None
        arrange = next(a for a in f["legal_actions"] if a["type"] == "arrange")
        ws.send_json({"type": "act", "action": arrange, "id": 2})
        while not f["table"]["is_over"]:
            f = recv(ws, "state")
            confirm = [a for a in f["legal_actions"] if a["type"] == "confirm"]
            if confirm:
                ws.send_json({"type": "act", "action": confirm[0], "id": 3})
    from vncards.maubinh import CATEGORIES, hand_category

    rows = f["view"]["reveal"]["arrangements"]
    categories = f["table"]["showdown"]["categories"]
    assert categories == [[hand_category(r) for r in seat] for seat in rows]
    assert all(c in CATEGORIES for seat in categories for c in seat)


def test_a_change_is_made_into_frames_once_per_seat(client: TestClient, monkeypatch: Any) -> None:
    t = new_table(client)["id"]
    tokens = [join(client, t, s) for s in range(4)]
    session = live(client, t)
    seat = session.game.pending_seats[0]
    # Three connections of the seat to act, one of the next seat, two spectators.
    who = [tokens[seat]] * 3 + [tokens[(seat + 1) % 4], None, None]
    conns = [client.websocket_connect(f"/ws/{t}") for _ in who]
    wss = [c.__enter__() for c in conns]
    try:
        frames = [hello(ws, tok) for ws, tok in zip(wss, who, strict=True)]
        made: list[int | None] = []
        frame = type(session).frame

        def counted(
            s: TableSession,
            seat: int | None,
            events_from: int = 0,
            log_from: int = 0,
            *,
            with_table: bool = True,
        ) -> dict[str, Any]:
            made.append(seat)
            return frame(s, seat, events_from, log_from, with_table=with_table)

        monkeypatch.setattr(type(session), "frame", counted)
        wss[0].send_json({"type": "act", "action": frames[0]["legal_actions"][0], "id": 9})
        got = [recv(ws, "state") for ws in wss]
        assert sorted(made, key=str) == sorted([seat, (seat + 1) % 4, None], key=str)
        assert [f.get("ack") for f in got] == [9, None, None, None, None, None]
        same = [{k: v for k, v in f.items() if k != "ack"} for f in got[:3]]
        assert same[0] == same[1] == same[2] and same[0]["seat"] == seat and same[0]["seq"] == 1
        assert got[4] == got[5] and got[4]["seat"] is None and got[4]["legal_actions"] == []
        assert got[3]["view"]["hand"] == [str(c) for c in session.game.hand((seat + 1) % 4)]
    finally:
        for c in conns:
            c.__exit__(None, None, None)
