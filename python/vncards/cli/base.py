"""What every command shares: the parser that errs on one line, the registrar commands add
themselves through, and the arguments several commands take (``--bots``, ``--rules``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, Protocol

from rich.console import Console

from ..bots import bot_names
from ..errors import RulesError, VncardsError
from ..games import GAMES, rules_schema

__all__ = [
    "Parser",
    "Run",
    "Commands",
    "Command",
    "bots_help",
    "add_rules_argument",
    "rule_options",
    "option_values",
]

#: A command's body: the parsed arguments and the console to print to -> the exit code.
#: Raise :class:`~vncards.errors.VncardsError` (or ``ValueError``) for a one-line error, exit 2.
Run = Callable[[argparse.Namespace, Console], int]


class Parser(argparse.ArgumentParser):
    """argparse with errors on one line (``vncards: error: ...``) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


class Commands:
    """The ``vncards`` subcommands being built: :meth:`add` makes one."""

    def __init__(self, sub: Any, common: argparse.ArgumentParser) -> None:
        self._sub = sub
        self._common = common

    def add(self, name: str, run: Run, *, help: str, **kwargs: Any) -> argparse.ArgumentParser:
        """A new subcommand ``name`` that runs ``run``; ``help`` is its line in ``vncards
        --help``, ``kwargs`` go to :class:`argparse.ArgumentParser` (``description``,
        ``epilog``). It takes ``--ascii`` like every command; add its own arguments to the
        parser returned."""
        parser: argparse.ArgumentParser = self._sub.add_parser(
            name, parents=[self._common], help=help, **kwargs
        )
        parser.set_defaults(run=run)
        return parser


class Command(Protocol):
    """A command module: it adds itself with ``register``."""

    def register(self, commands: Commands) -> None: ...


def bots_help() -> str:
    """The bots of every game, for a help text: ``tienlen: random, greedy, ...; samloc: ...``."""
    lines = []
    for name in GAMES:
        try:
            lines.append(f"{name}: {', '.join(bot_names(name))}")
        except VncardsError:
            continue
    return "; ".join(lines)


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    """``--rules K=V ...``: rule options of the game (``vncards rules GAME`` lists them)."""
    parser.add_argument(
        "--rules",
        nargs="*",
        default=[],
        metavar="K=V",
        help="rule options (see vncards rules GAME; default: none, the game's standard rules)",
    )


_TRUE = ("true", "yes", "on")
_FALSE = ("false", "no", "off")


def option_values(option: dict[str, Any]) -> str:
    """The values an option of :func:`~vncards.games.rules_schema` takes, in words:
    ``false | true``, ``a | b | c``, ``a whole number 0..1`` or ``a whole number ≥ 0``."""
    if option["type"] != "int":
        return " | ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in option["values"] or ())
    low, high = option.get("min"), option.get("max")
    if low is not None and high is not None:
        return f"a whole number {low}..{high}"
    if low is not None:
        return f"a whole number ≥ {low}"
    if high is not None:
        return f"a whole number ≤ {high}"
    return "a whole number"


def rule_options(game: str, items: Sequence[str]) -> dict[str, Any]:
    """``--rules NAME=VALUE ...`` as ``game``'s option values, each read by its type in
    :func:`~vncards.games.rules_schema`: a bool (``true``/``false``, ``yes``/``no``,
    ``on``/``off``), a whole number in its range, or one of its choices. An unknown name or a
    value out of place is a :class:`~vncards.errors.RulesError` saying what is allowed.

    >>> rule_options("tusac", ["draw_at_stock=5", "triple_optional=yes"])
    {'draw_at_stock': 5, 'triple_optional': True}
    >>> rule_options("tusac", ["discard_rule=sometimes"])
    Traceback (most recent call last):
    ...
    vncards.errors.RulesError: discard_rule is penalize | enforce, not 'sometimes'
    """
    schema = {o["name"]: o for o in rules_schema(game)}
    out: dict[str, Any] = {}
    for item in items:
        name, sep, raw = (part.strip() for part in item.partition("="))
        if not sep or not name:
            raise RulesError(f"rule option {item!r} is not NAME=VALUE")
        option = schema.get(name)
        if option is None:
            raise RulesError(
                f"{game} has no rule option {name!r} (options: {', '.join(schema)}; see vncards rules {game})"
            )
        out[name] = _value(option, raw)
    return out


def _value(option: dict[str, Any], raw: str) -> Any:
    name, kind = option["name"], option["type"]
    wrong = RulesError(f"{name} is {option_values(option)}, not {raw!r}")
    if kind == "bool":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise wrong
    if kind == "int":
        try:
            value = int(raw)
        except ValueError:
            raise wrong from None
        low, high = option.get("min"), option.get("max")
        if (low is not None and value < low) or (high is not None and value > high):
            raise wrong
        return value
    if raw not in [str(v) for v in option["values"] or ()]:
        raise wrong
    return raw
