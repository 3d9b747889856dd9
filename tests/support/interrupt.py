"""Ctrl-C in a test: :func:`interrupted_after` sends this process SIGINT after a delay, with a
handler that raises :class:`Stopped` (a ``BaseException``, like ``KeyboardInterrupt``, so no
``except Exception`` on the way wraps it), and puts the previous handler back afterwards."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["Stopped", "interrupted_after"]


class Stopped(BaseException):
    """Raised by the test's SIGINT handler."""


@contextmanager
def interrupted_after(seconds: float) -> Iterator[None]:
    """SIGINT to this process ``seconds`` into the block (its handler raises :class:`Stopped`)."""

    def handler(signum: int, frame: object) -> None:
        raise Stopped

    previous = signal.signal(signal.SIGINT, handler)
    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        yield
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
