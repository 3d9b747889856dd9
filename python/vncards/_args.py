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

__all__ = ["count_arg"]


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
