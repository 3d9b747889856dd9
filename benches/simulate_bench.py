"""``vncards simulate`` against plain ``legal_actions``/``apply`` loops, side by side in one run
(use a release build: ``maturin develop --release``).

Part 1, one process (medians of ``--rounds`` interleaved rounds, so a change in machine load
hits every row alike). Every plain loop plays *the very games simulate plays* (the same deals
and the same decisions, from the run's :func:`~vncards.simulate.game_seeds`, computed before
the clock), so a ratio is simulate's own overhead: seeds, bots, the per-move interface, the
result summary.

- plain loop, random choice: ``legal_actions(seat)`` and ``apply`` of the action a seeded
  ``Rng`` per seat picks (what the random bot picks), until the game ends;
- plain loop, the greedy policy by hand: ``legal_actions(seat)``, the play masks read from the
  action dicts, the facts the greedy bot uses read through the public API (``hand_mask``,
  ``table``), the Rust greedy choice (``rollout_greedy_choice``) and ``apply``: no bot object,
  no ``Turn``, no view (Tiến Lên only);
- plain loop replaying the greedy games: the recorded moves through ``legal_actions``/``apply``
  with no decision at all (information: the engine's share of a greedy game);
- ``simulate`` with random and with greedy bots, one worker (``jobs=1``).

Part 2, workers: ``simulate`` (random bots) with ``jobs=1`` and ``jobs=2`` at several run
sizes, each ``jobs=2`` run starting its worker process (the fork server the workers fork from
starts once per process, in the first round: a one-shot ``vncards simulate --jobs 2`` pays that
too, a few tenths of a second, while this process already plays), then one ``jobs=2`` run of the largest size traced per batch (when the worker joined, how
close together the processes finished, and the share of its time each process had a core).
The speed-up is only meaningful on an idle machine: the load average is printed.

    python benches/simulate_bench.py [--game tienlen] [--games 600] [--sizes 1000,4000,16000]
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from vncards import Rng
from vncards._core import cards_to_mask, rollout_greedy_choice
from vncards.bots import make_bot
from vncards.bots.shedding import tienlen_setup
from vncards.games import new_game, spec
from vncards.parallel import run_batches, worker_context
from vncards.simulate import GameSeeds, _Batch, _play_batch, game_ranges, game_seeds, play_game, simulate

_TWOS = 0xF << 48
Recorded = list[tuple[int, list[dict[str, object]]]]


def run_seeds(game_name: str, games: int, seed: int = 0) -> list[GameSeeds]:
    """The seeds of the games ``simulate(game_name, games, ..., seed=seed)`` plays."""
    players = new_game(game_name, seed=0).players
    return [game_seeds(seed, i, players) for i in range(games)]


def plain_random(game_name: str, seeds: Sequence[GameSeeds]) -> int:
    """Random games through ``legal_actions``/``apply``; returns the number of moves."""
    moves = 0
    rules = spec(game_name).rules()  # once, as simulate does
    for s in seeds:
        g = new_game(game_name, rules=rules, seed=s.deal)
        rngs = [Rng(b) for b in s.bots]
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            g.apply(legal[rngs[seat].below(len(legal))])
            moves += 1
    return moves


def plain_greedy(game_name: str, seeds: Sequence[GameSeeds]) -> int:
    """The greedy bot's Tiến Lên policy written out by hand over the public per-move API;
    returns the number of moves."""
    moves = 0
    rules = spec(game_name).rules()
    players = new_game(game_name, rules=rules).players
    setup = tienlen_setup(rules, players)
    spare_twos = rules.finish_on_two != "allowed"
    for s in seeds:
        g: Any = new_game(game_name, rules=rules, seed=s.deal)  # a shedding game
        while not g.is_over:
            moves += 1
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            passing = len(legal) - 1 if legal[-1]["type"] == "pass" else None
            plays = [(cards_to_mask(a["cards"]), i) for i, a in enumerate(legal) if a["type"] == "play"]
            hand = g.hand_mask(seat)
            table = g.table
            if spare_twos and hand & _TWOS:
                kept = [p for p in plays if p[0] != hand]
                if kept or table is not None:
                    plays = kept
            if not plays:
                g.apply(legal[passing or 0])
                continue
            counts = [g.hand_mask(o).bit_count() for o in range(players) if o != seat]
            i = rollout_greedy_choice(
                setup,
                hand,
                [m for m, _ in plays],
                None if table is None else table.mask,
                min((c for c in counts if c), default=99),
                passing is not None,
            )
            if i is None:
                g.apply(legal[plays[0][1] if passing is None else passing])
            else:
                g.apply(legal[plays[i][1]])
    return moves


def recorded_games(game_name: str, seeds: Sequence[GameSeeds], bot: str) -> Recorded:
    """The (deal seed, action log) of each game simulate plays with ``bot`` in every seat."""
    out = []
    for s in seeds:
        g = new_game(game_name, seed=s.deal)
        play_game(g, [make_bot(bot, game_name, seed=b, rules=g.rules) for b in s.bots])
        out.append((s.deal, g.actions))
    return out


def replay_loop(game_name: str, recorded: Recorded) -> int:
    """The recorded games again through ``legal_actions``/``apply`` (the engine's share)."""
    moves = 0
    rules = spec(game_name).rules()
    for seed, actions in recorded:
        g = new_game(game_name, rules=rules, seed=seed)
        for action in actions:
            g.legal_actions(g.pending_seats[0])
            g.apply(action)
        moves += len(actions)
    return moves


def simulated_moves(game_name: str, games: int, bot: str) -> int:
    """How many moves ``simulate`` makes (played and passed turns), from its event counts."""
    events = simulate(game_name, games, [bot], jobs=1).events
    return events["play"] + events["pass"]


def medians(rows: dict[str, Callable[[], object]], games: dict[str, int], rounds: int) -> dict[str, float]:
    """Median games/s of each row over ``rounds`` interleaved rounds."""
    seen: dict[str, list[float]] = {name: [] for name in rows}
    for _ in range(rounds):
        for name, fn in rows.items():
            start = time.perf_counter()
            fn()
            seen[name].append(games[name] / (time.perf_counter() - start))
    return {name: statistics.median(v) for name, v in seen.items()}


def show(rates: dict[str, float], ratios: dict[str, float]) -> None:
    width = max(map(len, [*rates, *ratios]))
    for name, r in rates.items():
        print(f"  {name:<{width}}  {r:>10,.0f} games/s")
    for name, r in ratios.items():
        print(f"  {name:<{width}}  {r:>10.2f} x")


def per_move(g: str, n: int, rounds: int) -> None:
    seeds = run_seeds(g, n)
    shedding = g.startswith("tienlen")
    rows: dict[str, Callable[[], object]] = {
        "plain loop, random choice": lambda: plain_random(g, seeds),
        "simulate, random bots, 1 worker": lambda: simulate(g, n, ["random"], jobs=1),
    }
    if shedding:
        rows["plain loop, greedy policy by hand"] = lambda: plain_greedy(g, seeds)
    rows["simulate, greedy bots, 1 worker"] = lambda: simulate(g, n, ["greedy"], jobs=1)
    recorded = recorded_games(g, seeds, "greedy")
    rows["plain loop replaying the greedy games"] = lambda: replay_loop(g, recorded)
    # The plain loops must play simulate's very games, move for move.
    assert plain_random(g, seeds) == simulated_moves(g, n, "random")
    greedy_moves = simulated_moves(g, n, "greedy")
    assert replay_loop(g, recorded) == greedy_moves
    if shedding:
        assert plain_greedy(g, seeds) == greedy_moves
    print(f"{g}, one process: {n} games per row, medians of {rounds} interleaved rounds")
    rates = medians(rows, dict.fromkeys(rows, n), rounds)
    ratios = {
        "simulate random / plain loop, random choice": rates["simulate, random bots, 1 worker"]
        / rates["plain loop, random choice"],
    }
    if shedding:
        ratios["simulate greedy / plain loop, greedy policy by hand"] = (
            rates["simulate, greedy bots, 1 worker"] / rates["plain loop, greedy policy by hand"]
        )
    ratios["(info) simulate greedy / plain loop replaying its games"] = (
        rates["simulate, greedy bots, 1 worker"] / rates["plain loop replaying the greedy games"]
    )
    show(rates, ratios)


def burn(steps: int) -> float:
    """A pure-Python CPU-bound loop; returns its wall time."""
    start = time.perf_counter()
    x = 0
    for i in range(steps):
        x += i
    return time.perf_counter() - start


def machine_ceiling(steps: int = 4_000_000, rounds: int = 3) -> float:
    """How much faster two CPU-bound processes get through twice the work than one does, now:
    the most any 1 -> 2 worker speed-up can show on this machine at its current load (2.00 on
    two idle cores)."""
    ratios = []
    with ProcessPoolExecutor(2, mp_context=worker_context()) as pool:
        list(pool.map(abs, [0, 1]))  # both started
        for _ in range(rounds):
            alone = pool.submit(burn, 2 * steps).result()
            start = time.perf_counter()
            list(pool.map(burn, [steps, steps]))
            ratios.append(alone / (time.perf_counter() - start))
    return statistics.median(ratios)


def workers(g: str, sizes: Sequence[int], rounds: int) -> None:
    print(
        f"machine ceiling: two CPU-bound processes do twice one's work {machine_ceiling():.2f}x as fast "
        "as one process (2.00 on two idle cores)"
    )
    print(
        f"{g}, random bots, jobs=1 vs jobs=2, medians of {rounds} rounds (each jobs=2 run starts its "
        "worker; the fork server it forks from starts once, in the first)"
    )
    print(f"  {'games':>7}  {'jobs=1 games/s':>15}  {'jobs=2 games/s':>15}  {'speed-up':>8}")
    for n in sizes:
        rows: dict[str, Callable[[], object]] = {
            "1": functools.partial(simulate, g, n, ["random"], jobs=1),
            "2": functools.partial(simulate, g, n, ["random"], jobs=2),
        }
        rates = medians(rows, dict.fromkeys(rows, n), rounds)
        print(f"  {n:>7,}  {rates['1']:>15,.0f}  {rates['2']:>15,.0f}  {rates['2'] / rates['1']:>7.2f}x")


def traced_batch(batch: Any) -> tuple[Any, tuple[int, float, float, float]]:
    """simulate's batch, with the process that played it, its wall span and its CPU time."""
    start, cpu = time.time(), time.process_time()
    summary = _play_batch(batch)
    return summary, (os.getpid(), start, time.time(), time.process_time() - cpu)


def trace(g: str, n: int) -> None:
    """Where the time of one ``jobs=2`` run goes: when the worker joined, how close together the
    processes finished, and how much of its busy time each got a core (CPU / wall: below 1, the
    process waited for a core another job held)."""
    players = new_game(g, seed=0).players
    batches = [_Batch(g, players, {}, ("random",) * players, 0, r, False) for r in game_ranges(n)]
    start = time.time()
    spans = [span for _, (_, span) in run_batches(traced_batch, batches, jobs=2)]
    wall = time.time() - start
    print(f"{g}, random bots, one jobs=2 run of {n:,} games traced per batch: {wall:.2f} s")
    for pid in sorted({s[0] for s in spans}, key=lambda p: p != os.getpid()):
        mine = [s for s in spans if s[0] == pid]
        busy = sum(s[2] - s[1] for s in mine)
        print(
            f"  {'this process' if pid == os.getpid() else 'worker':<13} {len(mine):>3} batches, "
            f"first at {min(s[1] for s in mine) - start:5.2f} s, last done at "
            f"{max(s[2] for s in mine) - start:5.2f} s, CPU / busy {sum(s[3] for s in mine) / busy:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tienlen")
    parser.add_argument("--games", type=int, default=600, help="games per row of part 1")
    parser.add_argument("--sizes", default="1000,4000,16000", help="run sizes of part 2 ('' skips it)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average {load} on {os.cpu_count()} cores")
    per_move(args.game, args.games, args.rounds)
    if args.sizes:
        sizes = [int(x) for x in args.sizes.split(",")]
        workers(args.game, sizes, args.rounds)
        trace(args.game, max(sizes))
        print(f"machine ceiling afterwards: {machine_ceiling():.2f}x")
    print(f"load average afterwards {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
