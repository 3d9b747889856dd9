"""Hand histories: every hand as a record a person can read and a program can replay (the
format is specified on the docs page :doc:`/guides/history`).

:func:`dumps` writes a game, a session's hands or a loaded :class:`History`, in the text form
(default: a header, one line per action, the result and the payments) or the JSON form;
:func:`loads` reads either form back and **replays** every hand: a history whose deal, result
or payments do not follow from its seed (or deal) and its actions, or whose actions are not
legal, is refused with a :class:`~vncards.errors.SnapshotError` that says where (the line of
the text form, the path of the JSON form).

A history holds the hand's shuffle key (or, with ``seed=False``, its deal): every card of that
hand. Give it out once the hand is over. A session's hands have keys of their own (see
:func:`vncards.session.hand_key`), so one hand's history tells nothing of the others.

>>> from vncards import games
>>> game = games.new_game("samloc", players=3, seed=11)
>>> while not game.is_over:
...     game.auto_play(game.pending_seats[0])
>>> text = dumps(game)
>>> print(text[: text.index("deal:")].strip())
vncards hand history 1
game: samloc
title: Sâm Lốc
players: 3
rules: {"low_straights": false, ...}
setup: {}
seed: ...
>>> dumps(loads(text)) == text
True
>>> loads(text.replace("seat 1: decline_sam", "seat 1: declare_sam"))
Traceback (most recent call last):
...
vncards.errors.SnapshotError: hand 1, line ...: ...
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, overload, runtime_checkable

from .errors import RulesError, SnapshotError, VncardsError
from .games import GAMES, spec
from .hands import MAX_HANDS, Hand, Seat
from .inputs import _short
from .snapshot import (
    bounded_text,
    expect,
    expect_dict,
    expect_int,
    expect_list,
    expect_str,
    json_copy,
    load_text,
)
from .table import TableGame, _rng_key

__all__ = [
    "FORMAT_VERSION",
    "History",
    "HandSource",
    "dumps",
    "loads",
    "start",
    "hand_record",
    "parse_hand_record",
]

#: The version of the history format this module writes (and the only one it reads).
FORMAT_VERSION = 1
_HEADER = f"vncards hand history {FORMAT_VERSION}"
_JSON_FORMAT = "vncards-history"
_ZERO_KEY = bytes(32)
_RECORD_KEYS = (
    "game",
    "title",
    "hand",
    "players",
    "seats",
    "rules",
    "setup",
    "seed",
    "position",
    "deal",
    "actions",
    "outcome",
    "settlement",
    "ledger",
)
_POSITION_KEYS = ("rng_position", "events", "ledger", "state")


@dataclass(frozen=True)
class History:
    """Hands read back by :func:`loads` (each replayed and verified): a sequence of
    :class:`~vncards.hands.Hand`."""

    hands: tuple[Hand, ...]

    def __len__(self) -> int:
        return len(self.hands)

    def __iter__(self) -> Iterator[Hand]:
        return iter(self.hands)

    def __getitem__(self, index: int) -> Hand:
        return self.hands[index]

    @property
    def game(self) -> TableGame:
        """The game of the only hand (``ValueError`` if there are several)."""
        if len(self.hands) != 1:
            raise ValueError(f"this history holds {len(self.hands)} hands, not one")
        return self.hands[0].game


@runtime_checkable
class HandSource(Protocol):
    """Anything that holds hands to write, such as a :class:`~vncards.session.Session` (this
    module does not import the session, which imports this one to restore its hands)."""

    def history_hands(self) -> list[Hand]:
        """The hands :func:`dumps` writes, in order."""
        ...


Source = TableGame | Hand | HandSource | History | Sequence[Hand]


def _hands_of(source: Any) -> list[Hand]:
    if isinstance(source, Hand):
        return [source]
    if isinstance(source, TableGame):
        return [Hand(source, _registry_name(source))]
    if isinstance(source, HandSource):
        return source.history_hands()
    if isinstance(source, History):
        return list(source.hands)
    if isinstance(source, Sequence) and not isinstance(source, (str, bytes)):
        hands = list(source)
        if all(isinstance(h, Hand) for h in hands):
            return hands
    raise RulesError(
        f"history.dumps takes a game, a session, a Hand or a History, not {type(source).__name__}"
    )


def _registry_name(game: TableGame) -> str:
    """The name of :data:`~vncards.games.GAMES` for a game outside a session: the entry of
    its class whose preset its rules are closest to (Miền Nam or Miền Bắc)."""
    candidates = [g for g in GAMES.values() if g.game_class() is type(game)]
    if len(candidates) == 1:
        return candidates[0].name
    rules = game.rules.to_dict()

    def likeness(g: Any) -> int:
        preset = g.rules().to_dict()
        return sum(preset[k] == v for k, v in rules.items())

    return max(candidates, key=likeness).name


def start(game: TableGame) -> TableGame:
    """``game`` as it was before its first action (a new game from its seed and setup, or
    from its position): a replay steps it through ``game.actions``."""
    cls = type(game)
    if game._origin is None:
        return cls(players=game.players, rules=game.rules, seed=game.rng_key, **game.setup)
    return cls._at_origin(game.players, game.rules, game.rng_key, game._origin)


def _position(first: TableGame) -> dict[str, Any]:
    """The deal form's position: the game before its first action, without its key."""
    if first._origin is not None:
        return {k: json_copy(first._origin[k]) for k in _POSITION_KEYS}
    return {
        "rng_position": first._rng.position,
        "events": first.events,
        "ledger": first.ledger,
        "state": json_copy(first._dump_state()),
    }


