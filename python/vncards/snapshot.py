"""Validation helpers for restoring JSON snapshots.

Every check raises :class:`~vncards.errors.SnapshotError` naming the field that is wrong, so a
server that restores a tampered or truncated snapshot gets one clear, typed error.

>>> expect_int(3, "current_seat", 0, 3)
3
>>> expect_int("3", "current_seat", 0, 3)
Traceback (most recent call last):
...
vncards.errors.SnapshotError: current_seat must be an int, not '3'
>>> expect_disjoint([0b011, 0b100], "hands", union=0b1111)
Traceback (most recent call last):
...
vncards.errors.SnapshotError: hands: cards are not conserved (missing 3♥; extra -)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ._core import mask_to_text
from .errors import SnapshotError

__all__ = [
    "expect",
    "expect_int",
    "expect_bool",
    "expect_str",
    "expect_list",
    "expect_dict",
    "expect_mask",
    "expect_disjoint",
]

_DECK_MASK = (1 << 52) - 1


def expect(condition: bool, message: str) -> None:
    """Raise SnapshotError(message) unless ``condition``."""
    if not condition:
        raise SnapshotError(message)


def expect_int(value: Any, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool) within ``lo..hi`` inclusive."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{name} must be an int, not {value!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise SnapshotError(f"{name} = {value} is out of range {lo}..{hi}")
    return value


def expect_bool(value: Any, name: str) -> bool:
    """``value`` if it is a bool, else a ``SnapshotError`` naming the field ``name``."""
    if not isinstance(value, bool):
        raise SnapshotError(f"{name} must be true or false, not {value!r}")
    return value


def expect_str(value: Any, name: str, choices: Iterable[str] | None = None) -> str:
    """``value`` if it is a str (one of ``choices`` when given), else a ``SnapshotError`` naming
    the field ``name``."""
    if not isinstance(value, str):
        raise SnapshotError(f"{name} must be a string, not {value!r}")
    if choices is not None:
        allowed = tuple(choices)
        if value not in allowed:
            raise SnapshotError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def expect_list(value: Any, name: str, length: int | None = None) -> list[Any]:
    """``value`` if it is a list (of ``length`` items when given), else a ``SnapshotError``
    naming the field ``name``."""
    if not isinstance(value, list):
        raise SnapshotError(f"{name} must be a list, not {type(value).__name__}")
    if length is not None and len(value) != length:
        raise SnapshotError(f"{name} must have {length} items, not {len(value)}")
    return value


def expect_dict(value: Any, name: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    """A dict; with ``keys``, exactly those keys."""
    if not isinstance(value, dict):
        raise SnapshotError(f"{name} must be an object, not {type(value).__name__}")
    if keys is not None:
        want = set(keys)
        if set(value) != want:
            missing = sorted(want - set(value))
            extra = sorted(set(value) - want)
            raise SnapshotError(f"{name}: missing keys {missing}, unexpected keys {extra}")
    return value


def expect_mask(value: Any, name: str) -> int:
    """A 52-card bitmask (an int with no bits above 2♥)."""
    mask = expect_int(value, name, 0)
    if mask & ~_DECK_MASK:
        raise SnapshotError(f"{name} is not a card mask")
    return mask


def expect_disjoint(masks: Sequence[int], name: str, union: int | None = None) -> int:
    """Card masks that share no card (and, with ``union``, together make exactly it)."""
    seen = 0
    for i, m in enumerate(masks):
        if m & seen:
            raise SnapshotError(f"{name}: card {mask_to_text(m & seen)} appears twice (item {i})")
        seen |= m
    if union is not None and seen != union:
        missing = mask_to_text(union & ~seen & _DECK_MASK)
        extra = mask_to_text(seen & ~union & _DECK_MASK)
        raise SnapshotError(
            f"{name}: cards are not conserved (missing {missing or '-'}; extra {extra or '-'})"
        )
    return seen
