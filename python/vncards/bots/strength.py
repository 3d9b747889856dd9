"""How strong the bots are: a reproducible benchmark on duplicate deals.

:func:`bench_bots` seats bots in *pairings* and plays the same deals for every pairing, each
deal once per distinct rotation of the seats, so that every bot of a pairing holds every hand
of the deal and the cards' luck cancels. Per pairing it reports, for each bot, the units won
per game, the rate of first places and the mean place, with 95% confidence intervals, and the
difference in units per game between the two bots (the strength gap); plus the cost of each
bot's decisions (wall-clock milliseconds: mean, median, 99th percentile).

- **Fields.** ``field="alternate"`` seats a pairing ``a, b, a, b`` (two of each at four seats);
  ``field="solo"`` seats ``a`` alone against copies of ``b`` (``a, b, b, b``).
- **Pairings.** ``pairings="all"``: every two bots of the list; ``"ladder"``: each bot against
  the one before it; ``"first"``: the first bot against each of the others; ``"last"``: each
  of the others against the last (a baseline).
- **Intervals.** Units, mean places and differences are means over deals (a deal's figure
  averages its rotations), with a Student t interval over the deals, which are independent;
  first-place rates are Wilson score intervals over seats (conservative here: rotations of one
  deal hand a bot every seat once, which makes its wins per deal vary less than independent
  games would). A place is by the hand's settlement: tied seats share the mean of their places
  (and a first place, when the top seat won something).
- **Cheating.** With ``cheating`` and ``greedy`` both in a run, each honest bot's *share* is the
  part of the cheating bot's advantage over ``greedy`` (units per game, same field) that it
  recovers, with a bootstrap interval over the deals.

Each deal's cards and each seat's bot seed come from :func:`vncards.runs.game_seeds`
(``seed``, deal index), so a run's figures are the same on any machine, for any number of
processes. The ``quick`` profile (:data:`PROFILES`) plays 200 deals per pairing, the
``full`` profile 10,000; ``vncards bench-bots`` is the command line.

>>> report = bench_bots("tienlen", ["greedy", "random"], deals=6, seed=3, jobs=1)
>>> pairing = report.pairings[0]
>>> pairing.games, round(pairing.bots["greedy"].units + pairing.bots["random"].units, 9)
(12, 0.0)
>>> pairing.bots["greedy"].first_rate > pairing.bots["random"].first_rate
True
"""

from __future__ import annotations

import math
import time
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from .._args import MAX_GAMES, MAX_JOBS, count_arg, optional_count, seed_arg
from ..errors import RulesError
from ..games import new_game, spec
from ..parallel import batch_ranges, run_batches
from ..runs import game_seeds
from . import bot_factory
from .base import Turn
from .report import BotFigures, Cost, Interval, Pairing, StrengthReport, _shares, _wilson, t_interval

__all__ = [
    "PROFILES",
    "MAX_DEALS",
    "BotFigures",
    "Cost",
    "Interval",
    "Pairing",
    "StrengthReport",
    "bench_bots",
    "pairings_of",
    "parse_bot",
    "seating",
    "t_interval",
]

#: Deals per pairing of each profile.
PROFILES = {"quick": 200, "full": 10_000}
#: Most deals per pairing of one benchmark.
MAX_DEALS = 10_000_000
#: Deals per batch of work.
BATCH_DEALS = 25


def parse_bot(text: str) -> tuple[str, dict[str, Any]]:
    """A bot as the benchmark names it: a bot or level name, optionally with options after
    colons (``expert:think_ms=50``, ``montecarlo:budget=800``, ``search:infer=false``).

    >>> parse_bot("expert:think_ms=50:infer=false")
    ('expert', {'think_ms': 50, 'infer': False})
    """
    name, *pairs = text.split(":")
    options: dict[str, Any] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or not key:
            raise RulesError(f"bot option {pair!r} of {text!r}: write KEY=VALUE")
        options[key] = _value(raw)
    return name, options


def _value(raw: str) -> Any:
    low = raw.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(raw)
        except ValueError:
            pass
    return raw


def _factory(text: str, game: str, rules: Any, players: int) -> Callable[[Any], Any]:
    name, options = parse_bot(text)
    return bot_factory(name, game, rules, players=players, **options)


def seating(a: str, b: str, players: int, field: str) -> tuple[str, ...]:
    """The seats of a pairing: ``a, b, a, b...`` (``"alternate"``) or ``a, b, b...``
    (``"solo"``).

    >>> seating("x", "y", 4, "alternate"), seating("x", "y", 3, "solo")
    (('x', 'y', 'x', 'y'), ('x', 'y', 'y'))
    """
    if field == "alternate":
        return tuple(a if s % 2 == 0 else b for s in range(players))
    if field == "solo":
        return (a, *([b] * (players - 1)))
    raise RulesError(f"field must be 'alternate' or 'solo', not {field!r}")


