"""vncards: rules engines for Vietnamese card games with a Rust core.

Games: :mod:`vncards.tienlen` (Tiến Lên Miền Nam / Miền Bắc), :mod:`vncards.samloc` (Sâm Lốc),
:mod:`vncards.maubinh` (Mậu Binh), :mod:`vncards.tusac` (Tứ Sắc). A game server asks an engine
what is legal, applies moves, and settles money in integer units that sum to zero.

>>> import vncards
>>> vncards.parse_card("♠3").index
0
"""

from __future__ import annotations

from ._core import Rng, __version__
from .cards import DECK, Card, CardsLike, parse_card, parse_cards
from .errors import (
    IllegalMoveError,
    InternalError,
    InvalidCardError,
    RulesError,
    SnapshotError,
    SnapshotKeyError,
    VncardsError,
)

__all__ = [
    "__version__",
    "Card",
    "CardsLike",
    "DECK",
    "Rng",
    "parse_card",
    "parse_cards",
    "VncardsError",
    "InvalidCardError",
    "IllegalMoveError",
    "RulesError",
    "SnapshotError",
    "SnapshotKeyError",
    "InternalError",
]
