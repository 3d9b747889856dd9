"""The ``vncards`` command: play against bots, simulate bot games, solve Mậu Binh hands.

Every error is one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import __version__
from .bots import make_bot
from .cards import cards_text
from .errors import VncardsError
from .games import GAMES, new_game, parse_rule_options, spec
from .simulate import simulate

__all__ = ["main", "colour_cards"]


def colour_cards(text: str) -> str:
    """Rich markup that draws ♦ and ♥ cards in red: ``"10♥ 3♠"`` -> ``"[red]10♥[/red] 3♠"``."""
    out = []
    for token in text.split(" "):
        out.append(f"[bold red]{escape(token)}[/bold red]" if token[-1:] in "♦♥" and token else escape(token))
    return " ".join(out)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="vncards",
        description="Rules engines for Vietnamese card games: play, simulate, arrange.",
        epilog="Games: " + ", ".join(f"{n} ({g.title})" for n, g in GAMES.items()),
    )
    p.add_argument("--version", action="version", version=f"vncards {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    d = sub.add_parser("deal", help="shuffle and deal a 52-card game's hands (a quick demo)")
    d.add_argument("--players", type=int, default=4, help="seats to deal (2-5)")
    d.add_argument("--cards", type=int, default=13, help="cards per seat")
    d.add_argument("--seed", type=int, default=None, help="deterministic deal (default: OS random)")

    pl = sub.add_parser("play", help="play a game in the terminal against bots")
    pl.add_argument("game", choices=sorted(GAMES))
    pl.add_argument("--players", type=int, default=None, help="number of seats")
    pl.add_argument("--seat", type=int, default=0, help="your seat (0 = first)")
    pl.add_argument("--bots", default="greedy", help="bot for the other seats, or a,b,c per seat")
    pl.add_argument("--seed", type=int, default=None)
    pl.add_argument("--rules", nargs="*", default=[], metavar="K=V", help="house-rule options")

    s = sub.add_parser("simulate", help="bot-vs-bot games with a progress bar and a summary")
    s.add_argument("game", choices=sorted(GAMES))
    s.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    s.add_argument("--bots", default="random", help="comma-separated bot per seat, e.g. greedy,random")
    s.add_argument("--players", type=int, default=None)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--rules", nargs="*", default=[], metavar="K=V", help="house-rule options")
    s.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    s.add_argument("--json", action="store_true", help="print the summary as JSON")

    a = sub.add_parser("arrange", help="best Mậu Binh arrangement of 13 cards")
    a.add_argument("cards", help='13 cards, e.g. "AS KS QS JS TS 9h 9d 4c 4d 7s 7h 2c 3d"')
    a.add_argument("--objective", choices=["expected", "strongest"], default="expected")
    a.add_argument("--alternatives", type=int, default=3, help="runner-up arrangements to show")
    return p


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


def _bots_for(game: str, text: str, seats: int, seed: int | None) -> list[Any]:
    names = [n.strip() for n in text.split(",") if n.strip()] or ["random"]
    return [
        make_bot(names[s % len(names)], game, seed=None if seed is None else seed + s) for s in range(seats)
    ]


def _play(args: argparse.Namespace, console: Console) -> int:
    game = new_game(args.game, args.players, parse_rule_options(args.rules), seed=args.seed)
    if not 0 <= args.seat < game.players:
        raise VncardsError(f"--seat must be 0..{game.players - 1}")
    bots = _bots_for(args.game, args.bots, game.players, args.seed)
    console.print(
        f"[bold]{spec(args.game).title}[/bold] — you are seat {args.seat}. Type a move number, or q to quit."
    )
    shown = 0
    while not game.is_over:
        for e in game.events[shown:]:
            console.print(f"  [dim]{escape(_event_text(e))}[/dim]")
        shown = len(game.events)
        seat = game.pending_seats[0]  # type: ignore[attr-defined]
        legal = game.legal_actions(seat)  # type: ignore[attr-defined]
        if seat != args.seat:
            game.apply(bots[seat].choose(game.view(seat), legal))
            continue
        view = game.view(seat)
        hand = view.get("hand")
        if isinstance(hand, list):
            hand = " ".join(map(str, hand))
        if hand:
            console.print(f"your hand: {colour_cards(str(hand))}")
        for i, action in enumerate(legal, 1):
            console.print(f"  {i:>3}. {colour_cards(game.describe(action))}")  # type: ignore[attr-defined]
        while True:
            answer = console.input("your move> ").strip().lower()
            if answer in ("q", "quit", "exit"):
                return 0
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                game.apply(legal[int(answer) - 1])
                break
            console.print(f"[yellow]enter a number from 1 to {len(legal)}, or q[/yellow]")
    for e in game.events[shown:]:
        console.print(f"  [dim]{escape(_event_text(e))}[/dim]")
    table = Table(title="Settlement")
    table.add_column("seat")
    table.add_column("player")
    table.add_column("units", justify="right")
    for s, units in enumerate(game.settlement or []):
        table.add_row(str(s), "you" if s == args.seat else bots[s].name, f"{units:+d}")
    console.print(table)
    return 0


def _event_text(event: dict[str, Any]) -> str:
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
    return f"{event.get('type')}: {fields}"


def _simulate(args: argparse.Namespace, console: Console) -> int:
    if args.games < 1:
        raise VncardsError("--games must be at least 1")
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

        print(json.dumps({**summary.to_dict(), "seconds": round(elapsed, 3)}))
        return 0
    table = Table(
        title=f"{spec(args.game).title}: {summary.games} games in {elapsed:.1f}s "
        f"({summary.games / elapsed:,.0f} games/s)"
    )
    table.add_column("bot")
    table.add_column("seats played", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("mean units/game", justify="right")
    for name, st in sorted(summary.bots.items()):
        table.add_row(
            name, str(st.seats_played), str(st.wins), f"{st.win_rate:.1%}", f"{st.mean:+.2f} ± {st.ci95:.2f}"
        )
    console.print(table)
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


COMMANDS = {"deal": _deal, "play": _play, "simulate": _simulate, "arrange": _arrange}


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
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
