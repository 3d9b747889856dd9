"""``vncards simulate``: bot-against-bot games on all cores, with a progress bar and a summary
per bot position."""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import Executor
from contextlib import AbstractContextManager, nullcontext
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..errors import VncardsError
from ..games import GAMES, spec
from ..simulate import Summary, simulate
from ..words import term
from .base import Commands, add_rules_argument, bots_help, rule_options

__all__ = ["NOTABLE", "register", "run"]

#: Per-bot event columns of the summary (shown when they occurred in the run).
NOTABLE = (
    "instant_win",
    "cut",
    "cong",
    "declare_sam",
    "sam_success",
    "sam_blocked",
    "finish_on_two",
    "win",
    "draw",
)


def register(commands: Commands) -> None:
    """Adds ``vncards simulate`` and its arguments."""
    s = commands.add(
        "simulate",
        run,
        help="bot-vs-bot games on all cores, with a progress bar and a summary",
        description="Play GAMES games between bots, one bot name per seat (rotated between "
        "games so no bot keeps a seat), and print per bot position: win rate with its 95% "
        "Wilson score interval, mean units per game with a 95% confidence interval, and its "
        "instant wins, bombs, cóng, Sâm... With --duplicate each deal is played once per "
        "rotation of the bots through the seats, which cancels most of the luck of the cards. "
        "Bots per game: " + bots_help() + ".",
        epilog="example: vncards simulate tienlen --games 2000 --bots montecarlo,greedy,greedy,greedy",
    )
    s.add_argument("game", choices=list(GAMES), help="the game")
    s.add_argument("--games", type=int, default=1000, help="number of games (default %(default)s)")
    s.add_argument(
        "--bots",
        default="random",
        help="comma-separated bot per seat, e.g. greedy,random,greedy,random; one name fills "
        "every seat (default: %(default)s)",
    )
    s.add_argument(
        "--players",
        type=int,
        default=None,
        help="seats (default: one per bot named; must match a list of bots)",
    )
    s.add_argument("--seed", type=int, default=0, help="seed of the run (default %(default)s)")
    add_rules_argument(s)
    s.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    s.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run on a Ray cluster (extra 'ray'): auto, ray://host:port, or none to start a local one "
        "(default: no Ray, local processes)",
    )
    s.add_argument(
        "--duplicate",
        action="store_true",
        help="duplicate mode: every deal is replayed with the bots rotated through the seats "
        "(--games is rounded up to a multiple of the seat count)",
    )
    s.add_argument("--json", action="store_true", help="print the summary as JSON, keyed by bot position")
    s.add_argument(
        "--histories",
        metavar="FILE",
        default=None,
        help="write every game's hand history (text form) to FILE, for vncards replay FILE "
        "(default: none written)",
    )


def _executor(args: argparse.Namespace) -> AbstractContextManager[Executor | None]:
    """Where the batches run: ``--ray [ADDRESS]`` a Ray cluster (a new local one of ``--jobs``
    CPUs without an address), else local processes (None)."""
    if args.ray is None:
        return nullcontext()
    if args.ray and args.jobs is not None:
        raise VncardsError("--jobs sizes a local Ray cluster; a running cluster uses all its CPUs")
    from ..ray_executor import RayExecutor

    return RayExecutor(args.ray or None, num_cpus=args.jobs)


def _histories_file(path: str | None) -> AbstractContextManager[TextIO | None]:
    """The file ``--histories`` names, opened for writing (None without the option)."""
    if path is None:
        return nullcontext()
    try:
        return open(path, "w", encoding="utf-8", newline="\n")
    except OSError as e:
        raise VncardsError(f"--histories: cannot write {path}: {e.strerror}") from None


def run(args: argparse.Namespace, console: Console) -> int:
    """Runs the games (progress bar on a terminal's stderr) and prints the summary, as tables or ``--json``."""
    if args.games < 1:
        raise VncardsError("--games must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise VncardsError("--jobs must be at least 1")
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names:
        raise VncardsError("--bots names no bot")
    if args.players is not None and len(names) > 1 and len(names) != args.players:
        raise VncardsError(
            f"--bots names {len(names)} bots for {args.players} seats: name one bot per seat, or a single bot for every seat"
        )
    start = time.perf_counter()
    with (
        _histories_file(args.histories) as out,
        _executor(args) as executor,
        Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=args.json or not sys.stderr.isatty(),
        ) as bar,
    ):
        task = bar.add_task(f"{args.game}", total=args.games)
        summary = simulate(
            args.game,
            args.games,
            names,
            players=args.players,
            options=rule_options(args.game, args.rules),
            seed=args.seed,
            jobs=args.jobs,
            duplicate=args.duplicate,
            progress=lambda n: bar.advance(task, n),
            executor=executor,
            histories=None if out is None else out.write,
        )
    elapsed = time.perf_counter() - start
    if args.histories is not None:
        print(f"hand histories of {summary.games} games written to {args.histories}", file=sys.stderr)
    if args.json:
        print(json.dumps({**summary.to_dict(), "seconds": round(elapsed, 3)}, ensure_ascii=False))
        return 0
    _print_summary(args, summary, elapsed, console)
    return 0


def _print_summary(args: argparse.Namespace, summary: Summary, elapsed: float, console: Console) -> None:
    positions = summary.positions
    mode = ", duplicate deals" if args.duplicate else ""
    table = Table(
        title=f"{spec(args.game).title}: {summary.games} games{mode} in {elapsed:.1f}s "
        f"({summary.games / elapsed:,.0f} games/s)"
    )
    for col in ("#", "bot", "seats", "wins", "win rate (95% Wilson)", "units/game (95% CI)"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for pos, st in positions.items():
        low, high = st.win_wilson95
        table.add_row(
            str(pos),
            st.name,
            str(st.seats_played),
            str(st.wins),
            f"{st.win_rate:.1%} ({low:.1%}–{high:.1%})",
            f"{st.mean:+.2f} ({st.mean - st.ci95:+.2f} to {st.mean + st.ci95:+.2f})",
        )
    console.print(table)
    notable = [k for k in NOTABLE if any(st.events.get(k) for st in positions.values())]
    if notable:
        per_bot = Table(title="Per bot (events of its seats)")
        per_bot.add_column("event")
        for pos, st in positions.items():
            per_bot.add_column(f"{pos}: {st.name}", justify="right")
        for k in notable:
            per_bot.add_row(term(k), *(str(st.events.get(k, 0)) for st in positions.values()))
        console.print(per_bot)
    events = Table(title="Events")
    events.add_column("event")
    events.add_column("count", justify="right")
    events.add_column("per game", justify="right")
    for kind, count in sorted(summary.events.items()):
        events.add_row(term(kind), str(count), f"{count / summary.games:.2f}")
    console.print(events)
