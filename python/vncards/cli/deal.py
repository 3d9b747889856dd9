"""``vncards deal``: shuffle and deal a 52-card game's hands (a quick demo)."""

from __future__ import annotations

import argparse

from rich.console import Console

from ..cards import cards_text
from ..errors import VncardsError
from .base import Commands
from .terminal import colour_cards

__all__ = ["register", "run"]


def register(commands: Commands) -> None:
    """Adds ``vncards deal`` and its arguments."""
    d = commands.add("deal", run, help="shuffle and deal a 52-card game's hands (a quick demo)")
    d.add_argument("--players", type=int, default=4, help="seats to deal, 2-5 (default 4)")
    d.add_argument(
        "--cards", type=int, default=None, help="cards per seat (default 13, or as many as 52 cards allow)"
    )
    d.add_argument("--seed", type=int, default=None, help="deterministic deal (default: OS random)")


def run(args: argparse.Namespace, console: Console) -> int:
    """Deals ``--players`` hands of ``--cards`` cards and prints them."""
    from .._core import Rng

    if not 2 <= args.players <= 5:
        raise VncardsError(f"deal needs 2-5 players, not {args.players}")
    cards = args.cards if args.cards is not None else min(13, 52 // args.players)
    if cards < 1:
        raise VncardsError(f"--cards must be at least 1, not {cards}")
    if args.players * cards > 52:
        raise VncardsError(
            f"{args.players} players × {cards} cards = {args.players * cards} cards, but the deck has 52: "
            f"use --cards {52 // args.players} or fewer"
        )
    rng = Rng(args.seed)
    order = rng.permutation(52)
    for seat in range(args.players):
        mask = sum(1 << c for c in order[seat * cards : (seat + 1) * cards])
        console.print(f"seat {seat}: {colour_cards(cards_text(mask))}")
    return 0
