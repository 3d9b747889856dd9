"""vncards.simulate orchestration: per-game streams from the run seed, and the same totals
whatever the executor, the number of workers or the batch size."""

from __future__ import annotations

import re
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vncards import parallel
from vncards.errors import RulesError
from vncards.games import new_game
from vncards.parallel import WorkerError, worker_context
from vncards.simulate import BATCH_SIZE, BotStats, GameSeeds, Summary, game_ranges, game_seeds, simulate

RUN: dict[str, Any] = {"game_name": "tienlen", "games": 24, "bot_names": ["greedy", "random"], "seed": 11}


def totals(summary: Summary) -> dict[str, Any]:
    return summary.to_dict()


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return totals(simulate(**RUN, jobs=1))


def hands(seed: int) -> list[Any]:
    hand: list[Any] = new_game("tienlen", 4, None, seed=seed).view(0)["hand"]
    return hand


def test_games_of_different_runs_never_share_a_stream() -> None:
    # The old derivation (seed * 1_000_003 + index) made run s, game i + 1,000,003 the very
    # same game as run s + 1, game i.
    for s, i in [(0, 0), (1, 5), (41, 999)]:
        a, b = game_seeds(s, i + 1_000_003, 4), game_seeds(s + 1, i, 4)
        assert a.deal != b.deal and not set(a.bots) & set(b.bots)
        assert hands(a.deal) != hands(b.deal)
    seen = [
        x for s in range(4) for i in range(300) for x in (lambda g: (g.deal, *g.bots))(game_seeds(s, i, 4))
    ]
    assert len(set(seen)) == len(seen)


def test_game_seeds_are_a_pure_function_of_seed_and_index() -> None:
    assert game_seeds(7, 123, 3) == game_seeds(7, 123, 3)
    assert game_seeds(7, 123, 3).bots == game_seeds(7, 123, 4).bots[:3]
    assert all(0 <= x < 2**256 for x in (game_seeds(2**70, 2**40, 2).deal,))
    with pytest.raises(ValueError, match="non-negative"):
        game_seeds(-1, 0, 4)


def test_negative_run_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        simulate("tienlen", 2, ["random"], seed=-1, jobs=1)


@pytest.mark.parametrize("batch_size", [1, 5, 7, 24, 1000])
def test_batch_size_does_not_change_the_totals(reference: dict[str, Any], batch_size: int) -> None:
    assert totals(simulate(**RUN, jobs=1, batch_size=batch_size)) == reference


