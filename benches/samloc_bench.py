"""Sâm Lốc speed from Python: legal_plays on a ten-card hand (calls/s) and full 4-player
games (games/s), with random legal actions and with the auto_play bot. Run on a release build
(`maturin develop --release`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from vncards import Rng
from vncards._core import samloc_legal_plays_loop
from vncards.cards import to_mask
from vncards.samloc import Game, Rules, core_rules, legal_plays

HAND = "3♠ 4♦ 5♥ 6♣ 7♠ 7♦ 9♣ J♥ J♠ 2♦"
HAND_MASK = to_mask(HAND)


def rate(fn: Callable[[], object], per_call: int = 1, seconds: float = 1.0) -> float:
    """Best of three timed batches, as units per second."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t > seconds / 10:
            break
        n *= 2
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - t)
    return n * per_call / best


def random_game(seed: list[int]) -> None:
    seed[0] += 1
    rng = Rng(seed[0])
    g = Game(players=4, seed=seed[0])
    while not g.is_over:
        acts = g.legal_actions(g.pending_seats[0])
        g.apply(acts[-1] if acts[0]["type"] == "declare_sam" else acts[rng.below(len(acts))])


def bot_game(seed: list[int]) -> None:
    seed[0] += 1
    g = Game(players=4, seed=seed[0])
    while not g.is_over:
        g.auto_play(g.pending_seats[0])


def report(name: str, value: float, unit: str) -> None:
    print(f"{name:<60} {value:>12,.0f} {unit}")


def main() -> None:
    rules = Rules()
    n_lead = len(legal_plays(HAND_MASK))
    print(f"samloc: hand {HAND} ({n_lead} leads)")
    report("legal_plays(mask) on a lead", rate(lambda: legal_plays(HAND_MASK)), "calls/s")
    report("legal_plays(text) on a lead", rate(lambda: legal_plays(HAND)), "calls/s")
    report("legal_plays(mask) on a single 6", rate(lambda: legal_plays(HAND_MASK, "6♥")), "calls/s")
    report(
        "legal_plays(mask, bao_mot=True) on a lead",
        rate(lambda: legal_plays(HAND_MASK, bao_mot=True)),
        "calls/s",
    )
    core = core_rules(rules)
    iters = 200_000
    report(
        "Rust move generation alone (no GIL, no objects)",
        rate(lambda: samloc_legal_plays_loop(HAND_MASK, None, core, iters), iters),
        "calls/s",
    )
    seed = [0]
    report("full 4-player games, random legal actions", rate(lambda: random_game(seed)), "games/s")
    report("full 4-player games, auto_play bot", rate(lambda: bot_game(seed)), "games/s")


if __name__ == "__main__":
    main()
