"""vncards.history: hand histories in their text and JSON forms, replay-verified on load.

The property: random hands of every game under random option sets survive dumps → loads →
dumps byte-identical, in both forms (2,000 hands in the default run, 100,000 in the slow
profile). Then the refusals: a history whose deal, actions, result or payments do not follow
is refused with a SnapshotError naming the line (text) or the path (JSON)."""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import slow_profile
from support.tables import random_step
from vncards import games, history
from vncards.errors import RulesError, SnapshotError
from vncards.games import GAMES
from vncards.session import Seat, Session

#: Random hands per game of the round-trip property (2,000 / 100,000 over the five games).
HANDS_PER_GAME = 20_000 if slow_profile() else 400
#: Values tried for the integer options (those outside an option's range are skipped).
_INTS = (0, 1, 2, 5, 10, 45)


def random_rules(name: str, rng: random.Random) -> Any:
    """The preset of ``name`` with a random subset of its options moved to random values
    (a value inconsistent with the others is left at the preset)."""
    rules = games.spec(name).rules()
    for option in games.rules_schema(name):
        if rng.random() < 0.5:
            continue
        values = _INTS if option["type"] == "int" else option["values"]
        with contextlib.suppress(RulesError):
            rules = rules.replace(**{option["name"]: rng.choice(values)})
    return rules


def random_hand(name: str, seed: int) -> Any:
    """A hand of ``name`` under random rules and seat count, played by random legal actions
    (left unfinished one time in eight)."""
    rng = random.Random(seed)
    cls = GAMES[name].game_class()
    game = cls(
        players=rng.randint(cls.MIN_PLAYERS, cls.MAX_PLAYERS), rules=random_rules(name, rng), seed=seed
    )
    stop = rng.randrange(40) if rng.random() < 0.125 else None
    steps = 0
    while random_step(game, rng):
        steps += 1
        if steps == stop:
            break
    return game


@pytest.mark.parametrize("name", list(GAMES))
def test_dumps_loads_dumps_is_byte_identical(name: str) -> None:
    @settings(max_examples=HANDS_PER_GAME, database=None)
    @given(st.integers(0, 2**64))
    def round_trip(seed: int) -> None:
        game = random_hand(name, seed)
        text = history.dumps(game)
        loaded = history.loads(text)
        assert history.dumps(loaded) == text
        assert loaded.game.to_json() == game.to_json()
        if seed % 4 == 0:
            data = history.dumps(game, format="json")
            assert history.dumps(history.loads(data), format="json") == data
        if seed % 8 == 1:
            deal = history.dumps(game, seed=False)
            again = history.loads(deal)
            assert history.dumps(again, seed=False) == deal and "seed:" not in deal
            assert again.game.settlement == game.settlement and again.game.actions == game.actions

    round_trip()


# -- the format -----------------------------------------------------------------------------------


def finished(name: str = "tienlen", seed: int = 3) -> Any:
    game = games.new_game(name, seed=seed)
    rng = random.Random(seed)
    while random_step(game, rng):
        pass
    return game


def test_text_form_reads_as_specified() -> None:
    game = finished()
    text = history.dumps(game)
    lines = text.splitlines()
    assert lines[:4] == ["vncards hand history 1", "game: tienlen", "title: Tiến Lên Miền Nam", "players: 4"]
    assert lines[4].startswith("rules: {") and json.loads(lines[4][7:]) == game.rules.to_dict()
    assert lines[5] == "setup: {}" and lines[6] == f"seed: {game.rng_key.hex()}"
    assert lines[7] == "deal:" and lines[8] == "  seat 0: " + " ".join(
        map(str, games.new_game("tienlen", seed=3).hand(0))
    )
    first = game.actions[0]
    assert lines[13] == f"  1. seat {first['seat']}: play {first['cards']}"
    assert any(re.fullmatch(r"  \d+\. seat \d: pass", line) for line in lines)
    result = lines.index(next(line for line in lines if line.startswith("result: ")))
    assert json.loads(lines[result][8:]) == game.outcome
    assert lines[result + 1] == "settlement: " + " ".join(f"{u:+d}" if u else "0" for u in game.settlement)
    assert lines[result + 2] == "payments:" and lines[-1] == "end"
    assert len(lines) - result - 4 == len(game.ledger)


