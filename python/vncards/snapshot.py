"""Snapshot text and its checks: bounded parsing, canonical text, HMAC signatures, and the
validation helpers games use.

Every check raises :class:`~vncards.errors.SnapshotError` naming the field that is wrong, so a
server that restores a tampered or truncated snapshot gets one clear, typed error.

A snapshot holds every hand and the RNG key of the session, from which every later deal can be
predicted: keep it on the server, never send one to a client. Sign what you store where others
could edit it (:func:`sign` / :func:`verify`, HMAC-SHA256 over :func:`canonical_text`).

>>> load_text("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
vncards.errors.SnapshotError: snapshot: nested deeper than 32 levels
>>> signed = sign({"a": 1}, b"server key")
>>> verify(load_text(signed), b"server key")
{'a': 1}
>>> verify(load_text(signed.replace('"a":1', '"a":2')), b"server key")
Traceback (most recent call last):
...
vncards.errors.SnapshotError: snapshot: the HMAC tag does not match (wrong key or edited)
>>> first_difference({"s": [1, 2]}, {"s": [1, 3]})
's[1]'

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

import hashlib
import hmac
import itertools
import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ._core import mask_to_text
from .errors import SnapshotError, SnapshotKeyError

__all__ = [
    "MAX_SNAPSHOT_CHARS",
    "MAX_SNAPSHOT_DEPTH",
    "MAX_SNAPSHOT_DIGITS",
    "bounded_text",
    "load_text",
    "canonical_text",
    "sign",
    "verify",
    "check_key",
    "json_copy",
    "first_difference",
    "expect",
    "expect_int",
    "shown",
    "SHOWN_CHARS",
    "expect_bool",
    "expect_str",
    "expect_list",
    "expect_dict",
    "expect_mask",
    "expect_disjoint",
]

_DECK_MASK = (1 << 52) - 1

#: Longest snapshot text accepted (characters, or bytes of UTF-8).
MAX_SNAPSHOT_CHARS = 8_000_000
#: Deepest nesting of lists and objects accepted in a snapshot.
MAX_SNAPSHOT_DEPTH = 32
#: Most digits of an integer accepted in a snapshot (a 256-bit seed has 78).
MAX_SNAPSHOT_DIGITS = 100

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def bounded_text(text: Any, what: str = "snapshot", form: str = "JSON text") -> str:
    """``text`` (str, or UTF-8 bytes) once it is known to be at most
    :data:`MAX_SNAPSHOT_CHARS` long; else SnapshotError naming ``what`` it should be."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        raw = bytes(text)
        if len(raw) > MAX_SNAPSHOT_CHARS:
            raise SnapshotError(f"{what}: longer than {MAX_SNAPSHOT_CHARS} bytes")
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SnapshotError(f"{what}: bytes are not UTF-8") from None
    elif isinstance(text, str):
        decoded = text
    else:
        raise SnapshotError(f"{what} must be {form}, not {type(text).__name__}")
    if len(decoded) > MAX_SNAPSHOT_CHARS:
        raise SnapshotError(f"{what}: longer than {MAX_SNAPSHOT_CHARS} characters")
    return decoded


def _not_finite(value: str) -> Any:
    raise _NotFinite(value)


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (math.inf, -math.inf):  # 1e400
        raise _NotFinite(text)
    return value


def _bounded_int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_SNAPSHOT_DIGITS:
        raise _TooLong(f"an integer of {digits} digits (at most {MAX_SNAPSHOT_DIGITS})")
    return int(text)


class _NotFinite(ValueError):
    """A number JSON has no text for (NaN, Infinity) or one too large for a float."""


class _TooLong(ValueError):
    """An integer of more digits than :data:`MAX_SNAPSHOT_DIGITS`."""