def hand_record(hand: Hand | TableGame, *, seed: bool = True) -> dict[str, Any]:
    """One hand in the JSON form (a dict; :func:`dumps` with ``format="json"`` writes a list
    of them). ``seed=False`` writes the deal's position instead of the shuffle key (the form a
    game set up with ``from_position`` always takes); a game that drew randomness after its
    deal (a second hand dealt in the same game) needs its seed."""
    if isinstance(hand, TableGame):
        hand = Hand(hand, _registry_name(hand))
    game = hand.game
    first = start(game)
    by_origin = game._origin is not None
    if not seed and not by_origin and game._rng.position != first._rng.position:
        raise RulesError("this game dealt again after its first deal: its history needs the seed")
    with_seed = seed and not by_origin
    return {
        "game": hand.name,
        "title": spec(hand.name).title,
        "hand": hand.number,
        "players": game.players,
        "seats": None if hand.seats is None else [{"player": s.player, "bot": s.bot} for s in hand.seats],
        "rules": game.rules.to_dict(),
        "setup": game.setup if with_seed else None,
        "seed": game.rng_key.hex() if with_seed else None,
        "position": None if with_seed else _position(first),
        "deal": [first._deal_text(s) for s in range(game.players)],
        "actions": game.actions,
        "outcome": game.outcome,
        "settlement": game.settlement,
        "ledger": game.ledger,
    }


@overload
def dumps(source: Source, *, format: Literal["text", "json"] = "text", seed: bool = True) -> str: ...
@overload
def dumps(source: Source, *, format: str = "text", seed: bool = True) -> str: ...
def dumps(source: Source, *, format: str = "text", seed: bool = True) -> str:
    """The history of ``source``: a game (one hand; several if it dealt again with
    ``next_hand``), a :class:`~vncards.hands.Hand`, a
    :class:`~vncards.session.Session` (its kept finished hands, then the hand in play) or a
    :class:`History`. ``format``: ``"text"`` (default) or ``"json"``. ``seed=False`` writes
    each hand's deal instead of its shuffle key."""
    records = [hand_record(h, seed=seed) for h in _hands_of(source)]
    if format == "json":
        body = {"format": _JSON_FORMAT, "version": FORMAT_VERSION, "hands": records}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")) + "\n"
    if format != "text":
        raise RulesError(f"format must be 'text' or 'json', not {_short(format)}")
    return "\n".join(_text_hand(r) for r in records)


# -- the text form -------------------------------------------------------------------------------


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _field_text(value: Any) -> str:
    if isinstance(value, str):
        return value if value else "-"
    if isinstance(value, list):
        return " ".join(map(str, value)) if value else "-"
    return json.dumps(value, ensure_ascii=False)


