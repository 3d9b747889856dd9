"""Hand histories: the cost of writing and reading (replay-verified) one hand, per game and
form, against the engine's own snapshot round trip (``to_json`` / ``from_json``, which also
replays) of the same hands; and a session's cost per hand (``next_hand``: the digest of the
finished hand and the next deal) and the size of its snapshot as it ages.

    python benches/history_bench.py [--hands 200]

Figures are µs of CPU time per hand (``time.process_time``), the minimum over 3 rounds, over
``--hands`` random hands per game (random legal actions, fixed seeds).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

from vncards import games, history
from vncards.session import Session


def random_step(game: Any, rng: random.Random) -> bool:
    """One random legal action of a random pending seat; False once the game is over."""
    if game.is_over:
        return False
    seat = rng.choice(game.pending_seats)
    game.apply(rng.choice(game.legal_actions(seat)))
    return True


def hands(name: str, count: int) -> list[Any]:
    out = []
    for seed in range(count):
        game = games.new_game(name, seed=seed)
        rng = random.Random(seed)
        while random_step(game, rng):
            pass
        out.append(game)
    return out


def cpu_us(fn: Callable[[], object], per: int, rounds: int = 3) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best / per * 1e6


WIDTHS = (9, 9, 12, 11, 15)


def figures(played: list[Any]) -> list[float]:
    """dumps, loads, text round trip, JSON round trip, snapshot round trip (µs per hand)."""
    texts = [history.dumps(g) for g in played]
    jsons = [history.dumps(g, format="json") for g in played]
    snaps = [g.to_json() for g in played]
    cls = type(played[0])
    n = len(played)
    return [
        cpu_us(lambda: [history.dumps(g) for g in played], n),
        cpu_us(lambda: [history.loads(t) for t in texts], n),
        cpu_us(lambda: [history.dumps(history.loads(t)) for t in texts], n),
        cpu_us(lambda: [history.dumps(history.loads(t), format="json") for t in jsons], n),
        cpu_us(lambda: [cls.from_json(s).to_json() for s in snaps], n),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min); {args.hands} hands per game; µs CPU per hand")
    print(f"{'game':<14}{'dumps':>9}{'loads':>9}{'text trip':>12}{'json trip':>11}{'snapshot trip':>15}")
    for name in games.GAMES:
        print(
            f"{name:<14}"
            + "".join(f"{x:>{w}.0f}" for x, w in zip(figures(hands(name, args.hands)), WIDTHS, strict=True))
        )
    print()
    print("session (Sâm Lốc, 4 seats): next_hand cost and snapshot size by age")
    s = Session("samloc", players=["a", "b", "c", "d"], seed=1)
    rng = random.Random(1)
    spent = 0.0
    for number in range(1, 1001):
        while random_step(s.game, rng):
            pass
        if number in (1, 10, 100, 1000):
            print(
                f"  hand {number:>5}: snapshot {len(s.to_json(key=b'k')):>6} chars (the hand in play: {len(s.game.to_json()):>6})"
            )
        t = time.process_time()
        s.next_hand()
        spent += time.process_time() - t
    print(f"  next_hand: {spent / 1000 * 1e6:.0f} µs CPU per hand (over 1000 hands)")


if __name__ == "__main__":
    main()
