"""The bots of each game by name, as each game module re-exports them (``BOTS``); ``random``
is common to all and lives in :mod:`vncards.bots`."""

from __future__ import annotations

from typing import Any

from .montecarlo import SamLocMonteCarloBot, TienLenMonteCarloBot
from .shedding import SamLocGreedyBot, TienLenGreedyBot
from .tusac import TuSacGreedyBot

__all__ = ["TIENLEN_BOTS", "SAMLOC_BOTS", "TUSAC_BOTS"]

TIENLEN_BOTS: dict[str, Any] = {"greedy": TienLenGreedyBot, "montecarlo": TienLenMonteCarloBot}
SAMLOC_BOTS: dict[str, Any] = {"greedy": SamLocGreedyBot, "montecarlo": SamLocMonteCarloBot}
TUSAC_BOTS: dict[str, Any] = {"greedy": TuSacGreedyBot}
