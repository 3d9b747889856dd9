# Why this module is over 600 lines: it is one class, TableGame, the mechanism every game
# inherits, and its snapshot restore (from_dict, from_position, _from_data) replays the actions
# and compares every part of the state the class keeps. The checks stay beside that state. The
# per-game lock is in vncards.atomic, and the snapshot checks of any data are in vncards.snapshot.
"""The mechanism every game shares: seats, turn order, the random stream, the event log, the
action log (replay), the settlement ledger, per-seat events, JSON snapshots, copies and the
per-game lock.

A game subclasses :class:`TableGame`, declares ``GAME``, ``Rules``, ``MIN_PLAYERS``,
``MAX_PLAYERS`` and ``ACTIONS`` (its action types as :class:`~vncards.inputs.ActionSpec`), and
implements:

- ``_start()``: deal (drawing only from ``self._rng``) and set the first state;
- ``apply(action)``: carry out one action dict, the same dicts that ``actions`` logs (parse it
  with ``self._parse_action(action)`` first: the one input contract of :mod:`vncards.inputs`);
- ``_dump_state()`` / ``_load_state(state)``: its own part of a snapshot (the second only for
  :meth:`TableGame.from_position`; validate with :mod:`vncards.snapshot`);
- where the rules carry something from one hand to the next (who leads, who deals): a
  constructor keyword named in ``SETUP``, ``_setup()`` returning it, and ``_next_setup()``
  returning the keywords of the following hand (:attr:`TableGame.next_hand_setup`);
- ``is_over``, ``pending_seats``, ``legal_actions(seat)`` and ``_view(seat or None)`` (the
  generic surface of :mod:`vncards.surface`: ``view``, ``public_view``, ``can_apply``…).

and declares how its logged actions and events are stored, ``ACTION_LOG`` and ``EVENT_LOG``
(:mod:`vncards.journal`): it logs with ``self._log(action)`` / ``self._emit(kind, **fields)``
(values as those codecs take them, e.g. a card mask), and every read builds fresh dicts.

Conventions for every game:

- An illegal call raises :class:`~vncards.errors.IllegalMoveError` *before* anything changes.
  Client data (action dicts, cards, seats) that is malformed raises only
  :class:`~vncards.errors.VncardsError` subclasses (see :mod:`vncards.inputs`).
- ``events`` are JSON-safe dicts ``{"type": ..., ...}`` in order (the server's full log);
  ``events_for(seat)`` and ``public_events()`` hide what that seat (or a spectator) may not
  know. ``actions`` are the accepted actions, so ``Game.replay(actions, players=, rules=,
  seed=)`` rebuilds the same game. Every list or dict a game returns is the caller's own copy.
- ``view(seat)`` is JSON-safe and holds the seat's own hand, public facts and the *counts* of
  the others' hidden cards, never their cards.
- ``settlement`` is ``None`` until the game is over, then the ledger's per-seat totals.
- ``seed=None`` keys the shuffle from the OS CSPRNG; ``rng_key`` is that key, so a server that
  keeps it privately can replay the game with ``seed=game.rng_key``.
- Every public method and property runs under the game's own lock (a ``threading.RLock``), so
  a game shared by threads is never seen half-changed. Module functions take no lock.

Snapshots (``to_json`` / ``from_json``) are the server's: they hold every hand and the RNG
key, from which every later deal of the session can be predicted. Never send one to a client.
``from_json`` trusts nothing in them: it replays the action log from the stored seed and rules
and requires the stored state, events and ledger to be exactly the replay's. With
``key=bytes`` the text is also signed (HMAC-SHA256), for storage others could edit.

>>> from vncards import tienlen
>>> g = tienlen.Game(seed=3)
>>> g.auto_play(g.current_seat)
>>> text = g.to_json(key=b"secret")
>>> tienlen.Game.from_json(text, key=b"secret").to_json() == g.to_json()
True
>>> tienlen.Game.from_json(text, key=b"other")
Traceback (most recent call last):
...
vncards.errors.SnapshotError: snapshot: the HMAC tag does not match (wrong key or edited)
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from ._core import Card, Rng, TuSacCard
from .atomic import make_atomic
from .errors import RulesError, SnapshotError, VncardsError
from .inputs import ActionSpec, parse_action, parse_seat
from .journal import Journal
from .ledger import Ledger
from .rules import RulesBase, rules_mismatch
from .snapshot import (
    canonical_text,
    check_key,
    expect,
    expect_dict,
    expect_int,
    expect_list,
    expect_str,
    first_difference,
    json_copy,
    load_text,
    sign,
    verify,
)
from .surface import GameSurface

__all__ = ["TableGame", "Seed", "MAX_ACTIONS"]

G = TypeVar("G", bound="TableGame")

#: A seed: ``None`` (OS CSPRNG), an int ``0 <= seed < 2**256``, or up to 32 bytes.
Seed = int | bytes | None

#: Most actions a snapshot may hold (a long session of hands stays far below).
MAX_ACTIONS = 200_000

_ENVELOPE = (
    "format",
    "game",
    "version",
    "players",
    "rules",
    "rules_sha256",
    "setup",
    "rng",
    "origin",
    "events",
    "actions",
    "ledger",
    "state",
)
_ORIGIN = ("rng_position", "events", "ledger", "state")
#: The envelope a version-1 snapshot is upgraded to (version 2's).
_ENVELOPE_VERSION = 2
_U64_MAX = 2**64 - 1


class TableGame(GameSurface, Journal):
    """Base class of every game: see the module docstring for what a game adds."""

    GAME: ClassVar[str] = ""
    Rules: ClassVar[type[RulesBase]] = RulesBase
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    SNAPSHOT_VERSION: ClassVar[int] = 2
    #: Older snapshot versions this version still restores although it logs different events
    #: for the same actions (a game that added events bumps ``SNAPSHOT_VERSION`` and lists the
    #: old one here): their actions are replayed as always and the events are the replay's.
    REPLAYED_VERSIONS: ClassVar[tuple[int, ...]] = ()
    #: The game's action types and their fields (the input contract of :mod:`vncards.inputs`).
    ACTIONS: ClassVar[Mapping[str, ActionSpec]] = {}
    #: Constructor keywords besides players/rules/seed that a replay needs: what a hand starts
    #: with from the hand before it (Tứ Sắc's ``dealer``, the shedding games' ``leader``).
    #: ``_setup()`` returns them (a game may leave out a keyword at its default).
    SETUP: ClassVar[tuple[str, ...]] = ()
    #: The ``SETUP`` keywords a version-1 snapshot (which had no ``setup``) keeps in its
    #: ``state`` under the same name (None: all of them); see :meth:`_upgrade_envelope`.
    V1_SETUP: ClassVar[tuple[str, ...] | None] = None
    #: Event fields only one seat may see: ``{event type: {field: field naming that seat}}``;
    #: :meth:`events_for` blanks them for every other seat.
    PRIVATE_FIELDS: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    _players: int
    _rules: Any
    _rng: Rng
    _ledger: Ledger
    _origin: dict[str, Any] | None
    _lock: threading.RLock

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        make_atomic(cls)

    def __init__(self, players: int = 4, rules: Any = None, seed: Seed = None) -> None:
        self._init_table(players, rules, Rng(seed))
        self._start()

    def _init_table(self, players: Any, rules: Any, rng: Rng) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players must be an int, not {type(players).__name__}")
        if not self.MIN_PLAYERS <= players <= self.MAX_PLAYERS:
            raise RulesError(
                f"{self.GAME} takes {self.MIN_PLAYERS}–{self.MAX_PLAYERS} players, not {players}"
            )
        if rules is None:
            rules = default_rules(self.Rules)
        elif isinstance(rules, Mapping):
            rules = self.Rules().replace(**rules)
        if not isinstance(rules, self.Rules):
            raise rules_mismatch(f"{self.GAME}.Game", self.Rules, rules)
        self._lock = threading.RLock()
        self._players = players
        self._rules = rules
        self._rng = rng
        self._init_journal()
        self._ledger = Ledger(players)
        self._origin = None

    # -- what every game implements ------------------------------------------------------------

    def _start(self) -> None:
        raise NotImplementedError

    def apply(self, action: Mapping[str, Any]) -> None:
        """Carry out one action dict, of a type in the game's ``ACTIONS`` (as listed by
        ``legal_actions`` or logged in ``actions``). Raises
        :class:`~vncards.errors.IllegalMoveError` (or another ``VncardsError`` for malformed
        input) and leaves the game unchanged when it is not allowed.

        The one entry of every action: it takes the game's lock once, inline (no wrapper
        frame: the lock costs one acquire and release per action), parses the dict with the
        input contract and hands it to the game's ``_apply``."""
        lock = self._lock
        lock.acquire()
        try:
            self._apply(self._parse_action(action))
        finally:
            lock.release()

    apply.__atomic__ = True  # type: ignore[attr-defined]

    def _apply(self, a: dict[str, Any]) -> None:
        """*hook*: carry out the parsed action ``a`` (see :meth:`apply`)."""
        raise NotImplementedError

    def _dump_state(self) -> dict[str, Any]:
        raise NotImplementedError

    def _load_state(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    def _setup(self) -> dict[str, Any]:
        """The ``SETUP`` keywords of this game (for a replay)."""
        return {}

    def _outcome(self) -> dict[str, Any]:
        """*hook*: how the finished hand ended, in public facts (JSON-safe): see
        :attr:`outcome`."""
        return {}

    def _deal_text(self, seat: int) -> str:
        """*hook*: the cards ``seat`` was dealt, as text (a hand history's deal line); called
        on a game that has not acted yet."""
        return " ".join(map(str, self.hand(seat)))

    def _next_setup(self) -> dict[str, Any]:
        """*hook*: the ``SETUP`` keywords of the hand that follows this finished one, as the
        rules carry them over (called only once the game is over). Nothing by default."""
        return {}

    def hand(self, seat: int) -> Sequence[Card | TuSacCard]:
        """The cards ``seat`` holds (server side: never send them to another seat). Each game
        narrows the type: :class:`~vncards.Card` in the 52-card games, ``TuSacCard`` in Tứ Sắc."""
        raise NotImplementedError

    def auto_play(self, seat: int) -> None:
        """A simple legal move for ``seat``, for a server's time-outs (each game documents
        which)."""
        raise NotImplementedError

    def _moves(self, seat: int) -> Sequence[dict[str, Any]]:
        """*hook* (the bots': :class:`vncards.bots.base.Turn`): ``legal_actions(seat)``, or where
        building every action dict costs, a sequence that builds each when it is read (the same
        actions, in the same order). ``legal_actions(seat)`` by default."""
        return self.legal_actions(seat)

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
        """Everything that happened, in order, as JSON-safe dicts: the server's full log (it may
        hold what some seats may not see: forward :meth:`events_for` instead). A deep copy."""
        return self._logged(events=True)

    def events_for(self, seat: int) -> list[dict[str, Any]]:
        """The events ``seat`` may know, in order: ``events`` with every field private to
        another seat blanked (e.g. the card the leader's first play must include)."""
        return self._redacted(parse_seat(seat, self._players))

    def public_events(self) -> list[dict[str, Any]]:
        """The events a spectator may know: every private field blanked."""
        return self._redacted(None)

    def _redacted(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """``events_for(seat)`` (every private field blanked for ``None``), from the event
        numbered ``start`` on (``start >= 0``)."""
        return self._redact(self._logged(events=True, start=start), seat)

    def _redact(self, events: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
        """``events`` (as :meth:`_logged` renders them) as ``seat`` may know them (``None``: a
        spectator): an event holding a field private to another seat is copied with that field
        blanked, every other event is the same dict, and ``events`` is left as it was. So one
        rendering of a change's events serves every seat's frame (the server encodes each
        frame at once and changes none)."""
        private = self.PRIVATE_FIELDS
        if not private:
            return list(events)
        hidden = private.get
        out: list[dict[str, Any]] = []
        append = out.append
        for e in events:
            fields = hidden(e["type"])
            if fields:
                for name, owner in fields.items():
                    if name in e and e.get(owner) != seat:
                        e = {**e, name: _blank(e[name])}
            append(e)
        return out

    @property
    def seq(self) -> int:
        """The state counter (``"seq"`` in every view): 0 for a new game, one more for every
        accepted action, a shedding game's ``next_hand`` included; a refused action leaves it
        as it was, so the higher of two views' ``seq`` is the newer state. It is the number of
        :attr:`actions`, so a snapshot keeps it (a game set up with :meth:`from_position`
        goes on from its position's count). In a :class:`~vncards.session.Session` each hand is
        a game of its own, whose ``seq`` starts at 0: order a match's states by
        ``(hand_number, seq)``.

        >>> from vncards import tienlen
        >>> g = tienlen.Game(seed=3)
        >>> g.auto_play(g.current_seat)
        >>> g.seq, g.view(0)["seq"], g.public_view()["seq"], tienlen.Game.from_json(g.to_json()).seq
        (1, 1, 1, 1)
        """
        return self._seq

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The accepted actions, in order: with the seed, enough to replay the game (a copy)."""
        return self._logged(events=False)

    @property
    def ledger(self) -> list[dict[str, Any]]:
        """Itemised payments ``{"from", "to", "units", "reason"}`` so far (a copy)."""
        return self._ledger.entries

    @property
    def settlement(self) -> list[int] | None:
        """Units won per seat once the game is over (sums to zero); ``None`` before."""
        return self._ledger.totals() if self.is_over else None

    @property
    def setup(self) -> dict[str, Any]:
        """The ``SETUP`` keywords this hand was started with (e.g. ``{"dealer": 0}``; ``{}``
        for a shedding game's first hand): with the seed and the actions, what a replay needs."""
        setup: dict[str, Any] = json_copy(self._setup())
        return setup

    @property
    def outcome(self) -> dict[str, Any] | None:
        """How the hand ended, once it is over (``None`` before), in public facts a hand
        history records: the shedding games' ``winner`` and finishing ``order``, Mậu Binh's
        ``instants`` and ``fouled`` seats, Tứ Sắc's ``winner``, ``score``, ``draw`` and
        ``den_lang``. The money is in :attr:`settlement` and :attr:`ledger`."""
        if not self.is_over:
            return None
        outcome: dict[str, Any] = json_copy(self._outcome())
        return outcome

    @property
    def next_hand_setup(self) -> dict[str, Any] | None:
        """What the rules carry into the next hand, once this one is over (``None`` before):
        the constructor keywords that start it, e.g. ``{"leader": 2}`` (Tiến Lên, Sâm Lốc:
        the winner leads) or ``{"dealer": 1}`` (Tứ Sắc: the winner deals). ``{}`` when
        nothing carries (Mậu Binh; a Tiến Lên hand ended by an instant win, after which the
        first-hand rule applies again). :class:`vncards.session.Session` starts each hand
        with it.

        >>> from vncards import tienlen
        >>> g = tienlen.Game(seed=3)
        >>> while not g.is_over:
        ...     g.auto_play(g.current_seat)
        >>> g.next_hand_setup == {"leader": g.winner}
        True
        >>> tienlen.Game(seed=4, **g.next_hand_setup).current_seat == g.winner
        True
        """
        return self._next_setup() if self.is_over else None

    @property
    def rng_key(self) -> bytes:
        """The 32-byte shuffle key; ``seed=rng_key`` replays this game. Keep it private: it
        predicts every later deal of the session."""
        return self._rng.key

    def next_seat(self, seat: int, step: int = 1) -> int:
        """The seat ``step`` places after ``seat`` in playing order."""
        return (self._check_seat(seat) + step) % self._players

    def _check_seat(self, seat: Any) -> int:
        return parse_seat(seat, self._players)

    def _parse_action(self, action: Any) -> dict[str, Any]:
        """``action`` checked against this game's ``ACTIONS`` (types, keys, seats, cards):
        a plain dict of parsed values, or IllegalMoveError / InvalidCardError (TypeError for
        objects no JSON decoder makes). Nothing about the game changes."""
        return parse_action(action, self.ACTIONS, self._players)

    @classmethod
    def replay(
        cls: type[G],
        actions: Iterable[Mapping[str, Any]],
        *,
        players: int = 4,
        rules: Any = None,
        seed: Seed,
        **setup: Any,
    ) -> G:
        """The game rebuilt from its seed and action log (``setup``: the game's ``SETUP``
        keywords, e.g. Tứ Sắc's ``dealer``)."""
        game = cls(players=players, rules=rules, seed=seed, **setup)
        for action in actions:
            game.apply(action)
        return game

    # -- copies --------------------------------------------------------------------------------

    def clone(self: G) -> G:
        """An independent copy that plays on by itself (same as ``copy.deepcopy``)."""
        return copy.deepcopy(self)

    def __deepcopy__(self: G, memo: dict[int, Any]) -> G:
        new = object.__new__(type(self))
        memo[id(self)] = new
        memo[id(self._rules)] = self._rules  # frozen: shared
        for name, value in self.__dict__.items():
            new.__dict__[name] = threading.RLock() if name == "_lock" else copy.deepcopy(value, memo)
        return new

    def __copy__(self: G) -> G:
        return self.__deepcopy__({})

    def __reduce__(self) -> tuple[Callable[[str], TableGame], tuple[str]]:
        """Pickles through the snapshot (verified again when unpickled)."""
        return (type(self).from_json, (self.to_json(),))

    # -- snapshots -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The full state as JSON-safe data (a deep copy). It holds every hidden card and the
        RNG key (every later deal of the session follows from it): never send it to a client."""
        return self._to_dict(with_actions=True)

    def _to_dict(self, with_actions: bool) -> dict[str, Any]:
        """``to_dict()``; without the actions (``[]``) when ``with_actions`` is false (the
        replay check of a snapshot compares everything else)."""
        return {
            "format": "vncards",
            "game": self.GAME,
            "version": self.SNAPSHOT_VERSION,
            "players": self._players,
            "rules": self._rules.to_dict(),
            "rules_sha256": _rules_digest(self._rules),
            "setup": self._setup(),
            "rng": {"key": self._rng.key.hex(), "position": self._rng.position},
            "origin": json_copy(self._origin),
            "events": self._logged(events=True),
            "actions": self._logged(events=False) if with_actions else [],
            "ledger": self._ledger.entries,
            "state": json_copy(self._dump_state()),
        }

    def to_json(self, key: bytes | bytearray | None = None) -> str:
        """The full state as JSON (server-side only: it holds every hand and the RNG key, so
        never send it to a client). With ``key`` (non-empty bytes, else
        :class:`~vncards.errors.SnapshotKeyError`), canonical text signed with HMAC-SHA256 (an
        ``"hmac"`` field) for :meth:`from_json` with the same key."""
        key = check_key(key)
        data = self.to_dict()
        if key is not None:
            return sign(data, key)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(
        cls: type[G],
        text: str | bytes,
        key: bytes | bytearray | None = None,
        *,
        require_signature: bool = False,
    ) -> G:
        """Restore from ``to_json()`` text. The text is bounded (size, nesting) before it is
        parsed; with ``key`` its HMAC must match; then the game is rebuilt by replaying the
        logged actions from the stored seed and rules, and the stored state, events, ledger and
        RNG position must be exactly the replay's. Anything else raises SnapshotError naming
        the first field that differs.

        ``key``: non-empty bytes; anything else (a ``str`` key included) raises
        :class:`~vncards.errors.SnapshotKeyError` before the text is read. Without a key an
        ``"hmac"`` field is ignored (the replay still checks the content). A server that only
        ever stores signed snapshots passes ``require_signature=True``: then a missing key is
        a SnapshotKeyError too, so an unsigned (or forged) snapshot is never accepted because
        the key was forgotten.

        >>> from vncards import tienlen
        >>> text = tienlen.Game(seed=1).to_json()
        >>> tienlen.Game.from_json(text, key=None, require_signature=True)
        Traceback (most recent call last):
        ...
        vncards.errors.SnapshotKeyError: a signature is required (require_signature=True) but no key was given
        >>> tienlen.Game.from_json(text, key=b"server key", require_signature=True)
        Traceback (most recent call last):
        ...
        vncards.errors.SnapshotError: snapshot: not signed (no hmac field)
        """
        key = check_key(key, require=require_signature)
        return cls._from_data(load_text(text), key)

    @classmethod
    def from_dict(
        cls: type[G], data: Any, key: bytes | bytearray | None = None, *, require_signature: bool = False
    ) -> G:
        """Restore from ``to_dict()`` data, checked exactly as :meth:`from_json` checks text."""
        key = check_key(key, require=require_signature)
        try:
            text = json.dumps(data, ensure_ascii=True, allow_nan=True)
        except (ValueError, RecursionError) as e:
            raise SnapshotError(f"snapshot is not JSON data: {e}") from None
        return cls.from_json(text, key)

    @classmethod
    def from_position(cls: type[G], data: Any) -> G:
        """A game set up at the position in ``data`` (a ``to_dict()``-shaped dict whose
        ``state`` may be edited: tests, puzzles, teaching). Every field is checked for
        consistency on the way in (cards conserved, counters and amounts in range, a turn the
        rules allow, a seat to act that has a legal action, a bomb chain on the table, ...),
        so a position accepted plays on like any game: every refused move is a VncardsError
        that changes nothing. It has no history to verify it, though, so never build one from
        untrusted data. Its ``actions`` start empty; its snapshots
        record the position as their ``origin`` and replay from it. Its :attr:`seq` goes on
        from the number of ``actions`` ``data`` lists (those of the game it was taken from, so
        a position copied from a game shows the same views; 0 without any)."""
        try:
            data = json.loads(json.dumps(data))
        except (ValueError, RecursionError) as e:
            raise SnapshotError(f"position is not JSON data: {e}") from None
        d = expect_dict(data, "position")
        for name in ("players", "rules", "state"):
            expect(name in d, f"position: missing {name!r}")
        players = expect_int(d["players"], "players", cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        rules = cls._rules_from(d["rules"])
        rng = expect_dict(d.get("rng", {"key": "00" * 32, "position": 0}), "rng", ("key", "position"))
        origin = {
            "rng_position": rng["position"],
            "events": d.get("events", []),
            "ledger": d.get("ledger", []),
            "state": d["state"],
        }
        # The position's seq: the actions that led to it (those of the game it was taken from).
        taken = len(expect_list(d.get("actions", []), "actions"))
        if taken:
            origin["seq"] = taken
        game = cls._at_origin(players, rules, _rng_key(rng["key"]), origin)
        game._origin = {**origin, "state": json_copy(game._dump_state())}
        return game

    @classmethod
    def _rules_from(cls, data: Any) -> Any:
        try:
            return cls.Rules.from_snapshot(data)
        except (VncardsError, ValueError, TypeError, OverflowError) as e:
            raise SnapshotError(f"rules: {e}") from None

    @classmethod
    def _at_origin(cls: type[G], players: int, rules: Any, key: bytes, origin: Any) -> G:
        o = expect_dict(
            origin, "origin", (*_ORIGIN, "seq") if isinstance(origin, dict) and "seq" in origin else _ORIGIN
        )
        position = expect_int(o["rng_position"], "origin.rng_position", 0, _U64_MAX)
        game = cls.__new__(cls)
        game._init_table(players, rules, Rng.restore(key, position))
        if "seq" in o:  # (an origin without it: a position taken at seq 0, or from before seq)
            game._seq = expect_int(o["seq"], "origin.seq", 1, MAX_ACTIONS)
        events = expect_list(o["events"], "origin.events")
        for i, e in enumerate(events):
            expect_str(expect_dict(e, f"origin.events[{i}]").get("type"), f"origin.events[{i}].type")
        game._load_events(events)
        game._ledger = Ledger.from_entries(players, o["ledger"])
        state = expect_dict(o["state"], "state")
        try:
            game._load_state(state)
        except SnapshotError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as e:
            # A game's own checks name the field; this net keeps any slip typed.
            raise SnapshotError(f"state: malformed ({type(e).__name__}: {e})") from None
        game._origin = json_copy(o)
        return game

    @classmethod
    def _upgrade_envelope(cls, data: Any) -> Any:
        """A version-1 snapshot (no ``rules_sha256``, ``setup`` or ``origin``) in today's
        envelope; it is then verified by the replay like any other."""
        if not (isinstance(data, dict) and type(data.get("version")) is int and data["version"] == 1):
            return data  # (True and 1.0 equal 1 but are no version)
        if not isinstance(data.get("state"), dict):
            return data
        if not isinstance(data.get("rules"), dict):
            return data
        upgraded = dict(data, version=_ENVELOPE_VERSION, origin=None)
        kept = cls.SETUP if cls.V1_SETUP is None else cls.V1_SETUP
        upgraded["setup"] = {k: data["state"][k] for k in kept if k in data["state"]}
        cls._rules_from(data["rules"])  # (valid rules, or a SnapshotError now)
        upgraded["rules_sha256"] = _digest(data["rules"])
        return upgraded

    @classmethod
    def _from_data(cls: type[G], data: Any, key: bytes | None) -> G:
        if key is not None:
            data = verify(data, key)
        elif isinstance(data, dict) and "hmac" in data:
            data = {k: v for k, v in data.items() if k != "hmac"}
        d = expect_dict(cls._upgrade_envelope(data), "snapshot", _ENVELOPE)
        expect(d["format"] == "vncards", "format: not a vncards snapshot")
        expect(d["game"] == cls.GAME, f"game: the snapshot is not of {cls.GAME!r}")
        version = expect_int(d["version"], "version", 1, cls.SNAPSHOT_VERSION)
        expect(
            version == cls.SNAPSHOT_VERSION or version in cls.REPLAYED_VERSIONS,
            f"version: {version} is not restored by this version ({cls.SNAPSHOT_VERSION})",
        )
        players = expect_int(d["players"], "players", cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        rules = cls._rules_from(d["rules"])
        # The replay cannot tell options that have not mattered yet: a digest catches an edit
        # of the rules alone (a checksum, not a signature: sign against forgery).
        # The digest covers the rules as stored: rules written before an option existed are
        # upgraded (``Rules._upgrade``) after the check.
        expect(d["rules_sha256"] == _digest(d["rules"]), "rules_sha256: does not match the rules")
        setup = expect_dict(d["setup"], "setup")
        unknown = sorted(set(setup) - set(cls.SETUP), key=repr)  # keys of data may be any hashable
        expect(not unknown, f"setup: unexpected keys {unknown} (keys: {list(cls.SETUP)})")
        rng_d = expect_dict(d["rng"], "rng", ("key", "position"))
        key_bytes = _rng_key(rng_d["key"])
        expect_int(rng_d["position"], "rng.position", 0, _U64_MAX)
        actions = expect_list(d["actions"], "actions")
        expect(len(actions) <= MAX_ACTIONS, f"actions: more than {MAX_ACTIONS}")
        if d["origin"] is None:
            try:
                game = cls(players=players, rules=rules, seed=key_bytes, **setup)
            except VncardsError as e:
                raise SnapshotError(f"setup: {e}") from None
        else:
            game = cls._at_origin(players, rules, key_bytes, d["origin"])
        for i, action in enumerate(actions):
            try:
                game.apply(action)
            except (VncardsError, TypeError) as e:
                raise SnapshotError(f"actions[{i}]: {e}") from None
        derived = game._to_dict(with_actions=False)
        checked: tuple[str, ...] = ("setup", "state", "ledger", "rng", "origin")
        if version == cls.SNAPSHOT_VERSION:
            checked += ("events",)
        for name in checked:
            if d[name] != derived[name]:
                path = first_difference(d[name], derived[name], name) or name
                raise SnapshotError(f"{path}: does not match the replay of the actions")
        return game


#: ``Rules()`` of each game class, made once (see :func:`default_rules`).
_DEFAULT_RULES: dict[type, Any] = {}


def default_rules(rules_class: type) -> Any:
    """``rules_class()``, made once: rules are frozen, so tables share them."""
    rules = _DEFAULT_RULES.get(rules_class)
    if rules is None:
        rules = _DEFAULT_RULES[rules_class] = rules_class()
    return rules


def _digest(data: Any) -> str:
    return hashlib.sha256(canonical_text(data).encode("ascii")).hexdigest()


@functools.lru_cache(maxsize=64)
def _rules_digest(rules: Any) -> str:
    """``_digest(rules.to_dict())`` of frozen, hashable rules, for the snapshots."""
    return _digest(rules.to_dict())


def _rng_key(value: Any) -> bytes:
    text = expect_str(value, "rng.key")
    expect(len(text) == 64 and text.isascii(), "rng.key must be 64 hex digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise SnapshotError("rng.key must be 64 hex digits") from None


def _blank(value: Any) -> Any:
    """The empty value of a hidden field's type."""
    if isinstance(value, str):
        return ""
    if isinstance(value, list):
        return []
    return None


make_atomic(TableGame, bases=True)
