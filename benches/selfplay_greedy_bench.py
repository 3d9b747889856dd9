"""Self-play's cost with ``greedy`` seats: hands and decisions per CPU second of
``PolicyNet.selfplay`` with no greedy seat, with two and three of the four seats greedy, and with
all four (a hand that teaches nothing: the greedy choice alone), in one thread. In Tứ Sắc also
the ``greedy`` bot's CPU time a decision at a game (``act``, the choice in Rust) beside its
Python ``choose`` from the view, on the same decisions.

The greedy seats play in Rust in self-play's own pass (``Learnable::greedy``); this is the bench
that measures that path (Tứ Sắc's greedy, for instance, before and after it became the search's
greedy). CPU time of the process (``time.process_time``), the best of ``--repeats`` runs of the
same hands, so other load on the machine inflates the figures less than wall time would.

``RAYON_NUM_THREADS=1 python benches/selfplay_greedy_bench.py [--game tusac] [--hands 64]``
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from typing import Any

from vncards import games
from vncards.bots import make_bot

#: Seat masks by label: the greedy seats of every hand.
MASKS = {"none": 0b0000, "two (1, 3)": 0b1010, "three (1-3)": 0b1110, "all four": 0b1111}


def run(game: str, hands: int, repeats: int, seed: int) -> dict[str, dict[str, float]]:
    """Per mask label: hands and decisions per CPU second (the best of ``repeats``)."""
    bot: Any = make_bot("policy", game)
    net = bot.net
    flow = games.spec(game).rules().flow
    seeds = list(range(seed, seed + hands))
    out: dict[str, dict[str, float]] = {}
    for label, mask in MASKS.items():
        best = float("inf")
        decisions = 0
        for _ in range(repeats):
            t = time.process_time()
            result: Any = net.selfplay(flow, seeds, 0.0, greedy_seats=[mask] * hands)
            best = min(best, time.process_time() - t)
            decisions = int(result[5])
        out[label] = {
            "hands_per_cpu_s": hands / best,
            "decisions_per_cpu_s": decisions / best,
            "cpu_ms_per_hand": 1000 * best / hands,
        }
    return out


def bot_cost(hands: int, seed: int) -> dict[str, float]:
    """Tứ Sắc: the ``greedy`` bot's CPU microseconds a decision with a choice, ``act`` (the
    Rust greedy at the game) and ``choose`` (Python, from the view it builds), on the decisions
    of ``hands`` games of four ``greedy`` bots."""
    from vncards.bots import Turn
    from vncards.bots.tusac import TuSacGreedyBot

    bot = TuSacGreedyBot(seed=0)
    spent = {"act": 0.0, "choose": 0.0}
    n = 0
    for deal in range(seed, seed + hands):
        g = games.new_game("tusac", 4, seed=deal)
        while not g.is_over:
            seat = g.pending_seats[0]
            legal = g.legal_actions(seat)
            if len(legal) == 1:
                g.apply(legal[0])
                continue
            t = time.process_time()
            a = bot.act(Turn(g, seat))
            spent["act"] += time.process_time() - t
            t = time.process_time()
            b = bot.choose(g.view(seat), g.legal_actions(seat))
            spent["choose"] += time.process_time() - t
            assert a == b
            n += 1
            g.apply(a)
    return {k: 1e6 * v / n for k, v in spent.items()} | {"decisions": float(n)}


def main(argv: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="tusac", choices=["tienlen", "tienlen-north", "tusac"])
    p.add_argument("--hands", type=int, default=64)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{args.game}: {args.hands} hands a run, best of {args.repeats}; load before: {load}")
    out = run(args.game, args.hands, args.repeats, args.seed)
    print("| greedy seats | hands / CPU s | decisions / CPU s | CPU ms / hand |")
    print("|---|---|---|---|")
    for label, r in out.items():
        print(
            f"| {label} | {r['hands_per_cpu_s']:.1f} | {r['decisions_per_cpu_s']:.0f} | {r['cpu_ms_per_hand']:.2f} |"
        )
    if args.game == "tusac":
        cost = bot_cost(max(1, args.hands // 16), args.seed)
        print(
            f"greedy bot, {cost['decisions']:.0f} decisions: act (Rust) {cost['act']:.0f} us,"
            f" choose (Python, with the view) {cost['choose']:.0f} us of CPU a decision"
        )
    return out


if __name__ == "__main__":
    main()
