"""Checks of numeric arguments at the public boundary, shared by every game module.

A count from a caller is never passed on unchecked: it must be an ``int`` (not a ``bool``) of at
least ``minimum``; above ``maximum`` it is clamped (``clamp=True``, when a larger request can only
get the same answer, e.g. more arrangements than a hand has) or refused. Refusals are
:class:`~vncards.errors.RulesError` with the argument's name and the allowed range.

>>> count_arg("count", 10**9, minimum=1, maximum=72_072, clamp=True)
72072
>>> count_arg("deals", 0, minimum=1, maximum=10)
Traceback (most recent call last):
...
vncards.errors.RulesError: deals must be an int in 1..10, not 0
"""

from __future__ import annotations

from .errors import RulesError

__all__ = ["count_arg", "optional_count", "seed_arg", "MAX_GAMES", "MAX_JOBS"]

#: Most games (or deals) one run plays (:func:`vncards.simulate.simulate`,
#: :func:`vncards.bots.strength.bench_bots`): a run of that many takes days, and can be
#: interrupted; more would only fill the memory with its list of batches.
MAX_GAMES = 100_000_000
#: Most worker processes one run starts.
MAX_JOBS = 256


def count_arg(name: str, value: object, *, minimum: int, maximum: int, clamp: bool = False) -> int:
    """``value`` as an int in ``minimum..maximum`` (clamped down to ``maximum`` with ``clamp``)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < minimum
        or (value > maximum and not clamp)
    ):
        raise RulesError(f"{name} must be an int in {minimum}..{maximum}, not {value!r}")
    return min(value, maximum)


def optional_count(name: str, value: object, *, minimum: int, maximum: int) -> int | None:
    """None, or :func:`count_arg` of ``value`` (the message says None is allowed too)."""
    if value is None:
        return None
    try:
        return count_arg(name, value, minimum=minimum, maximum=maximum)
    except RulesError:
        raise RulesError(f"{name} must be None or an int in {minimum}..{maximum}, not {value!r}") from None


def seed_arg(value: object, name: str = "seed") -> int:
    """A run's seed: a non-negative int (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(f"{name} must be a non-negative int, not {value!r}")
    return value
