"""What every search bot shares: what it may spend on one decision, the seed of each
decision, the decisions that need no search, and the cheating variant's refusal of a view.

A search bot is given ``rollouts`` (evaluations per decision: a candidate move played out on
one sampled deal), ``think_ms`` (a wall-clock budget per decision), or both: the search stops
at whichever ends first. With ``rollouts`` alone, a decision is a pure function of what the
seat knows and the bot's seed: the seed of each decision is hashed from the bot's seed and
the facts the decision reads, never drawn from a stream that earlier decisions advanced, so
the same position gets the same answer whatever was asked before.

>>> b = SearchBudget(seed=7, rollouts=100)
>>> b.seed(1, 2, 3) == SearchBudget(seed=7, rollouts=100).seed(1, 2, 3)
True
>>> b.seed(1, 2, 3) == b.seed(1, 2, 4)
False
>>> SearchBudget(seed=7, think_ms=20).remaining(time.perf_counter()) <= 20
True
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from typing import Any

from .._core import Rng
from ..errors import RulesError
from ..table import Seed

__all__ = ["SearchBudget", "SAFETY_MS", "CheatingSearch", "forced"]

#: Milliseconds kept back from ``think_ms`` for what follows the search (building the
#: action, returning it): the Rust search gets the rest as its deadline.
SAFETY_MS = 1.0


class SearchBudget:
    """A search bot's budget per decision (``rollouts``, ``think_ms``) and decision seeds."""

    __slots__ = ("rollouts", "think_ms", "_key")

    def __init__(self, seed: Seed = None, rollouts: int | None = None, think_ms: float | None = None) -> None:
        if rollouts is None and think_ms is None:
            raise RulesError("a search bot needs rollouts, think_ms or both")
        if rollouts is not None and (isinstance(rollouts, bool) or not 1 <= int(rollouts) <= 10_000_000):
            raise RulesError(f"rollouts must be within 1..10000000, not {rollouts!r}")
        if think_ms is not None and not 0 < float(think_ms) <= 60_000:
            raise RulesError(f"think_ms must be within (0, 60000], not {think_ms!r}")
        self.rollouts = None if rollouts is None else int(rollouts)
        self.think_ms = None if think_ms is None else float(think_ms)
        self._key = Rng(seed).key

    def seed(self, *facts: Any) -> int:
        """The seed of the decision that reads ``facts`` (ints, strings, tuples of them)."""
        digest = hashlib.blake2b(repr(facts).encode(), key=self._key, digest_size=8).digest()
        return int.from_bytes(digest, "little")

    def remaining(self, start: float) -> float | None:
        """Milliseconds the search may still take for a decision begun at ``start``
        (``time.perf_counter()``), or None without ``think_ms``."""
        if self.think_ms is None:
            return None
        spent = (time.perf_counter() - start) * 1000.0
        return max(0.0, self.think_ms - spent - SAFETY_MS)

    def search_args(self, start: float, *facts: Any) -> dict[str, Any]:
        """The ``seed`` (of the decision that reads ``facts``), ``rollouts`` and ``think_ms``
        keyword arguments of the Rust search of a decision begun at ``start``."""
        return {"seed": self.seed(*facts), "rollouts": self.rollouts, "think_ms": self.remaining(start)}


def forced(legal: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The action of a decision that needs no search: the only legal one (None when there are
    several; :class:`~vncards.errors.RulesError` when there is none).

    >>> forced([{"type": "pass", "seat": 0}])
    {'type': 'pass', 'seat': 0}
    """
    if not legal:
        raise RulesError("a bot was asked to act with no legal action")
    return legal[0] if len(legal) == 1 else None


class CheatingSearch:
    """The cheating variant of a search bot (a mixin listed before the bot it varies): it
    reads every seat's true hand from the game, so it plays only through ``act(turn)`` and
    refuses a view; the benchmarks' upper bound, which no table seats."""

    name = "cheating"

    def choose(self, view: dict[str, Any], legal_actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """Refused: the cheating bot reads the game, not a view."""
        raise RulesError("the cheating bot reads every hand from the game: it plays through act(turn) only")

    @staticmethod
    def _game(turn: Any) -> Any:
        """The game of ``turn``, which the cheating bot reads (None: refused)."""
        if turn is None:
            raise RulesError("the cheating bot needs the game (act(turn))")
        return turn.game
