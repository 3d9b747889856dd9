"""``vncards bench-bots``: the bots' strength on duplicate deals (the logic is
:func:`vncards.bots.strength.bench_bots`; this prints its tables)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ..bots.strength import PROFILES, bench_bots
from ..errors import VncardsError
from ..games import GAMES, parse_rule_options
from .base import Commands, add_rules_argument, bots_help

__all__ = ["register", "run"]


def register(commands: Commands) -> None:
    """Adds ``vncards bench-bots`` and its arguments."""
    b = commands.add(
        "bench-bots",
        run,
        help="the bots' strength on duplicate deals, with 95%% confidence intervals",
        description="Play the bots of --bots against each other on the same deals, each deal "
        "once per rotation of the seats (duplicate deals: the cards' luck cancels), and print "
        "per pairing each bot's units per game, first-place rate and mean place with 95% "
        "intervals, its lead over the other, and its milliseconds per decision. A bot may "
        "carry options after colons: expert:think_ms=50, montecarlo:budget=400. With "
        "cheating and greedy in the list, each other bot's share of the cheating bot's "
        "advantage over greedy. Bots per game: " + bots_help() + "; and cheating (benchmarks only).",
        epilog="example: vncards bench-bots tienlen --bots easy,normal,hard,expert --pairings ladder",
    )
    b.add_argument("game", choices=list(GAMES), help="the game")
    b.add_argument(
        "--bots",
        required=True,
        help="comma-separated bots (levels, names, name:option=value); required, no default",
    )
    b.add_argument(
        "--profile",
        choices=list(PROFILES),
        default="quick",
        help="deals per pairing: "
        + ", ".join(f"{k} {v:,}" for k, v in PROFILES.items())
        + " (default quick)",
    )
    b.add_argument(
        "--deals",
        type=int,
        default=None,
        help="deals per pairing (overrides --profile; default: the profile's)",
    )
    b.add_argument(
        "--field",
        choices=["alternate", "solo"],
        default="alternate",
        help="alternate: a, b, a, b (default); solo: a alone against copies of b",
    )
    b.add_argument(
        "--pairings",
        choices=["all", "ladder", "first", "last"],
        default="all",
        help="all pairs (default); ladder: each bot against the one before it; first: the "
        "first bot against each other; last: each other against the last",
    )
    b.add_argument("--players", type=int, default=None, help="seats (default 4, or the game's nearest)")
    b.add_argument("--seed", type=int, default=0, help="seed of the deals (default %(default)s)")
    add_rules_argument(b)
    b.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    b.add_argument("--json", action="store_true", help="print every figure as JSON")


def run(args: argparse.Namespace, console: Console) -> int:
    """Runs the benchmark and prints its tables (or JSON)."""
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if len(names) < 2:
        raise VncardsError("--bots names fewer than two bots to compare")
    if args.jobs is not None and args.jobs < 1:
        raise VncardsError("--jobs must be at least 1")
    start = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=args.json or not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task(args.game, total=None)
        report = bench_bots(
            args.game,
            names,
            deals=args.deals,
            profile=args.profile,
            seed=args.seed,
            players=args.players,
            field=args.field,
            pairings=args.pairings,
            options=parse_rule_options(args.rules),
            jobs=args.jobs,
            progress=lambda n: bar.advance(task, n),
        )
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False))
        return 0
    console.print(
        f"{report.game}: {report.deals:,} deals per pairing, {report.players} seats, field "
        f"{report.field}, seed {report.seed} ({time.perf_counter() - start:.1f} s)"
    )
    console.print(escape(report.table()))
    return 0
