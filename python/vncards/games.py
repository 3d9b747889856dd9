"""The registry of games the command line and the bots know, by name.

A game is listed here once its module exists; each entry says how to build a table from a
player count, a rules-option mapping and a seed.

>>> sorted(GAMES)[:2]
['maubinh', 'samloc']
>>> spec("tienlen-north").preset
'north'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .table import Seed, TableGame

__all__ = ["GameSpec", "GAMES", "spec", "new_game", "parse_rule_options"]


@dataclass(frozen=True)
class GameSpec:
    """How to make one game: its module, its ``Rules`` preset and its seat range."""

    name: str
    module: str
    title: str
    preset: str | None = None

    def load(self) -> Any:
        try:
            return importlib.import_module(self.module)
        except ImportError as e:
            raise RulesError(f"game {self.name!r} is not available in this build ({e})") from None

    def rules(self, options: Mapping[str, Any] | None = None) -> Any:
        mod = self.load()
        base = getattr(mod.Rules, self.preset)() if self.preset else mod.Rules()
        return base.replace(**dict(options or {}))

    def game_class(self) -> type[TableGame]:
        cls: type[TableGame] = self.load().Game
        return cls


GAMES: dict[str, GameSpec] = {
    g.name: g
    for g in (
        GameSpec("tienlen", "vncards.tienlen", "Tiến Lên Miền Nam", "south"),
        GameSpec("tienlen-north", "vncards.tienlen", "Tiến Lên Miền Bắc", "north"),
        GameSpec("samloc", "vncards.samloc", "Sâm Lốc"),
        GameSpec("maubinh", "vncards.maubinh", "Mậu Binh"),
        GameSpec("tusac", "vncards.tusac", "Tứ Sắc"),
    )
}


def spec(name: str) -> GameSpec:
    """The game called ``name`` (``RulesError`` if there is none)."""
    try:
        return GAMES[name]
    except KeyError:
        raise RulesError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None


def new_game(
    name: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: Seed = None,
) -> TableGame:
    """A new table of game ``name`` with default seats unless ``players`` is given."""
    s = spec(name)
    cls = s.game_class()
    if players is None:
        players = min(max(4, cls.MIN_PLAYERS), cls.MAX_PLAYERS)
    return cls(players=players, rules=s.rules(options), seed=seed)


def parse_rule_options(items: list[str]) -> dict[str, Any]:
    """``["scoring=ranked", "ket_3_bich=false", "draw_at_stock=7"]`` as typed option values."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise RulesError(f"rule option {item!r} is not key=value")
        value: Any = raw
        if raw.lower() in ("true", "yes", "on"):
            value = True
        elif raw.lower() in ("false", "no", "off"):
            value = False
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        out[key.strip()] = value
    return out
