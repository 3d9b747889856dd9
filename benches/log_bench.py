"""CPU time of the logs' reads and writes, per game: ``apply`` (the replay of finished hands'
actions on fresh tables, per action), ``events``, ``actions``, ``events_for(0)``, ``to_json``
and ``from_json`` of one finished hand (per call); and a server's state frame for a seat that
has all but the last two events (Tiến Lên, with the ``server`` extra). Figures are µs of CPU time
(``time.process_time``), the minimum over rounds.

    python benches/log_bench.py [--rounds 7]
    python benches/log_bench.py --against /path/to/other/checkout/python [--rounds 7]

With ``--against``, the same figures for another vncards (its ``python/`` directory, with a
built ``_core`` in it) side by side with this one: one worker process each, the figures taken in
alternating order round by round (shared machines drift), then ``this/other`` ratios.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

GAMES = ("tienlen", "samloc", "tusac", "maubinh")
READS = ("events", "actions", "events_for(0)", "to_json", "from_json")
FIGURES = [f"{g} {f}" for g in GAMES for f in ("apply", *READS)] + ["tienlen server frame"]


def _finished(cls: Any, seed: int) -> Any:
    game = cls(players=4, seed=seed)
    while not game.is_over:
        game.auto_play(game.pending_seats[0])
    return game


def _per_call(fn: Callable[[], object], calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e6


def _reads(name: str, cls: Any, game: Any) -> dict[str, Callable[[], float]]:
    """The read figures of one finished hand ``game`` of the game ``name`` (class ``cls``)."""
    text = game.to_json()
    return {
        f"{name} events": lambda: _per_call(lambda: game.events, 100),
        f"{name} actions": lambda: _per_call(lambda: game.actions, 100),
        f"{name} events_for(0)": lambda: _per_call(lambda: game.events_for(0), 100),
        f"{name} to_json": lambda: _per_call(game.to_json, 100),
        f"{name} from_json": lambda: _per_call(lambda: cls.from_json(text), 20),
    }


def _measures() -> dict[str, Callable[[], float]]:
    """Each figure as a function taking one measurement (µs)."""
    from vncards.games import GAMES as CLASSES

    out: dict[str, Callable[[], float]] = {}
    for name in GAMES:
        cls = CLASSES[name].load().Game
        hands = [_finished(cls, seed) for seed in range(10 if name == "maubinh" else 30)]
        logs = [h.actions for h in hands]
        starts = [cls(players=4, seed=h.rng_key, **h._setup()) for h in hands]
        moves = sum(map(len, logs))

        def apply(starts: list[Any] = starts, logs: list[Any] = logs, moves: int = moves) -> float:
            games = [copy.deepcopy(s) for s in starts]
            start = time.process_time()
            for game, log in zip(games, logs, strict=True):
                for action in log:
                    game.apply(action)
            return (time.process_time() - start) / moves * 1e6

        out[f"{name} apply"] = apply
        out.update(_reads(name, cls, hands[1]))
    try:
        from vncards.server.table import TableSession
    except ImportError:  # no server extra: no frame figure
        return out
    session = TableSession.create("bench", "tienlen")
    game = session.game  # the table's hand, played to its end in place
    while not game.is_over:
        game.auto_play(game.pending_seats[0])
    sent = len(game.events) - 2
    out["tienlen server frame"] = lambda: _per_call(lambda: session.frame(0, sent, with_table=False), 100)
    return out


def _worker() -> None:
    """Answer figure names read from stdin with one measurement each (JSON; null for a figure
    this install cannot take)."""
    measures = _measures()
    print("ready", flush=True)
    for line in sys.stdin:
        measure = measures.get(line.strip())
        print(json.dumps(None if measure is None else measure()), flush=True)


def _spawn(pythonpath: str | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def _ask(proc: subprocess.Popen[str], name: str) -> float | None:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(name + "\n")
    proc.stdin.flush()
    answer = json.loads(proc.stdout.readline())
    return None if answer is None else float(answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--against", metavar="PYTHONPATH", help="another vncards' python/ directory")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker()
        return
    sides = {"this": _spawn(None)}
    if args.against:
        sides["other"] = _spawn(args.against)
    best: dict[str, dict[str, float]] = {n: {} for n in FIGURES}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for name in FIGURES:
            for side in order:
                t = _ask(sides[side], name)
                if t is not None:
                    best[name][side] = min(t, best[name].get(side, t))
    print(f"µs of CPU time per call (per action for apply), min of {args.rounds} rounds")
    if args.against:
        print(f"{'':26}{'other':>10}{'this':>10}{'this/other':>12}")
        for name in [n for n in FIGURES if len(best[n]) == 2]:
            this, other = best[name]["this"], best[name]["other"]
            print(f"{name:26}{other:10.2f}{this:10.2f}{this / other:12.3f}")
    else:
        for name in [n for n in FIGURES if best[n]]:
            print(f"{name:26}{best[name]['this']:10.2f}")
    for proc in sides.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