def _action_fields(cls: type[TableGame], kind: str) -> list[str]:
    return [f for f in cls.ACTIONS[kind].fields if f != "seat"]


def _action_text(cls: type[TableGame], action: Mapping[str, Any]) -> str:
    kind = action["type"]
    args = " | ".join(_field_text(action[f]) for f in _action_fields(cls, kind) if f in action)
    head = kind if "seat" not in action else f"seat {action['seat']}: {kind}"
    return f"{head} {args}" if args else head


def _seat_text(seat: Mapping[str, Any]) -> str:
    if seat["player"] is not None:
        return "player " + json.dumps(seat["player"], ensure_ascii=False)
    if seat["bot"] is not None:
        return "bot " + json.dumps(seat["bot"], ensure_ascii=False)
    return "open"


def _signed(units: int) -> str:
    return f"{units:+d}" if units else "0"


def _text_hand(r: Mapping[str, Any]) -> str:
    cls = spec(r["game"]).game_class()
    lines = [_HEADER, f"game: {r['game']}", f"title: {r['title']}"]
    if r["hand"] is not None:
        lines.append(f"hand: {r['hand']}")
    lines.append(f"players: {r['players']}")
    for i, seat in enumerate(r["seats"] or ()):
        lines.append(f"seat {i}: {_seat_text(seat)}")
    lines.append(f"rules: {_compact(r['rules'])}")
    if r["seed"] is not None:
        lines += [f"setup: {_compact(r['setup'])}", f"seed: {r['seed']}"]
    else:
        lines.append(f"position: {_compact(r['position'])}")
    lines.append("deal:")
    lines += [f"  seat {i}: {cards}" for i, cards in enumerate(r["deal"])]
    lines.append("actions:")
    lines += [f"  {i}. {_action_text(cls, a)}" for i, a in enumerate(r["actions"], 1)]
    if r["settlement"] is None:
        lines.append("result: in play")
    else:
        lines.append(f"result: {_compact(r['outcome'])}")
        lines.append("settlement: " + " ".join(_signed(u) for u in r["settlement"]))
    lines.append("payments:")
    lines += [f"  seat {p['from']} pays seat {p['to']}: {p['units']} ({p['reason']})" for p in r["ledger"]]
    lines.append("end")
    return "\n".join(lines) + "\n"


_SEAT_LINE = re.compile(r"seat (\d+): (.*)\Z")
_ACTION_LINE = re.compile(r"  (\d+)\. (?:seat (\d+): )?([a-z_]+)(?: (.*))?\Z")
_PAYMENT_LINE = re.compile(r"  seat (\d+) pays seat (\d+): (\d+) \(([^()]+)\)\Z")
_SETTLEMENT = re.compile(r"[+-]?\d+\Z")


class _Lines:
    """The lines of a text history, read one at a time, with their numbers for errors."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.i = 0

    @property
    def number(self) -> int:
        return self.i + 1

    def peek(self) -> str | None:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self) -> str:
        line = self.peek()
        if line is None:
            raise SnapshotError(f"line {self.number}: the history ends before its 'end' line")
        self.i += 1
        return line

    def field(self, name: str) -> tuple[str, int]:
        n = self.number
        line = self.take()
        prefix = f"{name}: "
        if not line.startswith(prefix):
            raise SnapshotError(f"line {n}: expected '{name}: …', not {line[:60]!r}")
        return line[len(prefix) :], n


def _json_field(text: str, where: str) -> Any:
    """A line's JSON value, read as snapshots are (bounded nesting, finite numbers)."""
    return load_text(text, where)


