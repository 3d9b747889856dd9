"""Shared timing helper for the Python benchmarks: best of several runs, printed as a rate."""

from __future__ import annotations

import time
from collections.abc import Callable


def rate(fn: Callable[[], object], *, per_call: int = 1, min_time: float = 0.4, repeats: int = 5) -> float:
    """Best observed units/s of ``fn`` (each call doing ``per_call`` units)."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t
        if dt >= min_time / repeats:
            break
        n *= 2
    best = dt
    for _ in range(repeats - 1):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, time.perf_counter() - t)
    return n * per_call / best


def report(name: str, value: float, unit: str) -> None:
    print(f"{name:<58} {value:>14,.0f} {unit}")