@pytest.fixture
def workers_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start however short the run (by default a short one is played here alone)."""
    monkeypatch.setattr(parallel, "SHORT_RUN", 0.0)


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("workers", [1, 2])
def test_process_pools_give_the_same_totals(reference: dict[str, Any], workers: int) -> None:
    with ProcessPoolExecutor(workers, mp_context=worker_context()) as pool:
        assert totals(simulate(**RUN, executor=pool, batch_size=5)) == reference
    assert totals(simulate(**RUN, jobs=workers, batch_size=3)) == reference


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("jobs", [2, 3])
def test_worker_count_does_not_change_a_longer_run(jobs: int) -> None:
    # Default batches (tapered), this process and its workers each playing some of them.
    run: dict[str, Any] = {"game_name": "tienlen", "games": 300, "bot_names": ["random"], "seed": 5}
    assert totals(simulate(**run, jobs=jobs)) == totals(simulate(**run, jobs=1))


@pytest.mark.parametrize("games", [0, 1, 7, 64, 999, 6401, 50_000])
def test_default_batches_cover_every_game_once(games: int) -> None:
    ranges = game_ranges(games)
    assert [i for r in ranges for i in r] == list(range(games))
    assert all(0 < len(r) <= BATCH_SIZE for r in ranges)
    if games >= 64:
        assert len(ranges[-1]) <= len(ranges[0]) // 8 + 1  # the run ends on small batches


def test_any_executor_and_progress_counts_every_game(reference: dict[str, Any]) -> None:
    seen: list[int] = []
    with ThreadPoolExecutor(3) as pool:
        summary = simulate(**RUN, executor=pool, batch_size=5, progress=seen.append)
    assert totals(summary) == reference
    assert sorted(seen) == [4, 5, 5, 5, 5]


def test_merge_is_exact_sums() -> None:
    a, b = Summary("tienlen", 2), Summary("tienlen", 3)
    a.bots["x"] = BotStats("x", seats_played=2, wins=1, units=5, units_sq=13)
    b.bots["x"] = BotStats("x", seats_played=3, wins=0, units=-5, units_sq=9)
    b.bots["y"] = BotStats("y", seats_played=1, units=1, units_sq=1)
    b.events.update({"cut": 2})
    a.merge(b)
    assert (a.games, a.bots["x"].seats_played, a.bots["x"].units, a.bots["x"].units_sq) == (5, 5, 0, 22)
    assert a.bots["y"].units == 1 and a.events == {"cut": 2}


def explode(_: object) -> None:
    raise RuntimeError("the worker ran out of luck")


class Exploding(ProcessPoolExecutor):
    """A pool whose tasks raise in the worker process."""

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        return super().submit(explode, *args)


def test_a_failing_worker_task_is_a_clear_error() -> None:
    with Exploding(2, mp_context=worker_context()) as pool, pytest.raises(WorkerError) as e:
        simulate(**RUN, executor=pool, batch_size=5)
    assert "tienlen games" in str(e.value) and "the worker ran out of luck" in str(e.value)


def numpy_game_seeds(seed: int, index: int, players: int) -> GameSeeds:
    """The definition game_seeds computes without numpy objects: SeedSequence itself."""
    import numpy as np

    def seed_of(sequence: np.random.SeedSequence) -> int:
        return int.from_bytes(sequence.generate_state(8, np.uint32).astype("<u4").tobytes(), "little")

    game = np.random.SeedSequence(seed, spawn_key=(index,))
    return GameSeeds(seed_of(game), tuple(seed_of(child) for child in game.spawn(players)))


@given(
    st.one_of(st.integers(0, 2**40), st.integers(0, 2**300)),
    st.one_of(st.integers(0, 10_000), st.integers(0, 2**80)),
    st.integers(1, 4),
)
def test_game_seeds_are_numpys_seed_sequence(seed: int, index: int, players: int) -> None:
    assert game_seeds(seed, index, players) == numpy_game_seeds(seed, index, players)


@pytest.mark.parametrize("seed,index", [(0, 0), (2**32 - 1, 2**32), (2**128, 1), (2**128 - 1, 7)])
def test_game_seeds_at_word_boundaries(seed: int, index: int) -> None:
    assert game_seeds(seed, index, 4) == numpy_game_seeds(seed, index, 4)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 10**12}, "games must be an int in 1..100000000, not 1000000000000"),
        ({"games": 0}, "games must be an int in 1..100000000, not 0"),
        ({"games": "5"}, "games must be an int in 1..100000000, not '5'"),
        ({"games": 2.0}, "games must be an int in 1..100000000, not 2.0"),
        ({"jobs": 10**6}, "jobs must be None or an int in 1..256, not 1000000"),
        ({"jobs": 0}, "jobs must be None or an int in 1..256, not 0"),
        ({"batch_size": 0}, "batch_size must be None or an int in 1..100000000, not 0"),
        ({"seed": "x"}, "seed must be a non-negative int, not 'x'"),
        ({"seed": -1}, "seed must be a non-negative int, not -1"),
    ],
)
def test_run_arguments_are_bounded(kwargs: dict[str, Any], message: str) -> None:
    """Every count of a run is an int with a bound (10**12 games built the list of batches
    until MemoryError; a million jobs would start a million processes), and the bounds are
    in the docstring."""
    call = {"games": 2, "jobs": 1, **kwargs}
    with pytest.raises(RulesError) as e:
        simulate("tienlen", call.pop("games"), ["random"], **call)
    assert message in str(e.value), str(e.value)
    assert "100,000,000" in (simulate.__doc__ or "") and "256" in (simulate.__doc__ or "")


def test_seed_and_range_helpers_are_bounded() -> None:
    from vncards.simulate import play_game

    for call, message in (
        (lambda: game_seeds(0, 0, 10**9), "players must be an int in 1..64, not 1000000000"),
        (lambda: game_seeds("x", 0, 4), "seed must be a non-negative int, not 'x'"),  # type: ignore[arg-type]  # refused at run time
        (lambda: game_ranges(10**12), "games must be an int in 0..100000000, not 1000000000000"),
        (
            lambda: play_game(new_game("tienlen", seed=1), [], "x"),  # type: ignore[arg-type]  # refused at run time
            "max_actions must be an int in 1..1000000000",
        ),
    ):
        with pytest.raises(RulesError, match=re.escape(message)):
            call()
