"""Batches of work on any :class:`concurrent.futures.Executor`: local processes, a Ray cluster
(:class:`vncards.ray_executor.RayExecutor`), Dask (``client.get_executor()``).

The simulations and the Mậu Binh table generator cut their work into batches (hundreds of
games, thousands of deals), each a picklable description that a worker turns into a partial
result; the caller merges the partial results with exact integer sums, so the outcome does not
depend on where, in which order or in how many batches the work ran.

>>> from vncards.parallel import run_batches
>>> sorted(result for _, result in run_batches(abs, [-1, 2, -3], jobs=1))
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import TypeVar

from .errors import WorkerError

__all__ = ["WorkerError", "batch_ranges", "run_batches", "worker_context"]

B = TypeVar("B")
R = TypeVar("R")


def batch_ranges(total: int, size: int) -> list[range]:
    """``range(total)`` cut into consecutive ranges of ``size`` (the last may be shorter).

    >>> batch_ranges(5, 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    """
    if size < 1:
        raise ValueError(f"batch size must be at least 1, not {size}")
    return [range(i, min(i + size, total)) for i in range(0, total, size)]


def run_batches(
    work: Callable[[B], R],
    batches: Sequence[B],
    *,
    executor: Executor | None = None,
    jobs: int | None = None,
    preload: Sequence[str] = (),
) -> Generator[tuple[B, R], None, None]:
    """Runs ``work(batch)`` for every batch and yields ``(batch, result)`` as batches complete
    (in completion order, which differs between runs: merge results order-independently).

    ``executor``: where the batches run; ``work`` and the batches must pickle. Without one,
    ``jobs`` processes (default: one per core) run them: this process and ``jobs - 1`` local
    worker processes (:func:`worker_context`). This process starts on the last batches at once,
    while the workers start up, then the workers take batches from the front and this process
    from the back until none is left: no core waits for another's start-up. A run whose first
    batch says the rest takes this process less than :data:`SHORT_RUN` seconds starts no
    worker. ``jobs == 1`` or a single batch: this process alone.
    ``preload``: modules the workers need besides ``work``'s own (see :func:`worker_context`).

    A batch that raises becomes a :class:`WorkerError` naming the batch, with the worker's
    exception as its cause; leaving the loop early (that error, Ctrl-C, ``break``) cancels every
    batch not yet started (on Ray, through ``Future.cancel``, the remote tasks too).
    """
    if executor is not None:
        yield from _on(executor, work, batches)
        return
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(batches) <= 1:
        for batch in batches:
            yield batch, _here(work, batch)
        return
    yield from _shared(work, batches, jobs - 1, worker_context([work.__module__, *preload]))


def worker_context(preload: Sequence[str] = ()) -> multiprocessing.context.BaseContext:
    """How to start local worker processes: ``forkserver`` where there is one, else ``spawn``.
    Never a plain ``fork`` of this process: the Rust core's thread pool (rayon) does not
    survive a fork, and a forked worker that uses it waits forever. Pass it to your own pool:
    ``ProcessPoolExecutor(4, mp_context=worker_context())``.

    ``preload``: modules the fork server imports before it forks any worker (besides those
    already asked for; it starts once per process, so only the first call's list counts), so
    each worker starts in milliseconds instead of importing them anew."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    from multiprocessing import forkserver  # where there is one

    context = multiprocessing.get_context("forkserver")
    asked = getattr(forkserver._forkserver, "_preload_modules", ["__main__"])
    if not set(preload) <= set(asked):
        context.set_forkserver_preload(list(dict.fromkeys([*asked, *preload])))
    return context


#: Seconds of work left, estimated from the first batch (the smallest, when the batches taper),
#: under which this process plays the whole run alone: about what starting a worker costs.
SHORT_RUN = 0.25


def _here(work: Callable[[B], R], batch: B) -> R:
    """``work(batch)`` in this process, a failure named like a worker's."""
    try:
        return work(batch)
    except Exception as e:
        raise _failed(batch, e) from e


def _started() -> None:
    """A no-op task: its submission starts a worker process."""


def _shared(
    work: Callable[[B], R], batches: Sequence[B], workers: int, context: multiprocessing.context.BaseContext
) -> Iterator[tuple[B, R]]:
    """The batches on this process and ``workers`` local processes (see :func:`run_batches`)."""
    todo = deque(batches)
    batch = todo.pop()
    began = time.perf_counter()
    result = _here(work, batch)
    # A run this process finishes sooner than a worker could start: no workers at all.
    short = (time.perf_counter() - began) * len(todo) < SHORT_RUN
    yield batch, result
    if short:
        while todo:
            batch = todo.pop()
            yield batch, _here(work, batch)
        return
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    up = threading.Event()
    handover = threading.Lock()
    left = False  # this process has left the loop (finished, failed or stopped)

    def start() -> None:
        # Starting the fork server takes a few tenths of a second: not on the caller's thread.
        try:
            for _ in range(workers):
                pool.submit(_started)
        finally:
            with handover:
                up.set()
                orphaned = left
            if orphaned:  # the caller did not wait for the pool: close it here
                pool.shutdown(wait=True, cancel_futures=True)

    # Not a daemon: at exit Python waits for it to close the pool it started.
    starter = threading.Thread(target=start, name="vncards-workers-start")
    starter.start()
    pending: dict[Future[R], B] = {}
    try:
        while todo and not up.is_set():
            batch = todo.pop()
            yield batch, _here(work, batch)
        # The workers are up: they take batches from the front (each has one running and one
        # waiting), this process from the back, until none is left.
        while todo:
            while todo and len(pending) < 2 * workers:
                batch = todo.popleft()
                pending[pool.submit(work, batch)] = batch
            if todo:
                batch = todo.pop()
                yield batch, _here(work, batch)
            for done in [f for f in pending if f.done()]:
                yield _result(pending, done)
        for done in as_completed(list(pending)):
            yield _result(pending, done)
    finally:
        with handover:
            left = True
            ready = up.is_set()
        if ready:
            # The pool's own thread cancels what has not started (cancelling here could race
            # with it marking the futures of a broken pool failed).
            starter.join()
            pool.shutdown(wait=True, cancel_futures=True)
        # else: a short run, done before the workers were up; the starter closes the pool.


def _result(pending: dict[Future[R], B], future: Future[R]) -> tuple[B, R]:
    """The finished ``future``'s batch and result, taken out of ``pending``."""
    batch = pending.pop(future)  # drop the reference: results can be large
    try:
        return batch, future.result()
    except Exception as e:
        raise _failed(batch, e) from e


def _on(executor: Executor, work: Callable[[B], R], batches: Sequence[B]) -> Iterator[tuple[B, R]]:
    pending: dict[Future[R], B] = {executor.submit(work, b): b for b in batches}
    try:
        for future in as_completed(list(pending)):
            yield _result(pending, future)
    finally:
        for future in pending:
            future.cancel()


def _failed(batch: object, error: BaseException) -> WorkerError:
    # Remote errors (Ray) carry the worker's traceback in their text: its last line says what
    # went wrong.
    lines = str(error).strip().splitlines()
    detail = f": {lines[-1].strip()}" if lines else ""
    return WorkerError(f"{batch} failed: {type(error).__name__}{detail}")
