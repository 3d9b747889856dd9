"""The mechanism every game shares: seats, turn order, the random stream, the event log, the
action log (replay), the settlement ledger and JSON snapshots.

A game subclasses :class:`TableGame`, declares ``GAME``, ``Rules``, ``MIN_PLAYERS`` and
``MAX_PLAYERS``, and implements:

- ``_start()``: deal (drawing only from ``self._rng``) and set the first state;
- ``apply(action)``: carry out one action dict, the same dicts that ``actions`` logs;
- ``_dump_state()`` / ``_load_state(state)``: its own part of a snapshot (validate with
  :mod:`vncards.snapshot`);
- ``is_over``, ``pending_seats``, ``legal_actions(seat)`` and ``_view(seat or None)`` (the
  generic surface of :mod:`vncards.surface`: ``view``, ``public_view``, ``can_apply``…).

Conventions for every game:

- An illegal call raises :class:`~vncards.errors.IllegalMoveError` *before* anything changes.
- ``events`` are JSON-safe dicts ``{"type": ..., ...}`` in order; ``actions`` are the accepted
  actions, so ``Game.replay(actions, players=, rules=, seed=)`` rebuilds the same game.
- ``view(seat)`` is JSON-safe and holds the seat's own hand, public facts and the *counts* of
  the others' hidden cards, never their cards.
- ``settlement`` is ``None`` until the game is over, then the ledger's per-seat totals.
- ``seed=None`` keys the shuffle from the OS CSPRNG; ``rng_key`` is that key, so a server that
  keeps it privately can replay the game with ``seed=game.rng_key``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, TypeVar

from ._core import Rng
from .errors import IllegalMoveError, RulesError, SnapshotError
from .ledger import Ledger
from .rules import RulesBase, rules_mismatch
from .snapshot import expect, expect_dict, expect_int, expect_list, expect_str
from .surface import GameSurface

__all__ = ["TableGame", "Seed"]

G = TypeVar("G", bound="TableGame")

#: A seed: ``None`` (OS CSPRNG), an int ``0 <= seed < 2**256``, or up to 32 bytes.
Seed = int | bytes | None

_ENVELOPE = ("format", "game", "version", "players", "rules", "rng", "events", "actions", "ledger", "state")


class TableGame(GameSurface):
    """Base class of every game: see the module docstring for what a game adds."""

    GAME: ClassVar[str] = ""
    Rules: ClassVar[type[RulesBase]] = RulesBase
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    SNAPSHOT_VERSION: ClassVar[int] = 1

    _players: int
    _rules: Any
    _rng: Rng
    _events: list[dict[str, Any]]
    _actions: list[dict[str, Any]]
    _ledger: Ledger

    def __init__(self, players: int = 4, rules: Any = None, seed: Seed = None) -> None:
        self._init_table(players, rules, Rng(seed))
        self._start()

    def _init_table(self, players: Any, rules: Any, rng: Rng) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be an int, not {players!r}")
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise RulesError(
                f"{self.GAME} takes {self.MIN_PLAYERS}–{self.MAX_PLAYERS} players, not {players}"
            )
        if rules is None:
            rules = self.Rules()
        elif isinstance(rules, Mapping):
            rules = self.Rules().replace(**rules)
        if not isinstance(rules, self.Rules):
            raise rules_mismatch(f"{self.GAME}.Game", self.Rules, rules)
        self._players = players
        self._rules = rules
        self._rng = rng
        self._events = []
        self._actions = []
        self._ledger = Ledger(players)

    # -- what every game implements ------------------------------------------------------------

    def _start(self) -> None:
        raise NotImplementedError

    def apply(self, action: Mapping[str, Any]) -> None:
        """Carry out one logged action dict (as found in ``actions``)."""
        raise NotImplementedError

    def _dump_state(self) -> dict[str, Any]:
        raise NotImplementedError

    def _load_state(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    # -- shared behaviour ----------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats, numbered ``0..players-1`` in playing order."""
        return self._players

    @property
    def rules(self) -> Any:
        """The table's rules object (frozen)."""
        return self._rules

    @property
    def events(self) -> list[dict[str, Any]]:
        """Everything that happened, in order, as JSON-safe dicts (a copy)."""
        return list(self._events)

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The accepted actions, in order: with the seed, enough to replay the game (a copy)."""
        return list(self._actions)

    @property
    def ledger(self) -> list[dict[str, Any]]:
        """Itemised payments ``{"from", "to", "units", "reason"}`` so far."""
        return self._ledger.entries

    @property
    def settlement(self) -> list[int] | None:
        """Units won per seat once the game is over (sums to zero); ``None`` before."""
        return self._ledger.totals() if self.is_over else None

    @property
    def rng_key(self) -> bytes:
        """The 32-byte shuffle key; ``seed=rng_key`` replays this game. Keep it private."""
        return self._rng.key

    def next_seat(self, seat: int, step: int = 1) -> int:
        """The seat ``step`` places after ``seat`` in playing order."""
        return (seat + step) % self._players

    def _check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._players:
            raise IllegalMoveError("invalid_seat", f"no seat {seat!r} at a {self._players}-seat table")
        return seat

    def _emit(self, kind: str, **fields: Any) -> None:
        self._events.append({"type": kind, **fields})

    def _log(self, action: dict[str, Any]) -> None:
        self._actions.append(action)

    @classmethod
    def replay(
        cls: type[G],
        actions: Iterable[Mapping[str, Any]],
        *,
        players: int = 4,
        rules: Any = None,
        seed: Seed,
    ) -> G:
        """The game rebuilt from its seed and action log."""
        game = cls(players=players, rules=rules, seed=seed)
        for action in actions:
            game.apply(action)
        return game

    # -- snapshots -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-safe data (includes hidden cards and the shuffle key)."""
        return {
            "format": "vncards",
            "game": self.GAME,
            "version": self.SNAPSHOT_VERSION,
            "players": self._players,
            "rules": self._rules.to_dict(),
            "rng": {"key": self._rng.key.hex(), "position": self._rng.position},
            "events": self._events,
            "actions": self._actions,
            "ledger": self._ledger.entries,
            "state": self._dump_state(),
        }

    def to_json(self) -> str:
        """The full state as JSON (server-side only: it holds every hand)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls: type[G], data: Any) -> G:
        """Restore from ``to_dict()`` data; anything inconsistent raises SnapshotError."""
        d = expect_dict(data, "snapshot", _ENVELOPE)
        expect(d["format"] == "vncards", "snapshot: not a vncards snapshot")
        expect(d["game"] == cls.GAME, f"snapshot is of {d['game']!r}, not {cls.GAME!r}")
        expect_int(d["version"], "version", cls.SNAPSHOT_VERSION, cls.SNAPSHOT_VERSION)
        players = expect_int(d["players"], "players", cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        try:
            rules = cls.Rules.from_snapshot(d["rules"])
        except RulesError as e:
            raise SnapshotError(f"rules: {e}") from None
        rng_d = expect_dict(d["rng"], "rng", ("key", "position"))
        key_hex = expect_str(rng_d["key"], "rng.key")
        try:
            key = bytes.fromhex(key_hex)
        except ValueError:
            raise SnapshotError("rng.key must be hex") from None
        expect(len(key) == 32, "rng.key must be 32 bytes")
        rng = Rng.restore(key, expect_int(rng_d["position"], "rng.position", 0))
        game = cls.__new__(cls)
        game._init_table(players, rules, rng)
        for name in ("events", "actions"):
            items = expect_list(d[name], name)
            for i, item in enumerate(items):
                expect_str(expect_dict(item, f"{name}[{i}]").get("type"), f"{name}[{i}].type")
            setattr(game, f"_{name}", [dict(item) for item in items])
        game._ledger = Ledger.from_entries(players, d["ledger"])
        state = expect_dict(d["state"], "state")
        try:
            game._load_state(state)
        except SnapshotError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            # A game's own checks name the field; this net keeps any slip typed.
            raise SnapshotError(f"state: malformed ({type(e).__name__}: {e})") from None
        return game

    @classmethod
    def from_json(cls: type[G], text: str | bytes) -> G:
        """Restore from ``to_json()``; malformed or inconsistent input raises SnapshotError."""
        try:
            data = json.loads(text)
        except (ValueError, TypeError) as e:
            raise SnapshotError(f"snapshot is not valid JSON: {e}") from None
        return cls.from_dict(data)

    def clone(self: G) -> G:
        """An independent copy (through the snapshot format)."""
        return type(self).from_dict(json.loads(self.to_json()))
