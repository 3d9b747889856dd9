"""The surface every game shows a server, the same in all five: whose move it is, what each
seat may do, what each seat may see, and a dry run of an action.

- ``pending_seats``: the seats that may act now (one seat in the shedding games, several in a
  Mậu Binh arrangement or a Tứ Sắc claim window), also in every view under the same key.
- ``legal_actions(seat)``: the action dicts ``seat`` may pass to ``apply`` now. The seat is
  required: the options of one seat are private (they show its hand).
- ``apply(action)``: carry out one action dict, or raise a :class:`~vncards.VncardsError`
  (usually :class:`~vncards.IllegalMoveError` with a ``reason`` code) leaving the game as it
  was.
- ``can_apply(action)`` / ``explain(action)`` / ``verify(action)``: would ``apply`` accept it?
  ``can_apply`` answers True/False, ``explain`` gives the refusal's reason code (None when it
  would be accepted), ``verify`` raises the error ``apply`` would raise; none of them changes
  the game (pokerkit's ``can_``/``verify_`` pattern).
- ``view(seat)`` / ``public_view()``: JSON-safe dicts whose common keys are ``game``, ``seat``,
  ``hand``, ``hand_counts``, ``pending_seats``, ``is_over``, ``settlement`` and ``seq``; a
  public view (spectators) has ``seat`` and ``hand`` None and holds nobody's hidden card.
- ``seq``: the game's state counter, one more for every accepted action (a shedding game's
  ``next_hand`` included) and never changed by a refused one, so of two views of one game the
  one with the higher ``seq`` is the newer (a client drops a stale push, a server refuses an
  action sent against an old state). Snapshots keep it: it is the number of logged actions.

>>> from vncards import games
>>> game = games.new_game("tienlen", players=4, seed=7)
>>> seat = game.pending_seats[0]
>>> action = game.legal_actions(seat)[0]
>>> game.can_apply(action), game.explain({"type": "pass", "seat": seat})
(True, 'cannot_pass_on_lead')
>>> game.explain({"type": "play", "seat": (seat + 1) % 4, "cards": "2♥"})
'not_your_turn'
>>> game.seq
0
>>> game.apply(action)
>>> sorted(game.public_view())[:4], game.seq, game.view(seat)["seq"]
(['cong', 'current_seat', 'finishing_order', 'game'], 1, 1)
>>> game.can_apply(action), game.seq   # refused now (not that seat's turn): seq stays
(False, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .errors import VncardsError

__all__ = ["COMMON_VIEW_KEYS", "GameSurface"]

#: Keys every game's ``view(seat)`` and ``public_view()`` carry.
COMMON_VIEW_KEYS = (
    "game",
    "seat",
    "hand",
    "hand_counts",
    "pending_seats",
    "is_over",
    "settlement",
    "seq",
)


class GameSurface:
    """The generic half of a game; :class:`~vncards.table.TableGame` inherits it."""

    GAME: ClassVar[str] = ""

    # -- what each game provides ---------------------------------------------------------------

    @property
    def pending_seats(self) -> list[int]:
        """The seats that may act now (empty once the game is over)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """True once the game has ended and is settled."""
        raise NotImplementedError

    @property
    def settlement(self) -> list[int] | None:
        """Units won per seat once the game is over (sums to zero); ``None`` before."""
        raise NotImplementedError

    @property
    def seq(self) -> int:
        """The state counter: 0 for a new game, one more for every accepted action (see the
        module docs); a refused action leaves it as it was."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """The action dicts ``seat`` may :meth:`apply` now (empty when it has nothing to do)."""
        raise NotImplementedError

    def apply(self, action: Mapping[str, Any]) -> None:
        """Carries out one action dict, or raises a ``VncardsError`` and leaves the game as it was."""
        raise NotImplementedError

    def _view(self, seat: int | None) -> dict[str, Any]:
        """*hook*: the view of ``seat``, or the spectators' view for ``None``."""
        raise NotImplementedError

    def _check_seat(self, seat: Any) -> int:
        raise NotImplementedError

    def clone(self) -> Any:
        """An independent copy of the game."""
        raise NotImplementedError

    # -- views ---------------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, public facts, and the others' card counts."""
        return self._view(self._check_seat(seat))

    def public_view(self) -> dict[str, Any]:
        """What a spectator may see: public facts and card counts, nobody's hidden card
        (``seat`` and ``hand`` are None)."""
        return self._view(None)

    def _views(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """*hook*: the views of ``seats`` (seat numbers already checked), equal to ``view(s)``
        for each. A game whose views share a public part builds that part once and the views
        may share its lists: for a caller that encodes them and changes none (the server,
        which sends every seat its view after each change)."""
        return [self._view(s) for s in seats]

    def _view_head(self, seat: int | None, hand: list[str] | None, hand_counts: list[int]) -> dict[str, Any]:
        """The common keys of a view (see :data:`COMMON_VIEW_KEYS`)."""
        return {
            "game": self.GAME,
            "seat": seat,
            "hand": hand,
            "hand_counts": hand_counts,
            "pending_seats": self.pending_seats,
            "is_over": self.is_over,
            "settlement": self.settlement,
            "seq": self.seq,
        }

    # -- dry runs ------------------------------------------------------------------------------

    def _parse_action(self, action: Any) -> Any:
        """*hook*: the input contract for a client's action dict (refuses junk with a
        VncardsError); the table's shared parser overrides this pass-through."""
        return action

    def verify(self, action: Any) -> None:
        """Raise the error :meth:`apply` would raise for ``action``; change nothing."""
        self._parse_action(action)  # junk is refused here, before the game is copied
        self.clone().apply(action)

    def explain(self, action: Any) -> str | None:
        """Why :meth:`apply` would refuse ``action`` (the error's ``reason`` code, e.g.
        ``"not_your_turn"``, ``"does_not_beat"``, ``"invalid_card"``), or None if it would
        accept it. Never raises; changes nothing."""
        try:
            self.verify(action)
        except VncardsError as e:
            return str(getattr(e, "reason", None) or "invalid_action")
        except Exception:
            return "invalid_action"
        return None

    def can_apply(self, action: Any) -> bool:
        """Whether :meth:`apply` would accept ``action`` now. Never raises; changes nothing."""
        return self.explain(action) is None
