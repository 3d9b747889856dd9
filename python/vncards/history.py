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

from .errors import RulesError, SnapshotError
from .games import spec
from .hands import (
    Hand,
    _compact,
    _registry_name,
    _signed,
    _verified,
    hand_record,
    parse_hand_record,
    start,
)
from .inputs import _short
from .snapshot import (
    bounded_text,
    expect,
    expect_dict,
    expect_int,
    expect_list,
    load_text,
)
from .table import TableGame

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
