"""Games of every kind at a chosen point, for the tests of the server-facing contracts
(snapshots, input, copies, per-seat events, threads)."""

from __future__ import annotations

import random
from typing import Any

from vncards import maubinh, samloc, tienlen, tusac
from vncards.table import TableGame

#: name -> a factory ``(seed) -> new game``
FACTORIES: dict[str, Any] = {
    "tienlen": lambda seed: tienlen.Game(players=4, seed=seed),
    "tienlen-north": lambda seed: tienlen.Game(players=4, rules=tienlen.Rules.north(), seed=seed),
    "samloc": lambda seed: samloc.Game(players=4, seed=seed),
    "maubinh": lambda seed: maubinh.Game(players=4, seed=seed),
    "tusac": lambda seed: tusac.Game(players=4, seed=seed),
}
NAMES = list(FACTORIES)


def random_step(game: TableGame, rng: random.Random) -> bool:
    """Apply one random legal action of a random pending seat; False once the game is over."""
    if game.is_over:
        return False
    seat = rng.choice(game.pending_seats)
    actions = game.legal_actions(seat)
    if game.GAME == "maubinh" and rng.random() < 0.5:
        actions = [a for a in actions if a["type"] != "forfeit"] or actions
    game.apply(rng.choice(actions))
    return True


def midgame(name: str, seed: int = 1, steps: int = 6) -> TableGame:
    """A game of ``name`` after up to ``steps`` random legal actions (not over if possible)."""
    for s in range(seed, seed + 50):
        game: TableGame = FACTORIES[name](s)
        rng = random.Random(s)
        for _ in range(steps):
            if game.is_over or (game.GAME == "maubinh" and len(game.pending_seats) == 1):
                break
            random_step(game, rng)
        if not game.is_over:
            return game
    raise AssertionError(f"no unfinished {name} game found")


def finished(name: str, seed: int = 1) -> TableGame:
    """A whole random game of ``name``."""
    game: TableGame = FACTORIES[name](seed)
    rng = random.Random(seed)
    while random_step(game, rng):
        pass
    return game
