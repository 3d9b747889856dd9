"""vncards side by side with the pip-installable peers, in one run, printing ratios.

- 5-card hand evaluation: ``maubinh.hand_rank`` per call and ``maubinh.hand_ranks`` on a numpy
  batch, against treys, phevaluator and eval7 per call (the peers have no batch API);
- shedding-game loop: random 4-player Tiến Lên through ``legal_actions``/``apply`` and through
  ``vncards simulate``, against RLCard's Dou Dizhu game loop (``DoudizhuGame``: ``init_game`` /
  ``step`` with a random legal action), in games/s and in moves/s (the games differ in length).

Rows are medians of 3 interleaved rounds; the load average is printed with them because the
figures come from a shared machine. ``--markdown PATH`` also writes the table as a page
(``make bench`` writes ``docs/benchmarks.md``). Missing peers are reported, not fatal:
``pip install treys phevaluator eval7 rlcard``.

    python benches/peers.py [--markdown docs/benchmarks.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np

from vncards import Card, Rng
from vncards.games import new_game
from vncards.maubinh import hand_rank, hand_ranks
from vncards.simulate import simulate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from maubinh_bench import peer_evaluators  # the same peer calls as the Mậu Binh figures


@dataclass
class Row:
    group: str
    name: str
    unit: str
    rate: float = 0.0
    note: str = ""


def evaluators(hands: np.ndarray) -> dict[str, Callable[[], object] | str]:
    """Per-call 5-card evaluation of every row of ``hands``, for vncards and each peer."""
    cards = [[Card(int(i)) for i in row] for row in hands]
    out: dict[str, Callable[[], object] | str] = {
        "vncards maubinh.hand_ranks (numpy batch)": lambda: hand_ranks(hands),
        "vncards maubinh.hand_rank (per call)": lambda: [hand_rank(c) for c in cards],
    }
    out.update(peer_evaluators(hands))
    return out


def tienlen_loop(games: int, seed: int, moves: list[int]) -> None:
    """Random 4-player Tiến Lên games through the public game API."""
    for i in range(games):
        g = new_game("tienlen", seed=seed + i)
        rng = Rng(seed + i)
        n = 0
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            g.apply(legal[rng.below(len(legal))])
            n += 1
        moves.append(n)


def doudizhu_loop(games: int, seed: int, moves: list[int]) -> None:
    """Random Dou Dizhu games through RLCard's game object (no agents, no state encoding)."""
    from rlcard.games.doudizhu.game import DoudizhuGame

    game = DoudizhuGame(allow_step_back=False)
    game.np_random = np.random.RandomState(seed)
    pick = random.Random(seed)
    for _ in range(games):
        state, _ = game.init_game()
        n = 0
        while not game.is_over():
            state, _ = game.step(pick.choice(state["actions"]))
            n += 1
        moves.append(n)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical cores, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000, help="5-card hands per evaluator round")
    parser.add_argument("--games", type=int, default=60, help="games per shedding-loop round")
    parser.add_argument("--markdown", type=Path, help="also write the table to this Markdown file")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    fives = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :5].astype(np.uint8)
    batch = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :5].astype(np.uint8)

    rows: list[Row] = []
    timed: list[tuple[Row, Callable[[], object], Callable[[], int]]] = []
    for name, fn in evaluators(fives).items():
        row = Row("5-card evaluation", name, "hands/s")
        rows.append(row)
        if isinstance(fn, str):
            row.note = fn
        elif "batch" in name:
            timed.append((row, lambda: hand_ranks(batch), lambda: len(batch)))
        else:
            timed.append((row, fn, lambda: len(fives)))

    loops: dict[str, tuple[Callable[[int, int, list[int]], None] | None, str]] = {
        "vncards Tiến Lên, legal_actions/apply loop": (tienlen_loop, ""),
        "vncards Tiến Lên, simulate (random bots, 1 worker)": (None, ""),
        "RLCard Dou Dizhu, DoudizhuGame init_game/step loop": (doudizhu_loop, ""),
    }
    try:
        import rlcard  # noqa: F401
    except Exception as e:
        loops["RLCard Dou Dizhu, DoudizhuGame init_game/step loop"] = (
            None,
            f"not available ({type(e).__name__})",
        )
    move_counts: dict[str, list[int]] = {}
    for name, (loop, note) in loops.items():
        games = Row("shedding game loop", name, "games/s", note=note)
        per_move = Row("shedding game loop", name, "moves/s", note=note)
        rows += [games, per_move]
        if note:
            continue
        counts = move_counts.setdefault(name, [])
        run: Callable[[], object] = (
            partial(simulate, "tienlen", args.games, ["random"], jobs=1)
            if loop is None
            else partial(loop, args.games, 1000, counts)
        )
        timed.append((games, run, lambda: args.games))

    load_before = os.getloadavg()[0]
    seen: dict[int, list[float]] = {id(r): [] for r, _, _ in timed}
    for _ in range(3):
        for row, fn, units in timed:
            start = time.perf_counter()
            fn()
            seen[id(row)].append(units() / (time.perf_counter() - start))
    load_after = os.getloadavg()[0]
    for row, _, _ in timed:
        row.rate = statistics.median(seen[id(row)])
    # moves/s: games/s times the mean game length of the loop (simulate plays the same games
    # as the plain loop's distribution; its length is taken from the plain loop).
    tl_moves = move_counts.get("vncards Tiến Lên, legal_actions/apply loop", [])
    for name in loops:
        games_row = next(r for r in rows if r.name == name and r.unit == "games/s")
        moves_row = next(r for r in rows if r.name == name and r.unit == "moves/s")
        counts = move_counts.get(name) or tl_moves
        if games_row.rate and counts:
            moves_row.rate = games_row.rate * statistics.fmean(counts)

    def rate_of(name: str, unit: str) -> float:
        return next((r.rate for r in rows if r.name == name and r.unit == unit), 0.0)

    peers = [
        r.rate for r in rows if r.group == "5-card evaluation" and not r.name.startswith("vncards") and r.rate
    ]
    fastest_peer = max(peers, default=0.0)
    ddz = rate_of("RLCard Dou Dizhu, DoudizhuGame init_game/step loop", "moves/s")
    wanted = [
        (
            "hand_ranks batch / fastest peer per call",
            "vncards maubinh.hand_ranks (numpy batch)",
            "hands/s",
            fastest_peer,
        ),
        (
            "hand_rank per call / fastest peer per call",
            "vncards maubinh.hand_rank (per call)",
            "hands/s",
            fastest_peer,
        ),
        (
            "Tiến Lên loop / RLCard Dou Dizhu loop (moves/s)",
            "vncards Tiến Lên, legal_actions/apply loop",
            "moves/s",
            ddz,
        ),
        (
            "simulate / RLCard Dou Dizhu loop (moves/s)",
            "vncards Tiến Lên, simulate (random bots, 1 worker)",
            "moves/s",
            ddz,
        ),
    ]
    ratios = [(label, rate_of(name, unit) / base) for label, name, unit, base in wanted if base]

    header = f"machine: {machine()}; load average {load_before:.1f} before, {load_after:.1f} after"
    print(header)
    width = max(len(r.name) for r in rows)
    group = ""
    for r in rows:
        if r.group != group:
            group = r.group
            print(f"\n{group}")
        shown = r.note or f"{r.rate:>16,.0f} {r.unit}"
        print(f"  {r.name:<{width}}  {shown}")
    print()
    for name, value in ratios:
        print(f"  {name:<{width}}  {value:>16.2f} x")
    if args.markdown:
        write_markdown(args.markdown, header, rows, ratios)


