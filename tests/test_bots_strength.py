"""Issue 25: the strength benchmark (vncards.bots.strength, benches/bots_strength.py): duplicate
deals, the same deals for every pairing, intervals, fields and pairings, the cheating shares,
reproducibility across processes. Tiny runs: the figures themselves come from the full profile."""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from support.tree import source_tree
from vncards import RulesError
from vncards.bots.strength import (
    PROFILES,
    Cost,
    Interval,
    _places,
    _rotations,
    bench_bots,
    pairings_of,
    parse_bot,
    seating,
    t_interval,
)

ROOT = Path(__file__).resolve().parent.parent


def test_each_deal_is_played_once_per_distinct_rotation() -> None:
    assert _rotations(("a", "b", "a", "b")) == [0, 1]
    assert _rotations(("a", "b", "b", "b")) == [0, 1, 2, 3]
    assert _rotations(("a", "b", "a")) == [0, 1, 2]
    assert seating("x", "y", 2, "solo") == ("x", "y")
    with pytest.raises(RulesError, match="field"):
        seating("x", "y", 4, "round")
    with pytest.raises(RulesError, match="pairings"):
        pairings_of(["a", "b"], "some")
    assert pairings_of(["a", "b", "c"], "all") == [("a", "b"), ("a", "c"), ("b", "c")]
    assert PROFILES["full"] == 10_000


def test_places_share_ties_and_firsts() -> None:
    assert _places([5, -1, -2, -2]) == ([1, 2, 3.5, 3.5], [1.0, 0.0, 0.0, 0.0])
    assert _places([0, 0, 0]) == ([2.0, 2.0, 2.0], [0.0, 0.0, 0.0])  # a draw has no first place
    assert _places([3, 3, -6]) == ([1.5, 1.5, 3.0], [0.5, 0.5, 0.0])


def test_intervals() -> None:
    mean, ci = t_interval([2.0] * 10)
    assert mean == 2.0 and ci == Interval(2.0, 2.0) and ci.excludes_zero
    _, ci = t_interval([1.0, -1.0] * 50)
    assert not ci.excludes_zero and ci.high == pytest.approx(1.9842 * math.sqrt(100 / 99) / 10, rel=0.001)
    cost = Cost.of([float(i) for i in range(1, 101)])
    assert (cost.decisions, cost.p50_ms, cost.p99_ms, cost.max_ms) == (100, 50.0, 99.0, 100.0)


def test_parse_bot_reads_options() -> None:
    assert parse_bot("montecarlo:budget=400") == ("montecarlo", {"budget": 400})
    assert parse_bot("search:think_ms=2.5:rollouts=none") == ("search", {"think_ms": 2.5, "rollouts": None})
    with pytest.raises(RulesError, match="KEY=VALUE"):
        parse_bot("search:fast")


def test_the_same_deals_for_every_pairing_and_any_number_of_processes() -> None:
    three = bench_bots("tienlen", ["greedy", "random", "easy"], deals=8, seed=6, jobs=1)
    two = bench_bots("tienlen", ["greedy", "random"], deals=8, seed=6, jobs=2)
    a, b = three.pairing("greedy", "random"), two.pairing("greedy", "random")
    assert a.deal_diffs == b.deal_diffs and a.diff == b.diff
    assert a.games == 16 and a.bots["greedy"].seats == 32
    # easy is greedy: the same bot on the same deals draws exactly.
    assert three.pairing("greedy", "easy").diff == 0
    # Units are zero-sum in each pairing; the lead is the difference of the two bots' units.
    assert a.diff == pytest.approx(a.bots["greedy"].units - a.bots["random"].units)


def test_solo_field_first_places_and_cheating_shares() -> None:
    report = bench_bots(
        "samloc",
        ["search:rollouts=60", "cheating:rollouts=60", "greedy"],
        deals=6,
        seed=9,
        field="solo",
        pairings="last",
        jobs=1,
    )
    p = report.pairing("cheating:rollouts=60", "greedy")
    assert p.seats == ("cheating:rollouts=60", "greedy", "greedy", "greedy") and p.games == 24
    f = p.bots["cheating:rollouts=60"]
    assert 0 <= f.first_ci.low <= f.first_rate <= f.first_ci.high <= 1
    assert 1 <= f.mean_place <= 4 and f.cost.decisions > 0
    # No cheating bot named "cheating" exactly: no share.
    assert report.shares == {}
    report = bench_bots(
        "maubinh", ["solver", "cheating", "greedy"], deals=10, seed=2, pairings="last", jobs=1
    )
    share, ci = report.shares["solver"]
    assert ci.low <= share <= ci.high
    table = report.table()
    assert "share of the cheating bot's advantage" in table and "| solver vs greedy |" in table
    assert report.to_dict()["shares"]["solver"]["share"] == share


