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

from ...bots import bot_names, bot_view, make_bot
from ...errors import IllegalMoveError, InvalidCardError, VncardsError
from ...games import GAMES, new_game, spec
from ...session import Seat, Session
from ...words import MOVE_WORDS, glossary
from ..base import Commands, add_rules_argument, bots_help, rule_options
from ..terminal import to_ascii
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
        "arrangement is typed as back | middle | front. Words work too: p (pass, bỏ, qua, bỏ qua) to pass, "
        "y or n (có, không) at the Sâm declaration, y (ok) to confirm a Mậu Binh arrangement. "
        "h shows the table and the moves again, g the game's glossary, q quits. When only one "
        "move is legal (a pass, or your last card) it is made for you and shown. Sâm "
        "declarations and Tứ Sắc claim windows are moves like any other.",
        epilog="example: vncards play samloc --players 3 --bots montecarlo",
    )
    pl.add_argument("game", choices=list(GAMES), help="the game")
    pl.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default 4, or one more than the bots named)",
    )
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first; default 0)")
    pl.add_argument(
        "--bots",
        default=None,
        help="one bot for every other seat, or a,b,c: one per other seat in seat order (the "
        "seat count, unless --players gives it) (default: the game's solver, else greedy). "
        "Bots per game: " + bots_help(),
    )
    pl.add_argument("--seed", type=int, default=None, help="deterministic deal (default: random)")
    pl.add_argument(
        "--hands",
        type=int,
        default=1,
        help="play a match of this many hands, with running totals; each hand starts with what "
        "the rules carry over (the winner leads, or deals) (default 1)",
    )
    add_rules_argument(pl)


def _default_bot(game: str) -> str:
    """The strongest cheap bot of ``game``: its solver, else greedy, else random."""
    names = bot_names(game)
    return next((n for n in ("solver", "greedy") if n in names), "random")


def _seating(args: argparse.Namespace) -> tuple[Any, list[str]]:
    """The game, and each seat's player: "you" at ``--seat``, the ``--bots`` elsewhere (one
    name for every other seat, or one per other seat in seat order; a list sets the seat count
    when ``--players`` does not, and must match it when it does, as in ``simulate``)."""
    names = [n.strip() for n in (args.bots or "").split(",") if n.strip()] or [_default_bot(args.game)]
    players = args.players
    if len(names) > 1:
        if players is None:
            players = len(names) + 1
        elif len(names) != players - 1:
            raise VncardsError(
                f"--bots names {len(names)} bots for the {players - 1} other seats of {players}: "
                "name one bot per other seat, or a single bot for all of them"
            )
    game = new_game(args.game, players, rule_options(args.game, args.rules), seed=args.seed)
    if not 0 <= args.seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1}")
    others = iter(names * game.players if len(names) == 1 else names)
    seats = ["you" if s == args.seat else next(others) for s in range(game.players)]
    return game, seats


def _refusal(error: Exception) -> str:
    return f"not a card: {error}" if isinstance(error, InvalidCardError) else str(error)


def _folded(text: str) -> str:
    """Text as typed words are compared: lower case, no accents, single spaces."""
    return " ".join(to_ascii(text).lower().split())


def _word_move(game: Any, answer: str, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The move a word names (``p``, ``bỏ qua``, ``y``, ``không``...): the legal one, else (for
    the engine to explain) the first of this game's moves it could mean; None if the answer is
    no move word of this game (``n`` is no move in Mậu Binh: the arrangement is typed)."""
    kinds = [
        kind
        for kind, words in MOVE_WORDS.items()
        if kind in game.ACTIONS and _folded(answer) in map(_folded, words)
    ]
    for kind in kinds:
        for action in legal:
            if action["type"] == kind:
                return action
    return {"type": kinds[0], "seat": seat} if kinds else None


def _show_moves(family: Family, game: Any, legal: list[dict[str, Any]], console: Console) -> None:
    for i, action in enumerate(legal, 1):
        words = MOVE_WORDS.get(action["type"])
        key = f"  [dim]{escape(f'[{words[0]}]')}[/dim]" if words else ""
        console.print(f"  {i:>3}. {family.action_text(game, action)}{key}")
    hint = family.moves_hint(legal)
    if hint:
        console.print(f"  {hint}")


def _show_glossary(family: Family, game: str, console: Console) -> None:
    words = glossary(game)
    width = max(len(vietnamese) for vietnamese, _ in words)
    console.print(f"[bold]{spec(game).title}: glossary[/bold]")
    for vietnamese, english in words:
        console.print(
            f"  [bold]{escape(vietnamese)}[/bold]{' ' * (width - len(vietnamese))}  {escape(english)}"
        )
    note = family.glossary_note()
    if note:
        console.print(f"  {escape(note)}")


_HELP = "type a move's number or the cards; h shows the table and the moves again, g the glossary, q quits"


def _ask(
    console: Console, family: Family, game: Any, name: str, seat: int, legal: list[dict[str, Any]]
) -> dict[str, Any] | None:
    """The human's choice among ``legal`` (or a typed move the engine accepts); None: quit."""
    view = game.view(seat)
    family.show_table(game, view, console)
    _show_moves(family, game, legal, console)
    while True:
        answer = console.input("your move> ").strip()
        word = _folded(answer)
        if word in ("q", "quit", "exit"):
            return None
        if word in ("h", "?", "help"):
            family.show_table(game, view, console)
            _show_moves(family, game, legal, console)
            continue
        if word in ("g", "glossary"):
            _show_glossary(family, name, console)
            continue
        if answer.isdigit():
            if 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            console.print(f"[yellow]{answer} is not a move: type a number from 1 to {len(legal)}[/yellow]")
            continue
        if not answer:
            continue
        try:
            action = _word_move(game, answer, seat, legal)
            hint = family.answer_hint(legal)
            if hint is not None and action not in legal:
                raise IllegalMoveError("invalid_action", hint)
            if action is None:
                action = family.typed_action(game, seat, answer, legal)
            game.verify(action)
            return action
        except VncardsError as refused:
            console.print(
                f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow] "
                f"(type a number from 1 to {len(legal)}, the cards, h to show the moves again, or q to quit)"
            )


