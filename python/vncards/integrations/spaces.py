"""The action space of each game: a published bound on the number of legal actions, the
legal-action list an action index points into, and the step that carries an index out.

Shared by the PettingZoo and OpenSpiel integrations (no framework import here).

**Bounds** (``ACTION_BOUND``; an action is an index into ``legal_actions(seat)``):

- Tiến Lên (both variants), 13 cards a hand: every play is a distinct non-empty subset of the
  hand and there is at most one pass, so at most ``2**13 - 1 + 1 = 8192`` actions. (Leads
  alone reach several hundred: 416 or more from one hand.)
- Sâm Lốc, 10 cards a hand: ``2**10 - 1`` plays and a pass, or the two Sâm answers
  (declare / decline): at most ``1024``.
- Mậu Binh: the solver's ranked arrangements of the seat's 13 cards (best first, distinct
  strengths, :func:`vncards.maubinh.ranked_arrangements`), at most ``MAUBINH_ARRANGEMENTS``
  = 16. The full space (72,072 splits) is mostly fouled or dominated; an agent chooses
  among the solver's candidates, each scored by its 3-row card features. Choosing one
  arranges and confirms it.
- Tứ Sắc: a discard names one of the 28 kinds, plus "win" (29); a claim answer is win, pass,
  or one claim per (meld, cards used) of the offered card: the cards used are a multiset of
  at most three cards of the kinds that meld with the offered one (at most 8 kinds: the
  other pieces of its colour and the other colours' soldiers), fewer than ``8 + 36 + 120``
  multisets of size 1-3, each under one meld name; so ``TUSAC_BOUND = 256``.

The tests check every bound over many random states (100k in the slow profile).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import games
from ..table import TableGame

__all__ = ["ACTION_BOUND", "MAUBINH_ARRANGEMENTS", "VARIANTS", "legal_list", "apply_index"]

MAUBINH_ARRANGEMENTS = 16

#: A bound on ``len(legal_list(game, seat))`` per variant (see the module docstring).
ACTION_BOUND: dict[str, int] = {
    "tienlen": 8192,
    "tienlen-north": 8192,
    "samloc": 1024,
    "maubinh": MAUBINH_ARRANGEMENTS,
    "tusac": 256,
}

VARIANTS = tuple(games.GAMES)


def legal_list(name: str, game: TableGame, seat: int) -> list[dict[str, Any]]:
    """The actions an index chooses among for ``seat`` now (``legal_actions(seat)``, except
    Mậu Binh's: its ranked arrangements)."""
    if name != "maubinh":
        return game.legal_actions(seat)
    if seat not in game.pending_seats:  # (legal_actions would run the solver once more)
        return []
    from ..maubinh import ranked_arrangements

    ranked = ranked_arrangements(game.hand(seat), game.rules, count=MAUBINH_ARRANGEMENTS)  # type: ignore[attr-defined]
    return [
        {"type": "arrange", "seat": seat, **dict(zip(("back", "middle", "front"), a.to_text(), strict=True))}
        for a in ranked
    ]


def apply_index(name: str, game: TableGame, action: Mapping[str, Any]) -> None:
    """Carries out one chosen action (for Mậu Binh: arrange, then confirm)."""
    game.apply(action)
    if name == "maubinh":
        game.apply({"type": "confirm", "seat": action["seat"]})
