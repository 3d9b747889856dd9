"""Sâm Lốc (rules: :doc:`/rules/samloc`): ten-card shedding game for 2–5 players, compared by rank only, with
báo Sâm, báo 1 and instant wins (tới trắng).

>>> from vncards import samloc
>>> samloc.classify("♠4♦4").kind
'pair'
"""

from __future__ import annotations

from .combos import (
    INSTANT_WINS,
    Combo,
    beats,
    classify,
    core_rules,
    instant_win,
    instant_winner,
    legal_plays,
)
from .game import CONG_UNITS, SAM_UNITS, TWO_UNITS, Game
from .rules import PENALTIES, Rules

__all__ = [
    "CONG_UNITS",
    "INSTANT_WINS",
    "PENALTIES",
    "SAM_UNITS",
    "TWO_UNITS",
    "Combo",
    "Game",
    "Rules",
    "beats",
    "classify",
    "core_rules",
    "instant_win",
    "instant_winner",
    "legal_plays",
]
