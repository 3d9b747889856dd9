"""``vncards replay FILE``: step through the hands of a hand-history file in the terminal,
every card shown, or (``--seat N``) only what one seat saw.

Each hand is verified before it is shown (:func:`vncards.history.loads` replays it: a history
whose result does not follow from its actions is refused with the line that is wrong). Then
the hand is played again from its deal, one action at a time: Enter shows the next one, ``a``
the rest of the hand, ``n`` skips to the next hand, ``q`` quits. When the input ends (a pipe,
a script) the rest is shown without waiting; ``--all`` never waits.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..errors import VncardsError
from ..games import spec
from ..history import loads, start
from ..session import Hand
from ..words import payment_text
from .base import Commands
from .play import FAMILIES

__all__ = ["register", "run"]

_PROMPT = "[dim]Enter: next, a: the rest, n: next hand, q: quit[/dim]> "


def register(commands: Commands) -> None:
    """Adds ``vncards replay`` and its arguments."""
    r = commands.add(
        "replay",
        run,
        help="step through a hand history (every card, or one seat's view)",
        description="Replay the hands of FILE (written by vncards simulate --histories, or by a "
        "server with vncards.history): each hand is checked first (its deal, result and "
        "payments must follow from its actions), then shown action by action from the deal. "
        "Enter shows the next action, a the rest of the hand, n the next hand, q quits. With "
        "--seat N you see only what that seat saw: its own cards, the others' card counts, "
        "the table.",
        epilog="example: vncards replay hands.txt --seat 0",
    )
    r.add_argument("file", help="a hand-history file, text or JSON form")
    r.add_argument(
        "--seat", type=int, default=None, help="show only what this seat saw (default: every card)"
    )
    r.add_argument(
        "--hand",
        type=int,
        default=None,
        help="only hand N: its number (the hand: line), else its place in the file, from 1 "
        "(default: every hand)",
    )
    r.add_argument("--all", action="store_true", help="show every step without waiting")


def run(args: argparse.Namespace, console: Console) -> int:
    """Checks the file's hands, then shows each as chosen; the exit code is 0."""
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except OSError as e:
        raise VncardsError(f"cannot read {args.file}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise VncardsError(f"{args.file} is not UTF-8 text") from None
    hands = list(loads(text))
    if args.hand is not None:
        chosen = [h for h in hands if h.number == args.hand]
        if not chosen and 1 <= args.hand <= len(hands) and all(h.number is None for h in hands):
            chosen = [hands[args.hand - 1]]
        if not chosen:
            raise VncardsError(f"--hand {args.hand}: no such hand in {args.file} ({len(hands)} hands)")
        hands = chosen
    console.print(
        f"{len(hands)} hand{'s' if len(hands) != 1 else ''}, each checked: its result follows from its actions"
    )
    stepper = _Stepper(console, waiting=not args.all)
    for place, hand in enumerate(hands, 1):
        if not _replay(hand, place, args.seat, console, stepper):
            break
    return 0


class _Stepper:
    """Waits for the person between steps, until the input ends or they ask for the rest."""

    def __init__(self, console: Console, waiting: bool) -> None:
        self.console = console
        self.waiting = waiting
        self.rest_of_hand = False

    def next(self) -> str:
        """``"step"``, ``"hand"`` (skip to the next hand) or ``"quit"``."""
        if not self.waiting or self.rest_of_hand:
            return "step"
        try:
            answer = self.console.input(_PROMPT).strip().lower()
        except EOFError:
            self.waiting = False
            return "step"
        if answer in ("q", "quit", "exit"):
            return "quit"
        if answer in ("n", "next"):
            return "hand"
        if answer in ("a", "all"):
            self.rest_of_hand = True
        return "step"


def _header(hand: Hand, place: int, console: Console) -> None:
    game = hand.game
    game_spec = spec(hand.name)
    number = f"hand {hand.number}" if hand.number is not None else f"hand {place} of the file"
    console.print(f"\n[bold]{game_spec.title}[/bold], {number}, {game.players} seats")
    if hand.seats is not None:
        console.print("seats: " + ", ".join(f"{i}: {escape(s.label)}" for i, s in enumerate(hand.seats)))
    preset = game_spec.rules().to_dict()
    changed = {k: v for k, v in game.rules.to_dict().items() if preset.get(k) != v}
    if changed:
        console.print("house rules: " + escape(", ".join(f"{k}={v}" for k, v in changed.items())))


def _replay(hand: Hand, place: int, seat: int | None, console: Console, stepper: _Stepper) -> bool:
    """Shows one hand; False when the person quits."""
    game = hand.game
    if seat is not None and not 0 <= seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1} (this hand has {game.players} seats)")
    family = FAMILIES[game.GAME]
    _header(hand, place, console)
    table: Any = start(game)  # every game has describe(action)
    if seat is None:
        for s in range(game.players):
            console.print(f"  seat {s}: {family.cards(table._deal_text(s))}")
    else:
        console.print(f"you are seat {seat}: {family.cards(table.view(seat)['hand'] or [])}")
    shown = _show_events(family, table, seat, 0, console)
    stepper.rest_of_hand = False
    for number, action in enumerate(game.actions, 1):
        choice = stepper.next()
        if choice == "quit":
            return False
        if choice == "hand":
            return True
        if seat is None:
            console.print(f"[bold]{number}.[/bold] {escape(table.describe(action))}")
        table.apply(action)
        before = shown
        shown = _show_events(family, table, seat, shown, console)
        if seat is not None and shown == before:
            console.print(f"[bold]{number}.[/bold] [dim]seat {action.get('seat', '-')} acts[/dim]")
    if table.is_over:
        _show_result(hand, seat, console)
    else:
        console.print("[bold]the hand is still in play[/bold] at the end of its history")
    return True


def _show_events(family: Any, table: Any, seat: int | None, shown: int, console: Console) -> int:
    events = table.events if seat is None else table.events_for(seat)
    for e in events[shown:]:
        text = family.event_text(table, e, seat)
        if text:
            console.print(f"  {text}")
    return len(events)


def _show_result(hand: Hand, seat: int | None, console: Console) -> None:
    game = hand.game
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        who = "you" if s == seat else (escape(hand.seats[s].label) if hand.seats is not None else "")
        table.add_row(str(s), who, f"{units:+d}")
    console.print(table)
    for item in game.ledger:
        console.print(f"  {escape(payment_text(item, seat))}")
