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

import dataclasses
import math
import random
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
from ..runs import game_seeds, wilson_interval
from . import bot_factory
from .base import Turn

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
#: Bootstrap resamples of the cheating shares' intervals.
BOOTSTRAP = 2000


@dataclass(frozen=True)
class Interval:
    """A 95% confidence interval."""

    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        """Does the interval lie wholly on one side of zero?"""
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"[{self.low:+.2f}, {self.high:+.2f}]"


#: Student's t 97.5% quantiles for 1..30 degrees of freedom.
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def _t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom: tabled to 30, then
    the Cornish-Fisher expansion from the normal's 1.96 (within 0.01% beyond 30)."""
    if df <= 0:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


def t_interval(values: Sequence[float]) -> tuple[float, Interval]:
    """The mean of ``values`` and its 95% Student t interval.

    >>> mean, ci = t_interval([1.0, 2.0, 3.0, 4.0])
    >>> mean, round(ci.low, 2), round(ci.high, 2)
    (2.5, 0.45, 4.55)
    """
    n = len(values)
    if n == 0:
        return 0.0, Interval(-math.inf, math.inf)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, Interval(-math.inf, math.inf)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = _t975(n - 1) * math.sqrt(var / n)
    return mean, Interval(mean - half, mean + half)


def _wilson(wins: float, n: int, z: float = 1.96) -> Interval:
    low, high = wilson_interval(wins, n, z)  # type: ignore[arg-type]
    return Interval(low, high)


