"""Bots that fill empty seats and time-outs: one interface for every game.

A bot is anything with ``choose(view, legal_actions) -> action``: it sees only the seat's
``view`` (never another seat's hidden cards) and the list of action dicts open to that seat,
and returns one of them. Every game offers four levels, ``easy``, ``normal``, ``hard`` and
``expert`` (:mod:`.catalog`), and bots by name: ``random`` (every game); ``greedy`` (every
game; in Mậu Binh the ``"strongest"`` objective); ``search`` (every game: candidate moves
raced over sampled deals in Rust, :mod:`.search`, :mod:`.tusac_search`,
:class:`vncards.bots.maubinh.SearchBot`); ``montecarlo`` (Tiến Lên, Sâm Lốc: the earlier
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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, overload

from ..errors import RulesError
from ..games import spec
from ..table import Seed
from .base import BENCHMARK_ONLY, LEVEL_NAMES, Bot, RandomBot, Turn, bot_view, decide, decider
from .catalog import BOTS, LEVELS

if TYPE_CHECKING:
    from .policy import PolicyBot

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


def bot_names(game: str) -> list[str]:
    """The bots a table of ``game`` may seat: the four levels, then the bots by name
    (``random`` and the game's own; never the benchmark-only ``cheating`` bot).

    >>> bot_names("tusac")
    ['easy', 'normal', 'hard', 'expert', 'random', 'greedy', 'policy', 'search']
    """
    module = spec(game).load().__name__
    extra = BOTS.get(module, {})
    levels = [lv for lv in LEVEL_NAMES if lv in LEVELS.get(module, {})]
    return [
        *levels,
        "random",
        *sorted(n for n in extra if n not in BENCHMARK_ONLY and _offered(extra[n], game)),
    ]


def _offered(factory: Any, game: str) -> bool:
    """May a table seat this bot? (The learned ``policy`` only where its weights ship.)"""
    offered = getattr(factory, "offered", None)
    return True if offered is None else bool(offered(game))


@overload
def make_bot(
    level: Literal["policy"], game: str, seed: Seed = None, rules: Any = None, **options: Any
) -> PolicyBot: ...
@overload
def make_bot(level: str, game: str, seed: Seed = None, rules: Any = None, **options: Any) -> Bot: ...
def make_bot(level: str, game: str, seed: Seed = None, rules: Any = None, **options: Any) -> Bot:
    """The bot ``level`` names for ``game`` (a level, ``"easy"`` to ``"expert"``, or a bot's
    own name such as ``"greedy"``), for a table with ``rules`` (default: the game's preset);
    game bots take the same ``seed`` and their own options (e.g. ``rollouts``, ``think_ms``),
    which override a level's. ``make_bot("cheating", ...)`` builds the benchmark's upper bound: it reads every
    hand from the game, so it plays only through ``act(turn)`` (its ``choose`` refuses a view)
    and :func:`bot_names` never offers it to a table. ``make_bot("policy", ...)`` is typed as
    the :class:`~vncards.bots.policy.PolicyBot` it returns (its ``scores`` and ``net``).

    >>> make_bot("expert", "tienlen", seed=1).name
    'search'
    """
    return bot_factory(level, game, rules, **options)(seed)


def bot_factory(
    name: str, game: str, rules: Any = None, *, players: int | None = None, **options: Any
) -> Callable[[Seed], Bot]:
    """``make_bot`` with the name looked up once: ``bot_factory(name, game, rules)(seed)`` is
    ``make_bot(name, game, seed, rules)`` (a simulation makes a bot per seat per game).
    ``players``, the table size, goes to the bots that check it when they are made (the
    learned ``policy``, whose weights play one table size); the others ignore it.

    >>> bot_factory("greedy", "tienlen")(seed=3).name
    'greedy'
    """
    if name == "random":
        return RandomBot
    module = spec(game).load().__name__
    extra = BOTS.get(module, {})
    levels = LEVELS.get(module, {})
    if name in levels:
        base, preset = levels[name]
        if "guided" in preset:
            # The caller's options override the level's where the policy guides it too.
            options = {**options, "guided": {**preset["guided"], **options}}
        options = {**preset, **options}
        if base == "random":
            return RandomBot
        name = base
    if name not in extra:
        raise RulesError(f"no bot {name!r} for {game} (bots: {', '.join(bot_names(game))})")
    factory = extra[name]
    if _takes(factory, "rules"):
        options["rules"] = spec(game).rules() if rules is None else rules
    if players is not None and _takes(factory, "players"):
        options["players"] = players

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
