"""Ray as a :class:`concurrent.futures.Executor` (extra ``ray``: ``pip install 'vncards[ray]'``).

``RayExecutor(address)`` connects to a running cluster (``"auto"``: the one ``ray start``
started on this machine; ``"ray://host:10001"``: a remote one through Ray Client) or, with no
address, starts a local cluster of this machine's cores, which it shuts down again. Each
``submit`` becomes one Ray task; cancelling its future cancels the task::

    from vncards.ray_executor import RayExecutor
    from vncards.simulate import simulate

    with RayExecutor("auto") as cluster:
        summary = simulate("tienlen", 1_000_000, ["greedy", "random"], executor=cluster)

Workers import vncards themselves: install the same version on every node (or ship it with a
Ray ``runtime_env``).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from .errors import VncardsError

__all__ = ["RayExecutor"]

T = TypeVar("T")


#: Makes Ray take 127.0.0.1 as the node's address: a local cluster then listens on the loopback
#: interface only. Ray reads it when first imported.
_LOOPBACK = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _ray(local: bool) -> Any:
    if local and "ray" not in sys.modules:
        os.environ.setdefault(_LOOPBACK, "0")
    try:
        import ray
    except ImportError as e:
        raise VncardsError("Ray is not installed: pip install 'vncards[ray]'") from e
    return ray


def _call(fn: Callable[..., T], args: tuple[Any, ...], kwargs: dict[str, Any]) -> T:
    """What every Ray task runs: one submitted call."""
    return fn(*args, **kwargs)


class _TaskFuture(Future[Any]):
    """The future of one Ray task: settled by the task's result, cancelling it cancels the
    task on the cluster."""

    def __init__(self, ray: Any, ref: Any) -> None:
        super().__init__()
        self._ray_module, self._ref = ray, ref
        ref.future().add_done_callback(self._settle)

    def _settle(self, done: Future[Any]) -> None:
        if not self.set_running_or_notify_cancel():
            return  # cancelled here first: nobody waits for the result
        error = done.exception()
        if error is not None:
            self.set_exception(error)
        else:
            self.set_result(done.result())

    def cancel(self) -> bool:
        if not super().cancel():
            return False
        # The task may have finished meanwhile, or the cluster be gone already.
        with contextlib.suppress(Exception):
            self._ray_module.cancel(self._ref)
        return True


class RayExecutor(Executor):
    """Runs submitted calls as Ray tasks.

    ``address``: ``None`` starts a new local cluster (``ray.init(address="local")``, listening
    on 127.0.0.1 only when Ray is first imported here);
    ``"auto"`` joins the cluster running on this machine; ``"ray://host:port"`` a remote one.
    When Ray is already initialised in this process, that connection is used and left open.
    ``init_options`` go to ``ray.init`` (``num_cpus=`` sizes a local cluster).
    ``shutdown()`` disconnects, and stops a cluster this executor started.
    """

    def __init__(self, address: str | None = None, **init_options: Any) -> None:
        ray = self._ray = _ray(local=address is None)
        self._owns = not ray.is_initialized()
        if self._owns:
            try:
                ray.init(address=address or "local", **init_options)
            except ConnectionError as e:
                raise VncardsError(f"no Ray cluster at {address!r}: {e}") from e
        self._task = ray.remote(_call)
        self._lock = threading.Lock()
        self._futures: set[_TaskFuture] = set()
        self._closed = False

    @property
    def cpus(self) -> int:
        """The CPUs of the cluster (all nodes)."""
        return int(self._ray.cluster_resources().get("CPU", 0))

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Runs ``fn(*args, **kwargs)`` as one Ray task; returns its future."""
        with self._lock:
            if self._closed:
                raise RuntimeError("cannot submit to a RayExecutor after shutdown")
            future = _TaskFuture(self._ray, self._task.remote(fn, args, kwargs))
            self._futures.add(future)
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: Future[Any]) -> None:
        with self._lock:
            self._futures.discard(future)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Refuses new tasks; cancels the unfinished ones (``cancel_futures``) or waits for
        them (``wait``); disconnects, stopping the cluster if this executor started it."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            running = list(self._futures)
        if cancel_futures:
            for future in running:
                future.cancel()
        if wait:
            for future in running:
                if not future.cancelled():
                    future.exception()
        if self._owns:
            self._ray.shutdown()
