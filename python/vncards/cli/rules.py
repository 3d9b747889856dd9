"""``vncards rules``: every rule option of a game, with its values and default."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..games import GAMES, rules_schema, spec
from .base import Commands, option_values

#: What "seed" and "house" mean in the listing, in one line.
SOURCES = (
    '"seed": the rule as the original Vietnamese documents state it (a source document, not a '
    'random seed); "house": a common house rule they do not state.'
)

__all__ = ["SOURCES", "register", "run"]


def register(commands: Commands) -> None:
    """Adds ``vncards rules`` and its arguments."""
    r = commands.add(
        "rules",
        run,
        help="every rule option of a game, with its values and default",
        description="Every rule option of GAME: its values, its default, where the default "
        "comes from (seed: the original Vietnamese rule documents the engine follows, not a "
        "random seed; house: a common house rule) and what it means. Change one with --rules "
        "NAME=VALUE in play and simulate.",
    )
    r.add_argument("game", choices=list(GAMES), help="the game")
    r.add_argument("--json", action="store_true", help="print the options as JSON")


def _shown(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def run(args: argparse.Namespace, console: Console) -> int:
    """Prints the game's rule options, as text or ``--json``."""
    schema = rules_schema(args.game)
    if args.json:
        print(json.dumps(schema, ensure_ascii=False))
        return 0
    console.print(f"[bold]{spec(args.game).title}[/bold]: rule options (change one with --rules NAME=VALUE)")
    console.print(SOURCES)
    for o in schema:
        values = option_values(o)
        source = "from the seed documents" if o["source"] == "seed" else "house rule"
        console.print(
            f"\n[bold]{o['name']}[/bold] = {escape(_shown(o['default']))}   ({escape(values)}; {source})"
        )
        console.print(f"    {escape(o['description'])}")
    return 0
