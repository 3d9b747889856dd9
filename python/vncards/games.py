"""Every game by name, and the one loop a server writes for all of them.

Names: ``tienlen`` (Miền Nam), ``tienlen-north`` (Miền Bắc), ``samloc``, ``maubinh``,
``tusac``. :func:`new_game` builds a table, :func:`from_json` restores any game's snapshot,
:func:`rules_schema` lists a game's options as data.

>>> import random
>>> rnd = random.Random(1)
>>> for name in GAMES:
...     game = new_game(name, players=4, seed=7)
...     while not game.is_over:
...         seat = game.pending_seats[0]
...         game.apply(rnd.choice(game.legal_actions(seat)))
...         game = from_json(game.to_json())
...     assert sum(game.settlement) == 0 and game.public_view()["is_over"]
>>> new_game("tienlen-north", rules={"ending": "ranked", "scoring": "ranked"}).rules.same_colour_pairs
True
>>> [o["name"] for o in rules_schema("maubinh")][:2]
['wheel', 'scoop']
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

from .errors import RulesError, SnapshotError
from .inputs import _short
from .rules import RulesBase
from .snapshot import check_key, load_text
from .table import Seed, TableGame, default_rules

if TYPE_CHECKING:  # new_game's overloads: a literal name types the table as its game's class
    from . import maubinh, samloc, tienlen, tusac

__all__ = ["GameSpec", "GAMES", "spec", "new_game", "from_json", "rules_schema", "parse_rule_options"]


@dataclass(frozen=True)
class GameSpec:
    """How to make one game: its module, its ``Rules`` preset and its seat range."""

    name: str
    module: str
    title: str
    preset: str | None = None

    def load(self) -> Any:
        """The game's module, imported on first use (``RulesError`` if this build lacks it)."""
        try:
            return importlib.import_module(self.module)
        except ImportError as e:
            raise RulesError(f"game {self.name!r} is not available in this build ({e})") from None

    def rules(self, options: Mapping[str, Any] | None = None) -> Any:
        """This game's ``Rules`` preset with ``options`` replaced."""
        base = _preset(self)
        if not options:
            return base
        named = next((k for k in options if not isinstance(k, str)), None)
        if named is not None:
            raise RulesError(f"rules options are named by strings, not {_short(named)}")
        return base.replace(**options)

    def rules_from(self, rules: Any) -> RulesBase:
        """``rules`` as this game's ``Rules``: None (the preset), a dict of overrides of the
        preset, or a ``Rules`` of this game (anything else names both games)."""
        if rules is None or isinstance(rules, Mapping):
            return self.rules(rules)  # type: ignore[no-any-return]
        cls = self.game_class()
        if not isinstance(rules, cls.Rules):
            from .rules import rules_mismatch

            raise rules_mismatch(self.name, cls.Rules, rules)
        return rules

    def game_class(self) -> type[TableGame]:
        """The game's ``Game`` class."""
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
    except (KeyError, TypeError):  # TypeError: not even hashable
        raise RulesError(f"unknown game {_short(name)} (games: {', '.join(GAMES)})") from None


