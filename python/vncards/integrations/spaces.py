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
- Tứ Sắc: ``TUSAC_BOUND = 22``, which some states reach (the bound is tight). A seat's
  legal actions are either a discard turn or its answers to an offered card:

  - *Discard turn*: one ``discard`` per kind the seat may discard, plus ``win`` at the
    opening only. A seat discards from its concealed hand, one action per distinct kind in
    it: the dealer holds 21 cards at the opening discard, every other seat is dealt 20, and
    every later discard follows a claim, which never adds to the concealed hand (the claimed
    card goes with 0-3 concealed cards into an exposed meld). So at most 21 discards + 1 win
    = 22; a dealer dealt 21 distinct kinds that already make complete melds (Tướng–Sĩ–Tượng
    of four colours, Xe–Pháo–Mã of three) has exactly that under the default options (the
    Tướng may be discarded as the tỳ).
  - *Answers*: ``win``, ``pass`` and one ``claim`` per (meld, cards used) the offered card
    can join: the pair (one copy), the claimed triple (two copies), the set of its colour
    (Tướng–Sĩ–Tượng or Xe–Pháo–Mã: one way), a lone Tướng, and for a Chốt three soldiers
    (two of the three other colours' Chốt: 3 ways) or four soldiers (1). A khạp of the card
    (three copies) allows only the khui (the claimed quad: mandatory, and a khạp is never
    split), so at most 6 claims (Chốt: pair, triple, 3 + 1 soldiers; Tướng: 4; the other
    pieces: 3) + win + pass = 8, which the entitled seat reaches holding two white Chốt and
    one of each other colour when a white Chốt is discarded, under ``triple_optional``
    (otherwise the triple is mandatory: it is the only claim and there is no pass).

  The options only decide which of these actions are offered (``discard_rule="enforce"``
  keeps the rác discards, a mandatory triple is then the only claim, no Tướng tỳ, the bài
  bụng rules, the odd-total and lệnh rules for ``win``, ``claim_window``: a seat with
  nothing to claim only passes); none adds another kind of action, so 22 bounds every option
  set. The tests build both worst cases.

The tests check every bound over random states: a few thousand per game in the normal suite,
100,000 per game with ``VNCARDS_PROFILE=slow`` (``tests/test_action_bounds.py``).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping
from typing import Any

from .. import games
from ..errors import IllegalMoveError, RulesError
from ..table import TableGame

__all__ = [
    "ACTION_BOUND",
    "MAUBINH_ARRANGEMENTS",
    "TUSAC_BOUND",
    "VARIANTS",
    "legal_list",
    "apply_index",
    "action_index",
    "check_players",
]

MAUBINH_ARRANGEMENTS = 16
#: The most legal actions of a Tứ Sắc seat (21 discards + win; see the module docstring).
TUSAC_BOUND = 22

#: A bound on ``len(legal_list(game, seat))`` per variant (see the module docstring).
ACTION_BOUND: dict[str, int] = {
    "tienlen": 8192,
    "tienlen-north": 8192,
    "samloc": 1024,
    "maubinh": MAUBINH_ARRANGEMENTS,
    "tusac": TUSAC_BOUND,
}

VARIANTS = tuple(games.GAMES)


def legal_list(name: str, game: TableGame, seat: int) -> list[dict[str, Any]]:
    """The actions an index chooses among for ``seat`` now (``legal_actions(seat)``, except
    Mậu Binh's: its ranked arrangements)."""
    if name != "maubinh":
        return game.legal_actions(seat)
    if seat not in game.pending_seats:  # (legal_actions would run the solver once more)
        return []
    from ..maubinh import Game, ranked_arrangements

    assert isinstance(game, Game)  # the game named "maubinh"
    ranked = ranked_arrangements(game.hand(seat), game.rules, count=MAUBINH_ARRANGEMENTS)
    return [
        {"type": "arrange", "seat": seat, **dict(zip(("back", "middle", "front"), a.to_text(), strict=True))}
        for a in ranked
    ]


def apply_index(name: str, game: TableGame, action: Mapping[str, Any]) -> None:
    """Carries out one chosen action (for Mậu Binh: arrange, then confirm)."""
    game.apply(action)
    if name == "maubinh":
        game.apply({"type": "confirm", "seat": action["seat"]})


def action_index(action: Any, count: int, what: str = "action") -> int:
    """``action`` as an index ``0..count-1``: an ``int`` or a NumPy integer (anything
    ``operator.index`` takes), never a bool, a float or a string. Anything else raises
    :class:`~vncards.errors.IllegalMoveError` (reason ``"invalid_action"``) naming ``what``
    and the range, before anything changes.

    >>> action_index(3, 5)
    3
    >>> action_index(0.9, 5)
    Traceback (most recent call last):
    ...
    vncards.errors.IllegalMoveError: action must be an integer index 0..4, not 0.9 (float)
    >>> action_index(-2, 5, "player action")
    Traceback (most recent call last):
    ...
    vncards.errors.IllegalMoveError: player action -2 is out of range 0..4
    """
    shown = "none" if count == 0 else f"0..{count - 1}"
    if isinstance(action, bool) or type(action).__name__ == "bool":  # NumPy's bool too
        raise IllegalMoveError("invalid_action", f"{what} must be an integer index {shown}, not {action!r}")
    try:
        index = operator.index(action)
    except TypeError:
        raise IllegalMoveError(
            "invalid_action",
            f"{what} must be an integer index {shown}, not {action!r} ({type(action).__name__})",
        ) from None
    if not 0 <= index < count:
        raise IllegalMoveError("invalid_action", f"{what} {index} is out of range {shown}")
    return index


def check_players(name: str, players: Any) -> int:
    """``players`` as a seat count of variant ``name``: an int in the game's range, else
    :class:`~vncards.errors.RulesError` (a learning environment checks it when it is made).

    >>> check_players("samloc", 5)
    5
    >>> check_players("tienlen", 9)
    Traceback (most recent call last):
    ...
    vncards.errors.RulesError: tienlen takes 2–4 players, not 9
    """
    cls = games.spec(name).game_class()
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"players must be an int, not {players!r}")
    if not cls.MIN_PLAYERS <= players <= cls.MAX_PLAYERS:
        raise RulesError(f"{name} takes {cls.MIN_PLAYERS}–{cls.MAX_PLAYERS} players, not {players}")
    return players
