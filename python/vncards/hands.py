"""The records of a match that a session and its hand histories share: who held a seat
(:class:`Seat`), one hand of the match (:class:`Hand`: the game, its number, the seats
credited with its result) and a hand's record, the JSON form of its history
(:func:`hand_record`, and :func:`parse_hand_record`, which replays a record and verifies every
part of it). :mod:`vncards.session` plays hands and :mod:`vncards.history` writes and reads
them in its text and JSON forms; both import this module, which imports neither.

>>> Seat("An").label, Seat(bot="greedy").kind
('An', 'bot')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import RulesError, SnapshotError, VncardsError
from .games import GAMES, spec
from .snapshot import canonical_text, expect, expect_dict, expect_int, expect_list, expect_str, json_copy
from .table import TableGame, _rng_key

__all__ = ["MAX_HANDS", "MAX_NAME", "Hand", "Seat", "hand_record", "parse_hand_record", "start"]

#: Longest player id or bot name a seat accepts (characters).
MAX_NAME = 64
#: Most hands a session plays (the hand number stays a small int everywhere).
MAX_HANDS = 2**32
#: Largest absolute total a snapshot may hold.
_MAX_UNITS = 2**53


def _checked_name(value: Any, what: str) -> str | None:
    """A player id or bot name: None, or printable text of 1..MAX_NAME characters that
    encodes as UTF-8 (no lone surrogates, no control characters)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise RulesError(f"{what} must be a string or None, not {type(value).__name__}")
    if not 0 < len(value) <= MAX_NAME or value != value.strip():
        raise RulesError(f"{what} must be 1..{MAX_NAME} characters without surrounding spaces")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RulesError(f"{what} is not valid text (lone surrogate)") from None
    if not value.isprintable():
        raise RulesError(f"{what} holds a control character")
    return value


@dataclass(frozen=True)
class Seat:
    """Who holds a seat: a ``player`` (an id the server chooses), a ``bot`` (its name, as
    :func:`vncards.bots.make_bot` takes it), or neither (an open seat). ``total``: the units
    this occupant has won at the seat since hand ``since``, the first hand it was credited
    with.

    >>> Seat("An").kind, Seat(bot="greedy").label, Seat().kind
    ('player', 'bot greedy', 'open')
    """

    player: str | None = None
    bot: str | None = None
    total: int = 0
    since: int = 1

    def __post_init__(self) -> None:
        _checked_name(self.player, "player")
        _checked_name(self.bot, "bot")
        if self.player is not None and self.bot is not None:
            raise RulesError("a seat holds a player or a bot, not both")
        for name in ("total", "since"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"Seat.{name} must be an int, not {value!r}")

    @property
    def kind(self) -> str:
        """``"player"``, ``"bot"`` or ``"open"``."""
        if self.player is not None:
            return "player"
        return "open" if self.bot is None else "bot"

    @property
    def label(self) -> str:
        """Short text: the player's id, ``bot NAME`` or ``open``."""
        if self.player is not None:
            return self.player
        return "open" if self.bot is None else f"bot {self.bot}"

    @property
    def occupant(self) -> Seat:
        """The occupant alone (no total): what a hand history records."""
        return Seat(self.player, self.bot)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe data: ``{"player", "bot", "total", "since"}``."""
        return {"player": self.player, "bot": self.bot, "total": self.total, "since": self.since}

    @classmethod
    def from_dict(cls, data: Any, name: str = "seat") -> Seat:
        """A seat from :meth:`to_dict` data (``SnapshotError`` naming ``name`` if malformed)."""
        d = expect_dict(data, name, ("player", "bot", "total", "since"))
        total = expect_int(d["total"], f"{name}.total", -_MAX_UNITS, _MAX_UNITS)
        since = expect_int(d["since"], f"{name}.since", 1, MAX_HANDS)
        try:
            return cls(d["player"], d["bot"], total, since)
        except RulesError as e:
            raise SnapshotError(f"{name}: {e}") from None


@dataclass(frozen=True)
class Hand:
    """One hand of a match: its ``game`` (the engine game, replayable from its seed), the
    registry ``name`` of the game (``"tienlen-north"``…), its ``number`` in the session and
    the ``seats`` credited with its result (``None`` for both outside a session)."""

    game: TableGame
    name: str
    number: int | None = None
    seats: tuple[Seat, ...] | None = None

    @property
    def settlement(self) -> list[int] | None:
        """Units won per seat in this hand once it is over (sums to zero)."""
        settlement: list[int] | None = self.game.settlement
        return settlement

    @property
    def is_over(self) -> bool:
        """True once the hand is settled."""
        return bool(self.game.is_over)

    def digest(self) -> str:
        """SHA-256 (hex) of the hand's canonical record (number, seats, the game's snapshot):
        the link of the session's chain of finished hands."""
        record = {
            "hand": self.number,
            "seats": None if self.seats is None else [s.occupant.to_dict() for s in self.seats],
            "game": self.game.to_dict(),
        }
        return hashlib.sha256(canonical_text(record).encode("ascii")).hexdigest()


# -- the record of a hand (the JSON form of a history) --------------------------------------------

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


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _signed(units: int) -> str:
    return f"{units:+d}" if units else "0"
