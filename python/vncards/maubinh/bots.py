"""Mậu Binh bots for :func:`vncards.bots.make_bot`: ``solver`` plays the solver's arrangement
(objective ``"expected"``); ``greedy`` plays the strongest valid arrangement (strongest back,
then middle, then front), the way a careful beginner sets the hands.

>>> from vncards.maubinh import Game, best_arrangement
>>> game = Game(players=2, seed=3)
>>> bot = SolverBot()
>>> while not game.is_over:
...     seat = game.pending_seats[0]
...     game.apply(bot.choose(game.view(seat), game.legal_actions(seat)))
>>> game.arrangement(0) == best_arrangement(game.hand(0))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RulesError
from ..table import Seed
from .core import Objective, Rules, best_arrangement

__all__ = ["BOTS", "GreedyBot", "SolverBot"]


class SolverBot:
    """Arranges with the solver's suggestion (the ``"arrange"`` action ``legal_actions``
    offers, objective ``"expected"``), then confirms."""

    name = "solver"

    def __init__(self, seed: Seed = None) -> None:
        # Deterministic: the seed is accepted for the common bot interface only.
        del seed

    def choose(self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Arranges the seat's hand with the solver's objective, then confirms."""
        by_type = {a["type"]: a for a in legal_actions}
        if "confirm" in by_type:
            return by_type["confirm"]
        if "arrange" in by_type:
            return by_type["arrange"]
        raise RulesError("the solver bot needs an 'arrange' or 'confirm' action")


class GreedyBot(SolverBot):
    """Arranges with the ``"strongest"`` objective from the seat's own hand, then confirms."""

    name = "greedy"
    objective: Objective = "strongest"

    def __init__(self, seed: Seed = None, rules: Rules | None = None) -> None:
        super().__init__(seed)
        self._rules = rules

    def choose(self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Arranges with the ``"strongest"`` objective, then confirms."""
        by_type = {a["type"]: a for a in legal_actions}
        if "confirm" in by_type:
            return by_type["confirm"]
        if "arrange" not in by_type:
            raise RulesError("the greedy bot needs an 'arrange' or 'confirm' action")
        best = best_arrangement(view["hand"], self._rules, objective=self.objective)
        return {
            **by_type["arrange"],
            "back": " ".join(map(str, best.back)),
            "middle": " ".join(map(str, best.middle)),
            "front": " ".join(map(str, best.front)),
        }


BOTS = {"solver": SolverBot, "greedy": GreedyBot}
