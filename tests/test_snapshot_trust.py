"""Snapshots a server can trust: the log is the truth (from_json replays the actions and
requires everything stored to be the replay's), bounded parsing, HMAC signatures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Protocol

import pytest

from conftest import slow_profile
from support.tables import NAMES, finished, midgame
from vncards import SnapshotError, SnapshotKeyError, VncardsError, games, tienlen
from vncards.snapshot import MAX_SNAPSHOT_CHARS, MAX_SNAPSHOT_DEPTH, MAX_SNAPSHOT_DIGITS, load_text
from vncards.table import TableGame

KEY = b"server-side secret"


def restore(game: TableGame, data: Any, key: bytes | None = None) -> TableGame:
    return type(game).from_json(json.dumps(data), key)


def test_issue_forgeries_are_refused() -> None:
    g = finished("tienlen", seed=2)
    d = g.to_dict()

    gift = json.loads(json.dumps(d))
    gift["ledger"].append({"from": 0, "to": 1, "units": 100, "reason": "gift"})
    with pytest.raises(SnapshotError, match=r"^ledger\[\d+\]"):
        restore(g, gift)

    short = json.loads(json.dumps(d))
    short["actions"] = short["actions"][:-3]
    with pytest.raises(SnapshotError, match="does not match the replay"):
        restore(g, short)

    empty = json.loads(json.dumps(d))
    empty["events"] = []
    with pytest.raises(SnapshotError, match=r"^events\[0\]"):
        restore(g, empty)

    m = midgame("tienlen", seed=2, steps=9)
    passed = m.to_dict()
    passed["state"]["passed"] += 1
    with pytest.raises(SnapshotError, match=r"^state\.passed: does not match"):
        restore(m, passed)

    for position in (2**64, -1, 2**64 + 5, 1.5, "0", None):
        bad = json.loads(json.dumps(d))
        bad["rng"]["position"] = position
        with pytest.raises(SnapshotError, match=r"rng\.position"):
            restore(g, bad)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000, "[" * 40 + "]" * 40])
def test_deep_nesting_is_refused_before_parsing(text: str) -> None:
    with pytest.raises(SnapshotError, match="nested deeper"):
        tienlen.Game.from_json(text)


def test_size_is_bounded_before_parsing() -> None:
    with pytest.raises(SnapshotError, match="longer than"):
        load_text("[" + " " * MAX_SNAPSHOT_CHARS + "]")
    with pytest.raises(SnapshotError, match="longer than"):
        load_text(b" " * (MAX_SNAPSHOT_CHARS + 1))
    # Brackets inside strings are text, not nesting.
    assert load_text(json.dumps(["[" * 100])) == ["[" * 100]
    assert MAX_SNAPSHOT_DEPTH >= 8


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_mid_game_and_finished(name: str) -> None:
    for g in (midgame(name, seed=4), finished(name, seed=4)):
        text = g.to_json()
        again = type(g).from_json(text)
        assert again.to_json() == text
        assert games.spec(name).game_class().from_json(text.encode()).to_json() == text


def leaf_mutations(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every single-field edit of a JSON value: (path, new value) for each leaf and container."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaf_mutations(v, (*path, k))
        yield path, {**value, "extra": 1}
        if value:
            yield path, dict(list(value.items())[1:])
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaf_mutations(v, (*path, i))
        yield path, [*value, value[-1] if value else 0]
        if value:
            yield path, value[:-1]
    elif isinstance(value, bool):
        yield path, not value
    elif isinstance(value, int):
        yield path, value + 1
        yield path, str(value)
    elif isinstance(value, str):
        yield path, value + "x"
        yield path, ""
    elif value is None:
        yield path, 0


def edited(data: Any, path: tuple[Any, ...], new: Any) -> Any:
    out = json.loads(json.dumps(data))
    if not path:
        return new
    node = out
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = new
    return out


@pytest.mark.parametrize("name", NAMES)
def test_tampering_with_any_field_is_refused_or_harmless(name: str) -> None:
    """Each field of a snapshot changed on its own: SnapshotError, or a game identical to the
    original: the same state, events, ledger and RNG. (Only the action log may then differ: in
    Tứ Sắc two seats' hidden answers to one offer, e.g. passes, can be logged in either order.)"""

    def observable(game: TableGame) -> dict[str, Any]:
        return {k: v for k, v in game.to_dict().items() if k != "actions"}

    # Every edit of a mid-game snapshot; of a finished game's, every edit in the slow profile.
    for g, stride in (
        (midgame(name, seed=5, steps=8), 1),
        (finished(name, seed=5), 1 if slow_profile() else 7),
    ):
        d = g.to_dict()
        original = observable(g)
        edits = list(leaf_mutations(d))
        for path, new in edits[::stride]:
            try:
                again = restore(g, edited(d, path, new))
            except SnapshotError:
                continue
            assert observable(again) == original, f"edit at {path} was accepted and changed the game"
            assert path[0] == "actions" or again.to_json() == g.to_json()
        assert len(edits) > 100


def test_signed_snapshots() -> None:
    g = midgame("samloc", seed=6)
    signed = g.to_json(key=KEY)
    assert json.loads(signed)["hmac"]
    assert type(g).from_json(signed, key=KEY).to_json() == g.to_json()
    # Without a key the tag is ignored, the replay still verifies the content.
    assert type(g).from_json(signed).to_json() == g.to_json()
    with pytest.raises(SnapshotError, match="does not match"):
        type(g).from_json(signed, key=b"another key")
    with pytest.raises(SnapshotError, match="not signed"):
        type(g).from_json(g.to_json(), key=KEY)
    data = json.loads(signed)
    for tag in ("", "00" * 32, data["hmac"].upper(), "é" * 64, 5, None, [data["hmac"]]):
        with pytest.raises(SnapshotError):
            type(g).from_json(json.dumps({**data, "hmac": tag}), key=KEY)
    # Editing the signed body is caught by the tag before anything is replayed.
    body = {**data, "players": 3}
    with pytest.raises(SnapshotError, match="HMAC"):
        type(g).from_json(json.dumps(body), key=KEY)
    # Key order and spacing do not matter: the tag covers the canonical text.
    pretty = json.dumps(dict(reversed(list(data.items()))), indent=2, ensure_ascii=False)
    assert type(g).from_json(pretty, key=KEY).to_json() == g.to_json()
    with pytest.raises(TypeError):
        g.to_json(key="not bytes")  # type: ignore[arg-type]  # a str key: refused at run time


BAD_KEYS = ["server-side secret", b"", bytearray(), 7, 0, True, ["k"], memoryview(b"k")]


class Loader(Protocol):
    """A snapshot loader under test; ``key`` is anything, as a caller may pass (bad keys)."""

    def __call__(self, text: str, *, key: object = None, require_signature: bool = False) -> TableGame: ...


@pytest.mark.parametrize("name", NAMES)
def test_require_signature_never_accepts_an_unsigned_snapshot(name: str) -> None:
    """Issue 29, item 14: a server that forgot its key cannot accept an unsigned (or edited)
    snapshot silently; a key of the wrong type is a SnapshotKeyError (also a TypeError)."""
    g = midgame(name, seed=4)
    plain, signed = g.to_json(), g.to_json(key=KEY)
    cls = type(g)
    loaders: tuple[Loader, ...] = (
        lambda text, **kw: cls.from_json(text, **kw),
        lambda text, **kw: games.from_json(text, **kw),
        lambda text, **kw: cls.from_dict(json.loads(text) if text[0] == "{" else text, **kw),
    )
    for load in loaders:
        assert load(signed, key=KEY, require_signature=True).to_json() == plain
        # Forgotten key: refused, signed or not, before the text is read.
        for text in (plain, signed, "not json at all"):
            with pytest.raises(SnapshotKeyError, match="no key was given"):
                load(text, key=None, require_signature=True)
        with pytest.raises(SnapshotError, match="not signed"):
            load(plain, key=KEY, require_signature=True)
        with pytest.raises(SnapshotError, match="does not match"):
            load(signed, key=b"another key", require_signature=True)
        # The default stays as it was: no key, no signature check (the replay still checks).
        assert load(plain).to_json() == plain
    for key in BAD_KEYS:
        for text in (plain, signed, "not json at all"):
            for load in loaders[:2]:
                with pytest.raises(SnapshotKeyError, match="must be non-empty bytes") as info:
                    load(text, key=key)
                assert isinstance(info.value, (TypeError, VncardsError, ValueError))
        with pytest.raises(SnapshotKeyError):
            g.to_json(key=key)  # type: ignore[arg-type]  # a bad key, refused at run time
    assert cls.from_json(signed, key=bytearray(KEY)).to_json() == plain


def test_positions_replay_from_their_origin() -> None:
    g = tienlen.Game(seed=8)
    d = g.to_dict()
    d["state"]["hands"][0], d["state"]["hands"][1] = d["state"]["hands"][1], d["state"]["hands"][0]
    d["state"]["turn"] = next(s for s in range(4) if d["state"]["hands"][s] & 1)
    p = tienlen.Game.from_position(d)
    assert p.actions == []
    p.auto_play(p.pending_seats[0])
    text = p.to_json()
    assert tienlen.Game.from_json(text).to_json() == text
    # The origin is checked like any position, and the replay from it must match.
    forged = json.loads(text)
    forged["origin"]["state"]["hands"][2] += 1 << 51
    with pytest.raises(SnapshotError):
        tienlen.Game.from_json(json.dumps(forged))
    # A position is not a snapshot: the plain restore refuses an edited state.
    with pytest.raises(SnapshotError, match=r"state\.hands"):
        tienlen.Game.from_dict(d)


def test_samloc_snapshots_of_version_2_restore_with_the_events_of_their_replay() -> None:
    """Sâm Lốc logs báo 1 since version 3 (issues 29.7 and 30.1): a version-2 snapshot, whose
    events lack ``bao_mot`` / ``bao_mot_single`` and show ``bao_mot_violation`` at the play,
    still restores from its actions, with today's events; nothing else is relaxed."""
    from vncards import samloc

    g = samloc.Game(players=3, seed=12)
    while not g.is_over:
        g.auto_play(g.pending_seats[0])
    data = json.loads(g.to_json())
    assert data["version"] == 3
    old = dict(data, version=2)
    old["events"] = [e for e in data["events"] if e["type"] not in ("bao_mot", "bao_mot_single")]
    restored = samloc.Game.from_json(json.dumps(old))
    assert restored.events == g.events and restored.to_json() == g.to_json()
    assert games.from_json(json.dumps(old), key=None).to_json() == g.to_json()
    signed_old = json.loads(json.dumps(old))
    from vncards.snapshot import sign

    assert (
        samloc.Game.from_json(sign(signed_old, KEY), key=KEY, require_signature=True).to_json() == g.to_json()
    )
    # The rest of a version-2 snapshot is checked as always.
    for name, value in (("ledger", []), ("state", {**data["state"], "hand_number": 2})):
        with pytest.raises(SnapshotError, match=name):
            samloc.Game.from_json(json.dumps({**old, name: value}))
    for version in (1.5, 2.0, True, 4, 0, "3"):
        with pytest.raises(SnapshotError, match="version"):
            samloc.Game.from_json(json.dumps({**data, "version": version}))
    t = tienlen.Game(seed=1)
    with pytest.raises(SnapshotError, match="version"):
        tienlen.Game.from_json(json.dumps({**json.loads(t.to_json()), "version": 3}))


def test_tusac_snapshots_stored_before_forbidden_triple_restore() -> None:
    """Rules stored before an option existed are upgraded after the digest check (which covers
    the rules as stored): a Tứ Sắc table stored without ``forbidden_triple`` keeps playing by
    the behaviour it had (``"other_claims"``); an edit of its stored rules is still caught."""
    from vncards import tusac
    from vncards.table import _digest

    g = midgame("tusac", seed=3)
    data = json.loads(g.to_json())
    del data["rules"]["forbidden_triple"]
    data["rules_sha256"] = _digest(data["rules"])
    restored = tusac.Game.from_json(json.dumps(data))
    assert restored.rules.forbidden_triple == "other_claims" and restored.to_json() == g.to_json()
    with pytest.raises(SnapshotError, match="rules_sha256"):
        tusac.Game.from_json(json.dumps({**data, "rules": {**data["rules"], "payment": "flat"}}))


@pytest.mark.parametrize("name", NAMES)
def test_error_messages_stay_short_whatever_a_field_holds(name: str) -> None:
    """A hostile field (a long int, a megabyte string, a long list) gives a message of a line,
    not the field back; an integer of more than MAX_SNAPSHOT_DIGITS digits is refused by the
    parser (before int() of a huge text, which is quadratic)."""
    g = midgame(name, seed=3)
    d = g.to_dict()
    for key in ("version", "players"):
        for hostile in (10**90, -(10**90), "x" * 1_000_000, [0] * 100_000):
            bad = json.loads(json.dumps(d))
            bad[key] = hostile
            with pytest.raises(SnapshotError) as caught:
                restore(g, bad)
            assert len(str(caught.value)) < 200, str(caught.value)[:300]
        for digits in (MAX_SNAPSHOT_DIGITS + 1, 5000):
            text = json.dumps({**d, key: 0}).replace(f'"{key}": 0', f'"{key}": -{"9" * digits}')
            with pytest.raises(SnapshotError, match=f"an integer of {digits} digits"):
                type(g).from_json(text)
