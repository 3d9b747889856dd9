"""Bot strength on duplicate deals: the levels' ladder, the cheating bot's upper bound and each
level's share of it, and the Tiến Lên goals, for every game (``vncards.bots.strength``).

Per game, three runs on the same deals (seed ``--seed``; each deal played once per distinct
rotation of the seats, so the cards' luck cancels):

- **ladder**: ``normal`` vs ``easy``, ``hard`` vs ``normal``, ``expert`` vs ``hard``, two of
  each seated alternately (a, b, a, b): does each level beat the one below?
- **share**: ``normal``, ``hard``, ``expert`` and ``cheating`` each against ``greedy`` (two of
  each): the share of the cheating bot's advantage each level recovers.
- **goals** (Tiến Lên Nam): ``expert`` alone against three ``greedy`` (first places), and
  ``expert`` against ``montecarlo`` (budget 400), two of each.

The ``quick`` profile plays 200 deals per pairing, ``full`` 10,000 (the published tables:
``python benches/bots_strength.py --profile full --seed 2025``). Develop on other seeds than
the published one. Figures print as Markdown tables with the machine's load; ``--json FILE``
keeps every figure. ``tests/test_bots_strength.py`` runs a tiny version.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from typing import Any

from vncards.bots.strength import PROFILES, bench_bots

GAMES = ("tienlen", "tienlen-north", "samloc", "tusac", "maubinh")
#: The published seed (develop on others).
PUBLISHED_SEED = 2025


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def runs(game: str) -> list[tuple[str, list[str], str, str]]:
    """(title, bots, field, pairings) of each run for ``game``."""
    out = [
        ("ladder", ["easy", "normal", "hard", "expert"], "alternate", "ladder"),
        ("share", ["normal", "hard", "expert", "cheating", "greedy"], "alternate", "last"),
    ]
    if game == "tienlen":
        out += [
            ("goal: expert alone against three greedy", ["expert", "greedy"], "solo", "first"),
            (
                "goal: expert against montecarlo (budget 400)",
                ["expert", "montecarlo:budget=400"],
                "alternate",
                "first",
            ),
        ]
    return out


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--profile", choices=list(PROFILES), default="quick")
    p.add_argument("--deals", type=int, default=None, help="deals per pairing (default: the profile's)")
    p.add_argument("--seed", type=int, default=PUBLISHED_SEED)
    p.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--game", action="append", choices=list(GAMES), help="games to measure (default: all)")
    p.add_argument("--run", action="append", choices=["ladder", "share", "goal"], help="runs (default: all)")
    p.add_argument("--json", metavar="FILE", default=None, help="also write every figure as JSON")
    args = p.parse_args(argv)
    results = []
    for game in args.game or GAMES:
        for title, bots, field, pairings in runs(game):
            if args.run and title.split(":")[0] not in args.run:
                continue
            load = _load()
            began = time.perf_counter()
            report = bench_bots(
                game,
                bots,
                deals=args.deals,
                profile=args.profile,
                seed=args.seed,
                field=field,
                pairings=pairings,
                jobs=args.jobs,
            )
            wall = time.perf_counter() - began
            print(f"\n## {game}: {title}\n")
            print(
                f"`python benches/bots_strength.py --profile {args.profile} --seed {args.seed}` "
                f"({report.deals} deals per pairing, field {field}; {wall:.0f} s wall, load {load} -> {_load()})\n"
            )
            print(report.table(), flush=True)
            results.append({"title": title, "wall_s": round(wall, 1), "load": load, **report.to_dict()})
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, ensure_ascii=False)
    return results


if __name__ == "__main__":
    main()
