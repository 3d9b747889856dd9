"""Mậu Binh (binh xập xám): arrange 13 cards into three poker hands and settle them.

The public API (rules: :doc:`/rules/maubinh`): :class:`Rules`, :class:`Arrangement`, the evaluator
(:func:`hand_rank`, :func:`hand_ranks`, :func:`compare_hands`, :func:`hand_category`), the
checks (:func:`is_fouled`, :func:`instant_win`), the exact solver (:func:`best_arrangement`,
:func:`best_arrangements`), what a best response wins against it (:func:`exploitability`),
settlement (:func:`settle`, :func:`settle_itemised`) and the table flow :class:`Game`.

>>> from vncards import maubinh
>>> maubinh.compare_hands("A♠ 2♥ 3♦ 4♣ 5♠", "K♠ Q♥ J♦ 10♣ 9♠")
1
"""

from .core import (
    CATEGORIES,
    INSTANT_WINS,
    MAX_ARRANGEMENTS,
    MAX_DEALS,
    OBJECTIVES,
    Arrangement,
    Objective,
    Rules,
    Settlement,
    arrangement_report,
    best_arrangement,
    best_arrangements,
    cards_text,
    compare_hands,
    expected_value,
    hand_category,
    hand_rank,
    hand_ranks,
    head_to_head,
    instant_win,
    is_fouled,
    position_tables,
    ranked_arrangements,
    settle,
    settle_itemised,
    sort_cards,
)
from .exploit import Exploitability, exploitability
from .game import Game

__all__ = [
    "CATEGORIES",
    "INSTANT_WINS",
    "MAX_ARRANGEMENTS",
    "MAX_DEALS",
    "OBJECTIVES",
    "Arrangement",
    "Exploitability",
    "Game",
    "Objective",
    "Rules",
    "Settlement",
    "arrangement_report",
    "best_arrangement",
    "best_arrangements",
    "cards_text",
    "compare_hands",
    "expected_value",
    "exploitability",
    "hand_category",
    "hand_rank",
    "hand_ranks",
    "head_to_head",
    "instant_win",
    "is_fouled",
    "position_tables",
    "ranked_arrangements",
    "settle",
    "settle_itemised",
    "sort_cards",
]
