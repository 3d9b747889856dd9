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

from collections.abc import Sequence
from typing import Any

from .._core import PlayList, SheddingRules
from .._core import SheddingCombo as Combo
from ..rules import rules_mismatch
from .game import SheddingGame
from .penalty import TWOS_MASK, PenaltyTable, hand_units, penalty_items

# legal_plays' result is a read-only sequence of combos.
Sequence.register(PlayList)

__all__ = [
    "TWOS_MASK",
    "Combo",
    "PenaltyTable",
    "SheddingGame",
    "SheddingRules",
    "core_of",
    "hand_units",
    "penalty_items",
]


def core_of(rules: Any, rules_type: type, default: Any) -> SheddingRules:
    """The combination core of a game's ``Rules`` (``default``'s for ``None``); any other type
    raises RulesError naming the expected one."""
    if rules is None:
        rules = default
    elif not isinstance(rules, rules_type):
        raise rules_mismatch(rules_type.__module__.split(".")[1], rules_type, rules)
    core: SheddingRules = rules.core
    return core
