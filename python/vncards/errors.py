"""The vncards exception hierarchy.

Every error the library raises on bad input is a :class:`VncardsError`, and each concrete
subclass is also a :class:`ValueError`, so ``except ValueError`` keeps working for callers that
do not know this library.

>>> from vncards import parse_card, InvalidCardError
>>> try:
...     parse_card("1♥")
... except InvalidCardError as e:
...     (e.token, e.position)
('1♥', 0)
"""

from __future__ import annotations

__all__ = [
    "VncardsError",
    "InvalidCardError",
    "IllegalMoveError",
    "RulesError",
    "SnapshotError",
    "SnapshotKeyError",
    "InternalError",
    "WorkerError",
]


class VncardsError(Exception):
    """Base class of every vncards error."""


class InvalidCardError(VncardsError, ValueError):
    """Text or a value that is not a card, or a duplicate where a set of cards is required.

    ``token`` is the offending text and ``position`` its character offset in the input (or its
    item number when the input was a sequence). ``reason`` is ``"invalid_card"``, so a server
    can switch on ``reason`` for this error as for :class:`IllegalMoveError`.
    """

    reason = "invalid_card"

    def __init__(self, message: str, *, token: str | None = None, position: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position


class IllegalMoveError(VncardsError, ValueError):
    """An action the rules forbid now. The game state is exactly as before the call.

    ``reason`` is a short snake_case code a server can switch on, e.g. ``"not_your_turn"``,
    ``"cards_not_in_hand"``, ``"invalid_combination"``, ``"does_not_beat"``,
    ``"must_include_lowest"``, ``"cannot_pass_on_lead"``, ``"game_over"``.
    """

    def __init__(self, reason: str, message: str | None = None):
        super().__init__(message or reason.replace("_", " "))
        self.reason = reason

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str]]:
        return (type(self), (self.reason, str(self)))


class RulesError(VncardsError, ValueError):
    """An unknown rules option, a bad value, or an inconsistent combination of options."""


class SnapshotError(VncardsError, ValueError):
    """A snapshot that is malformed or does not describe a valid game state."""


class SnapshotKeyError(SnapshotError, TypeError):
    """A snapshot signing key that cannot be used: not ``bytes`` (or ``bytearray``), or empty
    (a text key must be encoded first: ``key=secret.encode()``), or no key at all where a
    signature is required (``from_json(text, require_signature=True)``). Raised by ``to_json``
    and ``from_json`` before anything is read or written; it is also a ``TypeError``.

    >>> from vncards import tienlen, SnapshotKeyError
    >>> tienlen.Game(seed=1).to_json(key="secret")
    Traceback (most recent call last):
    ...
    vncards.errors.SnapshotKeyError: a snapshot key must be non-empty bytes, not str
    """


class InternalError(VncardsError, RuntimeError):
    """A bug in vncards itself, caught at the boundary of the Rust core (a panic there): the
    message starts with ``"internal error"``. Unlike the other errors it is not caused by the
    input; please report it. The process and every other game are unaffected.
    """


class WorkerError(VncardsError, RuntimeError):
    """A batch of work (simulated games, table deals) that failed where it ran: in a worker
    process, on a Ray or Dask cluster, or in this process. The message names the batch and the
    worker's error, which is also the ``__cause__``. The rest of the run is cancelled."""