def test_session_histories_name_the_hand_and_its_seats() -> None:
    s = Session("samloc", players=["An", Seat(bot="greedy"), None], seed=2)
    for _ in range(2):
        s.play_bots()
        while not s.game.is_over:
            s.game.auto_play(s.game.pending_seats[0])
        s.next_hand()
    text = history.dumps(s)
    hands = history.loads(text)
    assert [h.number for h in hands] == [1, 2, 3] and not hands[2].is_over
    assert hands[0].seats == (Seat("An"), Seat(bot="greedy"), Seat())
    assert 'seat 0: player "An"\nseat 1: bot "greedy"\nseat 2: open\n' in text
    assert "hand: 2\n" in text and text.count("vncards hand history 1") == 3
    assert history.dumps(hands) == text
    one = history.dumps(s.hands[1])
    assert history.loads(one)[0].game.to_json() == s.hands[1].game.to_json()


@pytest.mark.parametrize("name", list(GAMES))
def test_every_action_type_has_a_text_line(name: str) -> None:
    seen: set[str] = set()
    for seed in range(30):
        game = finished(name, seed)
        seen |= {a["type"] for a in game.actions}
        history.loads(history.dumps(game))
    assert seen  # each logged type read back above


def test_multi_hand_game_needs_its_seed() -> None:
    game = finished("tienlen", 5)
    game.next_hand()
    text = history.dumps(game)
    assert "  " in text and re.search(r"\d+\. next_hand\n", text)
    assert history.dumps(history.loads(text)) == text
    with pytest.raises(RulesError, match="needs the seed"):
        history.dumps(game, seed=False)


def test_position_games_are_written_from_their_position() -> None:
    game = finished("samloc", 4)
    start = games.new_game("samloc", seed=4)
    pos = type(start).from_position(start.to_dict())
    rng = random.Random(4)
    while random_step(pos, rng):
        pass
    text = history.dumps(pos)
    assert "position: {" in text and "seed:" not in text
    assert history.dumps(history.loads(text)) == text
    assert game.rng_key.hex() not in history.dumps(game, seed=False)


# -- refusals ---------------------------------------------------------------------------------------


def _line_of(text: str, prefix: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if line.startswith(prefix))


def _refused(text: str, where: str) -> str:
    with pytest.raises(SnapshotError) as e:
        history.loads(text)
    assert where in str(e.value), str(e.value)
    return str(e.value)


def test_refuses_a_result_that_does_not_follow() -> None:
    game = finished()
    text = history.dumps(game)
    lines = text.split("\n")
    n = _line_of(text, "settlement: ")
    units = game.settlement
    forged = list(units)
    forged[0], forged[1] = forged[1], forged[0]
    if forged == units:
        forged[0], forged[2] = forged[2], forged[0]
    lines[n - 1] = "settlement: " + " ".join(f"{u:+d}" if u else "0" for u in forged)
    message = _refused("\n".join(lines), f"hand 1, line {n}: ")
    assert "does not follow from the actions" in message


def test_refuses_an_action_that_is_not_legal() -> None:
    game = finished()
    text = history.dumps(game)
    n = _line_of(text, "  2. ")
    lines = text.split("\n")
    lines[n - 1] = re.sub(r"seat (\d)", lambda m: f"seat {(int(m.group(1)) + 1) % 4}", lines[n - 1])
    assert "action 2 does not follow" in _refused("\n".join(lines), f"hand 1, line {n}: ")


def test_refuses_payments_deal_and_seed_edits() -> None:
    game = finished()
    text = history.dumps(game)
    lines = text.split("\n")
    pay = next(i for i, x in enumerate(lines, 1) if " pays seat " in x)
    edited = list(lines)
    edited[pay - 1] = re.sub(r": (\d+) ", lambda m: f": {int(m.group(1)) + 1} ", edited[pay - 1])
    _refused("\n".join(edited), f"line {pay}")
    deal = _line_of(text, "  seat 0: ")
    edited = list(lines)
    edited[deal - 1] = "  seat 0: 3♠"
    assert "was not dealt" in _refused("\n".join(edited), f"line {deal}")
    seed = _line_of(text, "seed: ")
    edited = list(lines)
    edited[seed - 1] = "seed: " + "00" * 32
    _refused("\n".join(edited), "hand 1, line")  # another deal: the deal lines no longer follow
    edited[seed - 1] = "seed: xyz"
    _refused("\n".join(edited), f"line {seed}")


def test_refuses_malformed_text() -> None:
    text = history.dumps(finished())
    cases = {
        text.replace("vncards hand history 1", "vncards hand history 2", 1): "format '2'",
        text.replace("\nend\n", "\n"): "expected 'end'",
        text[: text.index("payments:")]: "expected 'payments:'",
        text[: text.index("payments:") - 1]: "ends before its 'end' line",
        text.replace("game: tienlen", "game: poker"): "line 2",
        text.replace("title: Tiến Lên Miền Nam", "title: Poker"): "line 3",
        text.replace("  1. ", "  7. "): "numbered 7",
        text.replace("players: 4", "players: 9"): "players",
        "": "no hand",
        "hello": "not a vncards hand history",
        "{": "not valid JSON",
    }
    for bad, message in cases.items():
        _refused(bad, message)
    with pytest.raises(SnapshotError):
        history.loads(b"\xff\xfe")
    with pytest.raises(SnapshotError):
        history.loads(5)  # type: ignore[arg-type]  # not text: refused at run time


