"""What the bots' strength benchmark (:func:`vncards.bots.strength.bench_bots`) reports: the
intervals of its figures (Student's t over the deals, Wilson for win rates), each bot's cost
per decision, each bot's figures in a pairing, the pairings and the report with its tables;
the benchmark plays the deals and this module only counts and prints.

>>> mean, ci = t_interval([1.0, 2.0, 3.0])   # three deals tell little
>>> mean, ci.excludes_zero
(2.0, False)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..runs import wilson_interval

__all__ = ["BotFigures", "Cost", "Interval", "Pairing", "StrengthReport", "t_interval"]

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
