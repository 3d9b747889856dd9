"""Bots that fill empty seats and time-outs: one interface for every game.

A bot is anything with ``choose(view, legal_actions) -> action``: it sees only the seat's
``view`` (never another seat's hidden cards) and the list of action dicts open to that seat,
and returns one of them. ``random`` works for every game; games add stronger bots through a
``BOTS`` mapping in their module, found here by name: ``greedy`` (every game; in Mậu Binh the
``"strongest"`` objective), ``montecarlo`` (Tiến Lên, Sâm Lốc: determinised rollouts in Rust,
:mod:`.montecarlo`) and ``solver`` (Mậu Binh, the ``"expected"`` objective). Bots that take the
table's ``rules`` get them from :func:`make_bot`.

>>> bot = make_bot("random", "tienlen", seed=1)
>>> bot.choose({}, [{"type": "pass", "seat": 0}])
{'type': 'pass', 'seat': 0}
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, Protocol

from .._core import Rng
from ..errors import RulesError
from ..games import spec
from ..table import Seed

__all__ = ["Bot", "RandomBot", "make_bot", "bot_names"]

Action = dict[str, Any]


class Bot(Protocol):
    """What every bot implements."""

    name: str

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions`` for the seat whose ``view`` this is."""
        ...


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


def bot_names(game: str) -> list[str]:
    """The bots available for ``game``."""
    extra = getattr(spec(game).load(), "BOTS", {})
    return ["random", *sorted(extra)]


def make_bot(name: str, game: str, seed: Seed = None, rules: Any = None, **options: Any) -> Bot:
    """The bot called ``name`` for ``game``, for a table with ``rules`` (default: the game's
    preset); game bots take the same ``seed`` and their own options (e.g. ``budget``)."""
    if name == "random":
        return RandomBot(seed)
    extra = getattr(spec(game).load(), "BOTS", {})
    if name not in extra:
        raise RulesError(f"no bot {name!r} for {game} (bots: {', '.join(bot_names(game))})")
    factory = extra[name]
    if _takes(factory, "rules"):
        options["rules"] = spec(game).rules() if rules is None else rules
    bot: Bot = factory(seed=seed, **options)
    return bot


def _takes(factory: Any, name: str) -> bool:
    """Does ``factory`` accept a keyword argument ``name``?"""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == name or p.kind is inspect.Parameter.VAR_KEYWORD for p in params)
