"""The one input contract (vncards.inputs): whatever a JSON decoder can produce, handed to any
public entry point of any game, raises only VncardsError and leaves the game exactly as it was;
objects no decoder makes may raise TypeError, never anything else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import slow_profile
from support.tables import NAMES, midgame
from vncards import Card, IllegalMoveError, InvalidCardError, SnapshotError, VncardsError
from vncards.inputs import MAX_ITEMS, MAX_KEYS, MAX_TEXT, parse_cards, parse_seat
from vncards.shedding.game import SheddingGame
from vncards.table import TableGame

#: >= 10,000 examples per entry point in the slow profile, a modest number by default.
JUNK_EXAMPLES = 10_000 if slow_profile() else 40

LONE_SURROGATES = ["\udcff", "\ud800", "3\udc80", "\udfff♠"]
BIG_INTS = [-1, 2**31, 2**63, 2**64, 2**70, -(2**70), 10**30, 2**1000]

json_leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from(BIG_INTS)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(exclude_categories=()), max_size=12)
    | st.sampled_from(LONE_SURROGATES)
    | st.sampled_from(["3♠", "3♠ 3♣", "2♥", "PW", "KR", "x", "", "|", "A♠ K♠ | 2 3 4 | x"])
)
#: Anything json.loads can return: any nesting of dict, list, str, int, float, bool, None.
json_junk = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=15,
)
seat_junk = st.integers(-2, 6) | json_junk
FIELDS = ["seat", "cards", "card", "meld", "back", "middle", "front"]


def action_junk(types: list[str]) -> st.SearchStrategy[Any]:
    """Near-miss actions: a real type and real field names with junk values, plus pure junk."""
    near = st.fixed_dictionaries(
        {"type": st.sampled_from(types) | json_junk},
        optional={f: (seat_junk if f == "seat" else json_junk) for f in FIELDS} | {"extra": json_junk},
    )
    return near | json_junk


def entry_points(game: TableGame) -> dict[str, Callable[[Any, Any], Any]]:
    """Every public method that takes client data, as ``(arg1, arg2) -> call``."""
    g: Any = game
    calls: dict[str, Callable[[Any, Any], Any]] = {
        "apply": lambda a, b: g.apply(a),
        "view": lambda a, b: g.view(a),
        "hand": lambda a, b: g.hand(a),
        "legal_actions": lambda a, b: g.legal_actions(a),
        "events_for": lambda a, b: g.events_for(a),
        "describe": lambda a, b: g.describe(a),
        "auto_play": lambda a, b: g.auto_play(a),
    }
    if game.GAME in ("tienlen", "samloc"):
        calls |= {"play": lambda a, b: g.play(a, b), "pass_turn": lambda a, b: g.pass_turn(a)}
    if game.GAME == "samloc":
        calls |= {"declare_sam": lambda a, b: g.declare_sam(a), "decline_sam": lambda a, b: g.decline_sam(a)}
    if game.GAME == "maubinh":
        calls |= {
            "arrange": lambda a, b: g.arrange(a, b),
            "confirm": lambda a, b: g.confirm(a),
            "forfeit": lambda a, b: g.forfeit(a),
            "arrangement": lambda a, b: g.arrangement(a),
        }
    if game.GAME == "tusac":
        calls |= {"act": lambda a, b: g.act(a, b), "exposed": lambda a, b: g.exposed(a)}
    return calls


GAMES = {name: midgame(name, seed=3) for name in NAMES}
SNAPSHOTS = {name: game.to_json() for name, game in GAMES.items()}
CASES = [(name, entry) for name, game in GAMES.items() for entry in entry_points(game)]


def check_refused_cleanly(name: str, call: Callable[[TableGame], Any]) -> None:
    """``call`` either succeeds (a legal move by chance) or raises VncardsError leaving the game
    unchanged; nothing else escapes."""
    game = GAMES[name]
    try:
        call(game)
    except VncardsError:
        assert game.to_json() == SNAPSHOTS[name], "a refusal changed the game"
    else:
        if game.to_json() != SNAPSHOTS[name]:
            GAMES[name] = type(game).from_json(SNAPSHOTS[name])


@pytest.mark.parametrize(("name", "entry"), CASES)
def test_json_junk_raises_only_vncards_errors(name: str, entry: str) -> None:
    types = list(type(GAMES[name]).ACTIONS)
    first = action_junk(types) if entry in ("apply", "describe") else seat_junk
    second = action_junk(types) if entry == "act" else json_junk

    @settings(max_examples=JUNK_EXAMPLES)
    @given(first, second)
    def run(a: Any, b: Any) -> None:
        check_refused_cleanly(name, lambda game: entry_points(game)[entry](a, b))

    run()


@settings(max_examples=JUNK_EXAMPLES)
@given(json_junk | st.text(max_size=40))
def test_snapshot_text_junk_raises_only_snapshot_errors(junk: Any) -> None:
    import json

    for text in (junk, json.dumps(junk, ensure_ascii=False) if not isinstance(junk, str) else junk):
        for cls in (type(g) for g in GAMES.values()):
            with pytest.raises(SnapshotError):
                cls.from_json(text)


# The reproductions of the issue, in the three games that take card arguments in actions.
ISSUE_CARDS: list[Any] = [-1, 2**70, None, "\udcff", [None], [[]], 0.0, 5, [5], True, {"a": 1}]


@pytest.mark.parametrize("name", ["tienlen", "samloc", "tusac"])
@pytest.mark.parametrize("cards", ISSUE_CARDS, ids=repr)
def test_issue_card_values_are_vncards_errors(name: str, cards: Any) -> None:
    game = GAMES[name].clone()
    seat = game.pending_seats[0]
    before = game.to_json()
    for action in (
        {"type": "play", "seat": seat, "cards": cards},
        {"type": "claim", "seat": seat, "cards": cards},
        {"type": "discard", "seat": seat, "card": cards},
    ):
        with pytest.raises(VncardsError):
            game.apply(action)
        assert game.to_json() == before
    if isinstance(game, SheddingGame):  # Tiến Lên and Sâm Lốc have play(seat, cards)
        with pytest.raises(VncardsError):
            game.play(seat, cards)
        assert game.to_json() == before


def test_a_bare_int_is_not_a_card() -> None:
    with pytest.raises(InvalidCardError, match="not an int"):
        parse_cards(0)
    with pytest.raises(InvalidCardError, match="not an int"):
        parse_cards(["3♠", 1])
    assert parse_cards([Card(0), "3♣"]) == 0b11


def test_unknown_keys_are_refused_in_every_game() -> None:
    for game in GAMES.values():
        legal = game.legal_actions(game.pending_seats[0])
        before = game.to_json()
        for action in legal[:3]:
            with pytest.raises(IllegalMoveError, match="unknown key") as e:
                game.apply({**action, "note": "hi"})
            assert e.value.reason == "invalid_action"
            assert game.to_json() == before


def test_sizes_are_bounded() -> None:
    with pytest.raises(InvalidCardError, match="longer than"):
        parse_cards("3♠ " * MAX_TEXT)
    with pytest.raises(InvalidCardError, match="more than"):
        parse_cards(["3♠"] * (MAX_ITEMS + 1))
    game = GAMES["tienlen"]
    with pytest.raises(IllegalMoveError, match="at most"):
        game.apply({f"k{i}": 0 for i in range(MAX_KEYS + 1)})


class Hostile:
    """An object whose every hook raises: what a buggy or malicious caller might pass."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __iter__(self) -> Any:
        raise RuntimeError("iter")

    def __index__(self) -> int:
        raise RuntimeError("index")

    def __len__(self) -> int:
        raise RuntimeError("len")