def _int_field(text: str, where: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise SnapshotError(f"{where}: not a number: {text[:40]!r}")
    return int(text)


def _parse_seat(text: str, where: str) -> dict[str, Any]:
    if text == "open":
        return {"player": None, "bot": None}
    kind, _, name = text.partition(" ")
    if kind not in ("player", "bot"):
        raise SnapshotError(f"{where}: a seat is 'player \"id\"', 'bot \"name\"' or 'open'")
    value = _json_field(name, where)
    return {"player": value, "bot": None} if kind == "player" else {"player": None, "bot": value}


def _read_text_hand(lines: _Lines) -> tuple[dict[str, Any], dict[Any, str]]:
    """One hand of the text form as a JSON-form record, and where each part was written."""
    where: dict[Any, str] = {}
    start = lines.number
    header = lines.take()
    if header != _HEADER:
        if header.startswith("vncards hand history "):
            raise SnapshotError(
                f"line {start}: history format {header[21:]!r} (this version reads {FORMAT_VERSION})"
            )
        raise SnapshotError(f"line {start}: not a vncards hand history")
    r: dict[str, Any] = {}
    r["game"], n = lines.field("game")
    where["game"] = f"line {n}"
    try:
        cls = spec(r["game"]).game_class()
    except RulesError as e:
        raise SnapshotError(f"line {n}: {e}") from None
    r["title"], n = lines.field("title")
    where["title"] = f"line {n}"
    r["hand"] = None
    if (lines.peek() or "").startswith("hand: "):
        text, n = lines.field("hand")
        r["hand"], where["hand"] = _int_field(text, f"line {n}"), f"line {n}"
    text, n = lines.field("players")
    r["players"], where["players"] = _int_field(text, f"line {n}"), f"line {n}"
    seats: list[dict[str, Any]] = []
    while (lines.peek() or "").startswith("seat "):
        n = lines.number
        m = _SEAT_LINE.match(lines.take())
        if m is None or int(m.group(1)) != len(seats):
            raise SnapshotError(f"line {n}: expected 'seat {len(seats)}: …'")
        seats.append(_parse_seat(m.group(2), f"line {n}"))
        where[("seats", len(seats) - 1)] = f"line {n}"
    r["seats"] = seats or None
    where["seats"] = f"line {n}"
    text, n = lines.field("rules")
    r["rules"], where["rules"] = _json_field(text, f"line {n}"), f"line {n}"
    r["setup"] = r["seed"] = r["position"] = None
    if (lines.peek() or "").startswith("setup: "):
        text, n = lines.field("setup")
        r["setup"], where["setup"] = _json_field(text, f"line {n}"), f"line {n}"
        r["seed"], n = lines.field("seed")
        where["seed"] = f"line {n}"
    else:
        text, n = lines.field("position")
        r["position"], where["position"] = _json_field(text, f"line {n}"), f"line {n}"
    n = lines.number
    if lines.take() != "deal:":
        raise SnapshotError(f"line {n}: expected 'deal:'")
    deal: list[str] = []
    while (lines.peek() or "").startswith("  seat "):
        n = lines.number
        m = _SEAT_LINE.match(lines.take()[2:])
        if m is None or int(m.group(1)) != len(deal):
            raise SnapshotError(f"line {n}: expected '  seat {len(deal)}: CARDS'")
        deal.append(m.group(2))
        where[("deal", len(deal) - 1)] = f"line {n}"
    r["deal"] = deal
    where["deal"] = f"line {n}"
    n = lines.number
    if lines.take() != "actions:":
        raise SnapshotError(f"line {n}: expected 'actions:'")
    actions: list[dict[str, Any]] = []
    while (lines.peek() or "").startswith("  ") and (lines.peek() or "")[2:3].isdigit():
        n = lines.number
        m = _ACTION_LINE.match(lines.take())
        if m is None:
            raise SnapshotError(f"line {n}: not an action line ('  N. seat S: type fields')")
        if int(m.group(1)) != len(actions) + 1:
            raise SnapshotError(f"line {n}: action numbered {m.group(1)}, expected {len(actions) + 1}")
        kind = m.group(3)
        if kind not in cls.ACTIONS:
            raise SnapshotError(f"line {n}: unknown action {kind!r} (actions: {', '.join(cls.ACTIONS)})")
        action: dict[str, Any] = {"type": kind}
        if m.group(2) is not None:
            action["seat"] = int(m.group(2))
        names = _action_fields(cls, kind)
        parts = [] if m.group(4) is None else m.group(4).split(" | ")
        if len(parts) > len(names):
            raise SnapshotError(f"line {n}: {kind} takes {len(names)} fields, not {len(parts)}")
        for name, part in zip(names, parts, strict=False):
            action[name] = [] if part == "-" else part
        actions.append(action)
        where[("actions", len(actions) - 1)] = f"line {n}"
    r["actions"] = actions
    where["actions"] = f"line {lines.number}"
    text, n = lines.field("result")
    where["outcome"] = where["settlement"] = f"line {n}"
    if text == "in play":
        r["outcome"] = r["settlement"] = None
    else:
        r["outcome"] = _json_field(text, f"line {n}")
        text, n = lines.field("settlement")
        where["settlement"] = f"line {n}"
        items = text.split(" ")
        if not all(_SETTLEMENT.match(u) and len(u) < 16 for u in items):
            raise SnapshotError(f"line {n}: settlement is one signed number per seat")
        r["settlement"] = [int(u) for u in items]
    n = lines.number
    if lines.take() != "payments:":
        raise SnapshotError(f"line {n}: expected 'payments:'")
    ledger = []
    while (lines.peek() or "").startswith("  "):
        n = lines.number
        m = _PAYMENT_LINE.match(lines.take())
        if m is None:
            raise SnapshotError(f"line {n}: not a payment line ('  seat F pays seat T: UNITS (reason)')")
        ledger.append(
            {"from": int(m.group(1)), "to": int(m.group(2)), "units": int(m.group(3)), "reason": m.group(4)}
        )
        where[("ledger", len(ledger) - 1)] = f"line {n}"
    r["ledger"] = ledger
    where["ledger"] = f"line {lines.number}"
    n = lines.number
    if lines.take() != "end":
        raise SnapshotError(f"line {n}: expected 'end'")
    where[None] = f"line {start}"
    return r, where


# -- reading and verifying -----------------------------------------------------------------------


def loads(text: str | bytes) -> History:
    """The hands of a history in either form, each replayed and verified (see the module
    docs); ``SnapshotError`` says where the first problem is."""
    text = bounded_text(text, "history", "text")
    if text.lstrip().startswith("{"):
        return _loads_json(text)
    lines = _Lines(text)
    hands: list[Hand] = []
    while True:
        while lines.peek() == "":
            lines.take()
        if lines.peek() is None:
            break
        record, where = _read_text_hand(lines)
        hands.append(_verified(record, _text_places(f"hand {len(hands) + 1}", where)))
    if not hands:
        raise SnapshotError("history: no hand in it")
    return History(tuple(hands))


def _text_places(label: str, where: Mapping[Any, str]) -> Callable[[Any], str]:
    """Where each part of a text hand was written, for its errors: ``hand 2, line 31``."""

    def place(part: Any) -> str:
        if part in where:
            return f"{label}, {where[part]}"
        if isinstance(part, tuple) and part[0] in where:
            return f"{label}, {where[part[0]]}"
        return f"{label}, {where[None]}"

    return place


def _loads_json(text: str) -> History:
    data = expect_dict(load_text(text, "history"), "history", ("format", "version", "hands"))
    expect(data["format"] == _JSON_FORMAT, "format: not a vncards hand history")
    expect_int(data["version"], "version", FORMAT_VERSION, FORMAT_VERSION)
    hands = expect_list(data["hands"], "hands")
    expect(bool(hands), "hands: no hand in it")
    return History(tuple(parse_hand_record(h, f"hands[{i}]") for i, h in enumerate(hands)))


def parse_hand_record(data: Any, name: str = "hand") -> Hand:
    """A hand from its JSON-form record (:func:`hand_record`), replayed and verified; errors
    name the path (``hands[3].actions[17]``)."""

    def where(part: Any) -> str:
        if part is None:
            return name
        if isinstance(part, tuple):
            return f"{name}.{part[0]}[{part[1]}]"
        return f"{name}.{part}"

    return _verified(json_copy(expect_dict(data, name)), where)


def _verified(r: dict[str, Any], where: Callable[[Any], str]) -> Hand:
    """The hand a record describes, replayed: every part must follow from the seed (or the
    position) and the actions."""

    def fail(part: Any, message: str) -> SnapshotError:
        return SnapshotError(f"{where(part)}: {message}")

    try:
        expect_dict(r, "record", _RECORD_KEYS)
    except SnapshotError as e:
        raise fail(None, str(e)) from None
    name = r["game"]
    try:
        game_spec = spec(expect_str(name, "game"))
        cls = game_spec.game_class()
    except VncardsError as e:
        raise fail("game", str(e)) from None
    if r["title"] != game_spec.title:
        raise fail("title", f"the title of {name} is {game_spec.title!r}")
    number = r["hand"]
    if number is not None:
        try:
            expect_int(number, "hand", 1, MAX_HANDS)
        except SnapshotError as e:
            raise fail("hand", str(e)) from None
    try:
        players = expect_int(r["players"], "players", cls.MIN_PLAYERS, cls.MAX_PLAYERS)
    except SnapshotError as e:
        raise fail("players", str(e)) from None
    seats = None
    if r["seats"] is not None:
        try:
            items = expect_list(r["seats"], "seats", players)
            seats = tuple(
                Seat.from_dict({**expect_dict(s, f"seats[{i}]", ("player", "bot")), "total": 0, "since": 1})
                for i, s in enumerate(items)
            )
        except SnapshotError as e:
            raise fail("seats", str(e)) from None
    try:
        rules = cls._rules_from(r["rules"])
    except SnapshotError as e:
        raise fail("rules", str(e)) from None
    if r["seed"] is not None:
        if r["position"] is not None:
            raise fail("position", "a hand has a seed or a position, not both")
        try:
            key = _rng_key(r["seed"])
        except SnapshotError as e:
            raise fail("seed", str(e).replace("rng.key", "seed")) from None
        try:
            setup = expect_dict(r["setup"], "setup")
            unknown = sorted(set(setup) - set(cls.SETUP))
            expect(not unknown, f"setup: unknown keywords {unknown}")
            game = cls(players=players, rules=rules, seed=key, **setup)
        except VncardsError as e:
            raise fail("setup", str(e)) from None
        if game.setup != setup:
            raise fail("setup", f"not in canonical form (write {_compact(game.setup)})")
    else:
        if r["setup"] is not None:
            raise fail("setup", "a hand written from its position has no setup")
        try:
            position = expect_dict(r["position"], "position", _POSITION_KEYS)
            game = cls._at_origin(players, rules, _ZERO_KEY, position)
        except SnapshotError as e:
            raise fail("position", str(e)) from None
        if (game.events, game.ledger, game._dump_state()) != (
            position["events"],
            position["ledger"],
            position["state"],
        ):
            raise fail("position", "not in canonical form (as the game writes it)")
    deal = r["deal"]
    if not isinstance(deal, list) or len(deal) != players:
        raise fail("deal", f"one line of cards per seat ({players})")
    for s in range(players):
        want = game._deal_text(s)
        if deal[s] != want:
            raise fail(("deal", s), f"seat {s} was not dealt these cards (the seed deals {want})")
    actions = r["actions"]
    if not isinstance(actions, list):
        raise fail("actions", "not a list")
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except (VncardsError, TypeError) as e:
            raise fail(("actions", i), f"action {i + 1} does not follow: {e}") from None
    if r["settlement"] is None:
        if game.is_over:
            raise fail("settlement", "the actions end the hand: its result is missing")
        if r["outcome"] is not None:
            raise fail("outcome", "a hand in play has no result")
    else:
        if not game.is_over:
            raise fail("settlement", "the hand is not over after its actions")
        if r["outcome"] != game.outcome:
            raise fail(
                "outcome",
                f"the result does not follow from the actions (the replay gives {_compact(game.outcome)})",
            )
        if r["settlement"] != game.settlement:
            shown = " ".join(_signed(u) for u in game.settlement or [])
            raise fail("settlement", f"does not follow from the actions (the replay gives {shown})")
    ledger = r["ledger"]
    derived = game.ledger
    if not isinstance(ledger, list):
        raise fail("ledger", "not a list")
    for i, (a, b) in enumerate(zip(ledger, derived, strict=False)):
        if a != b:
            raise fail(
                ("ledger", i), f"payment {i + 1} does not follow from the actions (the replay pays {b})"
            )
    if len(ledger) != len(derived):
        raise fail("ledger", f"{len(ledger)} payments written, the replay makes {len(derived)}")
    return Hand(game, game_spec.name, number, seats)
