"""Bot strength, measured: pairings of montecarlo, greedy and random in Tiến Lên and Sâm Lốc.

Each pairing seats two bots alternately at a four-seat table (a, b, a, b) and rotates the seats
between games (``vncards.simulate.simulate``), so each bot plays every seat equally often. The
report gives, per bot, its win rate (first out / best settlement) and its mean units per game,
each with a 95% confidence interval, and the games per second of the run (all cores).

Run on a release build: ``python benches/bots_strength.py --games 10000`` (default), or
``--json`` for machine-readable figures. ``tests/test_bots.py`` runs a small version.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from vncards._core import cards_to_mask, rollout_evaluate
from vncards.bots.shedding import samloc_setup, tienlen_setup
from vncards.samloc import Rules as SamLocRules
from vncards.simulate import simulate
from vncards.tienlen import Rules as TienLenRules

GAMES = ("tienlen", "samloc")
PAIRINGS = (("montecarlo", "greedy"), ("greedy", "random"), ("montecarlo", "random"))


def run_pairing(
    game: str, a: str, b: str, games: int, seed: int = 0, jobs: int | None = None
) -> dict[str, Any]:
    """One pairing's figures: per bot win rate and units per game with 95% CIs, games/s."""
    start = time.perf_counter()
    summary = simulate(game, games, [a, b, a, b], seed=seed, jobs=jobs)
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "game": game,
        "pairing": f"{a} vs {b}",
        "games": games,
        "seconds": round(seconds, 2),
        "games_per_s": round(games / seconds, 1),
    }
    for name in (a, b):
        st = summary.bots[name]
        out[name] = {
            "win_rate": st.win_rate,
            "win_ci95": st.win_ci95,
            "units": st.mean,
            "units_ci95": st.ci95,
            "seats": st.seats_played,
        }
    return out


def rollout_rate(game: str, rollouts: int = 20_000) -> float:
    """Full-hand rollouts per second (one thread) from a fresh four-seat deal."""
    if game == "samloc":
        setup, hand = samloc_setup(SamLocRules(), 4), "3♠ 4♦ 5♥ 6♣ 9♣ 9♦ J♥ Q♦ K♠ 2♥"
    else:
        rules = TienLenRules.north() if game == "tienlen-north" else TienLenRules()
        setup, hand = tienlen_setup(rules, 4), "3♠ 4♦ 5♥ 6♣ 9♣ 9♦ 10♠ J♥ Q♦ K♠ A♠ 2♥ 2♦"
    mask = cards_to_mask(hand)
    n = mask.bit_count()
    start = time.perf_counter()
    rollout_evaluate(
        setup,
        me=0,
        hand=mask,
        unseen=((1 << 52) - 1) & ~mask,
        counts=[n] * 4,
        candidates=[mask & -mask],
        rollouts=rollouts,
        seed=1,
    )
    return rollouts / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="games per pairing")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--game",
        action="append",
        choices=["tienlen", "tienlen-north", "samloc"],
        help="games to measure (default: tienlen and samloc)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    results = []
    for game in args.game or GAMES:
        if not args.json:
            print(f"{game:<14} rollouts: {rollout_rate(game):,.0f} full hands/s (one thread)")
        for a, b in PAIRINGS:
            r = run_pairing(game, a, b, args.games, args.seed, args.jobs)
            results.append(r)
            if not args.json:
                print(
                    f"{game:<14} {a:>10} vs {b:<10} {args.games:>6} games {r['games_per_s']:>8,.1f} games/s",
                    flush=True,
                )
                for name in (a, b):
                    s = r[name]
                    print(
                        f"    {name:<11} win {s['win_rate']:6.1%} ± {s['win_ci95']:.1%}   "
                        f"units/game {s['units']:+7.2f} ± {s['units_ci95']:.2f}",
                        flush=True,
                    )
    if args.json:
        print(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
