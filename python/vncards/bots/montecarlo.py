"""Monte Carlo bots for the shedding games: determinised rollouts run in Rust.

For each decision the bot lists its candidate moves (every play, pruned to the most promising
when there are many, plus pass), deals the cards it has not seen at random to the other seats
by their card counts (only what the view shows: its hand, the cards played, the counts), plays
each deal out with the greedy policy for every seat, and picks the move with the best mean
score. ``budget`` is the number of rollouts per decision, shared among the candidates.

>>> from vncards.games import new_game
>>> from vncards.simulate import play_game
>>> game = new_game("samloc", players=3, seed=5)
>>> bots = [SamLocMonteCarloBot(seed=s, rules=game.rules, budget=60) for s in range(3)]
>>> sum(play_game(game, bots).settlement)
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core import rollout_evaluate, rollout_greedy_choice
from ..table import Seed
from .shedding import (
    _TWOS,
    Facts,
    SamLocGreedyBot,
    TienLenGreedyBot,
    _SheddingBot,
    pass_index,
    rollout_position,
)

__all__ = ["TienLenMonteCarloBot", "SamLocMonteCarloBot", "DEFAULT_BUDGET"]

Action = dict[str, Any]

#: Rollouts per decision by default.
DEFAULT_BUDGET = 400
#: At most this many plays are rolled out (besides pass and the greedy choice).
MAX_CANDIDATES = 12
#: Each candidate gets at least this many rollouts.
MIN_ROLLOUTS = 16


class _MonteCarloMixin(_SheddingBot):
    name = "montecarlo"
    #: Declare Sâm when success is more likely than failure (both pay the same units).
    SAM_THRESHOLD = 0.55
    SAM_SAMPLES = 400

    def __init__(self, seed: Seed = None, rules: Any = None, budget: int = DEFAULT_BUDGET) -> None:
        super().__init__(seed=seed, rules=rules)
        self.budget = max(1, int(budget))

    def _candidates(self, v: Facts, masks: list[int], greedy: int | None) -> list[int]:
        """Indexes of the plays worth rolling out: the greedy choice, every play that empties
        the hand, and the cheapest others (fewest 2s and bombs, lowest top card, longest)."""
        keep = {i for i, m in enumerate(masks) if m == v.hand}
        if greedy is not None:
            keep.add(greedy)
        order = sorted(
            range(len(masks)),
            key=lambda i: (masks[i] & _TWOS != 0, masks[i].bit_length(), -masks[i].bit_count()),
        )
        for i in order:
            if len(keep) >= MAX_CANDIDATES:
                break
            keep.add(i)
        return sorted(keep)

    def _play(self, v: Facts, legal: Sequence[Action]) -> Action:
        masks, at = self._plays(v, legal)
        passes = pass_index(legal)
        passing = None if passes is None else legal[passes]
        if not masks:
            return passing or legal[0]
        setup = self.setup(v.players)
        greedy = rollout_greedy_choice(setup, v.hand, masks, v.table, v.min_other(), passing is not None)
        idx = self._candidates(v, masks, greedy)
        cands: list[int | None] = [masks[i] for i in idx]
        actions = [legal[at[i]] for i in idx]
        if passing is not None:
            cands.append(None)
            actions.append(passing)
        if len(actions) == 1:
            return actions[0]
        per = max(MIN_ROLLOUTS, self.budget // len(cands))
        means = rollout_evaluate(
            setup, rollout_position(v), candidates=cands, rollouts=per, seed=self._seed()
        )
        best = max(range(len(means)), key=lambda i: means[i])
        return actions[best]


class TienLenMonteCarloBot(_MonteCarloMixin, TienLenGreedyBot):
    """Tiến Lên by determinised rollouts (``budget`` rollouts per decision)."""


class SamLocMonteCarloBot(_MonteCarloMixin, SamLocGreedyBot):
    """Sâm Lốc by determinised rollouts; declares Sâm when success is more likely than not."""