def test_json_form_errors_name_the_path() -> None:
    game = finished("maubinh", 2)
    data = json.loads(history.dumps(game, format="json"))
    first = data["hands"][0]["actions"][0]
    assert first["type"] == "arrange"
    first["seat"] = (first["seat"] + 1) % 4  # another seat's cards
    _refused(json.dumps(data), "hands[0].actions[0]: action 1 does not follow")
    data = json.loads(history.dumps(game, format="json"))
    data["hands"][0]["ledger"][0]["units"] += 1
    _refused(json.dumps(data), "hands[0].ledger[0]")
    data = json.loads(history.dumps(game, format="json"))
    data["version"] = 2
    _refused(json.dumps(data), "version")
    data = json.loads(history.dumps(game, format="json"))
    data["hands"][0]["outcome"]["fouled"][0] = not data["hands"][0]["outcome"]["fouled"][0]
    _refused(json.dumps(data), "hands[0].outcome")
    with pytest.raises(RulesError, match="takes a game"):
        history.dumps("not a game")  # type: ignore[arg-type]  # not a game: refused at run time
    with pytest.raises(RulesError, match="format must be 'text' or 'json', not 'xml'"):
        history.dumps(game, format="xml")


@pytest.mark.parametrize("field", ["rules", "setup", "result"])
@pytest.mark.parametrize("value", ["[" * 1200 + "]" * 1200, '{"a":' * 1200 + "1" + "}" * 1200])
def test_deeply_nested_json_lines_are_refused_naming_the_line(field: str, value: str) -> None:
    """A ``rules:``, ``setup:`` or ``result:`` line is read by the bounded parser of the JSON
    form and of snapshots: nesting past its depth is a SnapshotError naming the line, never a
    RecursionError (issue 37.2); it reaches Session.from_json(hands=...) the same way."""
    text = history.dumps(finished())
    n = _line_of(text, f"{field}: ")
    lines = text.split("\n")
    lines[n - 1] = f"{field}: {value}"
    message = _refused("\n".join(lines), f"line {n}: ")
    assert "nested deeper than 32 levels" in message
    s = Session("tienlen", players=2, seed=1)
    while not s.game.is_over:
        s.game.auto_play(s.game.pending_seats[0])
    s.next_hand()
    text = history.dumps(s.hands)
    n = _line_of(text, f"{field}: ")
    lines = text.split("\n")
    lines[n - 1] = f"{field}: {value}"
    with pytest.raises(SnapshotError, match=f"line {n}: nested deeper"):
        Session.from_json(s.to_json(), hands="\n".join(lines))


@pytest.mark.parametrize("field", ["rules", "setup", "result"])
@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_json_lines_refuse_numbers_json_does_not_have(field: str, constant: str) -> None:
    """NaN and the infinities are not JSON: refused on the line, in the JSON form and in
    snapshots (the same strict parser)."""
    text = history.dumps(finished())
    n = _line_of(text, f"{field}: ")
    lines = text.split("\n")
    lines[n - 1] = f'{field}: {{"x": {constant}}}'
    assert "not a finite number" in _refused("\n".join(lines), f"line {n}: ")
    data = history.dumps(finished(), format="json").replace('"players":4', f'"players":{constant}', 1)
    assert "not a finite number" in _refused(data, "history")
    snapshot = games.new_game("tienlen", seed=1).to_json().replace('"players":4', f'"players":{constant}', 1)
    with pytest.raises(SnapshotError, match="not a finite number"):
        games.from_json(snapshot)


def test_dumps_writes_whatever_offers_its_hands() -> None:
    """Issue 36: the history does not import the session; it writes anything with
    ``history_hands()`` (a :class:`Session` is one), and the same text as for those hands."""
    s = Session("tusac", players=3, seed=5)
    s.play_bots()
    while not s.game.is_over:
        s.game.auto_play(s.game.pending_seats[0])
    s.next_hand()

    class Holder:
        def history_hands(self) -> list[Any]:
            return s.history_hands()

    assert isinstance(s, history.HandSource) and isinstance(Holder(), history.HandSource)
    assert history.dumps(Holder()) == history.dumps(s) == history.dumps(s.history_hands())
    assert len(history.loads(history.dumps(Holder()))) == 2