def write_markdown(path: Path, header: str, rows: list[Row], ratios: list[tuple[str, float]]) -> None:
    lines = [
        "# Benchmarks",
        "",
        "vncards side by side with the pip-installable peers, from one run of",
        "`benches/peers.py` (`make bench` installs the peers, runs every benchmark and rewrites",
        "this page). Rows are medians of 3 interleaved rounds. The machine is shared, so compare",
        "the rows and ratios of one run rather than absolute figures across runs.",
        "",
        f"Generated {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on {header}.",
        "",
        "| benchmark | implementation | rate |",
        "| --- | --- | ---: |",
    ]
    for r in rows:
        shown = r.note or f"{r.rate:,.0f} {r.unit}"
        lines.append(f"| {r.group} | {r.name} | {shown} |")
    lines += ["", "| ratio | value |", "| --- | ---: |"]
    lines += [f"| {name} | {value:.2f}× |" for name, value in ratios]
    lines += [
        "",
        "Other figures, each printing its own side-by-side ratios: `benches/tienlen_bench.py`",
        "(move generation, `legal_plays` and `legal_play_masks` against the Rust loop),",
        "`benches/simulate_bench.py` (`vncards simulate` against a plain game loop),",
        "`benches/maubinh_bench.py` (solver and batch evaluation), and the Rust benches",
        "(`cargo bench`: the shuffle stream against the previous ChaCha20, the Mậu Binh kernels).",
        "",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
