"""``vncards simulate`` against a plain ``legal_actions``/``apply`` loop, side by side in one run
(use a release build: ``maturin develop --release``).

- plain loop: ``new_game``, then ``legal_actions(seat)`` and ``apply`` of a random action drawn
  from a seeded ``Rng`` until the game ends (no bot, no view): the ceiling for the simulator;
- ``simulate`` with random bots and with greedy bots, one worker (the whole per-game path:
  bots, lazy turns, the result summary), and the ratio to the plain loop; for greedy bots
  also the ratio to a plain loop that replays the very same games (the same moves through
  ``legal_actions``/``apply``, no decision), since greedy games differ in length;
- the eager bot interface it replaced (``choose(game.view(seat), game.legal_actions(seat))``),
  for the before/after ratio;
- ``simulate`` with 1 and 2 worker processes (speed-up; only meaningful on an idle machine).

Figures are medians of 3 rounds, interleaved so a change in machine load hits every row.

    python benches/simulate_bench.py [--game tienlen] [--games 400]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from vncards import Rng
from vncards.bots import make_bot
from vncards.games import new_game
from vncards.simulate import play_game, simulate


def plain_loop(game_name: str, games: int) -> None:
    for i in range(games):
        g = new_game(game_name, seed=i)
        rng = Rng(i)
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            g.apply(legal[rng.below(len(legal))])


def recorded_games(game_name: str, games: int, bot: str) -> list[tuple[int, list[dict[str, object]]]]:
    """The (seed, action log) of each game ``simulate(game_name, games, [bot], seed=0)`` plays."""
    out = []
    for i in range(games):
        g = new_game(game_name, seed=i)  # simulate's game seed for run seed 0
        bots = [make_bot(bot, game_name, seed=i * 8 + s, rules=g.rules) for s in range(g.players)]
        play_game(g, bots)
        out.append((i, g.actions))
    return out


def replay_loop(game_name: str, recorded: list[tuple[int, list[dict[str, object]]]]) -> None:
    """The recorded games again through ``legal_actions``/``apply`` (the engine's share)."""
    for seed, actions in recorded:
        g = new_game(game_name, seed=seed)
        for action in actions:
            g.legal_actions(g.pending_seats[0])
            g.apply(action)


def eager_loop(game_name: str, games: int, bot: str) -> None:
    """The previous worker loop: every bot gets a full view dict and every action dict."""
    for i in range(games):
        g = new_game(game_name, seed=i)
        bots = [make_bot(bot, game_name, seed=i * 8 + s, rules=g.rules) for s in range(g.players)]
        while not g.is_over:
            seat = g.pending_seats[0]
            g.apply(bots[seat].choose(g.view(seat), g.legal_actions(seat)))


def games_per_second(
    rows: dict[str, Callable[[], object]], games: dict[str, int], rounds: int = 3
) -> dict[str, float]:
    """Median games/s of each row over ``rounds`` interleaved rounds."""
    seen: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(rounds):
        for name, fn in rows.items():
            start = time.perf_counter()
            fn()
            seen[name].append(games[name] / (time.perf_counter() - start))
    return {name: statistics.median(v) for name, v in seen.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tienlen")
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    g, n = args.game, args.games
    greedy_games = recorded_games(g, n, "greedy")
    rows: dict[str, Callable[[], object]] = {
        "plain legal_actions/apply loop (random choice)": lambda: plain_loop(g, n),
        "simulate, random bots, 1 worker": lambda: simulate(g, n, ["random"], jobs=1),
        "eager bot interface (before), random bots": lambda: eager_loop(g, n, "random"),
        "simulate, greedy bots, 1 worker": lambda: simulate(g, n, ["greedy"], jobs=1),
        "eager bot interface (before), greedy bots": lambda: eager_loop(g, n, "greedy"),
        "plain loop replaying the greedy games": lambda: replay_loop(g, greedy_games),
        "simulate, random bots, 2 workers": lambda: simulate(g, 2 * n, ["random"], jobs=2),
    }
    games = {name: n for name in rows}
    games["simulate, random bots, 2 workers"] = 2 * n
    load = os.getloadavg()[0]
    rates = games_per_second(rows, games)
    print(f"{g}: {n} games per row, medians of 3 interleaved rounds, load average {load:.1f}")
    width = max(map(len, rows))
    for name, r in rates.items():
        print(f"  {name:<{width}}  {r:>10,.0f} games/s")
    plain = rates["plain legal_actions/apply loop (random choice)"]
    one = rates["simulate, random bots, 1 worker"]
    ratios = {
        "simulate random / plain loop": one / plain,
        "simulate greedy / plain loop replaying its games": rates["simulate, greedy bots, 1 worker"]
        / rates["plain loop replaying the greedy games"],
        "simulate random / eager interface (after/before)": one
        / rates["eager bot interface (before), random bots"],
        "simulate greedy / eager interface (after/before)": rates["simulate, greedy bots, 1 worker"]
        / rates["eager bot interface (before), greedy bots"],
        "2 workers / 1 worker (random bots)": rates["simulate, random bots, 2 workers"] / one,
    }
    for name, r in ratios.items():
        print(f"  {name:<{width}}  {r:>10.2f} x")


if __name__ == "__main__":
    main()
