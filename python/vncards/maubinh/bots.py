"""Mậu Binh bots for :func:`vncards.bots.make_bot`, one per solver objective: ``solver`` plays
the solver's arrangement (objective ``"expected"``); ``equilibrium`` the arrangement no
opponent can exploit (objective ``"equilibrium"``, see :func:`~vncards.maubinh.exploitability`);
``greedy`` the strongest valid arrangement (strongest back, then middle, then front), the way a
careful beginner sets the hands.

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

__all__ = ["BOTS", "EquilibriumBot", "GreedyBot", "ObjectiveBot", "SolverBot"]


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


class ObjectiveBot(SolverBot):
    """Arranges the seat's own hand with the solver under ``objective`` (a class attribute, or
    the constructor's argument), then confirms."""

    name = "objective"
    objective: Objective = "expected"

    def __init__(
        self, seed: Seed = None, rules: Rules | None = None, objective: Objective | None = None
    ) -> None:
        super().__init__(seed)
        self._rules = rules
        if objective is not None:
            self.objective = objective

    def choose(self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Arranges with the bot's objective, then confirms."""
        by_type = {a["type"]: a for a in legal_actions}
        if "confirm" in by_type:
            return by_type["confirm"]
        if "arrange" not in by_type:
            raise RulesError(f"the {self.name} bot needs an 'arrange' or 'confirm' action")
        best = best_arrangement(view["hand"], self._rules, objective=self.objective)
        return {
            **by_type["arrange"],
            "back": " ".join(map(str, best.back)),
            "middle": " ".join(map(str, best.middle)),
            "front": " ".join(map(str, best.front)),
        }


class GreedyBot(ObjectiveBot):
    """Arranges with the ``"strongest"`` objective from the seat's own hand, then confirms."""

    name = "greedy"
    objective: Objective = "strongest"


class EquilibriumBot(ObjectiveBot):
    """Arranges with the ``"equilibrium"`` objective from the seat's own hand, then confirms."""

    name = "equilibrium"
    objective: Objective = "equilibrium"


BOTS = {"solver": SolverBot, "greedy": GreedyBot, "equilibrium": EquilibriumBot}
