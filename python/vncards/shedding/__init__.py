"""The shedding-game family shared by Tiến Lên and Sâm Lốc: the combination core
(``vncards._core.SheddingRules`` / ``SheddingCombo``), penalty tables, and the game flow base
class :class:`SheddingGame`.

>>> from vncards.shedding import Combo
>>> from vncards import tienlen
>>> c = tienlen.classify("5♠ 5♦")
>>> isinstance(c, Combo), c.kind, c.mask == (1 << 8 | 1 << 10)
(True, 'pair', True)
"""

from __future__ import annotations

from .._core import SheddingCombo as Combo
from .._core import SheddingRules
from .game import SheddingGame
from .penalty import TWOS_MASK, PenaltyTable, hand_units, penalty_items

__all__ = [
    "TWOS_MASK",
    "Combo",
    "PenaltyTable",
    "SheddingGame",
    "SheddingRules",
    "hand_units",
    "penalty_items",
]