def run(args: argparse.Namespace, console: Console) -> int:
    """Plays one hand (or a match of ``--hands``): you in ``--seat``, bots in the other seats;
    prints the settlement (and the running totals)."""
    if args.hands < 1:
        raise VncardsError("--hands must be at least 1")
    game, players = _seating(args)
    you = args.seat
    family = FAMILIES[game.GAME]
    bots = {
        s: make_bot(name, args.game, seed=None if args.seed is None else args.seed + s, rules=game.rules)
        for s, name in enumerate(players)
        if s != you
    }
    others = ", ".join(f"seat {s}: {name}" for s, name in enumerate(players) if s != you)
    console.print(
        f"[bold]{spec(args.game).title}[/bold], {game.players} seats: you are seat {you}; {others}."
    )
    console.print(f"[dim]{_HELP}.[/dim]")
    if args.hands == 1:
        if _play_hand(console, family, game, args.game, you, bots):
            _show_result(family, game, you, players, console)
        return 0
    # A match: a session deals every hand (keyed from --seed) with what the rules carry over.
    seats = [Seat("you") if s == you else Seat(bot=name) for s, name in enumerate(players)]
    session = Session(args.game, seats, rules=game.rules, seed=args.seed)
    for number in range(1, args.hands + 1):
        console.print(f"\n[bold]hand {number} of {args.hands}[/bold]")
        if not _play_hand(console, family, session.game, args.game, you, bots):
            break
        _show_result(family, session.game, you, players, console)
        console.print("totals: " + _totals_text(session.totals, you, players))
        if number < args.hands:
            session.next_hand()
            if console.input("[dim]Enter: the next hand, q: quit[/dim]> ").strip().lower() in ("q", "quit"):
                break
    return 0


def _totals_text(totals: list[int], you: int, players: list[str]) -> str:
    """``you -3, seat 1 (greedy) +26, ...``: each seat named, its bot beside it."""
    return ", ".join(
        f"{'you' if s == you else f'seat {s} ({players[s]})'} {units:+d}" for s, units in enumerate(totals)
    )


def _play_hand(
    console: Console, family: Family, game: Any, name: str, you: int, bots: dict[int, Any]
) -> bool:
    """Plays ``game`` to its end with you at ``you``; False when you quit."""
    shown = 0

    def show_events() -> None:
        nonlocal shown
        events = game.events_for(you)  # what your seat may know, never another's secrets
        for e in events[shown:]:
            text = family.event_text(game, e, you)
            if isinstance(text, str):
                console.print(f"  {text}")
            elif text is not None:
                console.print(text)
        shown = len(events)

    while not game.is_over:
        show_events()
        pending = game.pending_seats
        seat = you if you in pending else pending[0]
        legal = game.legal_actions(seat)
        if seat != you:
            game.apply(bots[seat].choose(bot_view(game, seat), legal))
            continue
        if len(legal) == 1:
            console.print(f"  [dim]{family.forced_text(game, game.view(seat), legal[0])}[/dim]")
            before = len(game.events_for(you))
            game.apply(legal[0])
            made = game.events_for(you)[before : before + 1]
            if made and made[0].get("type") == legal[0]["type"] and made[0].get("seat") == you:
                shown = before + 1  # the line above said it
            continue
        choice = _ask(console, family, game, name, seat, legal)
        if choice is None:
            console.print("game abandoned")
            return False
        if not family.accept(console, game, seat, choice):
            continue
        try:
            game.apply(choice)
        except VncardsError as refused:
            console.print(f"[yellow]not allowed: {escape(_refusal(refused))}[/yellow]")
    show_events()
    return True


def _show_result(family: Family, game: Any, you: int, players: list[str], console: Console) -> None:
    result = getattr(game, "result", None)
    if isinstance(result, dict) and result.get("draw"):
        console.print("[bold]hand drawn (hòa)[/bold]: nobody wins, nobody pays")
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        table.add_row(str(s), players[s], f"{units:+d}")
    console.print(table)
    family.show_payments(game, you, players, console)
