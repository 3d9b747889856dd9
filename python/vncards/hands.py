"""The records of a match that a session and its hand histories share: who held a seat
(:class:`Seat`) and one hand of the match (:class:`Hand`: the game, its number, the seats
credited with its result). :mod:`vncards.session` plays them and :mod:`vncards.history` writes
and reads them; both import this module, which imports neither.

>>> Seat("An").label, Seat(bot="greedy").kind
('An', 'bot')
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .errors import RulesError, SnapshotError
from .snapshot import canonical_text, expect_dict, expect_int
from .table import TableGame

__all__ = ["MAX_HANDS", "MAX_NAME", "Hand", "Seat"]

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
