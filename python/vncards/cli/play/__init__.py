"""``vncards play``: one hand in the terminal against bots.

The loop is the same for every game: events since the last prompt in words, bots act in their
seats, a forced move is made for you, else your legal moves are numbered and you pick one or
type it out. What differs between games (how cards, moves, events and the table are shown, how
a typed move is read) is a :class:`~vncards.cli.play.family.Family`, one module per family of
games: :mod:`~vncards.cli.play.shedding` (Tiến Lên, Sâm Lốc), :mod:`~vncards.cli.play.maubinh`,
:mod:`~vncards.cli.play.tusac`.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ...bots import bot_names, make_bot
from ...errors import InvalidCardError, VncardsError
from ...games import GAMES, new_game, parse_rule_options, spec
from ...words import payment_text
from ..base import Commands, add_rules_argument, bots_help
from .family import Family
from .maubinh import MauBinh
from .shedding import Shedding
from .tusac import TuSac

__all__ = ["FAMILIES", "register", "run"]

#: The family of each game class (``Game.GAME``).
FAMILIES: dict[str, Family] = {
    "tienlen": Shedding(),
    "samloc": Shedding(),
    "maubinh": MauBinh(),
    "tusac": TuSac(),
}


def register(commands: Commands) -> None:
    """Adds ``vncards play`` and its arguments."""
    pl = commands.add(
        "play",
        run,
        help="play a hand in the terminal against bots",
        description="Play one hand against bots. Your legal moves are numbered: type a number, "
        "or type the cards themselves (3s 3c, 3♠3♣, or a Tứ Sắc card by name); a Mậu Binh "
        "arrangement is typed as back | middle | front. h shows the table and the moves "
        "again, q quits. A move that is forced (only a pass is legal) is made for you and "
        "shown. Sâm declarations and Tứ Sắc claim windows are moves like any other.",
        epilog="example: vncards play samloc --players 3 --bots montecarlo",
    )
    pl.add_argument("game", choices=list(GAMES), help="the game")
    pl.add_argument("--players", type=int, default=None, help="number of seats (default 4)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    pl.add_argument(
        "--bots",
        default=None,
        help="bot for the other seats, or a,b,c for each seat in turn "
        "(default: the game's solver, else greedy). Bots per game: " + bots_help(),
    )
    pl.add_argument("--seed", type=int, default=None, help="deterministic deal (default: random)")
    add_rules_argument(pl)


def _default_bot(game: str) -> str:
    """The strongest cheap bot of ``game``: its solver, else greedy, else random."""
    names = bot_names(game)
    return next((n for n in ("solver", "greedy") if n in names), "random")


def _bots_for(game: str, text: str | None, seats: int, seed: int | None, rules: Any) -> list[Any]:
    names = [n.strip() for n in (text or "").split(",") if n.strip()] or [_default_bot(game)]
    return [
        make_bot(names[s % len(names)], game, seed=None if seed is None else seed + s, rules=rules)
        for s in range(seats)
    ]


def _refusal(error: Exception) -> str:
    return f"not a card: {error}" if isinstance(error, InvalidCardError) else str(error)


def _show_moves(family: Family, game: Any, legal: list[dict[str, Any]], console: Console) -> None:
    for i, action in enumerate(legal, 1):
        console.print(f"  {i:>3}. {family.action_text(game, action)}")
    hint = family.moves_hint(legal)
    if hint:
        console.print(f"  {hint}")


def _ask(
    console: Console, family: Family, game: Any, seat: int, legal: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The human's choice among ``legal`` (or a typed move the engine accepts); None: quit."""
    view = game.view(seat)
    family.show_table(game, view, console)
    _show_moves(family, game, legal, console)
    while True:
        answer = console.input("your move> ").strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.lower() in ("h", "?", "help"):
            family.show_table(game, view, console)
            _show_moves(family, game, legal, console)
            continue
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            console.print(f"[yellow]{answer} is not a move: type a number from 1 to {len(legal)}[/yellow]")
            continue
        if not answer:
            continue
        try:
            action = family.typed_action(game, seat, answer, legal)
            game.verify(action)
            return action
        except VncardsError as refused:
            console.print(
                f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow] "
                f"(type a number from 1 to {len(legal)}, the cards, h to show the moves again, or q to quit)"
            )


def run(args: argparse.Namespace, console: Console) -> int:
    """Plays one hand: you in ``--seat``, bots in the other seats; prints the settlement."""
    game = new_game(args.game, args.players, parse_rule_options(args.rules), seed=args.seed)
    if not 0 <= args.seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1}")
    you = args.seat
    family = FAMILIES[game.GAME]
    bots = _bots_for(args.game, args.bots, game.players, args.seed, game.rules)
    console.print(
        f"[bold]{spec(args.game).title}[/bold], {game.players} seats: you are seat {you}; "
        "type a move number or the cards, h to show the moves again, q to quit."
    )
    shown = 0

    def show_events() -> None:
        nonlocal shown
        for e in game.events[shown:]:
            text = family.event_text(game, e, you)
            if text:
                console.print(f"  {text}")
        shown = len(game.events)

    while not game.is_over:
        show_events()
        pending = game.pending_seats
        seat = you if you in pending else pending[0]
        legal = game.legal_actions(seat)
        if seat != you:
            game.apply(bots[seat].choose(game.view(seat), legal))
            continue
        if len(legal) == 1 and legal[0]["type"] == "pass":
            console.print(f"  [dim]{family.forced_pass}: you pass (forced)[/dim]")
            game.apply(legal[0])
            continue
        choice = _ask(console, family, game, seat, legal)
        if choice is None:
            console.print("game abandoned")
            return 0
        try:
            game.apply(choice)
        except VncardsError as refused:
            console.print(f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow]")
    show_events()
    _show_result(game, you, bots, console)
    return 0


def _show_result(game: Any, you: int, bots: list[Any], console: Console) -> None:
    result = getattr(game, "result", None)
    if isinstance(result, dict) and result.get("draw"):
        console.print("[bold]hand drawn (hòa)[/bold]: nobody wins, nobody pays")
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        table.add_row(str(s), "you" if s == you else bots[s].name, f"{units:+d}")
    console.print(table)
    if game.ledger:
        console.print("[bold]Payments[/bold]")
        for item in game.ledger:
            console.print(f"  {escape(payment_text(item, you))}")
