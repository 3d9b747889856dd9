"""The ``vncards`` command: play against bots, simulate bot games, solve Mậu Binh hands, list a
game's rules.

Every error in the arguments is one line on stderr and exit code 2; inside ``play`` a typing
mistake is explained and asked again. Text is for people: card categories, payments and events
in English with the Vietnamese term (``thối 2 (a 2 left in hand): 15``, from
:mod:`vncards.words`), never an engine code. ``--ascii`` (or a terminal that cannot show
♠♥♦♣) writes plain ASCII: ``10h`` for 10♥, and Vietnamese without its accents.

The package has one module per command, listed once in :data:`COMMANDS` (the order of
``vncards --help``). A new command ``vncards frobnicate`` is a module ``cli/frobnicate.py``::

    def register(commands: Commands) -> None:
        p = commands.add("frobnicate", run, help="one line for vncards --help")
        p.add_argument("game", choices=list(GAMES))   # its own arguments

    def run(args: argparse.Namespace, console: Console) -> int:
        ...   # print to console; raise VncardsError for a one-line error (exit 2)
        return 0

and one line, its name, in :data:`COMMANDS`. :class:`~vncards.cli.base.Commands` gives every
command ``--ascii``; :func:`~vncards.cli.base.add_rules_argument` and
:func:`~vncards.cli.base.bots_help` are the arguments several commands share. What the terminal
shows (colours, ASCII) is :mod:`vncards.cli.terminal`; the ``play`` loop and its game families
are :mod:`vncards.cli.play`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from .. import __version__
from ..errors import VncardsError
from ..games import GAMES
from . import (
    arrange,
    bench_bots,
    deal,
    play,
    replay,
    rules,
    serve,
    simulate,
    train,
)
from .base import Command, Commands, Parser
from .terminal import AsciiFile, cannot_show_suits, colour_cards, to_ascii

__all__ = ["main", "COMMANDS", "colour_cards", "to_ascii"]

#: Every command, in the order ``vncards --help`` lists them (a tuple of the command modules).
#:
#: :meta hide-value:
COMMANDS: tuple[Command, ...] = (
    deal,
    play,
    simulate,
    bench_bots,
    replay,
    arrange,
    rules,
    serve,
    train,
)


def _parser() -> argparse.ArgumentParser:
    common = Parser(add_help=False)
    common.add_argument(
        "--ascii",
        action="store_true",
        default=argparse.SUPPRESS,
        help="plain ASCII output (10h for 10♥); automatic when the terminal cannot show ♠♥♦♣",
    )
    p = Parser(
        prog="vncards",
        description="Rules engines for Vietnamese card games: play, simulate, arrange, list rules.",
        epilog="Games: " + ", ".join(f"{n} ({g.title})" for n, g in GAMES.items()),
        parents=[common],
    )
    p.add_argument("--version", action="version", version=f"vncards {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands = Commands(sub, common)
    for command in COMMANDS:
        command.register(commands)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``vncards`` command with ``argv`` (default: the process arguments); returns the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    real_out, real_err = sys.stdout, sys.stderr
    # --ascii anywhere (or a terminal that cannot show suits) turns every output to ASCII,
    # argparse's help and errors included.
    if "--ascii" in args_list or cannot_show_suits(real_out):
        sys.stdout = AsciiFile(real_out)
    if "--ascii" in args_list or cannot_show_suits(real_err):
        sys.stderr = AsciiFile(real_err)
    try:
        return _run(args_list)
    finally:
        sys.stdout, sys.stderr = real_out, real_err


def _run(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    console = Console(highlight=False, file=sys.stdout, soft_wrap=True)
    try:
        return int(args.run(args, console))
    except (VncardsError, ValueError) as e:
        print(f"vncards {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except EOFError:
        # The prompt is still open on stdout: end its line so the error starts one of its own.
        console.print()
        sys.stdout.flush()
        print(f"vncards {args.command}: error: input ended before the game did", file=sys.stderr)
        return 2
