"""Rules as plain frozen data: the base every game's ``Rules`` dataclass derives from.

A game declares its options as dataclass fields typed ``bool``, ``int`` or a ``Literal`` of
strings, each with :func:`option`; an ``int`` option always has its ``bounds`` (the range
:meth:`RulesBase.schema` reports). This base validates every value once, at construction, and
raises :class:`~vncards.errors.RulesError` for an unknown option name, a wrong type, an int
outside its bounds or a value outside its ``Literal``. A game adds cross-option checks in
``_check``.

>>> from dataclasses import dataclass
>>> from typing import Literal
>>> @dataclass(frozen=True)
... class Demo(RulesBase):
...     players_max: int = option(4, "most seats at the table", bounds=(2, 8))
...     scoring: Literal["count", "ranked"] = option("count", "how a hand is paid")
>>> Demo().replace(scoring="ranked").scoring
'ranked'
>>> Demo().replace(scoring="money")
Traceback (most recent call last):
...
vncards.errors.RulesError: Demo.scoring must be one of 'count', 'ranked', not 'money'
>>> Demo().replace(players_max=2**63)
Traceback (most recent call last):
...
vncards.errors.RulesError: Demo.players_max must be in 2..8, not 9223372036854775808
>>> Demo().replace(colour=True)
Traceback (most recent call last):
...
vncards.errors.RulesError: unknown option for Demo: 'colour' (options: players_max, scoring)
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Literal, TypeVar, get_args, get_origin

from .errors import RulesError

__all__ = ["RulesBase", "option", "rules_mismatch"]

#: Where an option's default comes from: the original documents, or a common house rule
#: (or an engine convention the documents say nothing about).
SOURCES = ("seed", "house")

R = TypeVar("R", bound="RulesBase")

_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if hints[f.name] is int and f.metadata.get("bounds") is None:
                # A definition mistake, not bad input: every int option has a range.
                raise TypeError(f"{cls.__name__}.{f.name}: an int option needs option(..., bounds=(lo, hi))")
        _HINTS[cls] = hints
    return hints


def option(
    default: Any, description: str, *, source: str = "seed", bounds: tuple[int, int] | None = None
) -> Any:
    """A rules field with its one-line ``description``, the ``source`` of its default
    (``"seed"`` or ``"house"``) and, for an int option (required there), its ``bounds``
    ``(lo, hi)``, inclusive; :meth:`RulesBase.schema` reads them all.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Demo(RulesBase):
    ...     scoop: bool = option(True, "winning all three hands doubles the payment", source="house")
    >>> Demo.schema()[0]["description"]
    'winning all three hands doubles the payment'
    """
    if source not in SOURCES:
        raise ValueError(f"option source must be one of {SOURCES}, not {source!r}")
    if bounds is not None:
        lo, hi = bounds
        if not (type(lo) is int and type(hi) is int and lo <= default <= hi):
            raise ValueError(f"option bounds must be ints lo <= default <= hi, not {bounds!r}")
    return dataclasses.field(
        default=default, metadata={"description": description, "source": source, "bounds": bounds}
    )


def _game_of(cls: type) -> str:
    """``vncards.samloc.rules`` -> ``samloc``: the game package a class belongs to."""
    parts = cls.__module__.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "vncards" else cls.__module__


def rules_mismatch(owner: str, expected: type, got: Any) -> RulesError:
    """The error for rules of the wrong game, naming both games:
    ``tienlen.Game needs tienlen.Rules, got samloc.Rules``."""
    kind = type(got)
    shown = f"{_game_of(kind)}.{kind.__name__}" if kind.__module__.startswith("vncards.") else kind.__name__
    return RulesError(f"{owner} needs {_game_of(expected)}.{expected.__name__}, got {shown}")


@dataclasses.dataclass(frozen=True)
class RulesBase:
    """Base of every game's rules: frozen, validated, JSON-friendly."""

    def __post_init__(self) -> None:
        name = type(self).__name__
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            expected = hints[f.name]
            if get_origin(expected) is Literal:
                choices = get_args(expected)
                if value not in choices:
                    shown = ", ".join(repr(c) for c in choices)
                    raise RulesError(f"{name}.{f.name} must be one of {shown}, not {value!r}")
            elif expected is bool:
                if not isinstance(value, bool):
                    raise RulesError(f"{name}.{f.name} must be True or False, not {value!r}")
            elif expected is int:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise RulesError(f"{name}.{f.name} must be an int, not {value!r}")
                lo, hi = f.metadata["bounds"]
                if not lo <= value <= hi:
                    raise RulesError(f"{name}.{f.name} must be in {lo}..{hi}, not {value}")
        self._check()

    def _check(self) -> None:
        """Cross-option consistency; raise RulesError. Games override."""

    def replace(self: R, **options: Any) -> R:
        """A copy with some options changed (names as in the game's rules page)."""
        known = {f.name for f in dataclasses.fields(self)}
        for key in options:
            if key not in known:
                raise RulesError(
                    f"unknown option for {type(self).__name__}: {key!r} (options: {', '.join(sorted(known))})"
                )
        return dataclasses.replace(self, **options)

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-safe dict."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        """Rules pickle by their options: the core objects a game's rules build from them
        (``core``, ``flow``) are built anew where they are loaded."""
        return (type(self).from_dict, (self.to_dict(),))

    @classmethod
    def schema(cls, defaults: RulesBase | None = None) -> list[dict[str, Any]]:
        """Every option as data: ``name``, ``type`` (``"bool"``, ``"int"`` or ``"choice"``),
        ``values`` (the allowed values; None for an int), ``min`` and ``max`` (an int's
        inclusive range; None for the others), ``default``, ``description`` and ``source``
        (``"seed"`` or ``"house"``), in declaration order. ``defaults``: a preset whose values
        are reported as the defaults (e.g. ``tienlen.Rules.north()``)."""
        hints = _hints(cls)
        if defaults is None:
            defaults = cls()
        out: list[dict[str, Any]] = []
        for f in dataclasses.fields(cls):
            expected = hints[f.name]
            lo = hi = None
            if get_origin(expected) is Literal:
                kind, values = "choice", list(get_args(expected))
            elif expected is bool:
                kind, values = "bool", [False, True]
            else:
                kind, values = "int", None
                lo, hi = f.metadata["bounds"]
            out.append(
                {
                    "name": f.name,
                    "type": kind,
                    "values": values,
                    "min": lo,
                    "max": hi,
                    "default": getattr(defaults, f.name),
                    "description": f.metadata.get("description", ""),
                    "source": f.metadata.get("source", ""),
                }
            )
        return out

    @classmethod
    def from_dict(cls: type[R], data: Any) -> R:
        """Rules from a dict such as ``to_dict()`` made; validates every key and value."""
        if not isinstance(data, dict):
            raise RulesError(f"{cls.__name__} options must be a dict, not {type(data).__name__}")
        return cls().replace(**data)

    @classmethod
    def from_snapshot(cls: type[R], data: Any) -> R:
        """The rules a snapshot stored: every option must be there, so a restored game keeps
        its own rules even where today's defaults differ. A dict written before some options
        existed is upgraded (:meth:`_upgrade`) to the values that keep its old behaviour, or
        refused with RulesError saying why; a missing option is never filled with a default."""
        if not isinstance(data, dict):
            raise RulesError(f"{cls.__name__} options must be a dict, not {type(data).__name__}")
        data = cls._upgrade(dict(data))
        missing = sorted({f.name for f in dataclasses.fields(cls)} - set(data))
        if missing:
            raise RulesError(
                f"stored {cls.__name__} lack the options {', '.join(missing)}: the snapshot was "
                "not written by this version, and filling them with today's defaults could "
                "change the game's rules"
            )
        return cls().replace(**data)

    @classmethod
    def _upgrade(cls, data: dict[str, Any]) -> dict[str, Any]:
        """*hook*: options as an older version stored them, rewritten to today's names with the
        values that reproduce the old behaviour (raise RulesError when that is impossible).
        Games whose options changed override it."""
        return data
