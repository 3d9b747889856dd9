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
from collections.abc import Callable, Iterator, Sequence
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
) -> Iterator[tuple[B, R]]:
    """Runs ``work(batch)`` for every batch and yields ``(batch, result)`` as batches complete
    (in completion order, which differs between runs: merge results order-independently).

    ``executor``: where the batches run; ``work`` and the batches must pickle. Without one,
    a :class:`~concurrent.futures.ProcessPoolExecutor` of ``jobs`` processes (default: one per
    core) runs them, or this process when ``jobs == 1`` or there is a single batch.

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
            try:
                result = work(batch)
            except Exception as e:
                raise _failed(batch, e) from e
            yield batch, result
        return
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context())
    try:
        yield from _on(pool, work, batches)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def worker_context() -> multiprocessing.context.BaseContext:
    """How to start local worker processes: ``forkserver`` where there is one, else ``spawn``.
    Never a plain ``fork`` of this process: the Rust core's thread pool (rayon) does not
    survive a fork, and a forked worker that uses it waits forever. Pass it to your own pool:
    ``ProcessPoolExecutor(4, mp_context=worker_context())``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _on(executor: Executor, work: Callable[[B], R], batches: Sequence[B]) -> Iterator[tuple[B, R]]:
    pending: dict[Future[R], B] = {executor.submit(work, b): b for b in batches}
    try:
        for future in as_completed(pending):
            batch = pending.pop(future)  # drop the reference: results can be large
            try:
                result = future.result()
            except Exception as e:
                raise _failed(batch, e) from e
            yield batch, result
    finally:
        for future in pending:
            future.cancel()


def _failed(batch: object, error: BaseException) -> WorkerError:
    # Remote errors (Ray) carry the worker's traceback in their text: its last line says what
    # went wrong.
    lines = str(error).strip().splitlines()
    detail = f": {lines[-1].strip()}" if lines else ""
    return WorkerError(f"{batch} failed: {type(error).__name__}{detail}")
