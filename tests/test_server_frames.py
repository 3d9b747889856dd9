"""The state frames are built once per change and shared (issue 34): every seat's view comes
from one ``_views`` call, the change's engine events are rendered once and redacted per seat,
and a frame holds exactly what the engine's public calls give that seat (``view``,
``public_view``, ``events_for``, ``public_events``, ``legal_actions``), whatever the game, the
position and what the connection was sent before."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vncards import games
from vncards.server.table import TableSession
from vncards.server.wire import Refused

GAMES = ["tienlen", "tienlen-north", "samloc", "maubinh", "tusac"]


def _step(game: Any, rng: random.Random) -> None:
    """One random legal action of a random seat that must act."""
    seat = rng.choice(game.pending_seats)
    game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_views_together_are_each_seats_view(name: str, seed: int, players: int) -> None:
    """``_views`` equals ``view(seat)`` seat by seat (the same keys in the same order),
    ``_redact`` of the whole events equals ``events_for`` / ``public_events`` from any start,
    leaving what it was given as it was, and reading either log from any record gives the rest
    of the whole log, at every position of a random hand."""
    cls = games.spec(name).game_class()
    game = games.new_game(name, players=min(max(players, cls.MIN_PLAYERS), cls.MAX_PLAYERS), seed=seed)
    rng = random.Random(seed)
    n = game.players
    while True:
        views = game._views(range(n))
        singly = [game.view(s) for s in range(n)]
        assert views == singly
        assert [list(v) for v in views] == [list(v) for v in singly]
        whole = game._logged(events=True)
        before = copy.deepcopy(whole)
        start = rng.randrange(len(whole) + 1)
        for seat in [None, *range(n)]:
            expected = game.public_events() if seat is None else game.events_for(seat)
            assert game._redact(whole, seat) == expected
            assert game._redact(game._logged(events=True, start=start), seat) == expected[start:]
        assert whole == before
        # Reads from a later record resume where the last one stopped (the journal's marks),
        # in any order of starts, for both logs.
        actions = game.actions
        for log, every in ((True, whole), (False, actions)):
            for k in (rng.randrange(len(every) + 1), len(every), rng.randrange(len(every) + 1), 0):
                assert game._logged(events=log, start=k) == every[k:]
        if game.is_over:
            break
        _step(game, rng)


def _expected(session: TableSession, seat: int | None, events_from: int) -> dict[str, Any]:
    """The frame parts that come from the engine, from its public calls alone."""
    game = session.game
    if seat is None:
        return {"view": game.public_view(), "events": game.public_events()[events_from:], "legal_actions": []}
    pending = not game.is_over and seat in game.pending_seats
    return {
        "view": game.view(seat),
        "events": game.events_for(seat)[events_from:],
        "legal_actions": game.legal_actions(seat) if pending else [],
    }


@pytest.mark.parametrize("name", GAMES)
def test_frames_hold_what_the_engine_gives_each_seat(name: str) -> None:
    """Two hands of random play: after every change, each seat's and a spectator's frame,
    from the start and from a later event, hold exactly the engine's view, events and legal
    actions for that seat; building the other frames of the change changes no frame built
    before (they share the change's events and public view)."""
    session = TableSession.create("t", name, seats=[None] * 4, turn_seconds=3600, auto_forced=False)
    rng = random.Random(f"frames {name}")
    hands = 0
    while hands < 2:
        n_events = len(session.game.events)
        starts = sorted({0, rng.randrange(n_events + 1), n_events})
        built = []
        for start in starts:
            for seat in [None, *range(session.players)]:
                frame = session.frame(seat, start, with_table=False)
                built.append((frame, copy.deepcopy(frame)))
                assert {k: frame[k] for k in ("view", "events", "legal_actions")} == _expected(
                    session, seat, start
                )
                assert frame["seat"] == seat and frame["events_from"] == start
        assert all(frame == kept for frame, kept in built)
        if session.game.is_over:
            hands += 1
            session.next_hand()
            continue
        seat = rng.choice(session.game.pending_seats)
        session.act(seat, rng.choice(session.legal(seat)), by="bot")


def test_frame_compression_is_an_option_off_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """``vncards serve`` compresses frames per message (permessage-deflate) only with
    ``--ws-deflate``: uvicorn is told so either way (its own default is on)."""
    pytest.importorskip("uvicorn")
    import uvicorn

    from vncards.cli import main

    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: runs.append(kw))
    db = str(tmp_path / "t.sqlite")
    assert main(["serve", "--db", db]) == 0
    assert main(["serve", "--db", db, "--ws-deflate"]) == 0
    assert main(["serve", "--db", db, "--no-ws-deflate"]) == 0
    assert [kw["ws_per_message_deflate"] for kw in runs] == [False, True, False]


def test_frames_send_the_new_log_entries_and_a_record_keeps_them_in_order() -> None:
    """A frame carries the table-log entries after the last one its connection was sent
    (read from the end of the log, whose entries are numbered in order); a stored record whose
    log is out of order is refused, naming the entry."""
    session = TableSession.create("t", "tienlen", seats=[None] * 4, turn_seconds=3600)
    for seat in range(4):
        session.join(seat, f"p{seat}")
    numbers = [e["n"] for e in session.log]
    assert numbers == list(range(1, len(numbers) + 1))
    for sent in range(len(numbers) + 2):
        assert session.frame(0, 0, sent, with_table=False)["log"] == [e for e in session.log if e["n"] > sent]
    meta, snapshot = session.to_record()
    assert TableSession.from_record("t", "tienlen", session.seq, meta, snapshot, None).log == session.log
    meta["log"][1], meta["log"][2] = meta["log"][2], meta["log"][1]
    with pytest.raises(Refused, match=r"meta\.log\[2\]\.n"):
        TableSession.from_record("t", "tienlen", session.seq, meta, snapshot, None)
