"""Bots that fill empty seats and time-outs: one interface for every game.

A bot is anything with ``choose(view, legal_actions) -> action``: it sees only the seat's
``view`` (never another seat's hidden cards) and the list of action dicts open to that seat,
and returns one of them. Every game offers four levels, ``easy``, ``normal``, ``hard`` and
``expert`` (:mod:`.catalog`), and bots by name: ``random`` (every game); ``greedy`` (every
game; in Mậu Binh the ``"strongest"`` objective); ``search`` (every game: candidate moves
raced over sampled deals in Rust, :mod:`.search`, :mod:`.tusac_search`,
:class:`vncards.maubinh.bots.SearchBot`); ``montecarlo`` (Tiến Lên, Sâm Lốc: the earlier
determinised rollouts, :mod:`.montecarlo`); ``solver`` (Mậu Binh, the ``"equilibrium"``
objective); and, for benchmarks only, ``cheating`` (the search on every seat's true hand).
Bots that take the table's ``rules`` get them from :func:`make_bot`. The search bots read the
seat's events too (``view["events"]``, see :func:`bot_view`), to weigh the deals they sample
by what the other seats have shown. :mod:`.strength` measures them all.

A bot may also implement ``act(turn) -> action``, which the simulator and the CLI prefer:
a :class:`Turn` builds the view and the action dicts only when the bot reads them, so a bot
that reads little costs little (:func:`decide` and :func:`decider` pick the method).

>>> bot = make_bot("random", "tienlen", seed=1)
>>> bot.choose({}, [{"type": "pass", "seat": 0}])
{'type': 'pass', 'seat': 0}
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .._core import Rng
from ..errors import RulesError
from ..games import spec
from ..table import Seed

__all__ = [
    "BENCHMARK_ONLY",
    "LEVEL_NAMES",
    "Bot",
    "RandomBot",
    "Turn",
    "bot_factory",
    "bot_names",
    "bot_view",
    "decide",
    "decider",
    "make_bot",
]

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
            moves = getattr(self.game, "_moves", None)
            self._legal = moves(self.seat) if moves is not None else self.game.legal_actions(self.seat)
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
    >>> move = decider(make_bot("random", "tienlen", seed=1))
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


def bot_names(game: str) -> list[str]:
    """The bots a table of ``game`` may seat: the four levels, then the bots by name
    (``random`` and the game's own; never the benchmark-only ``cheating`` bot).

    >>> bot_names("tusac")
    ['easy', 'normal', 'hard', 'expert', 'random', 'greedy', 'search']
    """
    module = spec(game).load()
    extra = getattr(module, "BOTS", {})
    levels = [lv for lv in LEVEL_NAMES if lv in getattr(module, "LEVELS", {})]
    return [
        *levels,
        "random",
        *sorted(n for n in extra if n not in BENCHMARK_ONLY and _offered(extra[n], game)),
    ]


def _offered(factory: Any, game: str) -> bool:
    """May a table seat this bot? (The learned ``policy`` only where its weights ship.)"""
    offered = getattr(factory, "offered", None)
    return True if offered is None else bool(offered(game))


def make_bot(level: str, game: str, seed: Seed = None, rules: Any = None, **options: Any) -> Bot:
    """The bot ``level`` names for ``game`` (a level, ``"easy"`` to ``"expert"``, or a bot's
    own name such as ``"greedy"``), for a table with ``rules`` (default: the game's preset);
    game bots take the same ``seed`` and their own options (e.g. ``rollouts``, ``think_ms``),
    which override a level's. ``make_bot("cheating", ...)`` builds the benchmark's upper bound: it reads every
    hand from the game, so it plays only through ``act(turn)`` (its ``choose`` refuses a view)
    and :func:`bot_names` never offers it to a table.

    >>> make_bot("expert", "tienlen", seed=1).name
    'search'
    """
    return bot_factory(level, game, rules, **options)(seed)


def bot_factory(name: str, game: str, rules: Any = None, **options: Any) -> Callable[[Seed], Bot]:
    """``make_bot`` with the name looked up once: ``bot_factory(name, game, rules)(seed)`` is
    ``make_bot(name, game, seed, rules)`` (a simulation makes a bot per seat per game).

    >>> bot_factory("greedy", "tienlen")(seed=3).name
    'greedy'
    """
    if name == "random":
        return RandomBot
    module = spec(game).load()
    extra = getattr(module, "BOTS", {})
    levels = getattr(module, "LEVELS", {})
    if name in levels:
        base, preset = levels[name]
        options = {**preset, **options}
        if base == "random":
            return RandomBot
        name = base
    if name not in extra:
        raise RulesError(f"no bot {name!r} for {game} (bots: {', '.join(bot_names(game))})")
    factory = extra[name]
    if _takes(factory, "rules"):
        options["rules"] = spec(game).rules() if rules is None else rules

    def make(seed: Seed = None) -> Bot:
        bot: Bot = factory(seed=seed, **options)
        return bot

    return make


@functools.cache
def _takes(factory: Any, name: str) -> bool:
    """Does ``factory`` accept a keyword argument ``name``? (Cached: a simulation makes a
    bot per seat per game, and reading a signature costs more than a short game's move.)"""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
