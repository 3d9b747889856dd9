"""``vncards arrange``: the best Mậu Binh arrangement of 13 cards."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.markup import escape

from ..games import spec
from .base import Commands

__all__ = ["register", "run"]


def register(commands: Commands) -> None:
    """Adds ``vncards arrange`` and its arguments."""
    a = commands.add(
        "arrange",
        run,
        help="best Mậu Binh arrangement of 13 cards",
        description="The best Mậu Binh arrangement of 13 cards (back | middle | front), the "
        "instant win to declare if the hand has one, and runner-up arrangements.",
    )
    a.add_argument("cards", help='13 cards, e.g. "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d"')
    a.add_argument(
        "--objective",
        choices=["equilibrium", "expected", "strongest"],
        default="equilibrium",
        help="equilibrium: the arrangement an opponent who knows it exploits least (default); "
        "expected: the most units expected against opponents who arrange well; "
        "strongest: the strongest back, then middle, then front that is not fouled",
    )
    a.add_argument("--alternatives", type=int, default=3, help="runner-up arrangements to show (default 3)")


def run(args: argparse.Namespace, console: Console) -> int:
    """Prints the arrangement report of the 13 cards."""
    mb = spec("maubinh").load()
    report = mb.arrangement_report(args.cards, objective=args.objective, alternatives=args.alternatives)
    console.print(escape(report))
    return 0
