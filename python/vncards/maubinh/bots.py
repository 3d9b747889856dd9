"""Mậu Binh bots for :func:`vncards.bots.make_bot`, one per solver objective: ``solver`` plays
the arrangement an opponent who knows it exploits least (objective ``"equilibrium"``, see
:func:`~vncards.maubinh.exploitability`: it is both less exploitable than ``"expected"`` and
wins against it head to head, under both scorings); ``expected`` the most expected units
against the shipped tables (objective ``"expected"``, the table's own suggestion); ``greedy``
the strongest valid arrangement (strongest back, then middle, then front), the way a careful
beginner sets the hands.

>>> from vncards.maubinh import Game, best_arrangement
>>> game = Game(players=2, seed=3)
>>> bot = SolverBot()
>>> while not game.is_over:
...     seat = game.pending_seats[0]
...     game.apply(bot.choose(game.view(seat), game.legal_actions(seat)))
>>> game.arrangement(0) == best_arrangement(game.hand(0), objective="equilibrium")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RulesError
from ..table import Seed
from .core import Objective, Rules, best_arrangement

__all__ = ["BOTS", "ExpectedBot", "GreedyBot", "ObjectiveBot", "SolverBot"]


class ObjectiveBot:
    """Arranges the seat's own hand with the solver under ``objective`` (a class attribute, or
    the constructor's argument) and the table's rules, then confirms."""

    name = "objective"
    objective: Objective = "equilibrium"

    def __init__(
        self, seed: Seed = None, rules: Rules | None = None, objective: Objective | None = None
    ) -> None:
        # Deterministic: the seed is accepted for the common bot interface only.
        del seed
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
            "back": [str(c) for c in best.back],
            "middle": [str(c) for c in best.middle],
            "front": [str(c) for c in best.front],
        }


class SolverBot(ObjectiveBot):
    """Arranges with the ``"equilibrium"`` objective from the seat's own hand, then confirms."""

    name = "solver"
    objective: Objective = "equilibrium"


class ExpectedBot(ObjectiveBot):
    """Arranges with the ``"expected"`` objective from the seat's own hand, then confirms."""

    name = "expected"
    objective: Objective = "expected"


class GreedyBot(ObjectiveBot):
    """Arranges with the ``"strongest"`` objective from the seat's own hand, then confirms."""

    name = "greedy"
    objective: Objective = "strongest"


BOTS = {"solver": SolverBot, "greedy": GreedyBot, "expected": ExpectedBot}