def pairings_of(bots: Sequence[str], how: str) -> list[tuple[str, str]]:
    """The pairings of ``bots``: ``"all"`` pairs, the ``"ladder"`` of neighbours (each against
    the one before it), the ``"first"`` bot against each other, or each other against the
    ``"last"`` (a baseline).

    >>> pairings_of(["a", "b", "c"], "ladder"), pairings_of(["a", "b", "c"], "last")
    ([('b', 'a'), ('c', 'b')], [('a', 'c'), ('b', 'c')])
    """
    if how == "all":
        return [(bots[i], bots[j]) for i in range(len(bots)) for j in range(i + 1, len(bots))]
    if how == "ladder":
        # Each bot against the one before it, the stronger (later) first.
        return [(bots[i + 1], bots[i]) for i in range(len(bots) - 1)]
    if how == "first":
        return [(bots[0], b) for b in bots[1:]]
    if how == "last":
        return [(b, bots[-1]) for b in bots[:-1]]
    raise RulesError(f"pairings must be 'all', 'ladder', 'first' or 'last', not {how!r}")


def _rotations(seats: tuple[str, ...]) -> list[int]:
    """The rotations of the seats that give distinct seatings (each deal is played once per
    rotation; a rotation that repeats another seating would replay the same game)."""
    out, seen = [], set()
    for r in range(len(seats)):
        rotated = tuple(seats[(s - r) % len(seats)] for s in range(len(seats)))
        if rotated not in seen:
            seen.add(rotated)
            out.append(r)
    return out


@dataclass(frozen=True)
class _Batch:
    game: str
    players: int
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int
    deals: range
    pairing: int

    def __str__(self) -> str:
        return f"{self.game} deals {self.deals.start}..{self.deals.stop - 1} of {' '.join(self.seats)}"


@dataclass
class _Part:
    """A batch's tallies: per deal (in ``deals`` order) and bot name, the units summed over
    the bot's seats and rotations, its first places and its places; and decision times."""

    pairing: int
    deals: list[int]
    units: dict[str, list[float]]
    firsts: dict[str, list[float]]
    places: dict[str, list[float]]
    times: dict[str, array[float]]
    cpu: dict[str, array[float]]
    #: Seconds the batch took where it ran.
    seconds: float = 0.0


def _places(settlement: Sequence[int]) -> tuple[list[float], list[float]]:
    """Each seat's place by units (ties share the mean place) and first-place share."""
    n = len(settlement)
    places, firsts = [], []
    top = max(settlement)
    tops = sum(1 for u in settlement if u == top)
    for u in settlement:
        above = sum(1 for v in settlement if v > u)
        ties = sum(1 for v in settlement if v == u)
        places.append(above + (ties + 1) / 2)
        firsts.append(1 / tops if u == top and top > 0 else 0.0)
    assert len(places) == n
    return places, firsts


def _timed(bot: Any, times: array[float], cpu: array[float]) -> Callable[[Any, int], Any]:
    """The bot's move for a seat, timing the decisions with a choice (wall and thread CPU)."""
    act = getattr(bot, "act", None)
    choose = bot.choose
    clock, thread = time.perf_counter, time.thread_time

    def move(game: Any, seat: int) -> Any:
        turn = Turn(game, seat)
        began, began_cpu = clock(), thread()
        action = act(turn) if act is not None else choose(turn.view, turn.legal_actions)
        spent, spent_cpu = clock() - began, thread() - began_cpu
        # Confirming an arrangement already set (Mậu Binh) is no decision.
        if len(turn.legal_actions) > 1 and action.get("type") != "confirm":
            times.append(spent * 1000.0)
            cpu.append(spent_cpu * 1000.0)
        return action

    return move


def _play_batch(batch: _Batch) -> _Part:
    began = time.perf_counter()
    game_spec = spec(batch.game)
    cls = game_spec.game_class()
    rules = game_spec.rules_from(batch.options)
    names = list(dict.fromkeys(batch.seats))
    makers = {n: _factory(n, batch.game, rules, batch.players) for n in names}
    players = batch.players
    rotations = _rotations(batch.seats)
    part = _Part(
        batch.pairing,
        list(batch.deals),
        {n: [] for n in names},
        {n: [] for n in names},
        {n: [] for n in names},
        {n: array("d") for n in names},
        {n: array("d") for n in names},
    )
    for d in batch.deals:
        seeds = game_seeds(batch.seed, d, players)
        units = dict.fromkeys(names, 0.0)
        firsts = dict.fromkeys(names, 0.0)
        places = dict.fromkeys(names, 0.0)
        for r in rotations:
            by_seat = [batch.seats[(s - r) % players] for s in range(players)]
            game = cls(players=players, rules=rules, seed=seeds.deal)
            moves = [
                _timed(makers[n](seed), part.times[n], part.cpu[n])
                for n, seed in zip(by_seat, seeds.bots, strict=True)
            ]
            for _ in range(100_000):
                if game.is_over:
                    break
                seat = game.pending_seats[0]
                game.apply(moves[seat](game, seat))
            else:
                raise RuntimeError(f"deal {d} did not end")
            settlement = game.settlement or [0] * players
            seat_places, seat_firsts = _places(settlement)
            for s, n in enumerate(by_seat):
                units[n] += settlement[s]
                firsts[n] += seat_firsts[s]
                places[n] += seat_places[s]
        for n in names:
            part.units[n].append(units[n])
            part.firsts[n].append(firsts[n])
            part.places[n].append(places[n])
    part.seconds = time.perf_counter() - began
    return part


