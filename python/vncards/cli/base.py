"""What every command shares: the parser that errs on one line, the registrar commands add
themselves through, and the arguments several commands take (``--bots``, ``--rules``)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, NoReturn, Protocol

from rich.console import Console

from ..bots import bot_names
from ..errors import VncardsError
from ..games import GAMES

__all__ = ["Parser", "Run", "Commands", "Command", "bots_help", "add_rules_argument"]

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
        "--rules", nargs="*", default=[], metavar="K=V", help="rule options (see vncards rules GAME)"
    )
