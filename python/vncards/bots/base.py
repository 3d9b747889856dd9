"""What every bot is and what it is handed: the :class:`Bot` interface, a :class:`Turn` (one
decision of one seat, its view and legal actions built on first read), :func:`decide` and
:func:`decider` (which pick ``act`` or ``choose``), and the :class:`RandomBot` every game
offers. The bots of each game import this module, never the package: :mod:`vncards.bots`
itself imports every bot to find them by name (:func:`vncards.bots.make_bot`).

>>> RandomBot(seed=1).choose({}, [{"type": "pass", "seat": 0}])
{'type': 'pass', 'seat': 0}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .._core import Rng
from ..errors import RulesError
from ..table import Seed, TableGame

__all__ = ["BENCHMARK_ONLY", "LEVEL_NAMES", "Bot", "RandomBot", "Turn", "bot_view", "decide", "decider"]

Action = dict[str, Any]


class Bot(Protocol):
    """What every bot implements."""

    name: str

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions`` for the seat whose ``view`` this is."""
        ...


class Turn:
    """One decision of one seat: the game and the seat to act. ``view`` and ``legal_actions``
    are built on first read; where the game offers it, ``legal_actions`` is a sequence whose
    action dicts are built only when read (the same actions, in the same order, as
    ``game.legal_actions(seat)``).

    >>> from vncards.games import new_game
    >>> turn = Turn(new_game("tienlen", seed=1), 0)
    >>> list(turn.legal_actions) == turn.game.legal_actions(0)
    True
    """

    __slots__ = ("game", "seat", "_view", "_legal", "_events")

    def __init__(self, game: Any, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._view: dict[str, Any] | None = None
        self._legal: Sequence[Action] | None = None
        self._events: list[dict[str, Any]] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """``game.view(seat)``."""
        if self._view is None:
            self._view = self.game.view(self.seat)
        return self._view

    @property
    def events(self) -> list[dict[str, Any]]:
        """``game.events_for(seat)``: what the seat has seen happen (the search bots'
        inference reads it)."""
        if self._events is None:
            self._events = self.game.events_for(self.seat)
        return self._events

    @property
    def legal_actions(self) -> Sequence[Action]:
        """The seat's legal actions (lazily built dicts where the game supports it)."""
        if self._legal is None:
            game = self.game
            self._legal = (
                game._moves(self.seat) if isinstance(game, TableGame) else game.legal_actions(self.seat)
            )
        return self._legal


def bot_view(game: Any, seat: int) -> dict[str, Any]:
    """What a bot given ``choose(view, legal_actions)`` should read: ``game.view(seat)`` with
    the seat's events under ``"events"`` (``game.events_for(seat)``: everything the seat has
    seen happen, which the search bots read to weigh the deals they sample). Servers pass
    this view to their bots.

    >>> from vncards.games import new_game
    >>> view = bot_view(new_game("tienlen", seed=1), 0)
    >>> view["events"][0]["type"]
    'deal'
    """
    return {**game.view(seat), "events": game.events_for(seat)}


def decide(bot: Bot, game: Any, seat: int) -> Action:
    """The action ``bot`` takes for ``seat``: through ``act(Turn)`` if the bot has it, else
    ``choose(view, legal_actions)``."""
    return decider(bot)(game, seat)


def decider(bot: Bot) -> Callable[[Any, int], Action]:
    """``decide`` for one bot, with the choice of method made once: a game loop asks it
    ``decider(bot)(game, seat)`` at every turn.

    >>> from vncards.games import new_game
    >>> move = decider(RandomBot(seed=1))
    >>> game = new_game("tienlen", seed=1)
    >>> move(game, game.pending_seats[0])["type"]
    'play'
    """
    act = getattr(bot, "act", None)
    if act is not None:
        return lambda game, seat: act(Turn(game, seat))
    choose = bot.choose
    return lambda game, seat: choose(game.view(seat), game.legal_actions(seat))


class RandomBot:
    """Picks uniformly among the legal actions (a baseline, and a fuzzer for servers)."""

    name = "random"

    def __init__(self, seed: Seed = None) -> None:
        self._rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """A uniformly random one of ``legal_actions`` (the view is not read)."""
        if not legal_actions:
            raise RulesError("a bot was asked to act with no legal action")
        return legal_actions[self._rng.below(len(legal_actions))]

    def act(self, turn: Turn) -> Action:
        """:meth:`choose` without the view (a random bot never reads it)."""
        return self.choose({}, turn.legal_actions)


#: The levels every game offers, weakest first.
LEVEL_NAMES = ("easy", "normal", "hard", "expert")
#: Bots for benchmarks only: they read every seat's hand, so no table may seat them.
BENCHMARK_ONLY = frozenset({"cheating"})
