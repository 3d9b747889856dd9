"""The greedy Tứ Sắc bot: win whenever it can, claim when the claim leaves no more rác (cards
in no meld) than passing, and discard the card whose loss leaves the fewest rác (a rác itself
when there is one), preferring cards of which many copies are already in sight.

At a game (:meth:`TuSacGreedyBot.act`) the choice is made in Rust by the rollouts' greedy
(``src/rollout/tusac.rs``), the one the search's rollouts and self-play's greedy seats play;
given only a view (:meth:`TuSacGreedyBot.choose`) it is made here, in Python, by the same
criteria. The two are checked against each other on every decision of many games and rule sets.

>>> from vncards.games import new_game
>>> from vncards.simulate import play_game
>>> game = new_game("tusac", seed=2)
>>> sum(play_game(game, [TuSacGreedyBot(seed=s) for s in range(4)]).settlement)
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .._core import TuSacCard, tusac_min_rac
from ..errors import RulesError
from ..table import Seed
from ..tusac.game import Game as TuSacGame
from .base import Turn

__all__ = ["TuSacGreedyBot"]

Action = dict[str, Any]
_GENERALS = 4  # kind indexes 0..3 are the four Tướng, discarded only as the tỳ


def _without(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def _best_discard(hand: Sequence[str], seen: Counter[str]) -> tuple[int, int]:
    """(fewest rác after one discard, minus copies in sight of that card) over the discards."""
    best = (len(hand) + 1, 0)
    for card in set(hand):
        if TuSacCard(card).index < _GENERALS:
            continue
        best = min(best, (tusac_min_rac(_without(hand, [card])), -seen[card]))
    return best


class TuSacGreedyBot:
    """Greedy Tứ Sắc: see the module notes. ``rules`` is accepted for a uniform signature."""

    name = "greedy"

    def __init__(self, seed: Seed = None, rules: Any = None) -> None:
        self._rules = rules

    @staticmethod
    def _seen(view: dict[str, Any]) -> Counter[str]:
        seen: Counter[str] = Counter(view["hand"])
        seen.update(view["dead"])
        for melds in view["exposed"]:
            for meld in melds:
                seen.update(meld["cards"])
        return seen

    def act(self, turn: Turn) -> Action:
        """:meth:`choose` for ``turn``; a forced move is taken without building the view. At a
        ``vncards.tusac.Game`` the choice is made in Rust, by the greedy the search's rollouts
        and self-play's greedy seats play (``TuSacFlow.greedy``, the same choice as
        :meth:`choose`: ``tests/test_bots.py`` checks the two agree), without the view."""
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        if isinstance(turn.game, TuSacGame):
            i = turn.game._greedy_index(turn.seat)
            if i is not None:
                return legal[i]
        return self.choose(turn.view, legal)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """A win whenever one is offered; otherwise the action that leaves the hand the fewest rác."""
        if not legal_actions:
            raise RulesError("a bot was asked to act with no legal action")
        by_type: dict[str, list[Action]] = {}
        for a in legal_actions:
            by_type.setdefault(a["type"], []).append(a)
        if "win" in by_type:
            return by_type["win"][0]
        claims = by_type.get("claim", [])
        if not claims and "discard" not in by_type:
            return legal_actions[0]
        hand: list[str] = list(view["hand"])
        seen = self._seen(view)
        if "discard" in by_type:
            # A Tướng (offered only as the tỳ) is a meld of its own: kept unless nothing else
            # leaves as few rác.
            return min(
                by_type["discard"],
                key=lambda a: (
                    tusac_min_rac(_without(hand, [a["card"]])),
                    TuSacCard(a["card"]).index < _GENERALS,
                    -seen[a["card"]],
                ),
            )
        scored = [(_best_discard(_without(hand, a["cards"]), seen), a) for a in claims]
        (rac, _), claim = min(scored, key=lambda t: t[0])
        if "pass" in by_type and rac > tusac_min_rac(hand):
            return by_type["pass"][0]
        return claim