def load_text(text: Any, what: str = "snapshot") -> Any:
    """Parse strict JSON text after checking its size and nesting (so no RecursionError or
    runaway memory): anything that is not bounded, valid JSON of finite numbers (no ``NaN``,
    ``Infinity`` or ``1e400``) raises SnapshotError naming ``what`` was read (the snapshot,
    or a history's line). Snapshots, histories (both forms) and sessions all read with it.

    >>> load_text('{"x": NaN}', "line 5")
    Traceback (most recent call last):
    ...
    vncards.errors.SnapshotError: line 5: NaN is not a finite number (not JSON)
    """
    text = bounded_text(text, what)
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if brackets and max(itertools.accumulate(_DEPTH_STEP[c] for c in brackets)) > MAX_SNAPSHOT_DEPTH:
        raise SnapshotError(f"{what}: nested deeper than {MAX_SNAPSHOT_DEPTH} levels")
    try:
        return json.loads(text, parse_constant=_not_finite, parse_float=_finite_float, parse_int=_bounded_int)
    except _NotFinite as e:
        raise SnapshotError(f"{what}: {str(e)[:40]} is not a finite number (not JSON)") from None
    except _TooLong as e:
        raise SnapshotError(f"{what}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise SnapshotError(f"{what} is not valid JSON: {str(e)[:200]}") from None


def canonical_text(data: Any) -> str:
    """The one text of JSON data that signatures cover: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def check_key(key: Any, require: bool = False) -> bytes | None:
    """``key`` as bytes (None stays None, unless ``require``): anything but non-empty
    ``bytes`` or ``bytearray`` raises :class:`~vncards.errors.SnapshotKeyError`, before any
    snapshot is read or written.

    >>> check_key(b"server key")
    b'server key'
    >>> check_key(None, require=True)
    Traceback (most recent call last):
    ...
    vncards.errors.SnapshotKeyError: a signature is required (require_signature=True) but no key was given
    """
    if key is None:
        if require:
            raise SnapshotKeyError("a signature is required (require_signature=True) but no key was given")
        return None
    if not isinstance(key, (bytes, bytearray)) or not key:
        shown = "empty bytes" if isinstance(key, (bytes, bytearray)) else type(key).__name__
        raise SnapshotKeyError(f"a snapshot key must be non-empty bytes, not {shown}")
    return bytes(key)


def _tag(data: Any, key: bytes) -> str:
    raw = check_key(key, require=True)
    assert raw is not None
    return hmac.new(raw, canonical_text(data).encode("ascii"), hashlib.sha256).hexdigest()


def sign(data: dict[str, Any], key: bytes) -> str:
    """Canonical text of ``data`` with an ``"hmac"`` field: HMAC-SHA256 (hex) of the canonical
    text of ``data`` under ``key``."""
    return canonical_text({**data, "hmac": _tag(data, key)})


def verify(data: Any, key: bytes) -> dict[str, Any]:
    """``data`` without its ``"hmac"`` field, once the tag is checked (constant-time compare);
    a missing, malformed or wrong tag raises SnapshotError (a key that is not non-empty bytes:
    :class:`~vncards.errors.SnapshotKeyError`, whatever the data)."""
    check_key(key, require=True)
    if not isinstance(data, dict) or "hmac" not in data:
        raise SnapshotError("snapshot: not signed (no hmac field)")
    body = {k: v for k, v in data.items() if k != "hmac"}
    tag = data["hmac"]
    want = _tag(body, key)
    if not isinstance(tag, str) or not tag.isascii() or not hmac.compare_digest(tag, want):
        raise SnapshotError("snapshot: the HMAC tag does not match (wrong key or edited)")
    return body


# Values json_copy returns as they are, tested inline (no call per number or string).
_ATOMS = frozenset((str, int, float, bool, type(None)))
_all_atoms = _ATOMS.issuperset


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (tuples become lists): what callers get is theirs."""
    t = type(value)
    if t is dict:
        out = value.copy()
        for k, v in value.items():
            if type(v) not in _ATOMS:
                out[k] = json_copy(v)
        return out
    if t is list or t is tuple:
        if _all_atoms(map(type, value)):
            return list(value)
        return [v if type(v) in _ATOMS else json_copy(v) for v in value]
    return value


def first_difference(stored: Any, derived: Any, path: str = "") -> str | None:
    """The path of the first place where two JSON values differ (``None`` if equal)."""
    if isinstance(stored, dict) and isinstance(derived, dict):
        for k in derived:
            if k not in stored:
                return f"{path}.{k}" if path else str(k)
            sub = first_difference(stored[k], derived[k], f"{path}.{k}" if path else str(k))
            if sub is not None:
                return sub
        extra = [k for k in stored if k not in derived]
        return None if not extra else (f"{path}.{extra[0]}" if path else str(extra[0]))
    if isinstance(stored, (list, tuple)) and isinstance(derived, (list, tuple)):
        for i, (a, b) in enumerate(zip(stored, derived, strict=False)):
            sub = first_difference(a, b, f"{path}[{i}]")
            if sub is not None:
                return sub
        return None if len(stored) == len(derived) else f"{path}[{min(len(stored), len(derived))}]"
    return None if stored == derived else (path or "value")


def expect(condition: bool, message: str) -> None:
    """Raise SnapshotError(message) unless ``condition``."""
    if not condition:
        raise SnapshotError(message)


#: The longest a value read from a snapshot is shown in an error message, in characters.
SHOWN_CHARS = 60


def shown(value: Any) -> str:
    """``value`` as an error message shows it: its ``repr`` cut to :data:`SHOWN_CHARS`
    characters, and an int too long for that by its number of digits only, so that a hostile
    document cannot make a huge message (nor an int too long for ``str``).

    >>> shown(12)
    '12'
    >>> shown(10**400)
    'an int of 401 digits'
    >>> shown("x" * 100)[-20:]
    'xx… (102 characters)'
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 212:
        # 2**212 has 64 digits; counting digits by log10 avoids str()'s own digit limit.
        digits = int(abs(value).bit_length() * 0.30102999566398120) + 1
        if abs(value) < 10 ** (digits - 1):
            digits -= 1
        return f"an int of {digits} digits"
    text = repr(value)
    if len(text) <= SHOWN_CHARS:
        return text
    return f"{text[: SHOWN_CHARS - 3]}… ({len(text)} characters)"


def expect_int(value: Any, name: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int (not a bool) within ``lo..hi`` inclusive."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SnapshotError(f"{name} must be an int, not {shown(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise SnapshotError(f"{name} = {shown(value)} is out of range {lo}..{hi}")
    return value


def expect_bool(value: Any, name: str) -> bool:
    """``value`` if it is a bool, else a ``SnapshotError`` naming the field ``name``."""
    if not isinstance(value, bool):
        raise SnapshotError(f"{name} must be true or false, not {shown(value)}")
    return value


def expect_str(value: Any, name: str, choices: Iterable[str] | None = None) -> str:
    """``value`` if it is a str (one of ``choices`` when given), else a ``SnapshotError`` naming
    the field ``name``."""
    if not isinstance(value, str):
        raise SnapshotError(f"{name} must be a string, not {shown(value)}")
    if choices is not None:
        allowed = tuple(choices)
        if value not in allowed:
            raise SnapshotError(f"{name} must be one of {', '.join(allowed)}, not {shown(value)}")
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
            extra = sorted(set(value) - want, key=repr)  # keys of data may be any hashable
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
