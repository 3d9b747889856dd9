# Why this module is over 600 lines: it is one class, Session, and its snapshot restore
# (from_dict, _verify_hands) checks every invariant that play keeps (the deal of each hand, the
# chain of hand digests, the totals, each seat's credits). The checks stay beside the state they
# check, so a reader sees that each is checked. The records the session shares with the
# history (Seat, Hand, a hand's record) are in vncards.hands.
"""A match of many hands at one table: who sits where, the running totals, and what the rules
carry from one hand to the next.

Each hand is its own game (:attr:`Session.game`), started with what the rules carry over from
the hand before (the game's :attr:`~vncards.table.TableGame.next_hand_setup`):

- Tiến Lên: the winner leads the next hand with any play, and the first-hand rules (3♠ or a
  random first lead, the first-hand instant wins) are off; after an instant win, or a hand
  nobody won (finishing on a 2 under ``"penalized"``), the first-hand rule applies again.
- Sâm Lốc: the winner (the blocker of a Sâm included) is the next hand's nominal leader, from
  whom the Sâm declarations start; a hand nobody won makes the next nominal leader random again.
- Tứ Sắc: the winner deals the next hand; after a draw the same dealer deals again.
- Mậu Binh has no dealer or leader: nothing carries over but the totals.

So a hand's snapshot and history never grow with the age of the match: :meth:`Session.next_hand`
hands back the finished hand (a :class:`Hand`, written with :func:`vncards.history.dumps`), and
the session's own snapshot holds only the hand in play, the seats and the totals.

Seats are numbered as in the games. Each holds a :class:`Seat`: a player (an id the server
chooses), a bot (by name) or nobody ("open"). :meth:`Session.sit` and :meth:`Session.leave`
change a seat: a player's seat changes between hands (a player who leaves during a hand is
played by the server's time-out bot until it ends, and pays or collects its result); a seat
held by a bot, or open, may be taken at any time, and the newcomer plays the hand in play on.
``totals`` are per seat since the session began (they sum to zero); each seat's ``total`` is
what its current occupant has won since it sat down.

Every hand's deal is keyed from the session's seed (HMAC-SHA256 of the session key and the hand
number), so a hand's key reveals nothing of the other hands, and a session restored from its
snapshot deals exactly the hands it would have dealt.

>>> s = Session("tienlen", players=["An", "Bình", Seat(bot="greedy"), Seat(bot="greedy")], seed=7)
>>> s.hand_number, s.seats[2].kind
(1, 'bot')
>>> while not s.game.is_over:
...     s.game.auto_play(s.game.current_seat)
>>> result, winner = s.hand_result, s.game.winner
>>> left = s.leave(1, bot="greedy")   # Bình leaves once the hand is over; a bot takes the seat
>>> left.player, left.total == result[1]
('Bình', True)
>>> finished = s.next_hand()
>>> finished.number, [seat.label for seat in finished.seats], s.hand_number, sum(s.totals)
(1, ['An', 'Bình', 'bot greedy', 'bot greedy'], 2, 0)
>>> s.game.setup == {"leader": winner, "hand_number": 2} and s.game.current_seat == winner
True
>>> s.seats[1].label, s.seats[1].total, s.totals == result
('bot greedy', 0, True)
>>> text = s.to_json(key=b"server key")
>>> Session.from_json(text, key=b"server key").to_json(key=b"server key") == text
True
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import itertools
import json
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, overload

from ._args import count_arg
from ._core import Rng
from .errors import IllegalMoveError, RulesError, SnapshotError, VncardsError
from .games import GameSpec, spec
from .hands import _MAX_UNITS, MAX_HANDS, MAX_NAME, Hand, Seat, hand_record, parse_hand_record
from .history import History, dumps, loads
from .inputs import parse_seat
from .snapshot import (
    check_key,
    expect,
    expect_dict,
    expect_int,
    expect_list,
    expect_str,
    json_copy,
    load_text,
    sign,
    verify,
)
from .table import Seed, TableGame, _digest, _rng_key, _rules_digest

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from . import maubinh, samloc, tienlen, tusac
    from .bots import Bot

    #: The engine game a session deals (a bare ``Session`` is a ``Session[TableGame]``).
    G = TypeVar("G", bound=TableGame, covariant=True, default=TableGame)
else:
    from typing import TypeVar

    G = TypeVar("G", bound=TableGame, covariant=True)

__all__ = ["Seat", "Hand", "Session", "hand_key", "MAX_HANDS", "MAX_NAME"]

#: Most actions one play_bots call makes.
_MAX_ACTIONS = 10**9
_FORMAT = "vncards-session"
_VERSION = 1
_GENESIS = "00" * 32
_KEYS = (
    "format",
    "version",
    "game",
    "players",
    "rules",
    "rules_sha256",
    "key",
    "first_setup",
    "hand_number",
    "totals",
    "seats",
    "hand_seats",
    "previous",
    "chain",
    "keep_hands",
    "hand",
)


def hand_key(session_key: bytes, number: int) -> bytes:
    """The 32-byte shuffle key of hand ``number`` of the session keyed ``session_key``:
    HMAC-SHA256 of the hand number under the session key (a hand's key, shown in its history,
    tells nothing of the other hands).

    >>> hand_key(bytes(32), 1).hex()[:16]
    '888e606fe972f99d'
    """
    return hmac.new(
        session_key, b"vncards/session/hand/" + number.to_bytes(8, "big"), hashlib.sha256
    ).digest()


def _chain(previous: str, hand_digest: str) -> str:
    return hashlib.sha256(bytes.fromhex(previous) + bytes.fromhex(hand_digest)).hexdigest()


class Session(Generic[G]):
    """A match of many hands of game ``game`` (a name of :data:`vncards.games.GAMES`).

    ``players``: the number of seats (all open), or one entry per seat: a player id, a
    :class:`Seat` or None (open). ``rules``: as :func:`vncards.games.new_game` takes them.
    ``seed``: None (the OS CSPRNG) or a seed as the games take it; it keys every hand.
    ``setup``: the first hand's setup keywords (e.g. ``{"dealer": 2}`` in Tứ Sắc).
    ``keep_hands``: how many finished hands :attr:`hands` keeps in memory (None: all; a
    server that stores each hand :meth:`next_hand` returns may keep none; at most 2**32,
    the most hands a session plays). The seat count is checked before any seat is made.

    A literal game name types the session by the game it deals, as
    :func:`~vncards.games.new_game` does: ``Session("tusac").game`` is a ``tusac.Game`` to a
    type checker, and a name known only at run time gives a ``Session[TableGame]``.
    """

    _spec: GameSpec
    _cls: type[TableGame]
    _players: int
    _rules: Any
    _key: bytes
    _first_setup: dict[str, Any]
    _keep: int | None
    _number: int
    _base: list[int]
    _seats: list[Seat]
    _hand_seats: list[Seat]
    _game: G

    @overload
    def __init__(
        self: Session[tienlen.Game],
        game: Literal["tienlen", "tienlen-north"],
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Session[samloc.Game],
        game: Literal["samloc"],
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Session[maubinh.Game],
        game: Literal["maubinh"],
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Session[tusac.Game],
        game: Literal["tusac"],
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Session[TableGame],
        game: str,
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None: ...
    def __init__(
        self,
        game: str,
        players: int | Sequence[str | Seat | None] = 4,
        rules: Any = None,
        seed: Seed = None,
        *,
        setup: Mapping[str, Any] | None = None,
        keep_hands: int | None = None,
    ) -> None:
        self._spec: GameSpec = spec(game)
        cls = self._spec.game_class()
        if isinstance(players, bool) or not isinstance(players, (int, Sequence)) or isinstance(players, str):
            raise RulesError(f"players must be a seat count or one entry per seat, not {players!r}")
        count = players if isinstance(players, int) else len(players)
        if not cls.MIN_PLAYERS <= count <= cls.MAX_PLAYERS:  # before any seat is made
            raise RulesError(
                f"{self._spec.name} takes {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {count}"
            )
        if setup is not None and not isinstance(setup, Mapping):
            raise RulesError(f"setup must be a mapping of keywords, not {type(setup).__name__}")
        occupants = [None] * players if isinstance(players, int) else list(players)
        seats = [_as_seat(o, i) for i, o in enumerate(occupants)]
        self._init(
            cls,
            len(seats),
            self._spec.rules_from(rules),
            Rng(seed).key,
            dict(setup or {}),
            _checked_keep(keep_hands),
        )
        _check_unique(seats)
        self._seats = seats
        self._hand_seats = [s.occupant for s in seats]
        for s in seats:
            if s.bot is not None:
                self._check_bot(s.bot)
        self._game = self._deal(self._first_setup)
        self._first_setup = self._game.setup  # as the game writes it (e.g. Tứ Sắc's dealer 0)

    def _init(
        self,
        cls: type[TableGame],
        players: int,
        rules: Any,
        key: bytes,
        first_setup: dict[str, Any],
        keep_hands: int | None,
    ) -> None:
        unknown = sorted(set(first_setup) - set(cls.SETUP), key=repr)
        if unknown:
            raise RulesError(f"setup: unknown keywords {unknown} (this game takes {list(cls.SETUP)})")
        if "hand_number" in first_setup:
            raise RulesError("setup: the session numbers its hands itself (no hand_number)")
        self._lock = threading.RLock()
        self._cls = cls
        self._players = players
        self._rules = rules
        self._key = key
        self._first_setup = first_setup
        self._keep = keep_hands
        self._number = 1
        self._base = [0] * players
        self._previous: dict[str, Any] | None = None
        self._chain = _GENESIS
        self._hands: list[Hand] = []
        self._dropped = 0
        self._verified = 0
        self._bots: dict[tuple[int, int, str], Bot] = {}

    def _deal(self, setup: Mapping[str, Any]) -> G:
        return self._cls(  # type: ignore[return-value]  # the class the session's name chose
            players=self._players,
            rules=self._rules,
            seed=hand_key(self._key, self._number),
            **self._hand_setup(self._number, setup),
        )

    def _hand_setup(self, number: int, carried: Mapping[str, Any]) -> dict[str, Any]:
        """The setup hand ``number`` is dealt with: what the hand before ``carried`` over, and
        the hand's number where the game records one (the shedding games' ``deal`` event)."""
        setup = dict(carried)
        if number != 1 and "hand_number" in self._cls.SETUP:
            setup["hand_number"] = number
        return setup

    # -- what a server reads --------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The game's registry name (``"tienlen"``, ``"tienlen-north"``, ``"samloc"``…)."""
        return self._spec.name

    @property
    def title(self) -> str:
        """The game's title, e.g. ``"Tiến Lên Miền Nam"``."""
        return self._spec.title

    @property
    def game(self) -> G:
        """The hand in play: the engine game the table plays (``apply``, ``view``…), typed as
        that game's class where the session was made with a literal name."""
        with self._lock:
            return self._game

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def rules(self) -> Any:
        """The rules every hand is played under (frozen)."""
        return self._rules

    @property
    def hand_number(self) -> int:
        """The number of the hand in play: 1, then one more for each :meth:`next_hand`."""
        with self._lock:
            return self._number

    @property
    def totals(self) -> list[int]:
        """Units won per seat since the session began, the hand in play included once it is
        over; they sum to zero."""
        with self._lock:
            result = self._game.settlement
            if result is None:
                return list(self._base)
            return [b + r for b, r in zip(self._base, result, strict=True)]

    @property
    def hand_result(self) -> list[int] | None:
        """Units won per seat in the hand in play, once it is over (else None)."""
        with self._lock:
            result: list[int] | None = self._game.settlement
            return result

    @property
    def seats(self) -> list[Seat]:
        """Who holds each seat now, with what that occupant has won at it (the hand in play
        included once it is over, if the occupant is credited with it)."""
        with self._lock:
            result = self._game.settlement
            out = []
            for i, s in enumerate(self._seats):
                if result is not None and s.since <= self._number:
                    s = Seat(s.player, s.bot, s.total + result[i], s.since)
                out.append(s)
            return out

    @property
    def hand_seats(self) -> list[Seat]:
        """The occupants credited with the hand in play (its history records them): those
        seated when it ended, or now if it is still being played."""
        with self._lock:
            return list(self._hand_seats)

    @property
    def hands(self) -> list[Hand]:
        """The finished hands kept in memory (the last ``keep_hands``), oldest first."""
        with self._lock:
            return list(self._hands)

    def history_hands(self) -> list[Hand]:
        """What :func:`vncards.history.dumps` writes of the session: the kept finished hands,
        then the hand in play."""
        return [*self.hands, Hand(self.game, self.name, self.hand_number, tuple(self.hand_seats))]

    @property
    def verified_hands(self) -> int:
        """How many finished hands :meth:`from_json` replay-checked when it restored this
        session (its ``hands=`` or those the snapshot holds): all of them, from the first, or
        it would have raised. It counts them even when ``keep_hands`` keeps fewer (or none)
        in :attr:`hands`. 0 for a new session, or one restored without its hands.

        >>> s = Session("maubinh", players=2, seed=1, keep_hands=0)
        >>> for seat in (0, 1):
        ...     s.game.auto_play(seat)
        >>> finished = s.next_hand()
        >>> again = Session.from_json(s.to_json(), hands=[finished])
        >>> again.verified_hands, again.hands, Session.from_json(s.to_json()).verified_hands
        (1, [], 0)
        """
        with self._lock:
            return self._verified

    @property
    def seat_of(self) -> dict[str, int]:
        """The seat of each player at the table, by player id."""
        with self._lock:
            return {s.player: i for i, s in enumerate(self._seats) if s.player is not None}

    def view(self, seat: int) -> dict[str, Any]:
        """The game's ``view(seat)`` with a ``session`` entry: the hand number, the totals and
        each seat's public facts (its occupant and what it has won)."""
        with self._lock:
            return {**self._game.view(seat), "session": self._public()}

    def public_view(self) -> dict[str, Any]:
        """The game's ``public_view()`` (spectators) with the same ``session`` entry."""
        with self._lock:
            return {**self._game.public_view(), "session": self._public()}

    def _public(self) -> dict[str, Any]:
        return {
            "game": self.name,
            "hand_number": self._number,
            "totals": self.totals,
            "seats": [
                {"seat": i, "kind": s.kind, "player": s.player, "bot": s.bot, "total": s.total}
                for i, s in enumerate(self.seats)
            ],
        }

    # -- seats -----------------------------------------------------------------------------------

    def sit(self, seat: int, player: str | None = None, *, bot: str | None = None) -> Seat:
        """Put ``player`` (or the ``bot`` of that name, or nobody) in ``seat``; returns the
        occupant that leaves, with its ``total``. A player sits at one seat at a time
        (``IllegalMoveError`` reason ``"already_seated"``).

        Between hands any seat changes. During a hand, a bot's or an open seat may be taken:
        the newcomer takes over that hand, and its result. A player's seat may only be handed
        to a bot (:meth:`leave` with ``bot=``): the bot plays the hand out for the player, who
        is still credited with it (its history and the seat's result name the player); any
        other change of a player's seat, or of a seat a bot plays out for a player who left,
        waits for the hand's end (``"hand_in_play"``), though another bot may take over."""
        with self._lock:
            s = parse_seat(seat, self._players)
            new = Seat(player, bot)
            if bot is not None:
                self._check_bot(bot)
            over = self._game.is_over
            # The player credited with the hand in play, if the seat is still theirs.
            credited = self._hand_seats[s].player
            if not over and credited is not None and (player is not None or bot is None):
                raise IllegalMoveError(
                    "hand_in_play",
                    f"seat {s} plays the hand in play for {credited!r} (a player's): during a "
                    "hand it may only be handed to a bot (leave(seat, bot=...)); other changes wait "
                    "for the hand's end",
                )
            if player is not None and any(o.player == player for i, o in enumerate(self._seats) if i != s):
                raise IllegalMoveError("already_seated", f"player {player!r} already holds another seat")
            leaving = self.seats[s]
            if over or credited is not None:
                # Between hands, or a bot playing a player's hand out: the newcomer is credited
                # from the next hand on.
                self._seats[s] = Seat(player, bot, 0, self._number + 1)
            else:
                self._seats[s] = Seat(player, bot, 0, self._number)
                self._hand_seats[s] = new
            return leaving

    def leave(self, seat: int, *, bot: str | None = None) -> Seat:
        """The occupant of ``seat`` leaves; the seat is open, or the ``bot`` takes it.
        Returns the occupant that left, with its ``total`` (see :meth:`sit`).

        During a hand a player leaves only to a bot (``bot=`` the bot's name, e.g. the
        server's time-out bot): the bot plays the rest of the hand for them
        (:meth:`play_bots` plays it), the hand's result is still theirs (in
        :attr:`hand_seats`, the hand's history and its settlement; the ``total`` returned
        is theirs before this hand), and the bot holds the seat from the next hand on."""
        return self.sit(seat, None, bot=bot)

    def _check_bot(self, name: str) -> None:
        from .bots import bot_factory

        if name == "cheating":
            raise RulesError("the cheating bot sees every hand: it is for benchmarks, never a table seat")
        try:
            bot_factory(name, self.name, self._rules, players=self._players)
        except VncardsError:
            raise
        except (TypeError, ValueError) as e:
            raise RulesError(f"bot {name!r}: {e}") from None

    def bot(self, seat: int) -> Bot | None:
        """The bot playing ``seat`` in the hand in play (None for a player's or open seat),
        made once per hand, seeded from the session key, the hand number and the seat."""
        from .bots import make_bot

        with self._lock:
            s = parse_seat(seat, self._players)
            name = self._seats[s].bot
            if name is None:
                return None
            key = (self._number, s, name)
            made = self._bots.get(key)
            if made is None:
                self._bots = {k: v for k, v in self._bots.items() if k[0] == self._number}
                seed = hmac.new(self._key, f"vncards/session/bot/{self._number}/{s}".encode(), hashlib.sha256)
                made = self._bots[key] = make_bot(
                    name, self.name, seed=seed.digest(), rules=self._rules, players=self._players
                )
            return made

    def play_bots(self, max_actions: int = 100_000) -> int:
        """Let the bots act for their seats in the hand in play until no seat that may act
        is a bot's (a player or an open seat must act, or the hand is over), at most
        ``max_actions`` times (an int from 1; caps past 1,000,000,000 count as that).
        Returns the number of actions made."""
        from .bots import decide

        max_actions = count_arg("max_actions", max_actions, minimum=1, maximum=_MAX_ACTIONS, clamp=True)
        done = 0
        with self._lock:
            game = self._game
            while not game.is_over and done < max_actions:
                seat = next((s for s in game.pending_seats if self._seats[s].bot is not None), None)
                if seat is None:
                    break
                bot = self.bot(seat)
                assert bot is not None
                game.apply(decide(bot, game, seat))
                done += 1
        return done

    # -- the hand sequence -----------------------------------------------------------------------

    def next_hand(self) -> Hand:
        """Start the next hand once the one in play is over, with what the rules carry over
        (see the module docs); returns the finished :class:`Hand`. ``IllegalMoveError``
        (``"hand_not_over"``) while the hand is being played."""
        with self._lock:
            game = self._game
            if not game.is_over:
                raise IllegalMoveError("hand_not_over", "the hand in play is not over")
            if self._number >= MAX_HANDS:
                raise RulesError(f"a session plays at most {MAX_HANDS} hands")
            result = game.settlement
            assert result is not None
            setup = game.next_hand_setup
            assert setup is not None
            finished = Hand(game, self.name, self._number, tuple(self._hand_seats))
            self._chain = _chain(self._chain, finished.digest())
            self._base = [b + r for b, r in zip(self._base, result, strict=True)]
            self._seats = self.seats
            self._previous = {"hand_number": self._number, "settlement": list(result), "next_setup": setup}
            self._hands.append(finished)
            if self._keep is not None and len(self._hands) > self._keep:
                cut = len(self._hands) - self._keep
                self._dropped += cut
                del self._hands[:cut]
            self._number += 1
            self._hand_seats = [s.occupant for s in self._seats]
            self._bots = {}
            self._game = self._deal(setup)
            return finished

    def pop_hands(self) -> list[Hand]:
        """The finished hands kept in memory, which the session then forgets (a server that
        stores them elsewhere keeps the session small)."""
        with self._lock:
            out, self._hands = self._hands, []
            self._dropped += len(out)
            return out

    # -- snapshots -------------------------------------------------------------------------------

    def to_dict(self, *, hands: bool = False) -> dict[str, Any]:
        """The session as JSON-safe data: the seats, the totals, the chain of finished hands'
        digests and the hand in play's full snapshot (it holds the session key: server side
        only). ``hands=True`` adds every finished hand (their histories' JSON form), for a
        record that replays the whole match; it needs every hand still kept."""
        with self._lock:
            data = {
                "format": _FORMAT,
                "version": _VERSION,
                "game": self.name,
                "players": self._players,
                "rules": self._rules.to_dict(),
                "rules_sha256": _rules_digest(self._rules),
                "key": self._key.hex(),
                "first_setup": json_copy(self._first_setup),
                "hand_number": self._number,
                "totals": list(self._base),
                "seats": [s.to_dict() for s in self._seats],
                "hand_seats": [s.to_dict() for s in self._hand_seats],
                "previous": json_copy(self._previous),
                "chain": self._chain,
                "keep_hands": self._keep,
                "hand": self._game.to_dict(),
            }
            if hands:
                if self._dropped:
                    raise RulesError(
                        f"{self._dropped} finished hands are no longer kept: store each hand next_hand returns"
                    )
                data["hands"] = [hand_record(h) for h in self._hands]
            return data

    def to_json(self, key: bytes | bytearray | None = None, *, hands: bool = False) -> str:
        """:meth:`to_dict` as JSON text; with ``key``, canonical text signed with HMAC-SHA256
        (an ``"hmac"`` field), for :meth:`from_json` with the same key."""
        key = check_key(key)
        data = self.to_dict(hands=hands)
        if key is not None:
            return sign(data, key)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        key: bytes | bytearray | None = None,
        *,
        hands: Iterable[Any] | None = None,
        require_signature: bool = False,
    ) -> Session[TableGame]:
        """Restore from :meth:`to_json` text, trusting nothing in it: the size is bounded; with
        ``key`` the HMAC must match; the hand in play is replayed from its actions (as
        :meth:`~vncards.table.TableGame.from_json` does), its deal must be the session's for
        that hand number and its setup what the hand before carried over; the totals must sum
        to zero. ``hands``: the finished hands (history text, :class:`Hand`\\ s or loaded
        :class:`~vncards.history.History`), or those the snapshot holds: each is replayed and
        they must be the session's own (their deals, their setups, the chain of digests, the
        totals and the seats' totals). Anything else raises ``SnapshotError`` naming it. The
        session keeps the last ``keep_hands`` of them in :attr:`hands` (none with
        ``keep_hands=0``); :attr:`verified_hands` says how many were checked.
        ``require_signature=True`` (a server that signs what it stores): a missing key is a
        :class:`~vncards.errors.SnapshotKeyError` before the text is read, as is a key that
        is not non-empty bytes, so an unsigned match is never accepted for want of a key."""
        key = check_key(key, require=require_signature)
        return cls.from_dict(load_text(text), key, hands=hands)

    @classmethod
    def from_dict(
        cls,
        data: Any,
        key: bytes | bytearray | None = None,
        *,
        hands: Iterable[Any] | None = None,
        require_signature: bool = False,
    ) -> Session[TableGame]:
        """Restore from :meth:`to_dict` data, checked as :meth:`from_json` checks text."""
        key = check_key(key, require=require_signature)
        if key is not None:
            data = verify(data, key)
        elif isinstance(data, dict) and "hmac" in data:
            data = {k: v for k, v in data.items() if k != "hmac"}
        d = expect_dict(data, "session")
        embedded = d.get("hands")
        expect_dict({k: v for k, v in d.items() if k != "hands"}, "session", _KEYS)
        expect(d["format"] == _FORMAT, "format: not a vncards session")
        expect_int(d["version"], "version", _VERSION, _VERSION)
        name = expect_str(d["game"], "game")
        try:
            game_spec = spec(name)
            game_cls = game_spec.game_class()
        except RulesError as e:
            raise SnapshotError(f"game: {e}") from None
        players = expect_int(d["players"], "players", game_cls.MIN_PLAYERS, game_cls.MAX_PLAYERS)
        rules = game_cls._rules_from(d["rules"])
        expect(d["rules_sha256"] == _digest(d["rules"]), "rules_sha256: does not match the rules")
        session: Session[TableGame] = cls.__new__(cls)
        session._spec = game_spec
        first_setup = expect_dict(d["first_setup"], "first_setup")
        keep = d["keep_hands"]
        if keep is not None:
            expect_int(keep, "keep_hands", 0, MAX_HANDS)
        try:
            session._init(game_cls, players, rules, _rng_key(d["key"]), dict(first_setup), keep)
        except RulesError as e:
            raise SnapshotError(f"session: {e}") from None
        number = expect_int(d["hand_number"], "hand_number", 1, MAX_HANDS)
        totals = [
            expect_int(t, f"totals[{i}]", -_MAX_UNITS, _MAX_UNITS)
            for i, t in enumerate(expect_list(d["totals"], "totals", players))
        ]
        expect(sum(totals) == 0, "totals: do not sum to zero")
        seats = [
            Seat.from_dict(s, f"seats[{i}]") for i, s in enumerate(expect_list(d["seats"], "seats", players))
        ]
        hand_seats = [
            Seat.from_dict(s, f"hand_seats[{i}]").occupant
            for i, s in enumerate(expect_list(d["hand_seats"], "hand_seats", players))
        ]
        try:
            _check_unique(seats)
        except IllegalMoveError as e:
            raise SnapshotError(f"seats: {e}") from None
        chain = expect_str(d["chain"], "chain")
        expect(
            len(chain) == 64 and all(c in "0123456789abcdef" for c in chain), "chain must be 64 hex digits"
        )
        previous = d["previous"]
        if number == 1:
            expect(
                previous is None and chain == _GENESIS, "previous/chain: the first hand has no hand before it"
            )
            expected_setup: dict[str, Any] = dict(first_setup)
        else:
            p = expect_dict(previous, "previous", ("hand_number", "settlement", "next_setup"))
            expect(p["hand_number"] == number - 1, "previous.hand_number: not the hand before this one")
            settled = [
                expect_int(u, "previous.settlement[]", -_MAX_UNITS, _MAX_UNITS)
                for u in expect_list(p["settlement"], "previous.settlement", players)
            ]
            expect(sum(settled) == 0, "previous.settlement: does not sum to zero")
            expected_setup = expect_dict(p["next_setup"], "previous.next_setup")
            previous = {"hand_number": number - 1, "settlement": settled, "next_setup": dict(expected_setup)}
        session._number = number
        session._base = totals
        session._seats = seats
        session._hand_seats = hand_seats
        session._previous = json_copy(previous)
        session._chain = chain
        game = _restore_hand(game_cls, d["hand"])
        expect(game.players == players, "hand.players: not the session's")
        expect(game.rules == rules, "hand.rules: not the session's")
        expect(
            game.rng_key == hand_key(session._key, number), "hand.rng: not the session's deal for this hand"
        )
        expect(
            game.setup == session._hand_setup(number, expected_setup),
            "hand.setup: not what the hand before carried over",
        )
        for i, s in enumerate(seats):
            # (since = number + 1 during a hand: a bot playing the hand out for a player who left.)
            expect(s.since <= number + 1, f"seats[{i}].since: after the hand in play")
            if not game.is_over and s.since == number + 1:
                expect(
                    hand_seats[i].player is not None and s.player is None and s.bot is not None,
                    f"seats[{i}].since: only a bot plays a player's hand out",
                )
            if s.since <= number:
                expect(hand_seats[i] == s.occupant, f"hand_seats[{i}]: not the seat's occupant")
        session._game = game
        given = hands if hands is not None else embedded
        if given is not None:
            session._verify_hands(given)
        else:
            session._dropped = number - 1
        return session

    def _verify_hands(self, given: Any) -> None:
        """Replay-check the finished hands against the session (every hand from the first)."""
        if isinstance(given, (str, bytes)):
            given = loads(given)
        if isinstance(given, History):
            given = given.hands
        if not isinstance(given, Iterable):
            raise SnapshotError("hands: not a list of hands")
        hands: list[Hand] = []
        finished = self._number - 1
        for i, h in enumerate(itertools.islice(given, finished + 1)):
            if isinstance(h, Hand):
                hands.append(h)
            elif isinstance(h, Mapping):
                hands.append(parse_hand_record(h, f"hands[{i}]"))
            else:
                raise SnapshotError(f"hands[{i}]: not a hand")
        n = self._players
        expect(len(hands) <= finished, f"hands: more than {finished} given, {finished} finished")
        expect(len(hands) == finished, f"hands: {len(hands)} given, {finished} finished")
        setup = dict(self._first_setup)
        chain = _GENESIS
        totals = [0] * n
        for i, h in enumerate(hands):
            where = f"hands[{i}] (hand {i + 1})"
            g = h.game
            expect(h.number == i + 1, f"{where}: numbered {h.number}")
            expect(h.name == self.name and type(g) is self._cls, f"{where}: not a hand of {self.name}")
            expect(g.players == n and g.rules == self._rules, f"{where}: not the session's table")
            expect(g.rng_key == hand_key(self._key, i + 1), f"{where}: not the session's deal")
            expect(
                g.setup == self._hand_setup(i + 1, setup),
                f"{where}: setup is not what the hand before carried over",
            )
            expect(g.is_over, f"{where}: not finished")
            expect(h.seats is not None and len(h.seats) == n, f"{where}: no seats")
            chain = _chain(chain, h.digest())
            result = g.settlement
            next_setup = g.next_hand_setup
            assert result is not None and next_setup is not None
            totals = [t + r for t, r in zip(totals, result, strict=True)]
            setup = next_setup
        expect(
            self._game.setup == self._hand_setup(self._number, setup),
            "hand.setup: not what the last finished hand carried over",
        )
        expect(chain == self._chain, "chain: the hands are not the session's (digests differ)")
        expect(totals == self._base, "totals: not the sum of the hands' settlements")
        if hands:
            last = hands[-1].game
            want = {"hand_number": self._number - 1, "settlement": last.settlement, "next_setup": setup}
            expect(self._previous == want, "previous: not the last finished hand")
        for s, seat in enumerate(self._seats):
            credited = [h for h in hands if h.number is not None and h.number >= seat.since]
            for h in credited:
                assert h.seats is not None
                expect(
                    h.seats[s].occupant == seat.occupant,
                    f"seats[{s}]: hand {h.number} credits another occupant",
                )
            won = sum((h.settlement or [0] * n)[s] for h in credited)
            expect(won == seat.total, f"seats[{s}].total: not the sum of its occupant's hands")
        self._hands = hands
        self._verified = len(hands)
        if self._keep is not None and len(hands) > self._keep:
            self._dropped = len(hands) - self._keep
            self._hands = hands[len(hands) - self._keep :]

    # -- copies ----------------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> Session[G]:
        new = object.__new__(type(self))
        memo[id(self)] = new
        memo[id(self._rules)] = self._rules
        for name, value in self.__dict__.items():
            if name == "_lock":
                new.__dict__[name] = threading.RLock()
            elif name == "_bots":
                new.__dict__[name] = {}
            else:
                new.__dict__[name] = copy.deepcopy(value, memo)
        return new

    def __reduce__(self) -> tuple[Callable[..., Session[TableGame]], tuple[Any, ...]]:
        """Pickles through the snapshot and the kept hands' histories (verified again when
        unpickled)."""
        with self._lock:
            kept = [dumps(h, format="json") for h in self._hands]
            return (_unpickle, (self.to_json(), kept, self._dropped))

    def __repr__(self) -> str:
        return f"<Session {self.name} hand {self._number}, {self._players} seats, totals {self.totals}>"


