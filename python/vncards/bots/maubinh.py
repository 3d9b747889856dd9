"""Mậu Binh bots for :func:`vncards.bots.make_bot`: ``solver`` plays the arrangement an
opponent who knows it exploits least (objective ``"equilibrium"``, see
:func:`~vncards.maubinh.exploitability`: less exploitable than ``"expected"``, and it wins
against it head to head under both scorings); ``greedy`` plays the strongest valid arrangement (strongest back,
then middle, then front), the way a careful beginner sets the hands; ``search`` races the
solver's best few arrangements (and the strongest) against opponents dealt from the cards it
does not hold and arranged by the solver, settled with the table's rules (in Rust:
``maubinh_search``), a best response to a careful field with its own cards out of the deck;
``cheating`` does the same against the true hands (benchmarks only).

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

import time
from collections.abc import Sequence
from typing import Any

from .. import _core
from ..errors import RulesError
from ..maubinh.core import Arrangement, Objective, Rules, best_arrangement, instant_win, ranked_arrangements
from ..table import Seed
from .budget import CheatingSearch, SearchBudget

__all__ = [
    "MAUBINH_BOTS",
    "MAUBINH_LEVELS",
    "CheatingBot",
    "GreedyBot",
    "ObjectiveBot",
    "SearchBot",
    "SolverBot",
]


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
        return _arrange(
            by_type["arrange"], best_arrangement(view["hand"], self._rules, objective=self.objective)
        )


class SolverBot(ObjectiveBot):
    """Arranges with the ``"equilibrium"`` objective from the seat's own hand, then confirms."""

    name = "solver"
    objective: Objective = "equilibrium"


class GreedyBot(ObjectiveBot):
    """Arranges with the ``"strongest"`` objective from the seat's own hand, then confirms."""

    name = "greedy"
    objective: Objective = "strongest"


def _arrange(action: dict[str, Any], best: Arrangement) -> dict[str, Any]:
    back, middle, front = best.to_text()
    return {**action, "back": back, "middle": middle, "front": front}


class SearchBot(SolverBot):
    """Arranges by search (see the module notes): ``candidates`` arrangements raced over
    ``rollouts`` settlements (``rollouts // candidates`` sampled fields, fewer for the
    candidates dropped early) and/or ``think_ms``."""

    name = "search"

    def __init__(
        self,
        seed: Seed = None,
        rules: Rules | None = None,
        *,
        rollouts: int | None = 320,
        think_ms: float | None = None,
        candidates: int = 6,
    ) -> None:
        super().__init__(seed)
        self._search_rules = rules or Rules()
        self.budget = SearchBudget(seed, rollouts, think_ms)
        self.candidates = max(1, int(candidates))

    def _known(self, game: Any, seat: int) -> list[int] | None:
        return None

    def act(self, turn: Any) -> dict[str, Any]:
        """:meth:`choose` for ``turn``."""
        return self._decide(turn.view, turn.legal_actions, turn)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Arranges by search, then confirms."""
        return self._decide(view, legal_actions, None)

    def _decide(self, view: dict[str, Any], legal: Sequence[dict[str, Any]], turn: Any) -> dict[str, Any]:
        start = time.perf_counter()
        by_type = {a["type"]: a for a in legal}
        if "confirm" in by_type:
            return by_type["confirm"]
        if "arrange" not in by_type:
            raise RulesError("the search bot needs an 'arrange' or 'confirm' action")
        hand = view["hand"]
        r = self._search_rules
        if instant_win(hand, r) is not None:
            return by_type["arrange"]  # declared from the cards whatever the arrangement
        ranked = ranked_arrangements(hand, r, objective="expected", count=self.candidates)
        strongest = best_arrangement(hand, r, objective="strongest")
        cands = [a.masks for a in ranked]
        if strongest.masks not in cands:
            cands.append(strongest.masks)
        if len(cands) == 1:
            return _arrange(by_type["arrange"], Arrangement._from_masks(*cands[0]))
        mask = _core.cards_to_mask(hand)
        known = None if turn is None else self._known(turn.game, turn.seat)
        best, *_ = _core.maubinh_search(
            mask,
            len(view["confirmed"]),
            cands,
            r.core,
            known=known,
            **self.budget.search_args(start, "maubinh", mask, len(view["confirmed"])),
        )
        return _arrange(by_type["arrange"], Arrangement._from_masks(*cands[best]))


class CheatingBot(CheatingSearch, SearchBot):
    """The search against the other seats' true hands (benchmarks only)."""

    def act(self, turn: Any) -> dict[str, Any]:
        return self._decide(turn.view, turn.legal_actions, turn)

    def _known(self, game: Any, seat: int) -> list[int] | None:
        return [game._hands[s] for s in range(game.players) if s != seat]


MAUBINH_BOTS: dict[str, Any] = {
    "solver": SolverBot,
    "greedy": GreedyBot,
    "search": SearchBot,
    "cheating": CheatingBot,
}

#: The four levels (see :mod:`vncards.bots.catalog`): the objectives' ladder, then search.
MAUBINH_LEVELS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {}),
    "normal": ("solver", {}),
    "hard": ("search", {"rollouts": 160, "candidates": 4}),
    "expert": ("search", {"rollouts": 640, "candidates": 8}),
}
