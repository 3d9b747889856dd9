"""The Tiến Lên game: the shared shedding flow with Tiến Lên's instant wins, first lead,
bomb-after-pass, and its two scoring tables (all in the flow's rules, ``Rules.flow``)."""

from __future__ import annotations

from typing import ClassVar

from ..journal import CARDS, INT, JSON, Codec
from ..rules import RulesBase
from ..shedding.game import SheddingGame
from .rules import Rules as TienLenRules

__all__ = ["Game"]


class Game(SheddingGame):
    """A hand (and the following hands) of Tiến Lên for 2–4 players.

    >>> g = Game(players=4, seed=7)
    >>> g.current_seat is not None and g.current_seat == g.pending_seats[0]
    True
    >>> while not g.is_over:
    ...     g.auto_play(g.current_seat)
    >>> sum(g.settlement)
    0
    """

    GAME: ClassVar[str] = "tienlen"
    Rules: ClassVar[type[RulesBase]] = TienLenRules
    MIN_PLAYERS: ClassVar[int] = 2
    MAX_PLAYERS: ClassVar[int] = 4
    EVENT_LOG: ClassVar[dict[str, dict[str, Codec]]] = {
        **SheddingGame.EVENT_LOG,
        "instant_win": {"seat": INT, "instant": JSON, "cards": CARDS},
    }

    _rules: TienLenRules