def _unpickle(text: str, kept: list[str], dropped: int) -> Session[TableGame]:
    hands = [h for t in kept for h in loads(t).hands]
    if dropped:  # the first hands are gone: the kept ones are replayed, not chained
        session = Session.from_json(text)
        session._hands, session._dropped = hands, dropped
        return session
    return Session.from_json(text, hands=hands)


def _restore_hand(cls: type[TableGame], data: Any) -> TableGame:
    try:
        return cls._from_data(data, None)
    except SnapshotError as e:
        raise SnapshotError(f"hand: {e}") from None


def _as_seat(value: Any, index: int) -> Seat:
    if isinstance(value, Seat):
        return Seat(value.player, value.bot)
    if value is None or isinstance(value, str):
        return Seat(value)
    raise RulesError(f"seat {index}: a player id, a Seat or None, not {type(value).__name__}")


def _check_unique(seats: Sequence[Seat]) -> None:
    seen: set[str] = set()
    for s in seats:
        if s.player is not None:
            if s.player in seen:
                raise IllegalMoveError("already_seated", f"player {s.player!r} holds two seats")
            seen.add(s.player)


def _checked_keep(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_HANDS:
        raise RulesError(f"keep_hands must be None or an int in 0..{MAX_HANDS}, not {value!r}")
    return value