class HostileDict(dict[str, Any]):
    def items(self) -> Any:
        raise RuntimeError("items")

    def get(self, *a: Any) -> Any:
        raise RuntimeError("get")

    def __getitem__(self, k: Any) -> Any:
        raise RuntimeError("getitem")


@pytest.mark.parametrize("name", NAMES)
def test_hostile_objects_raise_only_type_errors(name: str) -> None:
    game = GAMES[name].clone()
    before = game.to_json()
    seat = game.pending_seats[0]
    values: list[Any] = [
        Hostile(),
        object(),
        HostileDict(type="pass", seat=seat),
        [Hostile()],
        {"x": Hostile()},
    ]
    for value in values:
        actions = [value, {"type": "play", "seat": seat, "cards": value}, {"type": "pass", "seat": value}]
        actions.append(HostileDict(type="discard", seat=seat, card="PW"))
        for entry, call in entry_points(game).items():
            for a, b in [(value, value), *((x, value) for x in actions), (seat, value)]:
                try:
                    call(a, b)
                except (VncardsError, TypeError):
                    pass
                except Exception as e:  # pragma: no cover - the failure being tested for
                    raise AssertionError(f"{entry}({a!r}, {b!r}) raised {type(e).__name__}: {e}") from e
                if game.to_json() != before:  # a legal move by chance: start again
                    game = GAMES[name].clone()


def test_seats_accept_integer_like_values() -> None:
    import numpy as np

    assert parse_seat(np.int64(2), 4) == 2
    with pytest.raises(IllegalMoveError):
        parse_seat(np.int64(7), 4)
    with pytest.raises(IllegalMoveError):
        parse_seat(2.0, 4)
    with pytest.raises(TypeError):
        parse_seat(Hostile(), 4)
