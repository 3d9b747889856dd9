"""Checks of the search bots' numeric options (``policy_top``, ``chain``, ``keep_first``, ...):
each returns the value or refuses it with a :class:`~vncards.errors.RulesError` that names the
option, what it counts and the range, so every option says "out of range" the same way.

>>> whole_number("chain", 8, 0, 1000, unit="steps")
8
>>> whole_number("chain", 1001, 0, 1000, unit="steps")
Traceback (most recent call last):
    ...
vncards.errors.RulesError: chain must be a whole number of steps from 0 to 1000, not 1001
>>> real_number("policy_margin", -1, 0, unit="units")
Traceback (most recent call last):
    ...
vncards.errors.RulesError: policy_margin must be a finite number of units at least 0, not -1
"""

from __future__ import annotations

import math

from ..errors import RulesError

__all__ = ["whole_number", "real_number"]


def _refuse(name: str, kind: str, unit: str, low: float, high: float | None, value: object) -> RulesError:
    what = f"{kind} of {unit}" if unit else kind
    span = f"at least {low:g}" if high is None else f"from {low:g} to {high:g}"
    return RulesError(f"{name} must be {what} {span}, not {value!r}")


def whole_number(name: str, value: object, low: int, high: int | None = None, *, unit: str = "") -> int:
    """``value`` if it is a whole number (an ``int``, not a ``bool``) from ``low`` to ``high``
    (``None``: no upper bound), else a ``RulesError`` naming option ``name`` and ``unit``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < low
        or (high is not None and value > high)
    ):
        raise _refuse(name, "a whole number", unit, low, high, value)
    return value


def real_number(name: str, value: object, low: float, high: float | None = None, *, unit: str = "") -> float:
    """``value`` as a float if it is a finite number (an ``int`` or ``float``, not a ``bool``)
    from ``low`` to ``high`` (``None``: no upper bound), else a ``RulesError`` naming option
    ``name`` and ``unit``."""
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < low
        or (high is not None and value > high)
    ):
        raise _refuse(name, "a finite number", unit, low, high, value)
    return float(value)
