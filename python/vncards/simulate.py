"""Bot-against-bot simulation at scale, for any registered game.

Seats are rotated between games so no bot keeps the lead seat. Games run in batches on local
processes (one per core by default) or on any :class:`concurrent.futures.Executor` (a Ray
cluster through :class:`vncards.ray_executor.RayExecutor`, Dask's ``client.get_executor()``).

Every game's deal and every bot's random choices come from their own stream, spawned from the
run's seed by :class:`numpy.random.SeedSequence` (:func:`game_seeds`): no two games of any two
runs share a stream, and a run's totals are the same whatever the executor, the number of
workers or the batch size.
"""

from __future__ import annotations

import math
import operator
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ._args import MAX_GAMES, MAX_JOBS, count_arg, optional_count, seed_arg
from .bots import Bot, bot_factory, decider, make_bot
from .errors import RulesError
from .games import new_game, spec
from .parallel import batch_ranges, run_batches
from .runs import GameSeeds, game_seeds, wilson_interval
from .table import TableGame

__all__ = [
    "GameResult",
    "BotStats",
    "Summary",
    "GameSeeds",
    "game_seeds",
    "game_ranges",
    "play_game",
    "simulate",
    "wilson_interval",
    "MAX_GAMES",
    "MAX_JOBS",
]


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

    def merge(self, other: BotStats) -> None:
        """Adds the totals of ``other`` (the same bot, other games)."""
        self.seats_played += other.seats_played
        self.wins += other.wins
        self.units += other.units
        self.units_sq += other.units_sq
        self.events.update(other.events)

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
    #: The hand histories of the games, when the run was asked for them (see :func:`simulate`:
    #: they are handed on as each batch completes, not kept).
    histories: list[str] = field(default_factory=list, repr=False)

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

    def merge(self, other: Summary) -> None:
        """Adds the totals of ``other`` (another part of the same run): exact integer sums, so
        merging batches in any order gives the same summary."""
        self.games += other.games
        for name, stats in other.bots.items():
            self.bots.setdefault(name, BotStats(name)).merge(stats)
        for position, stats in other.positions.items():
            self.positions.setdefault(position, BotStats(stats.name)).merge(stats)
        self.events.update(other.events)

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
    """Plays ``game`` to the end, asking the bot of each pending seat for its action, in at
    most ``max_actions`` actions (an int from 1; past 1,000,000,000 counts as that)."""
    max_actions = count_arg("max_actions", max_actions, minimum=1, maximum=10**9, clamp=True)
    moves = [decider(bot) for bot in bots]
    for _ in range(max_actions):
        if game.is_over:
            return game
        seat = game.pending_seats[0]
        game.apply(moves[seat](game, seat))
    raise RuntimeError(f"game did not end within {max_actions} actions")


#: The type of an event dict.
_TYPE = operator.itemgetter("type")


@dataclass(frozen=True)
class _Batch:
    """Games ``games`` of a run: the unit of work shipped to a worker."""

    game: str
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    games: range
    duplicate: bool
    histories: bool = False

    def __str__(self) -> str:
        return f"{self.game} games {self.games.start}..{self.games.stop - 1} of the run seeded {self.seed}"