def _quantile(s: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``s`` (the smallest value with at least ``q`` of ``s`` at
    or below it)."""
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


@dataclass(frozen=True)
class Cost:
    """Milliseconds per decision with a choice (two or more legal actions; in Mậu Binh the
    arrangement, not its confirmation): wall-clock (``*_ms``), and the CPU time of the
    deciding thread (``cpu_*_ms``: what the decision costs on an idle core, whatever else
    the machine was running)."""

    decisions: int
    mean_ms: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    cpu_mean_ms: float = 0.0
    cpu_p99_ms: float = 0.0

    @classmethod
    def of(cls, times: Sequence[float], cpu: Sequence[float] = ()) -> Cost:
        """The figures of wall-clock ``times`` and thread ``cpu`` times (milliseconds)."""
        if not times:
            return cls(0, 0.0, 0.0, 0.0, 0.0)
        s = sorted(times)
        c = sorted(cpu) or [0.0]
        n = len(s)
        return cls(
            n,
            math.fsum(s) / n,
            _quantile(s, 0.5),
            _quantile(s, 0.99),
            s[-1],
            math.fsum(c) / len(c),
            _quantile(c, 0.99),
        )


@dataclass(frozen=True)
class BotFigures:
    """One bot's figures in one pairing."""

    name: str
    seats: int
    units: float
    units_ci: Interval
    first_rate: float
    first_ci: Interval
    mean_place: float
    place_ci: Interval
    cost: Cost


@dataclass
class Pairing:
    """Two bots (``a``, ``b``) over the same deals: their figures and ``a``'s lead in units per
    game over ``b`` (``diff``, with its interval)."""

    a: str
    b: str
    seats: tuple[str, ...]
    deals: int
    games: int
    bots: dict[str, BotFigures]
    diff: float
    diff_ci: Interval
    #: Seconds of work the pairing took (summed over the processes that played it).
    seconds: float
    #: Per deal: ``a``'s units per game minus ``b``'s (for shares and reruns).
    deal_diffs: list[float] = dataclasses.field(repr=False, default_factory=list)

    @property
    def label(self) -> str:
        """``"a vs b"``."""
        return f"{self.a} vs {self.b}"


@dataclass
class StrengthReport:
    """A benchmark run: its settings, the pairings, and the cheating shares."""

    game: str
    players: int
    field: str
    seed: int
    deals: int
    pairings: list[Pairing]
    #: Per honest bot: (share of the cheating bot's advantage over greedy, its interval).
    shares: dict[str, tuple[float, Interval]] = dataclasses.field(default_factory=dict)
    options: dict[str, Any] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0

    def pairing(self, a: str, b: str) -> Pairing:
        """The pairing of ``a`` and ``b`` (either order)."""
        for p in self.pairings:
            if {p.a, p.b} == {a, b}:
                return p
        raise KeyError(f"no pairing of {a} and {b}")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe figures."""

        def iv(i: Interval) -> list[float]:
            return [i.low, i.high]

        return {
            "game": self.game,
            "players": self.players,
            "field": self.field,
            "seed": self.seed,
            "deals": self.deals,
            "options": self.options,
            "seconds": round(self.seconds, 2),
            "pairings": [
                {
                    "a": p.a,
                    "b": p.b,
                    "seats": list(p.seats),
                    "deals": p.deals,
                    "games": p.games,
                    "diff": p.diff,
                    "diff_ci95": iv(p.diff_ci),
                    "seconds": round(p.seconds, 2),
                    "bots": {
                        n: {
                            "seats": f.seats,
                            "units": f.units,
                            "units_ci95": iv(f.units_ci),
                            "first_rate": f.first_rate,
                            "first_ci95": iv(f.first_ci),
                            "mean_place": f.mean_place,
                            "place_ci95": iv(f.place_ci),
                            "decisions": f.cost.decisions,
                            "ms_mean": f.cost.mean_ms,
                            "ms_p50": f.cost.p50_ms,
                            "ms_p99": f.cost.p99_ms,
                            "ms_max": f.cost.max_ms,
                            "cpu_ms_mean": f.cost.cpu_mean_ms,
                            "cpu_ms_p99": f.cost.cpu_p99_ms,
                        }
                        for n, f in p.bots.items()
                    },
                }
                for p in self.pairings
            ],
            "shares": {n: {"share": s, "ci95": iv(ci)} for n, (s, ci) in self.shares.items()},
        }

    def table(self) -> str:
        """The figures as a Markdown table (one row per bot per pairing)."""
        rows = [
            "| pairing | bot | units/game (95% CI) | first places (95% CI) | mean place (95% CI) | ms/decision: wall mean, p99; CPU mean, p99 |",
            "|---|---|---|---|---|---|",
        ]
        for p in self.pairings:
            for n in dict.fromkeys((p.a, p.b)):
                f = p.bots[n]
                rows.append(
                    f"| {p.label} | {n} | {f.units:+.2f} {f.units_ci} | {f.first_rate:.1%} "
                    f"[{f.first_ci.low:.1%}, {f.first_ci.high:.1%}] | {f.mean_place:.2f} "
                    f"[{f.place_ci.low:.2f}, {f.place_ci.high:.2f}] | {f.cost.mean_ms:.1f}, {f.cost.p99_ms:.1f}; "
                    f"{f.cost.cpu_mean_ms:.1f}, {f.cost.cpu_p99_ms:.1f} |"
                )
        lines = ["\n".join(rows), ""]
        lines.append("| pairing | lead in units/game (95% CI) | beats it? |")
        lines.append("|---|---|---|")
        for p in self.pairings:
            verdict = "yes" if p.diff_ci.low > 0 else ("no (behind)" if p.diff_ci.high < 0 else "not shown")
            lines.append(f"| {p.label} | {p.diff:+.2f} {p.diff_ci} | {verdict} |")
        if self.shares:
            lines += ["", "| bot | share of the cheating bot's advantage over greedy (95% CI) |", "|---|---|"]
            for n, (s, ci) in self.shares.items():
                lines.append(f"| {n} | {s:.0%} [{ci.low:.0%}, {ci.high:.0%}] |")
        return "\n".join(lines)


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


def _factory(text: str, game: str, rules: Any) -> Callable[[Any], Any]:
    name, options = parse_bot(text)
    return bot_factory(name, game, rules, **options)


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
    makers = {n: _factory(n, batch.game, rules) for n in names}
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
        _factory(b, game, table.rules)(0)
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


def _shares(report: StrengthReport, field: str) -> dict[str, tuple[float, Interval]]:
    """Each honest bot's share of the cheating bot's lead over greedy (same deals, same
    field), with a bootstrap interval over the deals."""
    against = {p.a: p for p in report.pairings if p.b == "greedy"}
    against.update({p.b: _flipped(p) for p in report.pairings if p.a == "greedy"})
    cheat = against.get("cheating")
    if cheat is None:
        return {}
    out = {}
    rng = random.Random(report.seed)
    top = cheat.deal_diffs
    n = len(top)
    for name, p in against.items():
        if name == "cheating" or len(p.deal_diffs) != n:
            continue
        mine = p.deal_diffs
        share = math.fsum(mine) / math.fsum(top) if math.fsum(top) else math.nan
        boots = []
        for _ in range(BOOTSTRAP):
            idx = [rng.randrange(n) for _ in range(n)]
            t = math.fsum(top[i] for i in idx)
            if t:
                boots.append(math.fsum(mine[i] for i in idx) / t)
        boots.sort()
        if boots:
            ci = Interval(boots[int(0.025 * len(boots))], boots[min(len(boots) - 1, int(0.975 * len(boots)))])
        else:
            ci = Interval(-math.inf, math.inf)
        out[name] = (share, ci)
    return out


def _flipped(p: Pairing) -> Pairing:
    """``p`` seen from ``b``'s side."""
    lo, hi = p.diff_ci.low, p.diff_ci.high
    return Pairing(
        p.b,
        p.a,
        p.seats,
        p.deals,
        p.games,
        p.bots,
        -p.diff,
        Interval(-hi, -lo),
        p.seconds,
        [-d for d in p.deal_diffs],
    )
