"""Tứ Sắc (four colours): 112 cards, melds, claims with priority, odd-total wins.

the rules page :doc:`/rules/tusac`. Functions over card multisets: :func:`parse_cards`, :func:`melds`,
:func:`min_rac`, :func:`can_win`, :func:`win_score`, :func:`legal_claims`; the game flow is
:class:`Game`.

>>> from vncards import tusac
>>> tusac.can_win("KY KY KY PY PR PG", offer="PW")
True
"""

from .core import (
    MAX_SPLITS,
    MELD_LENH,
    TOI,
    Meld,
    Rules,
    TuSacCard,
    TuSacCardsLike,
    can_win,
    legal_claims,
    melds,
    min_rac,
    parse_card,
    parse_cards,
    win_score,
)
from .game import Game

__all__ = [
    "MAX_SPLITS",
    "MELD_LENH",
    "TOI",
    "Game",
    "Meld",
    "Rules",
    "TuSacCard",
    "TuSacCardsLike",
    "can_win",
    "legal_claims",
    "melds",
    "min_rac",
    "parse_card",
    "parse_cards",
    "win_score",
]