def _play_batch(batch: _Batch) -> Summary:
    """The batch's games, summed as :meth:`Summary.add` would (per position, then per bot):
    the game class, the rules and the bots' factories are looked up once per batch."""
    game_spec = spec(batch.game)
    cls = game_spec.game_class()
    rules = game_spec.rules_from(batch.options)
    makers = {name: bot_factory(name, batch.game, rules, players=batch.players) for name in set(batch.bots)}
    players = batch.players
    positions = [BotStats(name) for name in batch.bots]
    events: Counter[str] = Counter()
    summary_histories: list[str] = []
    if batch.histories:
        from .history import dumps as history_dumps
        from .session import Hand, Seat
    for index in batch.games:
        rotation = index % players
        stats = [positions[(s + rotation) % players] for s in range(players)]  # by seat
        # Duplicate mode: consecutive games share a deal (and seeds), one per rotation of the bots.
        seeds = game_seeds(batch.seed, index // players if batch.duplicate else index, players)
        game = cls(players=players, rules=rules, seed=seeds.deal)
        play_game(game, [makers[s.name](seed) for s, seed in zip(stats, seeds.bots, strict=True)])
        settlement = game.settlement or [0] * players
        best = max(settlement)
        for s, units in zip(stats, settlement, strict=True):
            s.seats_played += 1
            s.units += units
            s.units_sq += units * units
            if units == best and units > 0:
                s.wins += 1
        if batch.histories:
            hand = Hand(game, batch.game, index + 1, tuple(Seat(bot=s.name) for s in stats))
            summary_histories.append(history_dumps(hand))
        game_events = game.events
        events.update(map(_TYPE, game_events))
        for e in game_events:  # counted for the seat an event names (the cutter, the cóng seat...)
            seat = e.get("seat")
            if type(seat) is int and 0 <= seat < players:
                stats[seat].events[e["type"]] += 1
    summary = Summary(
        batch.game,
        len(batch.games),
        events=events,
        positions=dict(enumerate(positions)),
        histories=summary_histories,
    )
    for s in positions:
        summary.bots.setdefault(s.name, BotStats(s.name)).merge(s)
    return summary


#: Games per batch at most: hundreds of games amortise shipping a task to a worker.
BATCH_SIZE = 200


def game_ranges(games: int) -> list[range]:
    """The default batches of a run: up to :data:`BATCH_SIZE` games (fewer for short runs, so
    every worker gets some), and the last two batches' worth cut into eighths, so that the
    workers run out of work together rather than one waiting for another's last batch.

    ``games``: 0..100,000,000 (:data:`MAX_GAMES`).

    >>> ranges = game_ranges(4000)
    >>> len(ranges), len(ranges[0]), len(ranges[-2]), sum(map(len, ranges))
    (47, 125, 15, 4000)
    """
    games = count_arg("games", games, minimum=0, maximum=MAX_GAMES)
    size = max(1, min(BATCH_SIZE, games // 32))
    head = max(0, games - 2 * size)
    tail = batch_ranges(games - head, max(1, size // 8))
    return [*batch_ranges(head, size), *(range(head + r.start, head + r.stop) for r in tail)]


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
    executor: Executor | None = None,
    batch_size: int | None = None,
    duplicate: bool = False,
    histories: Callable[[str], object] | None = None,
) -> Summary:
    """Plays ``games`` games between ``bot_names`` (one per seat) and sums the results.

    ``seed`` (a non-negative int) fixes the run (see :func:`game_seeds`). ``executor``: any
    :class:`concurrent.futures.Executor` to run the batches on; without one, ``jobs`` processes
    (default: one per core): this one and ``jobs - 1`` local workers
    (:func:`vncards.parallel.run_batches`; ``jobs=1``: this process alone). ``batch_size``: games per task
    (default: up to 200, fewer for short runs so every worker gets some). ``progress`` is called
    with the number of games of each batch as it completes. Neither the executor, the number
    of workers nor the batch size changes the result.

    Bounds (:class:`~vncards.errors.RulesError` beyond them): ``games`` and ``batch_size``
    1..100,000,000 (:data:`MAX_GAMES`), ``jobs`` 1..256 (:data:`MAX_JOBS`); a long run stops
    at Ctrl-C.

    ``duplicate``: each deal is played once per rotation of the bots through the seats
    (``games`` is rounded up to a multiple of the seat count), so every bot gets every hand.

    ``histories``: called with the hand history (:func:`vncards.history.dumps`, text form) of
    every game, batch by batch as the batches complete (so in no fixed order); each names its
    game's number in the run (``hand:``, from 1) and the bot of each seat.

    >>> summary = simulate("tienlen", 8, ["greedy", "random"], seed=1, jobs=1, batch_size=3)
    >>> summary.games, sorted(summary.bots)
    (8, ['greedy', 'random'])
    >>> sum(s.units for s in summary.bots.values())
    0
    """
    games = count_arg("games", games, minimum=1, maximum=MAX_GAMES)
    jobs = optional_count("jobs", jobs, minimum=1, maximum=MAX_JOBS)
    batch_size = optional_count("batch_size", batch_size, minimum=1, maximum=MAX_GAMES)
    seed = seed_arg(seed)
    if isinstance(bot_names, str) or not isinstance(bot_names, Sequence):
        raise RulesError(f"bot_names must be a list of bot names, not {type(bot_names).__name__}")
    if not bot_names:
        raise RulesError("name at least one bot")
    # Validate the table and the bots once, in this process, before fanning out.
    players = new_game(
        game_name, players or (len(bot_names) if len(bot_names) > 1 else None), options, seed=0
    ).players
    names = tuple(bot_names[s % len(bot_names)] for s in range(players))
    for n in set(names):
        make_bot(n, game_name, seed=0)
    if duplicate:
        games = -(-games // players) * players
    ranges = batch_ranges(games, batch_size) if batch_size else game_ranges(games)
    batches = [
        _Batch(game_name, players, dict(options or {}), names, seed, r, duplicate, histories is not None)
        for r in ranges
    ]
    summary = Summary(game_name, 0)
    # Bots in list order whatever order the batches finish in.
    summary.bots = {n: BotStats(n) for n in dict.fromkeys(names)}
    summary.positions = {p: BotStats(n) for p, n in enumerate(names)}
    preload = [spec(game_name).module]  # what local workers import before they fork
    for batch, part in run_batches(_play_batch, batches, executor=executor, jobs=jobs, preload=preload):
        if histories is not None:
            for text in part.histories:
                histories(text)
        summary.merge(part)
        if progress:
            progress(len(batch.games))
    return summary