@overload
def new_game(
    name: Literal["tienlen", "tienlen-north"],
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> tienlen.Game: ...
@overload
def new_game(
    name: Literal["samloc"],
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> samloc.Game: ...
@overload
def new_game(
    name: Literal["maubinh"],
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> maubinh.Game: ...
@overload
def new_game(
    name: Literal["tusac"],
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> tusac.Game: ...
@overload
def new_game(
    name: str,
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> TableGame: ...
def new_game(
    name: str,
    players: int | None = 4,
    rules: Any = None,
    seed: Seed = None,
    *,
    options: Mapping[str, Any] | None = None,
    **setup: Any,
) -> TableGame:
    """A new table of game ``name``: the same keywords as every ``Game`` class. A literal
    name types the table as that game's class (``new_game("tusac")`` is a ``tusac.Game``).

    ``players=None`` picks 4 (or the nearest count the game allows).
    ``rules``: None (the game's preset, e.g. Miền Bắc for ``"tienlen-north"``), a dict of
    option overrides of that preset, or the game's own ``Rules``. ``options=`` is the
    deprecated spelling of a dict of overrides. ``setup``: what a hand starts with from the
    hand before (``leader=`` in Tiến Lên and Sâm Lốc, ``dealer=`` in Tứ Sắc; see
    :attr:`~vncards.table.TableGame.next_hand_setup`).

    >>> new_game("samloc", rules={"low_straights": True}).rules.low_straights
    True
    >>> new_game("tusac", dealer=2).pending_seats
    [2]
    >>> from vncards import tienlen
    >>> new_game("samloc", rules=tienlen.Rules())
    Traceback (most recent call last):
    ...
    vncards.errors.RulesError: samloc needs samloc.Rules, got tienlen.Rules
    """
    s = spec(name)
    if options is not None:
        warnings.warn(
            "new_game(options=...) is deprecated: pass rules={...}", DeprecationWarning, stacklevel=2
        )
        if rules is not None:
            raise RulesError("pass rules= or options=, not both")
        rules = options
    cls = s.game_class()
    if players is None:
        players = min(max(4, cls.MIN_PLAYERS), cls.MAX_PLAYERS)
    unknown = sorted(set(setup) - set(cls.SETUP))
    if unknown:
        raise RulesError(f"{name} takes no keyword {unknown[0]!r} (setup keywords: {list(cls.SETUP)})")
    return cls(players=players, rules=s.rules_from(rules), seed=seed, **setup)


@functools.cache
def _preset(spec: GameSpec) -> Any:
    """The preset ``Rules`` of ``spec``, made once: rules are frozen, so tables share it."""
    mod = spec.load()
    return getattr(mod.Rules, spec.preset)() if spec.preset else default_rules(mod.Rules)


_SNAPSHOT_GAMES = ("tienlen", "samloc", "maubinh", "tusac")


def from_json(
    text: str | bytes, key: bytes | bytearray | None = None, *, require_signature: bool = False
) -> TableGame:
    """The game a ``to_json()`` snapshot describes, as the right class (by its ``"game"``
    field). ``key``: the HMAC key the snapshot was signed with, if any (non-empty bytes).
    ``require_signature=True`` (what a server that signs every snapshot passes): a missing
    key is an error, so no unsigned snapshot is ever accepted. A key that is not non-empty
    bytes, or none where one is required, raises :class:`~vncards.SnapshotKeyError`; anything
    malformed raises :class:`~vncards.SnapshotError` (the text is bounded before it is parsed,
    then verified as :meth:`~vncards.table.TableGame.from_json` does)."""
    key = check_key(key, require=require_signature)
    data = load_text(text)
    name = data.get("game") if isinstance(data, dict) else None
    # Snapshots name the game class (tienlen for both presets: the rules say which).
    if name not in _SNAPSHOT_GAMES:
        raise SnapshotError(f"snapshot: unknown game {name!r} (games: {', '.join(sorted(_SNAPSHOT_GAMES))})")
    return GAMES[name].game_class()._from_data(data, key)


def rules_schema(name: str) -> list[dict[str, Any]]:
    """Every rules option of game ``name`` as data: ``name``, ``type`` (``"bool"``, ``"int"``,
    ``"choice"``), ``values``, ``default`` (of this game's preset), ``description`` and
    ``source`` (``"seed"``: the original documents; ``"house"``: a common house rule).

    >>> opt = next(o for o in rules_schema("tienlen-north") if o["name"] == "finish_on_two")
    >>> opt["values"], opt["default"]
    (['allowed', 'penalized', 'forbidden'], 'penalized')
    """
    s = spec(name)
    schema: list[dict[str, Any]] = s.game_class().Rules.schema(s.rules())
    return schema


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