def bench_bots(
    game: str,
    bots: Sequence[str],
    *,
    deals: int | None = None,
    profile: str = "quick",
    seed: int = 0,
    players: int | None = None,
    field: str = "alternate",
    pairings: str = "all",
    options: dict[str, Any] | None = None,
    jobs: int | None = None,
    executor: Executor | None = None,
    progress: Callable[[int], None] | None = None,
) -> StrengthReport:
    """Benchmarks ``bots`` (names or levels, as :func:`vncards.bots.make_bot` takes them, with
    options as :func:`parse_bot` reads them) in
    ``game`` on duplicate deals: see the module notes. ``deals`` per pairing (default: the
    ``profile``'s), at a table of ``players`` (default 4, or the game's nearest), rules
    ``options`` (overrides of the game's preset). ``jobs``/``executor`` as in
    :func:`vncards.simulate.simulate`; ``progress`` is called with the deals of each batch.

    Bounds (:class:`~vncards.errors.RulesError` beyond them): ``deals`` 1..10,000,000
    (:data:`MAX_DEALS`), at most 100,000,000 deals in the run (pairings × deals), ``jobs``
    1..256."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise RulesError(f"bots must be a list of bot names, not {type(bots).__name__}")
    if len(bots) < 2:
        raise RulesError("name at least two bots to compare")
    if len(set(bots)) != len(bots):
        raise RulesError("name each bot once")
    if profile not in PROFILES:
        raise RulesError(f"profile must be one of {', '.join(PROFILES)}, not {profile!r}")
    seed = seed_arg(seed)
    deals = PROFILES[profile] if deals is None else count_arg("deals", deals, minimum=1, maximum=MAX_DEALS)
    jobs = optional_count("jobs", jobs, minimum=1, maximum=MAX_JOBS)
    pairs = pairings_of(list(bots), pairings)
    if len(pairs) * deals > MAX_GAMES:
        raise RulesError(
            f"a benchmark plays at most {MAX_GAMES} deals ({len(pairs)} pairings × {deals} deals)"
        )
    opts = dict(options or {})
    table = new_game(game, players, opts, seed=0)
    n = table.players
    for b in bots:
        _factory(b, game, table.rules, n)(0)
    seatings = [seating(a, b, n, field) for a, b in pairs]
    batches = [
        _Batch(spec(game).name, n, opts, seats, seed, r, i)
        for i, seats in enumerate(seatings)
        for r in batch_ranges(deals, BATCH_DEALS)
    ]
    parts: dict[int, list[_Part]] = {i: [] for i in range(len(pairs))}
    began = time.perf_counter()
    preload = [spec(game).module]
    for batch, part in run_batches(_play_batch, batches, executor=executor, jobs=jobs, preload=preload):
        parts[batch.pairing].append(part)
        if progress:
            progress(len(batch.deals))
    report = StrengthReport(spec(game).name, n, field, seed, deals, [], options=opts)
    for i, (a, b) in enumerate(pairs):
        report.pairings.append(_pairing(a, b, seatings[i], parts[i]))
    report.shares = _shares(report, field)
    report.seconds = time.perf_counter() - began
    return report


def _pairing(a: str, b: str, seats: tuple[str, ...], parts: list[_Part]) -> Pairing:
    parts = sorted(parts, key=lambda p: p.deals[0])
    seconds = math.fsum(p.seconds for p in parts)
    rotations = len(_rotations(seats))
    deals = sum(len(p.deals) for p in parts)
    figures = {}
    per_deal: dict[str, list[float]] = {}
    for name in dict.fromkeys(seats):
        seats_per_deal = seats.count(name) * rotations
        units = [u / seats_per_deal for p in parts for u in p.units[name]]
        places = [x / seats_per_deal for p in parts for x in p.places[name]]
        firsts = math.fsum(f for p in parts for f in p.firsts[name])
        n_seats = seats_per_deal * deals
        times = [t for p in parts for t in p.times[name]]
        cpu = [t for p in parts for t in p.cpu[name]]
        mean, ci = t_interval(units)
        place, place_ci = t_interval(places)
        figures[name] = BotFigures(
            name,
            n_seats,
            mean,
            ci,
            firsts / n_seats,
            _wilson(firsts, n_seats),
            place,
            place_ci,
            Cost.of(times, cpu),
        )
        per_deal[name] = units
    diffs = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
    diff, diff_ci = t_interval(diffs)
    return Pairing(a, b, seats, deals, deals * rotations, figures, diff, diff_ci, seconds, diffs)
