"""The ``vncards`` command: play against bots, simulate bot games, solve Mậu Binh hands.

Every error is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .bots import bot_names, make_bot
from .cards import cards_text
from .errors import IllegalMoveError, VncardsError
from .games import GAMES, new_game, parse_rule_options, spec
from .simulate import simulate

__all__ = ["main", "colour_cards"]


_TUSAC_COLOURS = {"W": "bold white", "Y": "bold yellow", "R": "bold red", "G": "bold green"}


def colour_cards(text: str) -> str:
    """Rich markup drawing ♦ and ♥ cards red (and Tứ Sắc codes in their colour):
    ``"10♥ 3♠"`` -> ``"[bold red]10♥[/bold red] 3♠"``.

    >>> colour_cards("10♥ 3♠")
    '[bold red]10♥[/bold red] 3♠'
    >>> colour_cards("PW KG")
    '[bold white]PW[/bold white] [bold green]KG[/bold green]'
    """
    out = []
    for token in text.split(" "):
        style = None
        if token[-1:] in ("♦", "♥"):
            style = "bold red"
        elif len(token) == 2 and token.isupper() and token[-1] in _TUSAC_COLOURS:
            style = _TUSAC_COLOURS[token[-1]]
        out.append(f"[{style}]{escape(token)}[/{style}]" if style else escape(token))
    return " ".join(out)


class _Parser(argparse.ArgumentParser):
    """argparse with errors on one line (``vncards: error: ...``) and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="vncards",
        description="Rules engines for Vietnamese card games: play, simulate, arrange.",
        epilog="Games: " + ", ".join(f"{n} ({g.title})" for n, g in GAMES.items()),
    )
    p.add_argument("--version", action="version", version=f"vncards {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    d = sub.add_parser("deal", help="shuffle and deal a 52-card game's hands (a quick demo)")
    d.add_argument("--players", type=int, default=4, help="seats to deal (2-5)")
    d.add_argument("--cards", type=int, default=13, help="cards per seat")
    d.add_argument("--seed", type=int, default=None, help="deterministic deal (default: OS random)")

    pl = sub.add_parser(
        "play",
        help="play a hand in the terminal against bots",
        description="Play one hand against bots. Your hand is shown with suit colours and "
        "your legal moves are numbered: type a number (h: show the table again, q: quit). "
        "Sâm declarations and Tứ Sắc claim windows are moves like any other.",
        epilog="example: vncards play samloc --players 3 --bots montecarlo",
    )
    pl.add_argument("game", choices=sorted(GAMES), help="the game")
    pl.add_argument("--players", type=int, default=None, help="number of seats (default 4)")
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    pl.add_argument(
        "--bots",
        default=None,
        help="bot for the other seats, or a,b,c for each seat in turn (default: greedy; solver for maubinh)",
    )
    pl.add_argument("--seed", type=int, default=None, help="deterministic deal (default: random)")
    pl.add_argument("--rules", nargs="*", default=[], metavar="K=V", help="house-rule options")

    s = sub.add_parser(
        "simulate",
        help="bot-vs-bot games on all cores, with a progress bar and a summary",
        description="Play GAMES games between bots, one bot name per seat (rotated between "
        "games so no bot keeps a seat), and print per bot: win rate, mean units per game "
        "with a 95%% confidence interval, and its instant wins, bombs, cóng, Sâm... "
        "Bots: random, greedy (every game), montecarlo (tienlen, tienlen-north, samloc).",
        epilog="example: vncards simulate tienlen --games 2000 --bots montecarlo,greedy,greedy,greedy",
    )
    s.add_argument("game", choices=sorted(GAMES), help="the game")
    s.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    s.add_argument(
        "--bots", default="random", help="comma-separated bot per seat, e.g. greedy,random,greedy,random"
    )
    s.add_argument("--players", type=int, default=None, help="seats (default: one per bot named)")
    s.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    s.add_argument("--rules", nargs="*", default=[], metavar="K=V", help="house-rule options")
    s.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")

    a = sub.add_parser("arrange", help="best Mậu Binh arrangement of 13 cards")
    a.add_argument("cards", help='13 cards, e.g. "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d"')
    a.add_argument("--objective", choices=["expected", "strongest"], default="expected")
    a.add_argument("--alternatives", type=int, default=3, help="runner-up arrangements to show")
    _add_serve_parser(sub)
    return p


def _add_serve_parser(sub: Any) -> None:
    sv = sub.add_parser(
        "serve",
        help="run the game server and browser table (needs the 'server' extra)",
        description="Run the reference game server: a lobby and browser tables for every game at "
        "http://HOST:PORT, bots in empty seats, tables kept in a SQLite file across restarts.",
        epilog="example: vncards serve --port 8000 --db tables.sqlite",
    )
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sv.add_argument("--db", default="tables.sqlite", help="SQLite file of the tables (default tables.sqlite)")
    sv.add_argument("--bot-delay", type=float, default=0.6, help="seconds a bot waits before it acts")
    sv.add_argument("--turn-seconds", type=float, default=None, help="turn timer (default 30; Mậu Binh 45)")


def _serve(args: argparse.Namespace, console: Console) -> int:
    try:
        from .server import serve
    except ImportError as e:
        raise VncardsError(f"the server needs its extra: pip install 'vncards[server]' ({e})") from None
    serve(args.host, args.port, args.db, bot_delay=args.bot_delay, turn_seconds=args.turn_seconds)
    return 0


def _deal(args: argparse.Namespace, console: Console) -> int:
    from ._core import Rng

    if not 2 <= args.players <= 5 or args.cards < 1 or args.players * args.cards > 52:
        raise VncardsError("need 2-5 players and at most 52 cards in all")
    rng = Rng(args.seed)
    order = rng.permutation(52)
    for seat in range(args.players):
        mask = sum(1 << c for c in order[seat * args.cards : (seat + 1) * args.cards])
        console.print(f"seat {seat}: {colour_cards(cards_text(mask))}")
    return 0


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


def _show_table(game: Any, view: dict[str, Any], console: Console) -> None:
    """The public state the human needs: the table or offer, and each seat's card count."""
    counts = view.get("hand_counts")
    if counts:
        console.print("cards held: " + ", ".join(f"seat {s}: {c}" for s, c in enumerate(counts)))
    table = view.get("table")
    if isinstance(table, dict):
        console.print(f"to beat: {colour_cards(' '.join(table['cards']))} (seat {table['seat']})")
    offer = view.get("offer")
    if isinstance(offer, dict):
        console.print(f"on offer: {colour_cards(offer['card'])} ({offer['source']}, seat {offer['seat']})")
    for s, melds in enumerate(view.get("exposed") or []):
        if melds:
            shown = "  ".join(colour_cards(" ".join(m["cards"])) for m in melds)
            console.print(f"seat {s} melds: {shown}")
    hand = view.get("hand")
    if hand:
        console.print(f"[bold]your hand:[/bold] {colour_cards(' '.join(map(str, hand)))}")


def _typed_action(game: Any, seat: int, answer: str) -> dict[str, Any] | None:
    """A move typed out instead of picked by number: a Mậu Binh arrangement
    ``back | middle | front`` (5, 5 and 3 cards)."""
    parts = [p.strip() for p in answer.split("|")]
    if getattr(game, "GAME", "") == "maubinh" and len(parts) == 3:
        return {"type": "arrange", "seat": seat, "back": parts[0], "middle": parts[1], "front": parts[2]}
    return None


def _ask(console: Console, game: Any, seat: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The human's choice among ``legal`` (or a typed move); None: quit."""
    view = game.view(seat)
    _show_table(game, view, console)
    for i, action in enumerate(legal, 1):
        text = game.describe(action).removeprefix(f"seat {action.get('seat')} ")
        console.print(f"  {i:>3}. {colour_cards(text)}")
    if getattr(game, "GAME", "") == "maubinh":
        console.print("  (or type your own arrangement: back | middle | front)")
    while True:
        answer = console.input("your move> ").strip()
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.lower() in ("h", "?", "help"):
            _show_table(game, view, console)
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        typed = _typed_action(game, seat, answer)
        if typed is not None:
            return typed
        console.print(
            f"[yellow]{escape(repr(answer))} is not a move: type a number from 1 to {len(legal)}"
            ", h to show the table, or q to quit[/yellow]"
        )


def _play(args: argparse.Namespace, console: Console) -> int:
    game = new_game(args.game, args.players, parse_rule_options(args.rules), seed=args.seed)
    if not 0 <= args.seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1}")
    bots = _bots_for(args.game, args.bots, game.players, args.seed, game.rules)
    console.print(
        f"[bold]{spec(args.game).title}[/bold], {game.players} seats: you are seat {args.seat}; "
        "type a move number, h to show the table, q to quit."
    )
    shown = 0
    while not game.is_over:
        for e in game.events[shown:]:
            console.print(f"  {_event_text(e)}")
        shown = len(game.events)
        pending = game.pending_seats
        seat = args.seat if args.seat in pending else pending[0]
        legal = game.legal_actions(seat)
        if seat != args.seat:
            game.apply(bots[seat].choose(game.view(seat), legal))
            continue
        choice = _ask(console, game, seat, legal)
        if choice is None:
            console.print("game abandoned")
            return 0
        try:
            game.apply(choice)
        except IllegalMoveError as refused:
            console.print(f"[yellow]not allowed: {escape(str(refused))}[/yellow]")
    for e in game.events[shown:]:
        console.print(f"  {_event_text(e)}")
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        table.add_row(str(s), "you" if s == args.seat else bots[s].name, f"{units:+d}")
    console.print(table)
    ledger = Table(title="Payments")
    for col in ("from", "to", "units", "reason"):
        ledger.add_column(col)
    for item in game.ledger:
        ledger.add_row(str(item["from"]), str(item["to"]), str(item["units"]), item["reason"])
    if game.ledger:
        console.print(ledger)
    return 0


def _event_text(event: dict[str, Any]) -> str:
    """Rich markup of one event: its type, then its fields with the cards in colour."""

    def value(key: str, v: Any) -> str:
        if key in ("card", "cards") and isinstance(v, (str, list)):
            return colour_cards(v if isinstance(v, str) else " ".join(map(str, v)))
        return escape(str(v))

    fields = ", ".join(f"{k}={value(k, v)}" for k, v in event.items() if k != "type")
    return f"[dim]{escape(str(event.get('type')))}:[/dim] {fields}"


#: Per-bot event columns of the simulate summary (shown when they occurred in the run).
_NOTABLE = {
    "instant_win": "instant wins",
    "cut": "bombs (chặt)",
    "cong": "cóng",
    "declare_sam": "Sâm declared",
    "sam_success": "Sâm made",
    "sam_blocked": "blocked a Sâm",
    "finish_on_two": "out on a 2",
    "win": "wins (tới)",
}


def _simulate(args: argparse.Namespace, console: Console) -> int:
    if args.games < 1:
        raise VncardsError("--games must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise VncardsError("--jobs must be at least 1")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=args.json or not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task(f"{args.game}", total=args.games)
        summary = simulate(
            args.game,
            args.games,
            names,
            players=args.players,
            options=parse_rule_options(args.rules),
            seed=args.seed,
            jobs=args.jobs,
            progress=lambda n: bar.advance(task, n),
        )
    elapsed = time.perf_counter() - start
    if args.json:
        import json

        print(json.dumps({**summary.to_dict(), "seconds": round(elapsed, 3)}, ensure_ascii=False))
        return 0
    table = Table(
        title=f"{spec(args.game).title}: {summary.games} games in {elapsed:.1f}s "
        f"({summary.games / elapsed:,.0f} games/s)"
    )
    for col in ("bot", "seats", "wins", "win rate", "units/game (95% CI)"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    bots = sorted(summary.bots.items())
    for name, st in bots:
        table.add_row(
            name,
            str(st.seats_played),
            str(st.wins),
            f"{st.win_rate:.1%} ± {st.win_ci95:.1%}",
            f"{st.mean:+.2f} ± {st.ci95:.2f}",
        )
    console.print(table)
    notable = [k for k in _NOTABLE if any(st.events.get(k) for st in summary.bots.values())]
    if notable:
        per_bot = Table(title="Per bot (events of its seats)")
        per_bot.add_column("event")
        for name, _ in bots:
            per_bot.add_column(name, justify="right")
        for k in notable:
            per_bot.add_row(_NOTABLE[k], *(str(st.events.get(k, 0)) for _, st in bots))
        console.print(per_bot)
    events = Table(title="Events")
    events.add_column("event")
    events.add_column("count", justify="right")
    events.add_column("per game", justify="right")
    for kind, count in sorted(summary.events.items()):
        events.add_row(kind, str(count), f"{count / summary.games:.2f}")
    console.print(events)
    return 0


def _arrange(args: argparse.Namespace, console: Console) -> int:
    mb = spec("maubinh").load()
    report = mb.arrangement_report(args.cards, objective=args.objective, alternatives=args.alternatives)
    console.print(report)
    return 0


COMMANDS = {"deal": _deal, "play": _play, "simulate": _simulate, "arrange": _arrange, "serve": _serve}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    console = Console(highlight=False)
    try:
        return COMMANDS[args.command](args, console)
    except (VncardsError, ValueError) as e:
        print(f"vncards {args.command}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except EOFError:
        print(f"vncards {args.command}: error: input ended before the game did", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