def test_bad_runs_are_refused() -> None:
    with pytest.raises(RulesError, match="two bots"):
        bench_bots("tienlen", ["greedy"], deals=1)
    with pytest.raises(RulesError, match="profile"):
        bench_bots("tienlen", ["greedy", "random"], profile="huge")
    with pytest.raises(RulesError, match="no bot"):
        bench_bots("tusac", ["greedy", "montecarlo"], deals=1)


@source_tree
def test_bench_script_runs_as_a_program() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benches" / "bots_strength.py"),
            "--deals",
            "2",
            "--jobs",
            "1",
            "--game",
            "maubinh",
            "--run",
            "ladder",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "maubinh: ladder" in out.stdout and "| expert vs hard |" in out.stdout


def _bench(name: str) -> Any:
    """``benches/<name>.py`` imported as a module."""
    spec_ = importlib.util.spec_from_file_location(name, ROOT / "benches" / f"{name}.py")
    assert spec_ and spec_.loader
    mod = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(mod)
    return mod


@source_tree
def test_bench_script_main_returns_the_figures() -> None:
    mod = _bench("bots_strength")
    [result] = mod.main(["--deals", "3", "--jobs", "1", "--game", "maubinh", "--run", "share", "--seed", "4"])
    assert result["title"] == "share" and "hard" in result["shares"]
    assert [p["a"] for p in result["pairings"]] == ["normal", "hard", "expert", "cheating"]


@source_tree
def test_bench_script_has_the_tienlen_goals_heads_up_too() -> None:
    mod = _bench("bots_strength")
    goals = [r for r in mod.runs("tienlen") if r[0].startswith("goal")]
    assert [r[4] for r in goals] == [None, 2, None]  # four seats, heads-up, four seats
    assert not [r for r in mod.runs("samloc") if r[0].startswith("goal")]


@source_tree
def test_think_bench_reports_the_decision_times() -> None:
    mod = _bench("bots_think_bench")
    [row] = mod.main(["--deals", "1", "--game", "tienlen", "--budget", "3"])
    assert row["game"] == "tienlen" and row["think_ms"] == 3 and row["decisions"] > 0
    assert 0 < row["p50_ms"] <= row["p99_ms"] <= row["max_ms"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deals": 10**12}, "deals must be an int in 1..10000000, not 1000000000000"),
        ({"deals": "5"}, "deals must be an int in 1..10000000, not '5'"),
        ({"deals": 2.5}, "deals must be an int in 1..10000000, not 2.5"),
        ({"deals": 0}, "deals must be an int in 1..10000000, not 0"),
        ({"jobs": 10**6}, "jobs must be None or an int in 1..256, not 1000000"),
        ({"seed": -1}, "seed must be a non-negative int, not -1"),
        ({"seed": None}, "seed must be a non-negative int, not None"),
        (
            {"bots": [f"random:x={i}" for i in range(20)], "deals": 10**6},
            "at most 100000000 deals (190 pairings × 1000000 deals)",
        ),
        ({"bots": "greedy,random"}, "bots must be a list of bot names, not str"),
    ],
)
def test_bench_counts_are_bounded(kwargs: dict[str, Any], message: str) -> None:
    """``deals`` is an int with a bound (``int(deals)`` took ``"5"`` and ``2.5``; 10**12 deals
    built the list of batches), and so is the whole run (pairings × deals)."""
    call = {"bots": ["greedy", "random"], "deals": 1, "jobs": 1, **kwargs}
    with pytest.raises(RulesError) as e:
        bench_bots("tienlen", call.pop("bots"), **call)
    assert message in str(e.value), str(e.value)
    assert "10,000,000" in (bench_bots.__doc__ or "")
