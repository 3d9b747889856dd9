"""vncards.parallel: batches on an executor, failures as WorkerError, cancellation."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from vncards import parallel
from vncards.errors import VncardsError
from vncards.parallel import WorkerError, batch_ranges, run_batches, worker_context


def square(x: int) -> int:
    return x * x


def fail_on_three(x: int) -> int:
    if x == 3:
        raise ZeroDivisionError("three is not allowed")
    return x


def die_on_three(x: int) -> int:
    if x == 3:
        os._exit(7)  # a worker process killed mid-batch
    return x


def die_in_a_worker(x: int) -> int:
    """Kills any worker process that runs it; in the calling process (which plays batches
    too with ``jobs=``), it takes a while, so the workers get some of the batches."""
    if multiprocessing.parent_process() is not None:
        os._exit(7)
    time.sleep(0.05)
    return x


@pytest.mark.parametrize("total,size", [(0, 3), (1, 1), (7, 3), (9, 3), (10, 100)])
def test_batch_ranges_cover_every_index_once(total: int, size: int) -> None:
    ranges = batch_ranges(total, size)
    assert [i for r in ranges for i in r] == list(range(total))
    assert all(0 < len(r) <= size for r in ranges)


def test_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        batch_ranges(5, 0)


@pytest.fixture
def workers_always(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers start however short the run (by default a short one is played here alone)."""
    monkeypatch.setattr(parallel, "SHORT_RUN", 0.0)


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_batch_once_with_its_result(jobs: int) -> None:
    out = dict(run_batches(square, list(range(10)), jobs=jobs))
    assert out == {x: x * x for x in range(10)}


def where(x: int) -> tuple[int, int]:
    time.sleep(0.002)
    return x, os.getpid()


@pytest.mark.usefixtures("workers_always")
def test_this_process_plays_batches_while_the_workers_start() -> None:
    # No core waits for the workers' start-up: this process starts on the last batches.
    out = list(run_batches(where, list(range(40)), jobs=2))
    assert sorted(b for b, _ in out) == list(range(40))
    assert [b for b, (_, pid) in out if pid == os.getpid()][:1] == [39]


def _earlier_pools_closed() -> None:
    """Wait for the pools of earlier runs that ended before their workers were up: their
    starter thread closes them in the background (on a loaded machine, after this test began)."""
    for thread in threading.enumerate():
        if thread.name == "vncards-workers-start":
            thread.join(60)


def test_a_short_run_starts_no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    # 20 batches of 2 ms: short by any threshold, but a loaded machine can stretch the first
    # batch tenfold, so the threshold here is one no load reaches (the rule, not the figure).
    monkeypatch.setattr(parallel, "SHORT_RUN", 10.0)
    _earlier_pools_closed()
    assert not multiprocessing.active_children()
    out = list(run_batches(where, list(range(20)), jobs=2))
    assert sorted(b for b, _ in out) == list(range(20))
    assert {pid for _, (_, pid) in out} == {os.getpid()}
    assert not multiprocessing.active_children()


def test_any_executor() -> None:
    with ThreadPoolExecutor(3) as pool:
        assert sorted(r for _, r in run_batches(square, [1, 2, 3], executor=pool)) == [1, 4, 9]


@pytest.mark.usefixtures("workers_always")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_batch_is_a_clear_error(jobs: int) -> None:
    with pytest.raises(WorkerError, match="3 failed: ZeroDivisionError: three is not allowed") as e:
        list(run_batches(fail_on_three, [1, 2, 3, 4], jobs=jobs))
    assert isinstance(e.value, VncardsError)
    assert isinstance(e.value.__cause__, ZeroDivisionError)


def test_a_dead_worker_process_is_an_error_not_a_hang() -> None:
    with pytest.raises(WorkerError, match="BrokenProcessPool"):
        list(run_batches(die_in_a_worker, list(range(400)), jobs=2))
    with (
        ProcessPoolExecutor(2, mp_context=worker_context()) as pool,
        pytest.raises(WorkerError, match="BrokenProcessPool"),
    ):
        list(run_batches(die_on_three, list(range(6)), executor=pool))


class Recording(Executor):
    """Runs nothing until told to: records what was submitted and what was cancelled."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []
        self.work: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []  # per future: fn, args

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.futures.append(future)
        self.work.append((fn, args))
        return future

    def finish(self, i: int) -> None:
        fn, args = self.work[i]
        self.futures[i].set_running_or_notify_cancel()
        try:
            self.futures[i].set_result(fn(*args))
        except Exception as e:
            self.futures[i].set_exception(e)


def test_leaving_early_cancels_the_batches_not_yet_run() -> None:
    ex = Recording()
    batches = run_batches(square, [1, 2, 3, 4], executor=ex)
    threading.Timer(0.01, ex.finish, (2,)).start()
    assert next(batches) == (3, 9)
    batches.close()  # a `break`, an error or Ctrl-C in the caller's loop
    assert [f.cancelled() for f in ex.futures] == [True, True, False, True]


def test_a_failure_cancels_the_rest() -> None:
    ex = Recording()
    batches = run_batches(fail_on_three, [1, 2, 3, 4], executor=ex)
    threading.Timer(0.01, ex.finish, (2,)).start()
    with pytest.raises(WorkerError):
        next(batches)
    assert [f.cancelled() for f in ex.futures] == [True, True, False, True]
