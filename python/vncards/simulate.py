"""Bot-against-bot simulation at scale, for any registered game.

Seats are rotated between games so no bot keeps the lead seat; games are spread over processes
(one per core by default), each game seeded from the run's seed so a run is reproducible.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot, decide, make_bot
from .errors import RulesError
from .games import new_game
from .table import TableGame

__all__ = ["GameResult", "BotStats", "Summary", "play_game", "simulate", "wilson_interval"]


def wilson_interval(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default): unlike the normal
    approximation it is never empty at 0 or n wins.

    >>> low, high = wilson_interval(0, 500)
    >>> low, round(high, 4)
    (0.0, 0.0076)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class GameResult:
    """One finished game: units per seat, the bot of each seat, counts of event types, and
    counts of the events naming each seat (``seat`` field: the cutter, the cóng seat...)."""

    units: dict[int, int]
    bot_of_seat: tuple[str, ...]
    events: dict[str, int]
    seat_events: tuple[dict[str, int], ...] = ()
    #: The position in the run's bot list of each seat's bot (seats rotate between games).
    position_of_seat: tuple[int, ...] = ()


@dataclass
class BotStats:
    """Totals for one bot name over a run."""

    name: str
    seats_played: int = 0
    wins: int = 0
    units: int = 0
    units_sq: int = 0
    events: Counter[str] = field(default_factory=Counter)

    @property
    def mean(self) -> float:
        """Mean units won per game."""
        return self.units / self.seats_played if self.seats_played else 0.0

    @property
    def ci95(self) -> float:
        """Half-width of the 95% confidence interval of the mean units per game."""
        n = self.seats_played
        if n < 2:
            return math.inf
        var = (self.units_sq - self.units**2 / n) / (n - 1)
        return 1.96 * math.sqrt(max(var, 0.0) / n)

    @property
    def win_rate(self) -> float:
        """Share of its games the bot won."""
        return self.wins / self.seats_played if self.seats_played else 0.0

    @property
    def win_wilson95(self) -> tuple[float, float]:
        """The 95% Wilson score interval of the win rate (sound at 0 and at every win)."""
        return wilson_interval(self.wins, self.seats_played)

    @property
    def win_ci95(self) -> float:
        """Half-width of the 95% confidence interval of the win rate (normal approximation)."""
        n = self.seats_played
        if n < 2:
            return math.inf
        p = self.win_rate
        return 1.96 * math.sqrt(p * (1 - p) / n)


@dataclass
class Summary:
    """A run's totals per bot name (``bots``) and per position in the bot list
    (``positions``: two identical bots are two positions)."""

    game: str
    games: int
    bots: dict[str, BotStats] = field(default_factory=dict)
    events: Counter[str] = field(default_factory=Counter)
    positions: dict[int, BotStats] = field(default_factory=dict)

    def add(self, result: GameResult) -> None:
        """Adds one finished game's result to the totals."""
        self.games += 1
        best = max(result.units.values())
        for seat, units in result.units.items():
            name = result.bot_of_seat[seat]
            tallies = [self.bots.setdefault(name, BotStats(name))]
            if seat < len(result.position_of_seat):
                tallies.append(self.positions.setdefault(result.position_of_seat[seat], BotStats(name)))
            for stats in tallies:
                stats.seats_played += 1
                stats.units += units
                stats.units_sq += units * units
                if units == best and units > 0:
                    stats.wins += 1
                if seat < len(result.seat_events):
                    stats.events.update(result.seat_events[seat])
        self.events.update(result.events)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe totals: ``positions`` keyed by the bot's position in the run's list
        (``"0"``, ``"1"``…, each with its ``bot`` name), ``bots`` by name."""

        def stats(s: BotStats) -> dict[str, Any]:
            return {
                "seats_played": s.seats_played,
                "wins": s.wins,
                "win_rate": s.win_rate,
                "win_rate_ci95": s.win_ci95,
                "win_rate_wilson95": list(s.win_wilson95),
                "mean_units": s.mean,
                "ci95": s.ci95,
                "events": dict(sorted(s.events.items())),
            }

        return {
            "game": self.game,
            "games": self.games,
            "positions": {str(p): {"bot": s.name, **stats(s)} for p, s in self.positions.items()},
            "bots": {n: stats(s) for n, s in self.bots.items()},
            "events": dict(sorted(self.events.items())),
        }


def play_game(game: TableGame, bots: Sequence[Bot], max_actions: int = 100_000) -> TableGame:
    """Plays ``game`` to the end, asking the bot of each pending seat for its action."""
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.pending_seats[0]
        game.apply(decide(bots[seat], game, seat))
    raise RuntimeError(f"game did not end within {max_actions} actions")


def _one(args: tuple[str, int, dict[str, Any], list[str], int, int, bool]) -> GameResult:
    game_name, players, options, bot_names, seed, index, duplicate = args
    rotation = index % players
    positions = tuple((s + rotation) % players for s in range(players))
    seats = tuple(bot_names[p] for p in positions)
    # Duplicate mode: consecutive games share a deal, one per rotation of the bots.
    deal = index // players if duplicate else index
    game_seed = (seed * 1_000_003 + deal) % 2**256
    game = new_game(game_name, players, options, seed=game_seed)
    bots = [
        make_bot(name, game_name, seed=(game_seed * 8 + s) % 2**256, rules=game.rules)
        for s, name in enumerate(seats)
    ]
    play_game(game, bots)
    settlement = game.settlement or [0] * players
    events = game.events
    counts = Counter(str(e["type"]) for e in events)
    per_seat: list[Counter[str]] = [Counter() for _ in range(players)]
    for e in events:
        seat = e.get("seat")
        if isinstance(seat, int) and 0 <= seat < players:
            per_seat[seat][str(e["type"])] += 1
    return GameResult(dict(enumerate(settlement)), seats, dict(counts), tuple(map(dict, per_seat)), positions)


def _chunk(args: list[tuple[str, int, dict[str, Any], list[str], int, int, bool]]) -> list[GameResult]:
    return [_one(a) for a in args]


def simulate(
    game_name: str,
    games: int,
    bot_names: Sequence[str],
    *,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 0,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    duplicate: bool = False,
) -> Summary:
    """Plays ``games`` games between ``bot_names`` (one per seat) and sums the results.

    ``duplicate``: each deal is played once per rotation of the bots through the seats
    (``games`` is rounded up to a multiple of the seat count), so every bot gets every hand."""
    if not bot_names:
        raise RulesError("name at least one bot")
    # Validate the table and the bots once, in this process, before fanning out.
    players = new_game(
        game_name, players or (len(bot_names) if len(bot_names) > 1 else None), options, seed=0
    ).players
    names = [bot_names[s % len(bot_names)] for s in range(players)]
    for n in set(names):
        make_bot(n, game_name, seed=0)
    if duplicate:
        games = -(-games // players) * players
    work = [(game_name, players, dict(options or {}), names, seed, i, duplicate) for i in range(games)]
    summary = Summary(game_name, 0)
    jobs = jobs or os.cpu_count() or 1
    size = max(1, min(200, games // (jobs * 8) or 1))
    chunks = [work[i : i + size] for i in range(0, len(work), size)]
    results: Iterator[list[GameResult]]
    if jobs == 1 or len(chunks) == 1:
        results = map(_chunk, chunks)
        for batch in results:
            for r in batch:
                summary.add(r)
            if progress:
                progress(len(batch))
        return summary
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for batch in pool.map(_chunk, chunks):
            for r in batch:
                summary.add(r)
            if progress:
                progress(len(batch))
    return summary
